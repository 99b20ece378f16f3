package reports

import "hammersim/sim"

// metricTitle is the reader's name of metric among the estimates es: the
// title its question gave it (sim.Estimate.Title), else its name.
func metricTitle(metric string, es []sim.Estimate) string {
	for _, e := range es {
		if e.Metric == metric && e.Title != "" {
			return e.Title
		}
	}
	return metric
}

// comparedTitle is metricTitle over the rows of a comparison.
func comparedTitle(metric string, c *sim.Comparison) string {
	for _, r := range c.Rows {
		if r.Metric == metric {
			if t := metricTitle(metric, r.Estimates); t != metric {
				return t
			}
		}
	}
	return metric
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
