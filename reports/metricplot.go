package reports

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"hammersim/sim"
)

// One figure per metric. A counted outcome (hits, models killed) draws its
// "at least N" curves, a line per point; any other metric draws its
// estimate against the first swept number as lines (one per combination of
// the other parameters) with the 95% interval as a band, or, when nothing
// numeric is swept, as grouped bars. Probabilities are in percent.

// MaxLines caps the lines (or bars in a group) one figure draws; a metric
// with more series is split into several figures (plotsplit.go).
const MaxLines = 10

// words turns a metric or parameter name into words for a label.
func words(name string) string { return strings.ReplaceAll(name, "_", " ") }

// axisWords names an axis by a parameter or metric, in words, with its
// unit where it is a length in inches: a distance swept ("distance",
// "Stormvermin.distance"), a range, a charge's reach.
func axisWords(name string) string {
	if inches(name) {
		return words(name) + ` (inches, ")`
	}
	return words(name)
}

// figureDrawer draws one figure of a metric from its estimates, under a
// title; metric is what its axes call the metric (metricTitle).
type figureDrawer func(title, metric string, rows []sim.Estimate) (*plot.Plot, error)

// metricFigures draws one metric of the report, in as many figures as it
// takes to show every series; note says what it left out. It consults stop
// before each figure.
func metricFigures(r *sim.Report, metric string, es []sim.Estimate, stop func() error) (figs []namedFigure, note string, err error) {
	rows, _ := estimatesOf(metric, es)
	if err := stop(); err != nil {
		return nil, "", err
	}
	rows = unitRoles(rows)
	if err := stop(); err != nil {
		return nil, "", err
	}
	drawer, keep, rows := chooseFigure(r, rows)
	parts, note, err := splitSeries(rows, stop, keep...)
	if err != nil {
		return nil, "", err
	}
	// The figures name the metric by its title, on their axes too.
	title := metricTitle(metric, rows)
	var flat []string
	for _, part := range parts {
		if err := stop(); err != nil {
			return nil, note, err
		}
		caption := words(title)
		if part.title != "" {
			caption += " (" + part.title + ")"
		}
		if zeroEverywhere(part.rows) {
			// As the tables leave such rows out: a flat line at 0, or
			// curves that fall from 100% at 0, would only look like data.
			flat = append(flat, caption)
			continue
		}
		p, err := drawer(r.Scenario+": "+caption, title, part.rows)
		if err != nil {
			return nil, note, err
		}
		figs = append(figs, namedFigure{name: fileName(metric, part.file), caption: caption, fig: p})
	}
	if len(flat) > 0 {
		left := fmt.Sprintf("no figure of %s: 0 at every point", strings.Join(flat, "; "))
		note = strings.TrimPrefix(note+"; "+left, "; ")
	}
	return figs, note, nil
}

// zeroEverywhere reports whether a figure of rows would hold nothing but
// 0: every estimate 0, at some point with trials and every point that has
// any, and no exact value above 0 (where there is one, it is 0 too, and
// the tables leave such rows out: the same rows).
func zeroEverywhere(rows []sim.Estimate) bool {
	tried := false
	for _, e := range rows {
		if e.Trials > 0 && e.Value != 0 || e.HasExact && e.Exact != 0 {
			return false
		}
		tried = tried || e.Trials > 0
	}
	return tried
}

// chooseFigure picks how a metric is drawn, and the parameters that stay
// within each figure (the x axis, the bar groups) when it is split: "at
// least N" curves for a counted outcome, a line per point; else the
// estimate against the first swept number; else grouped bars. It returns
// the rows the figures draw. Curves are drawn where most points are
// counted and every point can be drawn as one: then a point that only
// ever counts 0 or 1 (a single Doomwheel's models lost) or never reaches
// 1 is drawn too, a curve like the others, so that no point goes missing.
// Only points with no trials, which no figure can draw, are left out.
func chooseFigure(r *sim.Report, rows []sim.Estimate) (fig figureDrawer, keep []string, drawn []sim.Estimate) {
	counts, curves := 0, true
	withTrials := make([]sim.Estimate, 0, len(rows))
	for _, e := range rows {
		if e.Trials == 0 {
			continue
		}
		withTrials = append(withTrials, e)
		switch {
		case counted(e) && !neverOne(e):
			counts++
		case !countLike(e):
			curves = false
		}
	}
	if counts > 0 && curves && counts*2 >= len(rows) {
		return atLeastFigure, nil, withTrials
	}
	varying := varyingParams(rows)
	for _, n := range varying {
		if numeric(axisValues(r, n)) {
			return func(title, metric string, part []sim.Estimate) (*plot.Plot, error) {
				return lineFigure(title, metric, part, n)
			}, []string{n}, rows
		}
	}
	if len(varying) == 0 {
		return barFigure, nil, rows
	}
	return barFigure, varying[:1], rows
}

// countLike reports whether e can be drawn as an "at least N" curve: a
// count of whole numbers none below 0, such as a counted outcome that only
// ever took 0 or 1.
func countLike(e sim.Estimate) bool {
	if e.Kind != sim.Mean || e.Hist == nil || e.Trials == 0 {
		return false
	}
	lo, _, ok := e.Hist.Range()
	return ok && lo >= 0
}

// paramWords names a parameter's value in words: "swiftstride true", and
// for a unit named by its part (unitRoles) "unit: the attacker".
func paramWords(name string, v any) string {
	s := paramString(v)
	if name == "unit" && strings.HasPrefix(s, rolePrefix) {
		return "unit: " + s
	}
	return valueWords(name, s)
}

// valueWords names parameter name at the value written s, in words: a
// unit's own key said as the unit's ("Stormvermin.distance" at 4 is
// "Stormvermin's distance 4\""), and a length with its inch mark.
func valueWords(name, s string) string {
	if inches(name) {
		s += `"`
	}
	if i := strings.LastIndex(name, "."); i > 0 {
		// A unit's name may hold a dot; a key never does.
		return name[:i] + "'s " + words(name[i+1:]) + " " + s
	}
	return words(name) + " " + s
}

// inches reports whether parameter or metric name is a length in inches:
// a distance swept ("distance", "Stormvermin.distance"), a range, a
// charge's reach.
func inches(name string) bool {
	base := name[strings.LastIndex(name, ".")+1:]
	return base == "distance" || base == "charge_reach" || base == "range" || strings.HasSuffix(base, "_range")
}

// pointLabel names a point in a legend by the parameters that vary.
func pointLabel(e sim.Estimate, varying []string) string {
	var parts []string
	for _, n := range varying {
		if v := e.Param(n); v != nil {
			parts = append(parts, paramWords(n, v))
		}
	}
	if len(parts) == 0 {
		return "all trials"
	}
	return strings.Join(parts, ", ")
}

// atLeastFigure draws P(X >= N) against N, a line per point, with the
// exact chance, where there is one, as dots on the line.
func atLeastFigure(title, metric string, points []sim.Estimate) (*plot.Plot, error) {
	p := newPlot(title, "at least N: "+axisWords(metric), "chance of at least N")
	p.Y.Tick.Marker = cappedPercentTicks{}
	varying := varyingParams(points)
	top := max(atLeastTop(points), 1)
	for i, e := range points {
		var xy, exact plotter.XYs
		for n := 0; n <= top; n++ {
			est, ex, has := atLeastAt(e, n)
			xy = append(xy, plotter.XY{X: float64(n), Y: est})
			if has {
				exact = append(exact, plotter.XY{X: float64(n), Y: ex})
			}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.Color, l.Width = colour(i), vg.Points(2)
		l.Dashes = dashes(i)
		p.Add(l)
		if err := addExact(p, exact, colour(i)); err != nil {
			return nil, err
		}
		if label := pointLabel(e, varying); len(points) > 1 || label != "all trials" {
			p.Legend.Add(label, l)
		}
	}
	legendExact(p, slices.ContainsFunc(points, func(e sim.Estimate) bool { return e.ExactPMF != nil }))
	p.X.Tick.Marker = wholeTicks{}
	p.X.Min, p.X.Max = 0, float64(top)
	padX(p)
	legendInside(p)
	p.Y.Min = 0
	clearLegend(p, 1)
	return p, nil
}

// addExact marks exact values as open rings in a series' colour: an
// estimate's line passes through them when it agrees.
func addExact(p *plot.Plot, exact plotter.XYs, c color.Color) error {
	if len(exact) == 0 {
		return nil
	}
	s, err := plotter.NewScatter(exact)
	if err != nil {
		return err
	}
	s.Color, s.Shape, s.Radius = c, draw.RingGlyph{}, vg.Points(3.5)
	p.Add(s)
	return nil
}

// legendExact names the rings of exact values in the legend, when any
// is drawn.
func legendExact(p *plot.Plot, drawn bool) {
	if !drawn {
		return
	}
	ring, err := plotter.NewScatter(plotter.XYs{{}})
	if err != nil {
		return // one finite point always makes a scatter
	}
	ring.Color, ring.Shape, ring.Radius = color.Gray{Y: 0x40}, draw.RingGlyph{}, vg.Points(3.5)
	p.Legend.Add("exact value", ring)
}

// hasExact reports whether any estimate has an exact value to draw.
func hasExact(es []sim.Estimate) bool {
	return slices.ContainsFunc(es, func(e sim.Estimate) bool { return e.HasExact && !math.IsNaN(e.Value) })
}

// dashes tells lines apart where colours alone might not.
func dashes(i int) []vg.Length {
	if i < len(palette) {
		return nil
	}
	return []vg.Length{vg.Points(6), vg.Points(3)}
}

// legendInside keeps the legend clear of the right edge.
func legendInside(p *plot.Plot) {
	p.Legend.Top = true
	p.Legend.XOffs = -vg.Millimeter * 3
}

// clearLegend raises the top of the y axis so that the legend, drawn in
// the top corner, sits above top, the highest value drawn, with a margin
// between them.
func clearLegend(p *plot.Plot, top float64) {
	const margin = 0.06 // of the axis' height
	area := dataArea(p)
	legend := p.Legend.Rectangle(area).Size().Y
	share := 0.0
	if legend > 0 {
		share = min(float64(legend/area.Size().Y), 0.6)
	}
	lo := p.Y.Min
	if top <= lo {
		top = lo + 1
	}
	p.Y.Max = lo + (top-lo)/(1-share-margin)
}

// padX widens the x range by a margin on each side, so that points and
// bars at the ends are drawn whole.
func padX(p *plot.Plot) {
	m := 0.03 * (p.X.Max - p.X.Min)
	p.X.Min, p.X.Max = p.X.Min-m, p.X.Max+m
}

// yLabel names the y axis of a metric's estimates.
func yLabel(kind sim.Kind, metric string) string {
	if kind == sim.Probability {
		return "chance of " + words(metric)
	}
	return "average " + axisWords(metric)
}

// yRange sets the y axis of a metric's figure: probabilities from 0% up to
// the highest interval (never past 100%), averages from 0 or below; each
// with room above for the legend.
func yRange(p *plot.Plot, kind sim.Kind, top float64) {
	if kind == sim.Probability {
		p.Y.Tick.Marker = cappedPercentTicks{}
		p.Y.Min = 0
		clearLegend(p, min(max(top, 0.01), 1))
		return
	}
	p.Y.Min = min(p.Y.Min, 0)
	if p.Y.Min < 0 {
		// Bars and values on both sides of 0 (a combat result): a line
		// marks 0, which numberTicks labels, and a margin below keeps the
		// lowest interval's end off the axis.
		p.Y.Min -= 0.04 * (max(top, p.Y.Max) - p.Y.Min)
		p.Add(zeroLine{})
	}
	clearLegend(p, max(top, p.Y.Max))
}

// zeroLine marks y = 0 across a figure whose values fall on both sides of
// it. It has no data range of its own.
type zeroLine struct{}

func (zeroLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(0)
	c.StrokeLine2(draw.LineStyle{Color: color.Gray{Y: 0x30}, Width: vg.Points(0.75)}, c.Min.X, y, c.Max.X, y)
}

// lineFigure draws the estimate against the swept number x, a line per
// combination of the other parameters, with the 95% interval as a band and
// the exact value, where there is one, as a ring.
func lineFigure(title, metric string, rows []sim.Estimate, x string) (*plot.Plot, error) {
	kind := rows[0].Kind
	p := newPlot(title, axisWords(x), yLabel(kind, metric))
	var others []string
	for _, n := range varyingParams(rows) {
		if n != x {
			others = append(others, n)
		}
	}
	var series []string
	byLabel := map[string][]sim.Estimate{}
	top := 0.0
	for _, e := range rows {
		if math.IsNaN(e.Value) {
			continue
		}
		_, hi := ciBand(e)
		top = max(top, hi, e.Value)
		label := pointLabel(e, others)
		if !slices.Contains(series, label) {
			series = append(series, label)
		}
		byLabel[label] = append(byLabel[label], e)
	}
	for i, s := range series {
		l, err := addSeriesLine(p, byLabel[s], x, i)
		if err != nil {
			return nil, err
		}
		if len(series) > 1 || s != "all trials" {
			p.Legend.Add(s, l)
		}
	}
	legendExact(p, hasExact(rows))
	p.X.Tick.Marker = wholeTicks{}
	legendInside(p)
	yRange(p, kind, top)
	padX(p)
	return p, nil
}

// addSeriesLine draws one series of a line figure in colour i: its
// interval band, its line with points, and its exact values. It returns
// the line, for the legend.
func addSeriesLine(p *plot.Plot, es []sim.Estimate, x string, i int) (*plotter.Line, error) {
	c := colour(i)
	// A curve against a number is joined in its order, whatever the order
	// its values were listed in (distance: [12, 5, 9]).
	es = slices.Clone(es)
	slices.SortStableFunc(es, func(a, b sim.Estimate) int { return cmp.Compare(a.Param(x).(int), b.Param(x).(int)) })
	var line, lo, hi, exact plotter.XYs
	for _, e := range es {
		xv := float64(e.Param(x).(int))
		line = append(line, plotter.XY{X: xv, Y: e.Value})
		l, h := ciBand(e)
		lo = append(lo, plotter.XY{X: xv, Y: l})
		hi = append(hi, plotter.XY{X: xv, Y: h})
		if e.HasExact {
			exact = append(exact, plotter.XY{X: xv, Y: e.Exact})
		}
	}
	ring := slices.Clone(lo)
	for j := len(hi) - 1; j >= 0; j-- {
		ring = append(ring, hi[j])
	}
	poly, err := plotter.NewPolygon(ring)
	if err != nil {
		return nil, err
	}
	poly.Color = color.NRGBA{c.R, c.G, c.B, 0x40}
	poly.LineStyle.Width = 0
	l, pts, err := plotter.NewLinePoints(line)
	if err != nil {
		return nil, err
	}
	l.Color, l.Width, l.Dashes = c, vg.Points(2), dashes(i)
	// A filled dot, unlike the exact value's open ring around it: where
	// the two agree the dot sits in the ring's middle, where they do not
	// it sits apart from it.
	pts.Color, pts.Shape, pts.Radius = c, draw.CircleGlyph{}, vg.Points(2)
	p.Add(poly, pts)
	if err := addExact(p, exact, c); err != nil {
		return nil, err
	}
	p.Add(l)
	return l, nil
}
