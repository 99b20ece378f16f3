package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"hammersim/reports"
	"hammersim/scenarios"
	"hammersim/sim"
)

// TestRunCancelledBeforeAnyTrial: a run cancelled before any point has
// completed a chunk of trials has no numbers to show: it writes nothing,
// not even the -o file, and says so with the interrupted status.
func TestRunCancelledBeforeAnyTrial(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(t.TempDir(), "r.json")
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"run", "doomwheel-vs-clanrats", "--trials", "1e9", "-o", out}, &stdout, &stderr)
	if !errors.Is(err, errCancelled) || stdout.Len() != 0 {
		t.Errorf("err %v, stdout %q; want errCancelled and nothing", err, stdout.String())
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Errorf("-o %s was written: %v", out, statErr)
	}
}

// signalAfterRun is a context whose signal comes once the trials are done:
// its Done channel never closes, so every trial runs, but Err, which the
// writing of the outputs consults, says it was cancelled.
type signalAfterRun struct{ context.Context }

func (signalAfterRun) Done() <-chan struct{} { return nil }
func (signalAfterRun) Err() error            { return context.Canceled }

// TestSignalWhileWriting: a signal that comes after the trials, while the
// outputs of a finished run are written (plots take long), stops the
// writing: no output is written, nothing is left behind, and the status is
// the interrupted one. The results of an interrupted run, partial, are
// written whatever the signal (TestHostileInput's interrupt cases).
func TestSignalWhileWriting(t *testing.T) {
	s, err := registry.Load("swiftstride-charge")
	if err != nil {
		t.Fatal(err)
	}
	report, err := runJob{name: s.Name, s: s, cfg: sim.Config{Trials: 2000, Seed: 1}}.run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f := runFlags{format: "json", output: filepath.Join(dir, "r.json"), plotDir: filepath.Join(dir, "plots")}
	var stdout, stderr bytes.Buffer
	err = writeRunOutputs(signalAfterRun{context.Background()}, &stdout, &stderr, f, &report, s.Source)
	if !errors.Is(err, reports.ErrStopped) || exitCode(err, io.Discard) != exitInterrupted || stdout.Len() != 0 {
		t.Fatalf("err %v, stdout %q; want the outputs stopped, status %d", err, stdout.String(), exitInterrupted)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("the stopped outputs left %d entries behind, the first %s", len(entries), entries[0].Name())
	}
}

// TestSignalWhileGathering: a signal after a finished run's last trial
// stops the gathering of its results into a report (seconds for a large
// sweep), for run and compare alike: nothing is written, with the
// interrupted status. A run whose signal cut it short gathers its
// partial results all the same (a precision run's rounds here). A
// server's run context, which also ends at the server's time limit and as
// it stops, leaves the gathering of trials all run alone: they are
// answered whole.
func TestSignalWhileGathering(t *testing.T) {
	s, err := registry.Load("doomwheel-balance")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.Config{Trials: 2000, Seed: 3, Workers: 2}
	// The engine's last progress report comes once every trial is done.
	atTheEnd := func(cancel func()) func(done, total int64) {
		return func(done, total int64) {
			if done == total {
				cancel()
			}
		}
	}
	t.Run("run", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		_, err := runJob{name: s.Name, s: s, cfg: cfg, signals: true}.run(ctx, atTheEnd(cancel))
		if !errors.Is(err, errGatheringStopped) || exitCode(err, io.Discard) != exitInterrupted {
			t.Errorf("err %v; want the gathering stopped, status %d", err, exitInterrupted)
		}
	})
	t.Run("compare", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		job := compareJob{ss: []*scenarios.Scenario{s}, args: []string{s.Name}, by: "attacker", cfg: cfg, signals: true}
		_, _, err := job.run(ctx, func(string) (func(done, total int64), func()) { return atTheEnd(cancel), func() {} })
		if !errors.Is(err, errCompareGatheringStopped) || exitCode(err, io.Discard) != exitInterrupted {
			t.Errorf("err %v; want the gathering stopped, status %d", err, exitInterrupted)
		}
	})
	t.Run("precision rounds", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		// 10^-6 is out of reach: the run would go on to max trials.
		job := runJob{name: s.Name, s: s, cfg: cfg, precision: 1e-6, maxTrials: 1e9, signals: true}
		report, err := job.run(ctx, atTheEnd(cancel))
		if err != nil || !report.Partial || len(report.Results) == 0 {
			t.Errorf("err %v, partial %v, %d results; want the rounds run so far gathered, marked partial", err, report.Partial, len(report.Results))
		}
	})
	t.Run("a server's run", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		report, err := runJob{name: s.Name, s: s, cfg: cfg}.run(ctx, atTheEnd(cancel))
		if err != nil || report.Partial || len(report.Results) == 0 {
			t.Errorf("err %v, partial %v, %d results; want the whole results", err, report.Partial, len(report.Results))
		}
		ctx, cancel = context.WithCancel(context.Background())
		defer cancel()
		job := compareJob{ss: []*scenarios.Scenario{s}, args: []string{s.Name}, by: "attacker", cfg: cfg}
		c, _, err := job.run(ctx, func(string) (func(done, total int64), func()) { return atTheEnd(cancel), func() {} })
		if err != nil || c.Partial || len(c.Rows) == 0 {
			t.Errorf("compare: err %v, partial %v, %d rows; want the whole comparison", err, c.Partial, len(c.Rows))
		}
	})
}

// TestSignalWhileReading: a signal while a large sweep is still being read
// (100,000 points: seconds) stops it within a second, writing nothing,

// stopBound is how soon after a signal the tests of this file ask a
// command to stop. The docs' second holds on an idle machine (these stop
// within a tenth of one there); CI runs other packages' tests beside them
// on two cores, where a reader starved for a moment has taken more than a
// second, and a stop that never comes, or comes at the end of a read or
// set-up of several seconds, still fails.
const stopBound = 3 * time.Second

// with the interrupted status.
func TestSignalWhileReading(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.yaml")
	src := battleSweep(100)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.json")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"run", path, "--trials", "1", "-o", out}, &stdout, &stderr)
	if !errors.Is(err, errCancelled) || !strings.Contains(err.Error(), "stopped while the scenario was read") || exitCode(err, io.Discard) != exitInterrupted {
		t.Errorf("err %v; want the reading stopped, status %d", err, exitInterrupted)
	}
	if took := time.Since(start) - 200*time.Millisecond; took > stopBound {
		t.Errorf("stopped %v after the signal; want within %v", took, stopBound)
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Errorf("-o %s was written: %v", out, statErr)
	}
}

// TestSignalWhileStdinWaits: a scenario read from standard input that a
// terminal or a pipe holds back is not waited for past a signal: run and
// compare stop with the interruption's status, at once, whatever the
// input does later.
func TestSignalWhileStdinWaits(t *testing.T) {
	old := stdin
	defer func() { stdin = old }()
	for _, args := range [][]string{{"run", "-"}, {"compare", "-", "flee-pursuit"}} {
		r, w := io.Pipe()
		stdin = r
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		err := run(ctx, args, io.Discard, io.Discard)
		if !errors.Is(err, errCancelled) || !strings.Contains(err.Error(), "still being read from standard input") || exitCode(err, io.Discard) != exitInterrupted {
			t.Errorf("%v: err %v; want the wait stopped, status %d", args, err, exitInterrupted)
		}
		if took := time.Since(start) - 100*time.Millisecond; took > stopBound {
			t.Errorf("%v: stopped %v after the signal; want within %v", args, took, stopBound)
		}
		w.Close()
	}
}

// TestNothingRunNamesItsChunk: a run stopped before its first results says
// how many trials those needed: a chunk of 16,384, or every trial asked
// for when they are fewer.
func TestNothingRunNamesItsChunk(t *testing.T) {
	for trials, want := range map[int64]string{1: "its first 1 trials", 1e9: "its first 16384 trials"} {
		if err := errNothingRun(trials); !errors.Is(err, errCancelled) || !strings.Contains(err.Error(), want) {
			t.Errorf("%d trials: %v; want %q", trials, err, want)
		}
		if err := errNothingCompared(trials); !strings.Contains(err.Error(), want) {
			t.Errorf("compare, %d trials: %v; want %q", trials, err, want)
		}
	}
}

// TestCompareStopsWhileSettingUp: a comparison of a large sweep's values
// works out its shape before any trial (every batch's results, split by
// the compared parameter: about half a minute for 10,000 points); a signal
// then, or while the sweep is read, stops it within a second.
func TestCompareStopsWhileSettingUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.yaml")
	src := battleSweep(10)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	const after = 1500 * time.Millisecond // the sweep read, most likely
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(after, cancel)
	start := time.Now()
	var stdout, stderr bytes.Buffer
	// Two metrics: 40,000 estimates, under the bound a comparison holds;
	// two workers keep its tallies under theirs on any machine.
	err := run(ctx, []string{"compare", path, "--by", "distance", "--metrics", "won,broke", "--trials", "1e8", "--format", "json", "--workers", "2"}, &stdout, &stderr)
	if !errors.Is(err, errCancelled) || stdout.Len() != 0 {
		t.Errorf("err %v, stdout %d bytes; want stopped before any trial, nothing written", err, stdout.Len())
	}
	if took := time.Since(start) - after; took > stopBound {
		t.Errorf("stopped %v after the signal (%v); want within %v", took, err, stopBound)
	}
}

// TestCompareTooLargeIsRefused: a comparison keeps the trials behind each
// of its estimates in each of its 32 batches as well as in all: one of
// more than 300,000 estimates is refused before any trial, with what to
// do, and the same comparison of fewer metrics runs. This battle sweeps
// 21,000 points of 15 estimates each: 315,000; won and broke alone,
// 42,000 (its units are of one model, so its tallies are small: 100
// counts a point, 2.1 GB on 1 worker). A
// comparison whose tallies would take more than 4.5 GB is refused too:
// battleSweep(10), 1,360,000 histogram counts, at a million trials (62
// chunks) takes 8 x 1,360,000 x (64 x 16 + 130) bytes, 12.6 GB, and a slot
// for every batch of its 10,000 models on each worker, 0.16 GB, on 16
// workers; 2.1 GB on 1 (compareMemory). A server's refusal does not
// suggest --workers, which its clients cannot give.
func TestCompareTooLargeIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.yaml")
	src := strings.ReplaceAll(battleSweep(21), "models: 10", "models: 1")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"compare", path, "--by", "distance", "--check", "--workers", "1"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "the comparison has 315,000 estimates") || !strings.Contains(err.Error(), "at most 300,000") {
		t.Errorf("got %v; want the comparison refused for its size", err)
	}
	if err := run(context.Background(), []string{"compare", path, "--by", "distance", "--metrics", "won,broke", "--check", "--workers", "1"}, &stdout, &stderr); err != nil {
		t.Errorf("won and broke alone: %v", err)
	}
	tallied := filepath.Join(dir, "tallied.yaml")
	if err := os.WriteFile(tallied, []byte(battleSweep(10)), 0o644); err != nil {
		t.Fatal(err)
	}
	err = run(context.Background(), []string{"compare", tallied, "--by", "distance", "--check", "--workers", "16"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "would hold about 12.7 GB of tallies (its candidates' 1,360,000 histogram counts") || !strings.Contains(err.Error(), "--workers") {
		t.Errorf("16 workers: got %v; want the comparison refused for its tallies", err)
	}
	// Workers beyond the chunks there are hold no tallies: 2,000 points at
	// 1,000 trials (one chunk each) on 1,024 workers take 8 x 272,000 x
	// (64 + 130) bytes, 0.4 GB, and the workers' slots 2.1 GB.
	small := filepath.Join(dir, "small.yaml")
	if err := os.WriteFile(small, []byte(battleSweep(2)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), []string{"compare", small, "--by", "distance", "--check", "--workers", "1024", "--trials", "1000"}, &stdout, &stderr); err != nil {
		t.Errorf("1,024 workers, one chunk a model: %v", err)
	}
	s, err := registry.Parse(tallied, []byte(battleSweep(10)))
	if err != nil {
		t.Fatal(err)
	}
	served := compareJob{ss: []*scenarios.Scenario{s}, args: []string{tallied}, by: "distance", cfg: sim.Config{Workers: 16, Trials: 1_000_000}}
	if err := served.checkTallies(served.config()); err == nil || strings.Contains(err.Error(), "--workers") {
		t.Errorf("a server's comparison: got %v; want it refused without a flag its clients cannot give", err)
	}
	if err := run(context.Background(), []string{"compare", tallied, "--by", "distance", "--check", "--workers", "1"}, &stdout, &stderr); err != nil {
		t.Errorf("1 worker: %v", err)
	}
}

// battleSweep is a Fantasy battle of 1,000 profiles (WS, S and T of the
// attacker, 1 to 10 each) at distances 1 to n: 1,000 n points, 15
// estimates each. At n = 100 it is the most a scenario may sweep.
func battleSweep(n int) string {
	return `name: big
ruleset: fantasy
battle:
  attacker: {name: A, models: 10, M: 5, WS: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], S: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], T: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], I: 3, A: 1, Ld: 7}
  target: {name: B, models: 10, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7}
  distance: 1..` + strconv.Itoa(n) + `
  phases: [charge, combat]
`
}

// TestScenarioPrecisionReproduced: a run whose scenario sets its own
// precision target, interrupted after its first round, reproduces with
// the trials it completed capped by --max-trials: without the cap the
// scenario's target would carry the run on in rounds past them.
func TestScenarioPrecisionReproduced(t *testing.T) {
	base, err := registry.Load("flank-charge")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(base.Source), "trials: 100000", "trials: 1000\nprecision: 0.0002\nmax_trials: 100000000", 1)
	if src == string(base.Source) {
		t.Fatal("flank-charge no longer has the trials line this test changes")
	}
	s, err := registry.Parse("fc.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := sim.Config{Trials: 1000, Seed: 1, Workers: 2}
	// The first round (a chunk, 16,384 trials) ends with every trial done:
	// the signal then stops the run before its second.
	job := runJob{name: "fc.yaml", s: s, cfg: cfg, precision: s.Precision, maxTrials: s.MaxTrials, signals: true}
	partial, err := job.run(ctx, func(done, total int64) {
		if done == total {
			cancel()
		}
	})
	if err != nil || !partial.Partial {
		t.Fatalf("err %v, partial %v; want the first round, marked partial", err, partial.Partial)
	}
	want := "simulate run fc.yaml --seed 1 --trials 16384 --max-trials 16384"
	if partial.Stamp.Command != want {
		t.Fatalf("reproduce line %q, want %q", partial.Stamp.Command, want)
	}
	again := runJob{name: "fc.yaml", s: s, cfg: sim.Config{Trials: 16384, Seed: 1, Workers: 2}, precision: s.Precision, maxTrials: 16384, signals: true}
	whole, err := again.run(context.Background(), nil)
	if err != nil || whole.Partial || len(whole.Results) != len(partial.Results) {
		t.Fatalf("the reproduce line's run: err %v, partial %v, %d results against %d", err, whole.Partial, len(whole.Results), len(partial.Results))
	}
	for i, e := range whole.Results {
		if p := partial.Results[i]; e.Value != p.Value || e.Trials != p.Trials {
			t.Errorf("%s %v: %v over %d trials, the interrupted run %v over %d", e.Metric, e.Params, e.Value, e.Trials, p.Value, p.Trials)
		}
	}
}
