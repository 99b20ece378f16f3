package reports

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
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
		{0.974, "no clear difference (A 97.4%)", -1},
		{0.96, "no clear difference (A 96.0%)", -1},
		{0.62, "no clear difference (A 62%)", -1},
		{0.5, "no clear difference (A 50%)", -1},
		{0.3, "no clear difference (B 70%)", -1},
		{0.025, "B higher (97.5%)", 1},
		{0, "B higher (>99.9%)", 1},
		{math.NaN(), "no interval (under 2 batches)", -1},
	} {
		d := sim.Difference{A: 0, B: 1, HigherA: tc.higherA, SE: 0.1}
		if got := verdict(d, names); got != tc.want {
			t.Errorf("HigherA %g: %q, want %q", tc.higherA, got, tc.want)
		}
		if got := winner(d); got != tc.winner {
			t.Errorf("HigherA %g: winner %d, want %d", tc.higherA, got, tc.winner)
		}
	}
}

// TestVerdictWithoutSpread: when every batch gives the same difference
// (paired trials of candidates that differ by a constant), there is no
// doubt to put a percentage on.
func TestVerdictWithoutSpread(t *testing.T) {
	d := sim.Difference{A: 0, B: 1, Value: -1, HigherA: 0, SE: 0}
	if got := verdict(d, []string{"A", "B"}); got != "B higher (every batch)" {
		t.Errorf("%q", got)
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
	if got := rows[1][len(rows[1])-1]; got != "Knights" {
		t.Errorf("winner %q, want Knights", got)
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
	figs, notes, err := comparisonFigures(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != MaxComparisonPlots+1 || len(notes) != 1 {
		t.Errorf("%d figures, notes %q", len(figs), notes)
	}
}
