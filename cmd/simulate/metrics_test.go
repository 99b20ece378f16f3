package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hammersim/scenarios"
)

func TestMetricsFlag(t *testing.T) {
	out, _, err := runCLI(t, "run", "doomwheel-vs-clanrats", "--metrics", "broke, models_killed", "--trials", "2000", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		if !strings.Contains(line, ",broke,") && !strings.Contains(line, ",models_killed,") {
			t.Errorf("a metric not asked for: %s", line)
		}
	}
	_, _, err = runCLI(t, "run", "doomwheel-vs-clanrats", "--metrics", "kills")
	var u *usageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), `unknown metric "kills"`) || !strings.Contains(err.Error(), "models_killed, destroyed") {
		t.Errorf("unknown metric: %v", err)
	}
}

func TestRunFromStdin(t *testing.T) {
	src, err := os.ReadFile("../../scenarios/library/random-movement.yaml")
	if err != nil {
		t.Fatal(err)
	}
	old := stdin
	defer func() { stdin = old }()
	stdin = strings.NewReader(string(src))
	fromStdin, _, err := runCLI(t, "run", "-", "--trials", "2000", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	builtin, _, err := runCLI(t, "run", "random-movement", "--trials", "2000", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	// The same scenario gives the same numbers; only the stamp's command
	// names where it came from.
	cut := func(s string) string { return s[strings.Index(s, `"results"`):] }
	if cut(fromStdin) != cut(builtin) {
		t.Error("run - gives other results than the same scenario by name")
	}
	stdin = strings.NewReader("name: x\nruleset: fantasy\ncharge: {unit: {name: A, M: 5}, distance: 3\n")
	if _, _, err := runCLI(t, "run", "-"); err == nil || !strings.Contains(err.Error(), "<stdin>:") {
		t.Errorf("a bad scenario on stdin: %v", err)
	}
	// Standard input is held to a scenario file's size, 1 MiB, and read no
	// further (simulate run - < /dev/zero), with the same positioned error.
	endless := &countingZeros{}
	stdin = endless
	if _, _, err := runCLI(t, "run", "-"); err == nil || !strings.HasPrefix(err.Error(), "<stdin>:1:1: the file is larger than 1048576 bytes") {
		t.Errorf("an endless standard input: %v", err)
	}
	if endless.n > 1<<20+1 {
		t.Errorf("read %d bytes of an endless standard input, want at most 1 MiB and a byte", endless.n)
	}
}

// countingZeros is an endless stream of zero bytes, as /dev/zero, that
// counts the bytes read from it.
type countingZeros struct{ n int }

func (z *countingZeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += len(p)
	return len(p), nil
}

// TestEveryBuiltinFits100Columns runs every built-in scenario, and a
// comparison, and checks that no line of the table output is wider than a
// 100-column terminal.
func TestEveryBuiltinFits100Columns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every built-in")
	}
	runs := [][]string{{"compare", "doomwheel-balance", "--trials", "2000"}}
	for _, name := range builtinNames() {
		runs = append(runs, []string{"run", name, "--trials", "500"})
	}
	for _, args := range runs {
		out, _, err := runCLI(t, args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		for _, line := range strings.Split(out, "\n") {
			if n := len([]rune(line)); n > 100 {
				t.Errorf("%v: a line of %d columns: %s", args, n, line)
			}
		}
	}
}

func builtinNames() []string { return scenarios.BuiltinNames() }

// TestGridKeepsRowsWithAChance: a grid leaves out a row only when it is 0
// indeed. A 6D6 Random Movement reaches 36" only on six 6s, 1/46656, which
// 1,000 trials never see, so the row of 36" shows 0.00: it stays, since
// its exact chance is not 0 (5D6's is). 37" is out of reach of both, and
// is left out.
func TestGridKeepsRowsWithAChance(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "g.yaml")
	os.WriteFile(f, []byte("name: g\nruleset: fantasy\ncharge:\n  unit: {name: Wheel, rules: [{Random Movement: [6D6, 5D6]}]}\n  distance: [30, 36, 37]\n"), 0o644)
	out, _, err := runCLI(t, "run", f, "--trials", "1000", "--metrics", "charge_success")
	if err != nil {
		t.Fatal(err)
	}
	kept := slices.ContainsFunc(strings.Split(out, "\n"), func(l string) bool {
		return strings.HasPrefix(l, "| 36 ") && strings.HasSuffix(l, "| 0.00 | 0.00 |")
	})
	if !kept || !strings.Contains(out, "Rows left out, all 0: distance 37.") {
		t.Errorf("the grid:\n%s", out)
	}
}

// TestNoTrialsRowSaysWhy: a combat result is counted only in trials in
// which a round was fought; from 18" M 4 infantry never charge home (M +
// 2D6 reaches 16" at most), so that row has no trials and shows "-", and a
// note under the table says why.
func TestNoTrialsRowSaysWhy(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "far.yaml")
	os.WriteFile(f, []byte(`name: far
ruleset: fantasy
battle:
  attacker: {name: Slowpokes, models: 10, M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7}
  target: {name: Rats, models: 20, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5}
  distance: [6, 18]
  phases: [charge, combat]
`), 0o644)
	out, _, err := runCLI(t, "run", f, "--trials", "2000", "--metrics", "combat_result")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "| 18       |        - |") || !strings.Contains(out, `A row of "-": no trial at that point had a combat_result to count`) {
		t.Errorf("the table:\n%s", out)
	}
}
