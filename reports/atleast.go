package reports

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"hammersim/sim"
)

// The "at least N" view answers a list builder's first question about a
// counted outcome (hits, wounds, models killed, casualties): the chance of
// N or more, for N = 1, 2, ... while some point still reaches N more often
// than atLeastFloor, with the exact chance beside the estimate where the
// question knows the exact distribution.

// atLeastFloor is the smallest chance an "at least" column is shown for.
const atLeastFloor = 0.005

// TerminalWidth is the width terminal tables are fitted to.
const TerminalWidth = 100

// plainTable is a table before rendering: terminal, Markdown and HTML
// reports lay the same cells out in their own way.
type plainTable struct {
	title string
	head  []string
	left  int // leading columns that label rows, left-aligned
	rows  [][]string
	notes []string
}

// counted reports whether e is a counted outcome: a mean of whole numbers,
// none below 0, that takes some value above 1 (a 0-or-1 count's "at least
// 1" is its mean).
func counted(e sim.Estimate) bool {
	if e.Kind != sim.Mean || e.Hist == nil || e.Trials == 0 {
		return false
	}
	lo, hi, ok := e.Hist.Range()
	if e.ExactPMF != nil {
		hi = max(hi, e.ExactPMF.Min+len(e.ExactPMF.P)-1)
	}
	return ok && lo >= 0 && hi > 1
}

// atLeastAt returns the estimated and exact chance of n or more.
func atLeastAt(e sim.Estimate, n int) (est, ex float64, hasExact bool) {
	est = float64(e.Hist.CountAtLeast(n)) / float64(e.Trials)
	if e.ExactPMF != nil {
		return est, e.ExactPMF.AtLeast(n), true
	}
	return est, 0, false
}

// atLeastCell formats a chance in percent with one decimal, the exact
// value in brackets after it.
func atLeastCell(e sim.Estimate, n int) string {
	s, _ := atLeastCellSide(e, n)
	return s
}

// atLeastCellSide is atLeastCell and how far the chance's 95% Wilson
// interval reaches from it, on its wider side (marginNote), from one
// count of the trials that reached n.
func atLeastCellSide(e sim.Estimate, n int) (string, float64) {
	k := e.Hist.CountAtLeast(n)
	est := float64(k) / float64(e.Trials)
	s := percent(est, 1)
	if e.ExactPMF != nil {
		s += " (" + percent(e.ExactPMF.AtLeast(n), 1) + ")"
	}
	lo, hi := sim.Wilson(k, e.Trials, sim.Z95)
	return s, max(est-lo, hi-est)
}

// atLeastStart is the smallest N worth a row: below every point's least
// value the chance is 1 everywhere, and one such row says so.
func atLeastStart(es []sim.Estimate) int {
	start := math.MaxInt
	for _, e := range es {
		lo, _, _ := e.Hist.Range()
		if e.ExactPMF != nil {
			lo = min(lo, e.ExactPMF.Min)
		}
		start = min(start, lo)
	}
	return max(start, 1)
}

// atLeastTop is the largest N some estimate reaches more often than the
// floor, by estimate or exact value.
func atLeastTop(es []sim.Estimate) int {
	top := 0
	for _, e := range es {
		lo, hi, _ := e.Hist.Range()
		if e.ExactPMF != nil {
			hi = max(hi, e.ExactPMF.Min+len(e.ExactPMF.P)-1)
		}
		for n := max(lo, 1); n <= hi; n++ {
			if est, ex, _ := atLeastAt(e, n); est > atLeastFloor || ex > atLeastFloor {
				top = max(top, n)
			}
		}
	}
	return top
}

// neverOne reports whether e never reached 1 and, when its exact value is
// known, cannot.
func neverOne(e sim.Estimate) bool {
	est, ex, _ := atLeastAt(e, 1)
	return est == 0 && ex == 0
}

// atLeastTables lays out the "at least" view of one metric, where some of
// its points are counted outcomes: a grid (N down, the swept values
// across) when the points differ in one swept parameter, one grid per
// value of the others when they differ in more, and a row per point when
// there are too many of those. Points that never reach 1 are left out with
// a note; a metric that falls below 0 at some point (a combat result) is
// no count, and has no view. axes are the report's swept parameters.
func atLeastTables(metric string, es []sim.Estimate, axes []sim.Axis) []plainTable {
	var points []sim.Estimate
	var never []string
	anyCounted := false
	for _, e := range es {
		if e.Metric != metric || e.Trials == 0 {
			continue
		}
		if !countLike(e) {
			// Below 0 at some point (a combat result): not a count, at
			// any point, as its figure draws none either. A view of the
			// points that stayed at 0 and above would drop the others
			// unsaid.
			return nil
		}
		if neverOne(e) {
			never = append(never, paramsString(e.Params))
			continue
		}
		// A point that only ever counted 0 or 1 (a one-model unit's
		// losses) has a row too, beside the others.
		points = append(points, e)
		anyCounted = anyCounted || counted(e)
	}
	if !anyCounted {
		return nil
	}
	title := lineName(metric, metricTitle(metric, points)) + ": chance of at least N, in percent"
	varying := varyingParams(points)
	across := ""
	for _, n := range varying {
		if slices.ContainsFunc(axes, func(a sim.Axis) bool { return a.Name == n }) {
			across = n
			break
		}
	}
	var tables []plainTable
	groups := groupBy(points, across)
	switch {
	case len(varying) <= 1 || across != "" && len(groups) <= 8:
		for _, g := range groups {
			if top := atLeastTop(g.points); top >= 1 {
				tables = append(tables, atLeastGrid(title, g, across, top))
			}
		}
	default:
		if top := atLeastTop(points); top >= 1 {
			tables = append(tables, atLeastRows(title, points, top))
		}
	}
	if len(tables) > 0 && len(never) > 0 {
		tables[len(tables)-1].notes = append(tables[len(tables)-1].notes,
			fmt.Sprintf("Left out, never at least 1 in any trial: %s.", strings.Join(never, "; ")))
	}
	return tables
}

// exactInBrackets is what a table's title says of the exact values in its
// cells: that they are in brackets, when any of its points has them; each
// table of a metric says so of its own points alone (the Doomwheel's
// losses known exactly, its target's not).
func exactInBrackets(points []sim.Estimate) string {
	if slices.ContainsFunc(points, func(e sim.Estimate) bool { return e.ExactPMF != nil }) {
		return " (exact in brackets)"
	}
	return ""
}

// varyingParams lists the parameters whose values differ between the
// points, in order of first appearance.
func varyingParams(es []sim.Estimate) []string {
	var out []string
	for _, n := range paramNames(es) {
		first := paramString(es[0].Param(n))
		for _, e := range es[1:] {
			if paramString(e.Param(n)) != first {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// atLeastGroup is the points that share every parameter but one.
type atLeastGroup struct {
	label  string
	points []sim.Estimate
}

// groupBy splits points by the values of every parameter but across, in
// order of first appearance.
func groupBy(points []sim.Estimate, across string) []atLeastGroup {
	labels, groups := groupByOthers(points, across)
	out := make([]atLeastGroup, len(groups))
	for i := range groups {
		out[i] = atLeastGroup{label: labels[i], points: groups[i]}
	}
	return out
}

// atLeastGrid lays out a group with N down the rows and a column per value
// of across (one column, "chance", when nothing varies).
func atLeastGrid(title string, g atLeastGroup, across string, top int) plainTable {
	t := plainTable{title: title + exactInBrackets(g.points), head: []string{"at least"}, left: 1}
	if g.label != "" {
		t.title += ", " + g.label
	}
	for _, e := range g.points {
		if across == "" {
			t.head = append(t.head, "chance")
			break
		}
		t.head = append(t.head, across+" "+paramString(e.Param(across)))
	}
	shown := g.points
	if across == "" {
		shown = g.points[:1]
	}
	widest := 0.0
	for n := min(atLeastStart(g.points), top); n <= top; n++ {
		row := []string{strconv.Itoa(n)}
		for _, e := range shown {
			cell, side := atLeastCellSide(e, n)
			row, widest = append(row, cell), max(widest, side)
		}
		t.rows = append(t.rows, row)
	}
	t.rows = collapseRuns(t.rows)
	t.notes = append(t.notes, marginNote(widest))
	return t
}

// collapseRuns merges rows in a row whose cells (all but the first, the
// N) read alike into one, "8 to 30": a unit caught and destroyed loses
// every model at once, and its chance of losing 8 or more reads the same
// down to the last model, row after row.
func collapseRuns(rows [][]string) [][]string {
	var out [][]string
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && slices.Equal(rows[j][1:], rows[i][1:]) {
			j++
		}
		row := rows[i]
		if j-i > 1 {
			row = append([]string{rows[i][0] + " to " + rows[j-1][0]}, rows[i][1:]...)
		}
		out = append(out, row)
		i = j
	}
	return out
}

// marginNote says how far the 95% intervals of a table's chances reach
// from them, given the widest side of any cell's Wilson interval (the
// interval every probability of hammersim has; atLeastCellSide), rounded
// up to the tenth of a percentage point the cells are printed to, so that
// no cell's interval reaches further than it says.
func marginNote(widest float64) string {
	// Tenths of a point: 100 * 10 per unit of chance; the 1e-9 keeps a
	// margin of exactly 1.2 from rounding up to 1.3 by float error.
	tenths := math.Ceil(widest*1000 - 1e-9)
	return fmt.Sprintf("Each chance's 95%% interval (Wilson) reaches at most %.1f percentage points either side of it.", tenths/10)
}

// atLeastRows lays out one row per point, with a column for each N.
func atLeastRows(title string, points []sim.Estimate, top int) plainTable {
	names := paramNames(points)
	t := plainTable{title: title + exactInBrackets(points), head: slices.Clone(names), left: len(names)}
	start := min(atLeastStart(points), top)
	for n := start; n <= top; n++ {
		t.head = append(t.head, ">="+strconv.Itoa(n))
	}
	widest := 0.0
	for _, e := range points {
		var row []string
		for _, n := range names {
			row = append(row, paramString(orEmpty(e.Param(n))))
		}
		for n := start; n <= top; n++ {
			cell, side := atLeastCellSide(e, n)
			row, widest = append(row, cell), max(widest, side)
		}
		t.rows = append(t.rows, row)
	}
	t.head, t.rows = collapseColumns(t.head, t.rows, len(names))
	t.notes = append(t.notes, marginNote(widest))
	return t
}

// collapseColumns is collapseRuns across: columns of N after the first
// left (the points' parameters) that read alike in every row are merged
// into one, headed ">=8 to 30".
func collapseColumns(head []string, rows [][]string, left int) ([]string, [][]string) {
	same := func(a, b int) bool {
		for _, r := range rows {
			if r[a] != r[b] {
				return false
			}
		}
		return true
	}
	keep := head[:left:left]
	var cols []int // the first column of each run kept
	for i := left; i < len(head); {
		j := i + 1
		for j < len(head) && same(i, j) {
			j++
		}
		h := head[i]
		if j-i > 1 {
			h += " to " + strings.TrimPrefix(head[j-1], ">=")
		}
		keep = append(keep, h)
		cols = append(cols, i)
		i = j
	}
	out := make([][]string, len(rows))
	for k, r := range rows {
		out[k] = slices.Clone(r[:left])
		for _, c := range cols {
			out[k] = append(out[k], r[c])
		}
	}
	return keep, out
}

func orEmpty(v any) any {
	if v == nil {
		return ""
	}
	return v
}

// columnChunks splits a table's columns after its left ones into runs that
// fit width characters as an ASCII table, each run repeating the left
// columns. A column wider than the rest of the width gets a run of its own.
// Left columns so wide that no other column fits beside them give one run
// of every column: splitting would repeat them in tables that still do not
// fit. A cell of several lines is as wide as its widest line.
func columnChunks(t plainTable, width int) [][]int {
	w := columnWidths(t)
	fixed := 1
	for i := range t.left {
		fixed += w[i] + 3
	}
	if len(t.head) > t.left && fixed+slices.Min(w[t.left:])+3 > width {
		all := make([]int, 0, len(t.head)-t.left)
		for i := t.left; i < len(t.head); i++ {
			all = append(all, i)
		}
		return [][]int{all}
	}
	var chunks [][]int
	var cur []int
	used := fixed
	for i := t.left; i < len(t.head); i++ {
		if len(cur) > 0 && used+w[i]+3 > width {
			chunks = append(chunks, cur)
			cur, used = nil, fixed
		}
		cur = append(cur, i)
		used += w[i] + 3
	}
	if len(cur) > 0 {
		chunks = append(chunks, cur)
	}
	return chunks
}

// columnWidths are the widths of t's columns: their widest cells'.
func columnWidths(t plainTable) []int {
	w := make([]int, len(t.head))
	for i, h := range t.head {
		w[i] = cellWidth(h)
	}
	for _, r := range t.rows {
		for i, c := range r {
			w[i] = max(w[i], cellWidth(c))
		}
	}
	return w
}

// fits reports whether t, drawn whole as an ASCII table, is at most width
// characters wide.
func fits(t plainTable, width int) bool {
	n := 1
	for _, w := range columnWidths(t) {
		n += w + 3
	}
	return n <= width
}

// cellWidth is the width of a table cell: that of its widest line.
func cellWidth(c string) int {
	n := 0
	for l := range strings.SplitSeq(c, "\n") {
		n = max(n, textWidth(l))
	}
	return n
}

// writePlainTable renders t as ASCII tables that fit the terminal width,
// splitting its columns over several tables when they do not fit one. A
// title too long for the terminal wraps, as the notes do.
func writePlainTable(w io.Writer, t plainTable) error {
	fmt.Fprintf(w, "\n%s\n", wrapText(t.title, TerminalWidth))
	if err := writeChunked(w, t); err != nil {
		return err
	}
	for _, n := range t.notes {
		fmt.Fprintln(w, wrapText(n, TerminalWidth))
	}
	return nil
}

// writeMarkdownPlain renders t as a Markdown table under a bold title.
func writeMarkdownPlain(w io.Writer, t plainTable) {
	fmt.Fprintf(w, "\n**%s**\n\n", mdText(t.title))
	mdTable(w, t.head, alignment(t.left, len(t.head)-t.left, 0), t.rows)
	for _, n := range t.notes {
		fmt.Fprintf(w, "\n%s\n", mdText(n))
	}
}

// htmlPlain lays t out for the HTML report.
func htmlPlain(t plainTable) htmlTable {
	h := htmlTable{Caption: t.title, Head: heads(t.head, t.left), Notes: t.notes}
	for _, r := range t.rows {
		line := make([]htmlCell, len(r))
		for i, c := range r {
			line[i] = htmlCell{Text: c}
			if i < t.left {
				line[i].Class = "l"
			}
		}
		h.Rows = append(h.Rows, line)
	}
	return h
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func pick(cells []string, cols []int) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = cells[c]
	}
	return out
}

// wrapText breaks s into lines of at most width characters at spaces. A
// word longer than a line (a long name without spaces) is cut across lines.
func wrapText(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, word := range longWordsCut(strings.Fields(s), width) {
		l := textWidth(word)
		if i > 0 {
			if n+1+l > width {
				b.WriteByte('\n')
				n = 0
			} else {
				b.WriteByte(' ')
				n++
			}
		}
		b.WriteString(word)
		n += l
	}
	return b.String()
}

// longWordsCut cuts each word wider than width into pieces at most width
// terminal columns wide (a piece holds at least one letter).
func longWordsCut(words []string, width int) []string {
	out := words[:0:0]
	for _, w := range words {
		for width > 0 {
			// The widest prefix that fits: all of w once it fits. Measuring
			// the rest of w for each piece took time in the square of its
			// length (a description of one 1 MB word: seconds).
			cut := widthPrefix(w, width)
			if cut == 0 || cut == len(w) {
				break
			}
			out = append(out, w[:cut])
			w = w[cut:]
		}
		out = append(out, w)
	}
	return out
}

// zeroLike reports whether a rendered number is zero: "0.00%", "0.000",
// "0.0", "-0.000".
func zeroLike(s string) bool {
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	return err == nil && v == 0
}

// allZero reports whether every cell renders as zero.
func allZero(cells []string) bool {
	for _, c := range cells {
		if !zeroLike(c) {
			return false
		}
	}
	return len(cells) > 0
}

// zeroRow reports whether a point's estimate, and its exact value if any,
// round to zero as tables show them: a distance nobody reaches, a unit
// nobody hurts.
func zeroRow(e sim.Estimate) bool {
	return zeroLike(number(e.Kind, e.Value)) && (!e.HasExact || zeroLike(number(e.Kind, e.Exact)))
}

// trimNote is the line that says which all-zero rows a table left out:
// labels name each row ("distance=6, unit=Stormvermin"), or, with param
// set, give the row parameter's values.
func trimNote(param string, labels []string) string {
	if param != "" {
		return fmt.Sprintf("Rows left out, all 0: %s %s.", param, strings.Join(labels, ", "))
	}
	return fmt.Sprintf("Rows left out, all 0: %s.", strings.Join(labels, "; "))
}

// readingNote explains the statistical columns in a player's words.
func readingNote(es []sim.Estimate) string {
	var probs, means, exacts, unmeasured bool
	for _, e := range es {
		probs = probs || e.Kind == sim.Probability
		means = means || e.Kind == sim.Mean
		exacts = exacts || e.HasExact
		unmeasured = unmeasured || e.HasExact && math.IsNaN(e.Z())
	}
	var parts []string
	switch {
	case probs && means:
		parts = append(parts, "How to read: an estimate is the share of trials in which something happened (%) or an average over the trials.")
	case probs:
		parts = append(parts, "How to read: an estimate is the share of trials in which something happened.")
	default:
		parts = append(parts, "How to read: an estimate is an average over the trials.")
	}
	parts = append(parts, "The 95% CI is the range the true value lies in, 19 times in 20 (Wilson score interval for chances; for averages, estimate ± Student's t standard errors, 1.96 over many trials, which hold it less often when few trials counted anything: 0 to 0 only says none did; one trial gives none).")
	if exacts {
		parts = append(parts, "exact is worked out from the dice without simulating; it lies within the interval about 19 times in 20.",
			"z is the distance from the estimate to the exact value in standard errors: between -2 and 2 is normal, beyond 3 is worth a look; none means no closed form is known.")
		if unmeasured {
			parts = append(parts, "A z of - beside an exact value: every trial gave the same value and the exact spread is not known, so there is nothing to measure the gap by; run more trials.")
		}
	}
	if means {
		parts = append(parts, "sd is how much single trials spread around the average.")
	}
	return strings.Join(parts, " ")
}
