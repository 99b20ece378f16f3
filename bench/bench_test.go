package bench

import (
	"context"
	"math/rand/v2"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"hammersim/mechanics/dice"
	"hammersim/scenarios"
	"hammersim/scenarios/fantasy"
	"hammersim/sim"
)

var sink int

// registry reads the built-ins the benchmarks run, all of them fantasy.
var registry = scenarios.NewRegistry(fantasy.Ruleset())

// BenchmarkGenerators compares the generator hammersim uses with the
// standard library's, per 64-bit output, and the cost of a D6 from the pool.
func BenchmarkGenerators(b *testing.B) {
	b.Run("xoshiro256ss", func(b *testing.B) {
		r := dice.New(1, 0)
		s := uint64(0)
		for b.Loop() {
			s += r.Uint64()
		}
		sink += int(s)
	})
	b.Run("xoshiro256ss-D6", func(b *testing.B) {
		r := dice.New(1, 0)
		s := 0
		for b.Loop() {
			s += r.D6()
		}
		sink += s
	})
	b.Run("PCG", func(b *testing.B) {
		r := rand.NewPCG(1, 2)
		s := uint64(0)
		for b.Loop() {
			s += r.Uint64()
		}
		sink += int(s)
	})
	b.Run("ChaCha8", func(b *testing.B) {
		r := rand.NewChaCha8([32]byte{1})
		s := uint64(0)
		for b.Loop() {
			s += r.Uint64()
		}
		sink += int(s)
	})
	b.Run("PCG-IntN6", func(b *testing.B) {
		r := rand.New(rand.NewPCG(1, 2))
		s := 0
		for b.Loop() {
			s += r.IntN(6) + 1
		}
		sink += s
	})
}

// chargeModels returns the models of the default charge sweep.
func chargeModels(b *testing.B) (*scenarios.Scenario, []sim.Model) {
	s, err := registry.Load("swiftstride-charge")
	if err != nil {
		b.Fatal(err)
	}
	return s, s.Models
}

// BenchmarkChargeTrial times one charge trial (roll the charge range,
// record it) and, in the same run, the raw D6 draws that trial consumes, and
// reports their ratio. The trials are those of the default sweep, all 14
// (M, Swiftstride) models in turn, so the dice per trial average over the
// four roll types (2 or 3 dice).
func BenchmarkChargeTrial(b *testing.B) {
	_, models := chargeModels(b)
	trials := make([]sim.Trial, len(models))
	tallies := make([]*sim.Tally, len(models))
	for i, m := range models {
		trials[i] = m.NewTrial()
		tallies[i] = sim.NewTally(m.Slots())
	}
	// Dice per trial of each model: 2 for the 2D6 rolls, 3 for the 3D6 ones.
	diceSum := 0
	for _, m := range models {
		if strings.Contains(m.Slots()[0].Name, "3D6") {
			diceSum += 3
		} else {
			diceSum += 2
		}
	}
	const n = 4096
	r := dice.New(1, 0)
	var trialTime, drawTime time.Duration
	var count int64
	for b.Loop() {
		t0 := time.Now()
		for i := range trials {
			trials[i].Run(r, n, tallies[i])
		}
		t1 := time.Now()
		s := 0
		for range n * diceSum {
			s += r.D6()
		}
		sink += s
		drawTime += time.Since(t1)
		trialTime += t1.Sub(t0)
		count += int64(n * len(trials))
	}
	perTrial := float64(trialTime.Nanoseconds()) / float64(count)
	perDraws := float64(drawTime.Nanoseconds()) / float64(count)
	b.ReportMetric(perTrial, "ns/trial")
	b.ReportMetric(perDraws, "ns-draws/trial")
	b.ReportMetric(perTrial/perDraws, "trial/draws")
	b.ReportMetric(float64(diceSum)/float64(len(models)), "dice/trial")
}

// runSweep runs the default charge sweep, 7 M x 2 Swiftstride x 30
// distances, at trials per point, and reads every point's estimate.
func runSweep(b *testing.B, s *scenarios.Scenario, trials int64, workers int) time.Duration {
	start := time.Now()
	run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: trials, Seed: 1, Workers: workers})
	if err != nil {
		b.Fatal(err)
	}
	res := s.Results(run)
	if len(res) != 7*2*30+14 {
		b.Fatalf("%d results", len(res))
	}
	return time.Since(start)
}

// BenchmarkChargeSweep is the end-to-end target: the whole default sweep at
// one million trials per point, on 1 and 2 workers (or more where the
// machine has them), with the speed-up of 2 workers over 1 measured in the
// same run.
func BenchmarkChargeSweep(b *testing.B) {
	s, _ := chargeModels(b)
	workers := []int{1}
	if n := runtime.NumCPU(); n >= 2 {
		workers = append(workers, 2)
		if n > 2 {
			workers = append(workers, n)
		}
	}
	for _, w := range workers {
		b.Run("workers="+strconv.Itoa(w), func(b *testing.B) {
			for b.Loop() {
				runSweep(b, s, 1_000_000, w)
			}
		})
	}
	if runtime.NumCPU() < 2 {
		return
	}
	b.Run("speedup-2-over-1", func(b *testing.B) {
		var one, two time.Duration
		for b.Loop() {
			one += runSweep(b, s, 1_000_000, 1)
			two += runSweep(b, s, 1_000_000, 2)
		}
		b.ReportMetric(float64(one)/float64(two), "speedup")
	})
}

// BenchmarkPeerNumpy runs the peer baseline, a vectorised numpy script of
// the same sweep (bench/peer/charge_sweep.py), and hammersim's sweep on all
// workers in the same run, and reports both times and their ratio. It is
// skipped where python3 with numpy is missing (bench/run.sh installs it).
func BenchmarkPeerNumpy(b *testing.B) {
	python := pythonWithNumpy()
	if python == "" {
		b.Skip("python3 with numpy is not installed (bench/run.sh installs python3-numpy)")
	}
	s, _ := chargeModels(b)
	var ours, peer float64
	for b.Loop() {
		out, err := exec.Command(python, "peer/charge_sweep.py", "1000000").Output()
		if err != nil {
			b.Fatal(err)
		}
		secs, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
		if err != nil {
			b.Fatalf("peer printed %q", out)
		}
		peer += secs
		ours += runSweep(b, s, 1_000_000, 0).Seconds()
	}
	n := float64(b.N)
	b.ReportMetric(ours/n, "hammersim-s")
	b.ReportMetric(peer/n, "numpy-s")
	b.ReportMetric(peer/ours, "numpy/hammersim")
}

// pythonWithNumpy returns a python3 that can import numpy: the one on PATH,
// or Debian's (where python3-numpy installs it), or "" when neither can.
func pythonWithNumpy() string {
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import numpy").Run() == nil {
			return p
		}
	}
	return ""
}

// BenchmarkDoomwheelTurn times full-turn trials of doomwheel-vs-clanrats
// (random move charge, Zzzzap!, a round of combat, break test, pursuit) on 1
// and 2 workers through the engine, and reports trials per second.
func BenchmarkDoomwheelTurn(b *testing.B) {
	s, err := registry.Load("doomwheel-vs-clanrats")
	if err != nil {
		b.Fatal(err)
	}
	const trials = 200_000
	for _, w := range []int{1, 2} {
		if w > runtime.NumCPU() {
			continue
		}
		b.Run("workers="+strconv.Itoa(w), func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				start := time.Now()
				if _, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: trials, Seed: 1, Workers: w}); err != nil {
					b.Fatal(err)
				}
				total += time.Since(start)
			}
			n := float64(b.N) * trials * float64(len(s.Models))
			b.ReportMetric(n/total.Seconds(), "trials/s")
		})
	}
}

// BenchmarkCombatToTheEnd runs the built-in doomwheel-full-combat (random
// move charge, Zzzzap!, then rounds until one side breaks, flees or is
// destroyed) through the engine on 2 workers, and in the same run draws as
// many raw D6 results on 2 goroutines as those trials consume. Runs of the
// scenario and of the raw draws alternate in short pieces (10,000 trials
// per model), so that a busy machine slows both alike. It reports the D6
// draws a trial consumes (counted, draws/trial), a trial's cost (ns/trial,
// wall time over trials, on 2 workers), and trial/draws, the time of the
// trials over the time of their draws alone; both are medians over the
// pieces, so that a piece the scheduler interrupted does not count.
func BenchmarkCombatToTheEnd(b *testing.B) {
	s, err := registry.Load("doomwheel-full-combat")
	if err != nil {
		b.Fatal(err)
	}
	const workers, trials, pieces = 2, 10_000, 10
	perTrial := drawsPerTrial(b, s.Models, 2000)
	perPiece := float64(trials * len(s.Models))
	draws := int64(perTrial * perPiece)
	var perTrialNs, ratios []float64
	for b.Loop() {
		for k := range pieces {
			start := time.Now()
			cfg := sim.Config{Trials: trials, Seed: uint64(k) + 1, Workers: workers}
			if _, err := sim.RunAll(context.Background(), s.Models, cfg); err != nil {
				b.Fatal(err)
			}
			trialTime := time.Since(start)
			drawTime := rawDraws(draws, workers)
			perTrialNs = append(perTrialNs, float64(trialTime.Nanoseconds())/perPiece)
			ratios = append(ratios, float64(trialTime)/float64(drawTime))
		}
	}
	b.ReportMetric(perTrial, "draws/trial")
	b.ReportMetric(median(perTrialNs), "ns/trial")
	b.ReportMetric(median(ratios), "trial/draws")
}

// median returns the median of xs, which it sorts.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// drawsPerTrial counts the D6 results the first n trials of each model
// draw, on average: after each trial a twin generator, from the same seed,
// draws D6 results one at a time until its whole state equals the trial's.
// Every die of these models is read from the D6 pool, so the count is exact.
func drawsPerTrial(b *testing.B, models []sim.Model, n int) float64 {
	total := 0
	for _, m := range models {
		trial, tally := m.NewTrial(), sim.NewTally(m.Slots())
		r, twin := dice.New(1, 0), dice.New(1, 0)
		for range n {
			trial.Run(r, 1, tally)
			for *twin != *r {
				twin.D6()
				total++
				if total > 1<<30 {
					b.Fatal("a trial drew something other than D6 results")
				}
			}
		}
	}
	return float64(total) / float64(n*len(models))
}

// rawDraws draws n D6 results split over workers goroutines, each from its
// own generator, and returns the wall time.
func rawDraws(n int64, workers int) time.Duration {
	start := time.Now()
	done := make(chan int, workers)
	for w := range workers {
		go func() {
			r := dice.New(uint64(w)+1, 7)
			s := 0
			for range n / int64(workers) {
				s += r.D6()
			}
			done <- s
		}()
	}
	for range workers {
		sink += <-done
	}
	return time.Since(start)
}

// BenchmarkScaling measures how the worker pool scales: the built-in
// doomwheel-full-combat (whole combats, the heaviest trials of the library)
// at 1, 2, 4, ... workers up to the machine's cores, each worker count run
// in turn within every iteration so that all of them see the same machine
// load, and reports each count's speed-up over one worker (wall time of 1
// worker over wall time of w workers).
func BenchmarkScaling(b *testing.B) {
	s, err := registry.Load("doomwheel-full-combat")
	if err != nil {
		b.Fatal(err)
	}
	const trials = 100_000
	workers := []int{1}
	for w := 2; w <= runtime.NumCPU(); w *= 2 {
		workers = append(workers, w)
	}
	if n := runtime.NumCPU(); n != workers[len(workers)-1] {
		workers = append(workers, n)
	}
	// One untimed run first, so that nothing done once per process (page
	// faults, tables built on first use) is charged to the first count.
	if _, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: trials, Seed: 1, Workers: workers[len(workers)-1]}); err != nil {
		b.Fatal(err)
	}
	total := make([]time.Duration, len(workers))
	for b.Loop() {
		for i, w := range workers {
			start := time.Now()
			if _, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: trials, Seed: 1, Workers: w}); err != nil {
				b.Fatal(err)
			}
			total[i] += time.Since(start)
		}
	}
	for i, w := range workers[1:] {
		b.ReportMetric(float64(total[0])/float64(total[i+1]), "speedup-"+strconv.Itoa(w))
	}
}
