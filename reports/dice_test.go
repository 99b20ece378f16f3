package reports

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"hammersim/sim"
)

// TestConditionOneIn: a condition's "about 1 in N" shows only digits its
// probability holds: 1/p in full to a million, then three significant
// figures. 6^100 written out from a float64 would have 78 digits, of which
// the 17th on are wrong.
func TestConditionOneIn(t *testing.T) {
	for _, tc := range []struct {
		p    float64
		want string
	}{
		{10.0 / 36, "about 1 in 3.6\n"},              // 2D6 >= 9
		{1.0 / 1296, "about 1 in 1296.0\n"},          // four sixes
		{math.Pow(6, -10), "about 1 in 6.05e+07\n"},  // 6^10 = 60,466,176
		{math.Pow(6, -100), "about 1 in 6.53e+77\n"}, // 6^100 = 6.533e77
		{0.75, "exact: 75.00% (0.75)\n"},             // likelier than not: no "1 in"
	} {
		var b strings.Builder
		if err := WriteCondition(&b, Condition{Title: "q", Exact: tc.p}, "table"); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(b.String(), tc.want) {
			t.Errorf("P = %g: %q, want it to end %q", tc.p, b.String(), tc.want)
		}
	}
}

// TestDistributionTailsToTheLastDigit: "at least" and "at most" are the
// float64 nearest their fractions, or the next one: for 2D6, at least v is
// (ways of v or more)/36, at most v (ways of v or less)/36, and so for D66,
// whose 36 values come up one way each. Summed from one end alone, 2D6's
// "at least 4" came to 0.9166666666666669, 3 steps off 33/36, and D66's
// "at least 25" to 0.30555555555555564, 4 steps off 11/36.
func TestDistributionTailsToTheLastDigit(t *testing.T) {
	d66 := make([]float64, 66-11+1) // D66: 11 to 66, ones where the units die shows 1 to 6
	for i := range d66 {
		if u := (11 + i) % 10; u >= 1 && u <= 6 {
			d66[i] = 1
		}
	}
	near := func(got, want float64) bool {
		return got == want || got == math.Nextafter(want, 2) || got == math.Nextafter(want, -1)
	}
	for _, tc := range []struct {
		name string
		min  int
		ways []float64
	}{
		{"2D6", 2, []float64{1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1}},
		{"D66", 11, d66},
	} {
		d := Distribution{Title: tc.name, Min: tc.min, Exact: make([]float64, len(tc.ways))}
		for i, w := range tc.ways {
			d.Exact[i] = w / 36
		}
		for _, r := range distRows(d) {
			i := r.value - tc.min
			up, down := 0.0, 0.0
			for _, w := range tc.ways[i:] {
				up += w
			}
			for _, w := range tc.ways[:i+1] {
				down += w
			}
			if !near(r.atLeast, up/36) || !near(r.atMos, down/36) {
				t.Errorf("%s, %d: at least %v, at most %v; want %v and %v", tc.name, r.value, r.atLeast, r.atMos, up/36, down/36)
			}
		}
	}
}

// TestSimulatedOnlyMarkdown: a distribution past the exact budget, in
// Markdown, says why it has no exact values and gives the simulated mean
// where the exact one would be, never "NaN". Rolls of 1, 2 and 3, four
// times each: mean 2, sd sqrt(8/11) = 0.8528 (the sample sd of 12 rolls).
func TestSimulatedOnlyMarkdown(t *testing.T) {
	h := sim.NewHistogram(1, 3)
	for v := 1; v <= 3; v++ {
		h.AddN(v, 4)
	}
	var b strings.Builder
	d := Distribution{Title: "100D1000r1", Sim: &h, Seed: 1, Trials: 12, NoExact: "no exact answer: simulated only"}
	if err := WriteDistributionAs(&b, d, "markdown"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "NaN") || !strings.Contains(out, "no exact answer: simulated only") || !strings.Contains(out, "Simulated mean 2.0000") || !strings.Contains(out, "sd 0.8528; 12 trials, seed 1.") {
		t.Errorf("simulated-only Markdown:\n%s", out)
	}
}

// TestMarkdownSaysWhatTheTableSays: a distribution in Markdown carries
// the mean's note and the simulated mean the table gives. Values 2, 3 and
// 4 at 1/3 each (D3+1): mean 3; rolled four times each, the simulated
// mean is 3 (z 0.0) with sd sqrt(8/11) = 0.8528 (the sample sd of 12
// rolls).
func TestMarkdownSaysWhatTheTableSays(t *testing.T) {
	h := sim.NewHistogram(2, 4)
	for v := 2; v <= 4; v++ {
		h.AddN(v, 4)
	}
	d := Distribution{Title: "D3 + 1", Min: 2, Exact: []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, MeanNote: "a note",
		Sim: &h, Seed: 1, Trials: 12}
	for _, format := range []string{"table", "markdown"} {
		var b strings.Builder
		if err := WriteDistributionAs(&b, d, format); err != nil {
			t.Fatal(err)
		}
		out := strings.ToLower(b.String())
		for _, want := range []string{"mean 3.0000, sd 0.8165 (a note)", "simulated: mean 3.0000 (", "z 0.0), sd 0.8528; 12 trials, seed 1"} {
			if format == "markdown" {
				want = strings.Replace(want, "simulated:", "simulated", 1)
			}
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in\n%s", format, want, b.String())
			}
		}
	}
}

// TestRareNote: chances below the smallest normal float64 (2^-1022, about
// 2.2e-308) mean rarer ones have underflowed to 0 and been left out; the
// table, Markdown and JSON say so, and say nothing for 2D6.
func TestRareNote(t *testing.T) {
	rare := Distribution{Title: "many dice", Min: 1, Exact: []float64{0x1p-1070, 0.5, 0.5}}
	plain := Distribution{Title: "2D6", Min: 2, Exact: []float64{1.0 / 36, 2.0 / 36, 3.0 / 36, 4.0 / 36, 5.0 / 36, 6.0 / 36, 5.0 / 36, 4.0 / 36, 3.0 / 36, 2.0 / 36, 1.0 / 36}}
	for _, format := range []string{"table", "markdown", "json"} {
		for _, tc := range []struct {
			d    Distribution
			note bool
		}{{rare, true}, {plain, false}} {
			var b strings.Builder
			if err := WriteDistributionAs(&b, tc.d, format); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(b.String(), "rarer than about 1e-308"); got != tc.note {
				t.Errorf("%s, %s: note %v, want %v\n%s", format, tc.d.Title, got, tc.note, b.String())
			}
		}
	}
}

// TestSimulatedOnlyCSV: a distribution past the exact budget leaves its
// exact cells empty in CSV, as a condition's CSV and every other CSV of
// the project do, rather than writing JSON's "null".
func TestSimulatedOnlyCSV(t *testing.T) {
	h := sim.NewHistogram(1, 2)
	h.AddN(1, 3)
	h.AddN(2, 1)
	var b strings.Builder
	d := Distribution{Title: "100D1000r1", Sim: &h, Seed: 1, Trials: 4, NoExact: "no exact answer: simulated only"}
	if err := WriteDistributionAs(&b, d, "csv"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if strings.Contains(b.String(), "null") || len(lines) != 3 || !strings.HasPrefix(lines[1], "100D1000r1,1,1,,,,0.75,") || !strings.HasPrefix(lines[2], "100D1000r1,2,2,,,,0.25,") {
		t.Errorf("simulated-only CSV:\n%s", b.String())
	}
}

// TestConditionInfiniteZ: a dice condition's z is written as the run
// JSON's is, "-inf" when the simulation missed a certainty (999 of 1,000
// against an exact 1) rather than null, which would read as no exact value.
func TestConditionInfiniteZ(t *testing.T) {
	h := sim.NewHistogram(0, 2)
	h.AddN(1, 999)
	h.AddN(0, 1)
	c := Condition{Title: "q", Exact: 1, Sim: &h, Seed: 1, Trials: 1000}
	for format, want := range map[string]string{"json": `"z": "-inf"`, "csv": ",-inf\n"} {
		var b strings.Builder
		if err := WriteCondition(&b, c, format); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), want) {
			t.Errorf("%s: no %q in %q", format, want, b.String())
		}
	}
}

// TestDistributionMeanZ: a simulated mean's z takes the standard error
// under the exact distribution, sd / sqrt(trials), as each value's z does
// (and a run's, scenarios.md, Results), not the simulation's own.
func TestDistributionMeanZ(t *testing.T) {
	binom6 := make([]float64, 7) // 6D6 count 2+: Binomial(6, 5/6)
	for k := range binom6 {
		binom6[k] = float64(binomial(6, k)) * math.Pow(5.0/6, float64(k)) * math.Pow(1.0/6, float64(6-k))
	}
	twoD6 := make([]float64, 11) // 2D6: 1..6..1 ways of 36, from 2
	for v := 2; v <= 12; v++ {
		twoD6[v-2] = float64(6-abs(v-7)) / 36
	}
	for _, tc := range []struct {
		name  string
		min   int
		exact []float64
		rolls []int
		text  string
		z     float64
	}{
		// Two rolls, both 6, against mean 5, sd sqrt(6 * 5/6 * 1/6) =
		// sqrt(5/6): z = 1 / (sqrt(5/6) / sqrt 2) = sqrt(2.4) = 1.5492.
		// The sample's sd is 0, which once gave z inf.
		{"6D6 count 2+", 0, binom6, []int{6, 6}, "z 1.5)", math.Sqrt(2.4)},
		// 7, 7, 10 against 2D6's mean 7, sd sqrt(35/6): z = 1 /
		// (sqrt(35/6) / sqrt 3) = sqrt(18/35) = 0.7171. The sample's sd,
		// sqrt((0+0+9 - 3*1) / 2) = sqrt 3, once gave z 1.0.
		{"2D6", 2, twoD6, []int{7, 7, 10}, "z 0.7)", math.Sqrt(18.0 / 35)},
	} {
		h := sim.NewHistogram(0, 40)
		for _, r := range tc.rolls {
			h.Add(r)
		}
		d := Distribution{Title: tc.name, Min: tc.min, Exact: tc.exact, Sim: &h, Seed: 6, Trials: int64(len(tc.rolls))}
		var text, js strings.Builder
		if err := WriteDistribution(&text, d); err != nil {
			t.Fatal(err)
		}
		if err := WriteDistributionAs(&js, d, "json"); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), tc.text) {
			t.Errorf("%s: no %q in %q", tc.name, tc.text, text.String())
		}
		var got struct{ Simulated struct{ Z any } }
		if err := json.Unmarshal([]byte(js.String()), &got); err != nil {
			t.Fatal(err)
		}
		if z, ok := got.Simulated.Z.(float64); !ok || math.Abs(z-tc.z) > 1e-9 {
			t.Errorf("%s: JSON z %v, want %.6f", tc.name, got.Simulated.Z, tc.z)
		}
	}
	// A query past the exact-work budget is simulated only: with no exact
	// value there is no z, in JSON null (not an infinite gap from 0).
	h := sim.NewHistogram(0, 40)
	h.Add(7)
	h.Add(9)
	var js strings.Builder
	if err := WriteDistributionAs(&js, Distribution{Title: "simulated only", Sim: &h, Seed: 6, Trials: 2}, "json"); err != nil {
		t.Fatal(err)
	}
	var got struct{ Simulated struct{ Z any } }
	if err := json.Unmarshal([]byte(js.String()), &got); err != nil {
		t.Fatal(err)
	}
	if got.Simulated.Z != nil {
		t.Errorf("simulated only: JSON z %v, want null", got.Simulated.Z)
	}
}

func binomial(n, k int) int {
	c := 1
	for i := range k {
		c = c * (n - i) / (i + 1)
	}
	return c
}

func abs(x int) int { return max(x, -x) }

// TestSymmetricMeanIsZero: D6 - D6's exact mean, summed from its
// probabilities, comes to about -1.7e-16; within rounding of 0 it is 0,
// in the table ("mean 0.0000", never "-0.0000") and the JSON.
func TestSymmetricMeanIsZero(t *testing.T) {
	d := Distribution{Title: "D6 - D6", Min: -5, Exact: make([]float64, 11)}
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			d.Exact[a-b+5] += 1.0 / 36
		}
	}
	var tb, js bytes.Buffer
	if err := WriteDistribution(&tb, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteDistributionAs(&js, d, "json"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tb.String(), "exact: mean 0.0000,") || !strings.Contains(js.String(), `"mean": 0,`) {
		t.Errorf("table:\n%s\njson:\n%s", tb.String(), js.String())
	}
}

// TestWideSimulatedDistributionWritesInLinearTime: a distribution known
// only by simulation, with 200,000 values rolled over a range of 400,000
// (a sum of many large dice, such as 64 terms of 100D1000), lists each
// value in JSON and CSV. Each row's chance needs the trials counted;
// counted again for every row, over the whole histogram, that was 8e10
// additions (minutes: 119 s for half as many values), and the output
// could not be interrupted meanwhile. Counted once, both formats take a
// fraction of a second; 10 s is room for a slow, loaded machine.
func TestWideSimulatedDistributionWritesInLinearTime(t *testing.T) {
	h := sim.NewHistogram(0, 400_000)
	for v := 0; v < 400_000; v += 2 {
		h.Add(v)
	}
	d := Distribution{Title: "64x100D1000", Sim: &h, Trials: h.N(), NoExact: "no exact distribution"}
	for _, format := range []string{"json", "csv"} {
		start := time.Now()
		if err := WriteDistributionAs(io.Discard, d, format); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("%s: %v to write 200,000 values", format, took)
		}
	}
}
