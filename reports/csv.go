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
// estimate, se, ci95_low, ci95_high, exact (empty when none), z (as in
// WriteJSON: empty when there is no exact value, "inf" or "-inf" when
// infinite), successes (probabilities; empty for means), and sd, median,
// p05 and p95 (means; empty for probabilities): the JSON's members, in its
// order. The columns after exact came later and so stand last, where they
// leave a reader of the earlier ones as it was. Histograms are left to the
// JSON output.
func WriteCSV(w io.Writer, r *sim.Report) error {
	names := paramNames(r.Results)
	cw := csv.NewWriter(w)
	header := append([]string{"scenario", "seed", "partial", "metric", "kind"}, names...)
	header = append(header, "trials", "estimate", "se", "ci95_low", "ci95_high", "exact", "z", "successes", "sd", "median", "p05", "p95")
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
		row = append(row, strconv.FormatInt(e.Trials, 10), csvNum(e.Value), csvNum(e.SE), csvNum(e.CI95[0]), csvNum(e.CI95[1]), csvExact(e), zCSV(e))
		if e.Kind == sim.Probability {
			row = append(row, strconv.FormatInt(e.Successes, 10), "", "", "", "")
		} else {
			row = append(row, "", csvNum(e.StdDev), csvNum(e.Median), csvNum(e.P05), csvNum(e.P95))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvExact is an estimate's exact value for a CSV cell, empty when none.
func csvExact(e sim.Estimate) string {
	if !e.HasExact {
		return ""
	}
	return csvNum(e.Exact)
}

func csvNum(v float64) string {
	if s := num(v); s != "null" {
		return s
	}
	return ""
}
