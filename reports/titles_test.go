package reports

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"hammersim/sim"
)

// unitReport is a battle's per-unit metrics: wounds and models_killed for
// each of two units at two distances, each a count (so the tables have
// their "at least N" views and the plots are "at least N" curves), with
// the titles a battle gives them, and a probability, destroyed, that has
// none.
func unitReport() *sim.Report {
	r := &sim.Report{Scenario: "battle", Version: "test", Seed: 1, Trials: 100,
		Axes: []sim.Axis{{Name: "distance", Values: []any{6, 9}}}}
	for _, d := range []int{6, 9} {
		for _, u := range []string{"Doomwheel", "Clanrats"} {
			ps := []sim.Param{{Name: "distance", Value: d}, {Name: "unit", Value: u}}
			for _, mt := range [][2]string{{"wounds", "wounds suffered"}, {"models_killed", "models lost"}} {
				m, title := mt[0], mt[1]
				h := sim.NewHistogram(0, 4)
				h.AddN(0, 40)
				h.AddN(1, 30)
				h.AddN(3, 30)
				e := sim.MeanOf(m, ps, &h)
				e.Title = title
				r.Results = append(r.Results, e)
			}
			r.Results = append(r.Results, sim.ProbabilityOf("destroyed", ps, 10, 100))
		}
	}
	return r
}

// TestPerUnitTitles: a metric its question titles (a battle's per-unit
// wounds and models_killed are the wounds a unit suffered and the models
// it lost) is shown by its title in every table, document and plot, with
// the metric's name beside the title in headings; the machine formats
// keep the names, and a metric with no title keeps its name.
func TestPerUnitTitles(t *testing.T) {
	r := unitReport()
	render := func(write func(io.Writer, *sim.Report) error, r *sim.Report) string {
		var b bytes.Buffer
		if err := write(&b, r); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	html := func(w io.Writer, r *sim.Report) error { return WriteHTML(w, r, nil) }
	for _, tc := range []struct {
		format string
		out    string
		want   []string
	}{
		{"table", render(WriteTable, r), []string{
			"\nwounds suffered (wounds, mean)\n", "\nmodels lost (models_killed, mean)\n",
			"\nwounds suffered (wounds): chance of at least N, in percent, unit=Doomwheel\n",
			"\nmodels lost (models_killed): chance of at least N, in percent, unit=Clanrats\n",
			"\ndestroyed (probability)\n"}},
		{"markdown", render(WriteMarkdown, r), []string{
			"\n## wounds suffered (wounds, mean)\n", "\n## models lost (models_killed, mean)\n",
			"**models lost (models_killed): chance of at least N, in percent, unit=Doomwheel**"}},
		{"html", render(html, r), []string{
			"<h2>wounds suffered (wounds, mean)</h2>", "<h2>models lost (models_killed, mean)</h2>",
			"<caption>wounds suffered (wounds): chance of at least N, in percent, unit=Clanrats",
			"<figcaption>models lost"}},
	} {
		for _, w := range tc.want {
			if !strings.Contains(tc.out, w) {
				t.Errorf("%s does not hold %q", tc.format, w)
			}
		}
		for _, bare := range []string{"wounds (mean)", "models_killed (mean)", "models_killed: chance", "models killed"} {
			if strings.Contains(tc.out, bare) {
				t.Errorf("%s still titles a per-unit metric by its name: %q", tc.format, bare)
			}
		}
	}
	for _, tc := range []struct {
		format, out string
	}{{"json", render(WriteJSON, r)}, {"csv", render(WriteCSV, r)}} {
		if strings.Contains(tc.out, "suffered") || strings.Contains(tc.out, "lost") {
			t.Errorf("%s renamed a metric: its keys are names, not titles", tc.format)
		}
		if !strings.Contains(tc.out, "models_killed") {
			t.Errorf("%s lost the metric's name", tc.format)
		}
	}

	figs, _, err := reportFigures(r, goOn)
	if err != nil {
		t.Fatal(err)
	}
	titles := map[string][3]string{}
	for _, f := range figs {
		p := f.fig.(*plot.Plot)
		titles[f.name] = [3]string{p.Title.Text, p.X.Label.Text, p.Y.Label.Text}
	}
	for name, want := range map[string][3]string{
		// Counts are drawn as "at least N" curves: N on x, the chance on y.
		"wounds":        {"battle: wounds suffered", "at least N: wounds suffered", "chance of at least N"},
		"models_killed": {"battle: models lost", "at least N: models lost", "chance of at least N"},
		// A probability against the swept distance, as lines.
		"destroyed": {"battle: destroyed", `distance (inches, ")`, "chance of destroyed"},
	} {
		if got, ok := titles[name]; !ok || got != want {
			t.Errorf("plot %s: title, x and y %q, want %q (plots: %v)", name, got, want, titles)
		}
	}

	// Laid out as a grid (distance down, the units across), the metric
	// keeps its title: the grid's heading and its plot, whose rows are
	// numbers and so drawn as lines.
	r.Axes = append(r.Axes, sim.Axis{Name: "unit", Values: []any{"Doomwheel", "Clanrats"}})
	r.Grid = &sim.Grid{Metric: "wounds", Rows: "distance", Cols: "unit"}
	if out := render(WriteTable, r); !strings.Contains(out, "\nwounds suffered (wounds, mean)\nestimates are means") {
		t.Errorf("the grid is not titled wounds suffered:\n%s", out)
	}
	gs, _ := gridSlices(r, r.Grid)
	gp, err := gridPlot(r, r.Grid, gs[0])
	if err != nil {
		t.Fatal(err)
	}
	if gp.Title.Text != "battle: wounds suffered" || gp.Y.Label.Text != "average wounds suffered" {
		t.Errorf("grid plot: title %q, y %q", gp.Title.Text, gp.Y.Label.Text)
	}
	if svg := svgText(t, heatmapOf(t, r, gs[0])); !strings.Contains(svg, "battle: average wounds suffered") {
		t.Error("the heatmap is not titled average wounds suffered")
	}

	// The same metric with no title (a shooting's wounds on its target)
	// keeps its name.
	var plain sim.Report
	plain.Scenario = "shooting"
	h := sim.NewHistogram(0, 4)
	h.AddN(2, 10)
	plain.Results = []sim.Estimate{sim.MeanOf("wounds", []sim.Param{{Name: "target", Value: "Orcs"}}, &h)}
	if out := render(WriteTable, &plain); !strings.Contains(out, "\nwounds (mean)\n") || strings.Contains(out, "suffered") {
		t.Errorf("a wounds metric with no unit was retitled:\n%s", out)
	}
}

// TestComparedPerUnitTitles: a comparison titles its per-unit metrics as a
// run does, in its table, Markdown, HTML and plots.
func TestComparedPerUnitTitles(t *testing.T) {
	c := sampleComparison()
	for i := range c.Rows {
		c.Rows[i].Params = append(c.Rows[i].Params, sim.Param{Name: "unit", Value: "Orcs"})
		if c.Rows[i].Metric == "wounds" {
			c.Rows[i].Estimates[0].Title = "wounds suffered"
		}
	}
	var table, md, html bytes.Buffer
	if err := WriteComparisonTable(&table, c, sampleStamp()); err != nil {
		t.Fatal(err)
	}
	if err := WriteComparisonMarkdown(&md, c, sampleStamp()); err != nil {
		t.Fatal(err)
	}
	if err := WriteComparisonHTML(&html, c, sampleStamp(), nil); err != nil {
		t.Fatal(err)
	}
	for format, want := range map[string]string{
		"table":    "\nwounds suffered (wounds, mean)\n",
		"markdown": "# wounds suffered (wounds, mean)\n",
		"html":     "<h2>wounds suffered (wounds, mean)</h2>",
	} {
		out := map[string]string{"table": table.String(), "markdown": md.String(), "html": html.String()}[format]
		if !strings.Contains(out, want) {
			t.Errorf("%s does not hold %q", format, want)
		}
	}
	figs, _, err := comparisonFigures(c, goOn)
	if err != nil {
		t.Fatal(err)
	}
	p := figs[0].fig.(*plot.Plot)
	if figs[0].name != "compare_wounds" || p.Title.Text != "compare Knights, Swordsmen and Spear & <Shield>: wounds suffered (95% intervals)" || p.Y.Label.Text != "average wounds suffered" {
		t.Errorf("plot %s: title %q, y %q", figs[0].name, p.Title.Text, p.Y.Label.Text)
	}
}

func heatmapOf(t *testing.T, r *sim.Report, s slice) figure {
	t.Helper()
	f, err := heatmap(r, r.Grid, s, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestComparedNamesShort: a comparison's figure names its candidates,
// or, past about a line of title, says how many there are.
func TestComparedNamesShort(t *testing.T) {
	few := &sim.Comparison{Candidates: []string{"a.yaml", "b.yaml"}}
	if got := comparedNames(few); got != "a.yaml and b.yaml" {
		t.Errorf("two candidates: %q", got)
	}
	var many sim.Comparison
	for i := range 12 {
		many.Candidates = append(many.Candidates, fmt.Sprintf("armour=%d+", i))
	}
	if got := comparedNames(&many); got != "12 candidates" {
		t.Errorf("twelve candidates: %q", got)
	}
}
