package reports

import (
	"strings"
	"testing"

	"hammersim/sim"
)

// TestGridAllZero: a grid whose every row is 0 everywhere is written as a
// metric's table of zeros is, "0 at every point.", with no empty table
// and no note listing every row as left out.
func TestGridAllZero(t *testing.T) {
	r := &sim.Report{Scenario: "g0", Trials: 100, Grid: &sim.Grid{Metric: "models_killed", Rows: "attacker", Cols: "target"}}
	var h sim.Histogram
	h.AddN(0, 100)
	for _, a := range []string{"Clanrats", "Stormvermin"} {
		for _, tg := range []string{"Halberdiers", "Knights"} {
			r.Results = append(r.Results, sim.MeanOf("models_killed", []sim.Param{{Name: "attacker", Value: a}, {Name: "target", Value: tg}}, &h))
		}
	}
	r.Axes = []sim.Axis{{Name: "attacker", Values: []any{"Clanrats", "Stormvermin"}}, {Name: "target", Values: []any{"Halberdiers", "Knights"}}}
	var b strings.Builder
	if err := WriteTable(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "models_killed (mean)\n0 at every point.\n") || strings.Contains(out, "attacker \\ target") || strings.Contains(out, "Rows left out") {
		t.Errorf("an all-zero grid:\n%s", out)
	}
}
