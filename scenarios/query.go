package scenarios

import (
	"hammersim/mechanics/dice"
	"hammersim/sim"
)

// QueryModel is the model of `simulate dice` for a query: each trial rolls
// it once and records the number, or 1 when a condition held and 0 when
// it did not.
func QueryModel(q *dice.Query) sim.Model { return queryModel{q} }

type queryModel struct{ q *dice.Query }

func (m queryModel) Slots() []sim.Slot {
	if m.q.IsCondition() {
		return []sim.Slot{{Name: m.q.String(), Lo: 0, Hi: 1}}
	}
	d := m.q.Dist()
	return []sim.Slot{{Name: m.q.String(), Lo: d.Min, Hi: d.Max()}}
}

func (m queryModel) NewTrial() sim.Trial { return m }

func (m queryModel) Run(r *dice.Rand, n int, t *sim.Tally) {
	h := &t.H[0]
	if m.q.IsCondition() {
		for range n {
			if m.q.Holds(r) {
				h.Add(1)
			} else {
				h.Add(0)
			}
		}
		return
	}
	for range n {
		h.Add(m.q.Roll(r))
	}
}
