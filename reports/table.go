package reports

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"hammersim/sim"
)

// Tables are laid out to fit a 100-column terminal for the built-in
// scenarios; cells are never wrapped, so long unit names widen a table
// rather than break its rows.

// WriteTable writes the report as terminal tables: the grid metric as
// grids, every other metric as a table with one row per point.
func WriteTable(w io.Writer, r *sim.Report) error {
	ew := &ErrWriter{W: w}
	for _, l := range header(r) {
		writeHeaderLine(ew, l, false)
	}
	rest := r.Results
	if g := r.Grid; g != nil {
		var err error
		rest, err = writeGrids(ew, r, g)
		if err != nil {
			return err
		}
	}
	for _, metric := range metrics(r, rest) {
		if err := writeLong(ew, metric, rest); err != nil {
			return err
		}
		for _, t := range atLeastTables(metric, rest, r.Axes) {
			if err := writePlainTable(ew, t); err != nil {
				return err
			}
		}
	}
	if len(r.Results) > 0 {
		fmt.Fprintf(ew, "\n%s\n", wrapText(readingNote(r.Results), TerminalWidth))
	}
	return ew.Err
}

// writeHeaderLine writes one line of a report's header, wrapped to the
// terminal, but for the reproduce command of a stamp line ("scenario
// sha256 ..., reproduce: CMD"), which is written as it is, to be copied
// whole: on a line of its own when split is set or the line is too wide,
// else after the rest. Wrapping would break it, and would also close up
// runs of spaces in a file's name.
func writeHeaderLine(w io.Writer, l string, split bool) {
	if strings.HasPrefix(l, "reproduce: ") {
		fmt.Fprintln(w, l)
		return
	}
	before, cmd, ok := strings.Cut(l, ", reproduce: ")
	if !ok || !strings.HasPrefix(l, "scenario sha256 ") {
		fmt.Fprintln(w, wrapText(l, TerminalWidth))
		return
	}
	if split || len(l) > TerminalWidth {
		fmt.Fprintf(w, "%s\nreproduce: %s\n", wrapText(before, TerminalWidth), cmd)
		return
	}
	fmt.Fprintf(w, "%s, reproduce: %s\n", wrapText(before, TerminalWidth), cmd)
}

// ErrWriter writes to W and keeps the first write error in Err, refusing
// every write after it, so that the many Fprintf calls of a report (or a
// command's help) need no checks of their own.
type ErrWriter struct {
	W   io.Writer
	Err error
}

// Write writes p to W unless an earlier write failed, and keeps the first
// error.
func (e *ErrWriter) Write(p []byte) (int, error) {
	if e.Err != nil {
		return 0, e.Err
	}
	n, err := e.W.Write(p)
	e.Err = err
	return n, err
}

// metrics lists the metrics of the report's estimates es (all of them,
// or some) in the order of the point that has the most (sim.MetricOrder).
func metrics(r *sim.Report, es []sim.Estimate) []string {
	axes := make([]string, len(r.Axes))
	for i, a := range r.Axes {
		axes[i] = a.Name
	}
	return sim.MetricOrder(es, axes)
}

// slice is the estimates of a grid that share the values of every
// parameter other than its rows and columns.
type slice struct {
	label     string // "swiftstride=true", or "" when nothing else varies
	estimates []sim.Estimate
}

// gridSlices splits the grid metric's estimates into slices, in order, and
// returns the other estimates untouched.
func gridSlices(r *sim.Report, g *sim.Grid) (slices []slice, rest []sim.Estimate) {
	var cells []sim.Estimate
	for _, e := range r.Results {
		if e.Metric != g.Metric || e.Param(g.Rows) == nil || e.Param(g.Cols) == nil {
			rest = append(rest, e)
			continue
		}
		cells = append(cells, e)
	}
	labels, groups := groupByOthers(cells, g.Rows, g.Cols)
	for i := range groups {
		slices = append(slices, slice{label: labels[i], estimates: groups[i]})
	}
	return slices, rest
}

// groupByOthers splits points by the values of every parameter but those
// named in skip, in order of first appearance, and labels each group with
// those values.
func groupByOthers(points []sim.Estimate, skip ...string) (labels []string, groups [][]sim.Estimate) {
	index := map[string]int{}
	for _, e := range points {
		var others []sim.Param
		for _, p := range e.Params {
			if !slices.Contains(skip, p.Name) {
				others = append(others, p)
			}
		}
		key := paramsString(others)
		i, ok := index[key]
		if !ok {
			i = len(groups)
			index[key] = i
			labels = append(labels, key)
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], e)
	}
	return labels, groups
}

func axisValues(r *sim.Report, name string) []any {
	for _, a := range r.Axes {
		if a.Name == name {
			return a.Values
		}
	}
	return nil
}

func writeGrids(w io.Writer, r *sim.Report, g *sim.Grid) ([]sim.Estimate, error) {
	slices, rest := gridSlices(r, g)
	rows, cols := axisValues(r, g.Rows), axisValues(r, g.Cols)
	for _, s := range slices {
		fmt.Fprintf(w, "\n%s\n", gridTitle(g, s))
		at := s.cells(g)
		var zero []string
		var kept [][]string
		for _, rv := range rows {
			line := []string{paramString(rv)}
			exactZero := true // no cell's exact value, where known, is above 0
			for _, cv := range cols {
				e, ok := at(rv, cv)
				line = append(line, gridNumber(e, ok))
				exactZero = exactZero && (!ok || !e.HasExact || e.Exact == 0)
			}
			if allZero(line[1:]) && exactZero {
				zero = append(zero, line[0])
				continue
			}
			kept = append(kept, line)
		}
		if len(kept) == 0 {
			// As a metric's table does (writeLong): no rows, no table.
			fmt.Fprintln(w, "0 at every point.")
			continue
		}
		unit := "in percent"
		if len(s.estimates) > 0 && s.estimates[0].Kind == sim.Mean {
			unit = "are means"
		}
		fmt.Fprintf(w, "estimates %s; intervals in the JSON and CSV outputs\n", unit)
		corner, colNames := gridHeader(g, cols)
		head := append([]string{corner}, colNames...)
		// Too many columns for the terminal are split into tables that
		// repeat the row labels.
		if err := writeChunked(w, plainTable{head: head, left: 1, rows: kept}); err != nil {
			return nil, err
		}
		if len(zero) > 0 {
			fmt.Fprintln(w, wrapText(trimNote(g.Rows, zero), TerminalWidth))
		}
		for _, n := range gridNotes(g, s, kept, cols) {
			fmt.Fprintln(w, wrapText(n, TerminalWidth))
		}
	}
	return rest, nil
}

// gridTitle names a slice of a grid and its unit: probabilities are shown
// in percent, means as they are.
func gridTitle(g *sim.Grid, s slice) string {
	unit := "%"
	if len(s.estimates) > 0 && s.estimates[0].Kind == sim.Mean {
		unit = "mean"
	}
	title := heading(g.Metric, metricTitle(g.Metric, s.estimates), unit)
	if s.label != "" {
		title += ", " + s.label
	}
	return title
}

// gridHeader returns the corner cell and the column headings of a grid.
// Names (attackers, targets) stand alone under a corner that names both
// parameters, "attacker \ target"; numbers and flags need the parameter's
// name beside them ("M 4").
func gridHeader(g *sim.Grid, cols []any) (corner string, names []string) {
	named := len(cols) > 0
	for _, c := range cols {
		if _, ok := c.(string); !ok {
			named = false
		}
	}
	for _, c := range cols {
		if named {
			names = append(names, paramString(c))
		} else {
			names = append(names, g.Cols+" "+paramString(c))
		}
	}
	if named {
		return g.Rows + " \\ " + g.Cols, names
	}
	return g.Rows, names
}

// gridNotes are the lines under a grid of s, whose rows are lines (each
// a row label and its cells as shown) and columns cols: what a dash
// means, what a per-100-points grid divides by, and how far its
// estimates lie from the exact values.
func gridNotes(g *sim.Grid, s slice, lines [][]string, cols []any) []string {
	rows := make([]any, len(lines))
	for i, l := range lines {
		rows[i] = l[0]
	}
	var notes []string
	for _, n := range []string{dashNote(g, lines), gridPriceNote(g, s, rows, cols), exactSummary(s.estimates, g)} {
		if n != "" {
			notes = append(notes, n)
		}
	}
	return notes
}

// gridPriceNote says what the cells of a per-100-points grid divide by,
// by the row or the column whose unit's price it is (a Fantasy battle's
// attackers down the rows; a Horus Heresy grid may put its firers either
// way): "Prices, by attacker: Doomwheel 150, Rat Ogres 152 points.", for
// the rows and columns shown. It is "" when no cell was scaled, and
// points to the JSON when neither rows nor columns have a price each.
func gridPriceNote(g *sim.Grid, s slice, rows, cols []any) string {
	// The cells of the rows shown: a grid leaves out rows of zeros.
	var es []sim.Estimate
	var prices []float64
	for _, e := range s.estimates {
		if !slices.ContainsFunc(rows, func(r any) bool { return paramString(r) == paramString(e.Param(g.Rows)) }) {
			continue
		}
		es = append(es, e)
		if e.Price > 0 && !slices.Contains(prices, e.Price) {
			prices = append(prices, e.Price)
		}
	}
	switch {
	case len(prices) == 0:
		return ""
	case len(prices) == 1 && !slices.ContainsFunc(es, func(e sim.Estimate) bool { return e.Price <= 0 }):
		return fmt.Sprintf("Every estimate here is per 100 of %s points.", pointsString(prices[0]))
	}
	// The priced units' parameter is the one whose values each have one
	// price, and tell the prices apart: their values differ, or some
	// value has none (the other parameter's values each see every price).
	var fallback string
	for _, by := range []struct {
		param  string
		values []any
	}{{g.Rows, rows}, {g.Cols, cols}} {
		listed, ok, telling := pricesBy(es, by.param, by.values)
		note := fmt.Sprintf("Prices, by %s: %s points.", by.param, strings.Join(listed, ", "))
		switch {
		case ok && telling:
			return note
		case ok && fallback == "":
			fallback = note
		}
	}
	return cmp.Or(fallback, "Each cell's price is in the JSON output (price).")
}

// pricesBy lists "value price" for each of values of param whose cells
// have a price, and reports whether every value's cells have one price
// (ok), and whether those prices tell the values apart: they differ, or
// some value's cells have none.
func pricesBy(es []sim.Estimate, param string, values []any) (listed []string, ok, telling bool) {
	var first float64
	for _, v := range values {
		price := 0.0
		for _, e := range es {
			if paramString(e.Param(param)) != paramString(v) {
				continue
			}
			switch {
			case e.Price <= 0: // no price here (a unit at 0 points)
			case price > 0 && e.Price != price:
				return nil, false, false
			default:
				price = e.Price
			}
		}
		switch {
		case price == 0:
			telling = true // a value with no price
		case first == 0:
			first = price
		case price != first:
			telling = true
		}
		if price > 0 {
			listed = append(listed, paramString(v)+" "+pointsString(price))
		}
	}
	return listed, len(listed) > 0, telling
}

// dashNote says what a "-" among a grid's cells (lines, each a row label
// and its cells) means, "" when there is none: the point reports no such
// estimate, which for a _per_100_points metric is a unit without a price.
func dashNote(g *sim.Grid, lines [][]string) string {
	for _, l := range lines {
		if slices.Contains(l[1:], "-") {
			if strings.HasSuffix(g.Metric, "_per_100_points") {
				return "A dash marks no estimate: the unit it would be per 100 points of has no points there (0 is no price), or the point was not run."
			}
			return "A dash marks no estimate: the point does not report " + g.Metric + ", or was not run."
		}
	}
	return ""
}

// gridNumber formats a grid cell: a probability in percent, a mean with two
// decimals, both without a unit (the title gives it); "-" for no value.
func gridNumber(e sim.Estimate, ok bool) string {
	if !ok || math.IsNaN(e.Value) {
		return "-"
	}
	if e.Kind == sim.Probability {
		return percent(e.Value, 2)
	}
	return fixed(e.Value, 2)
}

// cells returns a lookup of the slice's estimates by row and column value.
func (s slice) cells(g *sim.Grid) func(rv, cv any) (sim.Estimate, bool) {
	cell := map[[2]string]sim.Estimate{}
	for _, e := range s.estimates {
		cell[[2]string{paramString(e.Param(g.Rows)), paramString(e.Param(g.Cols))}] = e
	}
	return func(rv, cv any) (sim.Estimate, bool) {
		e, ok := cell[[2]string{paramString(rv), paramString(cv)}]
		return e, ok
	}
}

// exactSummary says how far the grid's estimates are from the exact values:
// the widest gap in standard errors and where it is.
func exactSummary(es []sim.Estimate, g *sim.Grid) string {
	n, worst := 0, -1
	for i, e := range es {
		if !e.HasExact || math.IsNaN(e.Z()) {
			continue
		}
		n++
		if worst < 0 || math.Abs(e.Z()) > math.Abs(es[worst].Z()) {
			worst = i
		}
	}
	if n == 0 {
		return "No exact values for this grid."
	}
	e := es[worst]
	return fmt.Sprintf("Exact values known for %d of %d cells; the widest gap is %s standard errors (%s %s, %s %s: %s estimated, %s exact).",
		n, len(es), zString(e), g.Rows, paramString(e.Param(g.Rows)), g.Cols, paramString(e.Param(g.Cols)),
		number(e.Kind, e.Value), number(e.Kind, e.Exact))
}

// writeLong writes one metric's estimates, one row per point. Rows that are
// 0 everywhere are left out with a note. A table too wide for the terminal
// drops the percent signs from its intervals, then its sd column.
func writeLong(w io.Writer, metric string, es []sim.Estimate) error {
	rows, names := estimatesOf(metric, es)
	kind := rows[0].Kind
	fmt.Fprintf(w, "\n%s\n", heading(metric, metricTitle(metric, rows), kind.String()))
	var kept []sim.Estimate
	var zero []string
	for _, e := range rows {
		if zeroRow(e) {
			zero = append(zero, paramsString(e.Params))
			continue
		}
		kept = append(kept, e)
	}
	if len(kept) == 0 {
		_, err := fmt.Fprintf(w, "0 at every point.\n")
		return err
	}
	var out []byte
	for step := range 4 {
		t := longTable(kept, names, step >= 1, step >= 2)
		if step >= 3 {
			// Last resort: long dotted parameter names over two lines.
			for i := range t.left {
				t.head[i] = strings.Replace(t.head[i], ".", ".\n", 1)
			}
		}
		var b bytes.Buffer
		if err := renderASCII(&b, t); err != nil {
			return err
		}
		out = b.Bytes()
		if widest(out) <= TerminalWidth {
			break
		}
	}
	w.Write(out)
	if n := priceNote(kept); n != "" {
		fmt.Fprintln(w, wrapText(n, TerminalWidth))
	}
	if len(zero) > 0 {
		fmt.Fprintln(w, wrapText(trimNote("", zero), TerminalWidth))
	}
	if slices.ContainsFunc(kept, func(e sim.Estimate) bool { return e.Trials == 0 }) {
		fmt.Fprintln(w, wrapText(fmt.Sprintf("A row of \"-\": no trial at that point had a %s to count (it counts only trials it applies to).", metric), TerminalWidth))
	}
	return nil
}

// longTable lays out a metric's points a row each: the parameters, the
// estimate, its interval, the exact value, z and, for means, sd.
func longTable(rows []sim.Estimate, names []string, compactCI, noSD bool) plainTable {
	kind := rows[0].Kind
	t := plainTable{head: append(slices.Clone(names), "estimate", "95% CI", "exact", "z"), left: len(names)}
	sd := kind == sim.Mean && !noSD
	if sd {
		t.head = append(t.head, "sd")
	}
	if compactCI && kind == sim.Probability {
		t.head[len(names)+1] = "95% CI (%)"
	}
	for _, e := range rows {
		line := make([]string, 0, len(t.head))
		for _, n := range names {
			line = append(line, paramString(orEmpty(e.Param(n))))
		}
		ci := interval(e)
		if compactCI {
			ci = strings.ReplaceAll(ci, "%", "")
		}
		line = append(line, number(e.Kind, e.Value), ci, exact(e), zString(e))
		if sd {
			line = append(line, number(sim.Mean, e.StdDev))
		}
		t.rows = append(t.rows, line)
	}
	return t
}

// renderASCII renders t as one ASCII table, however wide.
func renderASCII(w io.Writer, t plainTable) error {
	return writeASCII(w, t.head, alignment(t.left, len(t.head)-t.left, 0), t.rows)
}

// widest returns the width in terminal columns of the longest line of
// text.
func widest(text []byte) int {
	n := 0
	for line := range strings.SplitSeq(string(text), "\n") {
		n = max(n, textWidth(line))
	}
	return n
}
