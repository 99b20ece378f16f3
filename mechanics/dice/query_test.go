package dice

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestQueryProbabilities(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want float64
	}{
		{"2D6 >= 9", 10.0 / 36},                                    // 4+3+2+1 of the 36 pairs
		{"2d6>=9", 10.0 / 36},                                      // case and spaces do not matter
		{"2D6 > 8", 10.0 / 36},                                     // the same event
		{"2D6 = 7", 6.0 / 36},                                      // six pairs make 7
		{"2D6 == 7", 6.0 / 36},                                     // == is =
		{"2D6 != 7", 30.0 / 36},                                    // the other 30
		{"2D6 <= 4", 6.0 / 36},                                     // 1+2+3 pairs make 2, 3, 4
		{"2D6 < 5", 6.0 / 36},                                      // the same
		{"3D6kh2 >= 10", 77.0 / 216},                               // by enumeration of the 216 rolls (TestQueryEnumeration)
		{"2D6 >= 9 and 3D6kh2 >= 10", 10.0 / 36 * 77 / 216},        // independent rolls multiply
		{"D6 = 6 or D6 = 6", 1 - 25.0/36},                          // one of two dice shows a 6: 11/36
		{"not D6 = 6", 5.0 / 6},                                    // complement
		{"not (D6 = 6 or D6 = 6)", 25.0 / 36},                      // neither of two dice
		{"D6 >= 4 and D6 >= 4 and D6 >= 4", 1.0 / 8},               // three independent halves
		{"D6r1 >= 4", 1.0/2 + 1.0/6*1.0/2},                         // a 1 gets a second chance at 4+: 7/12
		{"D6 reroll 1s >= 4", 7.0 / 12},                            // the same in words
		{"D6r<3 >= 4", 1.0/2 + 2.0/6*1.0/2},                        // 1s and 2s re-rolled: 2/3
		{"10D6 count 4+ >= 6", 386.0 / 1024},                       // Binomial(10, 1/2) >= 6: (210+120+45+10+1)/1024
		{"10D6 count 4+ reroll failures >= 6", 966654.0 / 1048576}, // Binomial(10, 3/4) >= 6: sum of C(10,k) 3^k for k = 6..10, over 4^10
		{"D66 >= 50", 12.0 / 36},                                   // tens die 5 or 6
		{"D66 = 17", 0},                                            // no D66 reads 17
		{"2D6 + 3 > D6 + 4", 160.0 / 216},                          // 2D6 - D6 >= 2, by enumeration of 216 rolls
		{"D6! >= 7", 1.0 / 6},                                      // a 6 then anything
		{"D6! >= 13", 1.0 / 36},                                    // 6, 6, then anything
		{"D6! >= 19", 0},                                           // the explosion stops after two extra dice
		{"D6! = 7", 1.0 / 36},                                      // a 6 then a 1
		{"D6 != 7", 1},                                             // a D6 is never 7
		{"3D6 discard lowest >= 10", 77.0 / 216},                   // the same as 3D6kh2
		{"highest of 2D6 >= 5", 20.0 / 36},                         // 1 - (4/6)^2
		{"D6 = 6 or D6 >= 4 and D6 >= 4", 3.0 / 8},                 // and binds tighter: 1/6 + 1/4 - 1/24 = 9/24
	} {
		q, err := ParseQuery(tc.q)
		if err != nil {
			t.Errorf("%s: %v", tc.q, err)
			continue
		}
		if !q.IsCondition() {
			t.Errorf("%s: parsed as a number", tc.q)
		}
		if math.Abs(q.Prob()-tc.want) > 1e-12 {
			t.Errorf("%s: P = %.15f, want %.15f", tc.q, q.Prob(), tc.want)
		}
	}
}

func TestQueryDistributions(t *testing.T) {
	for _, tc := range []struct {
		q        string
		min, max int
		mean     float64
	}{
		{"D6r1", 1, 6, 3.5 + 2.5/6},                               // a 1 (1/6) becomes 3.5 on average
		{"D6!", 1, 18, 3.5 * (1 + 1.0/6 + 1.0/36)},                // each further die comes 1/6 as often
		{"10D6 count 4+", 0, 10, 5},                               // Binomial(10, 1/2)
		{"10D6 count 5+ reroll 1s", 0, 10, 10 * (1.0/3 + 1.0/18)}, // 2/6, plus a 1 re-rolled: 1/6 × 2/6
		{"D66", 11, 66, 38.5},                                     // 10 × 3.5 + 3.5
		{"2D6 + 1", 3, 13, 8},
	} {
		q, err := ParseQuery(tc.q)
		if err != nil {
			t.Errorf("%s: %v", tc.q, err)
			continue
		}
		d := q.Dist()
		if q.IsCondition() || d.Min != tc.min || d.Max() != tc.max || math.Abs(d.Mean()-tc.mean) > 1e-12 {
			t.Errorf("%s: range %d..%d mean %.12f, want %d..%d mean %.12f", tc.q, d.Min, d.Max(), d.Mean(), tc.min, tc.max, tc.mean)
		}
		sum := 0.0
		for _, p := range d.P {
			sum += p
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%s: probabilities sum to %v", tc.q, sum)
		}
	}
}

// TestQueryEnumeration checks the exact values of re-rolls and exploding
// dice against enumeration of every way the dice can fall.
func TestQueryEnumeration(t *testing.T) {
	// D6r<3: the first roll, and when it is 1 or 2, the second.
	want := map[int]float64{}
	for a := 1; a <= 6; a++ {
		if a >= 3 {
			want[a] += 1.0 / 6
			continue
		}
		for b := 1; b <= 6; b++ {
			want[b] += 1.0 / 36
		}
	}
	d := mustQuery(t, "D6r<3").Dist()
	for v, p := range want {
		if math.Abs(d.At(v)-p) > 1e-12 {
			t.Errorf("D6r<3: P(%d) = %v, want %v", v, d.At(v), p)
		}
	}
	// D4!: up to three dice, each further one only after a 4.
	want = map[int]float64{}
	for a := 1; a <= 4; a++ {
		for b := 1; b <= 4; b++ {
			for c := 1; c <= 4; c++ {
				v := a
				if a == 4 {
					v += b
					if b == 4 {
						v += c
					}
				}
				want[v] += 1.0 / 64
			}
		}
	}
	d = mustQuery(t, "D4!").Dist()
	for v, p := range want {
		if math.Abs(d.At(v)-p) > 1e-12 {
			t.Errorf("D4!: P(%d) = %v, want %v", v, d.At(v), p)
		}
	}
	// 3D6kh2 >= 10 is 77/216.
	n := 0
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			for c := 1; c <= 6; c++ {
				if a+b+c-min(a, b, c) >= 10 {
					n++
				}
			}
		}
	}
	if n != 77 {
		t.Errorf("3D6kh2 >= 10: %d of 216 rolls, want 77", n)
	}
}

func mustQuery(t *testing.T, s string) *Query {
	t.Helper()
	q, err := ParseQuery(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestQueryMonteCarlo rolls each kind of query and compares the frequencies
// with the exact values, within 5 standard errors (a false alarm about once
// in 1.7 million comparisons: P(|Z| > 5) = 5.7e-7).
func TestQueryMonteCarlo(t *testing.T) {
	const n = 200_000
	r := New(7, 0)
	for _, s := range []string{"2D6 >= 9 and 3D6kh2 >= 10", "not (D6 = 6 or D6 = 6)", "D6r1 >= 4", "10D6 count 4+ reroll failures >= 8",
		"10D6 count 5+ reroll 1s >= 4", "D66 >= 50", "D6! >= 7", "2D4! > 5", "2D6 + 3 > D6 + 4", "D6r<3 = 2"} {
		q := mustQuery(t, s)
		k := 0
		for range n {
			if q.Holds(r) {
				k++
			}
		}
		p := q.Prob()
		se := math.Sqrt(p * (1 - p) / n)
		if z := (float64(k)/n - p) / se; math.Abs(z) > 5 {
			t.Errorf("%s: estimate %.5f, exact %.5f, z = %.1f", s, float64(k)/n, p, z)
		}
	}
	for _, s := range []string{"D6!", "3D6r1", "12D6 count 3+ reroll failures", "D66", "2D8! - D6"} {
		q := mustQuery(t, s)
		d := q.Dist()
		counts := map[int]int{}
		for range n {
			counts[q.Roll(r)]++
		}
		for v := range counts {
			if d.At(v) == 0 {
				t.Errorf("%s rolled impossible %d", s, v)
			}
		}
		for i, p := range d.P {
			if p == 0 {
				continue
			}
			se := math.Sqrt(p * (1 - p) / n)
			if z := (float64(counts[d.Min+i])/n - p) / se; math.Abs(z) > 5 {
				t.Errorf("%s: P(%d) estimate %.5f, exact %.5f, z = %.1f", s, d.Min+i, float64(counts[d.Min+i])/n, p, z)
			}
		}
	}
}

func TestQueryText(t *testing.T) {
	for in, want := range map[string]string{
		"2d6>=9 AND not(d6=6 or d6 = 6)":   "2D6 >= 9 and not (D6 = 6 or D6 = 6)",
		"10d6 count 4+ reroll failures":    "10D6 count 4+ reroll failures",
		"d6 reroll 1s + 1":                 "D6r1 + 1",
		"d6 r < 3 ! >= 4":                  "D6r<3! >= 4",
		"d66":                              "D66",
		"3D6 discard lowest":               "3D6kh2",
		"D6 >= 4 and D6 >= 4 or D6 >= 4":   "(D6 >= 4 and D6 >= 4) or D6 >= 4",
		"D6 >= 4 and (D6 >= 4 or D6 >= 4)": "D6 >= 4 and (D6 >= 4 or D6 >= 4)",
		"D6 >= 4 or D6 >= 4 and D6 >= 4":   "D6 >= 4 or (D6 >= 4 and D6 >= 4)",
		"artillery":                        "artillery",
		"- d3+4 >= -1-d6":                  "-D3 + 4 >= -1 - D6",
	} {
		q, err := ParseQuery(in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if q.String() != want {
			t.Errorf("%q: text %q, want %q", in, q.String(), want)
		}
		// The canonical text reads back to the same answer.
		again := mustQuery(t, q.String())
		if again.Prob() != q.Prob() || again.Dist().Mean() != q.Dist().Mean() {
			t.Errorf("%q reads back differently", q.String())
		}
	}
}

func TestQueryErrors(t *testing.T) {
	for _, tc := range []struct {
		q    string
		col  int
		want string
	}{
		{"", 1, "empty query"},
		{"2D6 >=", 7, "expected dice"},
		{"2D6 and D6 >= 4", 5, `"and" joins conditions`},
		{"D6 >= 4 or 2D6", 12, "expected a condition after \"or\""},
		{"(2D6)", 1, "brackets group conditions"},
		{"(D6 >= 4", 9, "expected \")\""},
		{"3D6kh2 r1", 8, "does not combine with keeping"},
		{"D6r7", 4, "no face 7"},
		{"D6 r<1", 6, "cannot re-roll below 1"},
		{"D6 r<ones", 6, "cannot re-roll below ones"},
		{"D6 reroll <ones", 12, "cannot re-roll below ones"},
		{"10D6 count 7+", 12, "cannot show 7 or more"},
		{"10D6 count 4", 13, "expected \"+\""},
		{"10D6 count 4+ reroll 3s", 22, "expected what to re-roll"},
		{"D6r1 count 4+", 6, "write re-rolls after the target"},
		{"D6 reroll failures", 11, "needs a target"},
		{"2D6 >= artillery", 8, "must stand alone"},
		{"2D6 ? 3", 5, "unexpected character"},
		// Spaces are optional, so "!=" touching dice that may explode could
		// be "! =" as well as "!=": refused, at the "!".
		{"D6!=7", 3, `"!=" straight after dice reads two ways`},
		{"3D6r1!=12", 6, `"!=" straight after dice reads two ways`},
		{"2D6 >= 9 9", 10, "unexpected number 9; expected +, -, and, or, or the end"},
		// Where a term was expected, the word or sign found there is named.
		{"D6 =< 4", 5, `expected dice such as D6, 2D6 or a number, found "<"`},
		{"2D6 >= and D6 >= 4", 8, `expected dice such as D6, 2D6 or a number, found "and"`},
		{"D6 + !", 6, `expected dice such as D6, 2D6 or a number, found "!"`},
		{"2D6 >=", 7, "expected dice such as D6, 2D6 or a number, found end of expression"},
		// A minus leads a side once; it does not stand for a negative number
		// after another sign.
		{"2D6 - -3", 7, `expected dice such as D6, 2D6 or a number, found "-"`},
		{"- - 3", 3, `expected dice such as D6, 2D6 or a number, found "-"`},
		// Exploding dice are not counted.
		{"10D6! count 6+", 7, "count does not combine with exploding dice"},
		// What may follow depends on what came before.
		{"2D6 9", 5, "unexpected number 9; expected +, -, a comparison or the end"},
		{"(2D6 >= 9) 9", 12, "unexpected number 9; expected and, or, or the end"},
		{"D6 >= 4 >= 3", 9, `unexpected ">="; a comparison has two sides: join another with and or or`},
		{"D6 >= 4)", 8, `unexpected ")"; no bracket is open`},
		// The Artillery and Scatter dice stand alone, comparisons included.
		{"artillery > 4", 11, `the artillery dice must stand alone; found ">" after it`},
		{"scatter dice = 1", 14, `the scatter dice must stand alone; found "=" after it`},
		// Dice of 66 are D66s, a tens and a units die, one at a time.
		{"2D66", 1, "2D66: D66 is a tens die and a units die (11 to 66), and two or more are written as a sum, such as D66 + D66"},
		{"highest of 2D66", 1, "2D66: D66 is a tens die"},
		{"D6 + 3D66kh2 >= 9", 6, "3D66: D66 is a tens die"},
		// A number past the lexer's reach says what would have fitted.
		{"99999999999D6", 1, "number 99999999999 is too large; expected at most 100 dice of at most 1000 sides, or a constant of at most 1000"},
	} {
		_, err := ParseQuery(tc.q)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: got %v, want a SyntaxError", tc.q, err)
			continue
		}
		if !strings.Contains(se.Msg, tc.want) || se.Col != tc.col {
			t.Errorf("%q: got column %d %q, want column %d with %q", tc.q, se.Col, se.Msg, tc.col, tc.want)
		}
	}
}

// TestQueryLimits: a query holds at most 4*MaxTerms = 64 terms, counted
// over every side of every comparison, and at most maxQueryDepth = 64
// brackets and nots nested; one more is refused where it starts.
func TestQueryLimits(t *testing.T) {
	terms := func(n int) string { return strings.Repeat("1+", n-1) + "1" }
	nest := func(n int) string { return strings.Repeat("(", n) + "D6 >= 4" + strings.Repeat(")", n) }
	nots := func(n int) string { return strings.Repeat("not ", n) + "D6 >= 4" }
	for _, tc := range []struct {
		name, q string
		col     int // 0: the query parses
		want    string
	}{
		{"64 terms", terms(64), 0, ""},
		// The 65th term starts at column 2*64+1 = 129.
		{"65 terms", terms(65), 129, "too many terms; at most 64 in a query"},
		// 62 + 2 terms: both sides of the comparison count.
		{"64 terms over two sides", terms(62) + " >= D6+3", 0, ""},
		// The 65th term, the 3 after "1+...+1 >= D6+", starts at column
		// 2*63-1 + len(" >= D6+") + 1 = 125 + 7 + 1.
		{"65 terms over two sides", terms(63) + " >= D6+3", 133, "too many terms; at most 64 in a query"},
		{"64 brackets", nest(64), 0, ""},
		// The 65th bracket is the 65th character.
		{"65 brackets", nest(65), 65, "too deeply nested; at most 64 brackets and nots"},
		{"64 nots", nots(64), 0, ""},
		// The 65th "not" starts after 64 "not " of four characters each.
		{"65 nots", nots(65), 257, "too deeply nested; at most 64 brackets and nots"},
		// 10,001 tokens: the last "1", the 10,001st, is the 10,001st character.
		{"10,001 tokens", terms(5001), 10001, "query too long; expected at most 10000 tokens (numbers, words and signs) and 64 terms"},
	} {
		_, err := ParseQuery(tc.q)
		if tc.col == 0 {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: got %v, want a SyntaxError", tc.name, err)
			continue
		}
		if se.Msg != tc.want || se.Col != tc.col {
			t.Errorf("%s: got column %d %q, want column %d %q", tc.name, se.Col, se.Msg, tc.col, tc.want)
		}
	}
}

// TestQueryPastBudget: a query whose exact answer would cost more than
// MaxExactWork steps parses without one and is rolled instead. Two rolls
// of 100D1000 compared: X > Y has chance (1 - P(X = Y))/2 by symmetry, and
// P(X = Y) is about 1/(2 sqrt(pi) sd) with sd = sqrt(100 (1000^2 - 1)/12)
// = 2886.6 (the normal approximation), 9.8e-5, so 0.49995; 20,000 rolls
// agree within 5 standard errors. The same condition on 10D6 keeps its
// exact answer.
func TestQueryPastBudget(t *testing.T) {
	q := mustQuery(t, "100D1000 > 100D1000")
	if q.HasExact() || q.Prob() != 0 {
		t.Fatalf("100D1000 > 100D1000: exact %v, probability %v; want none", q.HasExact(), q.Prob())
	}
	r := New(3, 0)
	const n = 20_000
	held := 0
	for range n {
		if q.Holds(r) {
			held++
		}
	}
	sd := math.Sqrt(100 * (1000.0*1000 - 1) / 12)
	p := (1 - 1/(2*math.Sqrt(math.Pi)*sd)) / 2
	if z := (float64(held)/n - p) / math.Sqrt(p*(1-p)/n); math.Abs(z) > 5 {
		t.Errorf("held %d of %d, want %.5f, z %.1f", held, n, p, z)
	}
	if small := mustQuery(t, "10D6 > 10D6"); !small.HasExact() {
		t.Error("10D6 > 10D6 lost its exact answer")
	}
	// Past the budget every later part is skipped too, numbers as well.
	if num := mustQuery(t, "100D1000 + 100D1000 + D6"); num.HasExact() || num.Dist().Max() != 0 {
		t.Errorf("a number past the budget: exact %v, dist %v", num.HasExact(), num.Dist())
	}
}

func TestQueryRollAllocatesNothing(t *testing.T) {
	q := mustQuery(t, "2D6 >= 9 and (10D6 count 4+ reroll failures >= 6 or D6r1! + D66 > 40)")
	r := New(1, 0)
	if a := testing.AllocsPerRun(1000, func() { q.Holds(r) }); a != 0 {
		t.Errorf("Holds allocates %v times", a)
	}
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"2D6 >= 9", "2D6 >= 9 and 3D6kh2 >= 10", "not (D6 = 6 or D6 = 6)", "10D6 count 4+ reroll failures >= 6",
		"D6r<3! + D66 != 40", "artillery", "3D6 (discard lowest) > 2D6", "((((D6 >= 1))))", "D6 r", "count", ">="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuery(s)
		if err != nil {
			return
		}
		if p := q.Prob(); p < -1e-9 || p > 1+1e-9 || math.IsNaN(p) {
			t.Errorf("%q: probability %v", s, p)
		}
		again, err := ParseQuery(q.String())
		if err != nil {
			t.Errorf("%q: canonical %q does not parse: %v", s, q.String(), err)
			return
		}
		if math.Abs(again.Prob()-q.Prob()) > 1e-9 {
			t.Errorf("%q: canonical %q gives %v, not %v", s, q.String(), again.Prob(), q.Prob())
		}
		r := New(1, 0)
		q.Holds(r)
		q.Roll(r)
	})
}

// TestQueryComplementDigits: "not" of a condition that almost always
// holds keeps the digits of its small chance, rather than losing them to
// 1 - p: each answer is within 1e-12 of the chance, relative to its size.
// all1(n) = 6^-n is the chance that n dice all show 1.
func TestQueryComplementDigits(t *testing.T) {
	all1 := func(n int) float64 { return math.Pow(6, -float64(n)) }
	for _, tc := range []struct {
		q    string
		want float64
	}{
		{"not 10D6 >= 11", all1(10)},
		{"not 100D6 >= 101", all1(100)},
		{"not 20D6 count 2+ >= 1", all1(20)},
		{"not 10D6 != 10", all1(10)},
		{"not (D6 = 7 or 10D6 > 10)", all1(10)},    // D6 = 7 never holds
		{"not (D6 >= 1 and 10D6 > 10)", all1(10)},  // D6 >= 1 always holds
		{"not (not 10D6 = 10)", all1(10)},          // a double negation
		{"not (10D6 > 10 or 10D6 > 10)", all1(20)}, // both fail
		// The D6 a 1 or the 5D6 all ones (1/6 + 6^-5 - 6^-6), and five more ones.
		{"not (D6 > 1 and 5D6 > 5) and 5D6 <= 5", (1.0/6 + all1(5) - all1(6)) * all1(5)},
	} {
		q := mustQuery(t, tc.q)
		if got := q.Prob(); math.Abs(got-tc.want) > 1e-12*tc.want {
			t.Errorf("%s: P = %.15g, want %.15g", tc.q, got, tc.want)
		}
	}
}

// TestQueryToTheLastDigit: a condition's chance is the float64 nearest its
// fraction, or the next one: 2D6 >= v is (ways of v or more)/36, and so is
// its double negation; D66 >= v is (values of v or more)/36. Summed from
// the top alone, 2D6 >= 3 came to 0.9722222222222224, 2 steps off 35/36.
func TestQueryToTheLastDigit(t *testing.T) {
	near := func(got, want float64) bool {
		return got == want || got == math.Nextafter(want, 2) || got == math.Nextafter(want, -1)
	}
	ways := []float64{1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1} // 2D6: 2 to 12
	for v := 2; v <= 12; v++ {
		k := 0.0
		for _, w := range ways[v-2:] {
			k += w
		}
		for _, s := range []string{"2D6 >= " + strconv.Itoa(v), "not not 2D6 >= " + strconv.Itoa(v), "not 2D6 < " + strconv.Itoa(v)} {
			if got := mustQuery(t, s).Prob(); !near(got, k/36) {
				t.Errorf("%s: P = %v, want %v", s, got, k/36)
			}
		}
	}
	for v := 11; v <= 66; v++ {
		k := 0.0
		for tens := 1; tens <= 6; tens++ {
			for units := 1; units <= 6; units++ {
				if 10*tens+units >= v {
					k++
				}
			}
		}
		s := "D66 >= " + strconv.Itoa(v)
		if got := mustQuery(t, s).Prob(); !near(got, k/36) {
			t.Errorf("%s: P = %v, want %v", s, got, k/36)
		}
	}
}
