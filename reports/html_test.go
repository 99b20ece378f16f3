package reports

import (
	"bytes"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hammersim/sim"
)

var sampleSource = []byte("name: sample\n# a comment with <b>markup</b> & an ampersand\ntrials: 100\n")

// TestCategoricalGrid: a grid of means whose rows and columns are names
// lays out with the names alone under a corner naming both parameters,
// and plots as a heatmap.
func TestCategoricalGrid(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTable(&b, categoricalReport()); err != nil {
		t.Fatal(err)
	}
	golden(t, "matchups.txt", b.Bytes())
	for _, want := range []string{"wounds (mean)", `attacker \ target`, "| Orcs |", "| Knights           | 2.86 |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("grid lacks %q:\n%s", want, b.String())
		}
	}
	dir := t.TempDir()
	plots, err := WritePlots(dir, categoricalReport())
	if err != nil {
		t.Fatal(err)
	}
	// The grid metric as a heatmap, the other metric (breaks) as bars:
	// one figure per metric, each PNG and SVG.
	if len(plots.Files) != 4 || len(plots.Notes) != 0 {
		t.Fatalf("files %v notes %v, want a heatmap and a bar figure as PNG and SVG", plots.Files, plots.Notes)
	}
	plots.Files = plots.Files[:2]
	for _, f := range plots.Files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "plot_heatmap_"+filepath.Base(f), data)
	}
	svg, _ := os.ReadFile(plots.Files[1])
	for _, label := range []string{">2.86<", ">Knights<", ">Goblins<", ">Spear &amp; &lt;Shield&gt;<"} {
		if !bytes.Contains(svg, []byte(label)) {
			t.Errorf("heatmap SVG lacks the label %s", label)
		}
	}
}

func TestHTMLGolden(t *testing.T) {
	r := stampedReport()
	r.Partial = true
	r.Results[0].Trials = 90
	var b bytes.Buffer
	if err := WriteHTML(&b, r, sampleSource); err != nil {
		t.Fatal(err)
	}
	golden(t, "sample.html", b.Bytes())
	var again bytes.Buffer
	WriteHTML(&again, r, sampleSource)
	if !bytes.Equal(b.Bytes(), again.Bytes()) {
		t.Error("the same report rendered to different HTML")
	}
	page := b.String()
	for _, want := range []string{
		"<title>sample</title>", `class="partial"`, "PARTIAL RESULTS", "<th>workers</th><td>4 ",
		"1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b", "NOT MET",
		"exact 70.00%, z 0.0", "<svg ", "&lt;b&gt;markup&lt;/b&gt; &amp; an ampersand",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	checkSelfContained(t, page)

	var cat bytes.Buffer
	if err := WriteHTML(&cat, categoricalReport(), nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(cat.String(), "<Shield>") || !strings.Contains(cat.String(), "Spear &amp; &lt;Shield&gt;") {
		t.Error("a name with markup is not escaped")
	}
	if strings.Contains(cat.String(), "PARTIAL") || strings.Contains(cat.String(), "<h2>Scenario</h2>") {
		t.Error("a complete report without a source has a banner or a source section")
	}
}

func TestComparisonHTMLGolden(t *testing.T) {
	sources := map[string][]byte{"swordsmen.yaml": []byte("name: swordsmen\n"), "knights.yaml": []byte("name: knights <elite>\n")}
	var b bytes.Buffer
	if err := WriteComparisonHTML(&b, sampleComparison(), sampleStamp(), sources); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare.html", b.Bytes())
	page := b.String()
	for _, want := range []string{"Comparison of Knights, Swordsmen and Spear &amp; &lt;Shield&gt;", `class="l win">Knights higher (&gt;99.9%)`, "<th>workers</th>", "name: knights &lt;elite&gt;"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Index(page, "knights.yaml") > strings.Index(page, "swordsmen.yaml") {
		t.Error("sources are not in name order")
	}
	checkSelfContained(t, page)
}

// checkSelfContained: nothing on the page is fetched, and every SVG is
// inline.
func checkSelfContained(t *testing.T, page string) {
	t.Helper()
	for _, bad := range []string{"<script", "<link", "<img", "@import", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("page has %q", bad)
		}
	}
	if strings.Contains(page, "<?xml") {
		t.Error("an SVG kept its XML prologue")
	}
	if n, m := strings.Count(page, "<svg "), strings.Count(page, "</svg>"); n == 0 || n != m {
		t.Errorf("%d <svg> and %d </svg>", n, m)
	}
	if regexp.MustCompile(`(?i)(src|href)="https?:`).MatchString(page) {
		t.Error("page refers to the network")
	}
}

func TestMarkdownReport(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.md")
	r := stampedReport()
	files, err := WriteMarkdownReport(path, r, []byte("name: sample\nnote: \"```\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(dir, "out_plots", "charge_success.png"),
		filepath.Join(dir, "out_plots", "charge_reach.png"),
		path,
	}
	if strings.Join(files, "\n") != strings.Join(want, "\n") {
		t.Fatalf("files %q, want %q", files, want)
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "report.md", doc)
	for _, f := range files[:2] {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if !bytes.Contains(doc, []byte("](out_plots/"+filepath.Base(f)+")")) {
			t.Errorf("the document does not link %s", filepath.Base(f))
		}
	}
	// The source holds a run of three backticks, so its fence is longer.
	if !bytes.Contains(doc, []byte("````yaml\n")) || !bytes.Contains(doc, []byte("- workers: 4")) {
		t.Errorf("document:\n%s", doc)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d entries in the folder, want out.md and out_plots", len(entries))
	}
}

// TestDegenerateInputs: empty, axis-less and all-NaN reports and an empty
// comparison render without error in every format.
func TestDegenerateInputs(t *testing.T) {
	nan := categoricalReport()
	for i := range nan.Results {
		nan.Results[i].Value = math.NaN()
	}
	noAxes := categoricalReport()
	noAxes.Axes = nil
	for name, r := range map[string]*sim.Report{"empty": {}, "grid without axes": noAxes, "all NaN": nan} {
		for ext, write := range resultWriters {
			if err := write(io.Discard, r); err != nil {
				t.Errorf("%s, %s: %v", name, ext, err)
			}
		}
		if err := WriteHTML(io.Discard, r, nil); err != nil {
			t.Errorf("%s, HTML: %v", name, err)
		}
		if _, err := WritePlots(t.TempDir(), r); err != nil {
			t.Errorf("%s, plots: %v", name, err)
		}
		if _, err := WriteMarkdownReport(filepath.Join(t.TempDir(), "r.md"), r, nil); err != nil {
			t.Errorf("%s, Markdown report: %v", name, err)
		}
	}
	c := &sim.Comparison{}
	for _, write := range []func(io.Writer, *sim.Comparison, sim.Stamp) error{WriteComparisonTable, WriteComparisonJSON, WriteComparisonCSV, WriteComparisonMarkdown} {
		if err := write(io.Discard, c, sim.Stamp{}); err != nil {
			t.Error(err)
		}
	}
	if err := WriteComparisonHTML(io.Discard, c, sim.Stamp{}, nil); err != nil {
		t.Error(err)
	}
}
