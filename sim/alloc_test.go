package sim

import (
	"context"
	"testing"

	"hammersim/mechanics/dice"
)

// TestPoolAllocatesPerRunNotPerChunk: the worker pool's hot path, claiming
// an item, seeding its stream, running its trials and settling a finished
// row, allocates nothing, so a run's allocations do not grow with its
// chunks. A run of 8 chunks and one of 40 make the same allocations
// (goroutines, tallies, the gathered result): tallies are made when a
// worker first needs them, and with 4 batches 8 chunks already reach every
// batch. Any allocation per chunk, per row or per trial would add at least
// 32 to the longer run.
func TestPoolAllocatesPerRunNotPerChunk(t *testing.T) {
	models := []Model{rollModel{dice.MustParse("2D6")}, rollModel{dice.MustParse("3D6kh2")}}
	for _, cfg := range []Config{
		{Seed: 1, Workers: 1},
		{Seed: 1, Workers: 1, Batches: 4},
		{Seed: 1, Workers: 1, Aligned: true},
		{Seed: 1, Workers: 1, Aligned: true, Batches: 4},
	} {
		allocs := func(chunks int64) float64 {
			c := cfg
			c.Trials = chunks * ChunkSize
			return testing.AllocsPerRun(2, func() {
				if _, err := RunAll(context.Background(), models, c); err != nil {
					t.Fatal(err)
				}
			})
		}
		short, long := allocs(8), allocs(40)
		if long != short {
			t.Errorf("aligned %v, batches %d: a run of 40 chunks allocates %v times, one of 8 chunks %v times",
				cfg.Aligned, cfg.Batches, long, short)
		}
	}
}
