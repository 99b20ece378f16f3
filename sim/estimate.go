package sim

import (
	"math"
	"sync"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Z95 is the standard normal quantile for a two-sided 95% interval.
const Z95 = 1.959963984540054

// T95 is Student's t quantile for a two-sided 95% interval with df
// degrees of freedom (df >= 1): a mean's interval over n trials takes
// df = n - 1, which holds its 95% with few trials where Z95 does not
// (over 5 trials, mean ± 1.96 standard errors covers about 88%). It is
// exact (gonum's quantile) up to 1,000 degrees of freedom, worked out once
// for them all when first asked, and beyond them the expansion of
// Abramowitz and Stegun 26.7.5 in 1/df to its third term, within 1e-11 of
// it there; it falls to Z95 as df grows and is never below it.
func T95(df int64) float64 {
	if df <= tExactDF {
		return t95Table()[df]
	}
	return max(Z95, t95Expansion(df))
}

// t95Expansion is Abramowitz and Stegun 26.7.5 to its third term.
func t95Expansion(df int64) float64 {
	z, v := Z95, float64(df)
	z2 := z * z
	g1 := (z2 + 1) * z / 4
	g2 := ((5*z2+16)*z2 + 3) * z / 96
	g3 := (((3*z2+19)*z2+17)*z2 - 15) * z / 384
	return z + g1/v + g2/(v*v) + g3/(v*v*v)
}

// tExactDF is the most degrees of freedom T95 takes from gonum's quantile.
const tExactDF = 1000

var t95Table = sync.OnceValue(func() []float64 {
	t := make([]float64, tExactDF+1)
	t[0] = math.NaN()
	for df := 1; df <= tExactDF; df++ {
		t[df] = distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.975)
	}
	return t
})

// Wilson returns the Wilson score interval for k successes in n trials at
// normal quantile z. Unlike the normal (Wald) interval it stays inside [0, 1]
// and keeps its coverage near 0 and 1, where charge odds often sit.
func Wilson(k, n int64, z float64) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	nf := float64(n)
	p := float64(k) / nf
	z2 := z * z
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = math.Max(0, center-half), math.Min(1, center+half)
	// At 0 and n successes the interval reaches the estimate exactly: in
	// exact arithmetic center-half is 0 when k = 0 and center+half is 1 when
	// k = n, which rounding would miss by a few ulps.
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

// Kind says what an Estimate estimates.
type Kind uint8

const (
	// Probability: the share of trials in which something happened.
	Probability Kind = iota
	// Mean: the average of an integer quantity, whose distribution is kept.
	Mean
)

func (k Kind) String() string {
	if k == Probability {
		return "probability"
	}
	return "mean"
}

// Param is one value that identifies a result, such as a point of a sweep.
// Value is an int, bool, float64 or string.
type Param struct {
	Name  string
	Value any
}

// Estimate is one reported number: what was measured, where, how well, and
// the exact value where one is known.
type Estimate struct {
	Metric string
	// Title, when set, is the reader's name of the metric, which its
	// question gives where the name alone could be misread in a table (a
	// battle's per-unit "wounds" are the wounds that unit suffered).
	// Tables, documents and plots show it; wherever the metric is a key
	// (JSON, CSV, --metrics, file names) its name stays.
	Title  string
	Params []Param
	Kind   Kind
	// Trials behind the estimate.
	Trials int64
	// Value is the probability or the mean.
	Value float64
	// SE is the standard error of Value.
	SE float64
	// CI95 is the 95% interval: Wilson's for probabilities, mean ± T95(n -
	// 1) SE for means (NaN for a mean over one trial).
	CI95 [2]float64
	// Exact is the exact value when HasExact is set.
	Exact    float64
	HasExact bool
	// ExactPMF, when set, is the exact distribution behind a mean.
	ExactPMF *PMF
	// ExactSD, when HasExactSD is set, is the exact standard deviation of
	// one trial's value: the spread under the exact value, which Z reads.
	// WithExactPMF sets it from the distribution, and Scaled scales it
	// where the distribution itself cannot follow.
	ExactSD    float64
	HasExactSD bool
	// Step is what the least change of one trial's whole-number value is
	// worth in Value's units: 1, or what Scaled multiplied it by (0 reads
	// as 1). Z takes a gap under half of Step over the trials for more
	// than the rounding of the exact value.
	Step float64
	// Price, when above 0, is what Scaled divided by: the points cost a
	// _per_100_points metric is per 100 of, which reports show beside it.
	Price float64
	// Successes is the count behind a probability.
	Successes int64
	// Hist is the distribution behind a mean, with its summary.
	Hist   *Histogram
	StdDev float64
	Median float64
	P05    float64
	P95    float64
}

// ProbabilityOf estimates a probability from k successes in n trials.
func ProbabilityOf(metric string, params []Param, k, n int64) Estimate {
	e := Estimate{Metric: metric, Params: params, Kind: Probability, Trials: n, Successes: k}
	if n > 0 {
		e.Value = float64(k) / float64(n)
		e.SE = math.Sqrt(e.Value * (1 - e.Value) / float64(n))
	} else {
		e.Value = math.NaN()
		e.SE = math.NaN()
	}
	e.CI95[0], e.CI95[1] = Wilson(k, n, Z95)
	return e
}

// MeanOf estimates the mean of the distribution in h, with its spread and
// quantiles (computed with gonum/stat over the histogram's weighted values)
// and its 95% interval, mean ± T95(n - 1) standard errors. One trial has
// no spread, standard error or interval (NaN).
func MeanOf(metric string, params []Param, h *Histogram) Estimate {
	hc := h.Clone()
	e := Estimate{Metric: metric, Params: params, Kind: Mean, Hist: &hc, Trials: h.N()}
	x, w := h.Values()
	if e.Trials == 0 {
		nan := math.NaN()
		e.Value, e.SE, e.StdDev, e.Median, e.P05, e.P95 = nan, nan, nan, nan, nan, nan
		e.CI95 = [2]float64{nan, nan}
		return e
	}
	e.Value = stat.Mean(x, w)
	e.Median = stat.Quantile(0.5, stat.Empirical, x, w)
	e.P05 = stat.Quantile(0.05, stat.Empirical, x, w)
	e.P95 = stat.Quantile(0.95, stat.Empirical, x, w)
	if e.Trials == 1 {
		// One trial shows no spread: there is none to put an interval on.
		nan := math.NaN()
		e.SE, e.StdDev, e.CI95 = nan, nan, [2]float64{nan, nan}
		return e
	}
	e.StdDev = stat.StdDev(x, w)
	e.SE = e.StdDev / math.Sqrt(float64(e.Trials))
	t := T95(e.Trials - 1)
	e.CI95 = [2]float64{e.Value - t*e.SE, e.Value + t*e.SE}
	return e
}

// WithExact returns e with its exact value set.
func (e Estimate) WithExact(v float64) Estimate {
	e.Exact, e.HasExact = v, true
	return e
}

// AtLeast returns e with its 95% interval cut at lo, the least value the
// metric can take (0 for a count): an average of counts near 0, whose
// interval of mean ± t standard errors reaches below it, keeps only the
// part it can be in. A cut interval covers the mean whenever the uncut
// one did. Nothing else changes; an interval not worked out (NaN) stays
// so.
func (e Estimate) AtLeast(lo float64) Estimate {
	if e.Kind == Mean && !math.IsNaN(e.CI95[0]) {
		e.CI95 = [2]float64{max(e.CI95[0], lo), max(e.CI95[1], lo)}
	}
	return e
}

// WithExactSD returns e with the exact standard deviation of one trial's
// value set (see ExactSD): for a mean whose exact spread is known without
// its distribution.
func (e Estimate) WithExactSD(sd float64) Estimate {
	e.ExactSD, e.HasExactSD = sd, true
	return e
}

// WithoutExact returns e with no exact value or distribution: for a point
// whose exact values were not worked out (a work budget).
func (e Estimate) WithoutExact() Estimate {
	e.Exact, e.HasExact, e.ExactPMF = 0, false, nil
	e.ExactSD, e.HasExactSD = 0, false
	return e
}

// Scaled returns e with every number it reports multiplied by per and
// divided by cost (both > 0), under another metric and parameters: a mean
// per some amount of cost, such as per 100 points. Each number is
// multiplied first, so that one the quotient holds exactly comes out
// exact (3 per 72 points is 300/72 = 4.166666666666667 per 100, where
// 3 x (100/72) is a step below it). A value so scaled is no longer a whole
// count, so the scaled estimate keeps neither the histogram nor the exact
// distribution, but it keeps the exact distribution's standard deviation,
// scaled: the estimate and the exact value then lie as many standard
// errors apart as before scaling.
func (e Estimate) Scaled(metric string, params []Param, per, cost float64) Estimate {
	f := func(x float64) float64 { return x * per / cost }
	e.Metric, e.Title, e.Params = metric, "", params
	e.Value, e.SE, e.StdDev = f(e.Value), f(e.SE), f(e.StdDev)
	e.CI95 = [2]float64{f(e.CI95[0]), f(e.CI95[1])}
	e.Median, e.P05, e.P95 = f(e.Median), f(e.P05), f(e.P95)
	e.Exact = f(e.Exact)
	e.ExactSD = f(e.ExactSD)
	e.Step = f(e.step())
	e.Hist, e.ExactPMF = nil, nil
	e.Price = cost
	return e
}

// Z returns how many standard errors the estimate lies from the exact
// value, or NaN when there is no exact value. The standard error is the
// one under the exact value where that is known (always for a probability,
// and for a mean with its exact standard deviation), which stays positive
// when every trial happened to give the same value: a rare count never
// seen in a few hundred trials is a likely outcome, not an infinite gap.
// Otherwise it is the run's own; where every trial gave the same value,
// that spread of 0 says nothing of the gap to the exact value, and Z is
// NaN. It is infinite only when the exact spread is known to be 0.
func (e Estimate) Z() float64 {
	if !e.HasExact {
		return math.NaN()
	}
	se := e.SE
	switch {
	case e.Kind == Probability:
		se = math.Sqrt(e.Exact * (1 - e.Exact) / float64(e.Trials))
	case e.HasExactSD && e.Trials > 0:
		se = e.ExactSD / math.Sqrt(float64(e.Trials))
	}
	d := e.Value - e.Exact
	// An exact value is a sum of many rounded terms, good to about 1e-14
	// of its size: a gap within 1e-12 of the size of the values compared
	// is none, however small the standard error (a unit wiped out in
	// every trial, and with a chance far below 1e-12 in the exact
	// distribution, has an exact spread of 1e-14, and the rounding of its
	// exact mean of 10 read as 300 standard errors). A tiny exact value is
	// not rounding: a chance of 1e-12 never seen keeps its own small z. Nor
	// is a gap that trials made: one trial of 10^11 off by 1 moves a mean
	// by 1e-11, so a gap must also be under half of that step, Step/n (the
	// rounding of a mean of 10, 2e-14, stays under it to 2.3 x 10^13
	// trials, past the most a run may ask for).
	if a := math.Abs(d); a <= 1e-12*max(math.Abs(e.Exact), math.Abs(e.Value)) && a*float64(e.Trials) < 0.5*e.step() {
		return 0
	}
	if se == 0 {
		if math.Abs(d) < 1e-12 {
			return 0
		}
		if e.Kind == Mean && !e.HasExactSD {
			return math.NaN()
		}
		return math.Inf(int(math.Copysign(1, d)))
	}
	return d / se
}

// step is Step, 1 where it is not set.
func (e Estimate) step() float64 {
	if e.Step == 0 {
		return 1
	}
	return e.Step
}

// Param returns the value of the named parameter, or nil.
func (e Estimate) Param(name string) any {
	for _, p := range e.Params {
		if p.Name == name {
			return p.Value
		}
	}
	return nil
}
