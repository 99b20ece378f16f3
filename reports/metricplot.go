package reports

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"hammersim/sim"
)

// One figure per metric. A counted outcome (hits, models killed) draws its
// "at least N" curves, a line per point; any other metric draws its
// estimate against the first swept number as lines (one per combination of
// the other parameters) with the 95% interval as a band, or, when nothing
// numeric is swept, as grouped bars. Probabilities are in percent.

// MaxLines caps the lines (or bars in a group) one figure draws.
const MaxLines = 10

// words turns a metric or parameter name into words for a label.
func words(name string) string { return strings.ReplaceAll(name, "_", " ") }

// metricFigure draws one metric of the report; note says what it left out.
func metricFigure(r *sim.Report, metric string, es []sim.Estimate) (fig *plot.Plot, note string, err error) {
	rows, _ := estimatesOf(metric, es)
	var counts []sim.Estimate
	for _, e := range rows {
		if counted(e) && !neverOne(e) {
			counts = append(counts, e)
		}
	}
	if len(counts) > 0 && len(counts)*2 >= len(rows) {
		return atLeastFigure(r, metric, counts)
	}
	varying := varyingParams(rows)
	for _, n := range varying {
		if numeric(axisValues(r, n)) {
			return lineFigure(r, metric, rows, n)
		}
	}
	return barFigure(r, metric, rows, varying)
}

// pointLabel names a point in a legend by the parameters that vary.
func pointLabel(e sim.Estimate, varying []string) string {
	var parts []string
	for _, n := range varying {
		if v := e.Param(n); v != nil {
			parts = append(parts, words(n)+" "+paramString(v))
		}
	}
	if len(parts) == 0 {
		return "all trials"
	}
	return strings.Join(parts, ", ")
}

func capped(n int, metric string) string {
	if n <= MaxLines {
		return ""
	}
	return fmt.Sprintf("the plot of %s shows %d of its %d series; the tables hold them all", metric, MaxLines, n)
}

// atLeastFigure draws P(X >= N) against N, a line per point.
func atLeastFigure(r *sim.Report, metric string, points []sim.Estimate) (*plot.Plot, string, error) {
	p := newPlot(r.Scenario+": "+words(metric), "at least this many "+words(metric), "chance")
	percentAxis(p)
	note := capped(len(points), metric)
	if len(points) > MaxLines {
		points = points[:MaxLines]
	}
	varying := varyingParams(points)
	top := max(atLeastTop(points), 1)
	for i, e := range points {
		var xy plotter.XYs
		for n := 0; n <= top; n++ {
			est, _, _ := atLeastAt(e, n)
			xy = append(xy, plotter.XY{X: float64(n), Y: est})
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, "", err
		}
		l.Color, l.Width = colour(i), vg.Points(2)
		l.Dashes = dashes(i)
		p.Add(l)
		if label := pointLabel(e, varying); len(points) > 1 || label != "all trials" {
			p.Legend.Add(label, l)
		}
	}
	p.X.Tick.Marker = wholeTicks{}
	p.X.Min, p.X.Max = 0, float64(top)
	padX(p)
	legendInside(p)
	return p, note, nil
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

// percentAxis labels a probability axis in percent, from 0 to a little
// above the highest value shown (never past 100%), with room above for the
// legend.
func percentAxis(p *plot.Plot) {
	p.Y.Min, p.Y.Max = 0, 1.3
	p.Y.Tick.Marker = cappedPercentTicks{}
}

// fitPercent lowers a percent axis to the data: small chances (a 5%
// mishap) stay readable rather than flat along the bottom.
func fitPercent(p *plot.Plot, top float64) {
	top = min(max(top, 0.01), 1)
	p.Y.Max = top * 1.35
}

// padX widens the x range by a margin on each side, so that points and
// bars at the ends are drawn whole.
func padX(p *plot.Plot) {
	m := 0.03 * (p.X.Max - p.X.Min)
	p.X.Min, p.X.Max = p.X.Min-m, p.X.Max+m
}

// lineFigure draws the estimate against the swept number x, a line per
// combination of the other parameters, with the 95% interval as a band.
func lineFigure(r *sim.Report, metric string, rows []sim.Estimate, x string) (*plot.Plot, string, error) {
	kind := rows[0].Kind
	ylabel := "average " + words(metric)
	if kind == sim.Probability {
		ylabel = "chance of " + words(metric)
	}
	p := newPlot(r.Scenario+": "+words(metric), words(x), ylabel)
	if kind == sim.Probability {
		percentAxis(p)
	}
	var series []string
	var others []string
	for _, n := range varyingParams(rows) {
		if n != x {
			others = append(others, n)
		}
	}
	byLabel := map[string]plotter.XYs{}
	band := map[string][2]plotter.XYs{}
	top := 0.0
	for _, e := range rows {
		if math.IsNaN(e.Value) {
			continue
		}
		top = max(top, e.CI95[1])
		label := pointLabel(e, others)
		if !slices.Contains(series, label) {
			series = append(series, label)
		}
		xv := float64(e.Param(x).(int))
		byLabel[label] = append(byLabel[label], plotter.XY{X: xv, Y: e.Value})
		b := band[label]
		b[0] = append(b[0], plotter.XY{X: xv, Y: e.CI95[0]})
		b[1] = append(b[1], plotter.XY{X: xv, Y: e.CI95[1]})
		band[label] = b
	}
	note := capped(len(series), metric)
	if len(series) > MaxLines {
		series = series[:MaxLines]
	}
	for i, s := range series {
		c := colour(i)
		lo, hi := band[s][0], band[s][1]
		ring := slices.Clone(lo)
		for j := len(hi) - 1; j >= 0; j-- {
			ring = append(ring, hi[j])
		}
		poly, err := plotter.NewPolygon(ring)
		if err != nil {
			return nil, "", err
		}
		poly.Color = color.NRGBA{c.R, c.G, c.B, 0x40}
		poly.LineStyle.Width = 0
		l, pts, err := plotter.NewLinePoints(byLabel[s])
		if err != nil {
			return nil, "", err
		}
		l.Color, l.Width, l.Dashes = c, vg.Points(2), dashes(i)
		pts.Color, pts.Radius = c, vg.Points(2.5)
		p.Add(poly, l, pts)
		if len(series) > 1 || s != "all trials" {
			p.Legend.Add(s, l)
		}
	}
	p.X.Tick.Marker = wholeTicks{}
	legendInside(p)
	roomForLegend(p, kind)
	if kind == sim.Probability {
		fitPercent(p, top)
	}
	padX(p)
	return p, note, nil
}

// roomForLegend raises the top of an average's axis so that the legend
// sits above the data.
func roomForLegend(p *plot.Plot, kind sim.Kind) {
	if kind == sim.Probability {
		return
	}
	p.Y.Min = min(p.Y.Min, 0)
	p.Y.Max += 0.35 * (p.Y.Max - p.Y.Min)
}

// barFigure draws the estimates as grouped bars: a group per value of the
// first varying parameter, a bar per combination of the others.
func barFigure(r *sim.Report, metric string, rows []sim.Estimate, varying []string) (*plot.Plot, string, error) {
	kind := rows[0].Kind
	ylabel := "average " + words(metric)
	if kind == sim.Probability {
		ylabel = "chance of " + words(metric)
	}
	group := ""
	if len(varying) > 0 {
		group = varying[0]
	}
	p := newPlot(r.Scenario+": "+words(metric), words(group), ylabel)
	if kind == sim.Probability {
		percentAxis(p)
	}
	var groups, series []string
	val := map[[2]string]float64{}
	top := 0.0
	for _, e := range rows {
		if !math.IsNaN(e.Value) {
			top = max(top, e.Value)
		}
		g := ""
		if group != "" {
			g = paramString(e.Param(group))
		}
		s := pointLabel(e, varying[min(1, len(varying)):])
		if !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
		if !slices.Contains(series, s) {
			series = append(series, s)
		}
		val[[2]string{g, s}] = e.Value
	}
	note := capped(len(series), metric)
	if len(series) > MaxLines {
		series = series[:MaxLines]
	}
	width := vg.Length(float64(plotW) * 0.7 / float64(len(groups)*len(series)+len(groups)))
	for i, s := range series {
		vals := make(plotter.Values, len(groups))
		for j, g := range groups {
			vals[j] = val[[2]string{g, s}]
			if math.IsNaN(vals[j]) {
				vals[j] = 0
			}
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, "", err
		}
		bars.Color = colour(i)
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(float64(i)-float64(len(series)-1)/2) * width
		p.Add(bars)
		if len(series) > 1 || s != "all trials" {
			p.Legend.Add(s, bars)
		}
	}
	if group != "" {
		p.NominalX(groups...)
	} else {
		p.NominalX("")
	}
	p.X.Min, p.X.Max = -0.6, float64(len(groups))-0.4
	legendInside(p)
	roomForLegend(p, kind)
	if kind == sim.Probability {
		fitPercent(p, top)
	}
	return p, note, nil
}
