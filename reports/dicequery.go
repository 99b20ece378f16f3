package reports

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"hammersim/mechanics/dice"
	"hammersim/sim"
)

// Condition is the answer to a dice condition ("2D6 >= 9 and D6 = 6"), as
// `simulate dice` shows it: its exact probability and, when a simulation
// ran, the share of trials in which it held.
type Condition struct {
	Title string
	Exact float64
	// NoExact, when set, says why Exact is missing: the simulation alone
	// answers.
	NoExact string
	// Sim, when set, counts the trials in which the condition held (the
	// value 1) and failed (0).
	Sim     *sim.Histogram
	Seed    uint64
	Trials  int64
	Partial bool
}

// estimate is the simulated probability, with its interval and its
// distance from the exact value.
func (c Condition) estimate() sim.Estimate {
	e := sim.ProbabilityOf("", nil, c.Sim.Count(1), c.Sim.N())
	if c.NoExact != "" {
		return e
	}
	return e.WithExact(c.Exact)
}

// exact is the exact probability for the reports, NaN when there is none.
func (c Condition) exact() float64 {
	if c.NoExact != "" {
		return math.NaN()
	}
	return c.Exact
}

// DiceFormats are the output formats of `simulate dice`.
var DiceFormats = []string{"table", "json", "csv", "markdown"}

// WriteCondition writes a condition's answer in a format of DiceFormats.
func WriteCondition(w io.Writer, c Condition, format string) error {
	switch format {
	case "json":
		return writeConditionJSON(w, c)
	case "csv":
		return writeConditionCSV(w, c)
	case "markdown":
		return writeConditionMarkdown(w, c)
	}
	ew := &ErrWriter{W: w}
	fmt.Fprintln(ew, c.Title)
	if c.NoExact != "" {
		fmt.Fprintln(ew, wrapText(c.NoExact, TerminalWidth))
	} else {
		fmt.Fprintf(ew, "exact: %s (%s)%s\n", pct(c.Exact), strconv.FormatFloat(c.Exact, 'g', 10, 64), oneIn(c.Exact))
	}
	if c.Sim != nil {
		e := c.estimate()
		if c.NoExact != "" {
			fmt.Fprintf(ew, "simulated: %s (95%% CI %s to %s)%s; %s, seed %d\n",
				pct(e.Value), pct(e.CI95[0]), pct(e.CI95[1]), oneIn(e.Value), trialCount(c.Trials), c.Seed)
			fmt.Fprintln(ew, wrapText("The true chance lies within the 95% interval about 19 times in 20.", TerminalWidth))
			return ew.Err
		}
		fmt.Fprintf(ew, "simulated: %s (95%% CI %s to %s, z %s); %s, seed %d\n",
			pct(e.Value), pct(e.CI95[0]), pct(e.CI95[1]), zString(e), trialCount(c.Trials), c.Seed)
		fmt.Fprintln(ew, wrapText("The exact value lies within the 95% interval about 19 times in 20; z counts the standard errors between them.", TerminalWidth))
	}
	return ew.Err
}

// oneIn phrases a probability as players say it: ", about 1 in 4". Past a
// million it gives three significant figures ("1 in 6.05e+07"): written
// out in full, 1/p would show digits no float64 holds (6^100 has 78).
func oneIn(p float64) string {
	if p <= 0 || p > 0.5 {
		return ""
	}
	if 1/p >= 1e6 {
		return fmt.Sprintf(", about 1 in %s", strconv.FormatFloat(1/p, 'g', 3, 64))
	}
	return fmt.Sprintf(", about 1 in %s", strconv.FormatFloat(1/p, 'f', 1, 64))
}

// writeConditionJSON writes
//
//	{"query": "2D6 >= 9", "kind": "condition", "exact": 0.2777...,
//	 "simulated": {"trials": 1000000, "seed": 1, "partial": false,
//	   "estimate": 0.2779, "ci95": [0.2770, 0.2788], "z": 0.4}}
//
// with "simulated" only when a simulation ran.
func writeConditionJSON(w io.Writer, c Condition) error {
	var b bytes.Buffer
	o := object{b: &b}
	o.put("query", plainStr(c.Title))
	o.put("kind", str("condition"))
	o.put("exact", num(c.exact()))
	if c.NoExact != "" {
		o.put("no_exact", str(c.NoExact))
	}
	if c.Sim != nil {
		o.put("simulated", simulatedJSON(c.Trials, c.Seed, c.Partial, "estimate", c.estimate()))
	}
	_, err := fmt.Fprintf(w, "{%s}\n", b.String())
	return err
}

// simulatedJSON is the "simulated" member of a dice query's JSON: the
// run's trials, seed and whether it was cut short, then its estimate e
// (under key), e's interval and its z against the exact value.
func simulatedJSON(trials int64, seed uint64, partial bool, key string, e sim.Estimate) string {
	var s bytes.Buffer
	so := object{b: &s}
	so.put("trials", strconv.FormatInt(trials, 10))
	so.put("seed", strconv.FormatUint(seed, 10))
	so.put("partial", strconv.FormatBool(partial))
	so.put(key, num(e.Value))
	so.put("ci95", pairJSON(e.CI95))
	so.put("z", zJSON(e))
	return "{" + s.String() + "}"
}

func writeConditionCSV(w io.Writer, c Condition) error {
	cw := csv.NewWriter(w)
	head := []string{"query", "exact"}
	row := []string{c.Title, csvNum(c.exact())}
	if c.Sim != nil {
		e := c.estimate()
		head = append(head, "trials", "seed", "partial", "estimate", "ci95_low", "ci95_high", "z")
		row = append(row, strconv.FormatInt(c.Trials, 10), strconv.FormatUint(c.Seed, 10), strconv.FormatBool(c.Partial),
			num(e.Value), num(e.CI95[0]), num(e.CI95[1]), zCSV(e))
	}
	cw.Write(head)
	cw.Write(row)
	cw.Flush()
	return cw.Error()
}

func writeConditionMarkdown(w io.Writer, c Condition) error {
	ew := &ErrWriter{W: w}
	fmt.Fprintf(ew, "# %s\n\n", mdCode(c.Title))
	head := []string{"exact"}
	row := []string{pct(c.Exact)}
	if c.NoExact != "" {
		row[0] = "none (simulated only)"
	}
	if c.Sim != nil {
		e := c.estimate()
		head = append(head, "simulated", "95% CI", "z", "trials", "seed")
		row = append(row, pct(e.Value), pct(e.CI95[0])+" to "+pct(e.CI95[1]), zString(e), GroupThousands(c.Trials), strconv.FormatUint(c.Seed, 10))
	}
	mdTable(ew, head, alignment(0, len(head), 0), [][]string{row})
	return ew.Err
}

// WriteDistributionAs writes a distribution in a format of DiceFormats;
// "table" is WriteDistribution.
func WriteDistributionAs(w io.Writer, d Distribution, format string) error {
	switch format {
	case "json":
		return writeDistributionJSON(w, d)
	case "csv", "markdown":
		return writeDistributionRows(w, d, format)
	}
	return WriteDistribution(w, d)
}

// distRow is one possible value of a distribution with its exact chances
// and, after a simulation, its frequency.
type distRow struct {
	value                 int
	label                 string
	exact, atLeast, atMos float64
	sim                   sim.Estimate
}

// distRows lists the values that can come up, in increasing order.
func distRows(d Distribution) []distRow {
	var rows []distRow
	// Both tails are summed from their own end, so that each stays exact
	// where it is small; a tail past one half is 1 less the other, whose
	// rounding is smaller (2D6's "at least 3" is then 35/36 to the last
	// digit).
	if d.Exact == nil && d.Sim != nil {
		return simulatedRows(d)
	}
	// Compensated sums (Neumaier's), so that the many equal terms of D66
	// do not gather rounding.
	above := make([]float64, len(d.Exact)+1) // above[i]: P(X >= Min+i)
	var up dice.CompSum
	for i := len(d.Exact) - 1; i >= 0; i-- {
		up.Add(d.Exact[i])
		above[i] = up.Value()
	}
	below := make([]float64, len(d.Exact)+1) // below[i]: P(X < Min+i)
	var down dice.CompSum
	for i, p := range d.Exact {
		down.Add(p)
		below[i+1] = down.Value()
	}
	tail := func(t, other float64) float64 {
		if t > other {
			return 1 - other
		}
		return math.Min(1, t)
	}
	var n int64
	if d.Sim != nil {
		n = d.Sim.N() // once: it sums the whole histogram
	}
	for i, p := range d.Exact {
		v := d.Min + i
		if p == 0 {
			continue
		}
		r := distRow{value: v, label: strconv.Itoa(v), exact: p, atLeast: tail(above[i], below[i]), atMos: tail(below[i+1], above[i+1])}
		if d.Label != nil {
			r.label = d.Label(v)
		}
		if d.Sim != nil {
			r.sim = sim.ProbabilityOf("", nil, d.Sim.Count(v), n).WithExact(p)
		}
		rows = append(rows, r)
	}
	if len(rows) > 0 {
		// Certain, and so exactly 1 rather than a sum's rounding of it.
		rows[0].atLeast, rows[len(rows)-1].atMos = 1, 1
	}
	return rows
}

// writeDistributionJSON writes
//
//	{"query": "2D6", "kind": "distribution", "mean": 7, "sd": 2.41,
//	 "values": [{"value": 2, "label": "2", "exact": 0.0277, "at_least": 1,
//	   "at_most": 0.0277, "simulated": 0.028, "ci95": [...]}, ...],
//	 "simulated": {"trials": 1000000, "seed": 1, "partial": false,
//	   "mean": 7.001, "ci95": [...]}}
//
// values hold only what can come up; "simulated" keys are there only when
// a simulation ran; "note" (after "kind") only when some chances are too
// small to hold (rareNote).
func writeDistributionJSON(w io.Writer, d Distribution) error {
	var b bytes.Buffer
	o := object{b: &b}
	o.put("query", plainStr(d.Title))
	o.put("kind", str("distribution"))
	if d.NoExact != "" {
		o.put("no_exact", str(d.NoExact))
	}
	if n := rareNote(d); n != "" {
		o.put("note", str(n))
	}
	mean, sd := distMoments(d)
	o.put("mean", num(mean))
	o.put("sd", num(sd))
	b.WriteString(`, "values": [`)
	for i, r := range distRows(d) {
		if i > 0 {
			b.WriteString(",")
		}
		var v bytes.Buffer
		vo := object{b: &v}
		vo.put("value", strconv.Itoa(r.value))
		vo.put("label", plainStr(r.label))
		vo.put("exact", num(r.exact))
		vo.put("at_least", num(r.atLeast))
		vo.put("at_most", num(r.atMos))
		if d.Sim != nil {
			vo.put("simulated", num(r.sim.Value))
			vo.put("ci95", pairJSON(r.sim.CI95))
		}
		fmt.Fprintf(&b, "\n  {%s}", v.String())
	}
	b.WriteString("\n]")
	if d.Sim != nil {
		m := simulatedMean(d)
		o.n++
		fmt.Fprintf(&b, `, "simulated": %s`, simulatedJSON(d.Trials, d.Seed, d.Partial, "mean", m))
	}
	_, err := fmt.Fprintf(w, "{%s}\n", b.String())
	return err
}

// distMoments returns the exact mean and standard deviation, NaN when
// there is no exact distribution. A mean within rounding of 0 (a sum's
// last bits, for a law symmetric about 0 such as D6 - D6's) is 0, so that
// it does not print as -0.0000.
func distMoments(d Distribution) (mean, sd float64) {
	if d.Exact == nil {
		if d.Moments != nil {
			return d.Moments.Mean, d.Moments.SD
		}
		return math.NaN(), math.NaN()
	}
	for i, p := range d.Exact {
		mean += p * float64(d.Min+i)
	}
	if scale := math.Max(math.Abs(float64(d.Min)), math.Abs(float64(d.Min+len(d.Exact)-1))); math.Abs(mean) < 1e-12*scale {
		mean = 0
	}
	v := 0.0
	for i, p := range d.Exact {
		x := float64(d.Min+i) - mean
		v += p * x * x
	}
	return mean, math.Sqrt(v)
}

// writeDistributionRows writes a distribution as CSV (probabilities as
// plain numbers) or a Markdown table (in percent).
func writeDistributionRows(w io.Writer, d Distribution, format string) error {
	head := []string{"value", "exactly", "at least", "at most"}
	if format == "csv" {
		head = []string{"query", "value", "label", "exact", "at_least", "at_most"}
	}
	if d.Sim != nil {
		if format == "csv" {
			head = append(head, "simulated", "ci95_low", "ci95_high", "trials", "seed", "partial")
		} else {
			head = append(head, "simulated", "95% CI", "z")
		}
	}
	var rows [][]string
	for _, r := range distRows(d) {
		if format == "csv" {
			row := []string{d.Title, strconv.Itoa(r.value), r.label, csvNum(r.exact), csvNum(r.atLeast), csvNum(r.atMos)}
			if d.Sim != nil {
				row = append(row, csvNum(r.sim.Value), csvNum(r.sim.CI95[0]), csvNum(r.sim.CI95[1]),
					strconv.FormatInt(d.Trials, 10), strconv.FormatUint(d.Seed, 10), strconv.FormatBool(d.Partial))
			}
			rows = append(rows, row)
			continue
		}
		row := []string{r.label, pct(r.exact), pct(r.atLeast), pct(r.atMos)}
		if d.Sim != nil {
			row = append(row, pct(r.sim.Value), pct(r.sim.CI95[0])+" to "+pct(r.sim.CI95[1]), zString(r.sim))
		}
		rows = append(rows, row)
	}
	if format == "csv" {
		cw := csv.NewWriter(w)
		cw.Write(head)
		cw.WriteAll(rows)
		return cw.Error()
	}
	ew := &ErrWriter{W: w}
	fmt.Fprintf(ew, "# %s\n\n", mdCode(d.Title))
	if d.NoExact != "" {
		fmt.Fprintf(ew, "%s\n\n", mdParagraph(d.NoExact))
	}
	mdTable(ew, head, alignment(1, len(head)-1, 0), rows)
	if d.Exact == nil {
		// Simulated only: the simulation's mean, as the table format gives
		// it, against the exact mean where that is known.
		if d.Moments != nil {
			fmt.Fprintf(ew, "\nExact mean %.4f, sd %.4f.\n", d.Moments.Mean, d.Moments.SD)
		}
		if d.Sim != nil && d.Sim.N() > 0 {
			fmt.Fprintf(ew, "\nSimulated %s.\n", meanSummary(simulatedMean(d), d.Moments != nil, d.Trials, d.Seed))
		}
		return ew.Err
	}
	mean, sd := distMoments(d)
	note := ""
	if d.MeanNote != "" {
		note = " (" + d.MeanNote + ")"
	}
	fmt.Fprintf(ew, "\nExact mean %.4f, sd %.4f%s.\n", mean, sd, note)
	if n := rareNote(d); n != "" {
		fmt.Fprintf(ew, "\n%s\n", mdParagraph(n))
	}
	if d.Sim != nil {
		// As the table format gives it.
		m := simulatedMean(d)
		fmt.Fprintf(ew, "\nSimulated %s.\n", meanSummary(m, true, d.Trials, d.Seed))
	}
	return ew.Err
}

// StageDicePlot prepares the plot of a dice answer in files, for dir, as
// PNG and SVG named name: for a distribution (c nil), the exact chance of
// each value as bars and of "at least" each value as a line, with the
// simulated frequencies as points when a simulation ran; for a condition
// (d nil), its exact chance as a bar beside the simulated one with its
// interval.
func StageDicePlot(files *Files, dir, name string, d *Distribution, c *Condition) (Plots, error) {
	var fig *plot.Plot
	var err error
	if d != nil {
		fig, err = distributionFigure(*d)
	} else {
		fig, err = conditionFigure(*c)
	}
	var out Plots
	if err != nil {
		return out, err
	}
	err = saveAll(files, dir, []namedFigure{{name: name, caption: fig.Title.Text, fig: fig}}, []string{"png", "svg"}, &out)
	return out, err
}

func distributionFigure(d Distribution) (*plot.Plot, error) {
	p := newPlot(d.Title, "result", "chance")
	// Room above 100% for the legend, clear of the "at least" line.
	p.Y.Min, p.Y.Max = 0, 1.3
	p.Y.Tick.Marker = cappedPercentTicks{}
	rows := distRows(d)
	atLeast := make(plotter.XYs, len(rows))
	var simulated plotter.XYs
	for i, r := range rows {
		atLeast[i] = plotter.XY{X: float64(r.value), Y: r.atLeast}
		if d.Sim != nil {
			simulated = append(simulated, plotter.XY{X: float64(r.value), Y: r.sim.Value})
		}
	}
	vals := make(plotter.Values, len(d.Exact))
	copy(vals, d.Exact)
	width := vg.Length(float64(plotW) * 0.6 / float64(len(vals)+1))
	bars, err := plotter.NewBarChart(vals, width)
	if err != nil {
		return nil, err
	}
	bars.XMin = float64(d.Min)
	bars.Color = colour(0)
	bars.LineStyle.Width = 0
	line, err := plotter.NewLine(atLeast)
	if err != nil {
		return nil, err
	}
	line.Color = colour(1)
	line.Width = vg.Points(2)
	// A step at each result: "at least x" holds its value from one
	// possible result to the next (D66's 17 to 20 are flat), not a slope.
	line.StepStyle = plotter.PreStep
	p.Add(bars, line)
	p.Legend.Add("exactly this result", bars)
	p.Legend.Add("at least this result", line)
	if simulated != nil {
		pts, err := plotter.NewScatter(simulated)
		if err != nil {
			return nil, err
		}
		pts.Color = colour(2)
		pts.Shape = draw.CrossGlyph{}
		pts.Radius = vg.Points(3)
		p.Add(pts)
		p.Legend.Add("simulated (exactly this result)", pts)
	}
	p.Legend.Top = true
	p.Legend.XOffs = -vg.Millimeter * 3
	if len(rows) <= 20 {
		p.X.Tick.Marker = valueTicks{rows: rows}
	} else {
		p.X.Tick.Marker = wholeTicks{}
	}
	// Half a bar's room beyond the first and last values.
	p.X.Min, p.X.Max = float64(d.Min)-0.7, float64(d.Min+len(d.Exact)-1)+0.7
	return p, nil
}

// valueTicks labels each possible result (with its name, such as Misfire).
type valueTicks struct{ rows []distRow }

func (t valueTicks) Ticks(lo, hi float64) []plot.Tick {
	out := make([]plot.Tick, len(t.rows))
	for i, r := range t.rows {
		out[i] = plot.Tick{Value: float64(r.value), Label: r.label}
	}
	return out
}

func conditionFigure(c Condition) (*plot.Plot, error) {
	p := newPlot(c.Title, "", "chance")
	p.Y.Min, p.Y.Max = 0, 1
	p.Y.Tick.Marker = percentTicks{}
	vals := plotter.Values{c.Exact}
	names := []string{"exact"}
	if c.Sim != nil {
		vals = append(vals, c.estimate().Value)
		names = append(names, "simulated")
	}
	bars, err := plotter.NewBarChart(vals, vg.Centimeter*2)
	if err != nil {
		return nil, err
	}
	bars.Color = colour(0)
	bars.LineStyle.Width = 0
	p.Add(bars)
	if c.Sim != nil {
		e := c.estimate()
		ci, err := plotter.NewYErrorBars(ciPoint{x: 1, y: e.Value, lo: e.Value - e.CI95[0], hi: e.CI95[1] - e.Value})
		if err != nil {
			return nil, err
		}
		ci.Color = colour(2)
		ci.LineStyle.Width = vg.Points(1.5)
		p.Add(ci)
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.8, float64(len(vals)-1)+0.8
	return p, nil
}

// ciPoint is one point with its interval, for error bars.
type ciPoint struct{ x, y, lo, hi float64 }

func (c ciPoint) Len() int                      { return 1 }
func (c ciPoint) XY(int) (float64, float64)     { return c.x, c.y }
func (c ciPoint) YError(int) (float64, float64) { return c.lo, c.hi }

// plainStr encodes a JSON string without escaping <, > and &, so that
// "2D6 >= 9" reads as written.
func plainStr(s string) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// cappedPercentTicks labels a probability axis in percent from 0 to 100%,
// leaving the room above and below for the legend and margins unlabelled.
type cappedPercentTicks struct{}

func (cappedPercentTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range (percentTicks{}).Ticks(max(lo, 0), min(hi, 1)) {
		if t.Value >= -1e-9 && t.Value <= 1+1e-9 {
			out = append(out, t)
		}
	}
	return out
}

// wholeTicks labels an axis of whole numbers every 1, 2, 5, 10, 20, ...
// so that about a dozen labels show.
type wholeTicks struct{}

func (wholeTicks) Ticks(lo, hi float64) []plot.Tick {
	step := 1.0
	for i := 0; (hi-lo)/step > 12; i++ {
		step *= []float64{2, 2.5, 2}[i%3]
	}
	var out []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		if v == 0 {
			v = 0 // not -0
		}
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return out
}
