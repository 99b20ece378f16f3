package reports

import (
	"encoding/csv"
	"io"
	"strconv"

	"hammersim/sim"
)

// WriteCSV writes one row per estimate. The columns are scenario, seed,
// partial, metric, kind, then one column per swept parameter (in sweep
// order, empty where an estimate has no such parameter), then trials,
// estimate, se, ci95_low, ci95_high and exact (empty when none).
// Histograms are left to the JSON output.
func WriteCSV(w io.Writer, r *sim.Report) error {
	names := paramNames(r.Results)
	cw := csv.NewWriter(w)
	header := append([]string{"scenario", "seed", "partial", "metric", "kind"}, names...)
	header = append(header, "trials", "estimate", "se", "ci95_low", "ci95_high", "exact")
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, e := range r.Results {
		row := []string{r.Scenario, strconv.FormatUint(r.Seed, 10), strconv.FormatBool(r.Partial), e.Metric, e.Kind.String()}
		for _, n := range names {
			if v := e.Param(n); v != nil {
				row = append(row, paramString(v))
			} else {
				row = append(row, "")
			}
		}
		ex := ""
		if e.HasExact {
			ex = csvNum(e.Exact)
		}
		row = append(row, strconv.FormatInt(e.Trials, 10), csvNum(e.Value), csvNum(e.SE), csvNum(e.CI95[0]), csvNum(e.CI95[1]), ex)
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvNum(v float64) string {
	if s := num(v); s != "null" {
		return s
	}
	return ""
}
