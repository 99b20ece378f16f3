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
	// histograms cover the values observed, nor take locks. Calls that add
	// up to n trials must do what one call of n does, drawing from r in
	// turn: the engine splits a chunk into calls as their pace demands.
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
	p := newPool(models, cfg, workers, cancel)
	stopProgress := p.reportProgress(cfg.Progress)
	var wg sync.WaitGroup
	parts := make([]partial, workers)
	for w := range workers {
		wg.Go(func() { parts[w] = p.work(ctx, w) })
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
	// current holds, for each worker, the item it works on, or a lower
	// bound of the one it is taking, or idle; aborted is the first row
	// (chunk) of an item a worker left unfinished when the run was
	// stopped, or idle. A row is complete, and its tallies safe to add
	// up, once every item of it was taken, no worker works on it or on an
	// earlier one, and none was abandoned in it or before it (safeRow).
	current []atomic.Int64
	aborted atomic.Int64
}

// idle stands for no item in pool.current and pool.aborted.
const idle = math.MaxInt64

func newPool(models []Model, cfg Config, workers int, cancel context.CancelFunc) *pool {
	p := &pool{models: models, slots: make([][]Slot, len(models)), cfg: cfg, batches: max(cfg.Batches, 1), cancel: cancel,
		current: make([]atomic.Int64, workers)}
	for w := range p.current {
		p.current[w].Store(idle)
	}
	p.aborted.Store(idle)
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
// Items are taken in order, so the items taken are always the first ones.
// A worker keeps the tallies of each row (chunk k of every model) apart
// until the row is complete (safeRow), and only then adds them to part:
// when the run is stopped, a worker leaves its item unfinished (a chunk of
// heavy trials can take many seconds), and the rows from that item's on
// are dropped, so the run holds exactly its first whole rows.
func (p *pool) work(ctx context.Context, w int) (part partial) {
	part = p.newPartial()
	inRow := int64(-1) // the row of the item in progress; -1 between items
	defer func() {
		if v := recover(); v != nil {
			// The item in progress is unfinished, as a stopped one is.
			if inRow >= 0 {
				p.abandon(inRow)
			}
			p.errOnce.Do(func() { p.err = fmt.Errorf("sim: trial panicked: %v\n%s", v, debug.Stack()) })
			p.cancel()
		}
		p.current[w].Store(idle)
	}()
	trials := make([]Trial, len(p.models))
	spans := make([]int, len(p.models)) // trials a call, by model (runItem)
	var r dice.Rand
	for ctx.Err() == nil {
		// A lower bound of the item about to be taken, so that no item is
		// ever taken without a worker standing on or before it.
		p.current[w].Store(p.next.Load())
		i := p.next.Add(1) - 1
		if i >= p.items {
			return part
		}
		p.current[w].Store(i)
		chunk, m := i/int64(len(p.models)), int(i%int64(len(p.models)))
		inRow = chunk
		if trials[m] == nil {
			trials[m] = p.models[m].NewTrial()
			spans[m] = 1
		}
		first := p.cfg.Start + chunk*ChunkSize
		n := min(ChunkSize, p.cfg.Start+p.cfg.Trials-first)
		if !p.runItem(ctx, trials[m], &r, part.row(chunk), m, first, n, &spans[m]) {
			// Stopped in the middle: this row, and every later one, is
			// dropped. The row is marked before the worker stands down.
			p.abandon(chunk)
			return part
		}
		inRow = -1
		p.current[w].Store(idle)
		part.settle(p.safeRow(), p.slots, len(p.models))
	}
	return part
}

// abandon marks row as holding an item left unfinished: the run is cut
// before it (safeRow). A worker marks it before it stands down.
func (p *pool) abandon(row int64) {
	for a := p.aborted.Load(); row < a && !p.aborted.CompareAndSwap(a, row); a = p.aborted.Load() {
	}
}

// runItem runs trials first to first+n of model m into pend, a call of
// *span trials at a time, and says whether it ran them all: before each
// call it stops when ctx is done. The span is set after each call to what
// takes callTime at the pace just measured (a model's first call is of
// one trial), which keeps a stop prompt for trials of a millisecond and
// costs nothing for trials of nanoseconds (a chunk a call). A model's
// trials do the same work in one call of n as in several that add up to
// n, drawing from the same stream in turn.
func (p *pool) runItem(ctx context.Context, trial Trial, r *dice.Rand, pend *rowPart, m int, first, n int64, span *int) bool {
	if !p.cfg.Aligned {
		k := p.slot(first/ChunkSize, m)
		t := pend.tally(k, p.slots[m])
		r.Seed(p.cfg.Seed, uint64(first/ChunkSize))
		for done := int64(0); done < n; {
			if ctx.Err() != nil {
				return false
			}
			c := min(int64(*span), n-done)
			start := time.Now()
			trial.Run(r, int(c), t)
			adapt(span, c, time.Since(start))
			pend.completed[k] += c
			done += c
			p.done.Add(c)
		}
		return true
	}
	// Trial by trial: its own stream, and its batch by its index.
	for j := first; j < first+n; {
		if ctx.Err() != nil {
			return false
		}
		c := min(int64(*span), first+n-j)
		start := time.Now()
		for end := j + c; j < end; j++ {
			k := p.slot(j, m)
			r.Seed(p.cfg.Seed, uint64(j))
			trial.Run(r, 1, pend.tally(k, p.slots[m]))
			pend.completed[k]++
		}
		adapt(span, c, time.Since(start))
		p.done.Add(c)
	}
	return true
}

// callTime is how long runItem means a call of trials to take: a stopped
// run waits for the calls in progress. Tests set it to 0, for calls of
// one trial.
var callTime = 20 * time.Millisecond

// adapt sets span to the trials that take callTime at the pace of the c
// trials that took took, from one trial to a chunk.
func adapt(span *int, c int64, took time.Duration) {
	if took <= 0 {
		*span = ChunkSize
		return
	}
	*span = int(min(max(float64(callTime)*float64(c)/float64(took), 1), ChunkSize))
}

// safeRow is the first row that may not be complete: every row before it
// was wholly taken, no worker works on it, and none was abandoned. The
// counters are read in this order, each a bound that can only have grown
// (next) or that a worker changes only after the one read next (current
// before aborted: a worker marks the row it abandons, then stands down),
// so a row before the result is complete however the reads interleave
// with the workers.
func (p *pool) safeRow() int64 {
	models := int64(len(p.models))
	safe := min(p.next.Load(), p.items) / models
	for w := range p.current {
		if c := p.current[w].Load(); c != idle {
			safe = min(safe, c/models)
		}
	}
	return min(safe, p.aborted.Load())
}

func (p *pool) newPartial() partial {
	k := p.batches * len(p.models)
	return partial{tallies: make([]*Tally, k), completed: make([]int64, k), size: k}
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
// (chunk k of every model) before the first one a worker left unfinished
// or none reached (safeRow). A worker keeps each row apart until it is
// whole, so every model of a cancelled run holds the same chunks, 0 to
// K-1, and runs that compare models (Aligned) pair them over the same
// trials.
func (p *pool) gather(parts []partial) Run {
	models := len(p.models)
	// Every worker has stopped: a row before safeRow is whole, one from
	// it on is not (or was abandoned), and is dropped.
	safe := p.safeRow()
	for w := range parts {
		parts[w].settle(safe, p.slots, models)
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
// first needed, and the trials each holds; and apart, rows, the same for
// each row (chunk) of its items not yet known to be whole, in order, with
// spare ones to reuse.
type partial struct {
	tallies   []*Tally
	completed []int64
	size      int
	rows      []*rowPart
	spare     []*rowPart
}

// rowPart is a worker's tallies of the items of one row.
type rowPart struct {
	row       int64
	tallies   []*Tally
	completed []int64
}

func (p *rowPart) tally(k int, slots []Slot) *Tally {
	if p.tallies[k] == nil {
		p.tallies[k] = NewTally(slots)
	}
	return p.tallies[k]
}

// row returns the worker's tallies of row chunk, begun when its first item
// of the row is: rows are taken in order, so it is the last one or a new
// one after it.
func (p *partial) row(chunk int64) *rowPart {
	if n := len(p.rows); n > 0 && p.rows[n-1].row == chunk {
		return p.rows[n-1]
	}
	var rp *rowPart
	if n := len(p.spare); n > 0 {
		rp, p.spare = p.spare[n-1], p.spare[:n-1]
	} else {
		rp = &rowPart{tallies: make([]*Tally, p.size), completed: make([]int64, p.size)}
	}
	rp.row = chunk
	p.rows = append(p.rows, rp)
	return rp
}

// settle adds the tallies of the rows before safe to p's, keeping the
// emptied rows' memory for later rows. Rows from safe on stay apart: in a
// stopped run, gather leaves them out.
func (p *partial) settle(safe int64, slots [][]Slot, models int) {
	kept := 0
	for _, rp := range p.rows {
		if rp.row >= safe {
			p.rows[kept] = rp
			kept++
			continue
		}
		for k, t := range rp.tallies {
			if t == nil || rp.completed[k] == 0 {
				continue
			}
			if p.tallies[k] == nil {
				p.tallies[k] = NewTally(slots[k%models])
			}
			p.tallies[k].Merge(t)
			p.completed[k] += rp.completed[k]
			rp.completed[k] = 0
			t.reset()
		}
		p.spare = append(p.spare, rp)
	}
	clear(p.rows[kept:])
	p.rows = p.rows[:kept]
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
