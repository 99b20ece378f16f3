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

// AtLeast returns the exact probability of v or more.
func (p *PMF) AtLeast(v int) float64 {
	s := 0.0
	for i := len(p.P) - 1; i >= 0 && p.Min+i >= v; i-- {
		s += p.P[i]
	}
	return min(s, 1)
}

// AtMost returns the exact probability of v or less.
func (p *PMF) AtMost(v int) float64 {
	s := 0.0
	for i := 0; i < len(p.P) && p.Min+i <= v; i++ {
		s += p.P[i]
	}
	return min(s, 1)
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
