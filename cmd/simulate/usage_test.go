package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hammersim/scenarios"
)

// TestUsageHints: a bad command line prints one line naming the problem
// and a hint, exits 2, and the hint points at the -h of the command that
// was misused, whatever was wrong in it (arguments, a flag's value, or how
// flags combine). Commands without flags of their own point at simulate -h.
func TestUsageHints(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string // the whole of standard error
	}{
		{"run two scenarios", []string{"run", "a", "b"},
			"simulate: run takes one scenario, got 2: a b\nRun 'simulate run -h' for its flags.\n"},
		{"run bad shard", []string{"run", "doomwheel-vs-clanrats", "--shard", "3/3"},
			"simulate: --shard \"3/3\": expected I/N, shard I of N with 0 <= I < N <= 65536, such as 3/8 (the first shard is 0)\n" +
				"Run 'simulate run -h' for its flags.\n"},
		{"run shard env without count", []string{"run", "doomwheel-vs-clanrats", "--shard-index-env", "TASK"},
			"simulate: --shard-index-env TASK needs --shard N, the number of shards\nRun 'simulate run -h' for its flags.\n"},
		{"run unknown metric", []string{"run", "random-movement", "--metrics", "reach_typo"},
			"simulate: --metrics: unknown metric \"reach_typo\" in random-movement; its question has: charge_success, charge_reach\n" +
				"Run 'simulate run -h' for its flags.\n"},
		// A flag given twice, or a path given empty, would run with what a
		// script did not mean.
		{"run flag twice", []string{"run", "--trials", "10", "-o", "a.json", "-o", "b.json"},
			"simulate: run: -o \"b.json\": given twice; give it once\nRun 'simulate run -h' for its flags.\n"},
		{"run empty output", []string{"run", "-o", ""},
			"simulate: run: -o \"\": an empty name; expected a file or folder name\nRun 'simulate run -h' for its flags.\n"},
		{"merge empty plot folder", []string{"merge", "x", "--plot="},
			"simulate: merge: -plot \"\": an empty name; expected a file or folder name\nRun 'simulate merge -h' for its flags.\n"},
		{"units empty scenario", []string{"units", "--scenario", ""},
			"simulate: units: -scenario \"\": an empty name; expected a file or folder name\nRun 'simulate units -h' for its flags.\n"},
		// After --, nothing is a flag, whichever argument comes first.
		{"run after --", []string{"run", "--", "-x.yaml", "--trials", "10"},
			"simulate: run takes one scenario, got 3: -x.yaml --trials 10\nRun 'simulate run -h' for its flags.\n"},
		{"run bad flag", []string{"run", "--bogus"},
			"simulate: run: flag provided but not defined: -bogus\nRun 'simulate run -h' for its flags.\n"},
		// Flags with no command are run's, for the default scenario.
		// A command after the flags: they made it run's, which took the
		// command for a scenario; the message says how to write it.
		{"command after flags", []string{"--trials", "1e4", "run", "flee-pursuit"},
			"simulate: \"run\" is a command: write it first, simulate run ... (flags before any command are run's, and run took \"run\" for a scenario)\nRun 'simulate run -h' for its flags.\n"},
		{"command alone after flags", []string{"--seed", "3", "dice"},
			"simulate: \"dice\" is a command: write it first, simulate dice ... (flags before any command are run's, and run took \"dice\" for a scenario)\nRun 'simulate run -h' for its flags.\n"},
		{"bad flag with no command", []string{"--bogus"},
			"simulate: run: flag provided but not defined: -bogus\nRun 'simulate run -h' for its flags.\n"},
		{"compare one without by", []string{"compare"},
			"simulate: compare needs two or more scenarios, or one with --by AXIS\nRun 'simulate compare -h' for its flags.\n"},
		{"compare standard input twice", []string{"compare", "-", "-"},
			"simulate: compare reads standard input (-) for one scenario only; give the others as files\nRun 'simulate compare -h' for its flags.\n"},
		{"compare one built-in twice", []string{"compare", "flee-pursuit", "flee-pursuit"},
			"simulate: flee-pursuit and flee-pursuit are the same scenario: compare needs two different ones (a copy of a file, edited, or --by with one)\nRun 'simulate compare -h' for its flags.\n"},
		{"merge nothing", []string{"merge"},
			"simulate: merge needs the partial results of a run: simulate merge PARTS... (written by simulate run --shard I/N -o FILE)\n" +
				"Run 'simulate merge -h' for its flags.\n"},
		{"dice nothing", []string{"dice"},
			"simulate: dice needs a query, such as 2D6, \"2D6 >= 9\" or \"10D6 count 4+ reroll failures\"\nRun 'simulate dice -h' for its flags.\n"},
		{"serve argument", []string{"serve", "x"},
			"simulate: serve takes no arguments, got x\nRun 'simulate serve -h' for its flags.\n"},
		{"serve max-trials past the limit", []string{"serve", "--max-trials", "1e13"},
			"simulate: --max-trials 10000000000000 is out of range; expected 1 to 1000000000000\nRun 'simulate serve -h' for its flags.\n"},
		{"serve max-run-time not a duration", []string{"serve", "--max-run-time", "10"},
			"simulate: serve: invalid value \"10\" for flag -max-run-time: \"10\" is not a duration; write it as 90s, 10m or 1h30m\n" +
				"Run 'simulate serve -h' for its flags.\n"},
		{"serve max-run-time too short", []string{"serve", "--max-run-time", "0"},
			"simulate: --max-run-time 0s is too short; expected a duration of at least 1s, such as 10m or 1h30m\nRun 'simulate serve -h' for its flags.\n"},
		{"serve max-trials not a count", []string{"serve", "--max-trials", "lots"},
			"simulate: serve: invalid value \"lots\" for flag -max-trials: \"lots\" is not a number of trials; write it as 1000000, 1_000_000, 1,000,000 or 1e6\n" +
				"Run 'simulate serve -h' for its flags.\n"},
		{"units arguments", []string{"units", "a", "b", "c"},
			"simulate: units takes no arguments, or show and a unit's name (simulate units show Clanrats)\nRun 'simulate units -h' for its flags.\n"},
		{"list argument", []string{"list", "x"},
			"simulate: list takes no arguments, got x\nRun 'simulate list -h' for its usage.\n"},
		{"list flag", []string{"list", "--all"},
			"simulate: list has no flags; got --all\nRun 'simulate list -h' for its usage.\n"},
		{"show nothing", []string{"show"},
			"simulate: show takes one built-in scenario name, got 0 (simulate list shows them)\nRun 'simulate show -h' for its usage.\n"},
		{"show two", []string{"show", "a", "b"},
			"simulate: show takes one built-in scenario name, got 2 (simulate list shows them)\nRun 'simulate show -h' for its usage.\n"},
		{"completion unknown shell", []string{"completion", "powershell"},
			"simulate: completion takes one shell: bash, zsh or fish (such as: source <(simulate completion bash))\nRun 'simulate completion -h' for its usage.\n"},
		{"version argument", []string{"version", "extra"},
			"simulate: version takes no arguments, got extra\nRun 'simulate version -h' for its usage.\n"},
		{"--version argument", []string{"--version", "extra"},
			"simulate: version takes no arguments, got extra\nRun 'simulate version -h' for its usage.\n"},
		{"unknown command", []string{"frobnicate"},
			"simulate: unknown command \"frobnicate\"\nRun 'simulate -h' for usage.\n"},
	} {
		stdout, _, err := runCLI(t, tc.args...)
		var stderr bytes.Buffer
		code := exitCode(err, &stderr)
		if code != exitUsage || stderr.String() != tc.want || stdout != "" {
			t.Errorf("%s: exit %d, stderr\n%s\nwant exit %d, stderr\n%s\nstdout %q", tc.name, code, stderr.String(), exitUsage, tc.want, stdout)
		}
	}
}

// usageCommands returns simulate -h's usage (which --h must print too)
// and the commands it lists, sorted, each once.
func usageCommands(t *testing.T) (string, []string) {
	t.Helper()
	top, _, err := runCLI(t, "-h")
	if err != nil {
		t.Fatal(err)
	}
	if again, _, err := runCLI(t, "--h"); err != nil || again != top {
		t.Errorf("simulate --h: %v, not simulate -h's usage", err)
	}
	var commands []string
	for _, line := range strings.Split(top, "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "simulate" && !strings.HasSuffix(f[1], ":") {
			commands = append(commands, f[1])
		}
	}
	if len(commands) < 10 {
		t.Fatalf("found only the commands %v in the usage", commands)
	}
	slices.Sort(commands)
	return top, slices.Compact(commands)
}

// TestUsageNamesEveryHelp: simulate -h points at the -h of every command
// that has flags of its own (whose -h prints its usage), and names only
// those.
func TestUsageNamesEveryHelp(t *testing.T) {
	top, commands := usageCommands(t)
	named := strings.Join(strings.Fields(top), " ") // the hint may wrap
	for _, cmd := range commands {
		out, _, err := runCLI(t, cmd, "-h")
		hasHelp := err == nil && strings.HasPrefix(out, "Usage: simulate "+cmd)
		if names := strings.Contains(named, "'simulate "+cmd+" -h'"); names != hasHelp {
			t.Errorf("%s: has a -h of its own %v, simulate -h names it %v", cmd, hasHelp, names)
		}
	}
}

// TestEveryCommandHelp: every command that simulate -h lists answers -h,
// --h, -help and --help (each form Go's flag package takes) with its usage on standard output, whatever else is on
// the line, nothing on standard error, and exit status 0.
func TestEveryCommandHelp(t *testing.T) {
	_, commands := usageCommands(t)
	for _, cmd := range commands {
		// -h answers whatever else is wrong: an unknown flag before it.
		for _, args := range [][]string{{cmd, "-h"}, {cmd, "--h"}, {cmd, "-help"}, {cmd, "--help"}, {cmd, "x", "-h"},
			{cmd, "--nosuch", "-h"}, {cmd, "--nosuch", "--help"}} {
			stdout, stderr, err := runCLI(t, args...)
			var msg bytes.Buffer
			if code := exitCode(err, &msg); code != 0 || stderr != "" || !strings.HasPrefix(stdout, "Usage: simulate "+cmd) {
				t.Errorf("simulate %s: exit %d (%s), stderr %q, stdout %q", strings.Join(args, " "), code, msg.String(), stderr, stdout)
			}
		}
	}
}

// TestShowUnknown: show with a name that is no built-in exits 1, as run
// does, and says how to list the names.
func TestShowUnknown(t *testing.T) {
	stdout, _, err := runCLI(t, "show", "nosuch")
	var stderr bytes.Buffer
	if code := exitCode(err, &stderr); code != 1 || stdout != "" || !strings.Contains(stderr.String(), `no built-in scenario named "nosuch" (simulate list shows the built-ins`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr.String())
	}
}

// TestShardIndexEnvErrors: an index read from the environment that is no
// shard index is named with the variable and its value, never as a
// --shard value the user did not write.
func TestShardIndexEnvErrors(t *testing.T) {
	const env = "HAMMERSIM_TEST_SHARD_INDEX"
	for _, tc := range []struct {
		value, count, want string
	}{
		{"/root", "3", `--shard-index-env: HAMMERSIM_TEST_SHARD_INDEX is "/root", not a shard index; expected a whole number from 0 (the first shard), as the batch engine sets it in each task`},
		{"-1", "3", `--shard-index-env: HAMMERSIM_TEST_SHARD_INDEX is "-1", not a shard index`},
		{"", "3", `--shard-index-env: HAMMERSIM_TEST_SHARD_INDEX is "", not a shard index`},
		// Digits alone: spaces around them, a sign, or a digit too many
		// for an int are refused as the empty value is, not read as 1.
		{" 1", "3", `--shard-index-env: HAMMERSIM_TEST_SHARD_INDEX is " 1", not a shard index; expected a whole number from 0`},
		{"1 ", "3", `--shard-index-env: HAMMERSIM_TEST_SHARD_INDEX is "1 ", not a shard index`},
		{"1\n", "3", `--shard-index-env: HAMMERSIM_TEST_SHARD_INDEX is "1\n", not a shard index`},
		{"+1", "3", `--shard-index-env: HAMMERSIM_TEST_SHARD_INDEX is "+1", not a shard index`},
		{"99999999999999999999", "3", `--shard-index-env: HAMMERSIM_TEST_SHARD_INDEX is "99999999999999999999", not a shard index`},
		{"3", "3", `--shard "3/3" (the index from HAMMERSIM_TEST_SHARD_INDEX): expected I/N, shard I of N with 0 <= I < N <= 65536`},
		{"0", "x", `--shard "0/x" (the index from HAMMERSIM_TEST_SHARD_INDEX): expected I/N`},
	} {
		t.Setenv(env, tc.value)
		_, _, err := runCLI(t, "run", "doomwheel-vs-clanrats", "--shard-index-env", env, "--shard", tc.count)
		var stderr bytes.Buffer
		if code := exitCode(err, &stderr); code != exitUsage || !strings.HasPrefix(stderr.String(), "simulate: "+tc.want) {
			t.Errorf("%s=%q --shard %s: exit %d, %s", env, tc.value, tc.count, code, stderr.String())
		}
	}
}

// failingWriter fails every write, as a full disk or a closed pipe does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestHelpNotWritten: a command's help that cannot be written is an error
// (exit 1), as a result that cannot be written is, not a success.
func TestHelpNotWritten(t *testing.T) {
	for _, cmd := range []string{"run", "compare", "merge", "dice", "units", "serve"} {
		err := run(context.Background(), []string{cmd, "-h"}, failingWriter{}, io.Discard)
		if code := exitCode(err, io.Discard); code != exitError || err == nil || !strings.Contains(err.Error(), "no space left on device") {
			t.Errorf("%s -h to a full disk: exit %d, %v; want 1 and the write error", cmd, code, err)
		}
	}
}

// TestHelpCommand: simulate help COMMAND prints what simulate COMMAND -h
// prints, for every command simulate -h lists; help alone, help -h and
// help help print the general usage; help with anything else after it is
// a bad command line (exit 2), not the general usage.
func TestHelpCommand(t *testing.T) {
	_, commands := usageCommands(t)
	for _, cmd := range commands {
		want, _, err := runCLI(t, cmd, "-h")
		if err != nil {
			t.Fatalf("%s -h: %v", cmd, err)
		}
		if got, stderr, err := runCLI(t, "help", cmd); err != nil || got != want || stderr != "" {
			t.Errorf("help %s: %v, stderr %q, stdout %q; want %s -h's usage", cmd, err, stderr, got, cmd)
		}
	}
	// help's own help is the general usage.
	top, _, _ := runCLI(t, "-h")
	for _, args := range [][]string{{"help"}, {"help", "-h"}, {"help", "--help"}, {"help", "help"}} {
		if out, _, err := runCLI(t, args...); err != nil || out != top {
			t.Errorf("simulate %s: %v, want the general usage", strings.Join(args, " "), err)
		}
	}
	for _, args := range [][]string{{"help", "nosuch"}, {"help", "run", "x"}, {"help", "-x"}} {
		stdout, _, err := runCLI(t, args...)
		var msg bytes.Buffer
		if code := exitCode(err, &msg); code != exitUsage || stdout != "" || !strings.Contains(msg.String(), "help takes one command name") {
			t.Errorf("simulate %s: exit %d, stdout %q, %s", strings.Join(args, " "), code, stdout, msg.String())
		}
	}
}

// TestReportHelpSaysHTMLForCompare: compare writes its report as HTML
// alone, so its -h offers no Markdown report; merge's says a Markdown
// report is for a run's parts.
func TestReportHelpSaysHTMLForCompare(t *testing.T) {
	out, _, err := runCLI(t, "compare", "-h")
	if err != nil || strings.Contains(out, "FILE.md") || !strings.Contains(out, "a comparison has no Markdown report") {
		t.Errorf("compare -h: %v\n%s", err, out)
	}
	out, _, err = runCLI(t, "merge", "-h")
	if err != nil || !strings.Contains(out, "for a run's parts, FILE.md") {
		t.Errorf("merge -h: %v\n%s", err, out)
	}
}

// TestSeedIsDecimal: --seed 010 is seed 10, as seed: 010 in a scenario is,
// not the octal 8; 09, which octal cannot read, is 9. The reproduce line
// names the seed run.
func TestSeedIsDecimal(t *testing.T) {
	for seed, want := range map[string]string{"010": "--seed 10 ", "09": "--seed 9 ", "0": "--seed 0 "} {
		out, _, err := runCLI(t, "run", "flee-pursuit", "--trials", "100", "--seed", seed)
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("--seed %s: %v, want %q in\n%s", seed, err, want, out)
		}
	}
}

// TestPrecisionKeyWithOnlyAverages: a scenario's precision key that no
// probability of its results is held to is refused where it is written
// (firing-protocols reports averages alone), and the run makes no trial.
func TestPrecisionKeyWithOnlyAverages(t *testing.T) {
	src, _ := scenarios.Builtin("firing-protocols")
	src = bytes.Replace(src, []byte("trials: 200000\n"), []byte("trials: 20000\nprecision: 0.01\n"), 1)
	path := filepath.Join(t.TempDir(), "fp.yaml")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	line := 1 + bytes.Count(src[:bytes.Index(src, []byte("precision:"))], []byte("\n"))
	stdout, _, err := runCLI(t, "run", path)
	var msg bytes.Buffer
	want := fmt.Sprintf("%s:%d:12: precision 0.01: a precision target holds every probability", path, line)
	if code := exitCode(err, &msg); code != exitError || stdout != "" || !strings.Contains(msg.String(), want) {
		t.Errorf("exit %d, stdout %q, %s; want %q", code, stdout, msg.String(), want)
	}
}

// TestProgressAcrossRounds: a precision run's progress total grows with
// each round (sim.RunRounds); the bar goes on drawing after a round's
// total is reached, where it once finished, cleared itself and drew
// nothing more for the rest of the run.
func TestProgressAcrossRounds(t *testing.T) {
	var w bytes.Buffer
	p := newProgress(&w, "always", "run")
	p.start = p.start.Add(-time.Second)
	p.update(10, 100)
	if !strings.Contains(w.String(), "[0s:") {
		t.Errorf("the first round's bar shows no times: %q", w.String())
	}
	p.update(100, 100) // the first round done: the bar finishes
	w.Reset()
	p.update(150, 200) // the next round, to 200
	time.Sleep(150 * time.Millisecond)
	p.update(180, 200)
	// Its times would count from its first count, 150 trials done at once.
	if !strings.Contains(w.String(), "180/200") || strings.Contains(w.String(), "s:") {
		t.Errorf("after the first round's total the bar drew %q; want its count and no times", w.String())
	}
	p.finish()
}

// TestFitBar: a progress line fits its terminal, less the last column: a
// bar of 30 cells where there is room, narrower, then with the label cut;
// the count of trials stays, since without it the bar would redraw only
// at each whole percent; a terminal too narrow for any line gets none.
// The rest of the line (percentage, times) is taken as 24 columns, the
// count of 3,000,000 trials as 4 + 2 x 7 = 18.
func TestFitBar(t *testing.T) {
	const label = "doomwheel-full-combat" // 21 columns
	for _, tc := range []struct {
		cols  int
		label string
		width int
		fits  bool
	}{
		{0, label, 30, true},                // not a terminal's width: as ever
		{120, label, 30, true},              // 119 - 24 - 18 - 21 = 56 cells of room
		{80, label, 16, true},               // 79 - 24 - 18 - 21
		{70, "doomwheel-full-c…", 10, true}, // 69 - 24 - 18 - 10 - 1 = 16 runes kept
		{54, "…", 10, true},                 // 53 - 24 - 18 - 10 - 1 = 0 runes kept
		{53, "", 0, false},                  // no room for a line
	} {
		l, w, fits := fitBar(label, 3_000_000, tc.cols)
		if l != tc.label || w != tc.width || fits != tc.fits {
			t.Errorf("%d columns: %q, %d cells, fits %v; want %q, %d, %v", tc.cols, l, w, fits, tc.label, tc.width, tc.fits)
		}
	}
}

// TestCommandNameAfterRun: written after run, or after --, a command's
// name is read as the scenario asked for, not refused as a command out of
// place.
func TestCommandNameAfterRun(t *testing.T) {
	for _, args := range [][]string{{"run", "--seed", "3", "list"}, {"--seed", "3", "--", "list"}} {
		_, _, err := runCLI(t, args...)
		var stderr bytes.Buffer
		if code := exitCode(err, &stderr); code != 1 || !strings.Contains(stderr.String(), `no scenario file or built-in scenario named "list"`) {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr.String())
		}
	}
}

// TestHelpCommandAsksHelp: help answers with the usage when -h is among
// its words, whatever else is wrong: help COMMAND -h with the command's.
func TestHelpCommandAsksHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"help", "run", "-h"}, "Usage: simulate run"},
		{[]string{"help", "--nosuch", "-h"}, "simulate: Monte Carlo odds"},
	} {
		stdout, stderr, err := runCLI(t, tc.args...)
		var msg bytes.Buffer
		if code := exitCode(err, &msg); code != 0 || stderr != "" || !strings.HasPrefix(stdout, tc.want) {
			t.Errorf("%v: exit %d (%s), stderr %q, stdout %.40q", tc.args, code, msg.String(), stderr, stdout)
		}
	}
}

// TestCompareSameFile: one file named twice, by one path or two (./ and a
// link), is refused before anything runs, as its columns would be one
// column shown twice; a copy of it is a different candidate and runs.
func TestCompareSameFile(t *testing.T) {
	dir := t.TempDir()
	src, ok := scenarios.Builtin("flee-pursuit")
	if !ok {
		t.Fatal("no built-in flee-pursuit")
	}
	a := filepath.Join(dir, "a.yaml")
	copied := filepath.Join(dir, "copy.yaml")
	linked := filepath.Join(dir, "link.yaml")
	for _, p := range []string{a, copied} {
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, stderr, err := runCLI(t, "compare", a, copied, "--check"); err != nil {
		t.Errorf("compare a file and its copy: %v (%s)", err, stderr)
	}
	// Not filepath.Join, which would clean the "./" away.
	seconds := []string{a, dir + string(filepath.Separator) + "." + string(filepath.Separator) + "a.yaml"}
	if err := os.Symlink(a, linked); err == nil {
		seconds = append(seconds, linked)
	} else {
		t.Log("no symbolic links here:", err)
	}
	for _, second := range seconds {
		_, _, err := runCLI(t, "compare", a, second, "--check")
		var stderr bytes.Buffer
		if code := exitCode(err, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "are the same scenario") {
			t.Errorf("compare %s %s: exit %d, stderr %q; want exit %d, the same scenario", a, second, code, stderr.String(), exitUsage)
		}
	}
}

// TestCompareOtherRulesets: scenarios of two rulesets are refused as such,
// before their trials or seeds are weighed, which no flag would reconcile.
func TestCompareOtherRulesets(t *testing.T) {
	_, _, err := runCLI(t, "compare", "swiftstride-charge", "firing-protocols", "--check")
	want := "swiftstride-charge is a fantasy scenario and firing-protocols a heresy one: compare needs scenarios that ask the same question"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("compare across rulesets: %v; want %q", err, want)
	}
}

// TestPlotsAllZero: where every figure would hold nothing but 0 (no unit
// of impact-hits is ever destroyed or caught), --plot writes no file, makes
// no folder, and says so after the notes that name the figures.
func TestPlotsAllZero(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plots")
	_, stderr, err := runCLI(t, "run", "impact-hits", "--trials", "1000", "--metrics", "destroyed,caught", "--plot", dir, "--progress", "never")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "note: no figure of destroyed: 0 at every point") || !strings.Contains(stderr, "wrote no plot files, and made no folder "+dir) {
		t.Errorf("stderr %q", stderr)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the plot folder: %v, want none", err)
	}
}
