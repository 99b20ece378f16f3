package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hammersim/sim"
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
	// within is the processor time the command may take (default 10s):
	// processor time rather than wall time, which the machine's other
	// work stretches. A command still running after 30s of wall time is
	// cancelled, and so fails.
	within time.Duration
	// twice runs the command twice at once.
	twice bool
	// alloc, when set, bounds the bytes the command may allocate.
	alloc uint64
	// short asks for an error of one short line, whatever the input.
	short bool
}

// hugeRun is a run far too long to finish in a test: a case that must fail
// before the simulation starts uses it, with a short within.
var hugeRun = []string{"run", "swiftstride-charge", "--trials", "1000000000000"}

func hostileCases() []hostile {
	var cases []hostile
	cases = append(cases, outputCases()...)
	cases = append(cases, flagCases()...)
	cases = append(cases, intervalCases()...)
	cases = append(cases, inputCases()...)
	cases = append(cases, exactCases()...)
	cases = append(cases, interruptCases()...)
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
	stop := 30 * time.Second
	if hc.cancel > 0 {
		stop = hc.cancel
	}
	ctx, cancel := context.WithTimeout(context.Background(), stop)
	defer cancel()
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
	var before, after runtime.MemStats
	// The processor time is the whole process's: collecting what earlier
	// cases left first keeps their garbage off this case's bill.
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := cpuTime()
	for i := range runs {
		wg.Go(func() {
			err := run(ctx, args, &stdout[i], &stderr[i])
			codes[i] = exitCode(err, &stderr[i])
		})
	}
	wg.Wait()
	if took := cpuTime() - start; took > within {
		t.Errorf("took %v of processor time, more than %v", took.Round(time.Millisecond), within)
	}
	runtime.ReadMemStats(&after)
	if used := after.TotalAlloc - before.TotalAlloc; hc.alloc > 0 && used > hc.alloc {
		t.Errorf("allocated %d MB, more than %d MB", used>>20, hc.alloc>>20)
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
		if n := stderr[i].Len(); hc.short && n > 300 {
			t.Errorf("an error of %d bytes; an excerpt of the input is wanted:\n%s", n, excerptOf(stderr[i].String()))
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
		// An output the scenario would read as a unit catalogue next time
		// (in a folder its units key lists, or named *.units.yaml beside
		// it) is refused: it would break that run.
		{name: "output/into-catalogue-folder", args: []string{"run", "{dir}/s.yaml", "--trials", "100", "-o", "{dir}/uk/new.yaml"},
			files: map[string]string{"s.yaml": "name: s\nruleset: fantasy\nunits: uk\ncharge: {unit: {use: Gob}, distance: 6}\n"},
			setup: func(t *testing.T, dir string) {
				os.Mkdir(filepath.Join(dir, "uk"), 0o755)
				os.WriteFile(filepath.Join(dir, "uk", "a.yaml"), []byte("ruleset: fantasy\nunits:\n  - name: Gob\n    profile: M4 WS3 BS3 S3 T3 W1 I2 A1 Ld6\n"), 0o644)
			},
			code: exitError, msg: "-o {dir}/uk/new.yaml would be read as a unit catalogue by {dir}/s.yaml next time (it matches *.yaml in {dir}/uk)"},
		{name: "output/beside-as-catalogue", args: []string{"run", "{dir}/s.yaml", "--trials", "100", "-o", "{dir}/results.units.yaml"},
			files: map[string]string{"s.yaml": "name: s\nruleset: fantasy\ncharge: {unit: {use: Gob}, distance: 6}\n",
				"gob.units.yaml": "ruleset: fantasy\nunits:\n  - name: Gob\n    profile: M4 WS3 BS3 S3 T3 W1 I2 A1 Ld6\n"},
			code: exitError, msg: "would be read as a unit catalogue by {dir}/s.yaml next time (it matches *.units.yaml in {dir})"},
		// A file made read-only is not replaced, before the run starts.
		{name: "output/read-only", args: runArgs("-o", "{dir}/ro.json"), files: map[string]string{"ro.json": "kept"},
			setup: func(t *testing.T, dir string) { os.Chmod(filepath.Join(dir, "ro.json"), 0o444) },
			code:  exitError, msg: "cannot write {dir}/ro.json: it is read-only (mode 0444)",
			check: func(t *testing.T, dir, _ string) {
				if data, _ := os.ReadFile(filepath.Join(dir, "ro.json")); string(data) != "kept" {
					t.Errorf("the read-only file now holds %q", data)
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
		// compare runs every candidate on the same fixed trials and seed:
		// what a scenario asks otherwise is refused, not left unused.
		{name: "compare/precision", args: []string{"compare", "{dir}/p.yaml", "--by", "unit"},
			files: map[string]string{"p.yaml": strings.NewReplacer("trials: 2000", "precision: 0.01\nmax_trials: 50000", "{name: A, M: 5}", "[{name: A, M: 5}, {name: B, M: 6}]").Replace(tinyScenario)},
			code:  exitError, msg: "{dir}/p.yaml asks for a precision target (precision), which compare cannot follow"},
		{name: "compare/trials-differ", args: []string{"compare", "{dir}/a.yaml", "{dir}/b.yaml"},
			files: map[string]string{"a.yaml": tinyScenario, "b.yaml": strings.Replace(tinyScenario, "trials: 2000", "trials: 5000", 1)},
			code:  exitError, msg: "{dir}/a.yaml has trials: 2000 and {dir}/b.yaml has trials: 5000: compare runs them on the same trials"},
		{name: "compare/seeds-differ", args: []string{"compare", "{dir}/a.yaml", "{dir}/b.yaml"},
			files: map[string]string{"a.yaml": tinyScenario, "b.yaml": strings.Replace(tinyScenario, "trials: 2000", "trials: 2000\nseed: 4", 1)},
			code:  exitError, msg: "{dir}/a.yaml has no seed: key (so 1) and {dir}/b.yaml has seed: 4: compare runs them on the same dice"},
		// A key that says what the default would is no disagreement.
		{name: "compare/default-seed-spelt-out", args: []string{"compare", "{dir}/a.yaml", "{dir}/b.yaml", "--format", "csv"},
			files: map[string]string{"a.yaml": tinyScenario, "b.yaml": strings.Replace(tinyScenario, "trials: 2000", "trials: 2000\nseed: 1", 1)},
			code:  exitOK, out: "tiny vs tiny,1,false,charge_success"},
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
		{name: "output/folder-is-a-file", args: append(hugeRun, "-o", "{dir}/f.txt/out.txt"), files: map[string]string{"f.txt": "x"},
			code: exitError, msg: "cannot write {dir}/f.txt/out.txt: not a directory", within: 2 * time.Second},
		// Skipped as root, who writes into read-only folders; the case
		// above fails the same check in a way root cannot get round.
		{name: "output/unwritable-directory", args: append(hugeRun, "-o", "{dir}/ro/out.txt"), code: exitError,
			msg: "permission denied", within: 2 * time.Second,
			setup: readOnlyFolder},
		// The same for a plot folder: the error names the folders, not the
		// file the check made to find out.
		{name: "output/unwritable-plot-directory", args: append(hugeRun, "--plot", "{dir}/ro/plots"), code: exitError,
			msg: "cannot write into {dir}/ro/plots: no file can be made in {dir}/ro: permission denied", within: 2 * time.Second,
			setup: readOnlyFolder},
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
		// -o naming the folder the plots go to: refused before the run,
		// leaving no folder behind (it used to fail at the end, in a
		// rename, after making an empty folder).
		{name: "output/results-named-as-plot-dir", args: append(hugeRun, "-o", "{dir}/plots", "--plot", "{dir}/plots"),
			code: exitError, msg: "-o {dir}/plots is the --plot folder", within: 2 * time.Second,
			check: func(t *testing.T, dir, _ string) {
				if _, err := os.Lstat(filepath.Join(dir, "plots")); err == nil {
					t.Error("a plots file or folder was left behind")
				}
			}},
		{name: "output/results-named-as-report-plot-dir", args: append(hugeRun, "-o", "{dir}/r_plots", "--report", "{dir}/r.md"),
			code: exitError, msg: "-o {dir}/r_plots is the folder of the report's plots", within: 2 * time.Second},
		// "-" is standard output, as it is standard input for a scenario,
		// for every command with -o; never a file named "-".
		{name: "output/dash-is-stdout", args: []string{"run", "{dir}/t.yaml", "-o", "-", "--format", "json"},
			files: map[string]string{"t.yaml": tinyScenario}, out: `"scenario": "tiny"`,
			check: func(t *testing.T, dir, _ string) { noDashFile(t) }},
		{name: "output/dash-is-stdout-dice", args: []string{"dice", "2D6 >= 9", "-o", "-"}, out: "exact: 27.78%",
			check: func(t *testing.T, dir, _ string) { noDashFile(t) }},
		// The tiny scenario's plots are charge_success.png and .svg: a
		// scenario saved under one of those names in the plot folder is an
		// input, not a plot to replace.
		{name: "output/plot-names-input", args: []string{"run", "{dir}/charge_success.svg", "--plot", "{dir}"},
			files: map[string]string{"charge_success.svg": tinyScenario}, code: exitError, msg: "names the input",
			check: func(t *testing.T, dir, _ string) {
				fileIs(t, filepath.Join(dir, "charge_success.svg"), tinyScenario)
				noTempFiles(t, dir)
			}},
		// -o naming a plot that the Markdown report writes beside it: the
		// plot would replace the results the message says were written.
		{name: "output/results-named-as-a-plot", args: runArgs("--format", "json", "-o", "{dir}/r_plots/charge_success.png", "--report", "{dir}/r.md"),
			files: map[string]string{"r.md": "old report"},
			setup: func(t *testing.T, dir string) {
				os.Mkdir(filepath.Join(dir, "r_plots"), 0o755)
				os.WriteFile(filepath.Join(dir, "r_plots", "charge_success.png"), []byte("old results"), 0o644)
			},
			code: exitError, msg: "two outputs would both be written to {dir}/r_plots/charge_success.png",
			check: func(t *testing.T, dir, _ string) {
				fileIs(t, filepath.Join(dir, "r_plots", "charge_success.png"), "old results")
				fileIs(t, filepath.Join(dir, "r.md"), "old report")
				noTempFiles(t, dir)
				noTempFiles(t, filepath.Join(dir, "r_plots"))
			}},
		// --plot naming the folder a Markdown report puts its plots in: the
		// same figures, written once.
		{name: "output/plot-dir-is-report-plot-dir", args: runArgs("--plot", "{dir}/r_plots", "--report", "{dir}/r.md"),
			check: func(t *testing.T, dir, _ string) {
				entries, _ := os.ReadDir(filepath.Join(dir, "r_plots"))
				if len(entries) == 0 {
					t.Error("no plots in r_plots")
				}
				if _, err := os.Stat(filepath.Join(dir, "r.md")); err != nil {
					t.Error(err)
				}
				noTempFiles(t, dir)
				noTempFiles(t, filepath.Join(dir, "r_plots"))
			}},
		{name: "output/two-runs-one-plot-dir", args: runArgs("--plot", "{dir}/plots"), twice: true,
			check: func(t *testing.T, dir, _ string) {
				entries, _ := os.ReadDir(filepath.Join(dir, "plots"))
				if len(entries) != 4 { // two figures, PNG and SVG
					t.Errorf("%d plot files, want 4", len(entries))
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

// readOnlyFolder makes dir/ro, which only root could write into: a case
// that needs it is skipped as root.
func readOnlyFolder(t *testing.T, dir string) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only directories")
	}
	os.Mkdir(filepath.Join(dir, "ro"), 0o555)
}

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
		usage("trials-overflow", "99999999999999999999 is out of range; expected 1 to 1000000000000", "run", "--trials", "99999999999999999999"),
		usage("trials-zero", "--trials 0 is out of range", "run", "--trials", "0"),
		usage("compare-trials-maxint", "--trials 9223372036854775807 is out of range", "compare", "doomwheel-balance", "--trials", "9223372036854775807"),
		usage("precision-nan", "--precision NaN", "run", "--precision", "NaN"),
		usage("precision-zero", "--precision 0:", "run", "--precision", "0"),
		usage("precision-half", "--precision 0.5", "run", "--precision", "0.5"),
		usage("precision-negative", "--precision -0.01", "run", "--precision", "-0.01"),
		usage("precision-inf", "--precision +Inf", "run", "--precision", "Inf"),
		usage("max-trials-alone", "--max-trials caps a --precision run", "run", "--max-trials", "1000"),
		usage("max-trials-zero", "--max-trials 0 is out of range", "run", "--precision", "0.01", "--max-trials", "0"),
		// A cap below the first round would cut it short without a word.
		usage("max-trials-below-trials", "--max-trials 1000 is below --trials 1000000", "run", "--precision", "0.001", "--trials", "1e6", "--max-trials", "1000"),
		// --seed and --workers roll nothing for a query answered exactly.
		usage("dice-seed-alone", "simulate: --seed 5 changes nothing here: 2D6 is answered exactly and nothing is rolled", "dice", "2D6", "--seed", "5"),
		usage("dice-workers-alone", "simulate: --workers 3 changes nothing here", "dice", "2D6", "--workers", "3"),
		// A malformed listening address is a bad command line; one taken
		// is an error of listening.
		usage("serve-addr-no-port", `simulate: --addr "nonsense": expected HOST:PORT, such as 127.0.0.1:8080, :8080 or [::1]:8080 (missing port in address)`+"\nRun 'simulate serve -h' for its flags.\n", "serve", "--addr", "nonsense"),
		usage("serve-addr-port-range", `--addr "127.0.0.1:99999": port 99999 is out of range`, "serve", "--addr", "127.0.0.1:99999"),
		usage("dice-workers-negative", "--workers -5 is out of range", "dice", "2D6", "--trials", "100", "--workers", "-5"),
		usage("dice-trials-maxint", "--trials 9223372036854775807 is out of range", "dice", "2D6", "--trials", "9223372036854775807"),
		usage("dice-trials-negative", "--trials -3 is out of range", "dice", "2D6", "--trials", "-3"),
		usage("progress-word", `unknown --progress "sometimes"; expected auto, always or never`, "run", "--progress", "sometimes"),
		// A report of an ending alone would be a hidden file.
		usage("report-no-name", "--report .md: the file has no name before .md; expected a name such as report.md", "run", "flee-pursuit", "--trials", "1000", "--report", ".md"),
		usage("report-no-name-html", "--report out/.HTML: the file has no name before .HTML; expected a name such as report.html", "run", "flee-pursuit", "--trials", "1000", "--report", "out/.HTML"),
		// -o - is standard output; --plot - would make a folder named "-".
		usage("plot-dash", "--plot -: plots are PNG and SVG files in a folder, which standard output cannot hold", "run", "flee-pursuit", "--trials", "1000", "--plot", "-"),
		usage("merge-plot-dash", "--plot -: plots are PNG and SVG files in a folder", "merge", "--plot", "-", "part.json"),
		usage("seed-negative", "simulate: run: --seed -1: expected a whole number from 0 to 18446744073709551615\nRun 'simulate run -h' for its flags.\n", "run", "--seed", "-1"),
		usage("seed-fraction", "simulate: dice: --seed 1.5: expected a whole number from 0 to 18446744073709551615\n", "dice", "2D6", "--seed", "1.5"),
		usage("workers-word", "simulate: run: --workers x: expected a whole number\n", "run", "--workers", "x"),
		usage("precision-word", "simulate: run: --precision abc: expected a number, such as 0.005\n", "run", "--precision", "abc"),
		usage("metrics-empty", "--metrics names no metric", "run", "flee-pursuit", "--metrics", ""),
		usage("metrics-commas", "--metrics names no metric", "compare", "doomwheel-balance", "--metrics", " , "),
		// An empty entry or a name given twice in a comma list is refused,
		// naming the flag and the entry: "a,,b" has its empty entry second of
		// three, and a trailing comma makes an empty last entry.
		usage("metrics-empty-entry", `--metrics "charge_success,,charge_reach": entry 2 of 3 is empty; expected names separated by single commas`, "run", "swiftstride-charge", "--metrics", "charge_success,,charge_reach"),
		usage("metrics-trailing-comma", `--metrics "charge_success,": entry 2 of 2 is empty`, "run", "swiftstride-charge", "--metrics", "charge_success,"),
		usage("metrics-leading-comma", `--metrics ",won": entry 1 of 2 is empty`, "compare", "doomwheel-balance", "--metrics", ",won"),
		usage("metrics-twice", `--metrics "charge_success, charge_success": charge_success is named twice, as entries 1 and 2`, "run", "swiftstride-charge", "--metrics", "charge_success, charge_success"),
		usage("host-empty-entry", `--host "pi.local,,pi": entry 2 of 3 is empty; expected names separated by single commas, such as pi.local,pi`, "serve", "--addr", "127.0.0.1:0", "--host", "pi.local,,pi"),
		usage("host-empty", `--host "": entry 1 of 1 is empty`, "serve", "--addr", "127.0.0.1:0", "--host", ""),
		// A request's Host is compared without its port: an entry with a
		// port or a scheme would match none, and refuse every request.
		usage("host-port", `--host "pi.local:8080": "pi.local:8080" is not a host name; expected a bare name such as pi.local, without a scheme, port or path`, "serve", "--addr", "127.0.0.1:0", "--host", "pi.local:8080"),
		usage("host-scheme", `--host "pi,http://pi.local": "http://pi.local" is not a host name`, "serve", "--addr", "127.0.0.1:0", "--host", "pi,http://pi.local"),
		usage("host-dots", `--host "..": ".." is not a host name`, "serve", "--addr", "127.0.0.1:0", "--host", ".."),
		usage("trials-bad-commas", `"1,00" is not a number of trials`, "run", "--trials", "1,00"),
		{name: "flags/report-upper-case", args: []string{"run", "flee-pursuit", "--trials", "1000", "-o", "/dev/null", "--report", "{dir}/r.HTML"},
			check: func(t *testing.T, dir, _ string) {
				if page, _ := os.ReadFile(filepath.Join(dir, "r.HTML")); !bytes.HasPrefix(page, []byte("<!DOCTYPE html>")) {
					t.Error("--report r.HTML did not write an HTML report")
				}
			}},
		{name: "flags/one-line-and-hint", args: []string{"run", "--bogus"}, code: exitUsage,
			msg: "simulate: run: flag provided but not defined: -bogus\nRun 'simulate run -h' for its flags.\n",
			check: func(t *testing.T, _, stdout string) {
				if stdout != "" {
					t.Errorf("a flag error printed the usage on stdout:\n%s", excerptOf(stdout))
				}
			}},
		{name: "flags/bad-value-one-line", args: []string{"dice", "2D6", "--trials", "many"}, code: exitUsage,
			msg: "simulate: dice: invalid value \"many\" for flag -trials: \"many\" is not a number of trials; write it as 1000000, 1_000_000, 1,000,000 or 1e6\nRun 'simulate dice -h' for its flags.\n"},
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

// scenarioWith is tinyScenario with its unit's mapping replaced.
func scenarioWith(unit string) string {
	return strings.Replace(tinyScenario, "{name: A, M: 5}", unit, 1)
}

// battleWith is a battle scenario whose attackers have the given A.
func battleWith(attacks string) string {
	return `name: battle
ruleset: fantasy
trials: 2000
battle:
  attacker: {name: Swordsmen, models: 20, width: 5, M: 4, WS: 4, S: 3, T: 3, I: 4, A: ` + attacks + `, Ld: 7, armour: 5+}
  target: {name: Clanrats, models: 30, width: 6, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5, armour: 5+}
  distance: 0
  phases: [combat]
`
}

func inputCases() []hostile {
	fail := func(name, file, content, msg string) hostile {
		return hostile{name: "input/" + name, args: []string{"run", "{dir}/" + file}, files: map[string]string{file: content},
			code: exitError, msg: msg, within: time.Second, alloc: 32 << 20}
	}
	// 200 KB of nested lists, 100,000 deep.
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	// A sequence nested at every dash of one line.
	dashes := strings.Repeat("- ", 100_000) + "x\n"
	many := "name: x\nruleset: fantasy\nv: [" + strings.Repeat("1, ", 30_000) + "1]\n"
	// Each alias repeats the one before nine times: 9^6 values from a few
	// hundred bytes.
	laughs := "a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i <= 6; i++ {
		laughs += fmt.Sprintf("a%d: &a%d [", i, i) + strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 9), ", ") + "]\n"
	}
	var csv strings.Builder
	for i := 0; csv.Len() < 900_000; i++ {
		fmt.Fprintf(&csv, "%d,0.%06d,0.%06d,0.%06d,0.%06d,0.%06d\n", i, i*7%999_983, i*11%999_983, i*13%999_983, i*17%999_983, i*19%999_983)
	}
	bom := "\xEF\xBB\xBF" + tinyScenario
	return []hostile{
		fail("file-too-large", "big.yaml", tinyScenario+strings.Repeat("# padding\n", 110_000), "larger than 1048576 bytes"),
		{name: "input/dev-zero", args: []string{"run", "/dev/zero"}, code: exitError, msg: "/dev/zero:1:1: the file is larger than 1048576 bytes", within: 2 * time.Second, alloc: 32 << 20},
		{name: "input/dev-urandom", args: []string{"run", "/dev/urandom"}, code: exitError, msg: "/dev/urandom:1:1: the file is larger than 1048576 bytes", within: 2 * time.Second, alloc: 32 << 20},
		fail("nested-lists", "deep.yaml", deep, "deep.yaml:1:64: nested more than 64 levels deep"),
		fail("nested-dashes", "dashes.yaml", dashes, "dashes.yaml:1:1: nested more than 64 levels deep"),
		fail("too-many-values", "many.yaml", many, "more than 20000 values in one file"),
		fail("alias-bomb", "laughs.yaml", laughs, "aliases counted at each use"),
		{name: "input/csv-excerpt", args: []string{"run", "{dir}/data.csv"}, files: map[string]string{"data.csv": csv.String()},
			code: exitError, msg: `data.csv:1:1: expected the scenario as a mapping of keys, found "0,0.000000`, within: 3 * time.Second,
			short: true},
		{name: "input/byte-order-mark", args: []string{"run", "{dir}/bom.yaml"}, files: map[string]string{"bom.yaml": bom}, out: "tiny"},
		{name: "input/dice-non-ascii", args: []string{"dice", "2D6 × 2"}, code: exitError, msg: `unexpected character '×'`},
		fail("scenario-dice-non-ascii", "a.yaml", battleWith("2D6×"), `unexpected character '×'`),
		fail("range-overflow", "r.yaml", strings.Replace(tinyScenario, "distance: 8", "distance: 9223372036854775806..9223372036854775807", 1), "distance 9223372036854775806 is out of range; expected 1 to 100 (as is 1 more value of 9223372036854775806..9223372036854775807)"),
		fail("range-span-overflow", "r.yaml", strings.Replace(tinyScenario, "distance: 8", "distance: -9223372036854775808..9223372036854775807", 1), "at most 10000 values"),
		fail("sweep-too-large", "s.yaml", strings.Replace(scenarioWith("{name: A, M: 1..20, rules: [{Random Movement: [D6, 2D6, 3D6, 4D6, 5D6, 6D6, 7D6, 8D6, 9D6, 10D6]}, {Fly: 1..30}]}"), "distance: 8", "distance: 1..100", 1), "the sweeps make 600,000 points (M 20 × random_movement 10 × fly 30 × distance 100); at most 100,000"),
		fail("empty-scenario-name", "e.yaml", strings.Replace(tinyScenario, "name: tiny", `name: ""`, 1), "e.yaml:1:7: the scenario's name is empty"),
		fail("empty-unit-name", "e.yaml", scenarioWith(`{name: " ", M: 5}`), "e.yaml:5:16: the unit's name is empty"),
		// A unit catalogue is read a byte past its 1 MiB and no further,
		// whatever its size says: a FIFO (or /dev/zero, which has no end)
		// of 48 MiB is refused having read little of it.
		{name: "input/units-fifo", args: []string{"units", "--units", "{dir}/units.yaml"},
			setup: func(t *testing.T, dir string) { writeFIFO(t, filepath.Join(dir, "units.yaml"), 48<<20) },
			code:  exitError, msg: "unit catalogue {dir}/units.yaml is larger than 1048576 bytes (1 MiB), the most a catalogue may be",
			within: 2 * time.Second, alloc: 32 << 20},
		{name: "input/scenario-units-fifo", args: []string{"run", "{dir}/s.yaml"},
			files: map[string]string{"s.yaml": strings.Replace(tinyScenario, "unit: {name: A, M: 5}", "unit: {use: Charger}", 1) + "units: cards.yaml\n"},
			setup: func(t *testing.T, dir string) { writeFIFO(t, filepath.Join(dir, "cards.yaml"), 48<<20) },
			code:  exitError, msg: "s.yaml:7:8: unit catalogue", within: 2 * time.Second, alloc: 32 << 20},
		// Past 20 problems the rest are counted in a last line: 9,000
		// unknown keys (18,000 values, within the 20,000 a file may hold;
		// bogus0 on line 3, so bogus19 on line 22) print 21 lines. (The
		// YAML library allocates some 360 MB over reading the file, so
		// the case bounds its time only.)
		{name: "input/nine-thousand-problems", args: []string{"run", "{dir}/k.yaml"},
			files: map[string]string{"k.yaml": "name: x\nruleset: fantasy\n" + manyKeys(9_000) + "charge: {unit: {name: A, M: 5}, distance: 8}\n"},
			code:  exitError,
			msg:   "k.yaml:22:1: unknown key \"bogus19\" in the scenario; expected one of: name, description, ruleset, units, trials, precision, max_trials, seed, battle, charge, pursuit\n... and 8980 more problems\n"},
		// A units list that names one 900 KB catalogue 3,000 times is
		// refused at its second entry, line 7, column 9 + 10, having read
		// nothing; 20 lines are printed, and a count of the other 2,979.
		{name: "input/units-named-3000-times", args: []string{"run", "{dir}/s.yaml"},
			files: map[string]string{
				"s.yaml":   strings.Replace(tinyScenario, "unit: {name: A, M: 5}", "unit: {use: Charger}", 1) + "units: [" + strings.Repeat("big.yaml, ", 2999) + "big.yaml]\n",
				"big.yaml": "ruleset: fantasy\ndescription: " + strings.Repeat("x", 900_000) + "\nunits: [{name: Big, M: 5}]\n",
			},
			// The 20th line is of the 21st entry, at column 9 + 20 x 10.
			code: exitError, msg: `s.yaml:7:209: "big.yaml" is named twice, here and at line 7, column 9; name each unit catalogue once` + "\n... and 2979 more problems\n"},
		// The catalogues one scenario reads are bounded in number and in
		// bytes, however many folders or files its units key names.
		{name: "input/units-too-many-files", args: []string{"run", "{dir}/s.yaml"},
			files: map[string]string{"s.yaml": strings.Replace(tinyScenario, "unit: {name: A, M: 5}", "unit: {use: Charger}", 1) + "units: cards\n"},
			setup: func(t *testing.T, dir string) {
				os.Mkdir(filepath.Join(dir, "cards"), 0o755)
				for i := range 5000 {
					os.WriteFile(filepath.Join(dir, "cards", fmt.Sprintf("c%04d.yaml", i)), fmt.Appendf(nil, "ruleset: fantasy\nunits: [{name: C%d, M: 5}]\n", i), 0o644)
				}
			},
			code: exitError, msg: "s.yaml:7:8: unit catalogue {dir}/cards/c1000.yaml is one more than the 1000 catalogue files one scenario, or one simulate units, may read; name fewer",
			within: 3 * time.Second},
		{name: "input/units-too-many-bytes", args: []string{"units", "--units", "{dir}/cards"},
			setup: func(t *testing.T, dir string) {
				os.Mkdir(filepath.Join(dir, "cards"), 0o755)
				for i := range 40 {
					os.WriteFile(filepath.Join(dir, "cards", fmt.Sprintf("c%02d.yaml", i)), fmt.Appendf(nil, "ruleset: fantasy\ndescription: %s\nunits: [{name: C%d, M: 5}]\n", strings.Repeat("x", 1_000_000), i), 0o644)
				}
			},
			// Four files of a million bytes and a little come to just over
			// 4,000,000 bytes, within 4 MiB (4,194,304); the fifth passes it.
			code: exitError, msg: "unit catalogue {dir}/cards/c04.yaml brings the catalogues read to more than 4194304 bytes (4 MiB)"},
		// Names and descriptions go to terminals and tables: an escape
		// would be obeyed by the terminal (here: clear the screen), a
		// newline would cut a table's row.
		// A folder given as the scenario is named as one.
		{name: "input/folder-as-scenario", args: []string{"run", "{dir}"}, code: exitError,
			msg: "{dir} is a folder; expected a scenario file (YAML) or a built-in scenario's name"},
		// A file name is the user's: an escape in it is printed escaped.
		{name: "input/escape-in-file-name", args: []string{"run", "{dir}/bad\x1b[31m.yaml"},
			files: map[string]string{"bad\x1b[31m.yaml": "name: x\nruleset: fantasy\ncharge: {bogus: 1}\n"},
			code:  exitError, msg: `bad\x1b[31m.yaml:3:10: unknown key "bogus"`},
		fail("escape-in-name", "x.yaml", scenarioWith(`{name: "A\e[2J", M: 5}`), `x.yaml:5:16: the unit's name "A\x1b[2J" holds the control character U+001B`),
		fail("newline-in-name", "x.yaml", scenarioWith(`{name: "A\nB", M: 5}`), `x.yaml:5:16: the unit's name "A\nB" holds the control character U+000A`),
		fail("escape-in-description", "x.yaml", strings.Replace(tinyScenario, "ruleset:", "description: \"\\e]0;title\\a\"\nruleset:", 1),
			`x.yaml:2:14: the description "\x1b]0;title\a" holds the control character U+001B`),
		// A bidirectional override would reorder what a terminal shows; a
		// line separator would cut a row. A direction mark alone, ordinary
		// in right-to-left names, is allowed.
		fail("override-in-name", "x.yaml", scenarioWith(`{name: "A\u202Eb", M: 5}`),
			`x.yaml:5:16: the unit's name "A\u202eb" holds the bidirectional control U+202E, which reorders the text around it`),
		fail("line-separator-in-name", "x.yaml", scenarioWith(`{name: "A\u2028B", M: 5}`),
			`x.yaml:5:16: the unit's name "A\u2028B" holds the control character U+2028`),
		{name: "input/direction-mark-in-name", args: []string{"run", "{dir}/x.yaml", "--format", "json"},
			files: map[string]string{"x.yaml": scenarioWith("{name: \"\u05d0\u05d1\u200f\", M: 5}")}, out: `"scenario": "tiny"`},
		// A quoted description folded over Windows line ends reads as over
		// Unix ones: one line.
		{name: "input/crlf-quoted-description", args: []string{"run", "{dir}/x.yaml"},
			files: map[string]string{"x.yaml": strings.ReplaceAll(strings.Replace(tinyScenario, "ruleset:", "description: \"one\n  two\"\nruleset:", 1), "\n", "\r\n")},
			out:   "tiny: one two"},
		// A scenario's trials take what --trials takes, 1 to 10^12.
		fail("scenario-trials-past-limit", "t.yaml", strings.Replace(tinyScenario, "trials: 2000", "trials: 1000000000001", 1),
			"t.yaml:3:9: trials 1000000000001 is out of range; expected 1 to 1000000000000"),
	}
}

// manyKeys is n unknown keys, bogus0 to bogus(n-1), a line each.
func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "bogus%d: 1\n", i)
	}
	return b.String()
}

func exactCases() []hostile {
	return []hostile{
		{name: "exact/dice-over-budget", args: []string{"dice", "32D1000kh31", "--trials", "20000"},
			out: "no exact distribution: it would take about 1.7e+10 steps, over the budget of 1e+08; simulated only", within: 5 * time.Second},
		{name: "exact/condition-over-budget", args: []string{"dice", "100D1000 > 100D1000 and 32D1000kh31 >= 900", "--trials", "20000"},
			out: "no exact answer: it would take more than 1e+08 steps; simulated only", within: 5 * time.Second},
		{name: "exact/condition-over-budget-plot", args: []string{"dice", "100D1000 > 100D1000", "--plot", "{dir}/p"},
			code: exitError, msg: "has no exact answer to plot", within: 5 * time.Second},
		{name: "exact/dice-over-budget-ctrl-c", args: []string{"dice", "32D1000kh31", "--trials", "1000000000000", "--workers", "2"},
			cancel: 300 * time.Millisecond, code: exitInterrupted, out: "PARTIAL", within: 3 * time.Second},
		// 100D140 is just within the budget: its exact distribution takes
		// from a few hundredths to a few tenths of a second, depending on
		// the machine, so a timed Ctrl-C could come before or after it.
		// The interruption is made certain (it has come by the time the
		// answer is ready) and must still end in the interrupted status
		// with nothing written; TestDistContextStops in mechanics/dice
		// checks that the computation itself stops. The whole computation
		// takes under a second, so the default bound on processor time is
		// kept: a tighter one would test the machine, not the command.
		{name: "exact/dice-cancelled-exact", args: []string{"dice", "100D140"}, cancel: time.Nanosecond,
			code: exitInterrupted, msg: "interrupted before any result was ready; nothing was written"},
		{name: "exact/scenario-attacks", args: []string{"run", "{dir}/b.yaml"}, files: map[string]string{"b.yaml": battleWith("16D1000kh8")},
			code: exitError, msg: "expected 0 to 100 attacks", within: time.Second},
		{name: "exact/rule-dice-over-budget", args: []string{"run", "{dir}/m.yaml"},
			files: map[string]string{"m.yaml": scenarioWith("{name: A, rules: [Random Movement (32D1000kh31)]}")},
			code:  exitError, msg: "too many dice or sides to compute its exact distribution", within: time.Second},
		// Fifty different dice each just within the budget: together they
		// would take five seconds and more before any trial, out of reach
		// of a Ctrl-C. The file's dice share one budget.
		{name: "exact/rule-dice-swept-over-budget", args: []string{"run", "{dir}/m.yaml"},
			files: map[string]string{"m.yaml": scenarioWith("{name: A, rules: [{Random Movement: [" + sweptHeavyDice(50) + "]}]}")},
			code:  exitError, msg: "the exact distributions of the dice of this scenario (its catalogue cards included) would take about", within: time.Second},
		// A profile's Random Attacks are at most 100 each, a few million
		// steps of exact work at most (32D100kl1: 100 × (100 + 1) × 33 ×
		// 34 / 2 = 5.7 × 10^6), but a sweep of hundreds of them shares the
		// budget too.
		{name: "exact/attack-dice-swept-over-budget", args: []string{"run", "{dir}/b.yaml"},
			files: map[string]string{"b.yaml": battleWith("[" + sweptKeepDice(400) + "]")},
			code:  exitError, msg: "the exact distributions of the dice of this scenario", within: time.Second},
		// A rule listed again and again: each later entry is reported
		// once, where every pair was compared and reported (8,000
		// entries: over 20 s).
		{name: "input/rule-listed-8000-times", args: []string{"run", "{dir}/r.yaml"},
			files: map[string]string{"r.yaml": scenarioWith("{name: A, M: 5, rules: [&a Swiftstride" + strings.Repeat(", *a", 8000) + "]}")},
			code:  exitError, msg: "Swiftstride is listed twice", within: time.Second},
		// A long misspelt rule name repeated by aliases: its text counts
		// at each use (a megabyte 2,000 times: over ten minutes of
		// looking for the nearest name).
		{name: "input/long-rule-name-by-alias", args: []string{"run", "{dir}/r.yaml"},
			files: map[string]string{"r.yaml": scenarioWith("{name: A, M: 5, rules: [&a " + strings.Repeat("swiftstrid", 60_000) + strings.Repeat(", *a", 2000) + "]}")},
			code:  exitError, msg: "more than 4194304 bytes of text in one file's values, aliases counted at each use", within: time.Second},
		// A Heresy option's dice have the same budget as a rule's.
		{name: "exact/option-dice-over-budget", args: []string{"run", "{dir}/a.yaml"},
			files: map[string]string{"a.yaml": heresyHorde("assault", "attacker", "defender", "weapons: [{name: blade, range: Melee, S: User, AP: -}]") + "  options: {charge_dice: 100D1000}\n"},
			code:  exitError, msg: "charge_dice 100D1000 has too many dice or sides to compute its exact distribution", within: time.Second},
		// A hundred models firing a hundred shots each: 10,000 hits, whose
		// exact distributions would take half a minute. Past the work
		// budget the point has estimates alone.
		{name: "exact/heresy-shooting-over-budget", args: []string{"run", "{dir}/s.yaml", "--trials", "200"},
			files: map[string]string{"s.yaml": heresyHorde("shooting", "firer", "target", "weapons: [{name: gun, range: 24, S: 4, AP: 5, shots: 100}]")},
			out:   "none | - |", within: 3 * time.Second},
		// A hundred models of A 10 on each side, the defenders of W 10, at
		// three Leadership values: the exact combats would take five
		// seconds.
		{name: "exact/heresy-assault-over-budget", args: []string{"run", "{dir}/a.yaml", "--trials", "200"},
			files: map[string]string{"a.yaml": heresyHorde("assault", "attacker", "defender", "melee: {name: blade, S: User, AP: \"-\"}")},
			out:   "none | - |", within: 2 * time.Second},
	}
}

// heresyHorde is a Horus Heresy question between two units of a hundred
// models of A 10, the first with gear, the second of W 10, Bulky (4) and a
// Leadership swept over three values.
// sweptHeavyDice is n different dice of 14 dice each, each just within
// dice.MaxExactWork (14D999: 999² × 14² / 2 = 9.8 × 10^7 steps).
func sweptHeavyDice(n int) string {
	var vals []string
	for i := range n {
		vals = append(vals, fmt.Sprintf("14D%d", 999-i))
	}
	return strings.Join(vals, ", ")
}

// sweptKeepDice is n different dice keeping the lowest of 32 or fewer
// dice of 100 to 71 sides (32D100kl1, 32D99kl1, ...).
func sweptKeepDice(n int) string {
	var vals []string
	for i := range n {
		vals = append(vals, fmt.Sprintf("%dD%dkl1", 32-i/30, 100-i%30))
	}
	return strings.Join(vals, ", ")
}

func heresyHorde(question, first, second, gear string) string {
	return fmt.Sprintf("name: horde\nruleset: heresy\n%s:\n"+
		"  %s: {name: First, models: 100, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 10, Ld: 8, Sv: 3+, %s}\n"+
		"  %s: {name: Second, models: 100, WS: 4, BS: 4, S: 4, T: 4, W: 10, I: 4, A: 10, Ld: [7, 8, 9], Sv: 3+, rules: [Bulky (4)]}\n",
		question, first, gear, second)
}

func interruptCases() []hostile {
	// An interrupted comparison keeps the chunks every candidate completed:
	// cheap candidates (a dice roll per trial) complete some in time even
	// under the race detector. A case interrupted mid-run runs two workers,
	// flat out until the signal: at the default, one a core, the processor
	// time it takes (within) would grow with the machine's cores.
	compare := []string{"compare", "random-movement", "--by", "random_movement", "--trials", "1000000000000", "--workers", "2"}
	partial := func(format, want string) hostile {
		return hostile{name: "interrupt/compare-" + format, args: append(compare, "--format", format),
			cancel: 500 * time.Millisecond, code: exitInterrupted, msg: "interrupted", out: want, within: 3 * time.Second}
	}
	return []hostile{
		partial("table", "PARTIAL RESULTS: the comparison was interrupted"),
		partial("json", `"partial": true`),
		partial("csv", "random-movement,1,true,"),
		partial("markdown", "**PARTIAL RESULTS: the comparison was interrupted"),
		{name: "interrupt/compare-reproduces", args: append(compare, "--format", "json"),
			cancel: 500 * time.Millisecond, code: exitInterrupted, out: `"partial": true`, within: 3 * time.Second,
			check: func(t *testing.T, _, stdout string) {
				// Cut to the chunks every candidate completed: the
				// reproduce line's trial count gives the same rows.
				var doc struct {
					Stamp struct {
						Command string `json:"command"`
					} `json:"stamp"`
					Rows json.RawMessage `json:"rows"`
				}
				if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
					t.Fatal(err)
				}
				args := strings.Fields(doc.Stamp.Command)
				if len(args) < 2 || slices.Contains(args, "1000000000000") {
					t.Fatalf("reproduce line %q", doc.Stamp.Command)
				}
				again, _, err := runCLI(t, append(args[1:], "--format", "json")...)
				var redo struct {
					Rows json.RawMessage `json:"rows"`
				}
				if err != nil || json.Unmarshal([]byte(again), &redo) != nil || !bytes.Equal(redo.Rows, doc.Rows) {
					t.Errorf("%s: %v; rows differ from the interrupted comparison's", doc.Stamp.Command, err)
				}
			}},
		{name: "interrupt/compare-html", args: append(compare, "--report", "{dir}/c.html", "-o", "/dev/null"),
			cancel: 500 * time.Millisecond, code: exitInterrupted, within: 3 * time.Second,
			check: func(t *testing.T, dir, _ string) {
				if page, _ := os.ReadFile(filepath.Join(dir, "c.html")); !bytes.Contains(page, []byte("PARTIAL RESULTS")) {
					t.Error("the HTML report of an interrupted comparison is not marked partial")
				}
			}},
		// Two files run together, chunk by chunk: an interrupted comparison
		// of them is cut to the chunks both completed, and written.
		// (charge_success rests on every trial; some metrics count only the
		// trials they apply to.)
		{name: "interrupt/compare-files", args: []string{"compare", "random-movement", "{dir}/rm.yaml", "--trials", "1000000000000", "--format", "json", "--workers", "2"},
			setup: func(t *testing.T, dir string) {
				base, err := registry.Load("random-movement")
				if err != nil {
					t.Fatal(err)
				}
				// The same question under another name: candidates must share
				// their points, and the trials are what is checked here.
				src := strings.Replace(string(base.Source), "name: random-movement", "name: copy", 1)
				if err := os.WriteFile(filepath.Join(dir, "rm.yaml"), []byte(src), 0o666); err != nil {
					t.Fatal(err)
				}
			},
			cancel: 500 * time.Millisecond, code: exitInterrupted, msg: "interrupted: the results written are partial", out: `"partial": true`, within: 3 * time.Second,
			check: func(t *testing.T, _, stdout string) {
				var doc struct {
					Trials int64 `json:"trials"`
					Rows   []struct {
						Estimates []struct {
							Trials int64 `json:"trials"`
						} `json:"estimates"`
					} `json:"rows"`
				}
				if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
					t.Fatal(err)
				}
				for _, r := range doc.Rows {
					for _, e := range r.Estimates {
						if e.Trials != doc.Trials || doc.Trials%sim.ChunkSize != 0 {
							t.Fatalf("an estimate rests on %d trials, the comparison on %d", e.Trials, doc.Trials)
						}
					}
				}
			}},
		{name: "interrupt/compare-nothing-done", args: []string{"compare", "random-movement", "random-movement", "--trials", "1000000000000"},
			// Stopped as the scenarios are read, or before the first chunk
			// of trials: either way nothing is written.
			cancel: time.Nanosecond, code: exitInterrupted, msg: "nothing was written", within: 3 * time.Second,
			check: func(t *testing.T, _, stdout string) {
				if stdout != "" {
					t.Errorf("a comparison with nothing to compare wrote:\n%s", stdout)
				}
			}},
		{name: "interrupt/precision-stamp", args: []string{"run", "flee-pursuit", "--precision", "0.00001", "--format", "json", "--workers", "2"},
			cancel: 700 * time.Millisecond, code: exitInterrupted, out: `"partial": true`, within: 3 * time.Second,
			check: func(t *testing.T, _, stdout string) {
				var doc struct {
					Trials int64 `json:"trials"`
					Stamp  struct {
						Trials int64 `json:"trials"`
					} `json:"stamp"`
					Results []struct {
						Trials int64 `json:"trials"`
					} `json:"results"`
				}
				if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
					t.Fatal(err)
				}
				most := int64(0)
				for _, r := range doc.Results {
					most = max(most, r.Trials)
				}
				// The stamp says what ran: the most trials any point
				// reached, not the first round's 65,536.
				if doc.Trials != most || doc.Stamp.Trials != most {
					t.Errorf("trials %d, stamp %d; the points reached at most %d", doc.Trials, doc.Stamp.Trials, most)
				}
			}},
		{name: "interrupt/precision-table", args: []string{"run", "flee-pursuit", "--precision", "0.00001", "--workers", "2"},
			cancel: 700 * time.Millisecond, code: exitInterrupted, out: "the run was interrupted before its precision target was met", within: 3 * time.Second,
			check: func(t *testing.T, _, stdout string) {
				// It stopped on the interruption, not at its cap.
				text := strings.Join(strings.Fields(stdout), " ") // unwrapped
				if !strings.Contains(text, "NOT MET. The run was interrupted after") || strings.Contains(text, "cap of") {
					t.Errorf("the precision line of an interrupted run:\n%s", stdout)
				}
				// Its header's count is the most any point reached: the
				// run asked for none.
				if !strings.Contains(text, " trials per point at most, hammersim ") || strings.Contains(text, "asked for") {
					t.Errorf("the header of an interrupted precision run:\n%s", stdout)
				}
			}},
		{name: "interrupt/dice-json", args: []string{"dice", "2D6 >= 9", "--trials", "1000000000000", "--format", "json", "--workers", "2"},
			cancel: 500 * time.Millisecond, code: exitInterrupted, out: `"partial": true`, within: 3 * time.Second,
			check: func(t *testing.T, _, stdout string) {
				// The query stays what was asked; partial has its field.
				if !strings.HasPrefix(stdout, `{"query": "2D6 >= 9", "kind"`) {
					t.Errorf("the query of an interrupted dice run:\n%s", stdout)
				}
			}},
		// Its first round of chunks takes a few tenths of a second alone;
		// the interruption comes late enough for it under a busy machine's
		// load. Two workers busy until the interruption use 3 s of
		// processor time; the bound, 5 s, leaves room for reading the
		// scenario and writing the partial result.
		{name: "interrupt/run-reproduces", args: []string{"run", "doomwheel-vs-clanrats", "--trials", "1000000000000", "--format", "json", "--workers", "2"},
			cancel: 1500 * time.Millisecond, code: exitInterrupted, out: `"partial": true`, within: 5 * time.Second,
			check: func(t *testing.T, _, stdout string) {
				// An interruption keeps whole rounds of chunks: the
				// reproduce line's trial count gives the same results.
				// "trials" says that count too, as a comparison's does;
				// the stamp keeps the count asked for.
				var doc struct {
					Trials int64 `json:"trials"`
					Stamp  struct {
						Trials  int64  `json:"trials"`
						Command string `json:"command"`
					} `json:"stamp"`
					Results json.RawMessage `json:"results"`
				}
				if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
					t.Fatal(err)
				}
				args := strings.Fields(doc.Stamp.Command)
				if len(args) != 7 || args[5] != "--trials" || args[6] == "1000000000000" {
					t.Fatalf("reproduce line %q", doc.Stamp.Command)
				}
				if args[6] != fmt.Sprint(doc.Trials) || doc.Stamp.Trials != 1_000_000_000_000 {
					t.Errorf("trials %d, stamp's %d, reproduce line %q", doc.Trials, doc.Stamp.Trials, doc.Stamp.Command)
				}
				again, _, err := runCLI(t, append(args[1:], "--format", "json")...)
				var redo struct {
					Results json.RawMessage `json:"results"`
				}
				if err != nil || json.Unmarshal([]byte(again), &redo) != nil || !bytes.Equal(redo.Results, doc.Results) {
					t.Errorf("%s: %v; results differ from the interrupted run's", doc.Stamp.Command, err)
				}
			}},
		{name: "interrupt/finished-run-is-not", args: []string{"run", "flee-pursuit", "--trials", "20000"},
			check: func(t *testing.T, _, stdout string) {
				if strings.Contains(stdout, "PARTIAL") || strings.Contains(stdout, "interrupted") {
					t.Error("a run that finished says it was interrupted")
				}
			}},
	}
}

// noDashFile checks that no file named "-" was written in the working
// directory, and removes one that was.
func noDashFile(t *testing.T) {
	t.Helper()
	if _, err := os.Lstat("-"); err == nil {
		os.Remove("-")
		t.Error(`-o - wrote a file named "-" instead of standard output`)
	}
}

// TestOutputNotTheStdinFile: a scenario read from standard input that
// redirects a file is an input like any other: -o naming that file, by
// its path or through a link, is refused before the run and leaves it
// whole, for run and compare alike.
func TestOutputNotTheStdinFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "in.yaml")
	if err := os.WriteFile(path, []byte(tinyScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	old := stdin
	defer func() { stdin = old }()
	for _, args := range [][]string{
		{"run", "-", "-o", path},
		{"run", "-", "-o", link},
		{"compare", "-", "{dir}/b.yaml", "--trials", "960", "-o", path},
	} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		stdin = f
		b := filepath.Join(dir, "b.yaml")
		if err := os.WriteFile(b, []byte(strings.Replace(tinyScenario, "tiny", "tiny-b", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		for i, a := range args {
			args[i] = strings.ReplaceAll(a, "{dir}", dir)
		}
		_, _, err = runCLI(t, args...)
		f.Close()
		var msg bytes.Buffer
		if code := exitCode(err, &msg); code != exitError || !strings.Contains(msg.String(), "is the file standard input reads") {
			t.Errorf("simulate %s: exit %d, %s", strings.Join(args, " "), code, msg.String())
		}
		fileIs(t, path, tinyScenario)
	}
}
