package reports

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"hammersim/sim"
)

// svgText renders a figure as SVG, whose text elements hold its title,
// axis labels, tick labels and legend entries as written.
func svgText(t *testing.T, f figure) string {
	t.Helper()
	b, err := render(f, "svg")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// reachReport is a charge sweep's reach: a counted distribution (values 2
// to 4 inches over M) for each M in ms and each swiftstride, like the
// swiftstride-charge built-in's 7 M values by 2 (14 series).
func reachReport(ms []int) *sim.Report {
	var mv []any
	for _, m := range ms {
		mv = append(mv, m)
	}
	r := &sim.Report{Scenario: "reach", Trials: 100,
		Axes: []sim.Axis{{Name: "M", Values: mv}, {Name: "swiftstride", Values: []any{false, true}}}}
	for _, m := range ms {
		for _, s := range []bool{false, true} {
			h := sim.NewHistogram(0, 40)
			h.AddN(m+2, 50)
			h.AddN(m+4, 50)
			ps := []sim.Param{{Name: "M", Value: m}, {Name: "swiftstride", Value: s}}
			r.Results = append(r.Results, sim.MeanOf("charge_reach", ps, &h))
		}
	}
	return r
}

// TestPlotSplitKeepsEverySeries: 14 series (7 M by 2 swiftstride) are more
// than MaxLines, so the plot is split by swiftstride (2 values, the fewest
// figures) into two figures of 7, each titled and named by its value and
// drawing every M; nothing is left out, so there is no note.
func TestPlotSplitKeepsEverySeries(t *testing.T) {
	ms := []int{4, 5, 6, 7, 8, 9, 10}
	figs, notes, err := reportFigures(reachReport(ms), goOn)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 0 || len(figs) != 2 {
		t.Fatalf("%d figures, notes %q; want 2, none", len(figs), notes)
	}
	for i, s := range []string{"false", "true"} {
		f := figs[i]
		if f.name != "charge_reach_swiftstride="+s || f.caption != "charge reach (swiftstride "+s+")" {
			t.Errorf("figure %d: name %q caption %q", i, f.name, f.caption)
		}
		svg := svgText(t, f.fig)
		if !strings.Contains(svg, "reach: charge reach (swiftstride "+s+")") {
			t.Errorf("figure %d's title does not say what it holds", i)
		}
		for _, m := range ms {
			if !strings.Contains(svg, fmt.Sprintf(">M %d<", m)) {
				t.Errorf("figure %d (swiftstride %s) lacks M %d", i, s, m)
			}
		}
	}
}

// TestPlotSplitLongSweep: one parameter with 14 values is cut into runs of
// about equal length (7 and 7, not 10 and 4), each named by its first and
// last value.
func TestPlotSplitLongSweep(t *testing.T) {
	var rows []sim.Estimate
	for m := 4; m <= 17; m++ {
		rows = append(rows, sim.ProbabilityOf("x", []sim.Param{{Name: "M", Value: m}}, 1, 2))
	}
	parts, note, err := splitSeries(rows, goOn)
	if err != nil || note != "" || len(parts) != 2 {
		t.Fatalf("%d parts, note %q", len(parts), note)
	}
	want := [][2]string{{"M=4..10", "M 4 to 10"}, {"M=11..17", "M 11 to 17"}}
	for i, p := range parts {
		if p.file != want[i][0] || p.title != want[i][1] || len(p.rows) != 7 {
			t.Errorf("part %d: %q %q with %d rows, want %q %q with 7", i, p.file, p.title, len(p.rows), want[i][0], want[i][1])
		}
	}
	// Past MaxFigures figures, the rest are left to the tables with a note.
	rows = nil
	for m := range MaxLines * (MaxFigures + 1) {
		rows = append(rows, sim.ProbabilityOf("x", []sim.Param{{Name: "M", Value: m}}, 1, 2))
	}
	parts, note, err = splitSeries(rows, goOn)
	if err != nil || len(parts) != MaxFigures || !strings.Contains(note, fmt.Sprintf("first %d of its %d figures", MaxFigures, MaxFigures+1)) {
		t.Errorf("%d parts, note %q", len(parts), note)
	}
	if want := fmt.Sprintf("M 0 to 9, figure 1 of %d, the last 1 left to the tables", MaxFigures+1); parts[0].title != want {
		t.Errorf("first figure titled %q, want %q", parts[0].title, want)
	}
}

// battleReport is a battle swept over attackers and targets whose metric
// is reported per unit, the attacker and its target, like the
// doomwheel-balance built-in: 3 attackers by 3 targets, 18 estimates.
func battleReport() *sim.Report {
	attackers := []any{"Doomwheel", "Rat Ogres", "Stormvermin"}
	targets := []any{"Halberdiers", "Knights", "Dwarf Warriors"}
	r := &sim.Report{Scenario: "balance", Trials: 100,
		Axes: []sim.Axis{{Name: "attacker", Values: attackers}, {Name: "target", Values: targets}}}
	for i, a := range attackers {
		for j, tg := range targets {
			for k, u := range []any{a, tg} {
				ps := []sim.Param{{Name: "attacker", Value: a}, {Name: "target", Value: tg}, {Name: "unit", Value: u}}
				r.Results = append(r.Results, sim.ProbabilityOf("won", ps, int64(10+20*i+5*j+40*k), 100))
			}
		}
	}
	return r
}

// TestBattleBarsByRole: a unit that is the point's attacker or target is
// named by that part, so each attacker's group holds the same six bars
// (three targets, each side's result) and no series is empty elsewhere;
// the Stormvermin group (once cut off past ten series) is drawn, each
// pair in one hue, and the legend sits above every bar.
func TestBattleBarsByRole(t *testing.T) {
	figs, notes, err := reportFigures(battleReport(), goOn)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 1 || len(notes) != 0 || figs[0].name != "won" {
		t.Fatalf("figures %v, notes %q", figs, notes)
	}
	svg := svgText(t, figs[0].fig)
	for _, tg := range []string{"Halberdiers", "Knights", "Dwarf Warriors"} {
		for _, role := range []string{"attacker", "target"} {
			if label := "target " + tg + ", unit: the " + role; !strings.Contains(svg, label) {
				t.Errorf("legend lacks %q", label)
			}
		}
	}
	for _, a := range []string{"Doomwheel", "Rat Ogres", "Stormvermin"} {
		if !strings.Contains(svg, ">"+a+"<") {
			t.Errorf("no group for %s", a)
		}
	}
	if strings.Contains(svg, "unit Halberdiers") {
		t.Error("a series is still keyed by a unit's name")
	}
	// Each target's pair of bars shares a hue, dark for the attacker and
	// light for the target: Tableau 20's blue pair first.
	if !strings.Contains(svg, "fill:#4E79A7") || !strings.Contains(svg, "fill:#A0CBE8") {
		t.Error("the first pair is not dark and light blue")
	}
	// The highest bar's interval reaches about 95% (95 of 100, Wilson).
	legendClear(t, figs[0].fig.(*plot.Plot), 0.99)
}

// legendClear checks that the legend, top right, lies wholly above the
// value top on the figure's y axis.
func legendClear(t *testing.T, p *plot.Plot, top float64) {
	t.Helper()
	area := p.DataCanvas(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: plotW, Y: plotH}}})
	_, trY := p.Transforms(&area)
	bottom := area.Max.Y - p.Legend.Rectangle(area).Size().Y
	if trY(top) >= bottom {
		t.Errorf("the legend's bottom (%v) is below the data's top (%v at %v)", bottom, trY(top), top)
	}
}

// TestUnitRolesOnlyForParts: a unit named by no other parameter keeps its
// name: a full combat's "Dread Maw" swept over distance, or a fixed target
// ("Clanrats") beside an attacker that is swept, which becomes "the
// attacker".
func TestUnitRolesOnlyForParts(t *testing.T) {
	ps := func(a, u string) []sim.Param {
		return []sim.Param{{Name: "distance", Value: 6}, {Name: "attacker", Value: a}, {Name: "unit", Value: u}}
	}
	rows := []sim.Estimate{
		sim.ProbabilityOf("won", ps("Impact Hits", "Impact Hits"), 1, 2),
		sim.ProbabilityOf("won", ps("Impact Hits", "Clanrats"), 1, 2),
		sim.ProbabilityOf("won", []sim.Param{{Name: "distance", Value: 6}, {Name: "unit", Value: "Dread Maw"}}, 1, 2),
	}
	got := unitRoles(rows)
	for i, want := range []string{"the attacker", "Clanrats", "Dread Maw"} {
		if u := got[i].Param("unit"); u != want {
			t.Errorf("row %d: unit %v, want %s", i, u, want)
		}
	}
	if rows[0].Param("unit") != "Impact Hits" {
		t.Error("unitRoles changed its input")
	}
}

// TestGridPlotInPercent: a charge sweep's probabilities are on a percent
// axis from 0 to 100%, like every other plot, with words for names.
func TestGridPlotInPercent(t *testing.T) {
	r := sampleReport()
	slices, _ := gridSlices(r, r.Grid)
	p, err := gridPlot(r, r.Grid, slices[0])
	if err != nil {
		t.Fatal(err)
	}
	percentTicksOnly(t, p)
	if p.Title.Text != "sample: charge success" || p.X.Label.Text != `distance (inches, ")` || p.Y.Label.Text != "chance of charge success" {
		t.Errorf("title %q, x %q, y %q", p.Title.Text, p.X.Label.Text, p.Y.Label.Text)
	}
	if svg := svgText(t, p); !strings.Contains(svg, ">M 4<") || !strings.Contains(svg, ">M 5<") {
		t.Error("legend does not read M 4, M 5")
	}
}

// percentTicksOnly checks that a probability axis labels only 0% to 100%,
// in percent.
func percentTicksOnly(t *testing.T, p *plot.Plot) {
	t.Helper()
	ticks := p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max)
	labelled := 0
	for _, tk := range ticks {
		if tk.Label == "" {
			continue
		}
		labelled++
		if tk.Value < -1e-9 || tk.Value > 1+1e-9 || !strings.HasSuffix(tk.Label, "%") {
			t.Errorf("tick %v labelled %q on a probability axis", tk.Value, tk.Label)
		}
	}
	if labelled < 2 {
		t.Errorf("%d labelled ticks: %v", labelled, ticks)
	}
}

// TestPlotExactMarked: exact values are drawn beside estimates, and the
// legend names their mark where there are any.
func TestPlotExactMarked(t *testing.T) {
	r := &sim.Report{Scenario: "s", Trials: 100, Axes: []sim.Axis{{Name: "target", Values: []any{"Orcs", "Goblins"}}}}
	for i, tg := range []string{"Orcs", "Goblins"} {
		e := sim.ProbabilityOf("hit", []sim.Param{{Name: "target", Value: tg}}, int64(40+10*i), 100)
		r.Results = append(r.Results, e.WithExact(0.5))
	}
	figs, _, err := reportFigures(r, goOn)
	if err != nil || len(figs) != 1 {
		t.Fatal(figs, err)
	}
	if !strings.Contains(svgText(t, figs[0].fig), ">exact value<") {
		t.Error("no legend entry for the exact values of bars")
	}
	// The sample's charge sweep and one comparison row have exact values;
	// the wounds comparison has none.
	figs, _, err = reportFigures(sampleReport(), goOn)
	if err != nil || !strings.Contains(svgText(t, figs[0].fig), ">exact value<") {
		t.Error("no legend entry for the exact values of lines", err)
	}
	c := comparisonOf(sim.Probability, [3]float64{0.5, 0.6, 0.7})
	c.Rows[0].Estimates[1] = c.Rows[0].Estimates[1].WithExact(0.6)
	if figs, _, err = comparisonFigures(c, goOn); err != nil || !strings.Contains(svgText(t, figs[0].fig), ">exact value<") {
		t.Error("no legend entry for the exact values of a comparison", err)
	}
	if figs, _, err = comparisonFigures(sampleComparison(), goOn); err != nil || strings.Contains(svgText(t, figs[0].fig), ">exact value<") {
		t.Error("a legend entry for exact values where there are none", err)
	}
}

// comparisonOf builds a comparison of three attackers' units against
// targets, the units matched by part as sim.Compare matches them: each
// candidate's own unit (named differently in each), then the target.
func comparisonOf(kind sim.Kind, values [3]float64) *sim.Comparison {
	names := []string{"Doomwheel", "Rat Ogres", "Stormvermin"}
	c := &sim.Comparison{Candidates: names, Trials: 1000}
	for _, tg := range []string{"Halberdiers", "Knights", "Dwarf Warriors"} {
		for part := range 2 {
			row := sim.ComparisonRow{Metric: "models_killed", Kind: kind}
			for k, n := range names {
				u := n
				if part == 1 {
					u = tg
				}
				ps := []sim.Param{{Name: "target", Value: tg}, {Name: "unit", Value: u}}
				if k == 0 {
					row.Params = ps
				} else if part == 0 {
					row.Differ = true
				}
				e := sim.ProbabilityOf("models_killed", ps, int64(1000*values[k]), 1000)
				if kind == sim.Mean { // a mean known to ±0.1
					v := values[k]
					e = sim.Estimate{Metric: "models_killed", Params: ps, Kind: kind, Value: v, CI95: [2]float64{v - 0.1, v + 0.1}, Trials: 1000}
				}
				row.Estimates = append(row.Estimates, e)
			}
			c.Rows = append(c.Rows, row)
		}
	}
	return c
}

// TestComparisonPlotLabels: units are named by their part rather than by
// the first candidate's name, and a probability axis stops at 100%
// (values of 95.45% and 100% once gave ticks of 95%, 98%, 101%).
func TestComparisonPlotLabels(t *testing.T) {
	c := comparisonOf(sim.Probability, [3]float64{0.9545, 1, 1})
	figs, _, err := comparisonFigures(c, goOn)
	if err != nil || len(figs) != 1 {
		t.Fatal(figs, err)
	}
	p := figs[0].fig.(*plot.Plot)
	percentTicksOnly(t, p)
	ticks, _ := comparisonTicks(c, byMetric(c)[0], false)
	if ticks[0] != "Halberdiers, the candidate" || ticks[1] != "Halberdiers, the target" {
		t.Errorf("tick labels %q", ticks)
	}
	legendClear(t, p, 1)
}

// TestComparisonAxisWords: a comparison's x axis names its parameters as
// a run's plots do, in words and with the unit of a length, "distance
// (inches, ")".
func TestComparisonAxisWords(t *testing.T) {
	c := &sim.Comparison{Candidates: []string{"A", "B"}, Trials: 1000}
	for _, d := range []int{12, 24} {
		ps := []sim.Param{{Name: "charge_reach", Value: 1}, {Name: "distance", Value: d}}
		row := sim.ComparisonRow{Metric: "casualties", Kind: sim.Probability, Params: ps}
		for range 2 {
			row.Estimates = append(row.Estimates, sim.ProbabilityOf("casualties", ps, 500, 1000))
		}
		c.Rows = append(c.Rows, row)
	}
	_, xlabel := comparisonTicks(c, byMetric(c)[0], false)
	if want := `charge reach (inches, "), distance (inches, ")`; xlabel != want {
		t.Errorf("x label %q, want %q", xlabel, want)
	}
}

// TestComparisonTickLabelsWhole: slanted tick labels are drawn whole. The
// first one, slanted to end at its tick, once lost its start at the left
// edge where the y axis' labels are narrow ("0", "5", "10", as for
// models killed).
func TestComparisonTickLabelsWhole(t *testing.T) {
	c := comparisonOf(sim.Mean, [3]float64{0, 4, 11})
	figs, _, err := comparisonFigures(c, goOn)
	if err != nil || len(figs) != 1 {
		t.Fatal(figs, err)
	}
	p := figs[0].fig.(*plot.Plot)
	ticks, _ := comparisonTicks(c, byMetric(c)[0], false)
	if p.X.Tick.Label.Rotation == 0 {
		t.Fatal("six long labels are not slanted: the test no longer tests clipping")
	}
	area := p.DataCanvas(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: plotW, Y: plotH}}})
	for i, label := range ticks {
		x := area.X(p.X.Norm(float64(i)))
		r := p.X.Tick.Label.Rectangle(label)
		if x+r.Min.X < 0 || x+r.Max.X > plotW {
			t.Errorf("label %q spans %v to %v, outside 0 to %v", label, x+r.Min.X, x+r.Max.X, plotW)
		}
	}
}

// TestComparisonPlotsSplit: a metric with more points than
// MaxComparisonPoints is drawn whole in several figures of about equal
// size, each named by the points it holds.
func TestComparisonPlotsSplit(t *testing.T) {
	c := &sim.Comparison{Candidates: []string{"A", "B"}}
	n := MaxComparisonPoints + 5
	for p := range n {
		row := sim.ComparisonRow{Metric: "hits", Kind: sim.Probability, Params: []sim.Param{{Name: "x", Value: p}}}
		row.Estimates = []sim.Estimate{sim.ProbabilityOf("", nil, 5, 10), sim.ProbabilityOf("", nil, 6, 10)}
		c.Rows = append(c.Rows, row)
	}
	figs, notes, err := comparisonFigures(c, goOn)
	if err != nil {
		t.Fatal(err)
	}
	names := figureNames(figs)
	half := (n + 1) / 2
	w := len(strconv.Itoa(n)) // numbers zero-padded to the widest
	want := []string{fmt.Sprintf("compare_hits_points=%0*d..%d", w, 1, half), fmt.Sprintf("compare_hits_points=%d..%d", half+1, n)}
	if len(notes) != 0 || !slices.Equal(names, want) {
		t.Errorf("figures %q, notes %q; want %q", names, notes, want)
	}
	if !strings.Contains(svgText(t, figs[1].fig), fmt.Sprintf("points %d to %d of %d", half+1, n, n)) {
		t.Error("the second figure's title does not say which points it holds")
	}
}

// TestLegendAboveData: with MaxLines series reaching 100%, the y axis
// rises far enough that the legend covers no bar or line (a legend of ten
// entries once covered the top of a bar).
func TestLegendAboveData(t *testing.T) {
	var rows []sim.Estimate
	for g := range 2 {
		for s := range MaxLines {
			ps := []sim.Param{{Name: "group", Value: fmt.Sprint("g", g)}, {Name: "series", Value: fmt.Sprint("a long series name ", s)}}
			rows = append(rows, sim.ProbabilityOf("won", ps, 100, 100))
		}
	}
	bars, err := barFigure("bars", "won", rows)
	if err != nil {
		t.Fatal(err)
	}
	legendClear(t, bars, 1)
	for i := range rows {
		rows[i].Params[0] = sim.Param{Name: "x", Value: i / MaxLines}
	}
	lines, err := lineFigure("lines", "won", rows, "x")
	if err != nil {
		t.Fatal(err)
	}
	legendClear(t, lines, 1)
}

// TestBarsOfAveragesStartAtZero: a bar chart of averages that are never
// negative starts its y axis at 0, whatever the values (rounds fought, all
// about 1; casualties, all 0), where no interval reaches below it (1,000
// trials of each value). Measuring the bars' room before they were
// drawn once left the axis at gonum's -1 to 1 for an empty plot, and the
// bars, which only widen it, kept the -1.
func TestBarsOfAveragesStartAtZero(t *testing.T) {
	// The middle bar's values are shifted by shift from the others'.
	for _, tc := range []struct {
		values []int
		shift  int
	}{{[]int{0, 1, 1, 1}, 1}, {[]int{1, 1, 1}, 1}, {[]int{0, 0}, 0}, {[]int{5, 7, 9}, 1}} {
		values := tc.values
		var rows []sim.Estimate
		for g := range 3 {
			h := sim.NewHistogram(0, 10)
			for _, v := range values {
				h.AddN(v+tc.shift*(g%2), 1000)
			}
			rows = append(rows, sim.MeanOf("rounds", []sim.Param{{Name: "attacker", Value: fmt.Sprint("u", g)}}, &h))
		}
		bars, err := barFigure("bars", "rounds", rows)
		if err != nil {
			t.Fatal(err)
		}
		if bars.Y.Min != 0 || !(bars.Y.Max > 0) {
			t.Errorf("values %v: y axis %v to %v, want it to start at 0", values, bars.Y.Min, bars.Y.Max)
		}
		if svg := svgText(t, bars); strings.Contains(svg, ">-1<") {
			t.Errorf("values %v: the axis is labelled -1", values)
		}
	}
}

// TestZeroLineWhereValuesCrossZero: a figure of averages on both sides of
// 0 (combat results, the attacker's less the target's) draws a line at 0,
// which gonum's ticks (here -1, 2, 5) need not label; one whose values
// are all above 0 starts at 0 and draws none. The line is the figure's only
// stroke 0.75 points wide (zeroLine).
func TestZeroLineWhereValuesCrossZero(t *testing.T) {
	for _, tc := range []struct {
		values []int
		line   bool
	}{{[]int{4, -1, 2}, true}, {[]int{4, 1, 2}, false}} {
		var rows []sim.Estimate
		for i, v := range tc.values {
			h := sim.NewHistogram(-5, 5)
			h.AddN(v, 1000)
			h.AddN(v+1, 1000)
			rows = append(rows, sim.MeanOf("combat_result", []sim.Param{{Name: "attacker", Value: fmt.Sprint("u", i)}}, &h))
		}
		bars, err := barFigure("bars", "combat_result", rows)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(svgText(t, bars), "stroke-width:0.75"); got != tc.line {
			t.Errorf("values %v: a line at 0 drawn %v, want %v", tc.values, got, tc.line)
		}
	}
}

// TestGridPlotSmallChances: a swept chance that stays small (a unit
// destroyed 3% of the time) is not drawn flat along the bottom of a 0 to
// 100% axis under the legend: the axis fits the data and the legend moves
// above it.
func TestGridPlotSmallChances(t *testing.T) {
	r := &sim.Report{Scenario: "small", Trials: 1000,
		Axes: []sim.Axis{{Name: "models", Values: []any{5, 10, 15}}, {Name: "rule", Values: []any{false, true}}},
		Grid: &sim.Grid{Metric: "destroyed", Rows: "models", Cols: "rule"}}
	for _, m := range []int{5, 10, 15} {
		for _, on := range []bool{false, true} {
			ps := []sim.Param{{Name: "models", Value: m}, {Name: "rule", Value: on}}
			r.Results = append(r.Results, sim.ProbabilityOf("destroyed", ps, int64(30-m), 1000))
		}
	}
	slices, _ := gridSlices(r, r.Grid)
	p, err := gridPlot(r, r.Grid, slices[0])
	if err != nil {
		t.Fatal(err)
	}
	top := 0.0
	for _, e := range r.Results {
		top = max(top, e.CI95[1])
	}
	// The highest interval: 25 of 1000, Wilson upper bound under 4%.
	if !p.Legend.Top || p.Y.Max > 0.1 {
		t.Errorf("legend top %v, y axis to %v: want the legend above, the axis fitted", p.Legend.Top, p.Y.Max)
	}
	legendClear(t, p, top)
	percentTicksOnly(t, p)
}

// TestHeatmapExact: a heatmap cell with an exact value gives it in
// brackets below the estimate, as the tables do, and the title says so.
func TestHeatmapExact(t *testing.T) {
	r := categoricalReport()
	r.Results[0] = r.Results[0].WithExact(2.5)
	figs, _, err := reportFigures(r, goOn)
	if err != nil {
		t.Fatal(err)
	}
	svg := svgText(t, figs[0].fig)
	if !strings.Contains(svg, ">(2.50)<") || !strings.Contains(svg, "exact in brackets") {
		t.Error("the heatmap does not give the exact value")
	}
}

// TestAtLeastCurvesKeepEveryPoint: in a battle, a one-model Doomwheel's
// models killed only ever counts 0 or 1, and a unit nothing can hurt never
// reaches 1; beside counted points they are drawn as curves too, as the
// docs promise ("A figure never leaves data out"), not dropped from the
// figure while the others are drawn.
func TestAtLeastCurvesKeepEveryPoint(t *testing.T) {
	r := &sim.Report{Scenario: "battle", Trials: 100,
		Axes: []sim.Axis{{Name: "attacker", Values: []any{"Doomwheel", "Rat Ogres", "Stormvermin"}}}}
	for _, pt := range []struct {
		unit   string
		counts map[int]int64 // value: trials
	}{
		{"Doomwheel", map[int]int64{0: 97, 1: 3}},    // 0 or 1: not "counted"
		{"Rat Ogres", map[int]int64{0: 40, 3: 60}},   // counted
		{"Stormvermin", map[int]int64{1: 50, 4: 50}}, // counted
		{"Ghost", map[int]int64{0: 100}},             // never at least 1
	} {
		h := sim.NewHistogram(0, 10)
		for v, n := range pt.counts {
			h.AddN(v, n)
		}
		ps := []sim.Param{{Name: "attacker", Value: pt.unit}}
		r.Results = append(r.Results, sim.MeanOf("models_killed", ps, &h))
	}
	figs, notes, err := reportFigures(r, goOn)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 1 || len(notes) != 0 {
		t.Fatalf("%d figures, notes %q; want 1, none", len(figs), notes)
	}
	svg := svgText(t, figs[0].fig)
	if !strings.Contains(svg, "chance of at least N") {
		t.Errorf("not drawn as at-least curves")
	}
	for _, u := range []string{"Doomwheel", "Rat Ogres", "Stormvermin", "Ghost"} {
		if !strings.Contains(svg, ">attacker "+u+"<") {
			t.Errorf("the figure leaves out attacker %s", u)
		}
	}
}

// TestPlotFileNamesDistinct: units named "a/b", "a:b" and "A:B" split a
// metric into figures whose names, once made safe for a file, would all be
// "attacker=a-b" (the last two alike on a disk that ignores case); each
// keeps a file of its own, inside the plot folder.
func TestPlotFileNamesDistinct(t *testing.T) {
	r := &sim.Report{Scenario: "names", Trials: 100}
	for _, a := range []string{"a/b", "a:b", "A:B"} {
		for _, g := range []string{"g1", "g2"} {
			for k := range 6 {
				ps := []sim.Param{{Name: "group", Value: g}, {Name: "attacker", Value: a}, {Name: "k", Value: fmt.Sprintf("k%d", k)}}
				r.Results = append(r.Results, sim.ProbabilityOf("won", ps, 50, 100))
			}
		}
	}
	figs, _, err := reportFigures(r, goOn)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 3 {
		t.Fatalf("%d figures, want 3 (one per attacker)", len(figs))
	}
	seen := map[string]bool{}
	for _, f := range figs {
		key := strings.ToLower(f.name)
		if seen[key] || strings.ContainsAny(f.name, `/\:`) {
			t.Errorf("figure %q (%s): name taken or unsafe", f.name, f.caption)
		}
		seen[key] = true
	}
	dir := t.TempDir()
	out, err := WritePlots(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Files) != 6 {
		t.Errorf("wrote %v, want 6 files", out.Files)
	}
	for _, f := range out.Files {
		if filepath.Dir(f) != dir {
			t.Errorf("%s is outside %s", f, dir)
		}
	}
}

// TestComparisonCandidatesDistinct: past ten candidates the palette's
// colours come round again; the eleventh candidate's mark must still
// differ from the first's, or the legend names two alike.
func TestComparisonCandidatesDistinct(t *testing.T) {
	type mark struct {
		c     string
		glyph string
	}
	seen := map[mark]int{}
	for k := range 3 * len(palette) {
		m := mark{fmt.Sprint(colour(k)), fmt.Sprintf("%T", candidateGlyph(k))}
		if j, ok := seen[m]; ok {
			t.Errorf("candidates %d and %d both drawn as %v", j, k, m)
		}
		seen[m] = k
	}
}

// TestComparisonPlotNamesMissing: candidates that do not report a metric
// (Rat Ogres and Stormvermin make no Impact Hits) have nothing to draw;
// the figure names them rather than show Doomwheel alone as if it were
// the only candidate, and one that reports it at some points only says so.
func TestComparisonPlotNamesMissing(t *testing.T) {
	nan := math.NaN()
	gone := sim.Estimate{Metric: "models_killed", Kind: sim.Mean, Value: nan, SE: nan, CI95: [2]float64{nan, nan}}
	c := comparisonOf(sim.Mean, [3]float64{1, 2, 3})
	for i := range c.Rows {
		c.Rows[i].Estimates[1] = gone
		if i > 0 {
			c.Rows[i].Estimates[2] = gone
		}
	}
	figs, _, err := comparisonFigures(c, goOn)
	if err != nil || len(figs) != 1 {
		t.Fatal(figs, err)
	}
	svg := svgText(t, figs[0].fig)
	for _, want := range []string{">Doomwheel<", ">Rat Ogres: not reported<", ">Stormvermin (not at every point)<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the figure lacks %q", want)
		}
	}
	// One point: the candidates are the x axis' labels.
	c.Rows = c.Rows[:1]
	figs, _, err = comparisonFigures(c, goOn)
	if err != nil || len(figs) != 1 {
		t.Fatal(figs, err)
	}
	if svg := svgText(t, figs[0].fig); !strings.Contains(svg, ">Rat Ogres (not reported)<") || !strings.Contains(svg, ">Stormvermin<") {
		t.Errorf("one point: a missing candidate's label does not say so")
	}
	if c.Candidates[1] != "Rat Ogres" {
		t.Errorf("the comparison's names were changed: %q", c.Candidates)
	}
}

// TestGridLinesSplit: a charge sweep's grid draws a line per M; with M 1
// to 20 that is twenty lines, more than MaxLines, whose colours would come
// round again. It is cut into two whole figures of ten, each named by its
// run of M, every M in one of them.
func TestGridLinesSplit(t *testing.T) {
	r := sweepM20()
	figs, _, err := reportFigures(r, goOn)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 2 || figs[0].name != "charge_success_M=1..10" || figs[1].name != "charge_success_M=11..20" {
		t.Fatalf("figures %v, want charge_success_M=1..10 and _M=11..20", figs)
	}
	for m := 1; m <= 20; m++ {
		svg := svgText(t, figs[(m-1)/10].fig)
		if !strings.Contains(svg, fmt.Sprintf(">M %d<", m)) {
			t.Errorf("M %d is in neither figure", m)
		}
	}
	if svg := svgText(t, figs[1].fig); !strings.Contains(svg, "sweep: charge success (M 11..20)") {
		t.Errorf("the second figure's title does not say which M it holds")
	}
}

// TestLongFileNames: a plot's file name stays within maxFileName bytes
// however long the swept values in its label, and two labels that differ
// only past the cut still name two files.
func TestLongFileNames(t *testing.T) {
	a := fileName("charge_success", "unit="+strings.Repeat("A", 300)+"B")
	b := fileName("charge_success", "unit="+strings.Repeat("A", 300)+"C")
	if len(a) > maxFileName || len(b) > maxFileName {
		t.Errorf("names of %d and %d bytes, want at most %d", len(a), len(b), maxFileName)
	}
	if a == b {
		t.Errorf("two labels make one name %q", a)
	}
	if short := fileName("charge_success", "M=7, swiftstride=true"); short != "charge_success_M=7_swiftstride=true" {
		t.Errorf("a short name changed: %q", short)
	}
}

// TestTitleFits: a title wider than the figure is drawn on lines that each
// fit it, less the margins, with every word kept in order, and the figure's
// title is as it was once drawn (captions and file names read it). The
// SVG then holds no title text starting left of the figure, where
// gonum/plot would have drawn the one line of 150-odd characters.
func TestTitleFits(t *testing.T) {
	title := "impact-hits: impact hits (attacker D6 and Scythes, armour none, models 10 to 17, figure 13 of 36, the last 20 left to the tables)"
	p := newPlot(title, "x", "y")
	if w := p.Title.TextStyle.Width(title); w <= plotW {
		t.Fatalf("the title is %v wide, within the figure's %v: no test", w, plotW)
	}
	restore := fitTitle(p, plotW)
	lines := strings.Split(p.Title.Text, "\n")
	if len(lines) < 2 || strings.Join(lines, " ") != title {
		t.Errorf("wrapped into %q", lines)
	}
	for _, l := range lines {
		if w := p.Title.TextStyle.Width(l); w > plotW-2*titleMargin {
			t.Errorf("line %q is %v wide, over %v", l, w, plotW-2*titleMargin)
		}
	}
	restore()
	if p.Title.Text != title {
		t.Errorf("title after drawing %q", p.Title.Text)
	}
	svg, err := render(p, "svg")
	if err != nil {
		t.Fatal(err)
	}
	if p.Title.Text != title {
		t.Errorf("title after render %q", p.Title.Text)
	}
	if m := regexp.MustCompile(`<text x="-`).Find(svg); m != nil {
		t.Errorf("text drawn left of the figure: %s", m)
	}
	// A heatmap's title is wrapped to its main plot's width, left of the
	// colour bar.
	hm := withColourBar{main: newPlot(title, "x", "y"), bar: plot.New()}
	restore = fitTitle(hm.main, plotW-colourBarWidth)
	wrappedHeat := hm.main.Title.Text
	restore()
	if strings.Count(wrappedHeat, "\n") < strings.Count(p.Title.Text, "\n") {
		t.Errorf("the heatmap's title %q wraps no narrower than the plot's", wrappedHeat)
	}
	svg, err = render(hm, "svg")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`<text x="-`).Find(svg); m != nil || hm.main.Title.Text != title {
		t.Errorf("heatmap: text drawn left of the figure (%s), title after render %q", m, hm.main.Title.Text)
	}
	// A short title stays one line; a word wider than a line stands alone.
	if got := wrapTo(p.Title.TextStyle, "short", plotW); got != "short" {
		t.Errorf("short title %q", got)
	}
	long := strings.Repeat("x", 200)
	if got := wrapTo(p.Title.TextStyle, "a "+long+" b", plotW); got != "a\n"+long+"\nb" {
		t.Errorf("a long word: %q", got)
	}
}

// TestBarGroupNames: a bar chart's long group names go on lines of a few
// words, each at most maxGroupLabel wide, level where they then fit (three
// names of 80-odd characters); names that would still print over each
// other (twelve, short or long) are slanted, as a heatmap's are, each on
// one line; short ones stay one level line each.
func TestBarGroupNames(t *testing.T) {
	long := "Skaven Doom-Chariot of the Under-Empire with Impact Hits (D6) and a long banner %d"
	for _, tc := range []struct {
		name            string
		groups          int
		wrapped, slants bool
	}{
		{long, 3, true, false},
		{"Skaven Doom-Chariot %d", 12, false, true},
		{long, 12, false, true}, // wrapped, they would still crowd: one line each, slanted
		// Four of 50-odd characters: wrapped onto two lines each they are
		// wider than the axis gives each group, once the y axis has its
		// room (the figure's width alone would have let them stand level,
		// over each other).
		{"Slowpokes of the Extremely Long Regiment of Foot %d", 4, false, true},
		{"g%d", 3, false, false},
	} {
		var rows []sim.Estimate
		for g := range tc.groups {
			for _, armour := range []string{"none", "5+", "3+"} {
				ps := []sim.Param{{Name: "attacker", Value: fmt.Sprintf(tc.name, g)}, {Name: "armour", Value: armour}}
				rows = append(rows, sim.ProbabilityOf("charge_success", ps, 90, 100))
			}
		}
		bars, err := barFigure("bars", "charge_success", rows)
		if err != nil {
			t.Fatal(err)
		}
		ticks := bars.X.Tick.Marker.Ticks(bars.X.Min, bars.X.Max)
		wrapped := false
		for _, tk := range ticks {
			for _, line := range strings.Split(tk.Label, "\n") {
				if w := bars.X.Tick.Label.Width(line); w > maxGroupLabel && bars.X.Tick.Label.Rotation == 0 {
					t.Errorf("%q: a line %q %v wide, over %v", tc.name, line, w, maxGroupLabel)
				}
			}
			wrapped = wrapped || strings.Contains(tk.Label, "\n")
		}
		if slants := bars.X.Tick.Label.Rotation != 0; wrapped != tc.wrapped || slants != tc.slants {
			t.Errorf("%q: wrapped %v, slanted %v; want %v, %v", tc.name, wrapped, slants, tc.wrapped, tc.slants)
		}
	}
}

// TestBarGroupNamesOfAnyLength: names of any length leave the bars their
// room: four of 88 characters that differ only at the end, two of 206
// characters with no space, and three of 600 characters all build a
// figure whose data area is at least half its width, with group labels
// that stay apart (no two alike), each no wider than its limit, the first
// two shortened in the middle, keeping the ends that tell them apart.
func TestBarGroupNamesOfAnyLength(t *testing.T) {
	for _, tc := range []struct {
		name   string
		groups int
	}{
		{"Skaven Doom-Chariot of the Under-Empire with Impact Hits and banner Skaven Doom-Chariot %c", 4},
		{strings.Repeat("x", 205) + "%c", 2},
		{strings.Repeat("a long name ", 50) + "%c", 3},
	} {
		var rows []sim.Estimate
		for g := range tc.groups {
			for _, armour := range []string{"none", "5+"} {
				ps := []sim.Param{{Name: "attacker", Value: fmt.Sprintf(tc.name, 'A'+g)}, {Name: "armour", Value: armour}}
				rows = append(rows, sim.ProbabilityOf("charge_success", ps, 90, 100))
			}
		}
		bars, err := barFigure("bars", "charge_success", rows)
		if err != nil {
			t.Fatalf("%.20q: %v", tc.name, err)
		}
		if w := bars.DataCanvas(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: plotW, Y: plotH}}}).Size().X; w < plotW/2 {
			t.Errorf("%.20q: the data area is %v wide, of the figure's %v", tc.name, w, plotW)
		}
		seen := map[string]bool{}
		for _, tk := range bars.X.Tick.Marker.Ticks(bars.X.Min, bars.X.Max) {
			if seen[tk.Label] || !strings.HasSuffix(tk.Label, string(rune('A'+len(seen)))) {
				t.Errorf("%.20q: label %q (alike another, or not ending as its name)", tc.name, tk.Label)
			}
			seen[tk.Label] = true
			limit := maxGroupLabel
			if bars.X.Tick.Label.Rotation != 0 {
				limit = maxSlantedLabel
			}
			for _, line := range strings.Split(tk.Label, "\n") {
				if w := bars.X.Tick.Label.Width(line); w > limit {
					t.Errorf("%.20q: a line %q %v wide, over %v", tc.name, line, w, limit)
				}
			}
		}
	}
}

// TestBarNoTrialsKeepsExact: a point no trial counted (a combat result
// where the charge never came home) draws no bar but keeps its exact
// value's mark and the legend's entry for it, as the table keeps the exact
// value beside "-".
func TestBarNoTrialsKeepsExact(t *testing.T) {
	h := sim.NewHistogram(-3, 3)
	none := sim.MeanOf("combat_result", []sim.Param{{Name: "attacker", Value: "Slow"}, {Name: "armour", Value: "none"}}, &h).WithExact(-1.056)
	if !math.IsNaN(none.Value) {
		t.Fatalf("an estimate of no trials: %v", none.Value)
	}
	bars, err := barFigure("bars", "combat_result", []sim.Estimate{none})
	if err != nil {
		t.Fatal(err)
	}
	if svg := svgText(t, bars); !strings.Contains(svg, ">exact value<") {
		t.Error("the exact value of a point with no trials is not drawn")
	}
}

// TestLineJoinsInXOrder: a curve against a swept number is joined in the
// number's order, whatever the order the values were listed in: distances
// written 12, 5, 9 draw the line 5, 9, 12, not 12, 5, 9, which passed far
// from the value at 9 on its way from 5 to 12.
func TestLineJoinsInXOrder(t *testing.T) {
	var rows []sim.Estimate
	for _, d := range []int{12, 5, 9} {
		rows = append(rows, sim.ProbabilityOf("charge_success", []sim.Param{{Name: "distance", Value: d}}, int64(100-5*d), 100))
	}
	p, err := lineFigure("line", "charge_success", rows, "distance")
	if err != nil {
		t.Fatal(err)
	}
	svg := svgText(t, p)
	// The polyline's points, in the order drawn, come out with rising x.
	m := regexp.MustCompile(`<path d="M([-0-9.]+),[-0-9.]+L([-0-9.]+),[-0-9.]+L([-0-9.]+),[-0-9.]+"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatal("no three-point line in the figure")
	}
	var xs []float64
	for _, v := range m[1:] {
		f, _ := strconv.ParseFloat(v, 64)
		xs = append(xs, f)
	}
	if !(xs[0] < xs[1] && xs[1] < xs[2]) {
		t.Errorf("the line is drawn through x %v", xs)
	}
}

// TestOneTrialFigures: a mean over one trial has no interval (NaN), and
// every figure drawn from such estimates, lines over a swept number, bars
// and a grid over names, draws it as its value alone. Before they did,
// gonum/plot's tick placement looped for ever on the NaN axis it made.
func TestOneTrialFigures(t *testing.T) {
	// Values below 0 or never above 1, which are not drawn as "at least N"
	// curves (counted), but as lines and bars with their intervals.
	one := func(metric string, ps []sim.Param, v int) sim.Estimate {
		h := sim.NewHistogram(-10, 40)
		h.Add(v)
		return sim.MeanOf(metric, ps, &h)
	}
	lines := &sim.Report{Scenario: "reach", Trials: 1, Axes: []sim.Axis{{Name: "M", Values: []any{4, 5, 6}}}}
	bars := &sim.Report{Scenario: "bars", Trials: 1, Axes: []sim.Axis{{Name: "attacker", Values: []any{"A", "B"}}}}
	grid := &sim.Report{Scenario: "grid", Trials: 1, Grid: &sim.Grid{Metric: "wounds", Rows: "attacker", Cols: "target"},
		Axes: []sim.Axis{{Name: "attacker", Values: []any{"A", "B"}}, {Name: "target", Values: []any{"X", "Y"}}}}
	for i, m := range []int{4, 5, 6} {
		lines.Results = append(lines.Results, one("combat_result", []sim.Param{{Name: "M", Value: m}}, -m-2*i))
	}
	for i, a := range []string{"A", "B"} {
		bars.Results = append(bars.Results, one("wounds", []sim.Param{{Name: "attacker", Value: a}}, i))
		for j, tg := range []string{"X", "Y"} {
			grid.Results = append(grid.Results, one("wounds", []sim.Param{{Name: "attacker", Value: a}, {Name: "target", Value: tg}}, (i+j)%2))
		}
	}
	for _, r := range []*sim.Report{lines, bars, grid} {
		if !math.IsNaN(r.Results[0].CI95[0]) {
			t.Fatalf("%s: a mean over one trial has the interval %v", r.Scenario, r.Results[0].CI95)
		}
		done := make(chan error, 1)
		go func() {
			_, err := StagePlots(&Files{}, t.TempDir(), r)
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s: %v", r.Scenario, err)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s: the figures were not drawn within a minute", r.Scenario)
		}
	}
}

// TestRenderRefusesAnAxisItCannotDraw: a figure whose axis runs to NaN is
// an error, where gonum/plot would loop for ever placing its ticks.
func TestRenderRefusesAnAxisItCannotDraw(t *testing.T) {
	p := newPlot("broken", "x", "y")
	p.Y.Max = math.NaN()
	done := make(chan error, 1)
	go func() {
		_, err := render(p, "svg")
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), `plot "broken": an axis runs to NaN`) {
			t.Errorf("an axis to NaN: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("an axis to NaN: render did not return within a minute")
	}
}

// goOn is a stop check that never stops, for figures built outside a set
// of files.
func goOn() error { return nil }

// figureNames are the file names of figs, in order.
func figureNames(figs []namedFigure) []string {
	var names []string
	for _, f := range figs {
		names = append(names, f.name)
	}
	return names
}

// TestNoFigureOfZeros: a part of a metric that is 0 at every point, its
// exact value too (the attacker's wounds where nothing strikes back), is
// not drawn, as the tables leave such rows out, and a note says so; the
// other unit's part, and a part whose exact value is above 0 though every
// trial drew 0, are drawn.
func TestNoFigureOfZeros(t *testing.T) {
	// Six armours and two units are more series than a figure draws
	// (MaxLines), so each unit's part is a figure of its own.
	armours := []any{"1+", "2+", "3+", "4+", "5+", "6+"}
	r := &sim.Report{Scenario: "z", Trials: 1000, Axes: []sim.Axis{{Name: "armour", Values: armours}}}
	for _, armour := range armours {
		for _, u := range []string{"Chariot", "Rats"} {
			h := sim.NewHistogram(0, 10)
			if u == "Rats" {
				h.AddN(3, 500)
			}
			h.AddN(0, 1000-h.N())
			e := sim.MeanOf("wounds", []sim.Param{{Name: "armour", Value: armour}, {Name: "unit", Value: u}}, &h)
			e.HasExact, e.Exact = true, 0
			if u == "Rats" {
				e.Exact = 1.5
			}
			r.Results = append(r.Results, e)
		}
		h := sim.NewHistogram(0, 10)
		h.AddN(0, 1000)
		e := sim.MeanOf("rare", []sim.Param{{Name: "armour", Value: armour}}, &h)
		e.HasExact, e.Exact = true, 1e-6 // possible, though no trial drew it
		r.Results = append(r.Results, e)
	}
	figs, notes, err := reportFigures(r, goOn)
	if err != nil {
		t.Fatal(err)
	}
	names := figureNames(figs)
	if slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, "Chariot") }) ||
		!slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, "Rats") }) ||
		!slices.Contains(names, "rare") {
		t.Errorf("figures %q: want Rats' wounds and rare, not Chariot's wounds", names)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "no figure of") || !strings.Contains(notes[0], "Chariot") || !strings.HasSuffix(notes[0], "0 at every point") {
		t.Errorf("notes %q: want one naming the Chariot's wounds as 0 at every point", notes)
	}
}

// TestValueWords: a unit's own key swept is said as the unit's, and a
// length carries its inch mark, in legends and titles alike.
func TestValueWords(t *testing.T) {
	for _, tt := range []struct{ name, v, want string }{
		{"Stormvermin.distance", "4", `Stormvermin's distance 4"`},
		{"St. Ulric.distance", "6", `St. Ulric's distance 6"`},
		{"distance", "12", `distance 12"`},
		{"zzzzap_hold_fire", "never", "zzzzap hold fire never"},
		{"bolter.shots", "2", "bolter's shots 2"},
	} {
		if got := valueWords(tt.name, tt.v); got != tt.want {
			t.Errorf("valueWords(%q, %q) = %q, want %q", tt.name, tt.v, got, tt.want)
		}
	}
	if got := labelWords("Stormvermin.distance=4, swiftstride=true"); got != `Stormvermin's distance 4", swiftstride true` {
		t.Errorf("labelWords: %q", got)
	}
}

// TestComparisonPartsByOuterValue: a comparison past MaxComparisonPoints
// (24) points is cut where its outer parameter's value changes: 3D6 and
// 4D6 over 30 distances each (60 rows) make four figures of 15, each of
// one dice; nine runs of 3 (27 rows) make a figure of the first eight runs
// (24 rows) and one of the last; one parameter of 29 values, two of about
// equal size.
func TestComparisonPartsByOuterValue(t *testing.T) {
	rows := func(outer, inner int) []sim.ComparisonRow {
		var out []sim.ComparisonRow
		for o := range outer {
			for i := range inner {
				ps := []sim.Param{{Name: "dice", Value: o}, {Name: "distance", Value: i + 1}}
				if outer == 1 {
					ps = ps[1:]
				}
				out = append(out, sim.ComparisonRow{Params: ps})
			}
		}
		return out
	}
	for _, tt := range []struct {
		outer, inner int
		want         [][2]int
	}{
		{2, 30, [][2]int{{0, 15}, {15, 30}, {30, 45}, {45, 60}}},
		{9, 3, [][2]int{{0, 24}, {24, 27}}},
		{1, 29, [][2]int{{0, 15}, {15, 29}}},
		{2, 12, [][2]int{{0, 24}}},
	} {
		if got := comparisonParts(rows(tt.outer, tt.inner)); !slices.Equal(got, tt.want) {
			t.Errorf("%d runs of %d: parts %v, want %v", tt.outer, tt.inner, got, tt.want)
		}
	}
}
