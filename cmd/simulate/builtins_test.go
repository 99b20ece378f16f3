package main

import (
	"encoding/json"
	"math"
	"testing"

	"hammersim/mechanics/dice"
	"hammersim/scenarios"
	"hammersim/sim"
)

// TestBuiltinsGolden pins the JSON of every built-in scenario at a fixed
// seed and a modest trial count, so that any change to what a question
// computes, or to the numbers it prints, shows up as a diff of
// testdata/builtins/NAME.json. 3,000 trials per point keep the whole
// library to a few seconds.
//
// A golden can be rewritten with -update, so each run is also checked on
// its own: every estimate with an exact value lies within 5 standard
// errors of it. Over the library's 1,773 such estimates, a sound
// computation would put one beyond 5 about once in 980 runs of new seeds
// (two-sided normal tail 5.73e-7 each, 1.0e-3 in all), and the seed is
// fixed; a z that is infinite (written "inf" or "-inf": an estimate off an
// exact 0 or 1) always fails.
func TestBuiltinsGolden(t *testing.T) {
	checked := 0
	for _, name := range scenarios.BuiltinNames() {
		out, _, err := runCLI(t, "run", name, "--trials", "3000", "--seed", "5", "--format", "json", "--progress", "never")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		golden(t, "builtins/"+name+".json", []byte(out))
		var got struct {
			Results []struct {
				Metric string
				Params map[string]any
				Exact  *float64
				Z      any // a number, or "inf" / "-inf"
			}
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, e := range got.Results {
			if e.Exact == nil {
				continue
			}
			checked++
			if z, ok := e.Z.(float64); !ok || math.Abs(z) > 5 {
				t.Errorf("%s: %s %v: z = %v against the exact %v", name, e.Metric, e.Params, e.Z, *e.Exact)
			}
		}
	}
	// Fewer would mean the exact values went missing from the outputs.
	if checked < 1500 {
		t.Errorf("%d estimates with an exact value in the built-ins; expected about 1,800", checked)
	}
}

// TestTrialsSplitAlike: the engine runs a chunk's trials in calls of as
// many as take about 20 ms, so that a stop is prompt (sim's
// runItem), which leaves results alone only if every model's trials do
// the same in one call of n as in calls that add up to n, from the same
// stream. For every model of every built-in, 700 trials in one call and in
// calls of 1, 2, 3, ... trials (a triangle: 1+2+...+36 = 666, then 34)
// count the same.
func TestTrialsSplitAlike(t *testing.T) {
	for _, name := range scenarios.BuiltinNames() {
		s, err := registry.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for m, model := range s.Models {
			whole, split := sim.NewTally(model.Slots()), sim.NewTally(model.Slots())
			var r dice.Rand
			r.Seed(5, uint64(m))
			model.NewTrial().Run(&r, 700, whole)
			r.Seed(5, uint64(m))
			trial := model.NewTrial()
			for done, c := 0, 1; done < 700; c++ {
				c = min(c, 700-done)
				trial.Run(&r, c, split)
				done += c
			}
			if !whole.Equal(split) {
				t.Errorf("%s, model %d: 700 trials in one call and in many differ", name, m)
			}
		}
	}
}

// TestCountIntervalsStayAtZero: every average a built-in reports but the
// combat result (a difference) is a count, and its interval is cut at 0
// (sim.Estimate.AtLeast). Twenty trials a point, seed 2, leave many
// averages of rare counts near 0 (plasma-gets-hot's Gets Hot wounds, 0.1
// ± 0.144 uncut), whose uncut intervals reach below it.
func TestCountIntervalsStayAtZero(t *testing.T) {
	cut := 0
	for _, name := range scenarios.BuiltinNames() {
		out, _, err := runCLI(t, "run", name, "--trials", "20", "--seed", "2", "--format", "json", "--progress", "never")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var got struct {
			Results []struct {
				Metric, Kind string
				Estimate     float64
				CI95         []any `json:"ci95"`
			}
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, r := range got.Results {
			lo, ok := r.CI95[0].(float64)
			if r.Kind != "mean" || r.Metric == "combat_result" || !ok {
				continue
			}
			if lo < 0 {
				t.Errorf("%s: %s's interval starts at %v, below 0", name, r.Metric, lo)
			}
			if lo == 0 && r.Estimate > 0 {
				cut++
			}
		}
	}
	if cut == 0 {
		t.Error("no interval was cut at 0: the test no longer reaches a rare count")
	}
}
