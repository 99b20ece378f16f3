package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run go test ./cmd/simulate -update if the change is intended)\n got:\n%s", path, got)
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
		{[]string{"run", "--trials", "0"}, true, "--trials must be at least 1"},
		{[]string{"run", "--bogus"}, true, "flag provided but not defined: -bogus"},
		{[]string{"run", "a", "b"}, true, "run takes one scenario"},
		{[]string{"run", "no-such"}, false, `no scenario file or built-in scenario named "no-such"`},
		{[]string{"run", bad}, false, bad + `:4:33: unknown rule "Swiftstrid"; did you mean "Swiftstride"?`},
		{[]string{"dice"}, true, "dice needs an expression"},
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
	// One charge plot per value of the other parameters (none here besides
	// random_movement, the columns): 1 plot; and one histogram per
	// charge_reach estimate: 2. Each as PNG and SVG.
	want := []string{
		"charge_reach_random_movement=3D6.png", "charge_reach_random_movement=3D6.svg",
		"charge_reach_random_movement=4D6.png", "charge_reach_random_movement=4D6.svg",
		"charge_success.png", "charge_success.svg",
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("plot files %v, want %v", names, want)
	}
	if !strings.Contains(stderr, "wrote 6 plot files") {
		t.Errorf("stderr: %q", stderr)
	}
	// No temporary files are left behind.
	entries, _ = os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d entries in the output directory, want out.json and plots/", len(entries))
	}
}
