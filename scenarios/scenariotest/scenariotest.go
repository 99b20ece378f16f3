package scenariotest

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

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
// false alarm about once in 3.5 million comparisons, so a few hundred
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

// MatchAtLeast checks, for an estimate with an exact distribution, every
// simulated "at least N" share against the exact chance within 5 binomial
// standard errors (the same criterion as MatchExact), and the
// distribution's total against 1 and its mean against the exact value. A chance of exactly 0 or 1 must be
// matched exactly. It returns how many values it checked.
func MatchAtLeast(t *testing.T, name string, e sim.Estimate) int {
	t.Helper()
	d := e.ExactPMF
	if d == nil || e.Hist == nil || e.Trials == 0 {
		return 0
	}
	if total := d.AtLeast(d.Min); math.Abs(total-1) > 1e-9 {
		t.Errorf("%s %s %v: exact distribution sums to %.12f", name, e.Metric, e.Params, total)
	}
	if e.HasExact && math.Abs(d.Mean()-e.Exact) > 1e-9*(1+math.Abs(e.Exact)) {
		t.Errorf("%s %s %v: exact distribution's mean %.12f, exact value %.12f", name, e.Metric, e.Params, d.Mean(), e.Exact)
	}
	lo, hi, _ := e.Hist.Range()
	n := float64(e.Trials)
	checked := 0
	for v := min(lo, d.Min); v <= max(hi, d.Min+len(d.P)-1)+1; v++ {
		p := d.AtLeast(v)
		got := float64(e.Hist.CountAtLeast(v)) / n
		se := math.Sqrt(p * (1 - p) / n)
		checked++
		if math.Abs(got-p) > 5*se+1e-12 {
			t.Errorf("%s %s %v: P(>= %d) simulated %.5f, exact %.5f (SE %.5f)", name, e.Metric, e.Params, v, got, p, se)
		}
	}
	return checked
}

// AllocateNothing checks the hot path of every model of s: once a chunk
// has run (and the histograms have grown to the values seen), more trials
// allocate nothing.
func AllocateNothing(t *testing.T, s *scenarios.Scenario) {
	t.Helper()
	for i, m := range s.Models {
		trial := m.NewTrial()
		tally := sim.NewTally(m.Slots())
		r := dice.New(1, uint64(i))
		trial.Run(r, 10_000, tally)
		if a := testing.AllocsPerRun(20, func() { trial.Run(r, 1000, tally) }); a != 0 {
			t.Errorf("%s model %d: %v allocations per 1000 trials", s.Name, i, a)
		}
	}
}
