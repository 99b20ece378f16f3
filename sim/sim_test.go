package sim

import (
	"context"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"hammersim/mechanics/dice"
)

// rollModel rolls a dice expression each trial and records the result in
// slot 0 and whether it reached 7 in slot 1.
type rollModel struct{ e dice.Expr }

func (m rollModel) Slots() []Slot {
	return []Slot{{Name: "roll", Lo: m.e.Min(), Hi: m.e.Max()}, {Name: "seven", Lo: 0, Hi: 1}}
}
func (m rollModel) NewTrial() Trial { return m }
func (m rollModel) Run(r *dice.Rand, n int, t *Tally) {
	for range n {
		v := m.e.Roll(r)
		t.H[0].Add(v)
		if v >= 7 {
			t.H[1].Add(1)
		} else {
			t.H[1].Add(0)
		}
	}
}

func TestHistogram(t *testing.T) {
	var h Histogram
	for _, v := range []int{3, -2, 10, 3, 0} {
		h.Add(v)
	}
	if h.N() != 5 || h.Count(3) != 2 || h.Count(-2) != 1 || h.Count(4) != 0 {
		t.Fatalf("counts wrong: %+v", h)
	}
	if got := h.CountAtLeast(3); got != 3 {
		t.Errorf("CountAtLeast(3) = %d, want 3", got)
	}
	if got := h.CountAtMost(0); got != 2 {
		t.Errorf("CountAtMost(0) = %d, want 2", got)
	}
	lo, hi, ok := h.Range()
	if !ok || lo != -2 || hi != 10 {
		t.Errorf("Range = %d, %d, %v", lo, hi, ok)
	}
	g := NewHistogram(0, 100)
	g.AddN(3, 2)
	g.Add(-2)
	g.Add(10)
	g.Add(0)
	if !h.Equal(&g) || !g.Equal(&h) {
		t.Errorf("equal histograms of different sizes compare unequal")
	}
	g.Merge(&h)
	if g.Count(3) != 4 || g.N() != 10 {
		t.Errorf("merge: %+v", g)
	}
	var empty Histogram
	if _, _, ok := empty.Range(); ok || !empty.Equal(&Histogram{}) || empty.Equal(&h) {
		t.Errorf("empty histogram misbehaves")
	}
}

func TestWilson(t *testing.T) {
	// Wilson 95% intervals: 81/263 -> [0.2553, 0.3662] is published
	// (Newcombe 1998, table I, method 3); 0/10 -> [0, 0.2775] and 5/10 ->
	// [0.2366, 0.7634] are worked out from the closed form,
	// (k + z²/2 ± z sqrt(k(n-k)/n + z²/4)) / (n + z²) with z = 1.95996.
	tests := []struct {
		k, n   int64
		lo, hi float64
	}{
		{0, 10, 0, 0.2775},
		{5, 10, 0.2366, 0.7634},
		{81, 263, 0.2553, 0.3662},
	}
	for _, tt := range tests {
		lo, hi := Wilson(tt.k, tt.n, Z95)
		if math.Abs(lo-tt.lo) > 5e-5 || math.Abs(hi-tt.hi) > 5e-5 {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", tt.k, tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
	// At the edges the interval holds the estimate exactly: 0/n starts at 0
	// and n/n ends at 1, with no rounding residue (such as 3.47e-18 for
	// 0/100 or 0.9999999999999999 for 10/10).
	for _, n := range []int64{1, 10, 100, 263, 1_000_000, 1 << 40} {
		if lo, _ := Wilson(0, n, Z95); lo != 0 {
			t.Errorf("Wilson(0, %d) lower bound %g, want exactly 0", n, lo)
		}
		if _, hi := Wilson(n, n, Z95); hi != 1 {
			t.Errorf("Wilson(%d, %d) upper bound %v, want exactly 1", n, n, hi)
		}
	}
}

// TestRunAllRefusesUncountableTrials: trial counts whose chunk or work-item
// arithmetic would overflow an int64 are refused, not run as 0 trials.
func TestRunAllRefusesUncountableTrials(t *testing.T) {
	for _, trials := range []int64{math.MaxInt64, math.MaxInt64 - ChunkSize + 1, math.MaxInt64 / 2} {
		r, err := RunAll(context.Background(), []Model{rollModel{dice.Dice(2, 6)}, rollModel{dice.Dice(2, 6)}, rollModel{dice.Dice(2, 6)}}, Config{Trials: trials, Seed: 1, Workers: 1})
		if err == nil || r.Partial {
			t.Errorf("%d trials: err %v, partial %v; want an error", trials, err, r.Partial)
		}
	}
}

func run(t *testing.T, cfg Config, models ...Model) Run {
	t.Helper()
	r, err := RunAll(context.Background(), models, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSameResultsForAnyWorkerCount(t *testing.T) {
	models := []Model{rollModel{dice.MustParse("2D6")}, rollModel{dice.MustParse("3D6kh2")}}
	cfg := Config{Trials: 5*ChunkSize + 123, Seed: 42}
	var first Run
	for _, w := range []int{1, 2, 3, 8} {
		cfg.Workers = w
		r := run(t, cfg, models...)
		if r.Partial {
			t.Fatalf("workers %d: partial run", w)
		}
		for m := range models {
			if r.Completed[m] != cfg.Trials {
				t.Fatalf("workers %d: model %d completed %d of %d", w, m, r.Completed[m], cfg.Trials)
			}
		}
		if w == 1 {
			first = r
			continue
		}
		for m := range models {
			if !r.Tallies[m].Equal(first.Tallies[m]) {
				t.Errorf("workers %d: model %d differs from workers 1", w, m)
			}
		}
	}
	cfg.Seed = 43
	other := run(t, cfg, models...)
	if other.Tallies[0].Equal(first.Tallies[0]) {
		t.Errorf("seed 43 gave the same results as seed 42")
	}
}

// TestContinuation checks that a run from Start continues a shorter run:
// 2 chunks, then 3 more from Start = 2 chunks, equal 5 chunks at once.
func TestContinuation(t *testing.T) {
	m := []Model{rollModel{dice.MustParse("2D6")}}
	a := run(t, Config{Trials: 2 * ChunkSize, Seed: 7}, m...)
	b := run(t, Config{Trials: 3 * ChunkSize, Seed: 7, Start: 2 * ChunkSize}, m...)
	whole := run(t, Config{Trials: 5 * ChunkSize, Seed: 7}, m...)
	a.Tallies[0].Merge(b.Tallies[0])
	if !a.Tallies[0].Equal(whole.Tallies[0]) {
		t.Fatal("two rounds differ from one run of the same trials")
	}
	if _, err := RunAll(context.Background(), m, Config{Trials: 10, Start: 5}); err == nil {
		t.Fatal("a Start that is not a chunk boundary was accepted")
	}
}

// TestMatchesExact checks the engine end to end: P(2D6 >= 7) = 21/36 by
// enumeration, and mean 7, within 5 standard errors.
func TestMatchesExact(t *testing.T) {
	r := run(t, Config{Trials: 400_000, Seed: 3}, rollModel{dice.MustParse("2D6")})
	tl := r.Tallies[0]
	p := ProbabilityOf("seven", nil, tl.H[1].Count(1), tl.H[1].N()).WithExact(21.0 / 36)
	if z := p.Z(); math.Abs(z) > 5 {
		t.Errorf("P(2D6 >= 7) estimate %.5f, exact %.5f, z %.1f", p.Value, p.Exact, z)
	}
	if p.CI95[0] > p.Value || p.CI95[1] < p.Value {
		t.Errorf("interval %v does not contain its estimate %v", p.CI95, p.Value)
	}
	m := MeanOf("roll", nil, &tl.H[0]).WithExact(7)
	if z := m.Z(); math.Abs(z) > 5 {
		t.Errorf("mean of 2D6 estimate %.4f, exact 7, z %.1f", m.Value, z)
	}
	// sd of 2D6 is sqrt(35/6) = 2.415; median 7; 5% and 95% quantiles 3 and 11
	// (P(2D6 <= 2) = 1/36 < 5% <= P(2D6 <= 3) = 3/36, and P(2D6 <= 10) =
	// 33/36 < 95% <= 35/36). A sample sd from n trials has standard error
	// sqrt((mu4 - sd^4) / (4 sd^2 n)), 0.0022 here (2D6's fourth central
	// moment mu4 is 80.5, by enumeration): 0.01 is 4.5 standard errors.
	if math.Abs(m.StdDev-math.Sqrt(35.0/6)) > 0.01 || m.Median != 7 || m.P05 != 3 || m.P95 != 11 {
		t.Errorf("summary sd %.3f median %v p05 %v p95 %v", m.StdDev, m.Median, m.P05, m.P95)
	}
}

func TestCancelGivesPartial(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	cfg := Config{Trials: 1 << 30, Seed: 1, Workers: 2, Progress: func(done, total int64) {
		if calls.Add(1) == 2 {
			cancel()
		}
	}}
	r, err := RunAll(ctx, []Model{rollModel{dice.MustParse("D6")}}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Partial || r.Completed[0] == 0 || r.Completed[0] >= cfg.Trials {
		t.Fatalf("cancelled run: partial %v, completed %d", r.Partial, r.Completed[0])
	}
	if got := r.Tallies[0].H[0].N(); got != r.Completed[0] {
		t.Fatalf("tally holds %d trials, completed says %d", got, r.Completed[0])
	}
	if r.Completed[0]%ChunkSize != 0 {
		t.Fatalf("completed %d is not whole chunks", r.Completed[0])
	}
}

type panicModel struct{}

func (panicModel) Slots() []Slot               { return nil }
func (panicModel) NewTrial() Trial             { return panicModel{} }
func (panicModel) Run(*dice.Rand, int, *Tally) { panic("boom") }

func TestPanicBecomesError(t *testing.T) {
	_, err := RunAll(context.Background(), []Model{panicModel{}}, Config{Trials: 10})
	if err == nil {
		t.Fatal("a panicking trial gave no error")
	}
}

// TestTrialAllocatesNothing: 100,000 trials, run again from the same
// stream once they have grown the histogram, allocate nothing; one run of
// them all counts every allocation, where testing.AllocsPerRun's count per
// run would round a rare one down. The least of three counts is taken:
// the process's count may take in the runtime's own allocations, and one
// of the trials' would come back every time.
func TestTrialAllocatesNothing(t *testing.T) {
	m := rollModel{dice.MustParse("3D6kh2")}
	tl := NewTally(m.Slots())
	r := dice.New(1, 0)
	least := math.Inf(1)
	for range 3 {
		least = min(least, testing.AllocsPerRun(1, func() { r.Seed(1, 0); m.Run(r, 100_000, tl) }))
	}
	if least != 0 {
		t.Fatalf("100,000 trials allocate %v times", least)
	}
}

// wasteful rolls 2D6 and records it, like rollModel, then throws three
// more dice it ignores: it reads more random numbers per trial.
type wasteful struct{ rollModel }

func (m wasteful) NewTrial() Trial { return m }
func (m wasteful) Run(r *dice.Rand, n int, t *Tally) {
	for range n {
		m.rollModel.Run(r, 1, t)
		r.D6()
		r.D6()
		r.D6()
	}
}

// TestAlignedTrialsArePaired: with Aligned, trial i of every model starts
// from the same random numbers, so two models that roll the same first dice
// record the same results even when one reads more numbers per trial.
// Without it, they drift apart within a chunk.
func TestAlignedTrialsArePaired(t *testing.T) {
	plain := rollModel{dice.MustParse("2D6")}
	extra := wasteful{plain}
	cfg := Config{Trials: 3*ChunkSize + 7, Seed: 5, Aligned: true, Workers: 3}
	r := run(t, cfg, plain, extra)
	if !r.Tallies[0].Equal(r.Tallies[1]) {
		t.Fatal("aligned trials of models rolling the same first dice differ")
	}
	cfg.Workers = 1
	if r1 := run(t, cfg, plain, extra); !r1.Tallies[1].Equal(r.Tallies[1]) {
		t.Fatal("aligned results depend on the worker count")
	}
	cfg.Aligned = false
	if r2 := run(t, cfg, plain, extra); r2.Tallies[0].Equal(r2.Tallies[1]) {
		t.Fatal("chunk streams stayed aligned although the models read different amounts")
	}
}

func TestBatches(t *testing.T) {
	cfg := Config{Trials: 10 * ChunkSize, Seed: 2, Batches: 4}
	r := run(t, cfg, rollModel{dice.MustParse("D6")})
	if len(r.Batches) != 4 {
		t.Fatalf("%d batches", len(r.Batches))
	}
	sum := NewTally(rollModel{dice.MustParse("D6")}.Slots())
	var n int64
	for _, b := range r.Batches {
		sum.Merge(b.Tallies[0])
		n += b.Completed[0]
	}
	if !sum.Equal(r.Tallies[0]) || n != cfg.Trials {
		t.Fatal("batches do not add up to the run")
	}
	// Chunks 0, 4, 8 go to batch 0: three chunks.
	if r.Batches[0].Completed[0] != 3*ChunkSize || r.Batches[3].Completed[0] != 2*ChunkSize {
		t.Errorf("batch sizes %d and %d", r.Batches[0].Completed[0], r.Batches[3].Completed[0])
	}
}

// TestRunRounds: rounds double until done, and their sum is the single run
// of the same trials.
func TestRunRounds(t *testing.T) {
	m := []Model{rollModel{dice.MustParse("2D6")}}
	rounds := 0
	r, err := RunRounds(context.Background(), m, Config{Trials: 1000, Seed: 4}, 1<<30, func(r Run) bool {
		rounds++
		return r.Completed[0] >= 8*ChunkSize
	})
	if err != nil {
		t.Fatal(err)
	}
	// 1 chunk, then 2, 4, 8: four rounds.
	if rounds != 4 || r.Completed[0] != 8*ChunkSize {
		t.Fatalf("%d rounds, %d trials", rounds, r.Completed[0])
	}
	whole := run(t, Config{Trials: 8 * ChunkSize, Seed: 4}, m...)
	if !whole.Tallies[0].Equal(r.Tallies[0]) {
		t.Fatal("rounds differ from one run of the same trials")
	}
	capped, _ := RunRounds(context.Background(), m, Config{Trials: 1000, Seed: 4}, 3*ChunkSize+5, func(Run) bool { return false })
	if capped.Completed[0] != 3*ChunkSize+5 {
		t.Fatalf("the cap gave %d trials", capped.Completed[0])
	}
}

// TestRunRoundsProgress: the progress of a run in rounds counts the whole
// run: done never falls back as a new round starts, and the total is what
// the round under way brings the run to, for every model. Two models, 1
// chunk then 2 and 4: the last round reports 8 chunks of 2 models done of
// 8, and every report before the last round's first has a total of 2 or 4
// chunks of 2 models.
func TestRunRoundsProgress(t *testing.T) {
	m := []Model{rollModel{dice.MustParse("2D6")}, rollModel{dice.MustParse("3D6")}}
	var mu sync.Mutex
	var dones, totals []int64
	cfg := Config{Trials: 1000, Seed: 4, Progress: func(done, total int64) {
		mu.Lock()
		dones, totals = append(dones, done), append(totals, total)
		mu.Unlock()
	}}
	r, err := RunRounds(context.Background(), m, cfg, 1<<30, func(r Run) bool { return r.Completed[0] >= 8*ChunkSize })
	if err != nil || r.Completed[0] != 8*ChunkSize {
		t.Fatalf("%v, %d trials", err, r.Completed[0])
	}
	last := int64(2 * 8 * ChunkSize)
	if n := len(dones); n == 0 || dones[n-1] != last || totals[n-1] != last {
		t.Fatalf("last report %d of %d, want %d of %d", dones[len(dones)-1], totals[len(totals)-1], last, last)
	}
	for i := range dones {
		if i > 0 && (dones[i] < dones[i-1] || totals[i] < totals[i-1]) {
			t.Errorf("report %d: %d of %d after %d of %d", i, dones[i], totals[i], dones[i-1], totals[i-1])
		}
		if dones[i] > totals[i] || !slices.Contains([]int64{2 * ChunkSize, 2 * 2 * ChunkSize, 2 * 4 * ChunkSize, last}, totals[i]) {
			t.Errorf("report %d: %d of %d", i, dones[i], totals[i])
		}
	}
}

// TestZOfAMeanUnderItsExactDistribution: a count that is 1 with chance
// 0.0027 and 0 otherwise (mean 0.0027, sd sqrt(0.0027 x 0.9973) = 0.05189)
// is 0 in all of 200 trials with chance 0.9973^200 = 58%: a likely
// outcome, 0.0027 / (0.05189 / sqrt(200)) = 0.74 standard errors below the
// exact mean, not an infinite gap. The sample has no spread, so z takes
// the standard error under the exact distribution, or under its exact
// spread given alone (WithExactSD). With neither, the sample's spread of 0
// measures no gap: z is NaN, not infinite. With an exact spread of 0, a
// sample that misses the exact value is infinitely far, with its sign.
func TestZOfAMeanUnderItsExactDistribution(t *testing.T) {
	var h Histogram
	h.AddN(0, 200)
	m := MeanOf("wounds", nil, &h).WithExactPMF(PMF{Min: 0, P: []float64{0.9973, 0.0027}})
	want := -0.0027 / (math.Sqrt(0.0027*0.9973) / math.Sqrt(200))
	if z := m.Z(); math.Abs(z-want) > 1e-9 {
		t.Errorf("z %v, want %v", z, want)
	}
	if z := MeanOf("wounds", nil, &h).WithExact(0.0027).WithExactSD(math.Sqrt(0.0027 * 0.9973)).Z(); math.Abs(z-want) > 1e-9 {
		t.Errorf("z under the exact spread alone %v, want %v", z, want)
	}
	if z := MeanOf("wounds", nil, &h).WithExact(0.0027).Z(); !math.IsNaN(z) {
		t.Errorf("z with no exact spread %v, want NaN", z)
	}
	if z := MeanOf("wounds", nil, &h).WithExact(1).WithExactSD(0).Z(); !math.IsInf(z, -1) {
		t.Errorf("z off an exact value of no spread %v, want -Inf", z)
	}
	// Every trial killed all ten, and the exact mean, 10 less a chance
	// below 1e-12 of fewer, came out 12 units of the last place (1.78e-15)
	// below 10 after rounding, with an exact spread of 1e-14: the gap is
	// rounding, not 337 standard errors (2.13e-14 / (1e-14 / sqrt(1e5))).
	// So it is at the most trials a run may ask for, 10^12 (shards).
	for _, n := range []int64{100_000, MaxTrials} {
		var ten Histogram
		ten.AddN(10, n)
		if z := MeanOf("casualties", nil, &ten).WithExact(10 - 2.13e-14).WithExactSD(1e-14).Z(); z != 0 {
			t.Errorf("z within the exact value's rounding over %d trials %v, want 0", n, z)
		}
	}
	// But one trial of 10^11 that scored 9 where the exact distribution
	// all but never does (spread 1e-10) is a gap of 1e-11, within 1e-12
	// of 10 and yet a whole trial's step: -1e-11 / (1e-10 / sqrt(1e11)) =
	// -31,623 standard errors, not 0.
	var odd Histogram
	odd.AddN(10, 1e11-1)
	odd.AddN(9, 1)
	if z, want := MeanOf("casualties", nil, &odd).WithExact(10).WithExactSD(1e-10).Z(), -1e-11/(1e-10/math.Sqrt(1e11)); math.Abs(z/want-1) > 1e-3 {
		t.Errorf("z of one trial off in 10^11 %v, want %v", z, want)
	}
	// Scaled (per 100 points of a 2,000-point unit: one trial's step is
	// worth 1/20), it keeps its z: the step scales with the value.
	if z, want := MeanOf("casualties", nil, &odd).WithExact(10).WithExactSD(1e-10).Scaled("per_100", nil, 100, 2000).Z(), -1e-11/(1e-10/math.Sqrt(1e11)); math.Abs(z/want-1) > 1e-3 {
		t.Errorf("scaled z of one trial off in 10^11 %v, want %v", z, want)
	}
	// A chance of 9.288e-13 (the Clanrats destroyed in the Doomwheel's
	// turn) never seen in 3,000 trials is that chance below it, over the
	// standard error under it: -9.288e-13 / sqrt(9.288e-13 / 3000) =
	// -5.28e-5, not rounding.
	p := ProbabilityOf("destroyed", nil, 0, 3000).WithExact(9.288e-13)
	if z, want := p.Z(), -9.288e-13/math.Sqrt(9.288e-13*(1-9.288e-13)/3000); math.Abs(z-want) > 1e-12 {
		t.Errorf("z of a tiny chance never seen %v, want %v", z, want)
	}
}

// TestScaledKeepsZ: a mean scaled by f (models killed per 100 points of a
// 72-point unit, f = 100/72) moves its estimate and its exact value by the
// same factor, so it lies as many standard errors from it as the count it
// scales: the same 0.74 below as in TestZOfAMeanUnderItsExactDistribution,
// not an infinite gap. Every number it reports is scaled, the exact
// standard deviation included.
func TestScaledKeepsZ(t *testing.T) {
	var h Histogram
	h.AddN(0, 200)
	m := MeanOf("models_killed", nil, &h).WithExactPMF(PMF{Min: 0, P: []float64{0.9973, 0.0027}})
	f := 100.0 / 72
	s := m.Scaled("models_killed_per_100_points", nil, 100, 72)
	want := -0.0027 / (math.Sqrt(0.0027*0.9973) / math.Sqrt(200))
	if z := s.Z(); math.Abs(z-want) > 1e-9 {
		t.Errorf("scaled z %v, want %v (the unscaled z %v)", z, want, m.Z())
	}
	if math.Abs(s.Exact-0.0027*f) > 1e-12 || math.Abs(s.ExactSD-math.Sqrt(0.0027*0.9973)*f) > 1e-12 {
		t.Errorf("scaled exact %v sd %v, want %v and %v", s.Exact, s.ExactSD, 0.0027*f, math.Sqrt(0.0027*0.9973)*f)
	}
	if s.Metric != "models_killed_per_100_points" || s.Hist != nil || s.ExactPMF != nil {
		t.Errorf("scaled %q keeps histogram %v, distribution %v; want neither", s.Metric, s.Hist, s.ExactPMF)
	}
	// A mean of 3 per 72 points is 300/72 per 100, to the last digit (the
	// nearest float64 to 25/6); 3 x (100/72) is a step below it.
	var three Histogram
	three.AddN(3, 10)
	if v := MeanOf("models_killed", nil, &three).Scaled("per_100", nil, 100, 72).Value; v != 25.0/6 {
		t.Errorf("3 per 72 points scaled to %v per 100, want 25/6 = %v", v, 25.0/6)
	}
}

// TestStoppedBeforeAnyTrial: a pool stopped before any item was done
// returns a partial run of no trials, its batches too, with histograms of
// one bin: nothing will be counted in them, and a large sweep's full ones
// for every batch took seconds to make for nothing.
func TestStoppedBeforeAnyTrial(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	models := []Model{rollModel{dice.MustParse("100D6")}, rollModel{dice.MustParse("2D6")}}
	r, err := RunAll(ctx, models, Config{Trials: 10 * ChunkSize, Seed: 1, Batches: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Partial || slices.Max(r.Completed) != 0 || len(r.Batches) != 4 {
		t.Fatalf("partial %v, completed %v, %d batches; want a partial run of no trials with 4 batches", r.Partial, r.Completed, len(r.Batches))
	}
	for _, run := range append([]Run{r}, r.Batches...) {
		for m, tl := range run.Tallies {
			// 100D6 would span 100 to 600: 501 bins.
			if n := len(tl.H[0].counts); n != 1 {
				t.Errorf("model %d: a histogram of %d bins for no trials", m, n)
			}
		}
	}
}
