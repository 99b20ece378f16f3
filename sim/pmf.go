package sim

import "math"

// PMF is an exact distribution over consecutive integers: P[i] is the
// probability of the value Min+i. Questions attach one to a counted
// outcome's estimate when its distribution has a closed form, so that
// reports can print exact "at least N" values beside the simulated ones.
type PMF struct {
	Min int
	P   []float64
}

// AtLeast returns the exact probability of v or more. A v at or below the
// least possible value (the first with a probability above 0) gives 1
// exactly: the sum of the whole distribution can fall an ulp short of 1
// (six times 1/6 is 0.9999999999999999), which a report would print as
// "not quite certain".
func (p *PMF) AtLeast(v int) float64 {
	lo, _ := p.support()
	if v <= lo {
		return 1
	}
	s := 0.0
	for i := len(p.P) - 1; i >= 0 && p.Min+i >= v; i-- {
		s += p.P[i]
	}
	return min(s, 1)
}

// AtMost returns the exact probability of v or less; 1 exactly from the
// greatest possible value up (see AtLeast).
func (p *PMF) AtMost(v int) float64 {
	_, hi := p.support()
	if v >= hi {
		return 1
	}
	s := 0.0
	for i := 0; i < len(p.P) && p.Min+i <= v; i++ {
		s += p.P[i]
	}
	return min(s, 1)
}

// support returns the least and greatest values whose probability is above
// 0. For a distribution with none (which no question makes) they are the
// least and greatest ints, so that neither tail reads as certain.
func (p *PMF) support() (lo, hi int) {
	first, last := -1, -1
	for i, q := range p.P {
		if q > 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return math.MinInt, math.MaxInt
	}
	return p.Min + first, p.Min + last
}

// Mean returns the distribution's mean.
func (p *PMF) Mean() float64 {
	m := 0.0
	for i, q := range p.P {
		m += q * float64(p.Min+i)
	}
	return m
}

// StdDev returns the distribution's standard deviation.
func (p *PMF) StdDev() float64 {
	m, v := p.Mean(), 0.0
	for i, q := range p.P {
		d := float64(p.Min+i) - m
		v += q * d * d
	}
	return math.Sqrt(v)
}

// WithExactPMF returns e with its exact distribution set, and its exact
// value and standard deviation set to that distribution's.
func (e Estimate) WithExactPMF(p PMF) Estimate {
	e.ExactPMF = &p
	e.ExactSD, e.HasExactSD = p.StdDev(), true
	return e.WithExact(p.Mean())
}
