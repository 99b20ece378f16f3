package scenarios

import (
	"math"
	"testing"

	"hammersim/mechanics/dice"
	"hammersim/sim"
)

// TestDiceModelsAllocateNothing: the trials of simulate dice, an
// expression or a query (a number or a condition), allocate nothing once
// their tally exists (sim.Trial's contract): 20,000 trials are run twice
// from the same stream, so that the second grows no histogram, and every
// allocation of the second counts (one run of them all, where
// testing.AllocsPerRun's count per run rounds a rare one down).
func TestDiceModelsAllocateNothing(t *testing.T) {
	models := []sim.Model{DiceModel(dice.MustParse("3D6kh2+D3+1"))}
	for _, s := range []string{"2D6 >= 9 and 3D6kh2 >= 10", "10D6 count 4+ reroll failures", "D6! + D66"} {
		q, err := dice.ParseQuery(s)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, QueryModel(q))
	}
	for _, m := range models {
		tl, tr, r := sim.NewTally(m.Slots()), m.NewTrial(), dice.New(1, 0)
		// The least of three: the process's count may take in the
		// runtime's own allocations; one of the trials' comes back.
		least := math.Inf(1)
		for range 3 {
			least = min(least, testing.AllocsPerRun(1, func() { r.Seed(1, 0); tr.Run(r, 20_000, tl) }))
		}
		if least != 0 {
			t.Errorf("%s: %v allocations in 20,000 trials", m.Slots()[0].Name, least)
		}
	}
}
