package sim

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"runtime/debug"
	"slices"
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

// MaxTrials bounds the trials per model a run may ask for, from a flag or
// a scenario file alike. It keeps every count of trials, chunks and work
// items (trials times models, below 100,000 points) far inside an int64;
// at a billion trials a second it is a quarter of an hour per model.
const MaxTrials = 1_000_000_000_000

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
// k+1, and a cancelled run is cut to the chunks every model completed: all
// its models hold the same first chunks (see gather). It returns
// a non-nil error only if a trial panicked; cancellation is reported by
// Run.Partial.
func RunAll(ctx context.Context, models []Model, cfg Config) (Run, error) {
	if err := checkConfig(cfg, len(models)); err != nil {
		return Run{}, err
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := newPool(models, cfg, cancel)
	stopProgress := p.reportProgress(cfg.Progress)
	var wg sync.WaitGroup
	parts := make([]partial, workers)
	for w := range workers {
		wg.Go(func() { parts[w] = p.work(ctx) })
	}
	wg.Wait()
	stopProgress()
	out := p.gather(parts)
	if out.Partial && p.err == nil && ctx.Err() == nil {
		// Only cancellation may leave trials undone.
		p.err = fmt.Errorf("sim: %d of %d trials ran, without cancellation", out.Completed[0], cfg.Trials)
	}
	return out, p.err
}

// RunGroups runs groups of models as one RunAll, and returns each group's
// part of it, in order. Chunk k of every model of every group is handed out
// before any chunk k+1, so a cancelled run holds the same chunks in every
// group: groups compared with one another (the candidates of a comparison)
// stay paired however the run ends. Results do not depend on the grouping:
// a model's streams depend on the seed and the chunk or trial alone.
func RunGroups(ctx context.Context, groups [][]Model, cfg Config) ([]Run, error) {
	var all []Model
	for _, g := range groups {
		all = append(all, g...)
	}
	run, err := RunAll(ctx, all, cfg)
	if err != nil {
		return nil, err
	}
	out := make([]Run, len(groups))
	at := 0
	for i, g := range groups {
		out[i] = run.models(at, at+len(g))
		at += len(g)
	}
	return out, nil
}

// models is the run of models [lo, hi) alone.
func (r Run) models(lo, hi int) Run {
	// A cancelled run is cut to the same chunks for every model, so every
	// group of it is partial.
	out := Run{Tallies: r.Tallies[lo:hi:hi], Completed: r.Completed[lo:hi:hi], Partial: r.Partial}
	for _, b := range r.Batches {
		out.Batches = append(out.Batches, b.models(lo, hi))
	}
	return out
}

// checkConfig refuses a configuration the engine cannot count: every count
// the run makes (the last trial's index, trials times models) must fit in
// an int64.
func checkConfig(cfg Config, models int) error {
	if cfg.Trials < 0 || cfg.Start < 0 || cfg.Start%ChunkSize != 0 || cfg.Batches < 0 {
		return fmt.Errorf("sim: bad config: trials %d, start %d (a multiple of %d), batches %d", cfg.Trials, cfg.Start, ChunkSize, cfg.Batches)
	}
	if cfg.Start > math.MaxInt64-ChunkSize-cfg.Trials {
		return fmt.Errorf("sim: %d trials from %d are too many to count", cfg.Trials, cfg.Start)
	}
	if hi, lo := bits.Mul64(uint64(cfg.Start+cfg.Trials+ChunkSize), uint64(max(models, 1))); hi != 0 || lo > math.MaxInt64 {
		return fmt.Errorf("sim: %d trials from %d, of %d models, are too many to count", cfg.Trials, cfg.Start, models)
	}
	return nil
}

// pool is one RunAll: the work items (chunk k of model m is item
// k*len(models)+m), the counters the workers share, and the first panic.
type pool struct {
	models  []Model
	slots   [][]Slot
	cfg     Config
	batches int
	items   int64
	total   int64

	next, done atomic.Int64
	errOnce    sync.Once
	err        error
	cancel     context.CancelFunc
}

func newPool(models []Model, cfg Config, cancel context.CancelFunc) *pool {
	p := &pool{models: models, slots: make([][]Slot, len(models)), cfg: cfg, batches: max(cfg.Batches, 1), cancel: cancel}
	for i, m := range models {
		p.slots[i] = m.Slots()
	}
	chunks := (cfg.Trials + ChunkSize - 1) / ChunkSize
	p.items = chunks * int64(len(models))
	p.total = cfg.Trials * int64(len(models))
	return p
}

// work is one worker: it takes items until none is left or ctx is done,
// and aggregates into tallies of its own, one per (batch, model) at index
// batch*len(models)+m. A panicking trial stops the whole run.
//
// Items are taken in order and a taken item always runs to its end, so the
// items that ran are always the first ones. The worker keeps the items of
// the row it works on (chunk k of every model) apart, in pending, and adds
// them to part only once it takes an item of a later row: every item before
// that one was taken, so the row is whole. gather settles the last row.
func (p *pool) work(ctx context.Context) (part partial) {
	part = p.newPartial()
	defer func() {
		if v := recover(); v != nil {
			p.errOnce.Do(func() { p.err = fmt.Errorf("sim: trial panicked: %v\n%s", v, debug.Stack()) })
			p.cancel()
		}
	}()
	trials := make([]Trial, len(p.models))
	var r dice.Rand
	for ctx.Err() == nil {
		i := p.next.Add(1) - 1
		if i >= p.items {
			return part
		}
		chunk, m := i/int64(len(p.models)), int(i%int64(len(p.models)))
		if chunk != part.row {
			part.settle(p.slots, len(p.models))
			part.row = chunk
		}
		if trials[m] == nil {
			trials[m] = p.models[m].NewTrial()
		}
		first := p.cfg.Start + chunk*ChunkSize
		n := min(ChunkSize, p.cfg.Start+p.cfg.Trials-first)
		pend := part.pending
		if p.cfg.Aligned {
			// Trial by trial: its own stream, and its batch by its index.
			for j := first; j < first+n; j++ {
				k := p.slot(j, m)
				r.Seed(p.cfg.Seed, uint64(j))
				trials[m].Run(&r, 1, pend.tally(k, p.slots[m]))
				pend.completed[k]++
			}
		} else {
			k := p.slot(first/ChunkSize, m)
			r.Seed(p.cfg.Seed, uint64(first/ChunkSize))
			trials[m].Run(&r, int(n), pend.tally(k, p.slots[m]))
			pend.completed[k] += n
		}
		p.done.Add(n)
	}
	return part
}

func (p *pool) newPartial() partial {
	k := p.batches * len(p.models)
	return partial{
		tallies: make([]*Tally, k), completed: make([]int64, k), row: -1,
		pending: &partial{tallies: make([]*Tally, k), completed: make([]int64, k)},
	}
}

// slot is the index of model m's tally for batch number batch (taken
// modulo the batches).
func (p *pool) slot(batch int64, m int) int {
	return int(batch%int64(p.batches))*len(p.models) + m
}

// reportProgress calls progress every 100 ms while the run goes on, and
// once more, with the final count, when the returned stop is called.
func (p *pool) reportProgress(progress func(done, total int64)) (stop func()) {
	if progress == nil {
		return func() {}
	}
	finished := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-finished:
				progress(p.done.Load(), p.total)
				return
			case <-tick.C:
				progress(p.done.Load(), p.total)
			}
		}
	})
	return func() {
		close(finished)
		wg.Wait()
	}
}

// gather adds the workers' tallies into one Run (and, with cfg.Batches, one
// per batch). Tallies are integer counts, so the order of the additions
// changes nothing.
//
// A cancelled run is cut to the chunks every model completed: the rows
// (chunk k of every model) whose items were all taken. A worker's pending
// row is kept only when it is whole, so every model of a cancelled run
// holds the same chunks, 0 to K-1, and runs that compare models (Aligned)
// pair them over the same trials.
func (p *pool) gather(parts []partial) Run {
	models := len(p.models)
	taken := min(p.next.Load(), p.items)
	for w := range parts {
		if row := parts[w].row; row >= 0 && (row+1)*int64(models) <= taken {
			parts[w].settle(p.slots, models)
		}
	}
	if !slices.ContainsFunc(parts, func(pt partial) bool { return slices.ContainsFunc(pt.completed, func(n int64) bool { return n > 0 }) }) {
		return p.nothing()
	}
	batchRuns := make([]Run, p.batches)
	for b := range batchRuns {
		br := Run{Tallies: make([]*Tally, models), Completed: make([]int64, models)}
		for m := range models {
			br.Tallies[m] = NewTally(p.slots[m])
			for _, part := range parts {
				if k := b*models + m; part.tallies != nil && part.tallies[k] != nil {
					br.Tallies[m].Merge(part.tallies[k])
					br.Completed[m] += part.completed[k]
				}
			}
		}
		batchRuns[b] = br
	}
	out := Run{Tallies: make([]*Tally, models), Completed: make([]int64, models)}
	for m := range models {
		out.Tallies[m] = NewTally(p.slots[m])
		for _, br := range batchRuns {
			out.Tallies[m].Merge(br.Tallies[m])
			out.Completed[m] += br.Completed[m]
		}
		if out.Completed[m] != p.cfg.Trials {
			out.Partial = true
		}
	}
	if p.cfg.Batches > 0 {
		out.Batches = batchRuns
		for b := range out.Batches {
			out.Batches[b].Partial = out.Partial
		}
	}
	return out
}

// nothing is the run of a pool stopped before any item was done: partial,
// no trials, and histograms of one bin each (NewShapeTally), shared by its
// batches, since no count will go into them; a large sweep's full ones,
// for every batch, took seconds and gigabytes to make for nothing.
func (p *pool) nothing() Run {
	models := len(p.models)
	empty := Run{Tallies: make([]*Tally, models), Completed: make([]int64, models), Partial: p.cfg.Trials > 0}
	for m := range models {
		empty.Tallies[m] = NewShapeTally(p.slots[m])
	}
	out := empty
	if p.cfg.Batches > 0 {
		out.Batches = make([]Run, p.batches)
		for b := range out.Batches {
			out.Batches[b] = empty
		}
	}
	return out
}

// partial is one worker's aggregate: a tally per (batch, model), made when
// first needed, and the trials each holds; and apart, pending, the same for
// the items of row (chunk) row, not yet known to be whole.
type partial struct {
	tallies   []*Tally
	completed []int64
	row       int64
	pending   *partial
}

func (p *partial) tally(k int, slots []Slot) *Tally {
	if p.tallies[k] == nil {
		p.tallies[k] = NewTally(slots)
	}
	return p.tallies[k]
}

// settle adds the pending row's tallies to p's and empties them for the
// next row, keeping their memory.
func (p *partial) settle(slots [][]Slot, models int) {
	if p.pending == nil {
		return
	}
	for k, t := range p.pending.tallies {
		if t == nil || p.pending.completed[k] == 0 {
			continue
		}
		p.tally(k, slots[k%models]).Merge(t)
		p.completed[k] += p.pending.completed[k]
		p.pending.completed[k] = 0
		t.reset()
	}
}

// RunRounds runs in deterministic rounds until done says the run so far is
// enough or maxTrials trials per model have run: first cfg.Trials (rounded
// up to whole chunks), then doubling the total each round. Each round
// continues the one before (Config.Start), so the result equals one RunAll
// of the final number of trials, which Run.Completed reports. It stops early
// on cancellation or a panic, returning what finished. Config.Progress sees
// the whole run: trials done in every round so far, out of the total the
// current round runs to, which grows with each round.
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
		if cfg.Progress != nil {
			// Progress counts the whole run: the rounds before this one
			// done, out of the total this round brings the run to.
			before, upTo, m := ran, next, int64(len(models))
			round.Progress = func(done, _ int64) { cfg.Progress(before*m+done, upTo*m) }
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
