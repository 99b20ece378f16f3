package sim

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
)

// Comparison sets candidates' estimates side by side, with the difference
// of every pair.
type Comparison struct {
	Candidates []string
	Rows       []ComparisonRow
	// Partial is set when the comparison's run was interrupted.
	Partial bool
	// Trials is how many trials every candidate ran: all of them, or when
	// Partial, the chunks every candidate completed (the engine cuts an
	// interrupted run there, so that candidates stay paired).
	Trials int64
}

// MinBatchTrials is the fewest trials a batch of a comparison should hold.
// The interval of a difference treats each batch's mean as normal (a t
// interval over the batch means), which cannot be leaned on below about 30
// observations: the usual rule of thumb for the central limit theorem
// (Hogg, Tanis and Zimmerman, Probability and Statistical Inference, 5.6),
// and a loose one for yes/no metrics far from even odds.
const MinBatchTrials = 30

// ComparisonRow is one estimate of every candidate.
type ComparisonRow struct {
	Metric string
	// Params are the first candidate's; Differ is set when another
	// candidate's params are not the same (the same point under other
	// names).
	Params    []Param
	Differ    bool
	Kind      Kind
	Estimates []Estimate
	// Reported says, for each candidate, whether it reports this estimate
	// at all; one that does not is shown by an estimate with no trials, as
	// is one that reports it but had no trial it applies to (a combat
	// result where no combat was fought).
	Reported []bool
	// Diffs holds a difference for every pair of candidates i < j, in the
	// order (0,1), (0,2), ..., (1,2), ...
	Diffs []Difference
}

// Difference is candidate A's estimate minus candidate B's.
type Difference struct {
	A, B  int
	Value float64
	// SE, CI95 and HigherA come from batch means: the difference is worked
	// out in each batch of trials, and the spread of those differences,
	// with a Student t quantile for their number, bounds the whole one. When
	// the candidates ran on aligned trials the batches are paired, and
	// whatever the pairing gains shows in a narrower interval.
	SE   float64
	CI95 [2]float64
	// HigherA is the confidence that A's true value is higher than B's:
	// the one-sided t probability of the observed difference.
	HigherA float64
	// Batches is the number of batches behind SE; below 2 there is none.
	Batches int
}

// Compare sets candidates' estimates side by side and works out each
// pair's difference. full[c] are candidate c's estimates from all its
// trials; batches[c][b] the values of the same estimates from batch b
// alone, in the same order (Values): a batch's other numbers are never
// read, and a large sweep's estimates held for every batch took gigabytes.
// The
// candidates must have run the same trials, and each batch should hold
// MinBatchTrials or more of them.
//
// Estimates are matched by metric and parameters; a "unit" parameter is
// matched by the unit's place among the units of that metric (the acting
// unit, its target, ...), so candidates may name their units differently.
// A row that some candidate lacks (a metric only one of them has, such as
// Impact Hits) shows that candidate's estimate as missing (NaN, 0 trials).
//
// The candidates are separate scenarios, which must ask the same question:
// every two of them that report results share one. CompareSplit compares
// the values of one scenario's parameter, which ask one question however
// their results fall.
//
// axes names the swept parameters, which make the points: the rows are
// laid out as the first candidate's, and a point only later candidates
// have is placed among its points (rowOrder).
func Compare(names []string, full [][]Estimate, batches [][][]float64, axes []string) (Comparison, error) {
	return compare(names, full, batches, axes, false)
}

// CompareSplit is Compare for candidates that are the values of one swept
// parameter of one scenario (SplitBy): they ask its question by
// construction, so a candidate may report any part of its results (a
// Doomwheel at 0 points only its Impact Hits, Rat Ogres without Impact
// Hits only their kills per 100 points), each row showing the candidates
// that lack it as missing; only a comparison in which no candidate
// reports anything is refused.
func CompareSplit(names []string, full [][]Estimate, batches [][][]float64, axes []string) (Comparison, error) {
	return compare(names, full, batches, axes, true)
}

func compare(names []string, full [][]Estimate, batches [][][]float64, axes []string, oneQuestion bool) (Comparison, error) {
	if len(names) < 2 || len(full) != len(names) || len(batches) != len(names) {
		return Comparison{}, fmt.Errorf("sim: a comparison needs two or more candidates, each with estimates and batches")
	}
	index := make([]map[string]int, len(names)) // candidate -> key -> position in full[c]
	keys := make([][]string, len(names))
	for c := range names {
		index[c] = map[string]int{}
		keys[c] = matchKeys(full[c])
		for i, k := range keys[c] {
			if _, seen := index[c][k]; seen {
				return Comparison{}, fmt.Errorf("sim: %s reports %s twice for the same point", names[c], full[c][i].Metric)
			}
			index[c][k] = i
		}
	}
	order := rowOrder(full, keys, axes)
	// Candidates ask the same question when every two of them that report
	// anything share a result. One that reports nothing here (its unit
	// has no points for a per-100-points metric that --metrics kept alone)
	// is shown as not reporting it, as a missing row is.
	var reporting []int
	for c := range names {
		if len(full[c]) > 0 {
			reporting = append(reporting, c)
		}
	}
	if len(reporting) == 0 {
		return Comparison{}, fmt.Errorf("%s and the other candidates share no result: none of them reports anything", names[0])
	}
	for i, a := range reporting {
		if oneQuestion {
			break
		}
		for _, b := range reporting[i+1:] {
			shares := false
			for k := range index[a] {
				if _, has := index[b][k]; has {
					shares = true
					break
				}
			}
			if !shares {
				return Comparison{}, fmt.Errorf("%s and %s share no result: candidates must ask the same question over the same points%s",
					names[a], names[b], whyApart(names[a], names[b], full[a], full[b]))
			}
		}
	}
	out := Comparison{Candidates: names}
	for _, k := range order {
		var row ComparisonRow
		pos := make([]int, len(names))
		for c := range names {
			i, has := index[c][k]
			pos[c] = -1
			if !has {
				continue
			}
			pos[c] = i
			e := full[c][i]
			if row.Metric == "" {
				row.Metric, row.Params, row.Kind = e.Metric, e.Params, e.Kind
			} else if !sameParams(e.Params, row.Params) {
				row.Differ = true
			}
		}
		for c := range names {
			row.Reported = append(row.Reported, pos[c] >= 0)
			if pos[c] < 0 {
				row.Estimates = append(row.Estimates, missing(row))
				continue
			}
			row.Estimates = append(row.Estimates, full[c][pos[c]])
		}
		for a := range names {
			for b := a + 1; b < len(names); b++ {
				row.Diffs = append(row.Diffs, difference(a, b, row.Estimates[a], row.Estimates[b], batches[a], batches[b], pos[a], pos[b]))
			}
		}
		out.Rows = append(out.Rows, row)
	}
	return out, nil
}

// missing stands for a candidate that has no such estimate: no trials,
// and every number it would report not a number, so that none reads as a
// measured 0.
func missing(row ComparisonRow) Estimate {
	nan := math.NaN()
	return Estimate{Metric: row.Metric, Params: row.Params, Kind: row.Kind, Value: nan, SE: nan, CI95: [2]float64{nan, nan},
		StdDev: nan, Median: nan, P05: nan, P95: nan}
}

// rowOrder lays out a comparison's rows: the first candidate's, in its
// order, and among them the rows only later candidates have, each before
// the first of those that comes after it (rowLess), the rest at the end.
// A row's point is its values of the swept parameters (axes); its other
// parameters (a unit, by its place; a Mishap's result) tell the rows of a
// point apart. Two sweeps that overlap in part so give one order: a
// distance of 7..13 beside one of [10, 14] gives 7, 8, ..., 13, 14,
// whichever is given first; [14, 10, 6] beside [12, 10, 8] gives 14, 12,
// 10, 8, 6. keys[c] are the match keys of full[c].
func rowOrder(full [][]Estimate, keys [][]string, axes []string) []string {
	swept := map[string]bool{}
	for _, a := range axes {
		swept[a] = true
	}
	rows := make([][]row, len(full))
	var first, more []row
	placed := map[string]bool{}
	for c, es := range full {
		for i, e := range es {
			r := newRow(e, keys[c][i], swept)
			rows[c] = append(rows[c], r)
			if placed[r.key] {
				continue
			}
			placed[r.key] = true
			if c == 0 {
				first = append(first, r)
			} else {
				more = append(more, r)
			}
		}
	}
	less := rowLess(rows)
	slices.SortStableFunc(more, func(a, b row) int {
		switch {
		case less(a, b):
			return -1
		case less(b, a):
			return 1
		}
		return 0
	})
	out := make([]string, 0, len(placed))
	for _, r := range first {
		for len(more) > 0 && less(more[0], r) {
			out, more = append(out, more[0].key), more[1:]
		}
		out = append(out, r.key)
	}
	for _, r := range more {
		out = append(out, r.key)
	}
	return out
}

// row is a comparison row as rowOrder places it: its match key, metric,
// point (its values of the swept parameters), and slot (its metric and
// other parameters, a unit by its place: what it is at its point).
type row struct {
	key, metric, slot string
	point             []Param
}

func newRow(e Estimate, key string, swept map[string]bool) row {
	r := row{key: key, metric: e.Metric}
	slot := []string{e.Metric}
	for _, p := range e.Params {
		switch {
		case swept[p.Name]:
			r.point = append(r.point, p)
		case p.Name == "unit":
			slot = append(slot, key[strings.LastIndex(key, "|unit#"):])
		default:
			slot = append(slot, p.Name+"="+fmt.Sprint(p.Value))
		}
	}
	r.slot = strings.Join(slot, "|")
	return r
}

// rowLess orders rows as the candidates lay theirs out: metric by metric,
// each over its points (as a question lists its metrics), or point by
// point, each point's rows together (as a battle lists its units'),
// whichever the first candidate with two points and two metrics keeps
// together. Points are compared by pointLess; metrics, and the slots of a
// point, in the order in which the candidates first give them.
func rowLess(rows [][]row) func(a, b row) bool {
	metricRank, slotRank := map[string]int{}, map[string]int{}
	for _, rs := range rows {
		for _, r := range rs {
			if _, seen := metricRank[r.metric]; !seen {
				metricRank[r.metric] = len(metricRank)
			}
			if _, seen := slotRank[r.slot]; !seen {
				slotRank[r.slot] = len(slotRank)
			}
		}
	}
	byPoint := false
	for _, rs := range rows {
		point := func(r row) string { return fmt.Sprint(r.point) }
		metric := func(r row) string { return r.metric }
		if distinct(rs, point) > 1 && distinct(rs, metric) > 1 {
			byPoint = !together(rs, metric) && together(rs, point)
			break
		}
	}
	pointLess := pointLess(rows)
	samePoint := func(a, b row) int {
		switch {
		case pointLess(a.point, b.point):
			return -1
		case pointLess(b.point, a.point):
			return 1
		}
		return 0
	}
	return func(a, b row) bool {
		if byPoint {
			if c := samePoint(a, b); c != 0 {
				return c < 0
			}
			return slotRank[a.slot] < slotRank[b.slot]
		}
		if ma, mb := metricRank[a.metric], metricRank[b.metric]; ma != mb {
			return ma < mb
		}
		if c := samePoint(a, b); c != 0 {
			return c < 0
		}
		return slotRank[a.slot] < slotRank[b.slot]
	}
}

// distinct counts the groups (by key) of rows.
func distinct(rows []row, key func(row) string) int {
	seen := map[string]bool{}
	for _, r := range rows {
		seen[key(r)] = true
	}
	return len(seen)
}

// together reports whether the rows of each group (by key) stand together
// in rows, each group in one run.
func together(rows []row, key func(row) string) bool {
	done := map[string]bool{}
	prev := ""
	for i, r := range rows {
		k := key(r)
		if i > 0 && k == prev {
			continue
		}
		if done[k] {
			return false
		}
		done[k], prev = true, k
	}
	return true
}

// pointLess orders two points: parameter by parameter in the order they
// are listed, a number against a number by value (from high to low where
// the first candidate lists that parameter's values so), and any other
// two values (or parameters of two names) by the order in which the
// candidates first give them.
func pointLess(rows [][]row) func(a, b []Param) bool {
	rank := map[string]int{}
	for _, rs := range rows {
		for _, r := range rs {
			for _, p := range r.point {
				for _, k := range []string{"name " + p.Name, p.Name + "=" + fmt.Sprint(p.Value)} {
					if _, seen := rank[k]; !seen {
						rank[k] = len(rank)
					}
				}
			}
		}
	}
	var descending map[string]bool
	if len(rows) > 0 {
		descending = descendingParams(rows[0])
	}
	return func(a, b []Param) bool {
		for i := range min(len(a), len(b)) {
			x, y := a[i], b[i]
			if x.Name != y.Name {
				return rank["name "+x.Name] < rank["name "+y.Name]
			}
			fx, okx := number(x.Value)
			fy, oky := number(y.Value)
			switch {
			case okx && oky && fx != fy:
				return fx < fy != descending[x.Name]
			case okx && oky:
			case x.Value != y.Value:
				return rank[x.Name+"="+fmt.Sprint(x.Value)] < rank[y.Name+"="+fmt.Sprint(y.Value)]
			}
		}
		return len(a) < len(b)
	}
}

// descendingParams names the numeric parameters whose values the rows
// give from high to low: each value, as first met, below the one before.
func descendingParams(rows []row) map[string]bool {
	last := map[string]float64{}
	seen := map[string]map[float64]bool{}
	out := map[string]bool{}
	for _, r := range rows {
		for _, p := range r.point {
			v, ok := number(p.Value)
			if !ok || seen[p.Name][v] {
				continue
			}
			if seen[p.Name] == nil {
				seen[p.Name] = map[float64]bool{}
				out[p.Name] = true // until a value rises, or none follows
			} else if v > last[p.Name] {
				out[p.Name] = false
			}
			seen[p.Name][v], last[p.Name] = true, v
		}
	}
	for name, s := range seen {
		out[name] = out[name] && len(s) > 1
	}
	return out
}

// number reads a parameter's value as a number, where it is one.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// matchKeys names each estimate for matching across candidates: its metric
// and parameters, with a unit named by its place instead of its name.
func matchKeys(es []Estimate) []string {
	keys := make([]string, len(es))
	count := map[string]int{}
	for i, e := range es {
		var b strings.Builder
		b.WriteString(e.Metric)
		hasUnit := false
		for _, p := range e.Params {
			if p.Name == "unit" {
				hasUnit = true
				continue
			}
			fmt.Fprintf(&b, "|%s=%v", p.Name, p.Value)
		}
		base := b.String()
		if hasUnit {
			keys[i] = fmt.Sprintf("%s|unit#%d", base, count[base])
			count[base]++
		} else {
			keys[i] = base
		}
	}
	return keys
}

func difference(a, b int, ea, eb Estimate, ba, bb [][]float64, ia, ib int) Difference {
	d := Difference{A: a, B: b, Value: ea.Value - eb.Value}
	if ea.Kind == Probability && eb.Kind == Probability && ea.Trials == eb.Trials && ea.Trials > 0 {
		// Two probabilities over the same trials differ by a whole count:
		// the difference of the counts, divided once, is the nearest
		// float64 to the difference, where subtracting the two quotients
		// leaves the rounding of both (-0.005249999999999977 for 10,475
		// and 10,580 successes in 20,000 trials, against -0.00525).
		d.Value = float64(ea.Successes-eb.Successes) / float64(ea.Trials)
	}
	var ds []float64
	size := max(math.Abs(ea.Value), math.Abs(eb.Value))
	for k := range min(len(ba), len(bb)) {
		if ia < 0 || ib < 0 || ia >= len(ba[k]) || ib >= len(bb[k]) {
			continue
		}
		x := ba[k][ia] - bb[k][ib]
		if !math.IsNaN(x) {
			ds = append(ds, x)
			size = max(size, math.Abs(ba[k][ia]), math.Abs(bb[k][ib]))
		}
	}
	d.Batches = len(ds)
	if len(ds) < 2 || math.IsNaN(d.Value) {
		d.SE, d.HigherA = math.NaN(), math.NaN()
		d.CI95 = [2]float64{math.NaN(), math.NaN()}
		return d
	}
	// A mean is a whole tally over a count of trials, so two batches'
	// differences that are the same in truth differ in float64 by a few
	// units in the last place of the values compared (about 1e-16 of
	// them): one knight with M 8 against one with M 7 reaches exactly 1"
	// further in every trial, yet its batch differences came out
	// -0.9999999999999982 and -1.0000000000000018, an se of 2e-16 rather
	// than 0. Differences within sameBatches of the values' size are the
	// same; a true one between batches of k trials is at least 1/k, above
	// that for values under 1,000 in batches under a billion trials.
	if tol := sameBatches * size; spread(ds) <= tol {
		v := roundWithin(d.Value, tol)
		d.Value, d.SE, d.CI95 = v, 0, [2]float64{v, v}
		switch {
		case v > 0:
			d.HigherA = 1
		case v < 0:
			d.HigherA = 0
		default:
			d.HigherA = 0.5
		}
		return d
	}
	mean := 0.0
	for _, x := range ds {
		mean += x
	}
	mean /= float64(len(ds))
	ss := 0.0
	for _, x := range ds {
		ss += (x - mean) * (x - mean)
	}
	d.SE = math.Sqrt(ss/float64(len(ds)-1)) / math.Sqrt(float64(len(ds)))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(ds) - 1)}
	q := t.Quantile(0.975)
	d.CI95 = [2]float64{d.Value - q*d.SE, d.Value + q*d.SE}
	switch {
	case d.SE > 0:
		d.HigherA = t.CDF(d.Value / d.SE)
	case d.Value > 0:
		d.HigherA = 1
	case d.Value < 0:
		d.HigherA = 0
	default:
		d.HigherA = 0.5
	}
	return d
}

// sameBatches is how close, relative to the values compared, two batches'
// differences must be to count as the same: 1e-12 of their size, some
// ten thousand times the float64 rounding of a mean (1.1e-16 of it).
const sameBatches = 1e-12

// spread is the largest gap between any two of xs.
func spread(xs []float64) float64 {
	lo, hi := xs[0], xs[0]
	for _, x := range xs[1:] {
		lo, hi = min(lo, x), max(hi, x)
	}
	return hi - lo
}

// roundWithin writes v with the fewest decimals that keep it within tol
// (-1 for -0.9999999999999982 beside values of about 15), so that a
// difference known to rounding is shown as what it is; never -0.
func roundWithin(v, tol float64) float64 {
	for dec := 0; dec <= 20; dec++ {
		r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'f', dec, 64), 64)
		if err == nil && math.Abs(r-v) <= tol {
			if r == 0 {
				r = 0 // not -0
			}
			return r
		}
	}
	return v
}

func sameParams(a, b []Param) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Value != b[i].Value {
			return false
		}
	}
	return true
}

// Values are the values of estimates, in order: what a batch of a
// comparison keeps of its estimates.
func Values(es []Estimate) []float64 {
	out := make([]float64, len(es))
	for i, e := range es {
		out[i] = e.Value
	}
	return out
}

// SplitBy turns one scenario's estimates into candidates: those whose
// parameter axis has each of values, with that parameter removed, in order.
// It is how one scenario that sweeps several attackers compares them. at[c]
// are the positions in es of candidate c's estimates, by which the values
// of a batch's estimates, in the same order, are split alike (SplitValues).
func SplitBy(axis string, values []any, es []Estimate) (out [][]Estimate, at [][]int, err error) {
	out, at = make([][]Estimate, len(values)), make([][]int, len(values))
	for i, e := range es {
		v := e.Param(axis)
		found := false
		for c, want := range values {
			if v == want {
				found = true
				rest := make([]Param, 0, len(e.Params))
				for _, p := range e.Params {
					if p.Name != axis {
						rest = append(rest, p)
					}
				}
				e.Params = rest
				out[c], at[c] = append(out[c], e), append(at[c], i)
			}
		}
		if !found {
			return nil, nil, fmt.Errorf("sim: estimate %s has no value of %s", e.Metric, axis)
		}
	}
	return out, at, nil
}

// SplitValues splits values as SplitBy split the estimates they are the
// values of: candidate c's are those at at[c].
func SplitValues(values []float64, at [][]int) [][]float64 {
	out := make([][]float64, len(at))
	for c, is := range at {
		out[c] = make([]float64, len(is))
		for k, i := range is {
			out[c][k] = values[i]
		}
	}
	return out
}

// whyApart says what parts two candidates' results, for the message of
// a comparison that shares none: a parameter one sweeps and the other
// does not, or metrics neither shares; "" when it is only the values.
func whyApart(nameA, nameB string, a, b []Estimate) string {
	names := func(es []Estimate, of func(Estimate) []string) []string {
		var out []string
		for _, e := range es {
			for _, n := range of(e) {
				if !slices.Contains(out, n) {
					out = append(out, n)
				}
			}
		}
		return out
	}
	params := func(e Estimate) []string {
		var out []string
		for _, p := range e.Params {
			out = append(out, p.Name)
		}
		return out
	}
	metric := func(e Estimate) []string { return []string{e.Metric} }
	only := func(x, y []string) []string {
		return slices.DeleteFunc(slices.Clone(x), func(n string) bool { return slices.Contains(y, n) })
	}
	if ma, mb := names(a, metric), names(b, metric); len(only(ma, mb)) == len(ma) {
		return fmt.Sprintf(" (%s reports %s; %s reports %s)", nameA, strings.Join(ma, ", "), nameB, strings.Join(mb, ", "))
	}
	pa, pb := names(a, params), names(b, params)
	if o := only(pa, pb); len(o) > 0 {
		return fmt.Sprintf(" (%s sweeps %s, which %s does not)", nameA, strings.Join(o, ", "), nameB)
	}
	if o := only(pb, pa); len(o) > 0 {
		return fmt.Sprintf(" (%s sweeps %s, which %s does not)", nameB, strings.Join(o, ", "), nameA)
	}
	return " (they sweep the same parameters over different values)"
}
