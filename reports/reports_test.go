package reports

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hammersim/internal/goldenfile"
	"hammersim/sim"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// sampleReport is a small charge-like report: two M values by three
// distances, one probability metric laid out as a grid, and a mean metric
// with a histogram.
func sampleReport() *sim.Report {
	r := &sim.Report{
		Scenario: "sample", Description: "A small report.", Version: "test", Seed: 3, Trials: 100,
		Axes: []sim.Axis{{Name: "M", Values: []any{4, 5}}, {Name: "distance", Values: []any{6, 7, 8}}},
		Grid: &sim.Grid{Metric: "charge_success", Rows: "distance", Cols: "M"},
	}
	for _, m := range []int{4, 5} {
		for _, d := range []int{6, 7, 8} {
			k := int64(100 - 30*(d-m-1))
			e := sim.ProbabilityOf("charge_success", []sim.Param{{Name: "M", Value: m}, {Name: "distance", Value: d}}, min(k, 100), 100)
			r.Results = append(r.Results, e.WithExact(float64(min(k, 100))/100))
		}
	}
	h := sim.NewHistogram(5, 10)
	for v, c := range map[int]int64{6: 10, 7: 30, 8: 40, 9: 20} {
		h.AddN(v, c)
	}
	r.Results = append(r.Results, sim.MeanOf("charge_reach", []sim.Param{{Name: "M", Value: 4}}, &h).WithExact(7.7))
	return r
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./reports -update creates it)", err)
	}
	if err := goldenfile.Equal(got, want); err != nil {
		t.Errorf("%s differs from its golden file: %v (go test ./reports -update if intended)", name, err)
	}
}

func TestTextFormats(t *testing.T) {
	for name, write := range map[string]func(io.Writer, *sim.Report) error{
		"sample.txt": WriteTable, "sample.json": WriteJSON, "sample.csv": WriteCSV, "sample.md": WriteMarkdown,
	} {
		var b bytes.Buffer
		if err := write(&b, sampleReport()); err != nil {
			t.Fatal(err)
		}
		golden(t, name, b.Bytes())
	}
}

// TestJSONContract decodes the JSON and checks the fields other tools
// depend on, with their types.
func TestJSONContract(t *testing.T) {
	var b bytes.Buffer
	r := sampleReport()
	r.Results[0].Value = math.NaN() // not finite: must become null
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Scenario string  `json:"scenario"`
		Seed     *uint64 `json:"seed"`
		Trials   *int64  `json:"trials"`
		Version  string  `json:"version"`
		Partial  *bool   `json:"partial"`
		Results  []struct {
			Metric    string           `json:"metric"`
			Params    map[string]any   `json:"params"`
			Estimate  *float64         `json:"estimate"`
			CI95      []float64        `json:"ci95"`
			Exact     *float64         `json:"exact"`
			Histogram map[string]int64 `json:"histogram"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, b.String())
	}
	if doc.Scenario != "sample" || doc.Seed == nil || *doc.Seed != 3 || doc.Trials == nil || *doc.Trials != 100 || doc.Version != "test" || doc.Partial == nil {
		t.Errorf("header fields wrong: %+v", doc)
	}
	if len(doc.Results) != 7 {
		t.Fatalf("%d results, want 7", len(doc.Results))
	}
	first := doc.Results[0]
	if first.Metric != "charge_success" || first.Params["M"] != 4.0 || first.Params["distance"] != 6.0 || first.Estimate != nil || len(first.CI95) != 2 || first.Exact == nil {
		t.Errorf("first result wrong: %+v", first)
	}
	last := doc.Results[6]
	if last.Histogram["7"] != 30 || len(last.Histogram) != 4 || last.Estimate == nil || math.Abs(*last.Estimate-7.7) > 1e-12 {
		t.Errorf("histogram result wrong: %+v", last)
	}
	// Histogram keys are written in numeric order, not string order.
	if i, j := strings.Index(b.String(), `"9": 20`), strings.Index(b.String(), `"6": 10`); i < j {
		t.Errorf("histogram keys out of order")
	}
}

// TestPartialJSONTrials: an interrupted run's "trials" is what its points
// completed, as a comparison's is, and its stamp keeps the count asked
// for. The counts are those of an interrupted run of 20,000,000 trials
// whose every point completed 38 chunks of 16,384 (622,592).
func TestPartialJSONTrials(t *testing.T) {
	r := sampleReport()
	r.Partial, r.Trials = true, 20_000_000
	r.Completed = []int64{622_592, 622_592}
	r.Stamp = sim.Stamp{Scenario: "sample", Seed: 3, Trials: 20_000_000, Command: "simulate run sample --seed 3 --trials 622592"}
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Trials int64
		Stamp  struct{ Trials int64 }
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Trials != 622_592 || doc.Stamp.Trials != 20_000_000 {
		t.Errorf("trials %d, stamp's %d; want 622592 and 20000000", doc.Trials, doc.Stamp.Trials)
	}
	// Stopped before any point completed a chunk: the results rest on no
	// trials, as the partial line says ("0 of the 20,000,000 trials").
	r0 := sampleReport()
	r0.Partial, r0.Trials, r0.Completed = true, 20_000_000, []int64{0, 0}
	var b0 bytes.Buffer
	if err := WriteJSON(&b0, r0); err != nil {
		t.Fatal(err)
	}
	var doc0 struct{ Trials int64 }
	if err := json.Unmarshal(b0.Bytes(), &doc0); err != nil || doc0.Trials != 0 {
		t.Errorf("stopped before any trial: trials %d (%v), want 0", doc0.Trials, err)
	}
	var c bytes.Buffer
	if err := WriteComparisonJSON(&c, &sim.Comparison{Partial: true, Trials: 622_592}, r.Stamp); err != nil {
		t.Fatal(err)
	}
	var cmp struct{ Trials int64 }
	if err := json.Unmarshal(c.Bytes(), &cmp); err != nil || cmp.Trials != doc.Trials {
		t.Errorf("a comparison's trials %d (%v), a run's %d: they differ", cmp.Trials, err, doc.Trials)
	}
}

func TestPartialIsMarked(t *testing.T) {
	r := sampleReport()
	r.Partial = true
	for _, write := range []func(io.Writer, *sim.Report) error{WriteTable, WriteMarkdown} {
		var b bytes.Buffer
		if err := write(&b, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "PARTIAL RESULTS") {
			t.Errorf("partial report not marked:\n%s", b.String())
		}
	}
	var b bytes.Buffer
	WriteCSV(&b, r)
	if !strings.Contains(strings.Split(b.String(), "\n")[1], ",true,") {
		t.Errorf("CSV rows do not say partial")
	}
	// Every plot too, read alone: its title (in the SVG's text) and its
	// caption in report documents.
	figs, _, err := reportFigures(r, goOn)
	if err != nil || len(figs) == 0 {
		t.Fatalf("figures: %v, %d", err, len(figs))
	}
	for _, f := range figs {
		svg, err := render(f.fig, "svg")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(svg), "PARTIAL (interrupted)") || !strings.HasPrefix(f.caption, partialMark) {
			t.Errorf("plot %s of a partial run is not marked (caption %q)", f.name, f.caption)
		}
	}
	c := sampleComparison()
	c.Partial = true
	cfigs, _, err := comparisonFigures(c, goOn)
	if err != nil || len(cfigs) == 0 {
		t.Fatalf("comparison figures: %v, %d", err, len(cfigs))
	}
	for _, f := range cfigs {
		if svg, err := render(f.fig, "svg"); err != nil || !strings.Contains(string(svg), "PARTIAL (interrupted)") {
			t.Errorf("comparison plot %s of a partial run is not marked (%v)", f.name, err)
		}
	}
}

// TestPlotsGolden renders the sample's plots and compares them byte for
// byte with testdata/ (gonum/plot renders in pure Go; see internal/goldenfile
// for a build that fuses multiply-adds).
func TestPlotsGolden(t *testing.T) {
	dir := t.TempDir()
	plots, err := WritePlots(dir, sampleReport())
	if err != nil {
		t.Fatal(err)
	}
	if len(plots.Files) != 4 || len(plots.Notes) != 0 {
		t.Fatalf("files %v notes %v, want a grid plot and a histogram, each PNG and SVG", plots.Files, plots.Notes)
	}
	goldenFiles(t, plots.Files)
}

// goldenFiles compares each written plot file with testdata/plot_NAME.
func goldenFiles(t *testing.T, files []string) {
	t.Helper()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "plot_"+filepath.Base(f), data)
	}
}

func TestWriteFileWholeOrNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := WriteFile(path, func(w io.Writer) error { _, err := io.WriteString(w, "first"); return err }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFile(path, func(w io.Writer) error {
		io.WriteString(w, "half of a second versi")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "first" {
		t.Errorf("a failed write changed the file to %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files left, want only out.txt", len(entries))
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x.txt"), func(io.Writer) error { return nil }); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

// TestSimulatedTableBins: a distribution known only from a simulation
// lists each value while there are at most 60 of them; past that it groups
// them in round bins, at most 40. For 10,000 values, one each, from 0, the
// bins are 500 wide, the smallest of 1, 2, 5, 10, 20, ... that gives at
// most 40 bins (20 of them; 200 would give 50), and they add up to every
// trial.
func TestSimulatedTableBins(t *testing.T) {
	h := sim.NewHistogram(0, 10)
	for v := range 10_000 {
		h.Add(v)
	}
	var b strings.Builder
	if err := WriteDistribution(&b, Distribution{Title: "many", Sim: &h, Trials: 10_000, NoExact: "simulated only"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "10,000 different values were rolled: the table groups them 500 at a time") ||
		!strings.Contains(out, "| 9500 to 9999 |     5.00% |") || len(regexp.MustCompile(`(?m)^\| +[0-9]+ to [0-9]+ \|`).FindAllString(out, -1)) != 20 {
		t.Errorf("binned table:\n%s", out)
	}
	small := sim.NewHistogram(0, 10)
	for v := range 60 {
		small.Add(v)
	}
	b.Reset()
	if err := WriteDistribution(&b, Distribution{Title: "few", Sim: &small, Trials: 60, NoExact: "simulated only"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "groups them") || !strings.Contains(b.String(), "|    59 |") {
		t.Errorf("60 values are listed one by one:\n%s", b.String())
	}
}

// TestPct: a chance that is possible but rounds to nothing, or not certain
// but rounds to certain, says so.
func TestPct(t *testing.T) {
	for p, want := range map[float64]string{0: "0.00%", 1e-6: "<0.01%", 0.00005: "0.01%", 0.5: "50.00%",
		0.99994: "99.99%", 0.99999: ">99.99%", 1: "100.00%", math.NaN(): "-"} {
		if got := pct(p); got != want {
			t.Errorf("pct(%v) = %q, want %q", p, got, want)
		}
	}
}

// TestNoFalseRounding: a value that is not 0 never prints as 0, and a
// probability below 1 never as 100%: each prints as the nearest bound it
// passes, as simulate dice prints them. A table leaves out only rows whose
// estimate and exact value are 0 indeed.
func TestNoFalseRounding(t *testing.T) {
	for _, c := range []struct {
		k    sim.Kind
		v    float64
		want string
	}{
		{sim.Probability, 0, "0.00%"},
		{sim.Probability, 1, "100.00%"},
		{sim.Probability, 1 - 1.0/46656, ">99.99%"}, // 6D6 reaching 7": all but six 1s
		{sim.Probability, 2.1e-5, "<0.01%"},
		{sim.Probability, 0.5, "50.00%"},
		{sim.Mean, 0.0027, "0.003"},
		{sim.Mean, 0.0004, "<0.001"},
		{sim.Mean, -0.0004, ">-0.001"},
		{sim.Mean, 0, "0.000"},
	} {
		if got := number(c.k, c.v); got != c.want {
			t.Errorf("number(%v, %g) = %q, want %q", c.k, c.v, got, c.want)
		}
	}
	if got := percent(0.99996, 1); got != ">99.9" {
		t.Errorf("percent(0.99996, 1) = %q, want >99.9", got)
	}
	rare := sim.ProbabilityOf("p", nil, 0, 1000).WithExact(2e-5)
	if zeroRow(rare) {
		t.Error("a row whose exact chance is 2e-5 is left out as all 0")
	}
	if !zeroRow(sim.ProbabilityOf("p", nil, 0, 1000).WithExact(0)) {
		t.Error("a row of 0 with exact 0 is kept")
	}
}
