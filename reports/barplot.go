package reports

import (
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"hammersim/sim"
)

// maxGroupLabel is the widest line of a bar chart's group name: a longer
// name is wrapped onto lines of a few words, at most maxGroupLines of them;
// a slanted name is at most maxSlantedLabel long. A name past these is
// shortened, ending in "…": the tables carry it whole, and a name of any
// length must leave the bars their room.
const (
	maxGroupLabel   = 4.5 * vg.Centimeter
	maxGroupLines   = 3
	maxSlantedLabel = 6 * vg.Centimeter
)

// groupAxis sets a bar chart's x axis: a group per name, from -0.6 to
// 0.4 past the last. Long names (units of a sweep) go on lines of a few
// words; where they would still print over each other, they slant instead,
// each on one line (slanted names of several lines would overlap); past
// their limits they are shortened in the middle. The names share the
// axis' width: the figure's less the y axis and its
// labels, whose tick labels (set once the bars are drawn, "100%") take up
// to 2 cm more. A chart of no parameter has one unnamed group.
func groupAxis(p *plot.Plot, group string, groups []string) {
	p.X.Min, p.X.Max = -0.6, float64(len(groups))-0.4
	labels := []string{""}
	if group != "" {
		axis := dataArea(p).Size().X - 2*vg.Centimeter
		labels = make([]string, len(groups))
		for i, g := range groups {
			labels[i] = groupLabel(p.X.Tick.Label, g)
		}
		if crowded(p.X.Tick.Label, labels, axis) {
			for i, g := range groups {
				labels[i] = shorten(p.X.Tick.Label, g, maxSlantedLabel)
			}
			slantIfCrowded(&p.X.Tick.Label, labels, axis)
		}
	}
	p.NominalX(labels...)
	roomForTickLabels(p, labels) // only slanted labels need room
	p.X.Min, p.X.Max = -0.6, float64(len(groups))-0.4
}

// groupLabel is a bar chart's group name on lines of a few words, at most
// maxGroupLines of them.
func groupLabel(st text.Style, name string) string {
	lines := strings.Split(wrapTo(st, name, maxGroupLabel), "\n")
	for i, l := range lines {
		lines[i] = shorten(st, l, maxGroupLabel)
	}
	if len(lines) > maxGroupLines {
		// The start and the end: names of one sweep often differ at the end.
		last := lines[len(lines)-1]
		lines = append(lines[:maxGroupLines-1], shorten(st, "… "+last, maxGroupLabel))
	}
	return strings.Join(lines, "\n")
}

// shorten returns s if it is at most width wide in st, else as much of
// its start and of its end as fits, with "…" between them: names of one
// sweep often differ only at the end.
func shorten(st text.Style, s string, width vg.Length) string {
	if st.Width(s) <= width {
		return s
	}
	rs := []rune(s)
	for n := len(rs) - 1; n > 0; n-- {
		head, tail := n-n/3, n/3 // two thirds of what is kept from the start
		t := strings.TrimRight(string(rs[:head]), " ") + "…" + strings.TrimLeft(string(rs[len(rs)-tail:]), " ")
		if st.Width(t) <= width {
			return t
		}
	}
	return "…"
}

// barFigure draws the estimates as grouped bars: a group per value of the
// first varying parameter, a bar per combination of the others, each with
// its 95% interval and, where there is one, its exact value.
func barFigure(title, metric string, rows []sim.Estimate) (*plot.Plot, error) {
	kind := rows[0].Kind
	varying := varyingParams(rows)
	group := ""
	if len(varying) > 0 {
		group = varying[0]
	}
	p := newPlot(title, axisWords(group), yLabel(kind, metric))
	var groups, series []string
	at := map[[2]string]sim.Estimate{}
	top := 0.0
	for _, e := range rows {
		if !math.IsNaN(e.Value) {
			_, hi := ciBand(e)
			top = max(top, e.Value, hi)
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
		at[[2]string{g, s}] = e
	}
	// The axis first: the room its group names take is the room the bars
	// do not have, so the bars share what is left of the figure's width.
	groupAxis(p, group, groups)
	area := dataArea(p)
	width := max(vg.Length(float64(area.Size().X)*0.7/float64(len(groups)*len(series)+len(groups))), vg.Points(1))
	fill := colour
	if pairedSeries(rows, varying, series) {
		fill = pairColour
	}
	exact := false
	for i, s := range series {
		marks := barMarks{width: width}
		vals := make(plotter.Values, len(groups))
		for j, g := range groups {
			e, ok := at[[2]string{g, s}]
			// A point with no trial to count (a combat result where no
			// combat was fought) has no bar, but keeps its exact value's
			// mark, as the table keeps the exact value.
			ex := math.NaN()
			if ok && e.HasExact {
				ex, exact = e.Exact, true
			}
			if !ok || math.IsNaN(e.Value) {
				e = sim.Estimate{Value: math.NaN(), CI95: [2]float64{math.NaN(), math.NaN()}}
			}
			vals[j] = e.Value
			if math.IsNaN(vals[j]) {
				vals[j] = 0
			}
			marks.lo, marks.hi, marks.exact = append(marks.lo, e.CI95[0]), append(marks.hi, e.CI95[1]), append(marks.exact, ex)
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, err
		}
		bars.Color = fill(i)
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(float64(i)-float64(len(series)-1)/2) * width
		marks.offset = bars.Offset
		p.Add(bars, marks)
		if len(series) > 1 || s != "all trials" {
			p.Legend.Add(s, bars)
		}
	}
	if exact {
		p.Legend.Add("exact value", barMarks{width: width, exact: []float64{0}})
	}
	legendInside(p)
	yRange(p, kind, top)
	return p, nil
}

// pairedSeries reports whether the series come in pairs that differ only
// in their last parameter, which has two values (a battle's attacker and
// target, or with and without a rule), one pair after another.
func pairedSeries(rows []sim.Estimate, varying, series []string) bool {
	if len(varying) < 3 || len(series)%2 != 0 || len(series) > len(pairedPalette) {
		return false
	}
	last := varying[len(varying)-1]
	if countKeys(rows, []string{last}) != 2 {
		return false
	}
	outer := varying[1 : len(varying)-1]
	return countKeys(rows, outer)*2 == len(series) && slices.Equal(series, pairOrder(rows, varying[1:]))
}

// pairOrder lists the series of rows (by params) in order of first
// appearance, as barFigure does.
func pairOrder(rows []sim.Estimate, params []string) []string {
	var out []string
	outer := params[:len(params)-1]
	for _, k := range seriesKeys(rows, outer) {
		for _, e := range rows {
			if keyOf(e, outer) == k {
				if l := pointLabel(e, params); !slices.Contains(out, l) {
					out = append(out, l)
				}
			}
		}
	}
	return out
}

// pairedPalette is the Tableau 20 colour set: ten hues, each dark then
// light, so that the two bars of a pair share a hue.
var pairedPalette = []color.RGBA{
	{0x4e, 0x79, 0xa7, 0xff}, {0xa0, 0xcb, 0xe8, 0xff}, {0xf2, 0x8e, 0x2b, 0xff}, {0xff, 0xbe, 0x7d, 0xff},
	{0x59, 0xa1, 0x4f, 0xff}, {0x8c, 0xd1, 0x7d, 0xff}, {0xb6, 0x99, 0x2d, 0xff}, {0xf1, 0xce, 0x63, 0xff},
	{0x49, 0x98, 0x94, 0xff}, {0x86, 0xbc, 0xb6, 0xff}, {0xe1, 0x57, 0x59, 0xff}, {0xff, 0x9d, 0x9a, 0xff},
	{0x79, 0x70, 0x6e, 0xff}, {0xba, 0xb0, 0xac, 0xff}, {0xd3, 0x72, 0x95, 0xff}, {0xfa, 0xbf, 0xd2, 0xff},
	{0xb0, 0x7a, 0xa1, 0xff}, {0xd4, 0xa6, 0xc8, 0xff}, {0x9d, 0x76, 0x60, 0xff}, {0xd7, 0xb5, 0xa6, 0xff},
}

func pairColour(i int) color.RGBA { return pairedPalette[i%len(pairedPalette)] }

// barMarks draws over one series of bars each bar's 95% interval, a
// vertical line with caps, and its exact value, a dark line across the
// bar. Entries are by group; NaN where there is none.
type barMarks struct {
	lo, hi, exact []float64
	offset, width vg.Length
}

var (
	intervalStyle = draw.LineStyle{Color: color.Gray{Y: 0x30}, Width: vg.Points(1)}
	exactStyle    = draw.LineStyle{Color: color.Black, Width: vg.Points(2)}
)

func (b barMarks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i := range b.exact {
		x := trX(float64(i)) + b.offset
		if i < len(b.lo) && !math.IsNaN(b.lo[i]) && !math.IsNaN(b.hi[i]) {
			lo, hi, cap := trY(b.lo[i]), trY(b.hi[i]), b.width/4
			c.StrokeLine2(intervalStyle, x, lo, x, hi)
			c.StrokeLine2(intervalStyle, x-cap, lo, x+cap, lo)
			c.StrokeLine2(intervalStyle, x-cap, hi, x+cap, hi)
		}
		if !math.IsNaN(b.exact[i]) {
			y := trY(b.exact[i])
			c.StrokeLine2(exactStyle, x-b.width/2, y, x+b.width/2, y)
		}
	}
}

// DataRange includes the intervals in the axes' ranges.
func (b barMarks) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for i := range b.lo {
		for _, v := range []float64{b.lo[i], b.hi[i], b.exact[i]} {
			if !math.IsNaN(v) {
				ymin, ymax = min(ymin, v), max(ymax, v)
			}
		}
	}
	if ymin > ymax {
		ymin, ymax = 0, 0
	}
	return 0, float64(max(len(b.exact)-1, 0)), ymin, ymax
}

// Thumbnail draws the exact value's mark, for the legend.
func (b barMarks) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(exactStyle, c.Min.X, y, c.Max.X, y)
}
