package sim

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"hammersim/mechanics/dice"
)

// cancelAfter is a rollModel that cancels the run once the trials it and
// the models sharing seen have run reach at: the run is then stopped in
// the middle of the item that holds that trial.
type cancelAfter struct {
	rollModel
	seen   *atomic.Int64
	at     int64
	cancel context.CancelFunc
}

func (m cancelAfter) NewTrial() Trial { return m }
func (m cancelAfter) Run(r *dice.Rand, n int, t *Tally) {
	if m.seen.Add(int64(n)) >= m.at {
		m.cancel()
	}
	m.rollModel.Run(r, n, t)
}

// TestCancelCutsToCommonChunks: a cancelled run holds, for every model, the
// chunks all models completed, and exactly what a run of that many trials
// holds (batches included), so models stay paired. Items are handed out
// chunk by chunk, every model's chunk k before any chunk k+1 (item
// k*models+m), and a worker leaves the item it works on when the run is
// stopped, after the call of trials in progress (here a trial a call,
// callTime 0); so with one worker the cut is known: cancelling during item
// i leaves items 0..i-1 done, of which the whole rows are the first
// i/models. With two workers the cut depends on timing; the invariants
// hold all the same.
func TestCancelCutsToCommonChunks(t *testing.T) {
	defer func(d time.Duration) { callTime = d }(callTime)
	callTime = 0
	exprs := []string{"D6", "2D6", "3D6kh2"}
	tests := []struct {
		name    string
		models  int
		workers int
		aligned bool
		batches int
		item    int64 // the item during which the run is cancelled
		want    int64 // chunks every model keeps; -1 when timing decides
	}{
		{"mid-row", 3, 1, false, 0, 7, 2},   // items 0-6: rows 0 and 1 whole, row 2 has 1 of 3
		{"row-end", 3, 1, false, 0, 8, 2},   // item 8, the end of row 2, is left unfinished
		{"row-start", 3, 1, false, 0, 9, 3}, // items 0-8: rows 0-2 whole
		{"first-row", 3, 1, false, 0, 1, 0}, // row 0 unfinished: nothing kept
		{"one-model", 1, 1, false, 0, 4, 4}, // a row is one item
		{"aligned", 3, 1, true, 4, 10, 3},   // items 0-9: rows 0-2 whole
		{"two-workers", 3, 2, false, 0, 7, -1},
		{"two-workers-aligned", 2, 2, true, 32, 5, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var seen atomic.Int64
			cfg := Config{Trials: 10 * ChunkSize, Seed: 9, Workers: tt.workers, Aligned: tt.aligned, Batches: tt.batches}
			var models, plain []Model
			for m := range tt.models {
				rm := rollModel{dice.MustParse(exprs[m])}
				plain = append(plain, rm)
				// The item's first trial is the (item*ChunkSize+1)th.
				models = append(models, cancelAfter{rm, &seen, tt.item*ChunkSize + 1, cancel})
			}
			r, err := RunAll(ctx, models, cfg)
			if err != nil {
				t.Fatal(err)
			}
			kept := r.Completed[0]
			for m, n := range r.Completed {
				if n != kept || r.Tallies[m].H[0].N() != n {
					t.Fatalf("model %d holds %d trials (tally %d); model 0 holds %d", m, n, r.Tallies[m].H[0].N(), kept)
				}
			}
			if kept%ChunkSize != 0 || !r.Partial {
				t.Fatalf("kept %d trials, partial %v: want whole chunks of a partial run", kept, r.Partial)
			}
			if tt.want >= 0 && kept != tt.want*ChunkSize {
				t.Fatalf("kept %d chunks, want %d", kept/ChunkSize, tt.want)
			}
			whole := cfg
			whole.Trials, whole.Workers = kept, 1
			w := run(t, whole, plain...)
			if !sameRunTallies(r.withoutPartial(), w.withoutPartial()) {
				t.Fatalf("the cancelled run's %d trials differ from a run of %d trials", kept, kept)
			}
		})
	}
}

// withoutPartial leaves out Partial, which a whole run and a cut one differ in.
func (r Run) withoutPartial() Run {
	out := Run{Tallies: r.Tallies, Completed: r.Completed}
	for _, b := range r.Batches {
		out.Batches = append(out.Batches, b.withoutPartial())
	}
	return out
}

// TestRunGroups: groups run together give each group what a run of it
// alone gives (a model's streams depend on the seed and the trial or chunk
// alone), and a cancelled run cuts every group to the same chunks.
func TestRunGroups(t *testing.T) {
	a := []Model{rollModel{dice.MustParse("D6")}, rollModel{dice.MustParse("2D6")}}
	b := []Model{rollModel{dice.MustParse("3D6kh2")}}
	for _, aligned := range []bool{false, true} {
		cfg := Config{Trials: 3*ChunkSize + 11, Seed: 4, Workers: 2, Aligned: aligned, Batches: 8}
		runs, err := RunGroups(context.Background(), [][]Model{a, b}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for g, models := range [][]Model{a, b} {
			if alone := run(t, cfg, models...); len(runs) != 2 || !sameRunTallies(runs[g], alone) || runs[g].Partial {
				t.Errorf("aligned %v: group %d run with the others differs from its run alone", aligned, g)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen atomic.Int64
	// Items per chunk: a2[0], a2[1], b2; the shared count cancels the run in
	// item 4 (see below).
	b2 := []Model{cancelAfter{rollModel{dice.MustParse("3D6kh2")}, &seen, 1, func() {}}}
	a2 := []Model{a[0], cancelAfter{rollModel{dice.MustParse("2D6")}, &seen, 2*ChunkSize + 1, cancel}}
	runs, err := RunGroups(ctx, [][]Model{a2, b2}, Config{Trials: 10 * ChunkSize, Seed: 4, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	// b2 counts its trials too: a2's second model reaches 2*ChunkSize+1
	// seen trials during its second chunk (item 4, chunk 1), after b2's
	// first; so items 0-4 ran and row 0 alone is whole.
	for g, r := range runs {
		for m, n := range r.Completed {
			if n != ChunkSize || !r.Partial {
				t.Errorf("group %d model %d holds %d trials (partial %v), want one chunk, %d", g, m, n, r.Partial, ChunkSize)
			}
		}
	}
}

// slowModel is a rollModel whose trials take a millisecond each, as a
// battle of two 1,000-model units fought to the end does.
type slowModel struct{ rollModel }

func (m slowModel) NewTrial() Trial { return m }
func (m slowModel) Run(r *dice.Rand, n int, t *Tally) {
	for range n {
		time.Sleep(time.Millisecond)
		m.rollModel.Run(r, 1, t)
	}
}

// TestStopWithinACall: a run of trials of a millisecond stops within a
// call of trials (callTime, 20 ms) of being cancelled, not at the end of
// its chunk, which would take 16 s and more (16,384 trials). It keeps
// what was whole: here nothing, as no chunk ended. 2 s leaves room for a
// loaded machine; running the chunk out could not come near it.
func TestStopWithinACall(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := RunAll(ctx, []Model{slowModel{rollModel{dice.MustParse("D6")}}}, Config{Trials: 2 * ChunkSize, Seed: 1, Workers: 2})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if took > 2*time.Second {
		t.Errorf("stopped %v after it began, 100 ms of it before the cancel", took)
	}
	if !r.Partial || r.Completed[0] != 0 {
		t.Errorf("partial %v, %d trials kept; want a partial run of none", r.Partial, r.Completed[0])
	}
}

// panicAfter is a rollModel whose trials panic once the model has run
// after trials, in the middle of a chunk.
type panicAfter struct {
	rollModel
	seen  *atomic.Int64
	after int64
}

func (m panicAfter) NewTrial() Trial { return m }
func (m panicAfter) Run(r *dice.Rand, n int, t *Tally) {
	if m.seen.Add(int64(n)) > m.after {
		panic("boom")
	}
	m.rollModel.Run(r, n, t)
}

// TestPanicKeepsWholeRows: a trial that panics in the middle of its chunk
// makes the run an error, and the run beside it still holds whole rows
// alone, the same for every model: the panicking item is unfinished, as a
// stopped one is. With one worker and a trial a call, the second model
// panics in item 1 (its chunk 0), so row 0 is cut and nothing is kept.
func TestPanicKeepsWholeRows(t *testing.T) {
	defer func(d time.Duration) { callTime = d }(callTime)
	callTime = 0
	var seen atomic.Int64
	models := []Model{rollModel{dice.MustParse("D6")}, panicAfter{rollModel{dice.MustParse("2D6")}, &seen, 5000}}
	r, err := RunAll(context.Background(), models, Config{Trials: 3 * ChunkSize, Seed: 2, Workers: 1})
	if err == nil {
		t.Fatal("a panicking trial gave no error")
	}
	if r.Completed[0] != r.Completed[1] || r.Completed[0] != 0 || !r.Partial {
		t.Errorf("completed %v (partial %v); want none for either model", r.Completed, r.Partial)
	}
}

// panicNew is a model whose NewTrial panics.
type panicNew struct{ rollModel }

func (panicNew) NewTrial() Trial { panic("no trial") }

// TestNewTrialPanicKeepsWholeRows: a model that cannot make its trial
// stops the run as a panicking trial does, its item unfinished, so the
// model beside it keeps no more than it does: none here, as the second
// model's first item (item 1, in row 0) is where it panics.
func TestNewTrialPanicKeepsWholeRows(t *testing.T) {
	models := []Model{rollModel{dice.MustParse("D6")}, panicNew{rollModel{dice.MustParse("2D6")}}}
	r, err := RunAll(context.Background(), models, Config{Trials: 3 * ChunkSize, Seed: 2, Workers: 1})
	if err == nil {
		t.Fatal("a panicking NewTrial gave no error")
	}
	if r.Completed[0] != r.Completed[1] || r.Completed[0] != 0 {
		t.Errorf("completed %v; want none for either model", r.Completed)
	}
}
