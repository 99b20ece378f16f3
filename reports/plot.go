package reports

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"hammersim/sim"
)

// palette is the Tableau 10 colour set: distinct, and readable by most
// colour-blind readers.
var palette = []color.RGBA{
	{0x4e, 0x79, 0xa7, 0xff}, {0xf2, 0x8e, 0x2b, 0xff}, {0xe1, 0x57, 0x59, 0xff}, {0x76, 0xb7, 0xb2, 0xff},
	{0x59, 0xa1, 0x4f, 0xff}, {0xed, 0xc9, 0x48, 0xff}, {0xb0, 0x7a, 0xa1, 0xff}, {0xff, 0x9d, 0xa7, 0xff},
	{0x9c, 0x75, 0x5f, 0xff}, {0xba, 0xb0, 0xac, 0xff},
}

func colour(i int) color.RGBA { return palette[i%len(palette)] }

// Plot size: 20 cm by 12.5 cm (756 by 472 pixels in PNG), large enough to
// read a legend of several lines and the labels of a dozen bars.
var plotW, plotH = 20 * vg.Centimeter, 12.5 * vg.Centimeter

// dataArea is the part of a figure of the plot size that p's data is drawn
// in, as it stands. gonum's DataCanvas, which measures it, also settles the
// axes' ranges as if for drawing: an axis with no data yet becomes -1 to 1,
// and data added later only widens that, so a bar chart measured before its
// bars would start its y axis at -1. The ranges are kept as they were.
func dataArea(p *plot.Plot) draw.Canvas {
	x, y := [2]float64{p.X.Min, p.X.Max}, [2]float64{p.Y.Min, p.Y.Max}
	area := p.DataCanvas(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: plotW, Y: plotH}}})
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = x[0], x[1], y[0], y[1]
	return area
}

// Plots is what WritePlots did: the files written, and what it left out and
// why.
type Plots struct {
	Files []string
	Notes []string
}

// figure is one image: a plot, or a plot with a colour bar beside it.
// *plot.Plot is one.
type figure interface {
	Draw(c draw.Canvas)
}

// namedFigure is a figure with the file name (without extension) it is
// saved under and a caption for documents.
type namedFigure struct {
	name    string
	caption string
	fig     figure
}

// WritePlots writes the report's plots into dir, each as PNG and SVG:
//   - for the grid metric, when its rows are numbers (a charge sweep's
//     distances), the estimate against the row value with one line per
//     column value (M), its 95% interval as a band and its exact value as
//     a ring, one plot per combination of the other parameters, cut into
//     runs of column values where they are more than MaxLines;
//   - for the grid metric, when its rows are names (attackers), a heatmap of
//     rows by columns (targets), each cell coloured by the estimate and
//     labelled with it, again one per combination of the other parameters;
//   - for each other metric, its figures (metricplot.go): "at least N"
//     curves for a counted outcome, a line per point; else the estimate
//     against the first swept number, or grouped bars; split into several
//     whole figures where there are more than MaxLines series
//     (plotsplit.go).
func WritePlots(dir string, r *sim.Report) (Plots, error) {
	return commitPlots(func(files *Files) (Plots, error) { return StagePlots(files, dir, r) })
}

// StagePlots is WritePlots preparing its files in files, which the caller
// commits with its other outputs.
func StagePlots(files *Files, dir string, r *sim.Report) (Plots, error) {
	figs, notes, err := reportFigures(r, files.check)
	out := Plots{Notes: notes}
	if err != nil {
		return out, err
	}
	err = saveAll(files, dir, figs, []string{"png", "svg"}, &out)
	return out, err
}

// commitPlots runs stage on a set of files of its own and commits them.
func commitPlots(stage func(*Files) (Plots, error)) (Plots, error) {
	var files Files
	out, err := stage(&files)
	if err != nil {
		files.Discard()
		return Plots{Notes: out.Notes}, err
	}
	return out, files.Commit()
}

// reportFigures builds the report's plots, in the order WritePlots writes
// them, with notes on what it left out. HTML and Markdown reports render
// the same figures. It consults stop before each metric and each figure
// (a large sweep's plots take tens of seconds).
func reportFigures(r *sim.Report, stop func() error) ([]namedFigure, []string, error) {
	var figs []namedFigure
	var notes []string
	rest := r.Results
	if g := r.Grid; g != nil {
		var slices []slice
		slices, rest = gridSlices(r, g)
		lines := numeric(axisValues(r, g.Rows))
		lo, hi := heatRange(slices)
		if lines {
			slices = columnRuns(r, g, slices)
		}
		for _, s := range slices {
			if err := stop(); err != nil {
				return nil, notes, err
			}
			var fig figure
			var err error
			caption := gridTitle(g, s)
			if lines {
				fig, err = gridPlot(r, g, s)
			} else {
				fig, err = heatmap(r, g, s, lo, hi)
				caption = "heatmap of " + caption
			}
			if err != nil {
				return nil, notes, err
			}
			figs = append(figs, namedFigure{name: fileName(g.Metric, s.label), caption: caption, fig: fig})
		}
	}
	for _, metric := range metrics(r, rest) {
		if err := stop(); err != nil {
			return nil, notes, err
		}
		mf, note, err := metricFigures(r, metric, rest, stop)
		if err != nil {
			return nil, notes, err
		}
		if note != "" {
			notes = append(notes, note)
		}
		figs = append(figs, mf...)
	}
	distinctNames(figs)
	if r.Partial {
		markPartial(figs)
	}
	return figs, notes, nil
}

// partialMark opens the title and caption of every figure of an
// interrupted run, so that a plot read alone still says it is partial.
const partialMark = "PARTIAL (interrupted): "

// markPartial marks each figure as drawn from partial results.
func markPartial(figs []namedFigure) {
	for i := range figs {
		figs[i].caption = partialMark + figs[i].caption
		switch f := figs[i].fig.(type) {
		case *plot.Plot:
			f.Title.Text = partialMark + f.Title.Text
		case withColourBar:
			f.main.Title.Text = partialMark + f.main.Title.Text
		}
	}
}

// distinctNames keeps each figure's file name its own. Values that differ
// only in what a file name cannot hold ("a/b" and "a:b" both give "a-b")
// or in case (on a disk that ignores it) would otherwise write one figure
// over another: a name already taken gets "_2", "_3" and so on, the
// figure's title still saying what it holds.
func distinctNames(figs []namedFigure) {
	taken := map[string]bool{}
	for i := range figs {
		name := figs[i].name
		for n := 2; taken[strings.ToLower(name)]; n++ {
			name = figs[i].name + "_" + strconv.Itoa(n)
		}
		taken[strings.ToLower(name)] = true
		figs[i].name = name
	}
}

func numeric(vs []any) bool {
	if len(vs) == 0 {
		return false
	}
	for _, v := range vs {
		if _, ok := v.(int); !ok {
			return false
		}
	}
	return true
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9_.=+-]+`)

// maxFileName bounds a plot's file name without its extension, in bytes
// (every byte of it is ASCII): far below the 255 most file systems allow
// a name, so that long unit names swept in a scenario never make a run
// fail at the end, when its plots are written.
const maxFileName = 120

// fileName makes a file name (without extension) from a metric and a label
// such as "M=7, swiftstride=true". A name past maxFileName keeps its start
// and ends in a digest of the whole, so that names that differ stay apart.
func fileName(metric, label string) string {
	name := metric
	if label != "" {
		label = strings.ReplaceAll(label, ", ", "_")
		name = metric + "_" + strings.Trim(unsafeChars.ReplaceAllString(label, "-"), "-")
	}
	if len(name) <= maxFileName {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	return name[:maxFileName-17] + "-" + hex.EncodeToString(sum[:8])
}

// render draws a figure at the plot size in a format gonum/plot knows
// ("png", "svg"), its title wrapped to the width it is drawn across.
func render(f figure, format string) ([]byte, error) {
	c, err := draw.NewFormattedCanvas(plotW, plotH, format)
	if err != nil {
		return nil, err
	}
	var main *plot.Plot
	switch f := f.(type) {
	case *plot.Plot:
		main = f
		defer fitTitle(f, plotW)()
	case withColourBar:
		main = f.main
		defer fitTitle(f.main, plotW-colourBarWidth)()
	}
	// gonum/plot's tick placement never ends on an axis that runs to NaN
	// (one that runs to an infinity is one it was never given, which it
	// draws as 0 to 1): such a figure is an error, not a hang.
	if main != nil {
		for _, v := range []float64{main.X.Min, main.X.Max, main.Y.Min, main.Y.Max} {
			if math.IsNaN(v) {
				return nil, fmt.Errorf("plot %q: an axis runs to %v, which cannot be drawn", main.Title.Text, v)
			}
		}
	}
	f.Draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// titleMargin is the room left at each side of a title.
const titleMargin = 0.3 * vg.Centimeter

// fitTitle wraps p's title at spaces into lines that fit width, less a
// margin at each side, as it is drawn: gonum/plot draws a title on one
// line, centred, and cuts off at both ends one wider than the figure (a
// long scenario and unit name, the note of a figure split into several).
// A word longer than a line stands alone on its own. It returns what puts
// the title back as it was, which captions and file names read.
func fitTitle(p *plot.Plot, width vg.Length) (restore func()) {
	title := p.Title.Text
	p.Title.Text = wrapTo(p.Title.TextStyle, title, width-2*titleMargin)
	return func() { p.Title.Text = title }
}

// wrapTo breaks s at spaces into lines no wider than width in style st,
// but where one word is wider.
func wrapTo(st text.Style, s string, width vg.Length) string {
	if st.Width(s) <= width {
		return s
	}
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case st.Width(line+" "+w) <= width:
			line += " " + w
		default:
			lines, line = append(lines, line), w
		}
	}
	return strings.Join(append(lines, line), "\n")
}

// saveAll prepares each figure in files, in dir (made if missing) and in
// each format, adding the files to out.
func saveAll(files *Files, dir string, figs []namedFigure, formats []string, out *Plots) error {
	if len(figs) > 0 {
		if err := files.MkdirAll(dir); err != nil {
			return err
		}
	}
	for _, f := range figs {
		for _, ext := range formats {
			data, err := render(f.fig, ext)
			if err != nil {
				return err
			}
			path := filepath.Join(dir, f.name+"."+ext)
			if err := files.Add(path, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
				return err
			}
			out.Files = append(out.Files, path)
		}
	}
	return nil
}

// roomForTickLabels keeps slanted x tick labels whole: gonum/plot pads the
// data area for the labels' overhang on the right but not on the left,
// where the first label, slanted to end at its tick, would be cut off.
func roomForTickLabels(p *plot.Plot, labels []string) {
	if p.X.Tick.Label.Rotation != 0 {
		p.Add(tickLabelRoom{labels: labels, style: p.X.Tick.Label})
	}
}

// tickLabelRoom draws nothing; its glyph boxes are the widths of the
// nominal x axis' tick labels, which gonum/plot then keeps inside the
// figure.
type tickLabelRoom struct {
	labels []string
	style  text.Style
}

func (tickLabelRoom) Plot(draw.Canvas, *plot.Plot) {}

func (t tickLabelRoom) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	boxes := make([]plot.GlyphBox, len(t.labels))
	for i, l := range t.labels {
		r := t.style.Rectangle(l)
		r.Min.Y, r.Max.Y = 0, 0 // widths only: the axis makes room below
		boxes[i] = plot.GlyphBox{X: p.X.Norm(float64(i)), Rectangle: r}
	}
	return boxes
}

// newPlot starts a figure whose numeric axes are labelled by numberTicks;
// figures of probabilities, whole numbers or names set their own.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.X.Tick.Marker, p.Y.Tick.Marker = numberTicks{}, numberTicks{}
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Add(plotter.NewGrid())
	return p
}

// columnRuns cuts each slice of a grid drawn as lines, a line per column
// value, into runs of at most MaxLines lines, of about equal length, as
// other metrics' figures are split (plotsplit.go): a sweep of M 1 to 20
// draws two figures, "M=1..10" and "M=11..20", rather than twenty lines
// whose colours come round again.
func columnRuns(r *sim.Report, g *sim.Grid, parts []slice) []slice {
	cols := axisValues(r, g.Cols)
	if len(cols) <= MaxLines {
		return parts
	}
	n := (len(cols) + MaxLines - 1) / MaxLines
	size := (len(cols) + n - 1) / n
	var out []slice
	for _, s := range parts {
		for start := 0; start < len(cols); start += size {
			run := cols[start:min(start+size, len(cols))]
			part := slice{label: joinNonEmpty(", ", s.label,
				g.Cols+"="+paramString(run[0])+".."+paramString(run[len(run)-1]))}
			for _, e := range s.estimates {
				if slices.ContainsFunc(run, func(v any) bool { return paramString(v) == paramString(e.Param(g.Cols)) }) {
					part.estimates = append(part.estimates, e)
				}
			}
			out = append(out, part)
		}
	}
	return out
}

// gridPlot draws one slice of a grid: x is the row parameter, one line per
// column value, with its Wilson interval as a shaded band and its exact
// value, where there is one, as a ring. Probabilities are in percent, as
// on every other plot.
func gridPlot(r *sim.Report, g *sim.Grid, s slice) (*plot.Plot, error) {
	name := metricTitle(g.Metric, s.estimates)
	title := r.Scenario + ": " + words(name)
	if s.label != "" {
		title += " (" + labelWords(s.label) + ")"
	}
	kind := sim.Probability
	if len(s.estimates) > 0 {
		kind = s.estimates[0].Kind
	}
	p := newPlot(title, axisWords(g.Rows), yLabel(kind, name))
	top := 0.0
	i := 0 // the lines drawn so far: each its own colour
	for _, cv := range axisValues(r, g.Cols) {
		var es []sim.Estimate
		for _, e := range s.estimates {
			if paramString(e.Param(g.Cols)) == paramString(cv) && !math.IsNaN(e.Value) {
				es = append(es, e)
				_, hi := ciBand(e)
				top = max(top, e.Value, hi)
			}
		}
		if len(es) == 0 {
			continue
		}
		l, err := addSeriesLine(p, es, g.Rows, i)
		if err != nil {
			return nil, err
		}
		i++
		p.Legend.Add(words(g.Cols)+" "+paramString(cv), l)
	}
	legendExact(p, hasExact(s.estimates))
	p.X.Tick.Marker = wholeTicks{}
	padX(p)
	// Charge curves fall from 100% on the left to 0 on the right, which
	// leaves the bottom left free for the legend on a full percent axis.
	// Other curves (a small chance, rising lines) get the legend top right
	// above the data, on an axis fitted to it.
	if kind == sim.Probability {
		p.Y.Tick.Marker = cappedPercentTicks{}
		p.Y.Min, p.Y.Max = 0, 1.04
		p.Legend.Top, p.Legend.Left = false, true
		p.Legend.XOffs = vg.Millimeter * 3
		if bottomLeftFree(p, s.estimates, g.Rows) {
			return p, nil
		}
	}
	p.Legend.Left, p.Legend.XOffs = false, 0
	legendInside(p)
	yRange(p, kind, top)
	return p, nil
}

// bottomLeftFree reports whether no estimate or interval of es (x being
// their parameter along the axis) lies under a legend in the bottom left
// corner of p.
func bottomLeftFree(p *plot.Plot, es []sim.Estimate, x string) bool {
	area := dataArea(p)
	size := p.Legend.Rectangle(area).Size()
	right := p.X.Min + float64((size.X+p.Legend.XOffs+vg.Millimeter*3)/area.Size().X)*(p.X.Max-p.X.Min)
	above := p.Y.Min + float64((size.Y+vg.Millimeter*3)/area.Size().Y)*(p.Y.Max-p.Y.Min)
	for _, e := range es {
		lo, _ := ciBand(e)
		if v, ok := e.Param(x).(int); ok && float64(v) <= right && !math.IsNaN(e.Value) && lo <= above {
			return false
		}
	}
	return true
}

// labelWords turns a label of parameters ("Stormvermin.distance=4,
// swiftstride=true") into words for a title ("Stormvermin's distance 4",
// swiftstride true"), as a legend says them (valueWords).
func labelWords(label string) string {
	parts := strings.Split(label, ", ")
	for i, part := range parts {
		if name, v, ok := strings.Cut(part, "="); ok {
			parts[i] = valueWords(name, v)
		}
	}
	return strings.Join(parts, ", ")
}

// ciBand is an estimate's 95% interval as a figure draws it: one that has
// none (a mean over one trial) is drawn as its value alone.
func ciBand(e sim.Estimate) (lo, hi float64) {
	if math.IsNaN(e.CI95[0]) || math.IsNaN(e.CI95[1]) {
		return e.Value, e.Value
	}
	return e.CI95[0], e.CI95[1]
}
