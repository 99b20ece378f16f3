package reports

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"hammersim/sim"
)

// TestTickLabels: labels are the ticks' values with the fewest shared
// decimals that write each exactly. Each case's ticks are gonum's default
// places (plot.DefaultTicks) for an axis where gonum's own labels repeat
// or round; the float noise in them (15.450000000000001, 4.2700000000000005)
// is gonum's.
func TestTickLabels(t *testing.T) {
	for _, c := range []struct {
		vals   []float64
		scale  float64
		suffix string
		want   []string
	}{
		// A narrow mean axis, 15.396 to 15.474: gonum wrote 15, 15, 15, 15.
		{[]float64{15.4, 15.42, 15.44, 15.46}, 1, "", []string{"15.40", "15.42", "15.44", "15.46"}},
		// 15.39 to 15.51: gonum wrote 15, 15, 16.
		{[]float64{15.4, 15.450000000000001, 15.5}, 1, "", []string{"15.40", "15.45", "15.50"}},
		// A 200,000-trial charge reach: gonum wrote 15.4, 15.5, 15.5.
		{[]float64{15.4475, 15.4575, 15.4675}, 1, "", []string{"15.4475", "15.4575", "15.4675"}},
		// 4.27 to 4.36, impact hits: gonum wrote 4.3, 4.3, 4.4.
		{[]float64{4.28, 4.32, 4.36}, 1, "", []string{"4.28", "4.32", "4.36"}},
		// Whole numbers keep no decimals; a zero is not -0.
		{[]float64{math.Copysign(0, -1), 5, 10}, 1, "", []string{"0", "5", "10"}},
		// Percent: 0.6000000000000001 is 60%.
		{[]float64{0.2, 0.6000000000000001, 1}, 100, "%", []string{"20%", "60%", "100%"}},
		{[]float64{0.994, 0.9945, 0.995}, 100, "%", []string{"99.40%", "99.45%", "99.50%"}},
	} {
		ticks := []plot.Tick{{Value: c.vals[0] - 1}} // a minor tick stays unlabelled
		for _, v := range c.vals {
			ticks = append(ticks, plot.Tick{Value: v, Label: "x"})
		}
		tickLabels(ticks, c.scale, c.suffix)
		var got []string
		for _, tk := range ticks[1:] {
			got = append(got, tk.Label)
		}
		if ticks[0].Label != "" || !slices.Equal(got, c.want) {
			t.Errorf("%v: labels %q (minor %q), want %q", c.vals, got, ticks[0].Label, c.want)
		}
	}
}

// exactTickLabels checks that an axis has at least two labelled ticks,
// each label distinct and reading back as its tick's value (times scale)
// to a billionth.
func exactTickLabels(t *testing.T, ticker plot.Ticker, lo, hi, scale float64, suffix string) {
	t.Helper()
	seen := map[string]bool{}
	for _, tk := range ticker.Ticks(lo, hi) {
		if tk.Label == "" {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSuffix(tk.Label, suffix), 64)
		if err != nil || math.Abs(v-scale*tk.Value) > 1e-9*math.Abs(scale*tk.Value) || seen[tk.Label] {
			t.Errorf("axis %v to %v: tick %v labelled %q (repeated: %v)", lo, hi, tk.Value, tk.Label, seen[tk.Label])
		}
		seen[tk.Label] = true
	}
	if len(seen) < 2 {
		t.Errorf("axis %v to %v: %d labelled ticks", lo, hi, len(seen))
	}
}

// TestComparisonMeanTicks: a comparison of averages zooms its y axis to
// the candidates' intervals and labels it with the ticks' own values.
// Two candidates at 15.456 (a 200,000-trial charge reach, interval
// ±0.0097) once gave ticks labelled 15.4, 15.5, 15.5, and three at about
// 4.3 (impact hits, ±0.03) 4.3, 4.3, 4.3.
func TestComparisonMeanTicks(t *testing.T) {
	for _, c := range []struct{ v, half float64 }{{15.456275, 0.0097}, {4.30, 0.03}, {15.44, 0.04}} {
		cmp := &sim.Comparison{Candidates: []string{"a", "b"}, Trials: 1000}
		row := sim.ComparisonRow{Metric: "charge_reach", Kind: sim.Mean}
		for range cmp.Candidates {
			row.Estimates = append(row.Estimates, sim.Estimate{Metric: "charge_reach", Kind: sim.Mean,
				Value: c.v, CI95: [2]float64{c.v - c.half, c.v + c.half}, Trials: 1000})
		}
		cmp.Rows = []sim.ComparisonRow{row}
		figs, _, err := comparisonFigures(cmp, goOn)
		if err != nil || len(figs) != 1 {
			t.Fatal(figs, err)
		}
		p := figs[0].fig.(*plot.Plot)
		if p.Y.Min < c.v-2*c.half || p.Y.Max > c.v+4*c.half {
			t.Errorf("%v ±%v: y axis %v to %v, not fitted to the intervals", c.v, c.half, p.Y.Min, p.Y.Max)
		}
		exactTickLabels(t, p.Y.Tick.Marker, p.Y.Min, p.Y.Max, 1, "")
	}
}

// TestNumberTicksExact: on axes of every width from a thousandth to
// thousands, at offsets from 0 to 1000, every labelled tick is distinct
// and its value; so are percent ticks on probability axes.
func TestNumberTicksExact(t *testing.T) {
	for _, lo := range []float64{0, 0.3, 4.27, 15.396, 999.9} {
		for _, w := range []float64{0.001, 0.0123, 0.078, 0.5, 3, 47, 2500} {
			exactTickLabels(t, numberTicks{}, lo, lo+w, 1, "")
		}
	}
	for _, lo := range []float64{0, 0.17, 0.4, 0.98} {
		for _, w := range []float64{0.0012, 0.006, 0.02, 0.3} {
			if lo+w <= 1 {
				exactTickLabels(t, percentTicks{}, lo, lo+w, 100, "%")
			}
		}
	}
}

// TestComparisonProbabilityZoom: a comparison's probability axis fits
// the candidates' intervals (40%, 41% and 42% of 1,000, Wilson intervals
// about ±3 points, so roughly 37% to 45%) rather than running from 0% to
// 100%, so that close candidates can be told apart; it is still in
// percent and labels nothing past 0% or 100%.
func TestComparisonProbabilityZoom(t *testing.T) {
	c := comparisonOf(sim.Probability, [3]float64{0.40, 0.41, 0.42})
	figs, _, err := comparisonFigures(c, goOn)
	if err != nil || len(figs) != 1 {
		t.Fatal(figs, err)
	}
	p := figs[0].fig.(*plot.Plot)
	if p.Y.Min < 0.3 || p.Y.Max > 0.6 {
		t.Errorf("y axis %v to %v: want it fitted to the intervals, about 0.37 to 0.45", p.Y.Min, p.Y.Max)
	}
	percentTicksOnly(t, p)
	exactTickLabels(t, p.Y.Tick.Marker, p.Y.Min, p.Y.Max, 100, "%")
}

// TestStepTicks: an axis of averages from below 0 to above it labels 0
// and ticks at the multiples of one step, as does one where gonum's
// default would label two values only: -1.626 to 5.3 (a combat result's
// intervals) at every whole number from -1 to 5, seven labels, where
// gonum's default labels -1, 2 and 5; -0.3 to 0.2 at every tenth. Across
// widths and offsets the labels are still distinct and exact, and at most
// seven.
func TestStepTicks(t *testing.T) {
	labels := func(lo, hi float64) []string {
		var out []string
		for _, tk := range (numberTicks{}).Ticks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	for _, tt := range []struct {
		lo, hi float64
		want   []string
	}{
		{-1.626, 5.3, []string{"-1", "0", "1", "2", "3", "4", "5"}},
		{-0.3, 0.2, []string{"-0.3", "-0.2", "-0.1", "0.0", "0.1", "0.2"}},
		// Where gonum's default labels two values only (0 and 25), every 5.
		{0, 26, []string{"0", "5", "10", "15", "20", "25"}},
	} {
		if got := labels(tt.lo, tt.hi); !slices.Equal(got, tt.want) {
			t.Errorf("%v to %v: labels %q, want %q", tt.lo, tt.hi, got, tt.want)
		}
	}
	for _, lo := range []float64{-0.001, -0.04, -1.5, -30, -2000} {
		for _, w := range []float64{0.002, 0.05, 2, 47, 2500} {
			if lo+w <= 0 {
				continue
			}
			exactTickLabels(t, numberTicks{}, lo, lo+w, 1, "")
			got := labels(lo, lo+w)
			if !slices.Contains(got, "0") && !slices.ContainsFunc(got, func(s string) bool { v, err := strconv.ParseFloat(s, 64); return err == nil && v == 0 }) {
				t.Errorf("%v to %v: labels %q leave 0 out", lo, lo+w, got)
			}
			if len(got) > 7 || len(got) < 2 {
				t.Errorf("%v to %v: %d labels %q, want 2 to 7", lo, lo+w, len(got), got)
			}
		}
	}
}
