package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// hostile is one hostile or absurd use of the command line, and what must
// come of it: an exit status, a message, files left as they were.
type hostile struct {
	name string
	// args are the command line; "{dir}" stands for a fresh directory.
	args []string
	// files are written into the directory first; setup does the rest.
	files map[string]string
	setup func(t *testing.T, dir string)
	// code is the exit status wanted; msg is in stderr, out in stdout.
	code int
	msg  string
	out  string
	// check looks at the directory and the output afterwards.
	check func(t *testing.T, dir, stdout string)
	// cancel cancels the run after this long, as Ctrl-C does.
	cancel time.Duration
	// within is how long the command may take (default 10s).
	within time.Duration
	// twice runs the command twice at once.
	twice bool
}

// hugeRun is a run far too long to finish in a test: a case that must fail
// before the simulation starts uses it, with a short within.
var hugeRun = []string{"run", "swiftstride-charge", "--trials", "1000000000000"}

func hostileCases() []hostile {
	var cases []hostile
	cases = append(cases, outputCases()...)
	cases = append(cases, flagCases()...)
	cases = append(cases, intervalCases()...)
	return cases
}

// TestHostileInput runs every hostile case: each class of bad input, odd
// path, absurd flag and interruption ends in a clear error or a correct
// result, quickly, touching no file but the outputs named.
func TestHostileInput(t *testing.T) {
	for _, hc := range hostileCases() {
		t.Run(hc.name, func(t *testing.T) { runHostile(t, hc) })
	}
}

func runHostile(t *testing.T, hc hostile) {
	dir := t.TempDir()
	for name, content := range hc.files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if hc.setup != nil {
		hc.setup(t, dir)
	}
	args := make([]string, len(hc.args))
	for i, a := range hc.args {
		args[i] = strings.ReplaceAll(a, "{dir}", dir)
	}
	hc.msg = strings.ReplaceAll(hc.msg, "{dir}", dir)
	ctx := context.Background()
	if hc.cancel > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, hc.cancel)
		defer cancel()
	}
	within := hc.within
	if within == 0 {
		within = 10 * time.Second
	}
	runs := 1
	if hc.twice {
		runs = 2
	}
	var stdout, stderr [2]bytes.Buffer
	var codes [2]int
	var wg sync.WaitGroup
	start := time.Now()
	for i := range runs {
		wg.Go(func() {
			err := run(ctx, args, &stdout[i], &stderr[i])
			codes[i] = exitCode(err, &stderr[i])
		})
	}
	wg.Wait()
	if took := time.Since(start); took > within {
		t.Errorf("took %v, more than %v", took.Round(time.Millisecond), within)
	}
	for i := range runs {
		if codes[i] != hc.code {
			t.Errorf("exit status %d, want %d; stderr:\n%s", codes[i], hc.code, excerptOf(stderr[i].String()))
		}
		if !strings.Contains(stderr[i].String(), hc.msg) {
			t.Errorf("stderr does not say %q:\n%s", hc.msg, excerptOf(stderr[i].String()))
		}
		if !strings.Contains(stdout[i].String(), hc.out) {
			t.Errorf("stdout does not hold %q:\n%s", hc.out, excerptOf(stdout[i].String()))
		}
		if hc.code != 0 && hc.code != exitInterrupted && strings.Contains(stderr[i].String(), "interrupted") {
			t.Errorf("says interrupted without a signal:\n%s", excerptOf(stderr[i].String()))
		}
	}
	if hc.check != nil {
		hc.check(t, dir, stdout[0].String())
	}
}

func excerptOf(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}

// noTempFiles fails when a temporary output file is left in dir or below.
func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".tmp") {
			t.Errorf("temporary file left behind: %s", path)
		}
		return nil
	})
}

func fileIs(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Errorf("%s: %q, %v; want it untouched, %q", path, excerptOf(string(got)), err, want)
	}
}

// umask reads the process's umask from a file it creates.
func umask(t *testing.T) fs.FileMode {
	t.Helper()
	path := filepath.Join(t.TempDir(), "probe")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o777)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	fi, _ := os.Stat(path)
	return 0o777 &^ fi.Mode().Perm()
}

func outputCases() []hostile {
	runArgs := func(extra ...string) []string {
		return append([]string{"run", "random-movement", "--trials", "2000"}, extra...)
	}
	return []hostile{
		{name: "output/dev-null", args: runArgs("-o", "/dev/null"),
			check: func(t *testing.T, dir, _ string) {
				if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
					t.Errorf("/dev/null is no longer a device: %v %v", fi.Mode(), err)
				}
			}},
		{name: "output/fifo", args: runArgs("-o", "{dir}/fifo"),
			setup: func(t *testing.T, dir string) { readFIFO(t, filepath.Join(dir, "fifo")) },
			check: func(t *testing.T, dir, _ string) {
				if fi, err := os.Lstat(filepath.Join(dir, "fifo")); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
					t.Errorf("the FIFO was replaced: %v %v", fi.Mode(), err)
				}
			}},
		{name: "output/symlink", args: runArgs("-o", "{dir}/link.txt"), files: map[string]string{"real.txt": "old"},
			setup: func(t *testing.T, dir string) {
				os.Chmod(filepath.Join(dir, "real.txt"), 0o640)
				if err := os.Symlink("real.txt", filepath.Join(dir, "link.txt")); err != nil {
					t.Skip("no symlinks here:", err)
				}
			},
			check: func(t *testing.T, dir, _ string) {
				if fi, err := os.Lstat(filepath.Join(dir, "link.txt")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("the link is no longer a link: %v", err)
				}
				fi, _ := os.Stat(filepath.Join(dir, "real.txt"))
				if data, _ := os.ReadFile(filepath.Join(dir, "real.txt")); !bytes.Contains(data, []byte("random-movement")) || fi.Mode().Perm() != 0o640 {
					t.Errorf("the link's target: mode %v, %q; want the results, mode 0640", fi.Mode().Perm(), excerptOf(string(data)))
				}
				noTempFiles(t, dir)
			}},
		{name: "output/new-file-mode", args: runArgs("-o", "{dir}/new.txt", "--report", "{dir}/r.html"),
			check: func(t *testing.T, dir, _ string) {
				want := 0o666 &^ umask(t)
				for _, f := range []string{"new.txt", "r.html"} {
					if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Mode().Perm() != want {
						t.Errorf("%s: mode %v, %v; want 0666 less the umask, %v", f, fi.Mode().Perm(), err, want)
					}
				}
			}},
		{name: "output/directory", args: append(hugeRun, "-o", "{dir}"), code: exitError, msg: "is a directory", within: 2 * time.Second,
			check: func(t *testing.T, dir, _ string) { noTempFiles(t, filepath.Dir(dir)) }},
		{name: "output/names-input", args: []string{"run", "{dir}/my.yaml", "-o", "{dir}/./my.yaml"},
			files: map[string]string{"my.yaml": tinyScenario}, code: exitError, msg: "names the input",
			check: func(t *testing.T, dir, _ string) { fileIs(t, filepath.Join(dir, "my.yaml"), tinyScenario) }},
		{name: "output/report-names-compare-candidate", args: []string{"compare", "{dir}/a.html", "{dir}/b.yaml", "--report", "{dir}/a.html"},
			files: map[string]string{"a.html": tinyScenario, "b.yaml": strings.Replace(tinyScenario, "tiny", "tiny-b", 1)},
			code:  exitError, msg: "names the input",
			check: func(t *testing.T, dir, _ string) { fileIs(t, filepath.Join(dir, "a.html"), tinyScenario) }},
		{name: "output/same-file-twice", args: append(hugeRun, "-o", "{dir}/x.html", "--report", "{dir}/x.html"),
			code: exitError, msg: "name the same file", within: 2 * time.Second},
		{name: "output/missing-directory", args: append(hugeRun, "-o", "{dir}/nowhere/out.txt"), code: exitError,
			msg: "the directory {dir}/nowhere does not exist", within: 2 * time.Second},
		{name: "output/plot-dir-is-a-file", args: append(hugeRun, "--plot", "{dir}/f.txt"), files: map[string]string{"f.txt": "x"},
			code: exitError, msg: "is not a directory", within: 2 * time.Second},
		{name: "output/report-plot-dir-is-a-file", args: append(hugeRun, "--report", "{dir}/r.md"), files: map[string]string{"r_plots": "x"},
			code: exitError, msg: "is not a directory", within: 2 * time.Second},
		{name: "output/name-too-long", args: append(hugeRun, "-o", "{dir}/"+strings.Repeat("n", 300)), code: exitError,
			msg: "too long", within: 2 * time.Second},
		{name: "output/plot-dir-name-too-long", args: append(hugeRun, "--plot", "{dir}/"+strings.Repeat("p", 300)+"/x"), code: exitError,
			msg: "too long", within: 2 * time.Second},
		{name: "output/unwritable-directory", args: append(hugeRun, "-o", "{dir}/ro/out.txt"), code: exitError,
			msg: "permission denied", within: 2 * time.Second,
			setup: func(t *testing.T, dir string) {
				if os.Geteuid() == 0 {
					t.Skip("root writes into read-only directories")
				}
				os.Mkdir(filepath.Join(dir, "ro"), 0o555)
			}},
		{name: "output/failing-plot-replaces-nothing", args: runArgs("-o", "{dir}/out.json", "--report", "{dir}/r.html", "--plot", "{dir}/plots"),
			files: map[string]string{"out.json": "old results", "r.html": "old report"},
			setup: func(t *testing.T, dir string) {
				// A directory where a plot file goes: found only when the
				// plots are written, after the run.
				os.MkdirAll(filepath.Join(dir, "plots", "charge_success.png"), 0o755)
			},
			code: exitError, msg: "charge_success.png is a directory",
			check: func(t *testing.T, dir, _ string) {
				fileIs(t, filepath.Join(dir, "out.json"), "old results")
				fileIs(t, filepath.Join(dir, "r.html"), "old report")
				noTempFiles(t, dir)
			}},
		{name: "output/two-runs-one-plot-dir", args: runArgs("--plot", "{dir}/plots"), twice: true,
			check: func(t *testing.T, dir, _ string) {
				entries, _ := os.ReadDir(filepath.Join(dir, "plots"))
				if len(entries) != 6 {
					t.Errorf("%d plot files, want 6", len(entries))
				}
				for _, e := range entries {
					data, _ := os.ReadFile(filepath.Join(dir, "plots", e.Name()))
					if strings.HasSuffix(e.Name(), ".png") {
						if _, err := png.Decode(bytes.NewReader(data)); err != nil {
							t.Errorf("%s is not a whole PNG: %v", e.Name(), err)
						}
					} else if !bytes.HasSuffix(bytes.TrimSpace(data), []byte("</svg>")) {
						t.Errorf("%s is not a whole SVG", e.Name())
					}
				}
			}},
	}
}

// tinyScenario is a quick scenario file.
const tinyScenario = `name: tiny
ruleset: fantasy
trials: 2000
charge:
  unit: {name: A, M: 5}
  distance: 8
`

func flagCases() []hostile {
	usage := func(name, msg string, args ...string) hostile {
		return hostile{name: "flags/" + name, args: args, code: exitUsage, msg: msg, within: 2 * time.Second,
			check: func(t *testing.T, _, stdout string) {
				if stdout != "" {
					t.Errorf("a usage error printed on stdout:\n%s", excerptOf(stdout))
				}
			}}
	}
	return []hostile{
		usage("workers-billion", "--workers 1000000000 is out of range", append(hugeRun, "--workers", "1000000000")...),
		usage("workers-maxint", "--workers 9223372036854775807 is out of range", append(hugeRun, "--workers", "9223372036854775807")...),
		usage("workers-negative", "--workers -1 is out of range", append(hugeRun, "--workers", "-1")...),
		usage("trials-maxint", "--trials 9223372036854775807 is out of range", "run", "--trials", "9223372036854775807"),
		usage("trials-overflow", "value out of range", "run", "--trials", "99999999999999999999"),
		usage("trials-zero", "--trials 0 is out of range", "run", "--trials", "0"),
		usage("compare-trials-maxint", "--trials 9223372036854775807 is out of range", "compare", "doomwheel-balance", "--trials", "9223372036854775807"),
		usage("precision-nan", "--precision NaN", "run", "--precision", "NaN"),
		usage("precision-zero", "--precision 0:", "run", "--precision", "0"),
		usage("precision-half", "--precision 0.5", "run", "--precision", "0.5"),
		usage("precision-negative", "--precision -0.01", "run", "--precision", "-0.01"),
		usage("precision-inf", "--precision +Inf", "run", "--precision", "Inf"),
		usage("max-trials-alone", "--max-trials caps a --precision run", "run", "--max-trials", "1000"),
		usage("max-trials-zero", "--max-trials 0 is out of range", "run", "--precision", "0.01", "--max-trials", "0"),
		usage("dice-workers-negative", "--workers -5 is out of range", "dice", "2D6", "--trials", "100", "--workers", "-5"),
		usage("dice-trials-maxint", "--trials 9223372036854775807 is out of range", "dice", "2D6", "--trials", "9223372036854775807"),
		usage("dice-trials-negative", "--trials -3 is out of range", "dice", "2D6", "--trials", "-3"),
		{name: "flags/one-line-and-hint", args: []string{"run", "--bogus"}, code: exitUsage,
			msg: "simulate: run: flag provided but not defined: -bogus\nRun 'simulate run -h' for its flags.\n",
			check: func(t *testing.T, _, stdout string) {
				if stdout != "" {
					t.Errorf("a flag error printed the usage on stdout:\n%s", excerptOf(stdout))
				}
			}},
		{name: "flags/bad-value-one-line", args: []string{"dice", "2D6", "--trials", "many"}, code: exitUsage,
			msg: "simulate: dice: invalid value \"many\" for flag -trials: \"many\" is not a number of trials; write it as 1000000, 1_000_000 or 1e6\nRun 'simulate dice -h' for its flags.\n"},
		{name: "flags/help-on-stdout", args: []string{"compare", "-h"}, out: "Usage: simulate compare"},
	}
}

func intervalCases() []hostile {
	return []hostile{
		{name: "interval/edges-exact", args: []string{"run", "random-movement", "--trials", "2000", "--format", "json"},
			check: func(t *testing.T, _, stdout string) {
				var doc struct {
					Results []struct {
						Kind  string     `json:"kind"`
						Value float64    `json:"estimate"`
						CI95  [2]float64 `json:"ci95"`
					} `json:"results"`
				}
				if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
					t.Fatal(err)
				}
				edges := 0
				for _, r := range doc.Results {
					if r.Kind != "probability" || (r.Value != 0 && r.Value != 1) {
						continue
					}
					edges++
					if r.CI95[0] > r.Value || r.CI95[1] < r.Value || (r.Value == 0 && r.CI95[0] != 0) || (r.Value == 1 && r.CI95[1] != 1) {
						t.Errorf("estimate %v with interval %v", r.Value, r.CI95)
					}
				}
				// Charges of 3D6 and 4D6 over distances up to 30: some are
				// certain, some impossible.
				if edges == 0 {
					t.Error("no estimate of 0 or 1 to check")
				}
			}},
	}
}
