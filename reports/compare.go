package reports

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"hammersim/sim"
)

// ClearConfidence is the confidence at which a comparison names the higher
// candidate: 97.5% one-sided, the level at which the 95% two-sided interval
// of the difference leaves out 0. Below it the verdict is "unclear".
const ClearConfidence = 0.975

// metricRows is one metric's rows of a comparison, with the names of the
// parameters that locate them.
type metricRows struct {
	metric string
	kind   sim.Kind
	rows   []sim.ComparisonRow
	params []string
}

// byMetric groups a comparison's rows by metric, in order of first
// appearance.
func byMetric(c *sim.Comparison) []metricRows {
	var out []metricRows
	index := map[string]int{}
	for _, row := range c.Rows {
		i, ok := index[row.Metric]
		if !ok {
			i = len(out)
			index[row.Metric] = i
			out = append(out, metricRows{metric: row.Metric, kind: row.Kind})
		}
		out[i].rows = append(out[i].rows, row)
		for _, p := range row.Params {
			if !slices.Contains(out[i].params, p.Name) {
				out[i].params = append(out[i].params, p.Name)
			}
		}
	}
	return out
}

// winner is the index of the candidate a difference clearly favours, or -1.
func winner(d sim.Difference) int {
	switch {
	case math.IsNaN(d.HigherA):
		return -1
	case d.HigherA >= ClearConfidence:
		return d.A
	case d.HigherA <= 1-ClearConfidence:
		return d.B
	}
	return -1
}

// Why a difference has no interval, as the JSON's "no_interval" says it.
const (
	// noIntervalMissing: a candidate of the pair does not report the
	// metric at this point (a Rat Ogre makes no Impact Hits).
	noIntervalMissing = "missing"
	// noIntervalNoTrials: both report the metric, but a candidate had no
	// trial it applies to (a combat result where no charge came home).
	noIntervalNoTrials = "no_trials"
	// noIntervalBatches: fewer than 2 batches hold the difference, too
	// few for a spread.
	noIntervalBatches = "too_few_batches"
)

// absent reports whether a candidate's estimate has no trials behind it:
// the candidate does not report it (sim.Compare leaves such an estimate
// empty), or had no trial it applies to.
func absent(e sim.Estimate) bool { return e.Trials == 0 }

// unreported reports whether candidate c does not report row's estimate
// at all.
func unreported(row sim.ComparisonRow, c int) bool {
	if c < len(row.Reported) {
		return !row.Reported[c]
	}
	return absent(row.Estimates[c])
}

// noInterval says why a difference has no interval: "" when it has one,
// else noIntervalMissing or noIntervalBatches.
func noInterval(d sim.Difference, row sim.ComparisonRow) string {
	switch {
	case !math.IsNaN(d.HigherA):
		return ""
	case unreported(row, d.A) || unreported(row, d.B):
		return noIntervalMissing
	case absent(row.Estimates[d.A]) || absent(row.Estimates[d.B]):
		return noIntervalNoTrials
	}
	return noIntervalBatches
}

// verdict says in words which candidate is higher and how sure that is:
// "Knights higher (99.9%)", or "unclear (Knights 62%)" naming the one the
// estimate leans to, or why there is nothing to say.
func verdict(d sim.Difference, row sim.ComparisonRow, names []string) string {
	a, b := names[d.A], names[d.B]
	switch noInterval(d, row) {
	case noIntervalMissing:
		switch {
		case unreported(row, d.A) && unreported(row, d.B):
			return "not reported for either"
		case unreported(row, d.A):
			return "not reported for " + a
		}
		return "not reported for " + b
	case noIntervalNoTrials:
		switch {
		case absent(row.Estimates[d.A]) && absent(row.Estimates[d.B]):
			return "no trials for either"
		case absent(row.Estimates[d.A]):
			return "no trials for " + a
		}
		return "no trials for " + b
	case noIntervalBatches:
		return "no interval (under 2 batches)"
	}
	if w := winner(d); w >= 0 {
		if d.SE == 0 { // the same difference in every batch: no doubt left
			return names[w] + " higher (every batch)"
		}
		return names[w] + " higher (" + confidence(max(d.HigherA, 1-d.HigherA)) + ")"
	}
	switch {
	case d.SE == 0 && d.Value == 0: // paired trials that never differ
		return "equal (every batch)"
	case d.HigherA == 0.5: // the estimate leans to neither
		return "unclear (even)"
	case d.HigherA > 0.5:
		return "unclear (" + a + " " + leaning(d.HigherA) + ")"
	}
	return "unclear (" + b + " " + leaning(1-d.HigherA) + ")"
}

// leaning formats the confidence of an unclear verdict as confidence does,
// but never as the threshold it fell short of: rounded to a tenth, 97.496%
// would read 97.5%, the figure of a clear verdict, so it reads the tenth
// below, 97.4%, the figure cut rather than rounded.
func leaning(p float64) string {
	if s := confidence(p); s != confidence(ClearConfidence) {
		return s
	}
	return strconv.FormatFloat(math.Floor(1000*p)/10, 'f', 1, 64) + "%"
}

// confidence formats a one-sided confidence in percent: to a tenth near the
// threshold and above (97.4% is not clear, 97.5% is), whole below 95%, and
// never rounding a near-certainty up to 100%.
func confidence(p float64) string {
	switch {
	case p >= 0.9995:
		return ">99.9%"
	case p >= 0.95:
		return strconv.FormatFloat(100*p, 'f', 1, 64) + "%"
	}
	return strconv.FormatFloat(100*p, 'f', 0, 64) + "%"
}

// bare formats a value in an estimate's unit without the unit sign:
// percent with two decimals for probabilities, three decimals for means.
func bare(k sim.Kind, v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	if k == sim.Probability {
		return percent(v, 2)
	}
	return fixed(v, 3)
}

// estimateCI formats an estimate with its 95% interval: "70.00% [60.42,
// 78.11]".
func estimateCI(e sim.Estimate) string {
	if math.IsNaN(e.Value) || e.Trials == 0 {
		return "-"
	}
	return number(e.Kind, e.Value) + " [" + bare(e.Kind, e.CI95[0]) + ", " + bare(e.Kind, e.CI95[1]) + "]"
}

// exactZ says how an estimate stands against its exact value: "exact
// 95.37%, z 1.0", as run's tables give them, "no exact value" where no
// closed form is known, and "" for a candidate with no such estimate.
func exactZ(e sim.Estimate) string {
	switch {
	case absent(e):
		return ""
	case !e.HasExact:
		return "no exact value"
	}
	return "exact " + number(e.Kind, e.Exact) + ", z " + zString(e)
}

// anyExact reports whether some candidate's estimate of the metric has an
// exact value, and so whether its table gives them.
func anyExact(m metricRows) bool {
	for _, row := range m.rows {
		for _, e := range row.Estimates {
			if e.HasExact && !absent(e) {
				return true
			}
		}
	}
	return false
}

// signed formats a difference with its sign: percentage points for
// probabilities, the mean's unit otherwise.
func signed(k sim.Kind, v float64) string {
	s := bare(k, v)
	// A value below zero that rounds to it reads ">-0.001", already signed.
	if s != "-" && !strings.HasPrefix(s, "-") && !strings.HasPrefix(s, ">-") {
		s = "+" + s
	}
	return s
}

func diffString(k sim.Kind, d sim.Difference) string {
	s := signed(k, d.Value)
	if k == sim.Probability && s != "-" {
		s += " pp"
	}
	return s
}

func diffCI(k sim.Kind, d sim.Difference) string {
	if math.IsNaN(d.CI95[0]) {
		return "-"
	}
	return "[" + signed(k, d.CI95[0]) + ", " + signed(k, d.CI95[1]) + "]"
}

// diffWithCI formats a difference with its interval: "+4.10 pp [+1.04,
// +7.16]".
func diffWithCI(k sim.Kind, d sim.Difference) string {
	ci := diffCI(k, d)
	if ci == "-" {
		return diffString(k, d)
	}
	return diffString(k, d) + " " + ci
}

// pairName names a difference: "Knights - Swordsmen".
func pairName(d sim.Difference, names []string) string { return names[d.A] + " - " + names[d.B] }

// paramCells returns a row's parameter values under names, with a "*"
// after the last when the candidates' parameters differ at this point.
func paramCells(row sim.ComparisonRow, names []string) []string {
	cells := make([]string, len(names))
	for i, n := range names {
		for _, p := range row.Params {
			if p.Name == n {
				cells[i] = paramString(p.Value)
			}
		}
	}
	if row.Differ && len(cells) > 0 {
		cells[len(cells)-1] += " *"
	}
	return cells
}

// batchRange says how many batches a metric's differences rest on, those
// of candidates that do not report it left out: "32", "1 to 32", or ""
// when no difference has a candidate on each side.
func batchRange(m metricRows) string {
	lo, hi := math.MaxInt, -1
	for _, row := range m.rows {
		for _, d := range row.Diffs {
			if why := noInterval(d, row); why != noIntervalMissing && why != noIntervalNoTrials {
				lo, hi = min(lo, d.Batches), max(hi, d.Batches)
			}
		}
	}
	switch {
	case hi < 0:
		return ""
	case lo == hi:
		return strconv.Itoa(lo)
	}
	return strconv.Itoa(lo) + " to " + strconv.Itoa(hi)
}

// missingNote names the candidates that do not report a metric at some or
// all of its points, or says "" when every candidate reports it
// everywhere.
func missingNote(m metricRows, names []string) string {
	var none, some []string
	for c, n := range names {
		count := 0
		for _, row := range m.rows {
			if c < len(row.Estimates) && unreported(row, c) {
				count++
			}
		}
		switch count {
		case 0:
		case len(m.rows):
			none = append(none, n)
		default:
			some = append(some, n)
		}
	}
	var parts []string
	if len(none) > 0 {
		parts = append(parts, joinNames(none)+" "+plural(len(none), "does", "do")+" not report "+m.metric)
	}
	if len(some) > 0 {
		parts = append(parts, joinNames(some)+" "+plural(len(some), "does", "do")+" not report it at every point")
	}
	if len(parts) == 0 {
		return ""
	}
	return "Not reported (\"-\"): " + strings.Join(parts, "; ") + ". A difference with such a candidate has no value."
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// comparisonHeader is the lines a text comparison opens with: the
// candidates, the run, and how to reproduce it.
func comparisonHeader(c *sim.Comparison, st sim.Stamp) []string {
	lines := []string{"Comparison of " + joinNames(c.Candidates)}
	if stamped(st) {
		run := fmt.Sprintf("seed %d, %s per point", st.Seed, trialCount(st.Trials))
		if c.Partial {
			// The stamp keeps the trials asked for; the banner below says
			// how many the results rest on.
			run += " asked for"
		}
		if st.Scenario != "" {
			run = st.Scenario + ": " + run
		}
		if st.Version != "" {
			run += ", hammersim " + st.Version
		}
		lines = append(lines, run)
	}
	if c.Partial {
		lines = append(lines, comparisonPartialLine(c, st))
	}
	return append(lines, stampLines(st, false)...)
}

// comparisonPartialLine warns that an interrupted comparison rests on
// fewer trials than asked for: the trials every candidate completed, to
// which all of them were cut so that they stay paired.
func comparisonPartialLine(c *sim.Comparison, st sim.Stamp) string {
	return fmt.Sprintf("PARTIAL RESULTS: the comparison was interrupted; every candidate was cut to the %s trials all of them completed, of the %s asked for, so that each difference is still over the same trials.",
		GroupThousands(c.Trials), GroupThousands(st.Trials))
}

// joinNames lists names as prose: "A, B and C".
func joinNames(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// comparisonNotes explains a metric's tables, which call the candidates
// names: where the intervals come from, what exact and z are, which
// candidates do not report the metric, and what a verdict means.
func comparisonNotes(c *sim.Comparison, m metricRows, names []string) []string {
	ci := "estimate ± Student's t standard errors (1.96 for many trials)"
	if m.kind == sim.Probability {
		ci = "Wilson score interval"
	}
	notes := []string{"Estimates: 95% CI by " + ci + "."}
	if anyExact(m) {
		notes = append(notes, "Exact: worked out from the dice without simulating; z: the estimate's distance from it in standard errors (between -2 and 2 is normal, beyond 3 is worth a look).")
	}
	if n := missingNote(m, names); n != "" {
		notes = append(notes, n)
	}
	if batches := batchRange(m); batches != "" {
		notes = append(notes, fmt.Sprintf("Differences: 95%% CI from batch means (%s batches, Student t)%s. A verdict is clear at %s one-sided confidence, where the 95%% CI leaves out 0; the percentage is the confidence that the named candidate is higher; an unclear verdict names the candidate the estimate leans to.",
			batches, ppNote(m.kind), confidence(ClearConfidence)))
	}
	if everyBatch(m) {
		notes = append(notes, fmt.Sprintf("(every batch): every batch of these %s trials gave the same difference, so its interval is that value alone; a difference that shows in fewer than about 3 trials in %s goes unseen in 1 run in 20 or more: confirm one that matters with more trials.",
			GroupThousands(c.Trials), GroupThousands(c.Trials)))
	}
	for _, row := range m.rows {
		if row.Differ {
			notes = append(notes, "* The candidates' parameters differ at this point; those shown are the first candidate's ("+c.Candidates[0]+").")
			break
		}
	}
	return notes
}

// everyBatch says whether some verdict of a metric rests on batches that
// all gave the same difference ("equal (every batch)", "A higher (every
// batch)").
func everyBatch(m metricRows) bool {
	for _, row := range m.rows {
		for _, d := range row.Diffs {
			if noInterval(d, row) == "" && d.SE == 0 {
				return true
			}
		}
	}
	return false
}

func ppNote(k sim.Kind) string {
	if k == sim.Probability {
		return " in percentage points (pp)"
	}
	return ""
}

// WriteComparisonTable writes a comparison as terminal tables, two per
// metric: the candidates' estimates with their 95% intervals, one row per
// point; then each pair's difference with its interval and a verdict, one
// row per point and pair. Two tables rather than one wide one keep three
// candidates within 100 columns; names too long for that give way to
// letters with a legend (comparisonBody). st, when set, heads it with how
// to reproduce the numbers (without the worker count).
func WriteComparisonTable(w io.Writer, c *sim.Comparison, st sim.Stamp) error {
	ew := &ErrWriter{W: w}
	for _, l := range comparisonHeader(c, st) {
		writeHeaderLine(ew, l, true)
	}
	body, legend, err := comparisonBody(c)
	if err != nil {
		return err
	}
	for _, l := range legend {
		fmt.Fprintln(ew, l)
	}
	ew.Write(body)
	return ew.Err
}

// comparisonBody renders every metric's tables, naming the candidates in
// their headers, pairs and verdicts. Names too long for the tables to fit
// the terminal (a header is never wrapped, and a pair names two) give way
// to letters, A, B, C..., and a legend says which is which.
func comparisonBody(c *sim.Comparison) (body []byte, legend []string, err error) {
	named, err := metricTables(c, c.Candidates)
	if err != nil || widest(named) <= TerminalWidth {
		return named, nil, err
	}
	letters := candidateLetters(len(c.Candidates), shownNames(c))
	short, err := metricTables(c, letters)
	if err != nil {
		return nil, nil, err
	}
	return short, candidateLegend(c.Candidates, letters), nil
}

// shownNames are the texts the tables of a comparison show where a
// candidate's letter could be: the candidates' names and the values of
// the points' parameters (a unit named "B" beside the letter B).
func shownNames(c *sim.Comparison) map[string]bool {
	taken := map[string]bool{}
	for _, n := range c.Candidates {
		taken[n] = true
	}
	for _, row := range c.Rows {
		for _, p := range row.Params {
			taken[paramString(p.Value)] = true
		}
		for _, e := range row.Estimates {
			for _, p := range e.Params {
				taken[paramString(p.Value)] = true
			}
		}
	}
	return taken
}

// metricTables renders each metric's title, candidates, pairs and notes,
// calling the candidates by names.
func metricTables(c *sim.Comparison, names []string) ([]byte, error) {
	var b bytes.Buffer
	for _, m := range byMetric(c) {
		fmt.Fprintf(&b, "\n%s\n", heading(m.metric, comparedTitle(m.metric, c), m.kind.String()))
		if err := writeCandidates(&b, m, names); err != nil {
			return nil, err
		}
		if err := writePairTable(&b, m, names); err != nil {
			return nil, err
		}
		for _, n := range comparisonNotes(c, m, names) {
			fmt.Fprintln(&b, wrapText(n, TerminalWidth))
		}
	}
	return b.Bytes(), nil
}

// candidateLetters returns n short labels: A to Z, then A2 to Z2, and so
// on. Where one of them is a name in taken (candidates called "B" and "A",
// in that order, would be A and B; a unit named "C" would sit beside the
// letter C), a letter would be read as that name, so the labels become
// #1, #2, ... instead, and where one of those is taken too, letters
// followed by one prime mark, then two, and so on, until none is.
func candidateLetters(n int, taken map[string]bool) []string {
	for round := 0; ; round++ {
		out := make([]string, n)
		free := true
		for i := range out {
			switch {
			case round == 1:
				out[i] = "#" + strconv.Itoa(i+1)
			default:
				out[i] = string(rune('A' + i%26))
				if i >= 26 {
					out[i] += strconv.Itoa(i/26 + 1)
				}
				if round > 1 {
					out[i] += strings.Repeat("'", round-1)
				}
			}
			free = free && !taken[out[i]]
		}
		if free {
			return out
		}
	}
}

// candidateLegend says which candidate each letter stands for, a line
// each, a name too long for its line wrapped under itself.
func candidateLegend(names, letters []string) []string {
	lines := []string{"", "The tables call the candidates by letter:"}
	if !unicode.IsLetter(rune(letters[0][0])) {
		lines[1] = "The tables call the candidates by number:"
	}
	for i, n := range names {
		head := "  " + letters[i] + " = "
		indent := strings.Repeat(" ", textWidth(head))
		for k, part := range strings.Split(wrapText(n, TerminalWidth-len(indent)), "\n") {
			if k == 0 {
				lines = append(lines, head+part)
			} else {
				lines = append(lines, indent+part)
			}
		}
	}
	return lines
}

// writeCandidates writes the candidates side by side, a row per point,
// each estimate with its interval and, where the metric has exact values,
// a second line with the exact value and z. When that is too wide for the
// terminal, the cells shrink to the estimates alone, a grid of points by
// candidates as run prints a sweep (the intervals stay in the other
// formats, and the pair table gives each difference's), under which a line
// gives the widest gap from an exact value, as under run's grids; tables
// still too wide are split, repeating the row labels.
func writeCandidates(w io.Writer, m metricRows, candidates []string) error {
	table := func(cell func(sim.Estimate) string) plainTable {
		t := plainTable{head: append(slices.Clone(m.params), candidates...), left: len(m.params)}
		for _, row := range m.rows {
			line := paramCells(row, m.params)
			for _, e := range row.Estimates {
				line = append(line, cell(e))
			}
			t.rows = append(t.rows, line)
		}
		return t
	}
	withExact := anyExact(m)
	full := table(func(e sim.Estimate) string {
		if withExact && !absent(e) {
			return estimateCI(e) + "\n" + exactZ(e)
		}
		return estimateCI(e)
	})
	if fits(full, TerminalWidth) || len(candidates) < 2 {
		return writeChunked(w, full)
	}
	unit := "are means"
	if m.kind == sim.Probability {
		unit = "in percent"
	}
	fmt.Fprintf(w, "estimates %s; intervals in the JSON and CSV outputs\n", unit)
	if err := writeChunked(w, table(func(e sim.Estimate) string { return gridNumber(e, e.Trials > 0) })); err != nil {
		return err
	}
	if withExact {
		_, err := fmt.Fprintln(w, wrapText(comparisonExactSummary(m, candidates), TerminalWidth))
		return err
	}
	return nil
}

// comparisonExactSummary says how far a metric's estimates are from their
// exact values: how many have one, and the widest gap in standard errors
// and where it is.
func comparisonExactSummary(m metricRows, names []string) string {
	n, total := 0, 0
	var worst sim.Estimate
	where := ""
	for _, row := range m.rows {
		for c, e := range row.Estimates {
			if absent(e) {
				continue
			}
			total++
			if !e.HasExact || math.IsNaN(e.Z()) {
				continue
			}
			n++
			if where == "" || math.Abs(e.Z()) > math.Abs(worst.Z()) {
				worst, where = e, names[c]
				if ps := paramsString(row.Params); ps != "" {
					where += ", " + ps
				}
			}
		}
	}
	return fmt.Sprintf("Exact values known for %d of %d estimates; the widest gap is %s standard errors (%s: %s estimated, %s exact).",
		n, total, zString(worst), where, number(worst.Kind, worst.Value), number(worst.Kind, worst.Exact))
}

// writeChunked renders t as ASCII tables that fit the terminal, without a
// title.
func writeChunked(w io.Writer, t plainTable) error {
	for _, chunk := range columnChunks(t, TerminalWidth) {
		cols := append(seq(t.left), chunk...)
		rows := make([][]string, len(t.rows))
		for i, r := range t.rows {
			rows[i] = pick(r, cols)
		}
		if err := writeASCII(w, pick(t.head, cols), alignment(t.left, len(chunk), 0), rows); err != nil {
			return err
		}
	}
	return nil
}

// writePairTable writes each pair's difference and verdict. A table too
// wide for the terminal says its verdicts in fewer words.
func writePairTable(w io.Writer, m metricRows, names []string) error {
	header := append(slices.Clone(m.params), "pair", "difference [95% CI]", "verdict")
	// Every column on the left but the differences.
	align := alignment(len(header)-2, 1, 1)
	lines := func(short bool) [][]string {
		var out [][]string
		for _, row := range m.rows {
			for _, d := range row.Diffs {
				v := verdict(d, row, names)
				if short {
					v = strings.Replace(v, " (under 2 batches)", "", 1)
				}
				pair, diff := pairName(d, names), diffWithCI(m.kind, d)
				if short { // the note says the differences are in pp
					pair, diff = strings.Replace(pair, " - ", "-", 1), strings.Replace(diff, " pp ", " ", 1)
				}
				out = append(out, append(paramCells(row, m.params), pair, diff, v))
			}
		}
		return out
	}
	render := func(head []string, align string, rows [][]string) ([]byte, error) {
		var b bytes.Buffer
		err := writeASCII(&b, head, align, rows)
		return b.Bytes(), err
	}
	var out []byte
	for _, short := range []bool{false, true} {
		var err error
		if out, err = render(header, align, lines(short)); err != nil {
			return err
		}
		if widest(out) <= TerminalWidth {
			_, err = w.Write(out)
			return err
		}
	}
	if len(m.params) == 0 {
		_, err := w.Write(out)
		return err
	}
	// Still too wide: a table per value of the first parameter, under a
	// line that names it.
	rows := lines(true)
	var order []string
	for _, r := range rows {
		if !slices.Contains(order, r[0]) {
			order = append(order, r[0])
		}
	}
	for _, v := range order {
		var part [][]string
		for _, r := range rows {
			if r[0] == v {
				part = append(part, r[1:])
			}
		}
		fmt.Fprintf(w, "%s %s:\n", m.params[0], v)
		b, err := render(header[1:], align[1:], part)
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// WriteComparisonJSON writes a comparison as one JSON object:
//
//	{
//	  "candidates": ["Knights", "Swordsmen"],
//	  "partial": false,
//	  "trials": 100000,
//	  "stamp": {...},
//	  "rows": [
//	    {"metric": "wounds", "params": {"target": "Orcs"}, "params_differ": false, "kind": "mean",
//	     "estimates": [
//	      {"candidate": "Knights", "params": {...}, "kind": "mean", "trials": 100000, "estimate": 2.31, "se": 0.004,
//	       "ci95": [2.302, 2.318], "exact": null, "z": null, "sd": 1.2, "median": 2, "p05": 0, "p95": 4},
//	      ...],
//	     "differences": [
//	      {"a": "Knights", "b": "Swordsmen", "difference": 0.5, "se": 0.01, "ci95": [0.48, 0.52],
//	       "higher_a": 1, "batches": 32, "no_interval": null, "winner": "Knights",
//	       "verdict": "Knights higher (>99.9%)"}]}
//	  ]
//	}
//
// "trials" is how many trials every candidate ran: when "partial", the
// trials all of them completed, to which each was cut so that every
// difference is over the same trials. "stamp" is the one WriteJSON writes,
// present when st is set. Each
// estimate carries its candidate's own params, and "exact" and "z" as in
// WriteJSON; probabilities have "successes" in place of the mean's spread; a candidate that does not
// report the metric at this point has "trials": 0 and null numbers.
// "no_interval" says why a difference has no interval (null when it has
// one): "missing" when a candidate of the pair does not report the metric
// there, "no_trials" when one reports it but had no trial it applies to,
// "too_few_batches" when under 2 batches hold it. "winner" is null
// when the difference is not clear (see ClearConfidence). As in WriteJSON, keys keep
// this order, numbers are in their shortest exact form, anything not finite
// is null but an infinite z ("inf" or "-inf"), and the worker count is
// left out.
func WriteComparisonJSON(w io.Writer, c *sim.Comparison, st sim.Stamp) error {
	var b bytes.Buffer
	b.WriteString("{\n")
	names := make([]string, len(c.Candidates))
	for i, n := range c.Candidates {
		names[i] = str(n)
	}
	field(&b, "  ", "candidates", "["+strings.Join(names, ", ")+"]", true)
	field(&b, "  ", "partial", strconv.FormatBool(c.Partial), true)
	field(&b, "  ", "trials", strconv.FormatInt(c.Trials, 10), true)
	if stamped(st) {
		field(&b, "  ", "stamp", stampJSON(st), true)
	}
	b.WriteString("  \"rows\": [")
	for i, row := range c.Rows {
		if i > 0 {
			b.WriteString(",")
		}
		var head bytes.Buffer
		o := object{b: &head}
		o.put("metric", str(row.Metric))
		o.put("params", paramsJSON(row.Params))
		o.put("params_differ", strconv.FormatBool(row.Differ))
		o.put("kind", str(row.Kind.String()))
		b.WriteString("\n    {" + head.String() + ",\n     \"estimates\": [")
		for j, e := range row.Estimates {
			if j > 0 {
				b.WriteString(",")
			}
			var eb bytes.Buffer
			o := object{b: &eb}
			if j < len(c.Candidates) {
				o.put("candidate", str(c.Candidates[j]))
			}
			estimateFields(&o, e, false)
			b.WriteString("\n      {" + eb.String() + "}")
		}
		b.WriteString("],\n     \"differences\": [")
		for j, d := range row.Diffs {
			if j > 0 {
				b.WriteString(",")
			}
			var db bytes.Buffer
			o := object{b: &db}
			o.put("a", str(c.Candidates[d.A]))
			o.put("b", str(c.Candidates[d.B]))
			o.put("difference", num(d.Value))
			o.put("se", num(d.SE))
			o.put("ci95", pairJSON(d.CI95))
			o.put("higher_a", num(d.HigherA))
			o.put("batches", strconv.Itoa(d.Batches))
			if why := noInterval(d, row); why != "" {
				o.put("no_interval", str(why))
			} else {
				o.put("no_interval", "null")
			}
			if win := winner(d); win >= 0 {
				o.put("winner", str(c.Candidates[win]))
			} else {
				o.put("winner", "null")
			}
			o.put("verdict", str(verdict(d, row, c.Candidates)))
			b.WriteString("\n      {" + db.String() + "}")
		}
		b.WriteString("]}")
		if err := spill(w, &b); err != nil {
			return err
		}
	}
	if len(c.Rows) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	_, err := w.Write(b.Bytes())
	return err
}

// WriteComparisonCSV writes one row per point and pair of candidates. The
// columns are scenario and seed (from st, as WriteCSV has them; the rest of
// the stamp is in the JSON), partial (true when the comparison was
// interrupted), metric, kind, params_differ, one column per
// parameter (in
// order of first appearance, empty where a row has no such parameter), then
// candidate_a, candidate_b, and for each of a and b its trials, estimate,
// ci95_low and ci95_high, then the difference, se, ci95_low, ci95_high,
// higher_a, batches, winner (empty when the difference is not clear) and
// no_interval (as in the JSON; empty when the difference has an interval),
// then exact_a, z_a, exact_b and z_b (each candidate's exact value and z,
// as in WriteCSV) and verdict (the words the table, the JSON and the
// Markdown give the pair, with the candidates' names). The columns after
// no_interval came later and so stand last, where they leave a reader of
// the earlier ones as it was. Numbers are in their shortest exact form; a
// value that is not finite is empty, but an infinite z ("inf" or "-inf").
func WriteComparisonCSV(w io.Writer, c *sim.Comparison, st sim.Stamp) error {
	var names []string
	for _, row := range c.Rows {
		for _, p := range row.Params {
			if !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
		}
	}
	cw := csv.NewWriter(w)
	header := append([]string{"scenario", "seed", "partial", "metric", "kind", "params_differ"}, names...)
	header = append(header, "candidate_a", "candidate_b",
		"trials_a", "estimate_a", "ci95_low_a", "ci95_high_a",
		"trials_b", "estimate_b", "ci95_low_b", "ci95_high_b",
		"difference", "se", "ci95_low", "ci95_high", "higher_a", "batches", "winner", "no_interval",
		"exact_a", "z_a", "exact_b", "z_b", "verdict")
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, row := range c.Rows {
		for _, d := range row.Diffs {
			line := []string{st.Scenario, strconv.FormatUint(st.Seed, 10), strconv.FormatBool(c.Partial), row.Metric, row.Kind.String(), strconv.FormatBool(row.Differ)}
			for _, n := range names {
				v := ""
				for _, p := range row.Params {
					if p.Name == n {
						v = paramString(p.Value)
					}
				}
				line = append(line, v)
			}
			line = append(line, c.Candidates[d.A], c.Candidates[d.B])
			for _, e := range []sim.Estimate{row.Estimates[d.A], row.Estimates[d.B]} {
				line = append(line, strconv.FormatInt(e.Trials, 10), csvNum(e.Value), csvNum(e.CI95[0]), csvNum(e.CI95[1]))
			}
			win := ""
			if i := winner(d); i >= 0 {
				win = c.Candidates[i]
			}
			line = append(line, csvNum(d.Value), csvNum(d.SE), csvNum(d.CI95[0]), csvNum(d.CI95[1]), csvNum(d.HigherA), strconv.Itoa(d.Batches), win, noInterval(d, row))
			for _, e := range []sim.Estimate{row.Estimates[d.A], row.Estimates[d.B]} {
				line = append(line, csvExact(e), zCSV(e))
			}
			line = append(line, verdict(d, row, c.Candidates))
			if err := cw.Write(line); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteComparisonMarkdown writes a comparison as Markdown: a heading, the
// run's stamp when st is set (without the worker count), and for each
// metric the estimates table and the differences table that
// WriteComparisonTable writes.
func WriteComparisonMarkdown(w io.Writer, c *sim.Comparison, st sim.Stamp) error {
	ew := &ErrWriter{W: w}
	writeComparisonMarkdown(ew, c, st, "#")
	return ew.Err
}

func writeComparisonMarkdown(w io.Writer, c *sim.Comparison, st sim.Stamp, h string) {
	head := comparisonHeader(c, st)
	fmt.Fprintf(w, "%s %s\n", h, mdText(head[0]))
	if stamped(st) {
		fmt.Fprintf(w, "\n%s.\n", mdText(head[1]))
		writeMarkdownStamp(w, st)
	}
	if c.Partial {
		fmt.Fprintf(w, "\n> **%s**\n", mdText(comparisonPartialLine(c, st)))
	}
	for _, m := range byMetric(c) {
		if ew, ok := w.(*ErrWriter); ok && ew.Err != nil {
			return // a write failed or was stopped: no more tables
		}
		fmt.Fprintf(w, "\n%s# %s\n\n", h, mdText(heading(m.metric, comparedTitle(m.metric, c), m.kind.String())))
		withExact := anyExact(m)
		// Row by row, so that a stopped output (its first failed write)
		// ends the table there.
		mdTableHead(w, append(slices.Clone(m.params), c.Candidates...), alignment(len(m.params), len(c.Candidates), 0))
		for _, row := range m.rows {
			line := paramCells(row, m.params)
			for _, e := range row.Estimates {
				cell := estimateCI(e)
				if withExact && !absent(e) {
					cell += "; " + exactZ(e)
				}
				line = append(line, cell)
			}
			if mdRow(w, line) != nil {
				return
			}
		}
		fmt.Fprintln(w)
		mdTableHead(w, append(slices.Clone(m.params), "pair", "difference [95% CI]", "verdict"), alignment(len(m.params)+1, 1, 1))
		for _, row := range m.rows {
			for _, d := range row.Diffs {
				if mdRow(w, append(paramCells(row, m.params), pairName(d, c.Candidates), diffWithCI(m.kind, d), verdict(d, row, c.Candidates))) != nil {
					return
				}
			}
		}
		fmt.Fprintln(w)
		for _, n := range comparisonNotes(c, m, c.Candidates) {
			fmt.Fprintf(w, "%s\n", mdText(n))
		}
	}
}
