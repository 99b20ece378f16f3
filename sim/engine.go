package sim

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"hammersim/mechanics/dice"
)

// ChunkSize is how many consecutive trials share one random stream. It is
// part of what a seed means: changing it changes every result.
const ChunkSize = 1 << 14

// A Model is one kind of trial, as a scenario compiled it.
type Model interface {
	// Slots lays out what each trial observes.
	Slots() []Slot
	// NewTrial returns a Trial for one worker. It may hold scratch state:
	// it is used by one goroutine only.
	NewTrial() Trial
}

// A Trial runs trials of its model.
type Trial interface {
	// Run performs n trials, drawing every random number from r and
	// recording every observation into t. It must not allocate once t's
	// histograms cover the values observed, nor take locks.
	Run(r *dice.Rand, n int, t *Tally)
}

// Config says how to run.
type Config struct {
	// Trials per model.
	Trials int64
	// Seed names the random streams; see the package documentation.
	Seed uint64
	// Workers is the number of goroutines; GOMAXPROCS when zero or less.
	Workers int
	// Start is the index of the first trial, a multiple of ChunkSize: a run
	// with Start s continues one of s trials with the same seed.
	Start int64
	// Progress, when set, is called from one goroutine about ten times a
	// second, and once at the end, with the trials done and the total.
	Progress func(done, total int64)
}

// DefaultConfig is a million trials per model, seed 1, every CPU.
var DefaultConfig = Config{Trials: 1_000_000, Seed: 1}

// Run is the outcome of RunAll: one Tally per model, in the models' order.
type Run struct {
	Tallies []*Tally
	// Completed counts the trials each tally holds.
	Completed []int64
	// Partial is set when the run was cancelled before every trial ran.
	Partial bool
}

// RunAll runs cfg.Trials trials of every model and returns their tallies.
// Work is handed out chunk by chunk, every model's chunk k before any chunk
// k+1, so a cancelled run has spread what it did over all models. It returns
// a non-nil error only if a trial panicked; cancellation is reported by
// Run.Partial.
func RunAll(ctx context.Context, models []Model, cfg Config) (Run, error) {
	if cfg.Trials < 0 || cfg.Start < 0 || cfg.Start%ChunkSize != 0 {
		return Run{}, fmt.Errorf("sim: bad config: trials %d, start %d (a multiple of %d)", cfg.Trials, cfg.Start, ChunkSize)
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	slots := make([][]Slot, len(models))
	for i, m := range models {
		slots[i] = m.Slots()
	}
	chunks := (cfg.Trials + ChunkSize - 1) / ChunkSize
	items := chunks * int64(len(models))
	total := cfg.Trials * int64(len(models))

	var (
		next, done atomic.Int64
		wg         sync.WaitGroup
		errOnce    sync.Once
		runErr     error
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type partial struct {
		tallies   []*Tally
		completed []int64
	}
	parts := make([]partial, workers)
	for w := range workers {
		wg.Go(func() {
			p := partial{tallies: make([]*Tally, len(models)), completed: make([]int64, len(models))}
			defer func() {
				parts[w] = p
				if v := recover(); v != nil {
					errOnce.Do(func() { runErr = fmt.Errorf("sim: trial panicked: %v\n%s", v, debug.Stack()) })
					cancel()
				}
			}()
			trials := make([]Trial, len(models))
			var r dice.Rand
			for ctx.Err() == nil {
				i := next.Add(1) - 1
				if i >= items {
					return
				}
				chunk, m := i/int64(len(models)), int(i%int64(len(models)))
				if trials[m] == nil {
					trials[m] = models[m].NewTrial()
					p.tallies[m] = NewTally(slots[m])
				}
				first := cfg.Start + chunk*ChunkSize
				n := min(ChunkSize, cfg.Start+cfg.Trials-first)
				r.Seed(cfg.Seed, uint64(first/ChunkSize))
				trials[m].Run(&r, int(n), p.tallies[m])
				p.completed[m] += n
				done.Add(n)
			}
		})
	}

	finished := make(chan struct{})
	var progressDone sync.WaitGroup
	if cfg.Progress != nil {
		progressDone.Go(func() {
			tick := time.NewTicker(100 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-finished:
					cfg.Progress(done.Load(), total)
					return
				case <-tick.C:
					cfg.Progress(done.Load(), total)
				}
			}
		})
	}
	wg.Wait()
	close(finished)
	progressDone.Wait()

	out := Run{Tallies: make([]*Tally, len(models)), Completed: make([]int64, len(models))}
	for m := range models {
		out.Tallies[m] = NewTally(slots[m])
		for _, p := range parts {
			if p.tallies != nil && p.tallies[m] != nil {
				out.Tallies[m].Merge(p.tallies[m])
				out.Completed[m] += p.completed[m]
			}
		}
		if out.Completed[m] != cfg.Trials {
			out.Partial = true
		}
	}
	if runErr != nil {
		return out, runErr
	}
	return out, nil
}
