package reports

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"hammersim/sim"
)

// MaxComparisonPlots caps the metrics a comparison plots (past it, the
// tables and the JSON hold the rest); MaxComparisonPoints caps the points
// one figure shows, a metric with more being split into several figures.
const (
	MaxComparisonPlots  = 16
	MaxComparisonPoints = 24
)

// WriteComparisonPlots writes a comparison's plots into dir, each as PNG
// and SVG: one per metric (compare_<metric>), each candidate's estimate as
// a point with its 95% interval as an error bar. A metric measured at one
// point has the candidates along x; one measured at several has the points
// along x, the candidates side by side at each in their own colours, with
// a legend.
func WriteComparisonPlots(dir string, c *sim.Comparison) (Plots, error) {
	return commitPlots(func(files *Files) (Plots, error) { return StageComparisonPlots(files, dir, c) })
}

// StageComparisonPlots is WriteComparisonPlots preparing its files in
// files, which the caller commits with its other outputs.
func StageComparisonPlots(files *Files, dir string, c *sim.Comparison) (Plots, error) {
	figs, notes, err := comparisonFigures(c, files.check)
	out := Plots{Notes: notes}
	if err != nil {
		return out, err
	}
	err = saveAll(files, dir, figs, []string{"png", "svg"}, &out)
	return out, err
}

// comparisonFigures builds a comparison's plots, with notes on what the
// caps left out. A metric with more than MaxComparisonPoints points is
// split into several figures (comparisonParts: where its outer
// parameter's value changes, else of about equal size), each named by the
// points it holds, so that no figure leaves any out. It consults stop before
// each metric and each figure.
func comparisonFigures(c *sim.Comparison, stop func() error) ([]namedFigure, []string, error) {
	var figs []namedFigure
	var notes []string
	groups := byMetric(c)
	for i, m := range groups {
		if err := stop(); err != nil {
			return nil, notes, err
		}
		if i == MaxComparisonPlots {
			notes = append(notes, fmt.Sprintf("only the first %d of %d metrics were plotted; the tables hold them all", MaxComparisonPlots, len(groups)))
			break
		}
		parts := comparisonParts(m.rows)
		for _, pr := range parts {
			start, end := pr[0], pr[1]
			part := m
			part.rows = m.rows[start:end]
			name, title := "compare_"+m.metric, words(comparedTitle(m.metric, c))
			if len(parts) > 1 {
				// Zero-padded to the widest, so that a folder lists the
				// parts in order (points=001..023 before 116..138).
				w := len(strconv.Itoa(len(m.rows)))
				name = fileName(name, fmt.Sprintf("points=%0*d..%0*d", w, start+1, w, end))
				title += fmt.Sprintf(", points %d to %d of %d", start+1, end, len(m.rows))
			}
			if err := stop(); err != nil {
				return nil, notes, err
			}
			p, err := comparisonPlot(c, part, title)
			if err != nil {
				return nil, notes, err
			}
			figs = append(figs, namedFigure{name: name, caption: title + " by candidate, with 95% intervals", fig: p})
		}
	}
	distinctNames(figs)
	if c.Partial {
		markPartial(figs)
	}
	return figs, notes, nil
}

// comparedNames names a comparison's candidates in a figure's title, so
// that a figure read alone says what it compares: all of them where that
// stays short, else how many there are (the axis names each).
func comparedNames(c *sim.Comparison) string {
	const longest = 60 // characters, about a line of a figure's title
	if s := joinNames(c.Candidates); utf8.RuneCountInString(s) <= longest {
		return s
	}
	return fmt.Sprintf("%d candidates", len(c.Candidates))
}

// comparisonParts cuts a metric's rows into the figures that draw them,
// as [start, end) ranges, none of more than MaxComparisonPoints rows.
// Rows that share their outermost parameter's value (a comparison of
// 3D6 and 4D6 over 30 distances) stay together where they fit in one
// figure, and a run of them too long for one is cut into parts of about
// equal size, so that no figure holds the end of one value and the start
// of the next; small runs share a figure while they fit. Rows of one
// parameter are cut into parts of about equal size.
func comparisonParts(rows []sim.ComparisonRow) [][2]int {
	even := func(start, end int) [][2]int {
		n := (end - start + MaxComparisonPoints - 1) / MaxComparisonPoints
		size := (end - start + n - 1) / n
		var out [][2]int
		for i := start; i < end; i += size {
			out = append(out, [2]int{i, min(i+size, end)})
		}
		return out
	}
	if len(rows) <= MaxComparisonPoints {
		return [][2]int{{0, len(rows)}}
	}
	// Runs of one outer value.
	var runs [][2]int
	for i := range rows {
		if i == 0 || len(rows[i].Params) < 2 || !sameParam(rows[i].Params[0], rows[i-1].Params[0]) {
			runs = append(runs, [2]int{i, i + 1})
		} else {
			runs[len(runs)-1][1] = i + 1
		}
	}
	if len(runs) == len(rows) {
		return even(0, len(rows))
	}
	var out [][2]int
	lastWhole := false // the last figure holds whole runs only
	for _, r := range runs {
		whole := r[1]-r[0] <= MaxComparisonPoints
		if k := len(out) - 1; whole && lastWhole && r[1]-out[k][0] <= MaxComparisonPoints {
			out[k][1] = r[1] // a whole small run joins whole runs before it
			continue
		}
		out = append(out, even(r[0], r[1])...)
		lastWhole = whole
	}
	return out
}

// sameParam reports whether two parameters are one name at one value, as
// written (a value of a kind == cannot compare is never a panic here).
func sameParam(a, b sim.Param) bool {
	return a.Name == b.Name && paramString(a.Value) == paramString(b.Value)
}

// errPoints are points with asymmetric vertical errors, as
// plotter.NewYErrorBars takes them.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// comparisonPlot draws one figure of a metric's comparison, titled by
// what it holds.
func comparisonPlot(c *sim.Comparison, m metricRows, title string) (*plot.Plot, error) {
	p := newPlot("compare "+comparedNames(c)+": "+title+" (95% intervals)", "", yLabel(m.kind, comparedTitle(m.metric, c)))
	p.Title.Padding = 0.3 * vg.Centimeter
	// Unlike a run's figures, whose y axis starts at 0, a comparison's
	// fits the candidates' intervals (comparisonAxes): telling close
	// candidates apart is what it is read for.
	if m.kind == sim.Probability {
		p.Y.Tick.Marker = cappedPercentTicks{}
	}
	single := len(m.rows) == 1
	ticks, xlabel := comparisonTicks(c, m, single)
	ticks = slices.Clone(ticks)
	p.X.Label.Text = xlabel
	for k, name := range c.Candidates {
		pts := candidatePoints(m, k, len(c.Candidates), single)
		// A candidate that does not report the metric, or reports it but
		// had no trial it applies to, has nothing to draw; the figure says
		// which, as the table does, rather than leave it out unsaid.
		switch why := missingWhy(m, k); {
		case len(pts.XYs) == 0 && single:
			ticks[k] += " (" + why + ")"
		case len(pts.XYs) == 0:
			p.Legend.Add(name + ": " + why)
		case len(pts.XYs) < len(m.rows):
			name += " (not at every point)"
		}
		if len(pts.XYs) == 0 {
			continue
		}
		dots, err := addCandidate(p, pts, k)
		if err != nil {
			return nil, err
		}
		if err := addExact(p, candidateExact(m, k, len(c.Candidates), single), colour(k)); err != nil {
			return nil, err
		}
		if !single {
			p.Legend.Add(name, dots)
		}
	}
	legendExact(p, anyExact(m))
	comparisonAxes(p, ticks)
	return p, nil
}

// comparisonTicks names the slots along the x axis: the candidates when
// there is one point, else the points, each candidate beside the others in
// its point's slot.
func comparisonTicks(c *sim.Comparison, m metricRows, single bool) (ticks []string, xlabel string) {
	if single {
		xlabel = "candidate"
		if label := pointWords(c, m.rows[0]); label != "" {
			xlabel += " (" + label + ")"
		}
		return c.Candidates, xlabel
	}
	starred := false
	for _, row := range m.rows {
		vals := make([]string, len(row.Params))
		for i, pr := range row.Params {
			vals[i] = comparisonValue(row, pr)
			starred = starred || strings.HasSuffix(vals[i], " *")
		}
		ticks = append(ticks, strings.Join(vals, ", "))
	}
	names := make([]string, len(m.params))
	for i, name := range m.params {
		names[i] = axisWords(name)
	}
	xlabel = strings.Join(names, ", ")
	if starred {
		xlabel += " (* " + c.Candidates[0] + "'s; the candidates' differ)"
	}
	return ticks, xlabel
}

// pointWords names a comparison's only point by its parameters.
func pointWords(c *sim.Comparison, row sim.ComparisonRow) string {
	parts := make([]string, len(row.Params))
	for i, pr := range row.Params {
		parts[i] = pr.Name + "=" + comparisonValue(row, pr)
	}
	if v := strings.Join(parts, ", "); !strings.Contains(v, " *") {
		return v
	}
	return strings.Join(parts, ", ") + "; * " + c.Candidates[0] + "'s"
}

// comparisonValue names a parameter's value at a point of a comparison.
// Candidates are matched unit by unit by the part each plays (sim.Compare),
// and their units' names may differ: a unit that is the point's value of
// another parameter is named by it ("the target"), one that is each
// candidate's own ("Doomwheel" for one, "Rat Ogres" for another) is "the
// candidate". Any other value that differs between candidates is the first
// candidate's, marked "*".
func comparisonValue(row sim.ComparisonRow, pr sim.Param) string {
	v := paramString(pr.Value)
	if pr.Name == "unit" {
		for _, other := range row.Params {
			if other.Name != "unit" && paramString(other.Value) == v {
				return rolePrefix + other.Name
			}
		}
	}
	if !row.Differ {
		return v
	}
	for _, e := range row.Estimates {
		if ev := e.Param(pr.Name); ev != nil && paramString(ev) != v {
			if pr.Name == "unit" {
				return rolePrefix + "candidate"
			}
			return v + " *"
		}
	}
	return v
}

// candidateExact are candidate k's exact values, where there are any, at
// its points' places.
func candidateExact(m metricRows, k, n int, single bool) plotter.XYs {
	var exact plotter.XYs
	for i, row := range m.rows {
		if k < len(row.Estimates) && row.Estimates[k].HasExact && !absent(row.Estimates[k]) {
			exact = append(exact, plotter.XY{X: slotX(i, k, n, single), Y: row.Estimates[k].Exact})
		}
	}
	return exact
}

// slotX places candidate k of n at point i: candidates share each point's
// slot, spread over half its width, or have a slot each when there is one
// point.
func slotX(i, k, n int, single bool) float64 {
	switch {
	case single:
		return float64(k)
	case n > 1:
		return float64(i) - 0.25 + 0.5*float64(k)/float64(n-1)
	}
	return float64(i)
}

// missingWhy says why candidate k has no estimate to draw at the points
// where it has none: it does not report the metric there, or it reports
// it but had no trial it applies to (a combat result where its charge
// never came home), or some of each.
func missingWhy(m metricRows, k int) string {
	var unrep, noTrials bool
	for _, row := range m.rows {
		if k >= len(row.Estimates) || !math.IsNaN(row.Estimates[k].Value) {
			continue
		}
		if unreported(row, k) {
			unrep = true
		} else {
			noTrials = true
		}
	}
	switch {
	case noTrials && unrep:
		return "not reported, or no trials"
	case noTrials:
		return "no trials"
	}
	return "not reported"
}

// candidatePoints are candidate k's estimates with their 95% intervals.
// Candidates share each point's slot, spread over half its width.
func candidatePoints(m metricRows, k, n int, single bool) errPoints {
	var pts errPoints
	for i, row := range m.rows {
		if k >= len(row.Estimates) {
			continue
		}
		e := row.Estimates[k]
		if math.IsNaN(e.Value) {
			continue
		}
		x := slotX(i, k, n, single)
		lo, hi := e.Value-e.CI95[0], e.CI95[1]-e.Value
		if math.IsNaN(lo) || math.IsNaN(hi) {
			lo, hi = 0, 0
		}
		pts.XYs = append(pts.XYs, plotter.XY{X: x, Y: e.Value})
		pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{lo, hi})
	}
	return pts
}

// addCandidate draws candidate k's points and error bars in its colour and
// returns the dots, for the legend.
func addCandidate(p *plot.Plot, pts errPoints, k int) (*plotter.Scatter, error) {
	bars, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return nil, err
	}
	bars.Color = colour(k)
	bars.Width = vg.Points(1.2)
	bars.CapWidth = vg.Points(8)
	dots, err := plotter.NewScatter(pts.XYs)
	if err != nil {
		return nil, err
	}
	dots.Color, dots.Shape = colour(k), candidateGlyph(k)
	dots.Radius = vg.Points(3)
	p.Add(bars, dots)
	return dots, nil
}

// candidateGlyphs tell candidates apart where colours run out: the first
// ten are dots, the next ten (the same colours again) triangles, and so on.
var candidateGlyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.PyramidGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}

// candidateGlyph is the mark of candidate k's estimates: with its colour,
// one no other candidate has, up to 60 candidates.
func candidateGlyph(k int) draw.GlyphDrawer {
	return candidateGlyphs[k/len(palette)%len(candidateGlyphs)]
}

// comparisonAxes lays out the x slots, tilts crowded labels (kept whole),
// and leaves a margin above and below the intervals and room for the
// legend (candidates, exact values) above them.
func comparisonAxes(p *plot.Plot, ticks []string) {
	p.NominalX(ticks...)
	p.X.Min, p.X.Max = -0.5, float64(len(ticks))-0.5
	p.Y.Padding = 0
	slantIfCrowded(&p.X.Tick.Label, ticks, plotW-2*vg.Centimeter)
	roomForTickLabels(p, ticks)
	p.Legend.Top = true
	p.Legend.Left = false
	p.Legend.XOffs = -vg.Millimeter * 2
	if span := p.Y.Max - p.Y.Min; span > 0 {
		top := p.Y.Max + 0.05*span
		p.Y.Min -= 0.05 * span
		p.Y.Max = top
		clearLegend(p, top)
	}
}
