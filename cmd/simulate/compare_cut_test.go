package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hammersim/reports"
	"hammersim/scenarios"
	"hammersim/sim"
)

// strongerCrew is doomwheel-vs-clanrats with the Doomwheel's crew at
// Strength 3 instead of 2, under another name: a candidate that differs.
func strongerCrew(t *testing.T) *scenarios.Scenario {
	t.Helper()
	base, err := registry.Load("doomwheel-vs-clanrats")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(base.Source), "WS: 3, S: 2, I: 4", "WS: 3, S: 3, I: 4", 1)
	src = strings.Replace(src, "name: doomwheel-vs-clanrats", "name: doomwheel-s3", 1)
	if src == string(base.Source) {
		t.Fatal("doomwheel-vs-clanrats no longer has the crew line this test changes")
	}
	s, err := registry.Parse("doomwheel-s3.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func loadAll(t *testing.T, metrics string, ss ...*scenarios.Scenario) []*scenarios.Scenario {
	t.Helper()
	for _, s := range ss {
		if err := (&runFlags{metrics: metrics}).selectMetrics(s); err != nil {
			t.Fatal(err)
		}
	}
	return ss
}

// TestInterruptedCompareIsPaired: an interrupted comparison, of two files
// or of one scenario's attackers, holds the same trials of every candidate
// (whole chunks), and is exactly the comparison a run of that many trials
// makes: its differences are over paired trials. A comparison stopped
// before every candidate completed a chunk writes nothing, and says so.
func TestInterruptedCompareIsPaired(t *testing.T) {
	base, err := registry.Load("doomwheel-vs-clanrats")
	if err != nil {
		t.Fatal(err)
	}
	balance, err := registry.Load("doomwheel-balance")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		ss      []*scenarios.Scenario
		by      string
		metrics string
	}{
		{"two files", loadAll(t, "won", base, strongerCrew(t)), "", "won"},
		{"by attacker", loadAll(t, "models_killed", balance), "attacker", "models_killed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var args []string
			for _, s := range tt.ss {
				args = append(args, s.Name)
			}
			// 10^9 trials take minutes: the run is cancelled at the first
			// progress report (every tenth of a second) that counts four
			// chunks' worth of trials per model beyond the two items in
			// progress (the progress counts their trials too, and a
			// stopped run leaves them unfinished). Items are taken in
			// order, so the first chunk of every model is then kept unless
			// one worker spent its whole time on one of them while the
			// other finished four rows, which no model here is slow enough
			// to make happen.
			const trials = 1e9
			job := compareJob{ss: tt.ss, args: args, by: tt.by, metrics: tt.metrics, cfg: sim.Config{Trials: trials, Seed: 3, Workers: 2}}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c, _, err := job.run(ctx, func(string) (func(done, total int64), func()) {
				return func(done, total int64) {
					if models := total / trials; done >= (4*models+2)*sim.ChunkSize {
						cancel()
					}
				}, func() {}
			})
			if err != nil {
				t.Fatal(err)
			}
			if !c.Partial || c.Trials <= 0 || c.Trials%sim.ChunkSize != 0 {
				t.Fatalf("partial %v, trials %d: want a partial comparison of whole chunks", c.Partial, c.Trials)
			}
			for _, row := range c.Rows {
				for i, e := range row.Estimates {
					if e.Trials != c.Trials {
						t.Fatalf("%s: %s rests on %d trials, the comparison on %d", row.Metric, c.Candidates[i], e.Trials, c.Trials)
					}
				}
			}
			whole := job
			whole.cfg.Trials = c.Trials
			w, _, err := whole.run(context.Background(), func(string) (func(done, total int64), func()) { return nil, func() {} })
			if err != nil {
				t.Fatal(err)
			}
			var got, want bytes.Buffer
			c.Partial = false
			if err := reports.WriteComparisonJSON(&got, &c, sim.Stamp{}); err != nil {
				t.Fatal(err)
			}
			if err := reports.WriteComparisonJSON(&want, &w, sim.Stamp{}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("the interrupted comparison differs from a whole one of its %d trials:\n%s\n---\n%s", c.Trials, got.String(), want.String())
			}
		})
	}
	job := compareJob{ss: tests[0].ss, args: []string{"a", "b"}, metrics: "won", cfg: sim.Config{Trials: 1e9, Seed: 3}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = job.run(ctx, func(string) (func(done, total int64), func()) { return nil, func() {} })
	if !errors.Is(err, errCancelled) || !strings.Contains(err.Error(), "nothing was written") {
		t.Errorf("a comparison cancelled before it began: %v", err)
	}
}

// TestCompareTrialsFloor: a comparison needs 32 batches of at least 30
// trials (sim.MinBatchTrials), 960 in all, whether --trials or the
// scenario asks for fewer; 960 itself is enough.
func TestCompareTrialsFloor(t *testing.T) {
	dir := t.TempDir()
	base, err := registry.Load("doomwheel-vs-clanrats")
	if err != nil {
		t.Fatal(err)
	}
	few := filepath.Join(dir, "few.yaml")
	src := regexp.MustCompile(`(?m)^trials: \d+$`).ReplaceAll(base.Source, []byte("trials: 10"))
	if !bytes.Contains(src, []byte("trials: 10\n")) {
		t.Fatal("doomwheel-vs-clanrats no longer sets its trials")
	}
	// Copies, as compare refuses one scenario named twice.
	few2, copied := filepath.Join(dir, "few2.yaml"), filepath.Join(dir, "copy.yaml")
	for f, text := range map[string][]byte{few: src, few2: src, copied: base.Source} {
		if err := os.WriteFile(f, text, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		args []string
		ok   bool
	}{
		{[]string{"doomwheel-vs-clanrats", copied, "--trials", "10"}, false},
		{[]string{"doomwheel-balance", "--trials", "959"}, false},
		{[]string{few, few2}, false},
		{[]string{"doomwheel-vs-clanrats", copied, "--trials", "960"}, true},
		{[]string{"doomwheel-balance", "--trials", "10", "--shard", "0/2"}, false},
	}
	for _, tt := range tests {
		_, _, err := runCLI(t, append([]string{"compare", "--metrics", "won"}, tt.args...)...)
		var u *usageError
		switch {
		case tt.ok && err != nil:
			t.Errorf("%v: %v", tt.args, err)
		case !tt.ok && (!errors.As(err, &u) || !strings.Contains(err.Error(), "--trials 960 or more")):
			t.Errorf("%v: %v; want a usage error asking for 960 trials", tt.args, err)
		}
	}
}
