package reports

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"hammersim/sim"
)

// paramString formats a parameter value as tables and file names show it.
func paramString(v any) string {
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x)
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// paramsString joins parameters as "name=value, ...".
func paramsString(ps []sim.Param) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.Name + "=" + paramString(p.Value)
	}
	return strings.Join(parts, ", ")
}

// number formats an estimate for a table: probabilities as percentages with
// two decimals, means with three (see fixed and percent).
func number(k sim.Kind, v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	if k == sim.Probability {
		return percent(v, 2) + "%"
	}
	return fixed(v, 3)
}

// fixed formats x with d decimals, but never lets a value that is not 0
// read as 0: one that rounds to it prints as "<0.001" (">-0.001" below
// zero, for d = 3).
func fixed(x float64, d int) string {
	s := strconv.FormatFloat(x, 'f', d, 64)
	if x == 0 || strings.Trim(s, "-0.") != "" {
		return s
	}
	least := "0." + strings.Repeat("0", d-1) + "1"
	if d == 0 {
		least = "1"
	}
	if x < 0 {
		return ">-" + least
	}
	return "<" + least
}

// percent formats a probability p in percent with d decimals, never
// reading as 0 when p is not 0, nor as 100 when p is below 1: those print
// as "<0.01" and ">99.99" (for d = 2), as simulate dice prints them.
func percent(p float64, d int) string {
	s := fixed(100*p, d)
	if p < 1 && s == strconv.FormatFloat(100, 'f', d, 64) {
		return ">" + strconv.FormatFloat(100-math.Pow(10, -float64(d)), 'f', d, 64)
	}
	return s
}

func interval(e sim.Estimate) string {
	if math.IsNaN(e.CI95[0]) || e.Trials == 0 {
		return "-"
	}
	return number(e.Kind, e.CI95[0]) + " to " + number(e.Kind, e.CI95[1])
}

func exact(e sim.Estimate) string {
	if !e.HasExact {
		return "none"
	}
	return number(e.Kind, e.Exact)
}

// zString formats how many standard errors the estimate is from the exact
// value.
func zString(e sim.Estimate) string {
	z := e.Z()
	if math.IsNaN(z) {
		return "-"
	}
	if math.IsInf(z, 0) {
		return infWord(z)
	}
	if s := strconv.FormatFloat(z, 'f', 1, 64); s != "-0.0" {
		return s
	}
	return "0.0" // a gap that rounds to nothing has no side
}

// infWord names an infinite z, with its sign: an estimate off its exact
// value where there is no spread to measure the gap by (a probability
// whose exact value is 0 or 1, a mean whose exact spread is 0) is "inf"
// above it and "-inf" below it.
func infWord(z float64) string {
	if z < 0 {
		return "-inf"
	}
	return "inf"
}

// GroupThousands writes n with commas: 1,000,000, as every output does.
func GroupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// trialRange returns the fewest and the most trials any point ran: after
// an interruption, points may rest on different numbers of trials. They
// are the models' own counts where the report has them; an estimate's
// Trials would count, for a conditional metric, only the trials in which
// its event happened.
func trialRange(r *sim.Report) (lo, hi int64) {
	lo = math.MaxInt64
	if len(r.Completed) > 0 {
		for _, n := range r.Completed {
			lo, hi = min(lo, n), max(hi, n)
		}
		return lo, hi
	}
	for _, e := range r.Results {
		lo, hi = min(lo, e.Trials), max(hi, e.Trials)
	}
	if len(r.Results) == 0 {
		lo = 0
	}
	return lo, hi
}

// header is the lines every text report opens with: what ran, with which
// seed and how many trials, and a warning when the run was interrupted.
func header(r *sim.Report) []string {
	lines := []string{r.Scenario}
	if r.Description != "" {
		lines[0] += ": " + r.Description
	}
	lines = append(lines, fmt.Sprintf("seed %d, %s per point%s, hammersim %s", r.Seed, trialCount(r.Trials), askedNote(r), r.Version))
	if r.Partial {
		lines = append(lines, partialLine(r))
	}
	return append(lines, stampLines(r.Stamp, false)...)
}

// trialSpan writes a range of trial counts: "1,000" or "900 to 1,000".
func trialSpan(lo, hi int64) string {
	if lo == hi {
		return GroupThousands(lo)
	}
	return GroupThousands(lo) + " to " + GroupThousands(hi)
}

// askedNote is what follows a partial report's count of trials per point:
// the count asked for, which the partial line beside it says the results
// fall short of, or for a precision run, which asks for no count, the
// most any point reached.
func askedNote(r *sim.Report) string {
	switch {
	case r.Partial && r.Stamp.Precision > 0:
		return " at most"
	case r.Partial:
		return " asked for"
	}
	return ""
}

// partialLine warns that an interrupted run's points rest on fewer trials
// than asked for, or, for a precision run, than its target needed.
func partialLine(r *sim.Report) string {
	lo, hi := trialRange(r)
	got := trialSpan(lo, hi)
	if r.Stamp.Precision > 0 {
		// A precision run asks for no number of trials: it runs rounds
		// until its target is met.
		return fmt.Sprintf("PARTIAL RESULTS: the run was interrupted before its precision target was met; each point rests on %s trials.", got)
	}
	return fmt.Sprintf("PARTIAL RESULTS: the run was interrupted; each point rests on %s of the %s trials asked for.", got, GroupThousands(r.Trials))
}

// stamped reports whether st says anything about a run. Workers alone does
// not count: results never depend on it, so neither may their rendering.
func stamped(st sim.Stamp) bool {
	st.Workers = 0
	return st != sim.Stamp{}
}

// stampLines says how to check and reproduce a run: the scenario file's
// hash (abbreviated to 12 digits unless full is set; a comparison of
// several files has one each, in order), the command line, and whether a
// precision target was reached. An unstamped report gets none.
func stampLines(st sim.Stamp, full bool) []string {
	var parts []string
	if st.ScenarioSHA256 != "" {
		sums := strings.Split(st.ScenarioSHA256, ",")
		for i, sha := range sums {
			if !full && len(sha) > 12 {
				sums[i] = sha[:12] + "..."
			}
		}
		parts = append(parts, "scenario sha256 "+strings.Join(sums, ", "))
	}
	if st.Command != "" {
		parts = append(parts, "reproduce: "+st.Command)
	}
	var lines []string
	if len(parts) > 0 {
		lines = append(lines, strings.Join(parts, ", "))
	}
	if l := precisionLine(st); l != "" {
		lines = append(lines, l)
	}
	return lines
}

// precisionLine says what a precision target asked and whether the run met
// it or ran into its trial cap; "" when there was no target. A run that
// stopped on its target also says that this makes its intervals cover less
// often than 19 times in 20 (docs/reports.md, Precision instead of
// guesswork), and how to get intervals that do.
func precisionLine(st sim.Stamp) string {
	if st.Precision <= 0 {
		return ""
	}
	target := fmt.Sprintf("precision target: a 95%% half-width of %s percentage points (%s) on every probability",
		strconv.FormatFloat(100*st.Precision, 'g', 6, 64), strconv.FormatFloat(st.Precision, 'g', 6, 64))
	if st.PrecisionMet {
		return fmt.Sprintf("%s: MET with %s trials per point. A run that stops once its intervals are narrow enough "+
			"makes them hold the true value less often than 19 times in 20 (down to about 92%%); for numbers to publish, "+
			"run again with --trials %d and another --seed.", target, GroupThousands(st.Trials), st.Trials)
	}
	if st.Trials < st.MaxTrials {
		// Short of its cap and not met: the run was interrupted.
		return fmt.Sprintf("%s: NOT MET. The run was interrupted after %s trials per point, before the target was met.",
			target, GroupThousands(st.Trials))
	}
	return fmt.Sprintf("%s: NOT MET. The run stopped at its cap of %s trials per point (max-trials), so some intervals are wider than asked.",
		target, GroupThousands(max(st.MaxTrials, st.Trials)))
}

// paramNames lists the parameter names of the estimates in order of first
// appearance: the columns of a long table.
func paramNames(es []sim.Estimate) []string {
	var names []string
	for _, e := range es {
		for _, p := range e.Params {
			if !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
		}
	}
	return names
}

// estimatesOf returns one metric's estimates, in order, with their parameter
// names.
func estimatesOf(metric string, es []sim.Estimate) ([]sim.Estimate, []string) {
	n := 0
	for i := range es {
		if es[i].Metric == metric {
			n++
		}
	}
	rows := make([]sim.Estimate, 0, n)
	for i := range es {
		if es[i].Metric == metric {
			rows = append(rows, es[i])
		}
	}
	return rows, paramNames(rows)
}

// maxListedPrices is how many rows' prices a note lists one by one; past
// it, it gives their range and points to the JSON, which has each.
const maxListedPrices = 20

// priceNote says what the rows of a per-100-points metric divide by (their
// Price): one price, each row's in order, or, for many rows, the range.
// It is "" when no row was scaled.
func priceNote(rows []sim.Estimate) string {
	var prices []float64
	for _, e := range rows {
		if e.Price > 0 {
			prices = append(prices, e.Price)
		}
	}
	if len(prices) == 0 {
		return ""
	}
	lo, hi := slices.Min(prices), slices.Max(prices)
	switch {
	case lo == hi && len(rows) == 1:
		return fmt.Sprintf("Per 100 of %s points.", pointsString(lo))
	case lo == hi:
		return fmt.Sprintf("Every row is per 100 of %s points.", pointsString(lo))
	case len(prices) <= maxListedPrices && len(prices) == len(rows):
		listed := make([]string, len(prices))
		for i, p := range prices {
			listed[i] = pointsString(p)
		}
		return fmt.Sprintf("Per 100 of these prices, row by row: %s points.", strings.Join(listed, ", "))
	}
	return fmt.Sprintf("Per 100 of prices from %s to %s points; the JSON output gives each row's (price).", pointsString(lo), pointsString(hi))
}

// pointsString writes a price as army lists do, with at most two
// decimals, and none for a whole number: 175, 58.33.
func pointsString(p float64) string {
	s := strconv.FormatFloat(p, 'f', 2, 64)
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}
