package bench

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"hammersim/scenarios"
	"hammersim/sim"
)

// shardHeader is what the command line puts in a run's parts.
func shardHeader(s *scenarios.Scenario) sim.PartHeader {
	return sim.PartHeader{Program: "hammersim", Version: "bench", Command: "run", Args: []string{s.Name},
		Inputs: []sim.Input{{Name: s.Name, File: s.File, SHA256: s.SHA256, Source: string(s.Source)}}}
}

// oneRun is the single-machine path: parse the scenario, run every chunk,
// merge the one part, read the estimates.
func oneRun(b *testing.B, name string, cfg sim.Config) time.Duration {
	start := time.Now()
	s, err := registry.Load(name)
	if err != nil {
		b.Fatal(err)
	}
	run, err := sim.RunAll(context.Background(), s.Models, cfg)
	if err != nil {
		b.Fatal(err)
	}
	merged, err := sim.Merge([]sim.NamedPart{{Name: "one", Part: sim.WholeRun(shardHeader(s), cfg, run)}})
	if err != nil {
		b.Fatal(err)
	}
	sink += len(s.Results(merged.Runs[0]))
	return time.Since(start)
}

// shardedRun is the same run cut into n shards run one after the other, as
// n processes would: each parses the scenario, runs its chunks and writes
// its part; then the merge reads the parts, adds them, parses the scenario
// and reads the estimates. It returns the shards' time and the merge's.
func shardedRun(b *testing.B, name string, cfg sim.Config, n int) (shards, merge time.Duration) {
	start := time.Now()
	files := make([][]byte, n)
	for i := range n {
		s, err := registry.Load(name)
		if err != nil {
			b.Fatal(err)
		}
		p, err := sim.RunShard(context.Background(), [][]sim.Model{s.Models}, cfg, sim.Shard{Index: i, Count: n}, shardHeader(s))
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		if err := sim.WritePart(&buf, p); err != nil {
			b.Fatal(err)
		}
		files[i] = buf.Bytes()
	}
	mid := time.Now()
	parts := make([]sim.NamedPart, n)
	for i, f := range files {
		p, err := sim.ReadPart(fmt.Sprint(i), bytes.NewReader(f))
		if err != nil {
			b.Fatal(err)
		}
		parts[i] = sim.NamedPart{Name: fmt.Sprint(i), Part: p}
	}
	merged, err := sim.Merge(parts)
	if err != nil {
		b.Fatal(err)
	}
	if err := merged.Complete(); err != nil {
		b.Fatal(err)
	}
	s, err := registry.Load(name)
	if err != nil {
		b.Fatal(err)
	}
	sink += len(s.Results(merged.Runs[0]))
	return mid.Sub(start), time.Since(mid)
}

// BenchmarkSharding measures what cutting a run into shards costs over
// running it whole, in the same iteration: the work of all shards, run one
// after the other on the same workers, plus the merge, over the single run
// ("sharded/one"), and the merge alone over the single run ("merge/one").
// Process start-up and file transfer, which depend on the batch engine, are
// not included. 256 chunks of 16,384 trials: 4.2 million trials per point.
func BenchmarkSharding(b *testing.B) {
	for _, name := range []string{"swiftstride-charge", "doomwheel-vs-clanrats"} {
		trials := int64(256 * sim.ChunkSize)
		if name == "doomwheel-vs-clanrats" {
			trials = 32 * sim.ChunkSize // about 1.5 s a run on 2 cores
		}
		cfg := sim.Config{Trials: trials, Seed: 1, Workers: 2}
		for _, n := range []int{4, 16, 64} {
			b.Run(name+"/shards="+strconv.Itoa(n), func(b *testing.B) {
				var one, shards, merge time.Duration
				for b.Loop() {
					one += oneRun(b, name, cfg)
					s, m := shardedRun(b, name, cfg, n)
					shards += s
					merge += m
				}
				b.ReportMetric(float64(shards+merge)/float64(one), "sharded/one")
				b.ReportMetric(float64(merge)/float64(one), "merge/one")
				b.ReportMetric(float64(merge.Microseconds())/float64(b.N), "merge-µs")
			})
		}
	}
}
