package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"hammersim/sim"
)

// A metric's plot never leaves data out. Where its series (lines, or bars
// in a group) are more than MaxLines, it is split into several figures by
// the parameters with the fewest values, each figure whole and named, in
// its title and file name, by the values it holds; a last parameter with
// more values than MaxLines is split into runs of them ("M 4 to 10"). Past
// MaxFigures figures for one metric the rest are left to the tables, with
// a note, and each figure drawn says which of how many it is.

// rolePrefix begins a unit's name for the part it plays ("the attacker").
const rolePrefix = "the "

// MaxFigures caps the figures one metric is split into.
const MaxFigures = 16

// figurePart is the estimates one figure of a metric shows.
type figurePart struct {
	file  string // "swiftstride=true": the file name's suffix, "" for the only part
	title string // "swiftstride true": the title's suffix
	rows  []sim.Estimate
}

// splitSeries splits rows into parts of at most MaxLines series each. A
// series is a combination of the varying parameters other than those
// named in keep (the x axis, the bar groups). It consults stop between
// its passes over the rows (a large sweep's take a second or more).
func splitSeries(rows []sim.Estimate, stop func() error, keep ...string) (parts []figurePart, note string, err error) {
	var series []string
	for _, n := range varyingParams(rows) {
		if !slices.Contains(keep, n) {
			series = append(series, n)
		}
	}
	if err := stop(); err != nil {
		return nil, "", err
	}
	if countKeys(rows, series) <= MaxLines {
		return []figurePart{{rows: rows}}, "", nil
	}
	// Split by the parameters with the fewest values first: fewest figures.
	order := slices.Clone(series)
	values := map[string]int{}
	for _, n := range order {
		if err := stop(); err != nil {
			return nil, "", err
		}
		values[n] = countKeys(rows, []string{n})
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(values[a], values[b]) })
	var by []string
	for _, n := range order[:len(order)-1] {
		if err := stop(); err != nil {
			return nil, "", err
		}
		if maxSeries(rows, by, series) <= MaxLines {
			break
		}
		by = append(by, n)
	}
	for _, group := range groupByParams(rows, by) {
		if err := stop(); err != nil {
			return nil, "", err
		}
		parts = append(parts, runsOf(group, by, series)...)
	}
	if len(parts) > MaxFigures {
		note = fmt.Sprintf("the plots of %s are the first %d of its %d figures; the tables hold them all",
			rows[0].Metric, MaxFigures, len(parts))
		// Each figure drawn says so too, for a reader who sees it alone.
		for i := range MaxFigures {
			parts[i].title = joinNonEmpty(", ", parts[i].title,
				fmt.Sprintf("figure %d of %d, the last %d left to the tables", i+1, len(parts), len(parts)-MaxFigures))
		}
		parts = parts[:MaxFigures]
	}
	return parts, note, nil
}

// runsOf names a group of rows that share the values of by and, when it
// still has more than MaxLines series, cuts it into runs of consecutive
// series of about equal length, named by the first and last value of the
// one series parameter left (or their places, if more are left).
func runsOf(rows []sim.Estimate, by, series []string) []figurePart {
	file, title := partNames(rows[0], by)
	left := slices.DeleteFunc(slices.Clone(series), func(n string) bool { return slices.Contains(by, n) })
	keys := seriesKeys(rows, left)
	if len(keys) <= MaxLines {
		return []figurePart{{file: file, title: title, rows: rows}}
	}
	n := (len(keys) + MaxLines - 1) / MaxLines
	size := (len(keys) + n - 1) / n
	var parts []figurePart
	for start := 0; start < len(keys); start += size {
		run := keys[start:min(start+size, len(keys))]
		var part []sim.Estimate
		for _, e := range rows {
			if slices.Contains(run, keyOf(e, left)) {
				part = append(part, e)
			}
		}
		// With one parameter left a key is its value.
		name, first, last := left[0], run[0], run[len(run)-1]
		span := fmt.Sprintf("%s %s to %s", words(name), first, last)
		if len(left) > 1 {
			name, first, last = "series", fmt.Sprint(start+1), fmt.Sprint(start+len(run))
			span = fmt.Sprintf("series %s to %s of %d", first, last, len(keys))
		}
		parts = append(parts, figurePart{
			file:  joinNonEmpty("_", file, name+"="+first+".."+last),
			title: joinNonEmpty(", ", title, span),
			rows:  part,
		})
	}
	return parts
}

// partNames names the values of by that a part's rows share: for a file
// name ("swiftstride=true") and for a title ("swiftstride true").
func partNames(e sim.Estimate, by []string) (file, title string) {
	var f, t []string
	for _, n := range by {
		f = append(f, n+"="+paramString(e.Param(n)))
		t = append(t, paramWords(n, e.Param(n)))
	}
	return strings.Join(f, "_"), strings.Join(t, ", ")
}

func joinNonEmpty(sep string, parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), sep)
}

// keyOf is a row's values of names, as one string.
func keyOf(e sim.Estimate, names []string) string {
	vals := make([]string, len(names))
	for i, n := range names {
		vals[i] = paramString(e.Param(n))
	}
	return strings.Join(vals, "\x00")
}

// seriesKeys lists the distinct keys of names among rows, in order of
// first appearance.
func seriesKeys(rows []sim.Estimate, names []string) []string {
	var keys []string
	seen := map[string]bool{}
	for _, e := range rows {
		if k := keyOf(e, names); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

func countKeys(rows []sim.Estimate, names []string) int { return len(seriesKeys(rows, names)) }

// maxSeries is the most series any group of rows sharing the values of by
// has.
func maxSeries(rows []sim.Estimate, by, series []string) int {
	seen := map[[2]string]bool{}
	count := map[string]int{}
	most := 0
	for _, e := range rows {
		k := [2]string{keyOf(e, by), keyOf(e, series)}
		if !seen[k] {
			seen[k] = true
			count[k[0]]++
			most = max(most, count[k[0]])
		}
	}
	return most
}

// groupByParams splits rows by their values of names, in order of first
// appearance.
func groupByParams(rows []sim.Estimate, names []string) [][]sim.Estimate {
	index := map[string]int{}
	var groups [][]sim.Estimate
	for _, e := range rows {
		k := keyOf(e, names)
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], e)
	}
	return groups
}

// unitRoles names a "unit" parameter by the part the unit plays where it
// is another parameter's value: in a battle swept over attackers and
// targets, the unit that is the point's attacker is "the attacker" and the
// one that is its target "the target". Series then pair up across groups
// (each attacker's own result beside its target's) rather than each unit's
// name making series of its own that are empty everywhere else. A unit
// that is no other parameter's value (a fixed target), or more than one's,
// keeps its name.
func unitRoles(rows []sim.Estimate) []sim.Estimate {
	out := make([]sim.Estimate, len(rows))
	for i, e := range rows {
		out[i] = e
		u, ok := e.Param("unit").(string)
		if !ok {
			continue
		}
		role := ""
		for _, p := range e.Params {
			if p.Name != "unit" && paramString(p.Value) == u {
				if role != "" {
					role = ""
					break
				}
				role = p.Name
			}
		}
		if role == "" {
			continue
		}
		out[i].Params = slices.Clone(e.Params)
		for j := range out[i].Params {
			if out[i].Params[j].Name == "unit" {
				out[i].Params[j].Value = rolePrefix + role
			}
		}
	}
	return out
}
