package reports

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"hammersim/sim"
)

// WriteMarkdown writes the report as Markdown: a heading, the run's
// parameters, and one table per metric with a row per point.
func WriteMarkdown(w io.Writer, r *sim.Report) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "# %s\n\n", r.Scenario)
	if r.Description != "" {
		fmt.Fprintf(ew, "%s\n\n", r.Description)
	}
	fmt.Fprintf(ew, "Seed %d, %s trials per point, hammersim %s.\n", r.Seed, groupThousands(r.Trials), r.Version)
	if r.Partial {
		fmt.Fprintf(ew, "\n**%s**\n", header(r)[2])
	}
	for _, metric := range metrics(r.Results) {
		var rows []sim.Estimate
		var names []string
		for _, e := range r.Results {
			if e.Metric != metric {
				continue
			}
			rows = append(rows, e)
			for _, p := range e.Params {
				if !slices.Contains(names, p.Name) {
					names = append(names, p.Name)
				}
			}
		}
		fmt.Fprintf(ew, "\n## %s (%s)\n\n", metric, rows[0].Kind)
		cols := append(slices.Clone(names), "estimate", "95% CI", "exact", "z", "trials")
		fmt.Fprintf(ew, "| %s |\n", strings.Join(cols, " | "))
		align := make([]string, len(cols))
		for i := range align {
			align[i] = "---:"
			if i < len(names) {
				align[i] = "---"
			}
		}
		fmt.Fprintf(ew, "|%s|\n", strings.Join(align, "|"))
		for _, e := range rows {
			cells := make([]string, 0, len(cols))
			for _, n := range names {
				if v := e.Param(n); v != nil {
					cells = append(cells, mdEscape(paramString(v)))
				} else {
					cells = append(cells, "")
				}
			}
			cells = append(cells, number(e.Kind, e.Value), interval(e), exact(e), zString(e), groupThousands(e.Trials))
			fmt.Fprintf(ew, "| %s |\n", strings.Join(cells, " | "))
		}
	}
	return ew.err
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
