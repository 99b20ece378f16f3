package reports

import (
	"slices"

	"hammersim/sim"
)

// sufferedTitles name, for readers, the metrics reported per unit (under a
// "unit" parameter) that count what befell that unit: "wounds" and
// "models_killed" beside a unit's name read as what the unit did, while
// they are the wounds it suffered and the models it lost (the blows of the
// enemy, a Zzzzap! bolt, its own Disaster). Tables, documents and plots
// show the title; the metric's name stays as it is wherever it is a key
// (--metrics, JSON, CSV, file names), and headings give it beside the
// title so a reader can name it there.
var sufferedTitles = map[string]string{
	"wounds":        "wounds suffered",
	"models_killed": "models lost",
}

// titleFor is the reader's name of a metric: its title where it is a
// metric of sufferedTitles reported per unit, else its name. perUnit says
// whether the metric's estimates carry a "unit" parameter.
func titleFor(metric string, perUnit bool) string {
	if t, ok := sufferedTitles[metric]; ok && perUnit {
		return t
	}
	return metric
}

// metricTitle is titleFor over the estimates es, which hold the metric's.
func metricTitle(metric string, es []sim.Estimate) string {
	return titleFor(metric, slices.ContainsFunc(es, func(e sim.Estimate) bool {
		return e.Metric == metric && e.Param("unit") != nil
	}))
}

// comparedTitle is titleFor over the rows of a comparison.
func comparedTitle(metric string, c *sim.Comparison) string {
	return titleFor(metric, slices.ContainsFunc(c.Rows, func(r sim.ComparisonRow) bool {
		return r.Metric == metric && slices.ContainsFunc(r.Params, func(p sim.Param) bool { return p.Name == "unit" })
	}))
}

// heading names a metric in a table's or a section's heading, with what
// follows its name in brackets (its kind, a unit): "charge_success
// (probability)", or for a titled metric its title first and its name in
// the brackets, "wounds suffered (wounds, mean)".
func heading(metric, title, note string) string {
	if title == metric {
		return metric + " (" + note + ")"
	}
	return title + " (" + metric + ", " + note + ")"
}

// lineName names a metric at the head of a line: "impact_hits", or
// "models lost (models_killed)".
func lineName(metric, title string) string {
	if title == metric {
		return metric
	}
	return title + " (" + metric + ")"
}
