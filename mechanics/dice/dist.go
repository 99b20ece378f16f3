package dice

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Dist is an exact probability distribution over consecutive integers:
// P[i] is the probability of the value Min+i. Probabilities are float64,
// computed by convolution and enumeration, so they are exact up to rounding
// (about 1e-15 relative).
type Dist struct {
	Min int
	P   []float64
}

// Point returns the distribution that is v with certainty.
func Point(v int) Dist { return Dist{Min: v, P: []float64{1}} }

// Uniform returns the distribution of one fair die with the given sides.
func Uniform(sides int) Dist {
	p := make([]float64, sides)
	for i := range p {
		p[i] = 1 / float64(sides)
	}
	return Dist{Min: 1, P: p}
}

// Max returns the largest value with a place in d.
func (d Dist) Max() int { return d.Min + len(d.P) - 1 }

// At returns P(X = v).
func (d Dist) At(v int) float64 {
	i := v - d.Min
	if i < 0 || i >= len(d.P) {
		return 0
	}
	return d.P[i]
}

// AtLeast returns P(X >= v).
func (d Dist) AtLeast(v int) float64 {
	if v <= d.Min {
		return 1
	}
	var s CompSum // a tail of many small terms (D66's 1/36s) keeps its last digits
	for i := len(d.P) - 1; i >= 0 && d.Min+i >= v; i-- {
		s.Add(d.P[i])
	}
	return math.Min(s.Value(), 1)
}

// AtMost returns P(X <= v).
func (d Dist) AtMost(v int) float64 {
	if v >= d.Max() {
		return 1
	}
	var s CompSum
	for i := 0; i < len(d.P) && d.Min+i <= v; i++ {
		s.Add(d.P[i])
	}
	return math.Min(s.Value(), 1)
}

// Mean returns E[X].
func (d Dist) Mean() float64 {
	m := 0.0
	for i, p := range d.P {
		m += p * float64(d.Min+i)
	}
	return m
}

// Variance returns Var[X].
func (d Dist) Variance() float64 {
	m := d.Mean()
	v := 0.0
	for i, p := range d.P {
		x := float64(d.Min+i) - m
		v += p * x * x
	}
	return v
}

// StdDev returns the standard deviation of X.
func (d Dist) StdDev() float64 { return math.Sqrt(d.Variance()) }

// Shift returns the distribution of X + k.
func (d Dist) Shift(k int) Dist { return Dist{Min: d.Min + k, P: d.P} }

// Neg returns the distribution of -X.
func (d Dist) Neg() Dist {
	p := make([]float64, len(d.P))
	for i, v := range d.P {
		p[len(p)-1-i] = v
	}
	return Dist{Min: -d.Max(), P: p}
}

// Add returns the distribution of X + Y for independent X ~ d and Y ~ e.
func (d Dist) Add(e Dist) Dist {
	p := make([]float64, len(d.P)+len(e.P)-1)
	for i, a := range d.P {
		if a == 0 {
			continue
		}
		for j, b := range e.P {
			p[i+j] += a * b
		}
	}
	return Dist{Min: d.Min + e.Min, P: p}
}

// Map returns the distribution of f(X).
func (d Dist) Map(f func(int) int) Dist {
	lo, hi := math.MaxInt, math.MinInt
	for i := range d.P {
		v := f(d.Min + i)
		lo, hi = min(lo, v), max(hi, v)
	}
	p := make([]float64, hi-lo+1)
	for i, q := range d.P {
		p[f(d.Min+i)-lo] += q
	}
	return Dist{Min: lo, P: p}
}

// ProbGE returns P(X >= Y) for independent X ~ d and Y ~ e.
func (d Dist) ProbGE(e Dist) float64 {
	s := 0.0
	for j, q := range e.P {
		s += q * d.AtLeast(e.Min+j)
	}
	return s
}

// MaxExactWork is the most work, in ExactWork's steps, that an exact
// distribution may take: about a tenth of a second. Past it, callers
// simulate instead (simulate dice) or refuse the expression (a scenario,
// whose every quantity shows its exact value).
const MaxExactWork = 1e8

// WorkOverBudget says how much work an expression over MaxExactWork
// takes, to as few significant digits as tell it from the budget:
// "1.2e+08" for 1.2e8, "1.0002e+08" rather than "1e+08" for 100,020,000.
func WorkOverBudget(work float64) string {
	for digits := 2; digits < 17; digits++ {
		if s := strconv.FormatFloat(work, 'g', digits, 64); s != strconv.FormatFloat(MaxExactWork, 'g', digits, 64) {
			return s
		}
	}
	return strconv.FormatFloat(work, 'g', -1, 64)
}

// TooMuchWork says why an expression whose exact distribution takes work
// steps, past MaxExactWork, is refused where its exact value is shown:
// "has too many dice or sides ... (about 1.2e+08 steps; at most 1e+08)".
func TooMuchWork(work float64) string {
	return fmt.Sprintf("has too many dice or sides to compute its exact distribution (about %s steps; at most %.0g)", WorkOverBudget(work), MaxExactWork)
}

// ExactWork estimates the steps (multiply-adds) computing e's exact
// distribution takes, without computing it: a plain term of n dice of s
// sides convolves n times, about s²n²/2 steps; a term keeping k of n dice
// walks s faces of (n+1)²/2 dice counts by ks+1 kept sums; the terms are
// then convolved with each other.
func (e Expr) ExactWork() float64 {
	work, width := 0.0, 1.0
	for _, t := range e.terms {
		n, s := float64(t.n), float64(t.sides)
		w := 1.0 // values the term can take
		switch {
		case t.kind == constTerm:
		case t.kind != diceTerm:
			w = 11 // at most: the Artillery dice's 0 to 10
		case t.keep == 0:
			work += s * s * n * n / 2
			w = n*(s-1) + 1
		default:
			work += s * (float64(t.keep)*s + 1) * (n + 1) * (n + 2) / 2
			w = float64(t.keep)*(s-1) + 1
		}
		work += width * w
		width += w - 1
	}
	return work
}

// Dist returns the exact distribution of e. Its cost grows with the dice
// (see ExactWork): check ExactWork against MaxExactWork first when the
// expression comes from a user.
func (e Expr) Dist() Dist {
	d, _ := e.DistContext(context.Background())
	return d
}

// DistContext is Dist that stops, returning ctx's error, soon after ctx is
// cancelled. An expression read from text works its distribution out once
// and returns a copy of it after that (a stopped computation is not kept).
func (e Expr) DistContext(ctx context.Context) (Dist, error) {
	if e.memo == nil {
		return e.distContext(ctx)
	}
	m := e.memo
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.done {
		d, err := e.distContext(ctx)
		if err != nil {
			return Dist{}, err
		}
		m.d, m.done = d, true
	}
	return Dist{Min: m.d.Min, P: slices.Clone(m.d.P)}, nil
}

func (e Expr) distContext(ctx context.Context) (Dist, error) {
	out := Point(0)
	for _, t := range e.terms {
		d, err := t.dist(ctx)
		if err != nil {
			return Dist{}, err
		}
		if t.neg {
			d = d.Neg()
		}
		out = out.Add(d)
	}
	return out, nil
}

// Moments returns e's exact mean and standard deviation without its whole
// distribution, which may be past MaxExactWork: a sum's mean and variance
// are the sums of its terms'. A term of n plain dice of s sides has mean
// n(s+1)/2 and variance n(s²-1)/12; another term (one that keeps some of
// its dice, the Artillery or Scatter dice) is worked out from its own
// distribution, which must fit the budget together with the others'. ok
// is false when one does not.
func (e Expr) Moments() (mean, sd float64, ok bool) {
	variance, work := 0.0, 0.0
	for _, t := range e.terms {
		var m, v float64
		switch {
		case t.kind == constTerm:
			m = float64(t.value)
		case t.kind == diceTerm && (t.keep == 0 || t.keep >= t.n):
			n, s := float64(t.n), float64(t.sides)
			m, v = n*(s+1)/2, n*(s*s-1)/12
		default:
			if t.kind == diceTerm {
				work += Expr{terms: []term{t}}.ExactWork()
			}
			if work > MaxExactWork {
				return 0, 0, false
			}
			d, _ := t.dist(context.Background())
			m, v = d.Mean(), d.Variance()
		}
		if t.neg {
			m = -m
		}
		mean += m
		variance += v
	}
	return mean, math.Sqrt(variance), true
}

func (t term) dist(ctx context.Context) (Dist, error) {
	switch t.kind {
	case constTerm:
		return Point(t.value), nil
	case artilleryTerm:
		// Faces 2, 4, 6, 8, 10 and Misfire (0), each 1/6, odd values impossible.
		p := make([]float64, 11)
		for _, v := range []int{Misfire, 2, 4, 6, 8, 10} {
			p[v] = 1.0 / 6
		}
		return Dist{Min: 0, P: p}, nil
	case scatterTerm:
		h := float64(t.value) / 6
		return Dist{Min: Arrow, P: []float64{1 - h, h}}, nil
	}
	if t.keep == 0 {
		u := Uniform(t.sides)
		d := u
		for range t.n - 1 {
			if err := ctx.Err(); err != nil {
				return Dist{}, err
			}
			d = d.Add(u)
		}
		return d, nil
	}
	return keepDist(ctx, t.n, t.sides, t.keep, t.high)
}

// keepDist returns the distribution of the sum of the k highest (or lowest)
// of n fair dice with s sides, by dynamic programming over the faces from the
// best down: at each face f, choose how many of the dice not yet placed show
// f (binomially), and the first k dice placed are the kept ones. The state is
// (dice placed, sum of kept dice), so the work is polynomial in n, s and k
// where enumerating s^n outcomes would not be.
func keepDist(ctx context.Context, n, s, k int, high bool) (Dist, error) {
	maxSum := k * s
	// cur[u][sum]: probability that u dice are placed with kept sum `sum`
	// among the faces visited so far, before the remaining dice are placed.
	cur := make([][]float64, n+1)
	nxt := make([][]float64, n+1)
	for u := range cur {
		cur[u] = make([]float64, maxSum+1)
		nxt[u] = make([]float64, maxSum+1)
	}
	cur[0][0] = 1
	binom := binomialTable(n)
	for step := range s {
		if err := ctx.Err(); err != nil {
			return Dist{}, err
		}
		f := s - step // faces from best to worst
		if !high {
			f = step + 1
		}
		// Given a die has not taken one of the faces already visited, it
		// shows f with probability q; the remaining faces share the rest.
		remainingFaces := s - step
		q := 1 / float64(remainingFaces)
		for u := range nxt {
			clear(nxt[u])
		}
		for u := 0; u <= n; u++ {
			rest := n - u
			for m := 0; m <= rest; m++ {
				// m of the rest show f; the others show a face not yet visited.
				w := binom[rest][m] * math.Pow(q, float64(m)) * math.Pow(1-q, float64(rest-m))
				if w == 0 {
					continue
				}
				kept := min(u+m, k) - min(u, k)
				to := nxt[u+m][kept*f:]
				for sum, pr := range cur[u][:len(cur[u])-kept*f] {
					to[sum] += pr * w
				}
			}
		}
		cur, nxt = nxt, cur
	}
	p := cur[n]
	lo := 0
	for lo < len(p) && p[lo] == 0 {
		lo++
	}
	return Dist{Min: lo, P: append([]float64(nil), p[lo:]...)}, nil
}

func binomialTable(n int) [][]float64 {
	b := make([][]float64, n+1)
	for i := range b {
		b[i] = make([]float64, i+1)
		b[i][0], b[i][i] = 1, 1
		for j := 1; j < i; j++ {
			b[i][j] = b[i-1][j-1] + b[i-1][j]
		}
	}
	return b
}

// CompSum is a compensated (Neumaier) sum: it carries the rounding of each
// addition and adds it back at the end, so that a tail of many small terms
// (D66's 1/36s) keeps its last digits. The zero value is an empty sum.
type CompSum struct{ s, c float64 }

// Add adds x to the sum.
func (k *CompSum) Add(x float64) {
	t := k.s + x
	if math.Abs(k.s) >= math.Abs(x) {
		k.c += (k.s - t) + x
	} else {
		k.c += (x - t) + k.s
	}
	k.s = t
}

// Value is the sum so far.
func (k *CompSum) Value() float64 { return k.s + k.c }
