package reports

import (
	"fmt"
	"math"
	"strconv"

	"hammersim/sim"
)

// writeSimulated writes a distribution known only from its simulated
// histogram, saying why there is no exact one: the frequency of each value
// rolled with its Wilson 95% interval, "at least" and "at most" as
// simulated, then the simulated mean.
func writeSimulated(ew *errWriter, d Distribution) error {
	if d.NoExact != "" {
		fmt.Fprintln(ew, d.NoExact)
	}
	t := newTable(ew, []string{"value", "simulated", "95% CI", "at least", "at most"}, 0)
	n := d.Sim.N()
	if lo, hi, ok := d.Sim.Range(); ok {
		atMost := int64(0)
		for v := lo; v <= hi; v++ {
			k := d.Sim.Count(v)
			if k == 0 {
				continue
			}
			atLeast := n - atMost
			atMost += k
			label := strconv.Itoa(v)
			if d.Label != nil {
				label = d.Label(v)
			}
			e := sim.ProbabilityOf("", nil, k, n)
			row := []string{label, pct(e.Value), pct(e.CI95[0]) + " to " + pct(e.CI95[1]), pct(float64(atLeast) / float64(n)), pct(float64(atMost) / float64(n))}
			if err := t.Append(row); err != nil {
				return err
			}
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	if n > 0 {
		m := sim.MeanOf("", nil, d.Sim)
		fmt.Fprintf(ew, "simulated: mean %.4f (95%% CI %.4f to %.4f), sd %.4f; %s trials, seed %d\n",
			m.Value, m.CI95[0], m.CI95[1], m.StdDev, groupThousands(d.Trials), d.Seed)
	}
	return ew.err
}

// simulatedRows lists the values a simulation rolled, for a distribution
// with no exact one: the exact columns are not numbers.
func simulatedRows(d Distribution) []distRow {
	var rows []distRow
	lo, hi, ok := d.Sim.Range()
	if !ok {
		return nil
	}
	nan := math.NaN()
	for v := lo; v <= hi; v++ {
		k := d.Sim.Count(v)
		if k == 0 {
			continue
		}
		r := distRow{value: v, label: strconv.Itoa(v), exact: nan, atLeast: nan, atMos: nan, sim: sim.ProbabilityOf("", nil, k, d.Sim.N())}
		if d.Label != nil {
			r.label = d.Label(v)
		}
		rows = append(rows, r)
	}
	return rows
}
