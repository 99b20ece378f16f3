package reports

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"hammersim/sim"
)

// Distribution is an exact distribution over consecutive integers, with an
// optional simulated histogram to set beside it, as `simulate dice` shows.
type Distribution struct {
	Title string
	// Min is the value of Exact[0].
	Min   int
	Exact []float64
	// Label names a value ("Misfire" for an Artillery dice's 0); nil for
	// plain numbers.
	Label func(int) string
	// Sim, when set, is a Monte Carlo histogram of the same quantity.
	Sim *sim.Histogram
	// Seed and Trials describe Sim; Partial says an interruption cut it
	// short.
	Seed    uint64
	Trials  int64
	Partial bool
	// MeanNote qualifies the mean, e.g. "Misfire counted as 0".
	MeanNote string
	// NoExact, when set, says why Exact is missing: Sim alone is shown.
	NoExact string
}

// WriteDistribution writes the exact distribution like AnyDice does, with
// "exactly", "at least" and "at most" columns in percent, the simulated
// frequency and its Wilson 95% interval when a simulation ran, then the
// mean and standard deviation.
func WriteDistribution(w io.Writer, d Distribution) error {
	ew := &errWriter{w: w}
	fmt.Fprintln(ew, d.Title)
	if d.Exact == nil && d.Sim != nil {
		return writeSimulated(ew, d)
	}
	header := []string{"value", "exactly", "at least", "at most"}
	if d.Sim != nil {
		header = append(header, "simulated", "95% CI", "z")
	}
	t := newTable(ew, header, 0)
	atLeast := 1.0
	atMost := 0.0
	mean, varSum := 0.0, 0.0
	for i, p := range d.Exact {
		v := d.Min + i
		mean += p * float64(v)
		if p == 0 {
			atLeast -= p
			continue // impossible values, such as odd Artillery results
		}
		atMost += p
		label := strconv.Itoa(v)
		if d.Label != nil {
			label = d.Label(v)
		}
		row := []string{label, pct(p), pct(math.Max(0, atLeast)), pct(math.Min(1, atMost))}
		if d.Sim != nil {
			e := sim.ProbabilityOf("", nil, d.Sim.Count(v), d.Sim.N()).WithExact(p)
			row = append(row, pct(e.Value), pct(e.CI95[0])+" to "+pct(e.CI95[1]), zString(e))
		}
		if err := t.Append(row); err != nil {
			return err
		}
		atLeast -= p
	}
	if err := t.Render(); err != nil {
		return err
	}
	for i, p := range d.Exact {
		x := float64(d.Min+i) - mean
		varSum += p * x * x
	}
	note := ""
	if d.MeanNote != "" {
		note = " (" + d.MeanNote + ")"
	}
	fmt.Fprintf(ew, "exact: mean %.4f, sd %.4f%s\n", mean, math.Sqrt(varSum), note)
	if d.Sim != nil {
		m := sim.MeanOf("", nil, d.Sim).WithExact(mean)
		fmt.Fprintf(ew, "simulated: mean %.4f (95%% CI %.4f to %.4f, z %s), sd %.4f; %s trials, seed %d\n",
			m.Value, m.CI95[0], m.CI95[1], zString(m), m.StdDev, groupThousands(d.Trials), d.Seed)
	}
	return ew.err
}

func pct(p float64) string {
	if math.IsNaN(p) {
		return "-"
	}
	return strconv.FormatFloat(100*p, 'f', 2, 64) + "%"
}
