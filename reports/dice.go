package reports

import (
	"fmt"
	"io"
	"math"
	"slices"
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
	// Moments, when Exact is missing, holds the exact mean and standard
	// deviation where they are known without it (a sum of dice past the
	// budget); nil where they are not.
	Moments *Moments
}

// Moments are a distribution's exact mean and standard deviation.
type Moments struct{ Mean, SD float64 }

// WriteDistribution writes the exact distribution like AnyDice does, with
// "exactly", "at least" and "at most" columns in percent, the simulated
// frequency and its Wilson 95% interval when a simulation ran, then the
// mean and standard deviation.
func WriteDistribution(w io.Writer, d Distribution) error {
	ew := &ErrWriter{W: w}
	fmt.Fprintln(ew, d.Title)
	if d.Exact == nil && d.Sim != nil {
		return writeSimulated(ew, d)
	}
	header := []string{"value", "exactly", "at least", "at most"}
	if d.Sim != nil {
		header = append(header, "simulated", "95% CI", "z")
	}
	var rows [][]string
	// The rows of distRows: tails summed from their own ends, and the
	// certain ends exactly 1.
	for _, r := range distRows(d) {
		row := []string{r.label, pct(r.exact), pct(r.atLeast), pct(r.atMos)}
		if d.Sim != nil {
			row = append(row, pct(r.sim.Value), pct(r.sim.CI95[0])+" to "+pct(r.sim.CI95[1]), zString(r.sim))
		}
		rows = append(rows, row)
	}
	if err := writeASCII(ew, header, alignment(0, len(header), 0), rows); err != nil {
		return err
	}
	mean, sd := distMoments(d)
	note := ""
	if d.MeanNote != "" {
		note = " (" + d.MeanNote + ")"
	}
	fmt.Fprintf(ew, "exact: mean %.4f, sd %.4f%s\n", mean, sd, note)
	if n := rareNote(d); n != "" {
		fmt.Fprintln(ew, wrapText(n, TerminalWidth))
	}
	if d.Sim != nil {
		m := simulatedMean(d)
		fmt.Fprintf(ew, "simulated: %s\n", meanSummary(m, true, d.Trials, d.Seed))
	}
	return ew.Err
}

// simulatedMean is the simulation's mean, against the exact distribution:
// its z takes the standard error under that distribution (its sd over the
// root of the trials), as every other z does, so that a few trials that
// happen to agree (two of 6D6 count 2+, both 6) are some standard errors
// off rather than infinitely many.
func simulatedMean(d Distribution) sim.Estimate {
	e := sim.MeanOf("", nil, d.Sim)
	if len(d.Exact) == 0 {
		if d.Moments != nil { // the exact mean alone
			return e.WithExact(d.Moments.Mean).WithExactSD(d.Moments.SD)
		}
		return e // simulated only: no exact value to set it against
	}
	return e.WithExactPMF(sim.PMF{Min: d.Min, P: d.Exact})
}

// rareNote warns when the distribution holds chances below the smallest
// normal float64 (about 2.2e-308): values rarer still have underflowed to
// 0 and are left out (600D6's sum of 600 is 6^-600, 1.3e-467), and those
// just above keep fewer digits.
func rareNote(d Distribution) string {
	if slices.ContainsFunc(d.Exact, func(p float64) bool { return p > 0 && p < 0x1p-1022 }) {
		return "Some values are rarer than about 1e-308, the smallest chance these numbers hold: the rarest are left out as if they could not come up, and the rarest shown lose digits."
	}
	return ""
}

func pct(p float64) string {
	switch {
	case math.IsNaN(p):
		return "-"
	case p > 0 && p < 0.00005:
		return "<0.01%" // possible, though it rounds to nothing
	case p < 1 && p >= 0.99995:
		return ">99.99%" // not certain, though it rounds to certain
	}
	return strconv.FormatFloat(100*p, 'f', 2, 64) + "%"
}

// meanSummary is a simulated mean as the dice reports write it: "mean
// 7.0012 (95% CI 6.9964 to 7.0060, z 0.5), sd 2.4152; 1,000,000 trials,
// seed 1", z only where asked. One trial has no interval or spread: "95%
// CI -", "sd -".
func meanSummary(m sim.Estimate, withZ bool, trials int64, seed uint64) string {
	ci := "95% CI -"
	if !math.IsNaN(m.CI95[0]) {
		ci = fmt.Sprintf("95%% CI %.4f to %.4f", m.CI95[0], m.CI95[1])
	}
	if withZ {
		ci += ", z " + zString(m)
	}
	sd := "-"
	if !math.IsNaN(m.StdDev) {
		sd = fmt.Sprintf("%.4f", m.StdDev)
	}
	return fmt.Sprintf("mean %.4f (%s), sd %s; %s, seed %d", m.Value, ci, sd, trialCount(trials), seed)
}

// trialCount is "1 trial", "2 trials", "1,000,000 trials".
func trialCount(n int64) string {
	if n == 1 {
		return "1 trial"
	}
	return GroupThousands(n) + " trials"
}
