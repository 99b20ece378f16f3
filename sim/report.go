package sim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Report is the outcome of a scenario run, as every output format shows it.
type Report struct {
	Scenario    string
	Description string
	Version     string
	Seed        uint64
	// Trials is the number of trials asked for per point.
	Trials int64
	// Workers that ran it (results do not depend on it).
	Workers int
	// Partial is set when the run was interrupted; each estimate's Trials
	// says how many trials it rests on.
	Partial bool
	// Completed is the trials each model ran (Run.Completed): an estimate
	// over the trials in which something happened (a combat result, over
	// the trials in which a round was fought) rests on fewer than its
	// point ran, so the points' own counts come from here.
	Completed []int64
	Results   []Estimate
	// Axes lists the swept parameters in the order they vary, outermost
	// first, with their values.
	Axes []Axis
	// Grid, when set, suggests laying a metric out as a table with one
	// parameter down the rows and another across the columns; plots draw it
	// as lines against the rows when they are numbers (one line per column
	// value), as a heatmap when they are names.
	Grid *Grid
	// Stamp says what produced the report and how to reproduce it.
	Stamp Stamp
}

// Stamp identifies a run: what ran, on what, and the command line that
// reproduces its numbers exactly. Results do not depend on Workers, so
// outputs meant to be compared byte for byte (JSON, CSV, tables) leave it
// out; report documents (HTML, Markdown reports) show it.
type Stamp struct {
	Version  string
	Scenario string
	// ScenarioSHA256 is the hex SHA-256 of the scenario file's bytes.
	ScenarioSHA256 string
	Seed           uint64
	// Trials per point that ran (after a precision target, the final count).
	Trials  int64
	Workers int
	// Command reproduces the numbers: simulate run ... --seed S --trials N.
	Command string
	// Precision is the 95% half-width the run aimed at, or 0; PrecisionMet
	// says whether every probability reached it before MaxTrials.
	Precision    float64
	PrecisionMet bool
	MaxTrials    int64
}

// Axis is a swept parameter and its values.
type Axis struct {
	Name   string
	Values []any
	// Names marks values that say what they are without the parameter's
	// name: the names of swept units ("Doomwheel"), where a number, a
	// switch or a word of a rule ("3+", "wap") needs it ("save=3+").
	Names bool
}

// Grid names the metric and the two parameters of a two-way layout.
type Grid struct {
	Metric     string
	Rows, Cols string
}

// MetricOrder lists the metrics of es in the order of the point that
// reports the most of them (a point is the estimates that share the values
// of the swept parameters named in axes), as they first appear there, then
// any others as they first appear. A metric some points lack (a price only
// some attackers have) then takes its place among the others, the same
// whichever point the sweep begins with, where the order of first
// appearance put it after every metric of the first point.
func MetricOrder(es []Estimate, axes []string) []string {
	var keys []string
	perPoint := map[string][]string{}
	var key strings.Builder
	// A point's estimates mostly come one after another: its key is made
	// again only when an axis's value changes, so that the order costs an
	// allocation a point, not one an estimate.
	prev := make([]any, len(axes))
	k, have := "", false
	for _, e := range es {
		same := have
		for i, a := range axes {
			v := paramValue(e.Params, a)
			if !sameValue(v, prev[i]) {
				same = false
			}
			prev[i] = v
		}
		if !same {
			key.Reset()
			for _, v := range prev {
				switch x := v.(type) {
				case string:
					key.WriteString(x)
				case int:
					key.WriteString(strconv.Itoa(x))
				default:
					fmt.Fprint(&key, x)
				}
				key.WriteByte(0)
			}
			k, have = key.String(), true
		}
		ms, seen := perPoint[k]
		if !seen {
			keys = append(keys, k)
		}
		if !slices.Contains(ms, e.Metric) {
			perPoint[k] = append(ms, e.Metric)
		}
	}
	var order []string
	for _, k := range keys {
		if len(perPoint[k]) > len(order) {
			order = perPoint[k]
		}
	}
	order = slices.Clone(order)
	for _, e := range es {
		if !slices.Contains(order, e.Metric) {
			order = append(order, e.Metric)
		}
	}
	return order
}

// paramValue is the value of the parameter named name, nil when ps has
// none.
func paramValue(ps []Param, name string) any {
	for _, p := range ps {
		if p.Name == name {
			return p.Value
		}
	}
	return nil
}

// sameValue reports whether two parameter values are equal, for the
// kinds axes hold; values of any other kind are never taken as equal.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		return sameAs(x, b)
	case int:
		return sameAs(x, b)
	case bool:
		return sameAs(x, b)
	case float64:
		return sameAs(x, b)
	}
	return false
}

// sameAs reports whether b holds a T equal to x.
func sameAs[T comparable](x T, b any) bool {
	y, ok := b.(T)
	return ok && x == y
}
