package reports

import (
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	pal "gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"hammersim/sim"
)

// viridis holds control colours of matplotlib's viridis map (dark blue to
// yellow): perceptually uniform, legible in grey and to most colour-blind
// readers. Its lightness rises monotonically, as moreland.NewLuminance
// requires.
var viridis = []color.Color{
	color.RGBA{0x44, 0x01, 0x54, 0xff}, color.RGBA{0x3b, 0x52, 0x8b, 0xff},
	color.RGBA{0x21, 0x91, 0x8c, 0xff}, color.RGBA{0x5e, 0xc9, 0x62, 0xff},
	color.RGBA{0xfd, 0xe7, 0x25, 0xff},
}

// heatColours returns the colour map for values in [lo, hi].
func heatColours(lo, hi float64) pal.ColorMap {
	cm, err := moreland.NewLuminance(viridis)
	if err != nil {
		panic("reports: viridis controls: " + err.Error())
	}
	cm.SetMin(lo)
	cm.SetMax(hi)
	return cm
}

// heatRange is the colour scale shared by every slice of a grid, so that a
// colour means the same number in each: [0, 1] for probabilities, the
// smallest to the largest estimate for means.
func heatRange(ss []slice) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		for _, e := range s.estimates {
			if e.Kind == sim.Probability {
				return 0, 1
			}
			if !math.IsNaN(e.Value) && !math.IsInf(e.Value, 0) {
				lo, hi = math.Min(lo, e.Value), math.Max(hi, e.Value)
			}
		}
	}
	switch {
	case lo > hi: // no finite value
		return 0, 1
	case lo == hi:
		return lo - 0.5, hi + 0.5
	}
	return lo, hi
}

// cellGrid is a grid slice's values as plotter.GridXYZ: column c at x = c,
// and row r (counted from the top, as tables read) at y = rows-1-r.
type cellGrid struct{ z [][]float64 }

func (g cellGrid) Dims() (c, r int)   { return len(g.z[0]), len(g.z) }
func (g cellGrid) Z(c, r int) float64 { return g.z[len(g.z)-1-r][c] }
func (g cellGrid) X(c int) float64    { return float64(c) }
func (g cellGrid) Y(r int) float64    { return float64(r) }

// withColourBar draws a plot with a vertical colour bar at its right.
type withColourBar struct {
	main, bar *plot.Plot
}

// colourBarWidth is the strip the colour bar and its tick labels take.
const colourBarWidth = 2.4 * vg.Centimeter

func (f withColourBar) Draw(c draw.Canvas) {
	main := draw.Crop(c, 0, -colourBarWidth, 0, 0)
	f.main.Draw(main)
	// Line the bar up with the cells.
	cells := f.main.DataCanvas(main)
	strip := draw.Crop(c, c.Max.X-c.Min.X-colourBarWidth+0.2*vg.Centimeter, -0.4*vg.Centimeter, 0, 0)
	strip.Min.Y, strip.Max.Y = cells.Min.Y, cells.Max.Y
	f.bar.Draw(strip)
}

// heatmap draws one slice of a grid whose rows are names: a cell per row and
// column value, coloured by the estimate on the scale [lo, hi] and labelled
// with it, the row and column names on the axes, and a colour bar.
func heatmap(r *sim.Report, g *sim.Grid, s slice, lo, hi float64) (figure, error) {
	rows, cols := axisValues(r, g.Rows), axisValues(r, g.Cols)
	cm := heatColours(lo, hi)
	kind := sim.Probability
	if len(s.estimates) > 0 {
		kind = s.estimates[0].Kind
	}
	name := words(metricTitle(g.Metric, s.estimates))
	title := r.Scenario + ": average " + name
	if kind == sim.Probability {
		title = r.Scenario + ": chance of " + name + " (%)"
	}
	if s.label != "" {
		title += ", " + labelWords(s.label)
	}
	if hasExact(s.estimates) {
		title += "; exact in brackets"
	}
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = 0.3 * vg.Centimeter
	p.X.Label.Text = axisWords(g.Cols)
	p.Y.Label.Text = axisWords(g.Rows)
	if len(rows) == 0 || len(cols) == 0 {
		return p, nil
	}
	z, lab, err := heatCells(rows, cols, s.cells(g), cm, kind)
	if err != nil {
		return nil, err
	}
	hm := plotter.NewHeatMap(cellGrid{z: z}, cm.Palette(256))
	hm.Min, hm.Max = lo, hi
	hm.NaN = color.RGBA{0xe0, 0xe0, 0xe0, 0xff}
	p.Add(hm, lab)
	heatAxes(p, rows, cols)

	bar := plot.New()
	bar.HideX()
	bar.X.Padding, bar.Y.Padding = 0, 0
	bar.Add(colourBar{cm: heatColours(lo, hi)})
	if kind == sim.Probability {
		bar.Y.Tick.Marker = percentTicks{}
	} else {
		bar.Y.Tick.Marker = numberTicks{}
		bar.Y.Label.Text = "mean"
	}
	bar.Y.Min, bar.Y.Max = lo, hi
	return withColourBar{main: p, bar: bar}, nil
}

// heatLabel is a cell's estimate and, where it has one, its exact value
// in brackets below it, as the tables give them.
func heatLabel(e sim.Estimate, ok bool, kind sim.Kind) string {
	label := gridNumber(e, ok)
	if label == "-" {
		return label
	}
	format := func(v float64) string { return fixed(v, 2) }
	if kind == sim.Probability {
		// One decimal keeps a crowded map legible; the tables have two.
		format = func(v float64) string { return percent(v, 1) + "%" }
	}
	label = format(e.Value)
	if e.HasExact {
		label += "\n(" + format(e.Exact) + ")"
	}
	return label
}

// heatCells are the grid's values, row by row (NaN where a cell has no
// estimate), and a label on each cell in a colour that stands out on it.
func heatCells(rows, cols []any, at func(rv, cv any) (sim.Estimate, bool), cm pal.ColorMap, kind sim.Kind) ([][]float64, *plotter.Labels, error) {
	z := make([][]float64, len(rows))
	var labels plotter.XYLabels
	var styles []text.Style
	labelFont := font.Font{Typeface: plot.DefaultFont.Typeface, Variant: plot.DefaultFont.Variant, Size: 10}
	if len(cols) > 8 || len(rows) > 12 {
		labelFont.Size = 8
	}
	for i, rv := range rows {
		z[i] = make([]float64, len(cols))
		for j, cv := range cols {
			e, ok := at(rv, cv)
			v := math.NaN()
			if ok {
				v = e.Value
			}
			z[i][j] = v
			label := heatLabel(e, ok, kind)
			labels.XYs = append(labels.XYs, plotter.XY{X: float64(j), Y: float64(len(rows) - 1 - i)})
			labels.Labels = append(labels.Labels, label)
			styles = append(styles, text.Style{
				Color: labelColour(cm, v), Font: labelFont,
				XAlign: draw.XCenter, YAlign: draw.YCenter, Handler: plot.DefaultTextHandler,
			})
		}
	}
	lab, err := plotter.NewLabels(labels)
	if err != nil {
		return nil, nil, err
	}
	lab.TextStyle = styles
	return z, lab, nil
}

// heatAxes names the columns along x and the rows down y, first row on top.
func heatAxes(p *plot.Plot, rows, cols []any) {
	colNames := make([]string, len(cols))
	for j, cv := range cols {
		colNames[j] = paramString(cv)
	}
	rowNames := make([]string, len(rows))
	for i, rv := range rows {
		rowNames[len(rows)-1-i] = paramString(rv)
	}
	p.NominalX(colNames...)
	p.NominalY(rowNames...)
	p.X.Padding, p.Y.Padding = 0, 0
	slantIfCrowded(&p.X.Tick.Label, colNames, plotW-colourBarWidth-3*vg.Centimeter)
	roomForTickLabels(p, colNames)
}

// labelColour picks black or white text, whichever stands out on the cell.
func labelColour(cm pal.ColorMap, v float64) color.Color {
	if math.IsNaN(v) || v < cm.Min() || v > cm.Max() {
		return color.Black
	}
	c, err := cm.At(v)
	if err != nil {
		return color.Black
	}
	r, g, b, _ := c.RGBA()
	// Relative luminance (ITU-R BT.709 weights) of the 16-bit channels.
	lum := (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
	if lum < 0.45 {
		return color.White
	}
	return color.Black
}

// crowded reports whether names set side by side in style st would not fit
// in width, or nearly not: then they are better slanted.
func crowded(st text.Style, names []string, width vg.Length) bool {
	if len(names) == 0 {
		return false
	}
	var total vg.Length
	for _, n := range names {
		total += st.Width(n) + 0.4*vg.Centimeter
	}
	widest := slices.MaxFunc(names, func(a, b string) int { return int(st.Width(a) - st.Width(b)) })
	return total > width || st.Width(widest)+0.2*vg.Centimeter > width/vg.Length(len(names))
}

// slantIfCrowded slants tick labels that would crowd each other in width.
func slantIfCrowded(st *text.Style, names []string, width vg.Length) {
	if crowded(*st, names, width) {
		st.Rotation = math.Pi / 6
		st.XAlign = draw.XRight
		st.YAlign = draw.YTop
	}
}

// colourBar draws a colour map's scale as a vertical stack of filled
// bands. plotter.ColorBar draws a one-pixel-wide image instead, which
// browsers showing the SVG keep at its aspect ratio: a thin line.
type colourBar struct{ cm pal.ColorMap }

// colourBarSteps is how many bands the bar is drawn with: enough that
// neighbours differ by less than the eye sees.
const colourBarSteps = 64

func (b colourBar) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, 1, b.cm.Min(), b.cm.Max()
}

func (b colourBar) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	lo, hi := b.cm.Min(), b.cm.Max()
	step := (hi - lo) / colourBarSteps
	for i := range colourBarSteps {
		y0 := lo + float64(i)*step
		col, err := b.cm.At(math.Min(hi, y0+step/2))
		if err != nil {
			continue
		}
		// Each band reaches the top and the next is painted over it, so
		// no anti-aliased seam shows between bands.
		pts := []vg.Point{
			{X: trX(0), Y: trY(y0)}, {X: trX(1), Y: trY(y0)},
			{X: trX(1), Y: trY(hi)}, {X: trX(0), Y: trY(hi)},
		}
		c.FillPolygon(col, c.ClipPolygonXY(pts))
	}
}
