package reports

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"hammersim/sim"
)

// hitsEstimate is a counted outcome over 10 trials: 0 twice, 1 three
// times, 2 four times, 3 once; with exact, the exact distribution is
// Binomial(3, 1/2): 1/8, 3/8, 3/8, 1/8.
func hitsEstimate(ps []sim.Param, exact bool) sim.Estimate {
	h := sim.NewHistogram(0, 3)
	for v, n := range []int64{2, 3, 4, 1} {
		h.AddN(v, n)
	}
	e := sim.MeanOf("hits", ps, &h)
	if exact {
		e = e.WithExactPMF(sim.PMF{Min: 0, P: []float64{1.0 / 8, 3.0 / 8, 3.0 / 8, 1.0 / 8}})
	}
	return e
}

func TestAtLeastCells(t *testing.T) {
	e := hitsEstimate(nil, true)
	// Estimates: at least 1 = 8/10, at least 2 = 5/10, at least 3 = 1/10.
	// Exact, Binomial(3, 1/2): 7/8, 4/8, 1/8.
	for n, want := range map[int]string{1: "80.0 (87.5)", 2: "50.0 (50.0)", 3: "10.0 (12.5)", 4: "0.0 (0.0)"} {
		if got := atLeastCell(e, n); got != want {
			t.Errorf("at least %d: got %q, want %q", n, got, want)
		}
	}
	if got := atLeastCell(hitsEstimate(nil, false), 2); got != "50.0" {
		t.Errorf("without an exact distribution: got %q, want 50.0", got)
	}
	if !counted(e) {
		t.Error("hits 0..3 is a counted outcome")
	}
	// A D6's hits are at least 1 for certain: the exact value reads 100.0,
	// not ">99.9" (its six sixths add up to 0.9999999999999999). Ten
	// trials of 1 to 6 hits, one each and 6 five times: at least 1 is 10/10,
	// at least 6 is 5/10 against the exact 1/6.
	d6 := sim.NewHistogram(0, 6)
	for v := 1; v <= 5; v++ {
		d6.AddN(v, 1)
	}
	d6.AddN(6, 5)
	sixth := 1.0 / 6
	e6 := sim.MeanOf("hits", nil, &d6).WithExactPMF(sim.PMF{Min: 0, P: []float64{0, sixth, sixth, sixth, sixth, sixth, sixth}})
	for n, want := range map[int]string{1: "100.0 (100.0)", 6: "50.0 (16.7)"} {
		if got := atLeastCell(e6, n); got != want {
			t.Errorf("D6 at least %d: got %q, want %q", n, got, want)
		}
	}
	// A 0-or-1 count's "at least 1" is its mean: no view.
	h := sim.NewHistogram(0, 1)
	h.AddN(0, 3)
	h.AddN(1, 7)
	if counted(sim.MeanOf("flag", nil, &h)) {
		t.Error("a 0-or-1 count needs no at-least view")
	}
	// Negative values (combat result) are not counts.
	h = sim.NewHistogram(-2, 3)
	h.AddN(-2, 1)
	h.AddN(3, 1)
	if counted(sim.MeanOf("result", nil, &h)) {
		t.Error("a quantity that can be negative is not a count")
	}
}

// TestAtLeastMargin: a table says how far its cells' 95% intervals reach.
// hitsEstimate's chances are 8, 5 and 1 in 10 trials. By hand, Wilson at
// z = 1.96 (z^2 = 3.8415, 1 + z^2/n = 1.38415, z / 1.38415 = 1.41602):
// 8/10 has centre (0.8 + 0.19207) / 1.38415 = 0.71673 and half-width
// 1.41602 * sqrt(0.016 + 0.0096037) = 0.22658, so it reaches 0.8 -
// 0.49015 = 0.30985 below the estimate; 5/10 reaches 0.26341 either side;
// 1/10 (centre 0.21101, half-width 0.19314) reaches 0.30415 above. The
// widest, 30.985 points, is printed rounded up: 31.0.
func TestAtLeastMargin(t *testing.T) {
	// widest is what a table's cells give marginNote.
	widest := func(e sim.Estimate, top int) float64 {
		w := 0.0
		for n := 1; n <= top; n++ {
			_, side := atLeastCellSide(e, n)
			w = max(w, side)
		}
		return w
	}
	want := "Each chance's 95% interval (Wilson) reaches at most 31.0 percentage points either side of it."
	if got := marginNote(widest(hitsEstimate(nil, true), 3)); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// The tables themselves end with it.
	tabs := atLeastTables("hits", []sim.Estimate{hitsEstimate(nil, true)}, nil)
	if len(tabs) != 1 || !slices.Contains(tabs[0].notes, want) {
		t.Errorf("the table's notes: %+v", tabs)
	}
	// 5,000 of 10,000 trials: half-width 1.96 * sqrt(0.25 / 10,000) /
	// (1 + 1.96^2 / 10,000), about 0.0098: 0.98 points, rounded up to 1.0.
	h := sim.NewHistogram(0, 2)
	h.AddN(0, 5000)
	h.AddN(2, 5000)
	if got := marginNote(widest(sim.MeanOf("hits", nil, &h), 2)); !strings.Contains(got, "at most 1.0 percentage") {
		t.Errorf("10,000 trials at 50%%: %q", got)
	}
}

func TestAtLeastLayouts(t *testing.T) {
	dist := func(d int) []sim.Param { return []sim.Param{{Name: "distance", Value: d}} }
	axes := []sim.Axis{{Name: "distance", Values: []any{6, 9}}}
	// One swept parameter: a grid, N down and the distances across.
	tabs := atLeastTables("hits", []sim.Estimate{hitsEstimate(dist(6), true), hitsEstimate(dist(9), false)}, axes)
	if len(tabs) != 1 {
		t.Fatalf("got %d tables, want 1", len(tabs))
	}
	want := plainTable{
		title: "hits: chance of at least N, in percent (exact in brackets)",
		head:  []string{"at least", "distance 6", "distance 9"},
		left:  1,
		// Up to 3: 10% of trials reached 3, above the half-percent floor.
		rows: [][]string{{"1", "80.0 (87.5)", "80.0"}, {"2", "50.0 (50.0)", "50.0"}, {"3", "10.0 (12.5)", "10.0"}},
	}
	if got := tabs[0]; got.title != want.title || strings.Join(got.head, "|") != strings.Join(want.head, "|") || len(got.rows) != len(want.rows) {
		t.Fatalf("grid: got %+v, want %+v", got, want)
	}
	for i, r := range want.rows {
		if strings.Join(tabs[0].rows[i], "|") != strings.Join(r, "|") {
			t.Errorf("grid row %d: got %q, want %q", i, tabs[0].rows[i], r)
		}
	}

	// Two parameters that are not swept: a row per point.
	unit := func(u, tg string) []sim.Param {
		return []sim.Param{{Name: "unit", Value: u}, {Name: "target", Value: tg}}
	}
	tabs = atLeastTables("hits", []sim.Estimate{hitsEstimate(unit("A", "X"), false), hitsEstimate(unit("B", "Y"), false)}, nil)
	if len(tabs) != 1 || strings.Join(tabs[0].head, "|") != "unit|target|>=1|>=2|>=3" {
		t.Fatalf("rows: got %+v", tabs)
	}

	// A point that never reaches 1 is left out, with a note.
	h := sim.NewHistogram(0, 3)
	h.AddN(0, 10)
	never := sim.MeanOf("hits", dist(12), &h)
	tabs = atLeastTables("hits", []sim.Estimate{hitsEstimate(dist(6), false), never}, axes)
	if len(tabs) != 1 || len(tabs[0].head) != 2 || len(tabs[0].notes) != 2 || !strings.Contains(tabs[0].notes[1], "distance=12") {
		t.Errorf("never: got %+v", tabs)
	}

	// A point that only ever counted 0 or 1 (a one-model Doomwheel's
	// losses: 3 of 10 trials lost it) keeps its column beside a counted
	// one: at least 1 is 30.0%, at least 2 and 3 are 0.0%.
	h = sim.NewHistogram(0, 3)
	h.AddN(0, 7)
	h.AddN(1, 3)
	once := sim.MeanOf("hits", dist(9), &h)
	tabs = atLeastTables("hits", []sim.Estimate{hitsEstimate(dist(6), false), once}, axes)
	if len(tabs) != 1 || strings.Join(tabs[0].head, "|") != "at least|distance 6|distance 9" {
		t.Fatalf("0 or 1: got %+v", tabs)
	}
	for i, want := range []string{"30.0", "0.0", "0.0"} {
		if got := tabs[0].rows[i][2]; got != want {
			t.Errorf("0 or 1, at least %d: %s, want %s", i+1, got, want)
		}
	}
}

// TestAtLeastExactTitle: each grid of a metric says "exact in brackets"
// only when its own cells hold exact values: the Doomwheel's losses have
// none where the Stormvermin's beside it have them.
func TestAtLeastExactTitle(t *testing.T) {
	at := func(u string, d int) []sim.Param {
		return []sim.Param{{Name: "distance", Value: d}, {Name: "unit", Value: u}}
	}
	axes := []sim.Axis{{Name: "distance", Values: []any{6, 9}}}
	es := []sim.Estimate{
		hitsEstimate(at("Doomwheel", 6), false), hitsEstimate(at("Doomwheel", 9), false),
		hitsEstimate(at("Stormvermin", 6), true), hitsEstimate(at("Stormvermin", 9), false),
	}
	tabs := atLeastTables("hits", es, axes)
	want := []string{
		"hits: chance of at least N, in percent, unit=Doomwheel",
		"hits: chance of at least N, in percent (exact in brackets), unit=Stormvermin",
	}
	if len(tabs) != len(want) {
		t.Fatalf("got %d tables, want %d: %+v", len(tabs), len(want), tabs)
	}
	for i, w := range want {
		if tabs[i].title != w {
			t.Errorf("table %d: title %q, want %q", i, tabs[i].title, w)
		}
	}
	// A row per point: the one table says so when any row has them.
	unit := func(u, tg string) []sim.Param {
		return []sim.Param{{Name: "unit", Value: u}, {Name: "target", Value: tg}}
	}
	for _, exact := range []bool{false, true} {
		tabs = atLeastTables("hits", []sim.Estimate{hitsEstimate(unit("A", "X"), false), hitsEstimate(unit("B", "Y"), exact)}, nil)
		if len(tabs) != 1 || strings.Contains(tabs[0].title, "exact in brackets") != exact {
			t.Errorf("rows, exact %v: got %+v", exact, tabs)
		}
	}
}

// TestAtLeastFits: a view with more columns than a terminal holds is split
// into tables that each fit it, repeating the row labels.
func TestAtLeastFits(t *testing.T) {
	h := sim.NewHistogram(0, 40)
	for v := range 41 {
		h.AddN(v, 1)
	}
	var es []sim.Estimate
	for _, u := range []string{"Clanrats", "Stormvermin"} {
		for _, tg := range []string{"Knights", "Halberdiers"} {
			es = append(es, sim.MeanOf("killed", []sim.Param{{Name: "unit", Value: u}, {Name: "target", Value: tg}}, &h))
		}
	}
	tabs := atLeastTables("killed", es, nil)
	var b bytes.Buffer
	for _, tab := range tabs {
		if err := writePlainTable(&b, tab); err != nil {
			t.Fatal(err)
		}
	}
	if w := widest(b.Bytes()); w > TerminalWidth {
		t.Errorf("widest line %d > %d:\n%s", w, TerminalWidth, b.String())
	}
	// 40 columns (>=1 .. >=40: the 41 values are equally likely, so >=40 is
	// 2/41, above the floor) do not fit one table.
	if n := strings.Count(b.String(), "| unit "); n < 2 {
		t.Errorf("expected the columns split over several tables, got %d:\n%s", n, b.String())
	}
	if !strings.Contains(b.String(), ">=40") || strings.Contains(b.String(), ">=41") {
		t.Errorf("expected columns up to >=40:\n%s", b.String())
	}
}

func TestLongTableTrimsZeroRows(t *testing.T) {
	var es []sim.Estimate
	for _, d := range []int{6, 30} {
		k := int64(40)
		if d == 30 {
			k = 0 // nobody charges 30"
		}
		es = append(es, sim.ProbabilityOf("charge", []sim.Param{{Name: "distance", Value: d}}, k, 100).WithExact(float64(k)/100))
	}
	var b bytes.Buffer
	if err := writeLong(&b, "charge", es); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "| 30 ") || !strings.Contains(out, "Rows left out, all 0: distance=30.") {
		t.Errorf("the 0%% row should be left out with a note:\n%s", out)
	}
}

func TestWrapText(t *testing.T) {
	got := wrapText("aaa bbb ccc ddd", 7)
	if got != "aaa bbb\nccc ddd" {
		t.Errorf("got %q", got)
	}
	// A word longer than a line is cut across lines.
	if got := wrapText("ab cdefghijklmnop q", 7); got != "ab\ncdefghi\njklmnop\nq" {
		t.Errorf("long word: got %q", got)
	}
}

// TestAtLeastNoneForANegativePoint: a metric below 0 at one point (a
// combat result the attacker lost by 2) is not a count, and has no "at
// least" view at its other points either, which would leave that point
// out unsaid.
func TestAtLeastNoneForANegativePoint(t *testing.T) {
	dist := func(d int) []sim.Param { return []sim.Param{{Name: "distance", Value: d}} }
	h := sim.NewHistogram(-2, 3)
	h.AddN(-2, 4)
	h.AddN(3, 6)
	result := sim.MeanOf("hits", dist(9), &h)
	axes := []sim.Axis{{Name: "distance", Values: []any{6, 9}}}
	if tabs := atLeastTables("hits", []sim.Estimate{hitsEstimate(dist(6), false), result}, axes); len(tabs) != 0 {
		t.Errorf("got %d tables, want none: %+v", len(tabs), tabs)
	}
	// Without it, the counted point has its view.
	if tabs := atLeastTables("hits", []sim.Estimate{hitsEstimate(dist(6), false)}, axes); len(tabs) != 1 {
		t.Errorf("got %d tables, want 1", len(tabs))
	}
}

// TestAtLeastCollapsesFlatRuns: rows (or columns of N) that read alike
// in every cell are one row, "8 to 30": a unit caught and destroyed
// loses every model at once, and the chance of losing 8 or more reads
// the same down to its last model. Rows that differ anywhere stay apart.
func TestAtLeastCollapsesFlatRuns(t *testing.T) {
	rows := [][]string{{"6", "4.2", "5.0"}, {"7", "3.6", "5.0"}, {"8", "3.6", "5.0"}, {"9", "3.6", "5.0"}, {"10", "3.6", "4.9"}}
	got := collapseRuns(rows)
	want := [][]string{{"6", "4.2", "5.0"}, {"7 to 9", "3.6", "5.0"}, {"10", "3.6", "4.9"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("collapseRuns: got %v, want %v", got, want)
	}
	head := []string{"unit", ">=1", ">=2", ">=3", ">=4"}
	cols := [][]string{{"A", "90.0", "50.0", "50.0", "50.0"}, {"B", "80.0", "10.0", "10.0", "9.0"}}
	h, r := collapseColumns(head, cols, 1)
	if fmt.Sprint(h) != "[unit >=1 >=2 to 3 >=4]" || fmt.Sprint(r) != "[[A 90.0 50.0 50.0] [B 80.0 10.0 9.0]]" {
		t.Errorf("collapseColumns: got %v %v", h, r)
	}
	if fmt.Sprint(head) != "[unit >=1 >=2 >=3 >=4]" {
		t.Errorf("collapseColumns changed its input's head: %v", head)
	}
}
