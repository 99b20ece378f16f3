package dice

import (
	"math"
	"slices"
	"sort"
	"testing"
)

// walkRolls returns the exact distribution of roll by walking every
// sequence of faces it can draw: roll draws each die through die(sides),
// and each sequence of draws has probability the product of 1/sides. It
// shares no code with the package's distributions, so it checks them
// independently. A condition's roll returns 1 when it holds, 0 when not.
func walkRolls(roll func(die func(sides int) int) int) map[int]float64 {
	out := map[int]float64{}
	var path, sides []int // faces chosen (0-based) and each draw's sides
	for {
		i, p := 0, 1.0
		v := roll(func(s int) int {
			if i == len(path) {
				path, sides = append(path, 0), append(sides, s)
			}
			p /= float64(s)
			i++
			return path[i-1] + 1
		})
		out[v] += p
		// The next sequence: like an odometer over the draws this roll
		// made, the last draw first.
		path, sides = path[:i], sides[:i]
		for len(path) > 0 && path[len(path)-1] == sides[len(sides)-1]-1 {
			path, sides = path[:len(path)-1], sides[:len(sides)-1]
		}
		if len(path) == 0 {
			return out
		}
		path[len(path)-1]++
	}
}

// The rules of the language, written out plainly for walkRolls.

func sumOf(die func(int) int, n, s int) int {
	t := 0
	for range n {
		t += die(s)
	}
	return t
}

// keepOf sums the k highest (or lowest) of n dice.
func keepOf(die func(int) int, n, s, k int, high bool) int {
	a := make([]int, n)
	for i := range a {
		a[i] = die(s)
	}
	sort.Ints(a)
	if high {
		slices.Reverse(a)
	}
	t := 0
	for _, v := range a[:k] {
		t += v
	}
	return t
}

// poolOf sums n dice, each re-rolled once when its first face is in
// lo..hi (lo > hi for none), then, when explode, rolled again and added
// while it shows its highest face, at most two extra dice.
func poolOf(die func(int) int, n, s, lo, hi int, explode bool) int {
	t := 0
	for range n {
		v := die(s)
		if v >= lo && v <= hi {
			v = die(s)
		}
		t += v
		for extra := 0; explode && extra < 2 && v == s; extra++ {
			v = die(s)
			t += v
		}
	}
	return t
}

// countOf counts the n dice that show target or more; a failed die is
// re-rolled once when fails says so, a 1 when ones does.
func countOf(die func(int) int, n, s, target int, fails, ones bool) int {
	c := 0
	for range n {
		v := die(s)
		if v < target && (fails || ones && v == 1) {
			v = die(s)
		}
		if v >= target {
			c++
		}
	}
	return c
}

func d66(die func(int) int) int { return 10*die(6) + die(6) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// enumCases are expressions and conditions with their meaning written
// out for walkRolls.
var enumCases = []struct {
	q    string
	roll func(die func(int) int) int
}{
	// Sums, constants and small dice.
	{"D3", func(d func(int) int) int { return d(3) }},
	{"D3+1", func(d func(int) int) int { return d(3) + 1 }},
	{"2D6-1", func(d func(int) int) int { return sumOf(d, 2, 6) - 1 }},
	{"D6+D3", func(d func(int) int) int { return d(6) + d(3) }},
	{"2D3 + D6 - 2", func(d func(int) int) int { return sumOf(d, 2, 3) + d(6) - 2 }},
	{"D6 - D6", func(d func(int) int) int { first := d(6); return first - d(6) }},
	{"10 - 2D6", func(d func(int) int) int { return 10 - sumOf(d, 2, 6) }},
	{"D4 + D8 + D12", func(d func(int) int) int { return d(4) + d(8) + d(12) }},
	{"3D2", func(d func(int) int) int { return sumOf(d, 3, 2) }},
	{"D6 - 3", func(d func(int) int) int { return d(6) - 3 }},
	{"0", func(d func(int) int) int { return 0 }},
	// Keeping and discarding.
	{"3D6kh2", func(d func(int) int) int { return keepOf(d, 3, 6, 2, true) }},
	{"4D6kh3", func(d func(int) int) int { return keepOf(d, 4, 6, 3, true) }},
	{"4D6kl2", func(d func(int) int) int { return keepOf(d, 4, 6, 2, false) }},
	{"3D6kl1", func(d func(int) int) int { return keepOf(d, 3, 6, 1, false) }},
	{"5D4kh2", func(d func(int) int) int { return keepOf(d, 5, 4, 2, true) }},
	{"4D6kl3", func(d func(int) int) int { return keepOf(d, 4, 6, 3, false) }},
	{"highest of 2D6", func(d func(int) int) int { return keepOf(d, 2, 6, 1, true) }},
	{"lowest of 3D6", func(d func(int) int) int { return keepOf(d, 3, 6, 1, false) }},
	{"3D6 discard lowest", func(d func(int) int) int { return keepOf(d, 3, 6, 2, true) }},
	{"3D6 (discard the highest)", func(d func(int) int) int { return keepOf(d, 3, 6, 2, false) }},
	{"2D6kh2", func(d func(int) int) int { return sumOf(d, 2, 6) }},
	{"3D6kh2 + D3 - 1", func(d func(int) int) int { return keepOf(d, 3, 6, 2, true) + d(3) - 1 }},
	{"2D6 - highest of 2D6", func(d func(int) int) int { return sumOf(d, 2, 6) - keepOf(d, 2, 6, 1, true) }},
	// Re-rolls and exploding dice.
	{"D6r1", func(d func(int) int) int { return poolOf(d, 1, 6, 1, 1, false) }},
	{"D6r6", func(d func(int) int) int { return poolOf(d, 1, 6, 6, 6, false) }},
	{"D6r<3", func(d func(int) int) int { return poolOf(d, 1, 6, 1, 2, false) }},
	{"D8 reroll 1s", func(d func(int) int) int { return poolOf(d, 1, 8, 1, 1, false) }},
	{"2D6r1", func(d func(int) int) int { return poolOf(d, 2, 6, 1, 1, false) }},
	{"D3r<3", func(d func(int) int) int { return poolOf(d, 1, 3, 1, 2, false) }},
	{"D6!", func(d func(int) int) int { return poolOf(d, 1, 6, 1, 0, true) }},
	{"2D4!", func(d func(int) int) int { return poolOf(d, 2, 4, 1, 0, true) }},
	{"D3 explode", func(d func(int) int) int { return poolOf(d, 1, 3, 1, 0, true) }},
	{"D6r1!", func(d func(int) int) int { return poolOf(d, 1, 6, 1, 1, true) }},
	{"D6r6!", func(d func(int) int) int { return poolOf(d, 1, 6, 6, 6, true) }},
	{"D6! - D6r1 + 2", func(d func(int) int) int {
		return poolOf(d, 1, 6, 1, 0, true) - poolOf(d, 1, 6, 1, 1, false) + 2
	}},
	// Counting successes.
	{"3D6 count 4+", func(d func(int) int) int { return countOf(d, 3, 6, 4, false, false) }},
	{"3D6 count 5+ reroll failures", func(d func(int) int) int { return countOf(d, 3, 6, 5, true, false) }},
	{"3D6 count 5+ reroll 1s", func(d func(int) int) int { return countOf(d, 3, 6, 5, false, true) }},
	{"3D6 count 1+ reroll 1s", func(d func(int) int) int { return countOf(d, 3, 6, 1, false, true) }},
	{"2D6 count 2+ reroll ones", func(d func(int) int) int { return countOf(d, 2, 6, 2, false, true) }},
	{"2D8 count 7+ reroll failures", func(d func(int) int) int { return countOf(d, 2, 8, 7, true, false) }},
	{"2D6 count 6+ + D3", func(d func(int) int) int { return countOf(d, 2, 6, 6, false, false) + d(3) }},
	// D66, Artillery and Scatter dice.
	{"D66", d66},
	{"D66 - D6", func(d func(int) int) int { return d66(d) - d(6) }},
	{"artillery", func(d func(int) int) int {
		if f := d(6); f < 6 {
			return 2 * f
		}
		return Misfire
	}},
	{"scatter", func(d func(int) int) int { return b2i(d(6) <= 2) }},
	{"scatter(1)", func(d func(int) int) int { return b2i(d(6) <= 1) }},
	// Conditions.
	{"2D6 >= 9", func(d func(int) int) int { return b2i(sumOf(d, 2, 6) >= 9) }},
	{"2D6 + 3 > D6 + 4", func(d func(int) int) int { return b2i(sumOf(d, 2, 6)+3 > d(6)+4) }},
	{"D6 = D6", func(d func(int) int) int { first := d(6); return b2i(first == d(6)) }},
	{"D6 != D3", func(d func(int) int) int { return b2i(d(6) != d(3)) }},
	{"3D6kh2 < 2D6", func(d func(int) int) int { return b2i(keepOf(d, 3, 6, 2, true) < sumOf(d, 2, 6)) }},
	{"D3 + D6 <= 5", func(d func(int) int) int { return b2i(d(3)+d(6) <= 5) }},
	{"D6 = 6 or D6 = 6", func(d func(int) int) int { a := d(6) == 6; return b2i(d(6) == 6 || a) }},
	{"D6 >= 4 and D6r1 >= 4", func(d func(int) int) int {
		a := d(6) >= 4
		return b2i(poolOf(d, 1, 6, 1, 1, false) >= 4 && a)
	}},
	{"not (D6 >= 5 or 2D6 = 7) and D3 > 1", func(d func(int) int) int {
		a := d(6) >= 5
		b := sumOf(d, 2, 6) == 7
		return b2i(!(a || b) && d(3) > 1)
	}},
	{"D6 >= 5 or 2D6 = 7 and D3 > 1", func(d func(int) int) int {
		a := d(6) >= 5
		b := sumOf(d, 2, 6) == 7
		c := d(3) > 1
		return b2i(a || b && c)
	}},
	{"not not D6 >= 4", func(d func(int) int) int { return b2i(d(6) >= 4) }},
	{"D6! > 2D6", func(d func(int) int) int { return b2i(poolOf(d, 1, 6, 1, 0, true) > sumOf(d, 2, 6)) }},
	{"3D6 count 4+ reroll failures >= 2", func(d func(int) int) int { return b2i(countOf(d, 3, 6, 4, true, false) >= 2) }},
	{"D66 >= 50", func(d func(int) int) int { return b2i(d66(d) >= 50) }},
	// A leading minus negates a side's first term.
	{"-D6 + 7", func(d func(int) int) int { return 7 - d(6) }},
	{"-D66 + 100", func(d func(int) int) int { return 100 - d66(d) }},
	{"D6 - 7 >= -3", func(d func(int) int) int { return b2i(d(6)-7 >= -3) }},
	{"-2D6 < -6 - D3", func(d func(int) int) int { return b2i(-sumOf(d, 2, 6) < -6-d(3)) }},
	{"D66 > 2D6 + 40", func(d func(int) int) int { return b2i(d66(d) > sumOf(d, 2, 6)+40) }},
	{"highest of 2D6 >= lowest of 2D6 + 3", func(d func(int) int) int {
		return b2i(keepOf(d, 2, 6, 1, true) >= keepOf(d, 2, 6, 1, false)+3)
	}},
	{"4D6kh3 >= 15", func(d func(int) int) int { return b2i(keepOf(d, 4, 6, 3, true) >= 15) }},
	{"D6 - D6 < 0", func(d func(int) int) int { first := d(6); return b2i(first-d(6) < 0) }},
}

// TestQueryEnumerated: every exact value, of a number or a condition,
// equals the one found by walking every way its dice can fall.
func TestQueryEnumerated(t *testing.T) {
	for _, tc := range enumCases {
		want := walkRolls(tc.roll)
		q, err := ParseQuery(tc.q)
		if err != nil {
			t.Errorf("%s: %v", tc.q, err)
			continue
		}
		if q.IsCondition() {
			if got := q.Prob(); math.Abs(got-want[1]) > 1e-12 {
				t.Errorf("%s: P = %.15g, enumerated %.15g", tc.q, got, want[1])
			}
			continue
		}
		d := q.Dist()
		for v, p := range want {
			if math.Abs(d.At(v)-p) > 1e-12 {
				t.Errorf("%s: P(%d) = %.15g, enumerated %.15g", tc.q, v, d.At(v), p)
			}
		}
		for i, p := range d.P {
			if _, ok := want[d.Min+i]; !ok && p != 0 {
				t.Errorf("%s: P(%d) = %.15g, enumerated 0", tc.q, d.Min+i, p)
			}
		}
	}
}

// TestExprEnumerated: Parse's expressions have the same exact
// distributions as enumeration, whether their terms are walked or a fast
// path rolls them.
func TestExprEnumerated(t *testing.T) {
	for _, tc := range enumCases {
		e, err := Parse(tc.q)
		if err != nil {
			continue // the query language's own: conditions, counts, D66
		}
		want := walkRolls(tc.roll)
		d := e.Dist()
		for v, p := range want {
			if math.Abs(d.At(v)-p) > 1e-12 {
				t.Errorf("%s: P(%d) = %.15g, enumerated %.15g", tc.q, v, d.At(v), p)
			}
		}
		if e.Min() != d.Min || e.Max() != d.Max() {
			t.Errorf("%s: Min %d Max %d, distribution %d to %d", tc.q, e.Min(), e.Max(), d.Min, d.Max())
		}
	}
}

// TestQueryRollsEnumerated: the rolls `simulate dice --trials` makes follow
// the enumerated distribution: each value's frequency in 100,000 rolls is
// within 5 standard errors of its chance (a false alarm about once in 1.7
// million comparisons: P(|Z| > 5) = 5.7e-7), and no roll is impossible.
func TestQueryRollsEnumerated(t *testing.T) {
	const n = 100_000
	r := New(11, 0)
	for _, tc := range enumCases {
		want := walkRolls(tc.roll)
		q := mustQuery(t, tc.q)
		counts := map[int]int{}
		for range n {
			if q.IsCondition() {
				counts[b2i(q.Holds(r))]++
			} else {
				counts[q.Roll(r)]++
			}
		}
		for v, k := range counts {
			if want[v] == 0 {
				t.Errorf("%s: rolled %d, which cannot come up (%d times)", tc.q, v, k)
			}
		}
		for v, p := range want {
			if p == 1 {
				continue
			}
			se := math.Sqrt(p * (1 - p) / n)
			if z := (float64(counts[v])/n - p) / se; math.Abs(z) > 5 {
				t.Errorf("%s: P(%d) rolled %.5f, enumerated %.5f, z = %.1f", tc.q, v, float64(counts[v])/n, p, z)
			}
		}
	}
}
