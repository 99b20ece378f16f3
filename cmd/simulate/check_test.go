package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCheck: --check refuses what the command would refuse, with the same
// message and exit status (2 for a bad command line, 1 for a scenario that
// does not load or a destination that cannot be written), and passes what
// it would run, without running it or writing anything. Each case is a
// mistake a script submitting a job array could make, which the array's
// tasks or its merge would otherwise meet only on the cluster.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out") // every destination that passes is in here
	os.Mkdir(out, 0o755)
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	os.WriteFile(a, []byte(swordsmen("swordsmen", 3)), 0o644)
	os.WriteFile(b, []byte(swordsmen("strong", 4)), 0o644)
	partsDir := filepath.Join(dir, "parts")
	os.Mkdir(partsDir, 0o755)
	parts := writeShards(t, partsDir, []string{"run", "charge-benchmark", "--trials", "20000"}, 2)
	cparts := writeShards(t, t.TempDir(), []string{"compare", "doomwheel-balance", "--trials", "2000"}, 2)
	noDir := filepath.Join(dir, "no-such-folder")
	t.Setenv("HAMMERSIM_TEST_TASK", "0")
	os.Unsetenv("HAMMERSIM_TEST_UNSET")

	tests := []struct {
		name string
		args []string
		code int
		msg  string // in the error; "" for a check that passes
	}{
		{"run passes", []string{"run", "flee-pursuit", "-o", out + "/r.txt", "--plot", out + "/plots", "--report", out + "/r.md"}, 0, ""},
		// A run this long would not end during the test: --check runs nothing.
		{"run of a trillion trials", []string{"run", "charge-benchmark", "--trials", "1e12"}, 0, ""},
		{"shard passes", []string{"run", "flee-pursuit", "--shard-index-env", "HAMMERSIM_TEST_TASK", "--shard", "4", "-o", out + "/part-{shard}"}, 0, ""},
		{"compare passes", []string{"compare", a, b, "--report", out + "/c.html"}, 0, ""},
		{"compare shard passes", []string{"compare", "doomwheel-balance", "--trials", "20000", "--shard", "2/3", "-o", out + "/c-2"}, 0, ""},
		{"merge before the shards", []string{"merge", "--format", "json", "-o", out + "/m.json", "--plot", out + "/plots", "--report", out + "/m.html"}, 0, ""},
		{"merge of complete parts", []string{"merge", "-o", out + "/m.txt", parts[0], parts[1]}, 0, ""},
		{"merge partial of some parts", []string{"merge", "--format", "partial", "-o", out + "/sum", parts[0]}, 0, ""},

		{"too many shards", []string{"run", "flee-pursuit", "--shard", "0/70000"}, 2,
			`--shard "0/70000": expected I/N, shard I of N with 0 <= I < N <= 65536`},
		{"too many shards by env", []string{"run", "flee-pursuit", "--shard-index-env", "HAMMERSIM_TEST_TASK", "--shard", "70000"}, 2,
			`--shard "0/70000" (the index from HAMMERSIM_TEST_TASK): expected I/N`},
		{"index variable unset", []string{"run", "flee-pursuit", "--shard-index-env", "HAMMERSIM_TEST_UNSET", "--shard", "4"}, 2,
			"--shard-index-env: HAMMERSIM_TEST_UNSET is not set"},
		{"unknown flag", []string{"run", "nosuch.yaml", "--trails", "5"}, 2, "flag provided but not defined: -trails"},
		{"scenario that does not load", []string{"run", "nosuch.yaml", "--trials", "5"}, 1, `no scenario file or built-in scenario named "nosuch.yaml"`},
		{"bad value", []string{"compare", a, b, "--trials", "0"}, 2, "--trials 0 is out of range"},
		{"too few trials to compare", []string{"compare", a, b, "--trials", "100"}, 2, "compare: 100 trials are too few"},
		{"flag given twice", []string{"run", "flee-pursuit", "--plot", out + "/a", "--plot", out + "/b"}, 2, `-plot "` + out + `/b": given twice`},
		{"unwritable report", []string{"run", "flee-pursuit", "--report", noDir + "/r.html"}, 1,
			"cannot write " + noDir + "/r.html: the directory " + noDir + " does not exist"},
		{"unwritable shard output", []string{"run", "flee-pursuit", "--shard", "1/2", "-o", noDir + "/part-1"}, 1, "the directory " + noDir + " does not exist"},
		// {shard} names one file a shard; a run, comparison or merge that
		// runs no shard would write the whole result under that name.
		{"{shard} without --shard", []string{"run", "flee-pursuit", "-o", out + "/part-{shard}"}, 2, "{shard} stands for the shard index, and only a sharded run"},
		{"compare {shard} without --shard", []string{"compare", a, b, "-o", out + "/c-{shard}"}, 2, "{shard} stands for the shard index"},
		{"merge {shard}", []string{"merge", "-o", out + "/m-{shard}"}, 2, "{shard} stands for the shard index"},
		// Only probabilities are held to a precision target: a run that
		// reports none would stop at once and call it met.
		{"precision with only averages", []string{"run", "firing-protocols", "--precision", "0.01"}, 2,
			"--precision 0.01: a precision target holds every probability the run reports to its half-width, and this run reports none, only averages (hits, unsaved_wounds, casualties)"},
		{"precision with only averages kept", []string{"run", "random-movement", "--precision", "0.01", "--metrics", "charge_reach"}, 2, "only averages (charge_reach)"},
		// A seed is decimal, as the scenario's seed key is read: the flag
		// package's own reading took 0x10 as 16 and 010 as 8.
		{"hexadecimal seed", []string{"run", "flee-pursuit", "--seed", "0x10"}, 2, "--seed 0x10: expected a whole number from 0 to 18446744073709551615"},
		{"binary seed", []string{"dice", "2D6", "--trials", "10", "--seed", "0b11"}, 2, "--seed 0b11: expected a whole number"},
		// An int64 flag says what it expects as an int flag does.
		{"serve max-body", []string{"serve", "--max-body", "1e6"}, 2, "serve: --max-body 1e6: expected a whole number"},
		{"shard of a precision run", []string{"run", "flee-pursuit", "--precision", "0.01", "--shard", "0/2"}, 2, "--shard runs a fixed number of trials"},
		{"format on a shard", []string{"compare", a, b, "--format", "json", "--shard", "0/2"}, 2, "--format with --shard: a shard writes a partial result"},
		{"merge format twice", []string{"merge", "--format", "json", "--format", "csv"}, 2, `-format "csv": given twice`},
		{"merge plot twice", []string{"merge", "--plot", out + "/a", "--plot", out + "/b"}, 2, `-plot "` + out + `/b": given twice`},
		{"merge unknown format", []string{"merge", "--format", "xml"}, 2, `unknown format "xml"; expected table, json, csv, markdown or partial`},
		{"merge report of no kind", []string{"merge", "--report", out + "/r.txt"}, 2, "expected a file ending in .html or .md"},
		// An empty --by is refused, not read as attacker, the default.
		{"compare empty by", []string{"compare", "flank-charge", "--by", ""}, 2, `--by "": an empty name; expected a swept parameter's name`},
		{"compare report of no kind", []string{"compare", a, b, "--report", out + "/r.txt"}, 2, "expected a file ending in .html (compare writes its report as HTML)"},
		{"merge unwritable report", []string{"merge", "--report", noDir + "/r.html"}, 1, "the directory " + noDir + " does not exist"},
		{"merge plots in a file", []string{"merge", "--plot", a}, 1, "cannot write into " + a + ": " + a + " is not a directory"},
		{"merge with a shard missing", []string{"merge", parts[0]}, 1, "1 of 2 shards missing: shard 1 (rerun with --shard 1/2)"},
		{"merge of a folder without parts", []string{"merge", out}, 1, out + " holds no partial results"},
		// Refused by the shape of the comparison, worked out on no trials,
		// where the run would refuse it only once its trials were done.
		{"compare of different questions", []string{"compare", "impact-hits", "flee-pursuit", "--trials", "10000", "--seed", "1"}, 1,
			"impact-hits and flee-pursuit share no result"},
		{"compare of two rulesets", []string{"compare", "impact-hits", "plasma-gets-hot", "--trials", "10000", "--seed", "1"}, 1,
			"impact-hits is a fantasy scenario and plasma-gets-hot a heresy one"},
		{"compare by a readout", []string{"compare", "charge-benchmark", "--by", "distance", "--trials", "10000"}, 1,
			"distance does not tell every result apart"},
		{"compare shard of different questions", []string{"compare", "impact-hits", "flee-pursuit", "--trials", "20000", "--shard", "0/2", "-o", out + "/x"}, 1,
			"share no result"},
		{"merge of a comparison into Markdown", []string{"merge", "--report", out + "/r.md", cparts[0], cparts[1]}, 2,
			"the parts are of a comparison, whose report is HTML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			stdout, stderr, err := runCLI(t, append(tt.args, "--check")...)
			if code := exitCode(err, io.Discard); code != tt.code {
				t.Fatalf("exit %d, want %d: %v", code, tt.code, err)
			}
			if tt.msg != "" && !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not contain %q", err, tt.msg)
			}
			if tt.code == 0 && !strings.HasSuffix(stderr, ": check passed; nothing was run or written\n") {
				t.Errorf("stderr %q does not say that the check passed", stderr)
			}
			if stdout != "" {
				t.Errorf("a check wrote to standard output: %q", stdout)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("the check took %v: it ran the command", d)
			}
			if entries, _ := os.ReadDir(out); len(entries) > 0 {
				t.Errorf("a check wrote %s", entries[0].Name())
			}
		})
	}
}

// TestCheckStopsAtTheSameRefusals: a command line that fails fails the
// same way with --check, message and exit status alike, so that a script
// may show the check's error as the command's own.
func TestCheckStopsAtTheSameRefusals(t *testing.T) {
	noDir := filepath.Join(t.TempDir(), "none")
	for _, args := range [][]string{
		{"run", "flee-pursuit", "--shard", "0/70000"},
		{"run", "nosuch.yaml", "--trails", "5"},
		{"run", "nosuch.yaml"},
		{"run", "flee-pursuit", "--report", noDir + "/r.html"},
		{"merge", "--plot", "a", "--plot", "b", "x"},
		{"compare", "flee-pursuit", "--by", "no-axis"},
	} {
		_, _, plain := runCLI(t, args...)
		_, _, checked := runCLI(t, append(args, "--check")...)
		if plain == nil || checked == nil || plain.Error() != checked.Error() || exitCode(plain, io.Discard) != exitCode(checked, io.Discard) {
			t.Errorf("%v: %v without --check, %v with it", args, plain, checked)
		}
	}
}
