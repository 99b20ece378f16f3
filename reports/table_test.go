package reports

import (
	"bytes"
	"fmt"
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

// TestGridFits: a charge sweep of M 1 to 20, whose grid is 192 characters
// wide as one table, is split into tables that each fit the terminal and
// repeat the distance column, with every M in one of them.
func TestGridFits(t *testing.T) {
	r := sweepM20()
	var b bytes.Buffer
	if err := WriteTable(&b, r); err != nil {
		t.Fatal(err)
	}
	if w := widest(b.Bytes()); w > TerminalWidth {
		t.Errorf("widest line %d > %d:\n%s", w, TerminalWidth, b.String())
	}
	if n := strings.Count(b.String(), "| distance |"); n < 2 {
		t.Errorf("%d tables of the grid, want 2 or more:\n%s", n, b.String())
	}
	for m := 1; m <= 20; m++ {
		if !strings.Contains(b.String(), fmt.Sprintf(" M %d |", m)) {
			t.Errorf("no column for M %d:\n%s", m, b.String())
		}
	}
}

// sweepM20 is a charge sweep's grid of M 1 to 20 by distance 6 to 8, a
// chance of 5M% at each point.
func sweepM20() *sim.Report {
	var ms []any
	r := &sim.Report{Scenario: "sweep", Trials: 100, Grid: &sim.Grid{Metric: "charge_success", Rows: "distance", Cols: "M"}}
	for m := 1; m <= 20; m++ {
		ms = append(ms, m)
		for d := 6; d <= 8; d++ {
			ps := []sim.Param{{Name: "M", Value: m}, {Name: "distance", Value: d}}
			r.Results = append(r.Results, sim.ProbabilityOf("charge_success", ps, int64(5*m), 100))
		}
	}
	r.Axes = []sim.Axis{{Name: "M", Values: ms}, {Name: "distance", Values: []any{6, 7, 8}}}
	return r
}

// TestColumnChunksWideLabels: row labels that leave no room for another
// column give one table, not one table per column each as wide as the
// terminal and more; labels that leave room split as before.
func TestColumnChunksWideLabels(t *testing.T) {
	table := func(label int) plainTable {
		t := plainTable{head: []string{"unit"}, left: 1, rows: [][]string{{strings.Repeat("x", label)}}}
		for c := range 15 {
			t.head = append(t.head, string(rune('a'+c)))
			t.rows[0] = append(t.rows[0], "1")
		}
		return t
	}
	// A 95-wide label: | + 95 + 3 (its column) leaves 1 of 100, and a
	// one-letter column takes 4.
	if got := columnChunks(table(95), TerminalWidth); len(got) != 1 || len(got[0]) != 15 {
		t.Errorf("95-wide labels: %v, want one run of the 15 columns", got)
	}
	// A 60-wide label leaves 36 columns: 9 one-letter columns a table.
	if got := columnChunks(table(60), TerminalWidth); len(got) != 2 || len(got[0]) != 9 || len(got[1]) != 6 {
		t.Errorf("60-wide labels: %v, want runs of 9 and 6 columns", got)
	}
}

// TestDashNote: a grid with a "-" cell says what it means; a priced
// metric names the unit without a price; a grid without one says nothing.
func TestDashNote(t *testing.T) {
	priced := &sim.Grid{Metric: "models_killed_per_100_points", Rows: "attacker", Cols: "target"}
	lines := [][]string{{"Clanrats", "5.07", "5.53"}, {"Stormvermin", "-", "-"}}
	if got, want := dashNote(priced, lines), "A dash marks no estimate: the unit it would be per 100 points of has no points there (0 is no price), or the point was not run."; got != want {
		t.Errorf("priced: %q, want %q", got, want)
	}
	other := &sim.Grid{Metric: "charge_success", Rows: "distance", Cols: "M"}
	if got, want := dashNote(other, lines), "A dash marks no estimate: the point does not report charge_success, or was not run."; got != want {
		t.Errorf("other: %q, want %q", got, want)
	}
	// A row label of "-" is no cell.
	if got := dashNote(other, [][]string{{"-", "1.00"}}); got != "" {
		t.Errorf("no dash among the cells: %q", got)
	}
}

// TestPriceNote: what a per-100-points metric divides by, said under its
// table: one price, each row's, or for many rows their range. The prices
// are Clanrats' 175 points for 30 models at 10, 30 and 40 models: 175 x
// 10 / 30 = 58.33 and 175 x 40 / 30 = 233.33.
func TestPriceNote(t *testing.T) {
	h := sim.NewHistogram(0, 3)
	h.AddN(2, 10)
	kills := sim.MeanOf("models_killed", nil, &h)
	priced := func(cost float64) sim.Estimate {
		return kills.Scaled("models_killed_per_100_points", nil, 100, cost)
	}
	for _, tc := range []struct {
		rows []sim.Estimate
		want string
	}{
		{[]sim.Estimate{kills}, ""},
		{[]sim.Estimate{priced(175)}, "Per 100 of 175 points."},
		{[]sim.Estimate{priced(175), priced(175)}, "Every row is per 100 of 175 points."},
		{[]sim.Estimate{priced(175.0 * 10 / 30), priced(175), priced(175.0 * 40 / 30)}, "Per 100 of these prices, row by row: 58.33, 175, 233.33 points."},
	} {
		if got := priceNote(tc.rows); got != tc.want {
			t.Errorf("%d rows: %q, want %q", len(tc.rows), got, tc.want)
		}
	}
	var many []sim.Estimate
	for i := range maxListedPrices + 1 {
		many = append(many, priced(float64(100+i)))
	}
	if got, want := priceNote(many), "Per 100 of prices from 100 to 120 points; the JSON output gives each row's (price)."; got != want {
		t.Errorf("many rows: %q, want %q", got, want)
	}
	// A grid names each row's price, where each row has one, for the rows
	// shown; else each column's (a Horus Heresy grid with its firers
	// across).
	g := &sim.Grid{Metric: "models_killed_per_100_points", Rows: "attacker", Cols: "target"}
	cell := func(a, tg string, cost float64) sim.Estimate {
		return kills.Scaled(g.Metric, []sim.Param{{Name: "attacker", Value: a}, {Name: "target", Value: tg}}, 100, cost)
	}
	targets := []any{"Knights", "Halberdiers"}
	s := slice{estimates: []sim.Estimate{cell("Doomwheel", "Knights", 150), cell("Doomwheel", "Halberdiers", 150), cell("Rat Ogres", "Knights", 152)}}
	if got, want := gridPriceNote(g, s, []any{"Doomwheel", "Rat Ogres"}, targets), "Prices, by attacker: Doomwheel 150, Rat Ogres 152 points."; got != want {
		t.Errorf("grid: %q, want %q", got, want)
	}
	// Of the rows shown alone: one price, whose unit needs no naming.
	if got, want := gridPriceNote(g, s, []any{"Rat Ogres"}, targets), "Every estimate here is per 100 of 152 points."; got != want {
		t.Errorf("grid of one row shown: %q, want %q", got, want)
	}
	across := &sim.Grid{Metric: g.Metric, Rows: "target", Cols: "attacker"}
	if got, want := gridPriceNote(across, s, targets, []any{"Doomwheel", "Rat Ogres"}), "Prices, by attacker: Doomwheel 150, Rat Ogres 152 points."; got != want {
		t.Errorf("grid with the priced units across: %q, want %q", got, want)
	}
	s.estimates[1].Price = 151
	if got, want := gridPriceNote(g, s, []any{"Doomwheel", "Rat Ogres"}, targets), "Each cell's price is in the JSON output (price)."; got != want {
		t.Errorf("grid with a row of two prices: %q, want %q", got, want)
	}
}
