package scenarios

import (
	"hammersim/mechanics/dice"
	"hammersim/sim"
)

// DiceModel is the model of `simulate dice`: each trial rolls the
// expression once and records the result.
func DiceModel(e dice.Expr) sim.Model { return diceModel{e} }

type diceModel struct{ e dice.Expr }

func (m diceModel) Slots() []sim.Slot {
	return []sim.Slot{{Name: m.e.String(), Lo: m.e.Min(), Hi: m.e.Max()}}
}

func (m diceModel) NewTrial() sim.Trial { return m }

func (m diceModel) Run(r *dice.Rand, n int, t *sim.Tally) {
	h := &t.H[0]
	for range n {
		h.Add(m.e.Roll(r))
	}
}
