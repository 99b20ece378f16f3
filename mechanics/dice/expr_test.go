package dice

import (
	"errors"
	"math"
	"sort"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"D6", "D6"},
		{"d6", "D6"},
		{"D3", "D3"},
		{"2D6", "2D6"},
		{"3D6", "3D6"},
		{"4D6", "4D6"},
		{"D3+1", "D3+1"},
		{"D6 + 1", "D6+1"},
		{"2D6-1", "2D6-1"},
		{"3D6kh2", "3D6kh2"},
		{"3d6KL2", "3D6kl2"},
		{"3D6 discard lowest", "3D6kh2"},
		{"3D6 discard the lowest", "3D6kh2"},
		{"3D6 (discard the lowest)", "3D6kh2"},
		{"3D6 discard highest", "3D6kl2"},
		{"highest of 2D6", "2D6kh1"},
		{"Highest of 3D6", "3D6kh1"},
		{"lowest of 2D6", "2D6kl1"},
		{"2D6kh2", "2D6"},
		{"highest of 2D6 + 1", "2D6kh1+1"},
		{"artillery", "artillery"},
		{"Artillery dice", "artillery"},
		{"scatter", "scatter"},
		{"scatter(1)", "scatter(1)"},
		{"7", "7"},
		{"D6+D3-2", "D6+D3-2"},
		{"2D10", "2D10"},
	}
	for _, tt := range tests {
		e, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := e.String(); got != tt.want {
			t.Errorf("Parse(%q) = %s, want %s", tt.in, got, tt.want)
		}
		// The canonical form parses back to itself.
		again, err := Parse(e.String())
		if err != nil || again.String() != e.String() {
			t.Errorf("canonical %q does not round-trip: %v %v", e.String(), again, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in  string
		col int // where the error points, 1-based
	}{
		{"", 1},
		{"D", 2},
		{"2D", 3},
		{"D6+", 4},
		{"D6 +* 1", 5},
		{"D1", 2},
		{"0D6", 1},
		{"101D6", 1},
		{"3D6kh4", 6},
		{"3D6kh", 6},
		{"D6 discard lowest", 4},
		{"3D6 discard middle", 13},
		{"highest 2D6", 9},
		{"artillery+1", 10},
		{"D6+artillery", 4},
		{"scatter(9)", 9},
		{"2D6x", 4},
		{"D6 D6", 4},
		{"3D6 (discard lowest", 20},
		{"dice", 1},
		{"40D6kh2", 5},
		// D66 is the query language's tens and units die, which an Expr
		// cannot roll: refused where it stands, not read as 66 sides.
		{"D66", 1},
		{"1d66", 1},
		{"D6 + D66", 6},
		{"2D6 - 1D66 + 3", 7},
		{"2D66", 1},
		{"highest of 3D66", 12},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		if strings.Contains(strings.ToUpper(tt.in), "D66") && (err == nil || !strings.Contains(err.Error(), "tens die and a units die")) {
			t.Errorf("Parse(%q) error = %v, want D66 called a tens and a units die", tt.in, err)
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error = %v, want a *SyntaxError", tt.in, err)
			continue
		}
		if se.Col != tt.col {
			t.Errorf("Parse(%q) error at column %d, want %d (%v)", tt.in, se.Col, tt.col, err)
		}
	}
}

// TestParseQueryOnly: what only a dice question reads (ParseQuery) is
// refused by name, where it starts, and marked QueryOnly; ParseSum refuses
// the Artillery and Scatter dice so too. A typo that no question reads
// either keeps the message of the first token Parse cannot read.
func TestParseQueryOnly(t *testing.T) {
	const tail = ", which only simulate dice reads; a profile's or a rule's dice are added up, such as D6, 2D6, D3+1 or 3D6kh2"
	tests := []struct {
		in   string
		col  int // 1-based, where the part starts
		msg  string
		only bool
	}{
		{"2D6r1", 4, `"r1" re-rolls dice` + tail, true},
		{"D6 reroll 1s", 4, `"reroll 1s" re-rolls dice` + tail, true},
		{"D6r<3", 3, `"r<3" re-rolls dice` + tail, true},
		{"2D6 explode", 5, `"explode" makes exploding dice` + tail, true},
		{"D6!", 3, `"!" makes exploding dice` + tail, true},
		{"10D6 count 4+", 6, `"count 4+" counts successes` + tail, true},
		{"10D6 count 4+ reroll failures", 6, `"count 4+ reroll failures" counts successes` + tail, true},
		// A condition is named whole, at its comparison.
		{"2D6 >= 5", 5, `"2D6 >= 5" is a condition` + tail, true},
		{"not D6 >= 4", 1, `"not" negates a condition` + tail, true},
		{"(D6 >= 4 or D6 = 6)", 1, `"(" groups conditions` + tail, true},
		{"-D3 + 4", 1, `"-D3" starts with a minus` + tail, true},
		// The first such part, by column, is the one named.
		{"D6 + 3D6! >= 2D6r1", 9, `"!" makes exploding dice` + tail, true},
		{"D6r1 >= 3", 3, `"r1" re-rolls dice` + tail, true},
		{"D66", 1, "D66 is a tens die and a units die (11 to 66)" + tail, true},
		// Several D66s are refused by simulate dice too: no message sends
		// a scenario there for them.
		{"2D66", 1, "2D66: D66 is a tens die and a units die (11 to 66), not a die of 66 sides, so it is not rolled as dice added up; a profile's or a rule's dice are such as D6, 2D6, D3+1 or 3D6kh2", true},
		{"artillery", 1, `"artillery" is the Artillery dice` + tail, true},
		{"Artillery dice", 1, `"Artillery dice" is the Artillery dice` + tail, true},
		{"scatter", 1, `"scatter" is the Scatter dice` + tail, true},
		{" scatter(1)", 2, `"scatter(1)" is the Scatter dice` + tail, true},
		// Not a dice question either: the messages Parse always gave.
		{"2D6r7", 4, `unknown word "r"; expected kh, kl, discard, + or -`, false},
		{"D6 reroll", 4, `unknown word "reroll"; expected kh, kl, discard, + or -`, false},
		{"2D6x", 4, `unknown word "x"; expected kh, kl, discard, + or -`, false},
		{"D6 >=", 4, `unexpected character '>'; expected a number, D, +, - or a word such as "discard"`, false},
		{"D6 ? 2", 4, `unexpected character '?'; expected a number, D, +, - or a word such as "discard"`, false},
		{"3D6kh2 r1", 8, `unexpected "r"; expected +, - or the end of the expression`, false},
	}
	for _, tt := range tests {
		_, err := ParseSum(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParseSum(%q) error = %v, want a *SyntaxError", tt.in, err)
			continue
		}
		if se.Col != tt.col || se.Msg != tt.msg || se.QueryOnly != tt.only {
			t.Errorf("ParseSum(%q) = column %d %q (query only %v), want column %d %q (%v)", tt.in, se.Col, se.Msg, se.QueryOnly, tt.col, tt.msg, tt.only)
		}
		// Parse refuses all but the Artillery and Scatter dice the same way.
		if _, perr := Parse(tt.in); !strings.Contains(strings.ToLower(tt.in), "artillery") && !strings.Contains(tt.in, "scatter") && perr.Error() != err.Error() {
			t.Errorf("Parse(%q) = %v, want %v", tt.in, perr, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"D6", "2D6+1", "3D6 discard lowest", "highest of 2D6", "artillery", "scatter(1)", "5D6kl3-2", "(discard"} {
		f.Add(s)
	}
	r := New(1, 1)
	f.Fuzz(func(t *testing.T, s string) {
		e, err := Parse(s)
		if err != nil {
			return
		}
		v := e.Roll(r)
		if v < e.Min() || v > e.Max() {
			t.Fatalf("%q rolled %d, outside %d to %d", s, v, e.Min(), e.Max())
		}
		// Past the budget nothing works the distribution out (Dist's
		// contract): 94D942 would take seconds.
		if e.ExactWork() <= MaxExactWork && e.Dist().At(v) == 0 {
			t.Fatalf("%q rolled %d, which its distribution calls impossible", s, v)
		}
		if again, err := Parse(e.String()); err != nil || again.String() != e.String() {
			t.Fatalf("%q: canonical %q does not round-trip", s, e.String())
		}
	})
}

// enumerate is an independent check on Dist: it walks every outcome of the
// dice and applies the rule directly.
func enumerate(n, sides, keep int, high bool) map[int]float64 {
	out := map[int]float64{}
	faces := make([]int, n)
	total := math.Pow(float64(sides), float64(n))
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			s := append([]int(nil), faces...)
			sort.Ints(s)
			if keep > 0 && high {
				s = s[n-keep:]
			} else if keep > 0 {
				s = s[:keep]
			}
			sum := 0
			for _, v := range s {
				sum += v
			}
			out[sum] += 1 / total
			return
		}
		for f := 1; f <= sides; f++ {
			faces[i] = f
			rec(i + 1)
		}
	}
	rec(0)
	return out
}

func TestDistMatchesEnumeration(t *testing.T) {
	for n := 1; n <= 5; n++ {
		for _, sides := range []int{2, 3, 6, 8} {
			for keep := 0; keep <= n; keep++ {
				for _, high := range []bool{true, false} {
					var e Expr
					if keep == 0 {
						e = Dice(n, sides)
					} else if high {
						e = KeepHighest(n, sides, keep)
					} else {
						e = KeepLowest(n, sides, keep)
					}
					want := enumerate(n, sides, keep, high)
					d := e.Dist()
					total := 0.0
					for i, p := range d.P {
						total += p
						if math.Abs(p-want[d.Min+i]) > 1e-12 {
							t.Errorf("%s: P(%d) = %.15f, enumeration gives %.15f", e, d.Min+i, p, want[d.Min+i])
						}
					}
					if math.Abs(total-1) > 1e-12 {
						t.Errorf("%s: probabilities sum to %.15f", e, total)
					}
				}
			}
		}
	}
}

func TestDistKnownValues(t *testing.T) {
	tests := []struct {
		expr    string
		atLeast int
		want    float64
		source  string
	}{
		{"2D6", 7, 21.0 / 36, "2D6 >= 7: 21 of 36 ordered pairs"},
		{"2D6", 12, 1.0 / 36, "double six"},
		{"highest of 2D6", 6, 11.0 / 36, "at least one six in two dice: 1 - (5/6)^2"},
		{"highest of 2D6", 4, 27.0 / 36, "1 - P(both <= 3) = 1 - 9/36"},
		{"3D6 discard lowest", 12, 16.0 / 216, "two or three sixes: 15 + 1 of 216"},
		{"3D6", 18, 1.0 / 216, "triple six"},
		{"D3", 3, 1.0 / 3, "D3 = ceil(D6/2): faces 5 and 6"},
		{"D3+1", 2, 1, "D3+1 is at least 2"},
		{"D6+1", 7, 1.0 / 6, "a six"},
		{"artillery", 2, 5.0 / 6, "five numbered faces of six"},
		{"artillery", 10, 1.0 / 6, "the 10 face"},
		{"scatter", Hit, 2.0 / 6, "two Hit! faces of six"},
		{"4D6", 24, 1.0 / 1296, "four sixes"},
	}
	for _, tt := range tests {
		d := MustParse(tt.expr).Dist()
		if got := d.AtLeast(tt.atLeast); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("P(%s >= %d) = %.12f, want %.12f (%s)", tt.expr, tt.atLeast, got, tt.want, tt.source)
		}
	}
	means := []struct {
		expr   string
		want   float64
		source string
	}{
		{"D6", 3.5, "(1+...+6)/6"},
		{"2D6", 7, "twice 3.5"},
		{"highest of 2D6", 161.0 / 36, "sum of (2k-1)k over 36"},
		{"3D6 discard lowest", 1827.0 / 216, "enumeration of 216 outcomes"},
		{"2D6-1", 6, "7 - 1"},
		{"artillery", 5, "(0+2+4+6+8+10)/6, Misfire counted as 0"},
	}
	for _, tt := range means {
		if got := MustParse(tt.expr).Dist().Mean(); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("mean of %s = %.12f, want %.12f (%s)", tt.expr, got, tt.want, tt.source)
		}
	}
}

// TestMonteCarloMatchesExact rolls every kind of expression and checks each
// value's frequency and the mean against the exact distribution, within 5
// standard errors (a false alarm about once in 1.7 million comparisons:
// P(|Z| > 5) = 5.7e-7).
func TestMonteCarloMatchesExact(t *testing.T) {
	exprs := []string{"D6", "D3", "2D6", "3D6", "4D6", "D3+1", "D6+1", "2D6-1", "3D6kh2", "3D6kl2",
		"highest of 2D6", "lowest of 2D6", "5D6kh3", "2D10", "D8+D4", "artillery", "scatter", "scatter(1)", "4D6kh3"}
	const n = 200_000
	r := New(99, 0)
	for _, s := range exprs {
		e := MustParse(s)
		d := e.Dist()
		counts := map[int]int{}
		sum := 0.0
		for range n {
			v := e.Roll(r)
			counts[v]++
			sum += float64(v)
		}
		for v := range counts {
			if d.At(v) == 0 {
				t.Errorf("%s rolled impossible %d", s, v)
			}
		}
		for i, p := range d.P {
			v := d.Min + i
			got := float64(counts[v]) / n
			se := math.Sqrt(p * (1 - p) / n)
			if se == 0 {
				if got != p {
					t.Errorf("%s: P(%d) estimate %g, exact %g", s, v, got, p)
				}
				continue
			}
			if z := (got - p) / se; math.Abs(z) > 5 {
				t.Errorf("%s: P(%d) estimate %.5f, exact %.5f, z = %.1f", s, v, got, p, z)
			}
		}
		mean := sum / n
		se := d.StdDev() / math.Sqrt(n)
		if z := (mean - d.Mean()) / se; math.Abs(z) > 5 {
			t.Errorf("%s: mean estimate %.4f, exact %.4f, z = %.1f", s, mean, d.Mean(), z)
		}
	}
}

func TestDistOps(t *testing.T) {
	d := MustParse("D6").Dist()
	// P(D6 >= D6) = 21/36: the pairs with first >= second.
	if got := d.ProbGE(d); math.Abs(got-21.0/36) > 1e-12 {
		t.Errorf("P(D6 >= D6) = %g, want 21/36", got)
	}
	if got := d.Neg().Mean(); math.Abs(got+3.5) > 1e-12 {
		t.Errorf("mean of -D6 = %g", got)
	}
	if got := d.Shift(4).AtLeast(10); math.Abs(got-1.0/6) > 1e-12 {
		t.Errorf("P(D6+4 >= 10) = %g, want 1/6", got)
	}
	half := d.Map(func(v int) int { return (v + 1) / 2 })
	if math.Abs(half.At(2)-1.0/3) > 1e-12 || half.Min != 1 || half.Max() != 3 {
		t.Errorf("ceil(D6/2) = %+v, want D3", half)
	}
}

func TestDiceCount(t *testing.T) {
	for s, want := range map[string]int{"D6": 1, "3D6kh2+1": 3, "artillery": 1, "2D6+D3": 3, "4": 0} {
		if got := MustParse(s).DiceCount(); got != want {
			t.Errorf("DiceCount(%s) = %d, want %d", s, got, want)
		}
	}
}

// TestCountMatchesRoll: Count gives the same results as Roll in a loop,
// draw for draw, for every fast path and the general one.
func TestCountMatchesRoll(t *testing.T) {
	for _, s := range []string{"2D6", "highest of 2D6", "3D6 discard lowest", "3D6+2", "4D6kh3", "D3+1", "2D6kh1-1"} {
		e := MustParse(s)
		d := e.Dist()
		counts := make([]int64, d.Max()-d.Min+1)
		e.Count(New(1, 2), 10_000, counts, d.Min)
		want := make([]int64, len(counts))
		r := New(1, 2)
		for range 10_000 {
			want[e.Roll(r)-d.Min]++
		}
		for i := range counts {
			if counts[i] != want[i] {
				t.Errorf("%s: Count and Roll differ at %d: %d vs %d", s, d.Min+i, counts[i], want[i])
				break
			}
		}
	}
}
