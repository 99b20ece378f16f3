package scenariotest

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mathext"

	"hammersim/mechanics/dice"
	"hammersim/scenarios"
	"hammersim/sim"
)

// WantError parses src as t.yaml and checks that it fails with a
// positioned error (an ErrorList or *Error) whose text starts with want.
func WantError(t *testing.T, r *scenarios.Registry, name, src, want string) {
	t.Helper()
	_, err := r.Parse("t.yaml", []byte(src))
	if err == nil {
		t.Errorf("%s: no error", name)
		return
	}
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%s:\n got: %v\nwant: %s...", name, err, want)
	}
	var list scenarios.ErrorList
	var one *scenarios.Error
	if !errors.As(err, &list) && !errors.As(err, &one) {
		t.Errorf("%s: error %T is not positioned", name, err)
	}
}

// MatchExact runs s with the given trials per model and seed, and checks
// each estimate that has an exact value within 5 standard errors of it (a
// false alarm about once in 1.7 million comparisons, so a few hundred
// comparisons per scenario will not flake). It returns how many estimates
// it checked.
func MatchExact(t *testing.T, s *scenarios.Scenario, trials int64, seed uint64) int {
	t.Helper()
	run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: trials, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range s.Results(run) {
		if !e.HasExact {
			continue
		}
		checked++
		if z := e.Z(); math.Abs(z) > 5 {
			t.Errorf("%s %s %v: estimate %.5f, exact %.5f, z = %.1f", s.Name, e.Metric, e.Params, e.Value, e.Exact, z)
		}
		MatchAtLeast(t, s.Name, e)
	}
	return checked
}

// Reporter is the part of *testing.T the checks report through.
type Reporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// MatchAtLeast checks, for an estimate with an exact distribution, the
// distribution's total against 1 and its mean against the exact value, and
// every simulated "at least N" count against Binomial(trials, exact
// chance). A count fails when one as far from the mean, on its side, has
// less chance than a normal value 5 standard errors out (two-sided,
// 5.7e-7: the criterion of MatchExact). The tail is the binomial's own,
// not the normal approximation's, which fails in the far tail: a chance of
// 6.6e-6 counted twice in 20,000 trials (a mean of 0.13) lies 5.2 standard
// errors out, yet happens with chance 0.008. A chance of exactly 0 or 1
// allows only its one count. It returns how many counts it checked.
func MatchAtLeast(t Reporter, name string, e sim.Estimate) int {
	t.Helper()
	d := e.ExactPMF
	if d == nil || e.Hist == nil || e.Trials == 0 {
		return 0
	}
	// The total is summed here: AtLeast gives 1 for a tail that holds
	// every possible value, whatever they add up to.
	total := 0.0
	for _, q := range d.P {
		total += q
	}
	if math.Abs(total-1) > 1e-9 {
		t.Errorf("%s %s %v: exact distribution sums to %.12f", name, e.Metric, e.Params, total)
	}
	if e.HasExact && math.Abs(d.Mean()-e.Exact) > 1e-9*(1+math.Abs(e.Exact)) {
		t.Errorf("%s %s %v: exact distribution's mean %.12f, exact value %.12f", name, e.Metric, e.Params, d.Mean(), e.Exact)
	}
	lo, hi, _ := e.Hist.Range()
	checked := 0
	for v := min(lo, d.Min); v <= max(hi, d.Min+len(d.P)-1)+1; v++ {
		p, k := d.AtLeast(v), e.Hist.CountAtLeast(v)
		checked++
		if tail := BinomialTail(e.Trials, k, p); 2*tail < fiveSigma {
			t.Errorf("%s %s %v: P(>= %d) simulated %.6f, exact %.6f (a count this far out has chance %.2g)",
				name, e.Metric, e.Params, v, float64(k)/float64(e.Trials), p, 2*tail)
		}
	}
	return checked
}

// fiveSigma is the chance of a normal value 5 standard errors or more from
// its mean, either side: erfc(5/sqrt(2)).
const fiveSigma = 5.733031438e-7

// BinomialTail is the chance that Binomial(n, p) lands at k or further from
// its mean n*p on k's side: P(X >= k) at or above the mean, P(X <= k)
// below it. Both come from the regularized incomplete beta function
// (P(X >= k) = I_p(k, n-k+1)), which keeps its precision far in the tails,
// where 1 - CDF would round to 0. A chance of 0 or 1 allows only one count.
func BinomialTail(n, k int64, p float64) float64 {
	switch {
	case k < 0 || k > n:
		return 0
	case p <= 0:
		return b2f(k == 0)
	case p >= 1:
		return b2f(k == n)
	case float64(k) >= float64(n)*p: // k >= 1, as n*p > 0
		return mathext.RegIncBeta(float64(k), float64(n-k+1), p)
	default: // k < n*p < n
		return mathext.RegIncBeta(float64(n-k), float64(k+1), 1-p)
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// AllocateNothing checks the hot path of every model of s: trials allocate
// nothing, however rare the path, once the histograms have grown to the
// values they see. It runs 20,000 trials, then the same trials again (the
// same stream, so no histogram grows) and counts every allocation of the
// second run: testing.AllocsPerRun divides by its runs, rounding down, so
// it is given one run of them all, and an allocation in one trial of the
// 20,000 reads 1. The count is the process's, so that the runtime's own
// or another goroutine's allocation may land in it: the least of three
// such counts is taken, since the trials replay the same stream and an
// allocation of theirs comes back every time.
func AllocateNothing(t *testing.T, s *scenarios.Scenario) {
	t.Helper()
	for i, m := range s.Models {
		if a := allocations(m, uint64(i)); a != 0 {
			t.Errorf("%s model %d: %v allocations in 20,000 trials", s.Name, i, a)
		}
	}
}

// allocations counts what 20,000 trials of m allocate, from the stream
// given, once the same trials have run: the least of three counts
// (AllocateNothing).
func allocations(m sim.Model, stream uint64) float64 {
	trial := m.NewTrial()
	tally := sim.NewTally(m.Slots())
	r := dice.New(1, stream)
	least := math.Inf(1)
	for range 3 {
		least = min(least, testing.AllocsPerRun(1, func() {
			r.Seed(1, stream)
			trial.Run(r, 20_000, tally)
		}))
	}
	return least
}
