package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"hammersim/internal/goldenfile"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
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
		t.Fatalf("%v (run go test ./cmd/simulate -update to create it)", err)
	}
	if err := goldenfile.Equal(got, want); err != nil {
		t.Errorf("output differs from %s: %v (run go test ./cmd/simulate -update if the change is intended)\n got:\n%s", path, err, got)
	}
}

func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

func TestGolden(t *testing.T) {
	tests := []struct {
		file string
		args []string
	}{
		{"default.txt", nil},
		{"help.txt", []string{"-h"}},
		{"run-help.txt", []string{"run", "-h"}},
		{"list.txt", []string{"list"}},
		{"show.txt", []string{"show", "random-movement"}},
		{"flee-pursuit.txt", []string{"run", "flee-pursuit", "--trials", "20000"}},
		{"random-movement.json", []string{"run", "random-movement", "--trials", "5000", "--format", "json"}},
		{"random-movement.csv", []string{"run", "--format", "csv", "random-movement", "--trials", "5000"}},
		{"flee-pursuit.md", []string{"run", "flee-pursuit", "--trials", "5000", "--format", "markdown", "--seed", "7"}},
		{"dice.txt", []string{"dice", "3D6", "discard", "lowest", "--trials", "10000"}},
		{"dice-artillery.txt", []string{"dice", "artillery"}},
	}
	for _, tt := range tests {
		out, _, err := runCLI(t, tt.args...)
		if err != nil {
			t.Errorf("%v: %v", tt.args, err)
			continue
		}
		golden(t, tt.file, []byte(out))
	}
}

func TestTableFits100Columns(t *testing.T) {
	for _, args := range [][]string{nil, {"run", "flee-pursuit", "--trials", "1000"}, {"run", "random-movement", "--trials", "1000"}} {
		out, _, err := runCLI(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "+") || strings.HasPrefix(line, "|") {
				if n := len([]rune(line)); n > 100 {
					t.Errorf("%v: table line of %d columns: %s", args, n, line)
				}
			}
		}
	}
}

// TestWorkersDoNotChangeResults runs the same scenario with 1 and 4
// workers: the JSON must be byte-identical.
func TestWorkersDoNotChangeResults(t *testing.T) {
	var outs []string
	for _, w := range []string{"1", "4"} {
		out, _, err := runCLI(t, "run", "swiftstride-charge", "--trials", "70000", "--format", "json", "--workers", w)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Fatal("--workers 1 and --workers 4 gave different JSON")
	}
}

// TestFlagsWithoutCommand: simulate --trials N runs the default scenario,
// as simulate run --trials N does, byte for byte.
func TestFlagsWithoutCommand(t *testing.T) {
	bare, _, err := runCLI(t, "--trials", "2000", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	withRun, _, err := runCLI(t, "run", "--trials", "2000", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	if bare != withRun || !strings.Contains(bare, `"scenario": "swiftstride-charge"`) {
		t.Errorf("simulate --trials 2000 gave other output than simulate run --trials 2000:\n%.300s", bare)
	}
}

func TestErrorsAndExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("name: bad\nruleset: fantasy\ncharge:\n  unit: {name: A, M: 5, rules: [Swiftstrid]}\n  distance: 3\n"), 0o644)
	tests := []struct {
		args  []string
		usage bool
		msg   string
	}{
		{[]string{"frobnicate"}, true, `unknown command "frobnicate"`},
		{[]string{"run", "--format", "xml"}, true, `unknown format "xml"`},
		{[]string{"run", "--trials", "0"}, true, "--trials 0 is out of range; expected 1 to"},
		{[]string{"run", "--trials", "99999999999999999999"}, true, "99999999999999999999 is out of range; expected 1 to 1000000000000"},
		{[]string{"dice", "D6", "--trials", "1e300"}, true, "1e300 is out of range; expected 1 to 1000000000000"},
		{[]string{"run", "--bogus"}, true, "flag provided but not defined: -bogus"},
		{[]string{"run", "a", "b"}, true, "run takes one scenario"},
		{[]string{"run", "no-such"}, false, `no scenario file or built-in scenario named "no-such"`},
		{[]string{"run", bad}, false, bad + `:4:33: unknown rule "Swiftstrid"; did you mean "Swiftstride"?`},
		{[]string{"dice"}, true, "dice needs a query"},
		{[]string{"dice", "2D"}, false, `dice expression "2D", column 3: expected the number of sides`},
		{[]string{"show", "nope"}, false, `no built-in scenario named "nope"`},
		{[]string{"list", "x"}, true, "list takes no arguments"},
	}
	for _, tt := range tests {
		_, _, err := runCLI(t, tt.args...)
		if err == nil {
			t.Errorf("%v: no error", tt.args)
			continue
		}
		var u *usageError
		if errors.As(err, &u) != tt.usage {
			t.Errorf("%v: usage error %v, want %v (%v)", tt.args, !tt.usage, tt.usage, err)
		}
		if !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%v: error %q does not contain %q", tt.args, err, tt.msg)
		}
	}
}

// TestInterrupt cancels a run that cannot finish: it must stop within a
// second, print results marked partial, and report errInterrupted.
func TestInterrupt(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	var out, errb bytes.Buffer
	start := time.Now()
	err := run(ctx, []string{"run", "swiftstride-charge", "--trials", "1000000000"}, &out, &errb)
	if took := time.Since(start); took > 1100*time.Millisecond {
		t.Errorf("stopping took %v", took)
	}
	if !errors.Is(err, errInterrupted) {
		t.Fatalf("err = %v, want errInterrupted", err)
	}
	if !strings.Contains(out.String(), "PARTIAL RESULTS") {
		t.Errorf("interrupted output is not marked partial:\n%s", out.String()[:200])
	}
	out.Reset()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel2()
	err = run(ctx2, []string{"run", "swiftstride-charge", "--trials", "1000000000", "--format", "json"}, &out, &errb)
	if !errors.Is(err, errInterrupted) || !strings.Contains(out.String(), `"partial": true`) {
		t.Errorf("interrupted JSON: err %v, partial flag missing", err)
	}
}

func TestOutputFileAndPlots(t *testing.T) {
	dir := t.TempDir()
	outFile := filepath.Join(dir, "out.json")
	plots := filepath.Join(dir, "plots")
	_, stderr, err := runCLI(t, "run", "random-movement", "--trials", "2000", "--format", "json", "-o", outFile, "--plot", plots)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(outFile)
	if err != nil || !bytes.HasPrefix(data, []byte("{\n  \"scenario\": \"random-movement\"")) {
		t.Fatalf("output file: %v %q", err, data)
	}
	entries, _ := os.ReadDir(plots)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	// One figure per metric: charge_success (one per value of the other
	// parameters, of which there are none besides random_movement, the
	// columns) and charge_reach's "at least" curves. Each as PNG and SVG.
	want := []string{"charge_reach.png", "charge_reach.svg", "charge_success.png", "charge_success.svg"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("plot files %v, want %v", names, want)
	}
	if !strings.Contains(stderr, "wrote 4 plot files") {
		t.Errorf("stderr: %q", stderr)
	}
	// No temporary files are left behind.
	entries, _ = os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d entries in the output directory, want out.json and plots/", len(entries))
	}
}

// swordsmen is a battle scenario; strength sets the attackers' S.
func swordsmen(name string, strength int) string {
	return fmt.Sprintf(`name: %s
ruleset: fantasy
trials: 20000
battle:
  attacker: {name: Swordsmen, models: 20, width: 5, M: 4, WS: 4, S: %d, T: 3, I: 4, A: 1, Ld: 7, armour: 5+, points: 120}
  target: {name: Clanrats, models: 30, width: 6, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5, armour: 5+}
  distance: 0
  phases: [combat]
`, name, strength)
}

// compareAsJSON runs simulate compare with args and the JSON format, and
// returns what it wrote, read and as text.
func compareAsJSON(t *testing.T, args ...string) (compareJSON, string) {
	t.Helper()
	out, _, err := runCLI(t, append(append([]string{"compare"}, args...), "--format", "json")...)
	if err != nil {
		t.Fatal(err)
	}
	var doc compareJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return doc, out
}

// compareJSON is what the tests read of compare's JSON.
type compareJSON struct {
	Candidates []string `json:"candidates"`
	Rows       []struct {
		Metric string         `json:"metric"`
		Params map[string]any `json:"params"`
		Diffs  []struct {
			A, B    string
			Value   float64    `json:"difference"`
			SE      float64    `json:"se"`
			CI95    [2]float64 `json:"ci95"`
			HigherA float64    `json:"higher_a"`
			Verdict string     `json:"verdict"`
		} `json:"differences"`
	} `json:"rows"`
}

// TestCompare: two identical units differ by an interval that holds zero;
// a unit with +1 Strength is ahead with high confidence.
func TestCompare(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"a.yaml": swordsmen("swordsmen", 3), "b.yaml": swordsmen("swordsmen-copy", 3), "c.yaml": swordsmen("strong", 4)}
	for f, src := range files {
		os.WriteFile(filepath.Join(dir, f), []byte(src), 0o644)
	}
	doc, out := compareAsJSON(t, filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "c.yaml"))
	found := false
	for _, row := range doc.Rows {
		if row.Metric != "models_killed" || row.Params["unit"] != "Clanrats" {
			continue
		}
		found = true
		same, stronger := row.Diffs[0], row.Diffs[1] // a-b, a-c
		if same.CI95[0] > 0 || same.CI95[1] < 0 {
			t.Errorf("identical units: difference interval %v leaves out 0", same.CI95)
		}
		// S 4 against T 3 wounds on 3+ instead of 4+: more Clanrats die.
		if stronger.CI95[1] >= 0 || stronger.HigherA > 0.001 {
			t.Errorf("+1 Strength: difference %v %v, confidence the weaker is higher %v", stronger.Value, stronger.CI95, stronger.HigherA)
		}
	}
	if !found {
		t.Fatalf("no models_killed row for Clanrats in\n%s", out)
	}
	// One scenario compared by its attackers.
	out, _, err := runCLI(t, "compare", "doomwheel-balance", "--trials", "3000")
	if err != nil || !strings.Contains(out, "Doomwheel - Rat Ogres") {
		t.Errorf("compare by attacker: %v\n%s", err, out)
	}
	// Refused for what they compare: at 960 trials, the fewest compare
	// takes, no refusal is for the trials.
	// It names the metric read alike at every distance, and those the
	// distance changes, which compare by it.
	if _, _, err := runCLI(t, "compare", "swiftstride-charge", "--by", "distance", "--trials", "960"); err == nil ||
		!strings.Contains(err.Error(), "distance does not tell every result apart: charge_reach is read from the same trials at every distance; compare by a parameter of the units, or keep the metrics it changes: --metrics charge_success") {
		t.Errorf("comparing by a readout parameter: %v", err)
	}
	if _, _, err := runCLI(t, "compare", "swiftstride-charge", "--by", "distance", "--trials", "960", "--metrics", "charge_success"); err != nil {
		t.Errorf("comparing by distance the metric it changes: %v", err)
	}
	// Too few trials from a scenario's own trials key are named as its.
	few := filepath.Join(t.TempDir(), "few.yaml")
	if err := os.WriteFile(few, []byte("name: few\nruleset: fantasy\ntrials: 500\ncharge:\n  unit: {name: A, M: [8, 7]}\n  distance: 8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "compare", few, "--by", "M"); err == nil || !strings.Contains(err.Error(), "compare: 500 trials ("+few+"'s trials key; --trials overrides it) are too few") {
		t.Errorf("too few trials from the scenario: %v", err)
	}
	if _, _, err := runCLI(t, "compare", "flee-pursuit", "random-movement", "--trials", "960"); err == nil || !strings.Contains(err.Error(), "flee-pursuit and random-movement share no result") {
		t.Errorf("comparing different questions: %v", err)
	}
}

// TestCompareEveryBatch: knights with M 8 reach exactly 1" further than
// with M 7 in every paired trial (the same 2D6 and Swiftstride dice, plus
// 1), so every batch gives -1: the JSON says -1 with se 0, and the verdict
// "every batch", where float64 rounding in the batch means once gave
// -0.9999999999999982, se 2.3e-16 and ">99.9%".
func TestCompareEveryBatch(t *testing.T) {
	dir := t.TempDir()
	for name, m := range map[string]int{"knights": 7, "knights8": 8} {
		src := fmt.Sprintf("name: %s\nruleset: fantasy\ntrials: 20000\nseed: 3\ncharge:\n  unit: {name: Knights, M: %d, rules: [Swiftstride]}\n  distance: [10, 14, 18]\n", name, m)
		os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(src), 0o644)
	}
	doc, out := compareAsJSON(t, filepath.Join(dir, "knights.yaml"), filepath.Join(dir, "knights8.yaml"))
	found := false
	for _, row := range doc.Rows {
		if row.Metric != "charge_reach" {
			continue
		}
		found = true
		d := row.Diffs[0]
		if d.Value != -1 || d.SE != 0 || d.CI95 != [2]float64{-1, -1} || d.Verdict != "knights8 higher (every batch)" {
			t.Errorf("M 7 against M 8: %+v, want -1, se 0, [-1, -1], knights8 higher (every batch)", d)
		}
	}
	if !found {
		t.Fatalf("no charge_reach row in\n%s", out)
	}
}

// TestPrecision: a precision run stops with every probability's half-width
// within the target, says so, and its stamp's command reproduces it. Its
// first round is set to 4 chunks, 65,536: flee-pursuit's own trials,
// 1,000,000, would be the first round otherwise.
func TestPrecision(t *testing.T) {
	out, _, err := runCLI(t, "run", "flee-pursuit", "--precision", "0.004", "--trials", "65536", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Trials int64 `json:"trials"`
		Stamp  struct {
			Command      string  `json:"command"`
			Precision    float64 `json:"precision"`
			PrecisionMet bool    `json:"precision_met"`
		} `json:"stamp"`
		Results []struct {
			CI95 [2]float64 `json:"ci95"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Results {
		if hw := (r.CI95[1] - r.CI95[0]) / 2; hw > 0.004 {
			t.Errorf("half-width %.5f above the target", hw)
		}
	}
	if !doc.Stamp.PrecisionMet || doc.Stamp.Precision != 0.004 {
		t.Errorf("stamp %+v", doc.Stamp)
	}
	// Rounds double from 4 chunks: 65536, 131072, ... A 0.004 half-width
	// needs about (1.96 * 0.5 / 0.004)^2 = 60025 trials at p = 1/2, and
	// p near 0.5 is in this scenario: the 2nd round, 131072, at most.
	if doc.Trials%16384 != 0 || doc.Trials > 131072 {
		t.Errorf("stopped at %d trials", doc.Trials)
	}
	args := strings.Fields(strings.TrimPrefix(doc.Stamp.Command, "simulate "))
	again, _, err := runCLI(t, append(args, "--format", "json")...)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Split(again, `"results"`)[1] != strings.Split(out, `"results"`)[1] {
		t.Error("the stamp's command line does not reproduce the results")
	}
	out, stderr, err := runCLI(t, "run", "flee-pursuit", "--precision", "0.0001", "--trials", "16384", "--max-trials", "40000", "--format", "json")
	if err != nil || !strings.Contains(out, `"precision_met": false`) || !strings.Contains(stderr, "was not reached within 40000 trials per point; the results say so") {
		t.Errorf("a capped precision run: %v; stderr %q", err, stderr)
	}
	// A CSV has no place for the stamp: the note says it does not say so.
	_, stderr, err = runCLI(t, "run", "flee-pursuit", "--precision", "0.0001", "--trials", "16384", "--max-trials", "40000", "--format", "csv")
	if err != nil || !strings.Contains(stderr, "was not reached within 40000 trials per point; the CSV, one row an estimate, does not say so") {
		t.Errorf("a capped precision run as CSV: %v; stderr %q", err, stderr)
	}
}

// TestPrecisionFirstRound: docs/reports.md's examples of a precision
// run's first round ("`--trials 1000` runs 16,384 trials") are what a run
// does. Each is --trials rounded up to whole chunks of 16,384 (1000 to 1
// chunk, 20000 to 2, 50000 to 4), and swiftstride-charge's probabilities
// reach a 0.01 half-width within the first round's 16,384 trials
// (1.96 * sqrt(0.25 / 16384) = 0.0077), so the run stops there.
func TestPrecisionFirstRound(t *testing.T) {
	src, err := os.ReadFile("../../docs/reports.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := regexp.MustCompile("`--trials ([0-9]+)` runs ([0-9,]+)").FindAllStringSubmatch(string(src), -1)
	if len(examples) < 2 {
		t.Fatalf("docs/reports.md gives %d examples of a precision run's first round, want some", len(examples))
	}
	for _, ex := range examples {
		out, _, err := runCLI(t, "run", "swiftstride-charge", "--precision", "0.01", "--trials", ex[1], "--format", "json")
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Trials int64 `json:"trials"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if want := strings.ReplaceAll(ex[2], ",", ""); strconv.FormatInt(doc.Trials, 10) != want {
			t.Errorf("--precision 0.01 --trials %s: %d trials, docs/reports.md says %s", ex[1], doc.Trials, ex[2])
		}
	}
}

// TestPrecisionScenarioTrials: a precision run's first round is --trials,
// else the scenario's trials, else 4 chunks (65,536), each rounded up to
// whole chunks of 16,384 as docs/reports.md says: trials: 20000 runs 2
// chunks, 32,768 (it ran 65,536, as if not given). The scenario's charge
// (M4 over 8", 2D6 + 4 >= 8, 30/36) reaches a 0.01 half-width within any
// first round here (1.96 * sqrt(0.25 / 16384) = 0.0077), so every run
// stops after its first.
func TestPrecisionScenarioTrials(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		keys  string
		flags []string
		want  int64
	}{
		{"precision: 0.01\ntrials: 20000\n", nil, 32768},
		{"precision: 0.01\ntrials: 300000\n", nil, 311296}, // 19 chunks
		{"precision: 0.01\ntrials: 20000\n", []string{"--trials", "1000"}, 16384},
		{"precision: 0.01\n", nil, 65536},
		{"trials: 20000\n", []string{"--precision", "0.01"}, 32768},
		{"precision: 0.01\nmax_trials: 20000\ntrials: 20000\n", nil, 20000}, // the round cut at the cap
	} {
		file := filepath.Join(dir, "p.yaml")
		src := "name: p\nruleset: fantasy\n" + tc.keys + "charge: {unit: {name: A, M: 4}, distance: 8}\n"
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _, err := runCLI(t, append([]string{"run", file, "--format", "json"}, tc.flags...)...)
		if err != nil {
			t.Fatalf("%q %v: %v", tc.keys, tc.flags, err)
		}
		var doc struct {
			Trials int64 `json:"trials"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Trials != tc.want {
			t.Errorf("%q %v: %d trials, want %d", tc.keys, tc.flags, doc.Trials, tc.want)
		}
	}
}

// TestPrecisionCapBelowFirstRound: a precision run whose cap is below the
// first round it was asked for would run fewer trials than asked and say
// nothing (--trials 1e6 --max-trials 1000 ran 1,000). Where a flag gives
// either it is a bad command line; where the scenario gives both, a bad
// scenario, at max_trials (line 4, column 13).
func TestPrecisionCapBelowFirstRound(t *testing.T) {
	dir := t.TempDir()
	n := 0
	write := func(keys string) string {
		n++
		file := filepath.Join(dir, fmt.Sprintf("p%d.yaml", n))
		src := "name: p\nruleset: fantasy\n" + keys + "charge: {unit: {name: A, M: 4}, distance: 8}\n"
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return file
	}
	const why = ": a precision run starts with a round of that many trials and never runs more than its cap; give a cap of at least "
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", "swiftstride-charge", "--precision", "0.001", "--trials", "1e6", "--max-trials", "1000"}, 2,
			"--max-trials 1000 is below --trials 1000000" + why + "1000000 (--max-trials), or fewer trials"},
		// The scenario's trials are named where they are written (line 4,
		// after "trials: ", column 9).
		{[]string{"run", write("precision: 0.01\ntrials: 300000\n"), "--max-trials", "1000"}, 2,
			filepath.Join(dir, "p1.yaml") + ":4:9: trials 300000 is above --max-trials 1000" + why + "300000 (--max-trials), or fewer trials"},
		// The scenario's cap is named where it is written (line 4, after
		// "max_trials: ", column 13).
		{[]string{"run", write("precision: 0.01\nmax_trials: 1000\n"), "--trials", "5000"}, 2,
			filepath.Join(dir, "p2.yaml") + ":4:13: max_trials 1000 is below --trials 5000: a precision run starts with a round of that many trials and never runs more than max_trials; raise max_trials to at least 5000, or ask for fewer trials"},
		{[]string{"run", write("max_trials: 1000\ntrials: 300000\n"), "--precision", "0.01"}, 2,
			filepath.Join(dir, "p3.yaml") + ":3:13: max_trials 1000 is below the scenario's trials (300000): a precision run starts with a round of that many trials and never runs more than max_trials; raise max_trials to at least 300000, or ask for fewer trials"},
		// A scenario with a precision target of its own has the two keys
		// checked as it is read.
		{[]string{"run", write("precision: 0.01\nmax_trials: 1000\ntrials: 300000\n")}, 1,
			filepath.Join(dir, "p4.yaml") + ":4:13: max_trials 1000 is below trials 300000 (line 5): a precision run starts with a round of trials and never runs more than max_trials; give max_trials at least 300000, or fewer trials"},
	} {
		_, _, err := runCLI(t, tc.args...)
		var stderr strings.Builder
		if code := exitCode(err, &stderr); code != tc.code || err.Error() != tc.want {
			t.Errorf("%v: exit %d, %v\nwant exit %d, %s", tc.args, code, err, tc.code, tc.want)
		}
	}
	// A cap equal to the first round is taken: one round of 1,000.
	if _, _, err := runCLI(t, "run", "swiftstride-charge", "--precision", "0.01", "--trials", "1000", "--max-trials", "1000"); err != nil {
		t.Errorf("--trials 1000 --max-trials 1000: %v", err)
	}
	// Without a precision target the two keys never meet: a fixed run, and
	// a precision run whose flags give both, are taken.
	fixed := write("max_trials: 1000\ntrials: 300000\n")
	if _, _, err := runCLI(t, "run", fixed, "--trials", "2000"); err != nil {
		t.Errorf("a fixed run of a scenario with max_trials below trials: %v", err)
	}
	if _, _, err := runCLI(t, "run", fixed, "--precision", "0.2", "--trials", "2000", "--max-trials", "4000"); err != nil {
		t.Errorf("a precision run whose flags give trials and cap: %v", err)
	}
}

func TestReportFiles(t *testing.T) {
	dir := t.TempDir()
	html := filepath.Join(dir, "out.html")
	md := filepath.Join(dir, "out.md")
	if _, _, err := runCLI(t, "run", "random-movement", "--trials", "2000", "--report", html); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "run", "random-movement", "--trials", "2000", "--report", md); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(html)
	if !bytes.Contains(page, []byte("<svg")) || !bytes.Contains(page, []byte("random-movement")) || bytes.Contains(page, []byte("http://")) && !bytes.Contains(page, []byte("http://www.w3.org")) {
		t.Errorf("the HTML report lacks plots or reaches out: %d bytes", len(page))
	}
	doc, _ := os.ReadFile(md)
	if !bytes.Contains(doc, []byte(".png")) {
		t.Errorf("the Markdown report links no plots")
	}
	if _, _, err := runCLI(t, "run", "random-movement", "--report", filepath.Join(dir, "out.pdf")); err == nil {
		t.Error("a .pdf report was accepted")
	}
}

// TestControlCharactersInNames: a file name holding an escape sequence
// reaches the terminal escaped, in an error and in the reproduce line,
// which pastes back into bash as the same name.
func TestControlCharactersInNames(t *testing.T) {
	if got := visible("bad\x1b[31m.yaml:3:1: oops\nnext\tline"); got != `bad\x1b[31m.yaml:3:1: oops`+"\nnext\tline" {
		t.Errorf("visible: %q", got)
	}
	if got := visible("a\u009bb"); got != `a\x9bb` {
		t.Errorf("visible of a C1 control: %q", got)
	}
	for in, want := range map[string]string{
		"plain.yaml":        "plain.yaml",
		"it's.yaml":         `'it'\''s.yaml'`,
		"e\x1b[31mRED.yaml": `$'e\x1b[31mRED.yaml'`,
		"a'\x07\\b":         `$'a\'\x07\\b'`,
		"c\u009b1":          `$'c\xc2\x9b1'`,
		"a\x01\xff.yaml":    `$'a\x01\xff.yaml'`, // not U+FFFD's three bytes
		"\xffé.yaml":        `$'\xffé.yaml'`,
		"=x.yaml":           `'=x.yaml'`, // zsh reads =x as a command's path
		"a=b.yaml":          "a=b.yaml",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "bad\x1b[31m.yaml")
	os.WriteFile(name, []byte("name: x\nruleset: fantasy\ncharge: {bogus: 1}\n"), 0o644)
	_, _, err := runCLI(t, "run", name)
	var stderr strings.Builder
	exitCode(err, &stderr)
	if strings.ContainsRune(stderr.String(), 0x1b) || !strings.Contains(stderr.String(), `bad\x1b[31m.yaml:3:10: unknown key "bogus"`) {
		t.Errorf("stderr %q: the escape is not escaped", stderr.String())
	}
}

// TestReportOfOnePlot: a Markdown report of one metric has one PNG figure
// beside it (charge_success of random-movement, one figure), and says
// "1 plot file".
func TestReportOfOnePlot(t *testing.T) {
	report := filepath.Join(t.TempDir(), "r.md")
	_, stderr, err := runCLI(t, "run", "random-movement", "--trials", "1000", "--metrics", "charge_success", "--report", report)
	if err != nil {
		t.Fatal(err, stderr)
	}
	if want := "wrote the report " + report + " and 1 plot file beside it\n"; !strings.HasSuffix(stderr, want) {
		t.Errorf("stderr %q, want it to end with %q", stderr, want)
	}
}

// TestMaxTrialsWithoutPrecision: a scenario's max_trials with no precision
// target caps nothing on a plain run; the run says so, once, on standard
// error, and runs its trials. With --precision it caps the rounds and the
// note is not given.
func TestMaxTrialsWithoutPrecision(t *testing.T) {
	dir := t.TempDir()
	file, copied := filepath.Join(dir, "mt.yaml"), filepath.Join(dir, "copy.yaml")
	src := "name: mt\nruleset: fantasy\nmax_trials: 100000\ncharge: {unit: {name: A, M: 4}, distance: 8}\n"
	for _, f := range []string{file, copied} {
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const note = "caps only a precision run"
	_, stderr, err := runCLI(t, "run", file, "--trials", "1000", "--progress", "never")
	if err != nil || strings.Count(stderr, note) != 1 {
		t.Errorf("a plain run: %v, stderr %q", err, stderr)
	}
	_, stderr, err = runCLI(t, "run", file, "--trials", "1000", "--precision", "0.01", "--progress", "never")
	if err != nil || strings.Contains(stderr, note) {
		t.Errorf("a precision run: %v, stderr %q", err, stderr)
	}
	// compare and a shard run a fixed number of trials too: the same note,
	// not a refusal.
	for _, args := range [][]string{
		{"compare", file, copied, "--trials", "1000", "--progress", "never"},
		{"run", file, "--trials", "1000", "--shard", "1/2", "-o", filepath.Join(t.TempDir(), "part.json"), "--progress", "never"},
	} {
		_, stderr, err = runCLI(t, args...)
		if err != nil || strings.Count(stderr, note) != 1 {
			t.Errorf("%s: %v, stderr %q", args[0], err, stderr)
		}
	}
}

// TestOutputNamedAsACatalogue: results written as units.yaml or
// NAME.units.yaml would be read as a unit catalogue by every scenario of
// their folder that uses a card, breaking its next run, so such a name is
// refused before the run, whether or not this scenario uses cards; any
// other name is written.
func TestOutputNamedAsACatalogue(t *testing.T) {
	dir := t.TempDir()
	scen := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(scen, []byte("name: s\nruleset: fantasy\ncharge: {unit: {name: A, M: 5}, distance: 5}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"units.yaml", "mine.units.yaml"} {
		out := filepath.Join(dir, name)
		_, _, err := runCLI(t, "run", scen, "--trials", "1000", "-o", out, "--progress", "never")
		if err == nil || !strings.Contains(err.Error(), "is named as a unit catalogue") {
			t.Errorf("-o %s: %v, want it refused", name, err)
		}
		if _, serr := os.Stat(out); serr == nil {
			t.Errorf("-o %s: written", name)
		}
	}
	if _, _, err := runCLI(t, "run", scen, "--trials", "1000", "-o", filepath.Join(dir, "units.csv"), "--progress", "never"); err != nil {
		t.Errorf("-o units.csv: %v", err)
	}
}
