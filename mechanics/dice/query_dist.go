package dice

// Exact distributions of the parts the query language adds.

// d66Dist is D66: 10 × the first D6 plus the second, each of the 36 pairs
// equally likely, so 11..16, 21..26, ..., 61..66 each have 1/36 and the
// values between (17..20, ...) none.
func d66Dist() Dist {
	p := make([]float64, 66-11+1)
	for tens := 1; tens <= 6; tens++ {
		for units := 1; units <= 6; units++ {
			p[10*tens+units-11] = 1.0 / 36
		}
	}
	return Dist{Min: 11, P: p}
}

// rerolledDie is one die whose first result in lo..hi is re-rolled once,
// keeping the second: a face outside the range comes up first time (1/s)
// or after a re-roll ((hi-lo+1)/s × 1/s); a face inside it only after a
// re-roll.
func rerolledDie(sides, lo, hi int) Dist {
	s := float64(sides)
	again := float64(hi-lo+1) / s
	p := make([]float64, sides)
	for v := 1; v <= sides; v++ {
		p[v-1] = again / s
		if v < lo || v > hi {
			p[v-1] += 1 / s
		}
	}
	return Dist{Min: 1, P: p}
}

// poolDie is one die of a pool: re-rolled as the part says, then exploding
// when it shows its highest face (each extra die a fresh, plain die, up to
// ExplodeDepth of them).
func poolDie(pt part) Dist {
	d := Uniform(pt.sides)
	if pt.reroll {
		d = rerolledDie(pt.sides, pt.rerollLo, pt.rerollHi)
	}
	if !pt.explode {
		return d
	}
	// tail is what the highest face leads to: the face plus the next,
	// itself exploding one level less deep.
	tail := Uniform(pt.sides)
	for range ExplodeDepth - 1 {
		tail = explodeOnce(Uniform(pt.sides), tail)
	}
	return explodeOnce(d, tail)
}

// explodeOnce returns the distribution of a die d whose highest face adds
// a further roll distributed as next.
func explodeOnce(d, next Dist) Dist {
	top := d.Max()
	pTop := d.At(top)
	out := Dist{Min: d.Min, P: make([]float64, top+next.Max()-d.Min+1)}
	for i, q := range d.P {
		if d.Min+i != top {
			out.P[i] += q
		}
	}
	for j, q := range next.P {
		out.P[top+next.Min+j-d.Min] += pTop * q
	}
	return out
}

// successChance is the chance that one die of a count shows its target or
// more: (s - target + 1)/s, raised by a re-roll of failures (a failed die
// gets a second chance) or of 1s (a 1, when it fails, gets one).
func successChance(pt part) float64 {
	s := float64(pt.sides)
	q := float64(pt.sides-pt.target+1) / s
	switch {
	case pt.rerollFail:
		return q + (1-q)*q
	case pt.rerollOnes && pt.target > 1:
		return q + q/s
	}
	return q
}

// binomial is the number of successes in n independent trials of chance q.
func binomial(n int, q float64) Dist {
	p := []float64{1}
	for range n {
		next := make([]float64, len(p)+1)
		for k, v := range p {
			next[k] += v * (1 - q)
			next[k+1] += v * q
		}
		p = next
	}
	return Dist{Min: 0, P: p}
}
