package sim

import (
	"context"
	"fmt"
	"math"
	"math/bits"
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
	// Aligned gives every trial its own stream, (Seed, trial index), instead
	// of one per chunk: trial i of every model then starts from the same
	// random numbers, so that differences between models are measured on
	// the same dice (paired). It costs a reseed per trial, a few ns.
	Aligned bool
	// Batches, when above zero, also keeps the tallies of chunk k (of trial
	// k, when Aligned) apart in batch k mod Batches (Run.Batches), for
	// batch-means standard errors of quantities no single histogram holds,
	// such as paired differences.
	Batches int
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
	// Batches holds, with Config.Batches, each batch's own run.
	Batches []Run
}

// Merge adds o's trials to r, model by model (and batch by batch). Both
// must be runs of the same models.
func (r *Run) Merge(o Run) {
	if r.Tallies == nil {
		*r = o
		return
	}
	for m := range r.Tallies {
		r.Tallies[m].Merge(o.Tallies[m])
		r.Completed[m] += o.Completed[m]
	}
	r.Partial = r.Partial || o.Partial
	for b := range r.Batches {
		r.Batches[b].Merge(o.Batches[b])
	}
}

// RunAll runs cfg.Trials trials of every model and returns their tallies.
// Work is handed out chunk by chunk, every model's chunk k before any chunk
// k+1, so a cancelled run has spread what it did over all models. It returns
// a non-nil error only if a trial panicked; cancellation is reported by
// Run.Partial.
func RunAll(ctx context.Context, models []Model, cfg Config) (Run, error) {
	if cfg.Trials < 0 || cfg.Start < 0 || cfg.Start%ChunkSize != 0 || cfg.Batches < 0 {
		return Run{}, fmt.Errorf("sim: bad config: trials %d, start %d (a multiple of %d), batches %d", cfg.Trials, cfg.Start, ChunkSize, cfg.Batches)
	}
	// Every count below (the last trial's index, trials times models) must
	// fit in an int64.
	if cfg.Start > math.MaxInt64-ChunkSize-cfg.Trials {
		return Run{}, fmt.Errorf("sim: %d trials from %d are too many to count", cfg.Trials, cfg.Start)
	}
	if hi, lo := bits.Mul64(uint64(cfg.Start+cfg.Trials+ChunkSize), uint64(max(len(models), 1))); hi != 0 || lo > math.MaxInt64 {
		return Run{}, fmt.Errorf("sim: %d trials from %d, of %d models, are too many to count", cfg.Trials, cfg.Start, len(models))
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	slots := make([][]Slot, len(models))
	for i, m := range models {
		slots[i] = m.Slots()
	}
	batches := max(cfg.Batches, 1)
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

	// Each worker aggregates into tallies of its own, one per (batch,
	// model): index b*len(models)+m.
	parts := make([]partial, workers)
	for w := range workers {
		wg.Go(func() {
			p := partial{tallies: make([]*Tally, batches*len(models)), completed: make([]int64, batches*len(models))}
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
				}
				first := cfg.Start + chunk*ChunkSize
				n := min(ChunkSize, cfg.Start+cfg.Trials-first)
				// Tallies are kept per (batch, model): index batch*len(models)+m.
				slot := func(batch int64) int { return int(batch%int64(batches))*len(models) + m }
				if cfg.Aligned {
					// Trial by trial: its own stream, and its batch by its index.
					for j := first; j < first+n; j++ {
						k := slot(j)
						r.Seed(cfg.Seed, uint64(j))
						trials[m].Run(&r, 1, p.tally(k, slots[m]))
						p.completed[k]++
					}
				} else {
					k := slot(first / ChunkSize)
					r.Seed(cfg.Seed, uint64(first/ChunkSize))
					trials[m].Run(&r, int(n), p.tally(k, slots[m]))
					p.completed[k] += n
				}
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

	batchRuns := make([]Run, batches)
	for b := range batchRuns {
		br := Run{Tallies: make([]*Tally, len(models)), Completed: make([]int64, len(models))}
		for m := range models {
			br.Tallies[m] = NewTally(slots[m])
			for _, p := range parts {
				if k := b*len(models) + m; p.tallies != nil && p.tallies[k] != nil {
					br.Tallies[m].Merge(p.tallies[k])
					br.Completed[m] += p.completed[k]
				}
			}
		}
		batchRuns[b] = br
	}
	out := Run{Tallies: make([]*Tally, len(models)), Completed: make([]int64, len(models))}
	for m := range models {
		out.Tallies[m] = NewTally(slots[m])
		for _, br := range batchRuns {
			out.Tallies[m].Merge(br.Tallies[m])
			out.Completed[m] += br.Completed[m]
		}
		if out.Completed[m] != cfg.Trials {
			out.Partial = true
		}
	}
	if out.Partial && runErr == nil && ctx.Err() == nil {
		// Only cancellation may leave trials undone.
		runErr = fmt.Errorf("sim: %d of %d trials ran, without cancellation", out.Completed[0], cfg.Trials)
	}
	if cfg.Batches > 0 {
		out.Batches = batchRuns
		for b := range out.Batches {
			out.Batches[b].Partial = out.Partial
		}
	}
	return out, runErr
}

// partial is one worker's aggregate: a tally per (batch, model), made when
// first needed, and the trials each holds.
type partial struct {
	tallies   []*Tally
	completed []int64
}

func (p *partial) tally(k int, slots []Slot) *Tally {
	if p.tallies[k] == nil {
		p.tallies[k] = NewTally(slots)
	}
	return p.tallies[k]
}

// RunRounds runs in deterministic rounds until done says the run so far is
// enough or maxTrials trials per model have run: first cfg.Trials (rounded
// up to whole chunks), then doubling the total each round. Each round
// continues the one before (Config.Start), so the result equals one RunAll
// of the final number of trials, which Run.Completed reports. It stops early
// on cancellation or a panic, returning what finished.
func RunRounds(ctx context.Context, models []Model, cfg Config, maxTrials int64, done func(Run) bool) (Run, error) {
	roundUp := func(n int64) int64 { return (n + ChunkSize - 1) / ChunkSize * ChunkSize }
	next := roundUp(max(cfg.Trials, 1))
	var total Run
	var ran int64
	for {
		next = min(next, maxTrials)
		round := cfg
		round.Start, round.Trials = ran, next-ran
		if round.Trials <= 0 {
			return total, nil
		}
		r, err := RunAll(ctx, models, round)
		total.Merge(r)
		ran = next
		if err != nil || total.Partial || done(total) || ran >= maxTrials {
			return total, err
		}
		next = roundUp(2 * ran)
	}
}
