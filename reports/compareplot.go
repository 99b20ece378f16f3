package reports

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"hammersim/sim"
)

// MaxComparisonPlots caps the metrics a comparison plots, one plot each;
// MaxComparisonPoints caps the points one plot shows. Past either, the
// tables and the JSON hold the rest.
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
	figs, notes, err := comparisonFigures(c)
	out := Plots{Notes: notes}
	if err != nil {
		return out, err
	}
	err = saveAll(files, dir, figs, []string{"png", "svg"}, &out)
	return out, err
}

// comparisonFigures builds a comparison's plots, with notes on what the
// caps left out.
func comparisonFigures(c *sim.Comparison) ([]namedFigure, []string, error) {
	var figs []namedFigure
	var notes []string
	groups := byMetric(c)
	for i, m := range groups {
		if i == MaxComparisonPlots {
			notes = append(notes, fmt.Sprintf("only the first %d of %d metrics were plotted; the tables hold them all", MaxComparisonPlots, len(groups)))
			break
		}
		if len(m.rows) > MaxComparisonPoints {
			notes = append(notes, fmt.Sprintf("the plot of %s shows the first %d of its %d points; the tables hold them all", m.metric, MaxComparisonPoints, len(m.rows)))
			m.rows = m.rows[:MaxComparisonPoints]
		}
		p, err := comparisonPlot(c, m)
		if err != nil {
			return nil, notes, err
		}
		figs = append(figs, namedFigure{name: fileName("compare_"+m.metric, ""), caption: m.metric + " by candidate, with 95% intervals", fig: p})
	}
	return figs, notes, nil
}

// errPoints are points with asymmetric vertical errors, as
// plotter.NewYErrorBars takes them.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

func comparisonPlot(c *sim.Comparison, m metricRows) (*plot.Plot, error) {
	ylabel := "mean " + m.metric
	if m.kind == sim.Probability {
		ylabel = "probability"
	}
	p := newPlot("compare: "+m.metric+" (95% intervals)", "", ylabel)
	p.Title.Padding = 0.3 * vg.Centimeter
	if m.kind == sim.Probability {
		p.Y.Tick.Marker = percentTicks{}
	}
	single := len(m.rows) == 1
	ticks, xlabel := comparisonTicks(c, m, single)
	p.X.Label.Text = xlabel
	for k, name := range c.Candidates {
		pts := candidatePoints(m, k, len(c.Candidates), single)
		if len(pts.XYs) == 0 {
			continue
		}
		dots, err := addCandidate(p, pts, k)
		if err != nil {
			return nil, err
		}
		if !single {
			p.Legend.Add(name, dots)
		}
	}
	comparisonAxes(p, ticks, len(c.Candidates), single)
	return p, nil
}

// comparisonTicks names the slots along the x axis: the candidates when
// there is one point, else the points, each candidate beside the others in
// its point's slot.
func comparisonTicks(c *sim.Comparison, m metricRows, single bool) (ticks []string, xlabel string) {
	if single {
		xlabel = "candidate"
		if label := paramsString(m.rows[0].Params); label != "" {
			xlabel += " (" + label + ")"
		}
		return c.Candidates, xlabel
	}
	for _, row := range m.rows {
		vals := make([]string, len(row.Params))
		for i, pr := range row.Params {
			vals[i] = paramString(pr.Value)
		}
		ticks = append(ticks, strings.Join(vals, ", "))
	}
	return ticks, strings.Join(m.params, ", ")
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
		x := float64(i)
		switch {
		case single:
			x = float64(k)
		case n > 1:
			x += -0.25 + 0.5*float64(k)/float64(n-1)
		}
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
	dots.Color = colour(k)
	dots.Shape = draw.CircleGlyph{}
	dots.Radius = vg.Points(3)
	p.Add(bars, dots)
	return dots, nil
}

// comparisonAxes lays out the x slots, tilts crowded labels, and leaves a
// margin above and below the intervals and, with several points, room for
// the legend above them.
func comparisonAxes(p *plot.Plot, ticks []string, n int, single bool) {
	p.NominalX(ticks...)
	p.X.Min, p.X.Max = -0.5, float64(len(ticks))-0.5
	p.Y.Padding = 0
	slantIfCrowded(&p.X.Tick.Label, ticks, plotW-2*vg.Centimeter)
	if span := p.Y.Max - p.Y.Min; span > 0 {
		p.Y.Min -= 0.05 * span
		p.Y.Max += 0.05 * span
		if !single {
			p.Y.Max += span * 0.09 * float64(n)
		}
	}
	if !single {
		p.Legend.Top = true
		p.Legend.Left = false
		p.Legend.XOffs = -vg.Millimeter * 2
	}
}
