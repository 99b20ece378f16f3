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
// simulated, then the simulated mean. Past maxSimRows values the table
// groups them in bins of a round width, so that it stays readable (JSON and
// CSV still list every value).
func writeSimulated(ew *ErrWriter, d Distribution) error {
	if d.NoExact != "" {
		fmt.Fprintln(ew, d.NoExact)
	}
	n := d.Sim.N()
	lo, hi, ok := d.Sim.Range()
	width := 1
	if ok && d.Label == nil {
		width = binWidth(d.Sim, lo, hi)
	}
	first := "value"
	if width > 1 {
		first = "values"
		fmt.Fprintln(ew, wrapText(fmt.Sprintf("%s different values were rolled: the table groups them %d at a time (JSON and CSV list each).",
			GroupThousands(int64(distinct(d.Sim, lo, hi))), width), TerminalWidth))
	}
	header := []string{first, "simulated", "95% CI", "at least", "at most"}
	var rows [][]string
	atMost := int64(0)
	for start := floorTo(lo, width); ok && start <= hi; start += width {
		k := int64(0)
		for v := max(start, lo); v <= min(start+width-1, hi); v++ {
			k += d.Sim.Count(v)
		}
		if k == 0 {
			continue
		}
		atLeast := n - atMost
		atMost += k
		label := strconv.Itoa(start)
		switch {
		case d.Label != nil:
			label = d.Label(start)
		case width > 1:
			label += " to " + strconv.Itoa(start+width-1)
		}
		e := sim.ProbabilityOf("", nil, k, n)
		row := []string{label, pct(e.Value), pct(e.CI95[0]) + " to " + pct(e.CI95[1]), pct(float64(atLeast) / float64(n)), pct(float64(atMost) / float64(n))}
		rows = append(rows, row)
	}
	if err := writeASCII(ew, header, alignment(0, len(header), 0), rows); err != nil {
		return err
	}
	if d.Moments != nil {
		fmt.Fprintf(ew, "exact: mean %.4f, sd %.4f\n", d.Moments.Mean, d.Moments.SD)
	}
	if n > 0 {
		fmt.Fprintf(ew, "simulated: %s\n", meanSummary(simulatedMean(d), d.Moments != nil, d.Trials, d.Seed))
	}
	return ew.Err
}

// maxSimRows is the most rows a simulated distribution's table shows
// value by value; past it, the table groups the values in at most
// maxSimBins bins.
const (
	maxSimRows = 60
	maxSimBins = 40
)

// binWidth is 1 when h holds at most maxSimRows different values, else the
// smallest round width (1, 2 or 5 times a power of ten) that puts lo..hi in
// at most maxSimBins bins.
func binWidth(h *sim.Histogram, lo, hi int) int {
	if distinct(h, lo, hi) <= maxSimRows {
		return 1
	}
	for scale := 1; ; scale *= 10 {
		for _, m := range []int{1, 2, 5} {
			if w := m * scale; (hi-floorTo(lo, w))/w+1 <= maxSimBins {
				return w
			}
		}
	}
}

// distinct counts the values in lo..hi that h holds.
func distinct(h *sim.Histogram, lo, hi int) int {
	n := 0
	for v := lo; v <= hi; v++ {
		if h.Count(v) > 0 {
			n++
		}
	}
	return n
}

// floorTo rounds v down to a multiple of w.
func floorTo(v, w int) int {
	if v >= 0 {
		return v / w * w
	}
	return -((-v + w - 1) / w * w)
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
	n := d.Sim.N() // once: it sums the whole histogram
	for v := lo; v <= hi; v++ {
		k := d.Sim.Count(v)
		if k == 0 {
			continue
		}
		r := distRow{value: v, label: strconv.Itoa(v), exact: nan, atLeast: nan, atMos: nan, sim: sim.ProbabilityOf("", nil, k, n)}
		if d.Label != nil {
			r.label = d.Label(v)
		}
		rows = append(rows, r)
	}
	return rows
}
