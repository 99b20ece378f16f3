package reports

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"hammersim/sim"
)

func TestComparisonFormats(t *testing.T) {
	for name, write := range map[string]func(io.Writer) error{
		"compare.txt":  func(w io.Writer) error { return WriteComparisonTable(w, sampleComparison(), sampleStamp()) },
		"compare.json": func(w io.Writer) error { return WriteComparisonJSON(w, sampleComparison(), sampleStamp()) },
		"compare.csv":  func(w io.Writer) error { return WriteComparisonCSV(w, sampleComparison(), sampleStamp()) },
		"compare.md":   func(w io.Writer) error { return WriteComparisonMarkdown(w, sampleComparison(), sampleStamp()) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		golden(t, name, b.Bytes())
	}
}

// TestComparisonTableWidth: two or three candidates with names of ordinary
// length fit a 100-column terminal.
func TestComparisonTableWidth(t *testing.T) {
	c := sampleComparison()
	c.Candidates = []string{"Knights", "Swordsmen", "Spearmen"}
	var b bytes.Buffer
	if err := WriteComparisonTable(&b, c, sim.Stamp{}); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "|") || strings.HasPrefix(l, "+") {
			if n := len([]rune(l)); n > 100 {
				t.Errorf("%d columns: %s", n, l)
			}
		}
	}
}

// TestComparisonLongNames: candidates with long names (60 characters, and
// one of 130 without a space, longer than a line) are called A, B, C in the
// tables, with a legend giving their names; every line fits the terminal
// (the reproduce line, a command, is not wrapped), and each name up to the
// width of a line appears whole. Names of ordinary length stay in the
// tables, with no legend.
func TestComparisonLongNames(t *testing.T) {
	long := []string{
		strings.Repeat("doomwheel-", 6),                               // 60 characters, no space
		"Clanrats with spears, shields, full command and a warlock x", // 60 characters
		strings.Repeat("stormvermin", 12)[:130],                       // longer than a line
	}
	c := sampleComparison()
	c.Candidates = long
	var b bytes.Buffer
	if err := WriteComparisonTable(&b, c, sampleStamp()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "reproduce: ") {
			continue
		}
		if n := len([]rune(l)); n > TerminalWidth {
			t.Errorf("%d columns: %s", n, l)
		}
	}
	for _, want := range []string{"  A = " + long[0], "  B = " + long[1], "  C = " + long[2][:TerminalWidth-6],
		"| target  |", "A higher", "A - B"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	var short bytes.Buffer
	if err := WriteComparisonTable(&short, sampleComparison(), sampleStamp()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(short.String(), "by letter") || !strings.Contains(short.String(), "Knights higher") {
		t.Errorf("names of ordinary length were replaced by letters:\n%s", short.String())
	}
}

// TestComparisonLettersNotNames: a candidate's letter is never a text the
// tables show as something else. Candidates named "C" and "B" (units swept
// with --by) would otherwise be lettered A and C, and the column C would be
// the candidate named B; numbers stand in, and the legend says so.
func TestComparisonLettersNotNames(t *testing.T) {
	c := sampleComparison()
	c.Candidates = []string{"C", strings.Repeat("Clanrats with a very long name ", 3), "B"}
	var b bytes.Buffer
	if err := WriteComparisonTable(&b, c, sampleStamp()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"The tables call the candidates by number:\n  #1 = C\n", "  #3 = B\n",
		" #1 | ", "| #1 - #3 |", "#1 higher"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "A = ") || strings.Contains(out, "| A ") {
		t.Errorf("letters stand for candidates that have letters for names:\n%s", out)
	}

	for _, tc := range []struct {
		n     int
		taken []string
		want  string
	}{
		{3, nil, "A B C"},
		{3, []string{"Knights", "Orcs"}, "A B C"},
		{3, []string{"B"}, "#1 #2 #3"}, // a unit or candidate named B
		{3, []string{"C", "#2"}, "A' B' C'"},
		{3, []string{"C", "#1", "B'"}, "A'' B'' C''"},
		{28, nil, "A B C D E F G H I J K L M N O P Q R S T U V W X Y Z A2 B2"}, // 26 letters, then A2
	} {
		taken := map[string]bool{}
		for _, n := range tc.taken {
			taken[n] = true
		}
		if got := strings.Join(candidateLetters(tc.n, taken), " "); got != tc.want {
			t.Errorf("%d candidates, %q taken: %s, want %s", tc.n, tc.taken, got, tc.want)
		}
	}
}

// pairRow is a row of two candidates that both report the metric, 1,000
// trials each, for the verdict tests.
func pairRow() sim.ComparisonRow {
	return sim.ComparisonRow{Metric: "breaks", Kind: sim.Probability,
		Estimates: []sim.Estimate{sim.ProbabilityOf("breaks", nil, 500, 1000), sim.ProbabilityOf("breaks", nil, 600, 1000)}}
}

// TestVerdict pins the wording and the 97.5% threshold, on both sides.
func TestVerdict(t *testing.T) {
	names := []string{"A", "B"}
	for _, tc := range []struct {
		higherA float64
		want    string
		winner  int
	}{
		{0.999999, "A higher (>99.9%)", 0},
		{1, "A higher (>99.9%)", 0}, // a t probability that rounds to 1 is not certainty
		{0.975, "A higher (97.5%)", 0},
		{0.974, "unclear (A 97.4%)", -1},
		// Just short of the threshold, on either side: rounded to a tenth
		// the figure would be the threshold's, 97.5%; an unclear verdict
		// reads the tenth below. Just over it, the verdict is clear.
		{0.97496, "unclear (A 97.4%)", -1},
		{0.02504, "unclear (B 97.4%)", -1},
		{0.97504, "A higher (97.5%)", 0},
		{0.02496, "B higher (97.5%)", 1},
		{0.96, "unclear (A 96.0%)", -1},
		{0.62, "unclear (A 62%)", -1},
		{0.5, "unclear (even)", -1}, // a difference of exactly 0 leans to neither
		{0.499, "unclear (B 50%)", -1},
		{0.3, "unclear (B 70%)", -1},
		{0.025, "B higher (97.5%)", 1},
		{0, "B higher (>99.9%)", 1},
		{math.NaN(), "no interval (under 2 batches)", -1},
	} {
		d := sim.Difference{A: 0, B: 1, HigherA: tc.higherA, SE: 0.1, Batches: 32}
		if got := verdict(d, pairRow(), names); got != tc.want {
			t.Errorf("HigherA %g: %q, want %q", tc.higherA, got, tc.want)
		}
		if got := winner(d); got != tc.winner {
			t.Errorf("HigherA %g: winner %d, want %d", tc.higherA, got, tc.winner)
		}
	}
}

// TestVerdictWithoutSpread: when every batch gives the same difference
// (paired trials of candidates that differ by a constant), there is no
// doubt to put a percentage on; when that difference is 0 (paired trials
// that never differ, such as two units that always charge home), the
// candidates are equal, and neither is named.
func TestVerdictWithoutSpread(t *testing.T) {
	d := sim.Difference{A: 0, B: 1, Value: -1, HigherA: 0, SE: 0, Batches: 32}
	if got := verdict(d, pairRow(), []string{"A", "B"}); got != "B higher (every batch)" {
		t.Errorf("%q", got)
	}
	d = sim.Difference{A: 0, B: 1, Value: 0, HigherA: 0.5, SE: 0, Batches: 32}
	if got := verdict(d, pairRow(), []string{"A", "B"}); got != "equal (every batch)" {
		t.Errorf("%q", got)
	}
}

// TestVerdictMissing: a difference with a candidate that does not report
// the metric (a unit with no Impact Hits) says so, not that batches were
// short, and names the candidate; the JSON says why in no_interval.
func TestVerdictMissing(t *testing.T) {
	names := []string{"Doomwheel", "Rat Ogres", "Stormvermin"}
	nan := math.NaN()
	none := sim.Difference{Value: nan, SE: nan, CI95: [2]float64{nan, nan}, HigherA: nan}
	row := sim.ComparisonRow{Metric: "impact_hits", Kind: sim.Mean, Estimates: []sim.Estimate{
		sim.ProbabilityOf("impact_hits", nil, 5, 10), {Value: nan, CI95: [2]float64{nan, nan}}, {Value: nan, CI95: [2]float64{nan, nan}}}}
	for _, tc := range []struct {
		a, b int
		want string
	}{
		{0, 1, "not reported for Rat Ogres"},
		{1, 0, "not reported for Rat Ogres"},
		{1, 2, "not reported for either"},
	} {
		d := none
		d.A, d.B = tc.a, tc.b
		if got := verdict(d, row, names); got != tc.want {
			t.Errorf("%s - %s: %q, want %q", names[tc.a], names[tc.b], got, tc.want)
		}
		if got := noInterval(d, row); got != noIntervalMissing {
			t.Errorf("%s - %s: no_interval %q", names[tc.a], names[tc.b], got)
		}
	}
	d := none
	d.A, d.B, d.Batches = 0, 1, 1
	if got := noInterval(d, pairRow()); got != noIntervalBatches {
		t.Errorf("one batch: no_interval %q", got)
	}
}

// TestComparisonJSONContract decodes the comparison JSON with its types.
func TestComparisonJSONContract(t *testing.T) {
	var b bytes.Buffer
	if err := WriteComparisonJSON(&b, sampleComparison(), sampleStamp()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Candidates []string       `json:"candidates"`
		Stamp      map[string]any `json:"stamp"`
		Rows       []struct {
			Metric       string         `json:"metric"`
			Params       map[string]any `json:"params"`
			ParamsDiffer bool           `json:"params_differ"`
			Kind         string         `json:"kind"`
			Estimates    []struct {
				Candidate string     `json:"candidate"`
				Estimate  *float64   `json:"estimate"`
				CI95      []*float64 `json:"ci95"`
				Trials    int64      `json:"trials"`
			} `json:"estimates"`
			Differences []struct {
				A, B       string
				Difference *float64   `json:"difference"`
				CI95       []*float64 `json:"ci95"`
				HigherA    *float64   `json:"higher_a"`
				Batches    int        `json:"batches"`
				Winner     *string    `json:"winner"`
				Verdict    string     `json:"verdict"`
			} `json:"differences"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, b.String())
	}
	if len(doc.Candidates) != 3 || doc.Candidates[2] != "Spear & <Shield>" || len(doc.Rows) != 3 {
		t.Fatalf("candidates %v, %d rows", doc.Candidates, len(doc.Rows))
	}
	if _, ok := doc.Stamp["workers"]; ok || doc.Stamp["seed"] != 7.0 {
		t.Errorf("stamp %v", doc.Stamp)
	}
	first := doc.Rows[0]
	if first.Metric != "wounds" || first.Params["target"] != "Orcs" || first.Kind != "mean" || len(first.Estimates) != 3 || len(first.Differences) != 3 {
		t.Errorf("first row: %+v", first)
	}
	if d := first.Differences[0]; d.A != "Knights" || d.B != "Swordsmen" || d.Winner == nil || *d.Winner != "Knights" || d.Batches != 32 {
		t.Errorf("first difference: %+v", d)
	}
	if d := first.Differences[1]; d.Winner != nil {
		t.Errorf("an unclear difference has winner %q", *d.Winner)
	}
	last := doc.Rows[2].Differences[2]
	if last.HigherA != nil || last.CI95[0] != nil || last.Difference == nil || !doc.Rows[2].ParamsDiffer {
		t.Errorf("a difference without batches: %+v", last)
	}
}

func TestComparisonCSV(t *testing.T) {
	var b bytes.Buffer
	if err := WriteComparisonCSV(&b, sampleComparison(), sampleStamp()); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// 3 rows of 3 pairs each, and the header.
	if len(rows) != 10 {
		t.Fatalf("%d rows, want 10", len(rows))
	}
	for _, r := range rows {
		if len(r) != len(rows[0]) {
			t.Errorf("ragged row %v", r)
		}
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	if got := rows[1][col["winner"]]; got != "Knights" {
		t.Errorf("winner %q, want Knights", got)
	}
	// The last pair of breaks rests on one batch (sampleComparison).
	if got := rows[9][col["no_interval"]]; got != "too_few_batches" || rows[1][col["no_interval"]] != "" {
		t.Errorf("no_interval %q and %q, want too_few_batches and empty", got, rows[1][col["no_interval"]])
	}
	if rows[1][0] != "matchups" || rows[1][1] != "7" {
		t.Errorf("row does not name the run: %v", rows[1])
	}
}

// TestComparisonPlotsGolden renders the sample comparison's plots: one per
// metric, the wounds one grouped by target, the breaks one by candidate.
func TestComparisonPlotsGolden(t *testing.T) {
	dir := t.TempDir()
	plots, err := WriteComparisonPlots(dir, sampleComparison())
	if err != nil {
		t.Fatal(err)
	}
	if len(plots.Files) != 4 || len(plots.Notes) != 0 {
		t.Fatalf("files %v notes %v, want two plots, each PNG and SVG", plots.Files, plots.Notes)
	}
	goldenFiles(t, plots.Files)
}

// TestComparisonPlotsCapped: past MaxComparisonPlots metrics, plots are
// left out with a note; a metric past MaxComparisonPoints points is split
// in two figures rather than cut.
func TestComparisonPlotsCapped(t *testing.T) {
	c := &sim.Comparison{Candidates: []string{"A", "B"}}
	for m := range MaxComparisonPlots + 1 {
		points := 1
		if m == 0 {
			points = MaxComparisonPoints + 5
		}
		for p := range points {
			row := sim.ComparisonRow{Metric: "m" + string(rune('a'+m)), Kind: sim.Probability, Params: []sim.Param{{Name: "x", Value: p}}}
			row.Estimates = []sim.Estimate{sim.ProbabilityOf("", nil, 5, 10), sim.ProbabilityOf("", nil, 6, 10)}
			row.Diffs = []sim.Difference{{A: 0, B: 1, HigherA: math.NaN(), SE: math.NaN(), CI95: [2]float64{math.NaN(), math.NaN()}}}
			c.Rows = append(c.Rows, row)
		}
	}
	figs, notes, err := comparisonFigures(c, goOn)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != MaxComparisonPlots+1 || len(notes) != 1 {
		t.Errorf("%d figures, notes %q", len(figs), notes)
	}
}

// exactComparison is a comparison in the shape of doomwheel-balance: a
// Doomwheel, Rat Ogres and Stormvermin charging one target. Charging has
// an exact value for every candidate (the Doomwheel's 95.37%, 103/108, its
// chance to move far enough; the others always make it), the Doomwheel's
// Impact Hits one of their own (4.292), which the other two do not report
// at all, and the wounds a closed form for none of them.
func exactComparison() *sim.Comparison {
	names := []string{"Doomwheel", "Rat Ogres", "Stormvermin"}
	c := &sim.Comparison{Candidates: names, Trials: 20000}
	ps := []sim.Param{{Name: "target", Value: "Halberdiers"}}
	nan := math.NaN()
	// 2.04: the Student t 97.5% quantile for 31 degrees of freedom (32
	// batches), as in sampleComparison.
	diff := func(a, b int, v, se, higher float64) sim.Difference {
		return sim.Difference{A: a, B: b, Value: v, SE: se, CI95: [2]float64{v - 2.04*se, v + 2.04*se}, HigherA: higher, Batches: 32}
	}
	none := func(a, b int) sim.Difference {
		return sim.Difference{A: a, B: b, Value: nan, SE: nan, CI95: [2]float64{nan, nan}, HigherA: nan}
	}
	charge := sim.ComparisonRow{Metric: "charge_success", Kind: sim.Probability, Params: ps, Estimates: []sim.Estimate{
		sim.ProbabilityOf("charge_success", ps, 19089, 20000).WithExact(103.0 / 108),
		sim.ProbabilityOf("charge_success", ps, 20000, 20000).WithExact(1),
		sim.ProbabilityOf("charge_success", ps, 20000, 20000).WithExact(1),
	}, Diffs: []sim.Difference{diff(0, 1, -0.04555, 0.00164, 1e-23), diff(0, 2, -0.04555, 0.00164, 1e-23), {A: 1, B: 2, CI95: [2]float64{0, 0}, HigherA: 0.5, Batches: 32}}}
	h := sim.NewHistogram(0, 8)
	h.AddN(4, 14000)
	h.AddN(5, 6000)
	missing := sim.Estimate{Metric: "impact_hits", Params: ps, Kind: sim.Mean, Value: nan, SE: nan, CI95: [2]float64{nan, nan}}
	impact := sim.ComparisonRow{Metric: "impact_hits", Kind: sim.Mean, Params: ps, Estimates: []sim.Estimate{
		sim.MeanOf("impact_hits", ps, &h).WithExact(103.0 / 24), missing, missing, // 103/24, printed as 4.292
	}, Diffs: []sim.Difference{none(0, 1), none(0, 2), none(1, 2)}}
	c.Rows = []sim.ComparisonRow{charge, impact}
	return c
}

// TestComparisonExact: every format gives each candidate's exact value and
// z beside its estimate where one is known, says which candidates do not
// report a metric rather than blaming the batches, and counts the batches
// of each metric's own differences.
func TestComparisonExact(t *testing.T) {
	for name, write := range map[string]func(io.Writer) error{
		"compare_exact.txt": func(w io.Writer) error { return WriteComparisonTable(w, exactComparison(), sim.Stamp{}) },
		"compare_exact.md":  func(w io.Writer) error { return WriteComparisonMarkdown(w, exactComparison(), sim.Stamp{}) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		golden(t, name, b.Bytes())
		out := b.String()
		// 103/108 = 95.37%; z = (0.95445 - 0.953704) / sqrt(0.953704 * 0.046296 / 20000) = 0.5.
		for _, want := range []string{"exact 95.37%, z 0.5", "exact 100.00%, z 0.0", "exact 4.292", "not reported for Rat Ogres", "not reported for either",
			"Rat Ogres and Stormvermin do not report impact_hits", "equal (every batch)"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in\n%s", name, want, out)
			}
		}
		for _, bad := range []string{"under 2 batches", "0 to 32", "Rat Ogres 50%"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s: %q in\n%s", name, bad, out)
			}
		}
	}
	var b bytes.Buffer
	if err := WriteComparisonHTML(&b, exactComparison(), sim.Stamp{}, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<span class="sub">exact 95.37%, z 0.5</span>`) {
		t.Errorf("the HTML gives no exact value:\n%s", b.String())
	}
	b.Reset()
	if err := WriteComparisonJSON(&b, exactComparison(), sim.Stamp{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rows []struct {
			Differences []struct {
				Batches    int     `json:"batches"`
				NoInterval *string `json:"no_interval"`
				Verdict    string  `json:"verdict"`
			} `json:"differences"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if d := doc.Rows[0].Differences[0]; d.NoInterval != nil || d.Batches != 32 {
		t.Errorf("charge: no_interval %v, batches %d", d.NoInterval, d.Batches)
	}
	if d := doc.Rows[1].Differences[0]; d.NoInterval == nil || *d.NoInterval != "missing" || d.Verdict != "not reported for Rat Ogres" {
		t.Errorf("impact hits: %+v", d)
	}
}

// TestComparisonExactWidth: with exact values under the estimates, three
// candidates still fit 100 columns; past that the grid of estimates
// alone says where the widest gap from an exact value is.
func TestComparisonExactWidth(t *testing.T) {
	c := exactComparison()
	var b bytes.Buffer
	if err := WriteComparisonTable(&b, c, sim.Stamp{}); err != nil {
		t.Fatal(err)
	}
	if n := widest(b.Bytes()); n > TerminalWidth {
		t.Errorf("%d columns:\n%s", n, b.String())
	}
	c.Candidates = []string{"Doomwheel", "Rat Ogres", "Stormvermin", "Clanrats", "Plague Monks", "Gutter Runners"}
	for i := range c.Rows {
		c.Rows[i].Estimates = append(c.Rows[i].Estimates, c.Rows[i].Estimates...)
	}
	b.Reset()
	if err := WriteComparisonTable(&b, c, sim.Stamp{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if n := widest(b.Bytes()); n > TerminalWidth {
		t.Errorf("%d columns:\n%s", n, out)
	}
	flat := strings.Join(strings.Fields(out), " ") // the note is wrapped
	// The two Doomwheels (z 0.5, as above) are the widest gap of four exact values.
	if !strings.Contains(flat, "Exact values known for 6 of 6 estimates; the widest gap is 0.5 standard errors (Doomwheel, target=Halberdiers: 95.45% estimated, 95.37% exact).") {
		t.Errorf("no summary of the exact values in:\n%s", out)
	}
}

// TestZStringSign: a z that rounds to 0 is printed 0.0, never -0.0, and an
// infinite z keeps its sign.
func TestZStringSign(t *testing.T) {
	for _, tc := range []struct {
		successes int64
		exact     float64
		want      string
	}{
		// 500 of 1,000 against 0.5001: z = (0.5 - 0.5001) / sqrt(0.5001 * 0.4999 / 1000) = -0.006.
		{500, 0.5001, "0.0"},
		// 500 of 1,000 against 0.4999: z = +0.006.
		{500, 0.4999, "0.0"},
		// 480 of 1,000 against 0.5: z = -0.02 / sqrt(0.25 / 1000) = -1.26.
		{480, 0.5, "-1.3"},
		// 999 of 1,000 against a certainty: no spread under the exact
		// value, and the estimate is below it.
		{999, 1, "-inf"},
		// 1 of 1,000 against an impossibility: above it.
		{1, 0, "inf"},
	} {
		e := sim.ProbabilityOf("p", nil, tc.successes, 1000).WithExact(tc.exact)
		if got := zString(e); got != tc.want {
			t.Errorf("%d of 1000 against %g: z %q, want %q", tc.successes, tc.exact, got, tc.want)
		}
	}
}

// TestSignedNearZero: a difference that rounds to zero keeps the side of
// zero it lies on, and only a value above zero takes a "+" (a bound of
// -4e-5 read "+>-0.01 pp", a positive sign on a negative bound).
func TestSignedNearZero(t *testing.T) {
	for _, tc := range []struct {
		kind sim.Kind
		v    float64
		want string
	}{
		// 4e-5 is 0.004 percentage points: below the 0.01 shown.
		{sim.Probability, -4e-5, ">-0.01"},
		{sim.Probability, 4e-5, "+<0.01"},
		{sim.Probability, -0.25, "-25.00"},
		{sim.Probability, 0, "+0.00"},
		// A mean shows three decimals.
		{sim.Mean, -0.0004, ">-0.001"},
		{sim.Mean, 0.0004, "+<0.001"},
		{sim.Mean, 1.5, "+1.500"},
		{sim.Mean, math.NaN(), "-"},
	} {
		if got := signed(tc.kind, tc.v); got != tc.want {
			t.Errorf("signed(%v, %g) = %q, want %q", tc.kind, tc.v, got, tc.want)
		}
	}
}

// TestComparisonCSVVerdict: the CSV's verdict column holds the words the
// table gives each pair, for a clear, an unclear and an equal pair and
// for pairs with a candidate that does not report the metric, where the
// winner column is empty for all but the clear one.
func TestComparisonCSVVerdict(t *testing.T) {
	names := []string{"Knights", "Swordsmen", "Rat Ogres"}
	nan := math.NaN()
	ps := []sim.Param{{Name: "target", Value: "Orcs"}}
	// 2.04: the Student t 97.5% quantile for 31 degrees of freedom (32
	// batches), as in sampleComparison.
	diff := func(a, b int, v, se, higher float64) sim.Difference {
		return sim.Difference{A: a, B: b, Value: v, SE: se, CI95: [2]float64{v - 2.04*se, v + 2.04*se}, HigherA: higher, Batches: 32}
	}
	none := func(a, b int) sim.Difference {
		return sim.Difference{A: a, B: b, Value: nan, SE: nan, CI95: [2]float64{nan, nan}, HigherA: nan}
	}
	breaks := sim.ComparisonRow{Metric: "breaks", Kind: sim.Probability, Params: ps, Estimates: []sim.Estimate{
		sim.ProbabilityOf("breaks", ps, 620, 1000), sim.ProbabilityOf("breaks", ps, 580, 1000), sim.ProbabilityOf("breaks", ps, 580, 1000),
	}, Diffs: []sim.Difference{diff(0, 1, 0.04, 0.015, 0.994), diff(0, 2, 0.01, 0.02, 0.62), {A: 1, B: 2, CI95: [2]float64{0, 0}, HigherA: 0.5, Batches: 32}}}
	h := sim.NewHistogram(0, 8)
	h.AddN(4, 700)
	h.AddN(5, 300)
	missing := sim.Estimate{Metric: "impact_hits", Params: ps, Kind: sim.Mean, Value: nan, SE: nan, CI95: [2]float64{nan, nan}}
	impact := sim.ComparisonRow{Metric: "impact_hits", Kind: sim.Mean, Params: ps, Estimates: []sim.Estimate{
		sim.MeanOf("impact_hits", ps, &h), missing, missing,
	}, Diffs: []sim.Difference{none(0, 1), none(0, 2), none(1, 2)}}
	c := &sim.Comparison{Candidates: names, Trials: 1000, Rows: []sim.ComparisonRow{breaks, impact}}

	var table, b bytes.Buffer
	if err := WriteComparisonTable(&table, c, sim.Stamp{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteComparisonCSV(&b, c, sim.Stamp{}); err != nil {
		t.Fatal(err)
	}
	rows, col := csvColumns(t, b.Bytes())
	want := []struct{ verdict, winner string }{
		{"Knights higher (99.4%)", "Knights"},
		{"unclear (Knights 62%)", ""},
		{"equal (every batch)", ""},
		{"not reported for Swordsmen", ""},
		{"not reported for Rat Ogres", ""},
		{"not reported for either", ""},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	lines := strings.Split(table.String(), "\n")
	for i, r := range rows {
		got := r[col["verdict"]]
		if got != want[i].verdict || r[col["winner"]] != want[i].winner {
			t.Errorf("%s - %s: verdict %q, winner %q; want %q, %q", r[col["candidate_a"]], r[col["candidate_b"]], got, r[col["winner"]], want[i].verdict, want[i].winner)
		}
		// The table's row for the pair ends with the same words.
		pair := r[col["candidate_a"]] + " - " + r[col["candidate_b"]]
		found := false
		for _, l := range lines {
			if strings.Contains(l, "| "+pair+" ") && strings.HasSuffix(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l), "|")), got) {
				found = true
			}
		}
		if !found {
			t.Errorf("no table row for %s says %q:\n%s", pair, got, table.String())
		}
	}
}

// TestVerdictNoTrials: a candidate that reports a metric but had no trial
// it applies to (the combat result of a unit whose charge never came home)
// is not said not to report it: the verdict says it had no trials, and the
// JSON's no_interval is "no_trials". The candidates' rows come from
// sim.Compare, which records who reports what.
func TestVerdictNoTrials(t *testing.T) {
	names := []string{"Slowpokes", "Riders", "Archers"}
	var empty sim.Histogram
	var some sim.Histogram
	some.AddN(2, 10)
	hits := sim.ProbabilityOf("hits", nil, 1, 2) // shared by all three
	reported := func(h *sim.Histogram) []sim.Estimate {
		return []sim.Estimate{sim.MeanOf("combat_result", nil, h), hits}
	}
	full := [][]sim.Estimate{reported(&empty), reported(&some), {hits}}
	v := func(es []sim.Estimate) []float64 { return sim.Values(es) }
	batches := [][][]float64{{v(full[0]), v(full[0])}, {v(full[1]), v(full[1])}, {v(full[2]), v(full[2])}}
	c, err := sim.Compare(names, full, batches, nil)
	if err != nil {
		t.Fatal(err)
	}
	row := c.Rows[0] // combat_result: Archers do not report it
	for _, tc := range []struct {
		a, b      int
		want, why string
	}{
		{0, 1, "no trials for Slowpokes", noIntervalNoTrials},
		{0, 2, "not reported for Archers", noIntervalMissing},
		{1, 2, "not reported for Archers", noIntervalMissing},
	} {
		d := row.Diffs[slices.IndexFunc(row.Diffs, func(d sim.Difference) bool { return d.A == tc.a && d.B == tc.b })]
		if got := verdict(d, row, names); got != tc.want {
			t.Errorf("%s - %s: %q, want %q", names[tc.a], names[tc.b], got, tc.want)
		}
		if got := noInterval(d, row); got != tc.why {
			t.Errorf("%s - %s: no_interval %q, want %q", names[tc.a], names[tc.b], got, tc.why)
		}
	}
}

// TestComparisonPlotSaysWhyMissing: a candidate with nothing to draw is
// named in the legend with why, as the table says it: "not reported" for
// one that does not report the metric (Rat Ogres make no Impact Hits),
// "no trials" for one that reports it but had no trial it applies to (a
// combat result where its charge never came home), both for a candidate
// missing at some points each way.
func TestComparisonPlotSaysWhyMissing(t *testing.T) {
	nan := math.NaN()
	missing := sim.Estimate{Value: nan, CI95: [2]float64{nan, nan}}
	none := sim.Difference{HigherA: nan, SE: nan, Value: nan, CI95: [2]float64{nan, nan}}
	c := &sim.Comparison{Candidates: []string{"Knights", "Rat Ogres", "Slow", "Mixed"}}
	for p := range 2 {
		row := sim.ComparisonRow{Metric: "combat_result", Kind: sim.Mean, Params: []sim.Param{{Name: "x", Value: p}}}
		row.Estimates = []sim.Estimate{sim.ProbabilityOf("", nil, 5, 10), missing, missing, missing}
		row.Reported = []bool{true, false, true, p == 0}
		for a := range 4 {
			for b := a + 1; b < 4; b++ {
				d := none
				d.A, d.B = a, b
				row.Diffs = append(row.Diffs, d)
			}
		}
		c.Rows = append(c.Rows, row)
	}
	figs, _, err := comparisonFigures(c, goOn)
	if err != nil {
		t.Fatal(err)
	}
	svg := svgText(t, figs[0].fig)
	for _, want := range []string{">Rat Ogres: not reported<", ">Slow: no trials<", ">Mixed: not reported, or no trials<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no %q in the figure", want)
		}
	}
}

// TestComparisonWideLabels: a comparison whose row labels are too wide
// for the full cells (estimate, interval, exact value) beside them gives
// way to the estimates alone, as one whose cells are too wide does; labels
// that leave no room for any column keep that table whole.
func TestComparisonWideLabels(t *testing.T) {
	c := sampleComparison()
	long := strings.Repeat("Orcs of the Broken Tooth ", 3) // 75 characters
	for i := range c.Rows[:2] {
		c.Rows[i].Params = []sim.Param{{Name: "target", Value: long + strconv.Itoa(i)}}
		for j := range c.Rows[i].Estimates {
			c.Rows[i].Estimates[j].Params = c.Rows[i].Params
		}
	}
	var b bytes.Buffer
	if err := WriteComparisonTable(&b, c, sim.Stamp{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "estimates are means; intervals in the JSON and CSV outputs") {
		t.Errorf("the wide labels' table kept its intervals:\n%s", b.String())
	}
}
