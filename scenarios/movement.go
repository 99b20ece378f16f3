package scenarios

import (
	"hammersim/mechanics/dice"
	"hammersim/mechanics/fantasy"
	"hammersim/sim"
)

func init() {
	rulesets["fantasy"] = &ruleset{
		name:      "fantasy",
		catalogue: fantasy.Catalogue,
		questions: map[string]func(*decoder, *node, *ruleset) compiler{
			"charge":  decodeCharge,
			"pursuit": decodePursuit,
			"battle":  decodeBattle,
		},
	}
}

// moverOf reads a unit's movement from its M and rules.
func moverOf(d *decoder, u *unit) (fantasy.Mover, bool) {
	m := fantasy.Mover{M: u.M}
	if _, ok := u.rule(fantasy.RuleSwiftstride); ok {
		m.Swiftstride = true
	}
	if r, ok := u.rule(fantasy.RuleRandomMovement); ok {
		m.Random = r.Dice
	}
	if r, ok := u.rule(fantasy.RuleFly); ok {
		m.Fly = r.Int
	}
	if r, ok := u.rule(fantasy.RuleTunneller); ok {
		if m.Fly != 0 {
			d.errorf(u.ruleNode(fantasy.RuleTunneller), "%s has both Fly and Tunneller; a Tunneller moves as a flyer already, keep one", u.Name)
			return m, false
		}
		m.Fly, m.Tunneller = r.Int, true
	}
	if !u.HasM && m.Random.IsZero() {
		d.errorf(u.spec.node, "unit %q needs M (its Movement), unless it has Random Movement", u.Name)
		return m, false
	}
	return m, true
}

// reachModel rolls one move per trial and records the distance; lo and hi
// bound the dice's results.
type reachModel struct {
	move   fantasy.Move
	lo, hi int
}

func newReachModel(mv fantasy.Move) reachModel {
	d := mv.Dice.Dist()
	return reachModel{move: mv, lo: d.Min, hi: d.Max()}
}

func (m reachModel) Slots() []sim.Slot {
	d := m.move.Dist()
	return []sim.Slot{{Name: m.move.String(), Lo: d.Min, Hi: d.Max()}}
}

func (m reachModel) NewTrial() sim.Trial { return m }

func (m reachModel) Run(r *dice.Rand, n int, t *sim.Tally) {
	// The charge sweep's hot loop: count the rolls straight into the
	// histogram's span of the distances the move can reach.
	m.move.Dice.Count(r, n, t.H[0].Span(m.move.Base+m.lo, m.move.Base+m.hi), m.lo)
}

// pursuitModel rolls a flee and then a pursuit, and records 1 when the
// pursuit roll equals or beats the flee roll (caught), else 0.
type pursuitModel struct{ flee, pursue fantasy.Move }

func (m pursuitModel) Slots() []sim.Slot { return []sim.Slot{{Name: "caught", Lo: 0, Hi: 1}} }

func (m pursuitModel) NewTrial() sim.Trial { return m }

func (m pursuitModel) Run(r *dice.Rand, n int, t *sim.Tally) {
	h := &t.H[0]
	for range n {
		f := m.flee.Roll(r)
		if m.pursue.Roll(r) >= f {
			h.Add(1)
		} else {
			h.Add(0)
		}
	}
}

// params lists the values of every axis at a point, as results show them.
func params(axes []*axis, pt point) []sim.Param {
	out := make([]sim.Param, len(axes))
	for i, a := range axes {
		out[i] = sim.Param{Name: a.name, Value: a.values[pt[i]]}
	}
	return out
}

// trialParams lists the values of the axes that are not readouts.
func trialParams(axes []*axis, pt point) []sim.Param {
	var out []sim.Param
	for i, a := range axes {
		if !a.readout {
			out = append(out, sim.Param{Name: a.name, Value: a.values[pt[i]]})
		}
	}
	return out
}

// groups builds one model per combination of the non-readout axes, by
// calling build at the first point of each, and returns the models with a
// lookup from any point to its model's index.
func groups(axes []*axis, build func(pt point) (sim.Model, bool)) ([]sim.Model, func(point) int, bool) {
	index := map[string]int{}
	var models []sim.Model
	ok := true
	eachPoint(axes, func(pt point) {
		key := groupKey(axes, pt)
		if _, seen := index[key]; seen {
			return
		}
		m, good := build(pt)
		ok = ok && good
		index[key] = len(models)
		models = append(models, m)
	})
	return models, func(pt point) int { return index[groupKey(axes, pt)] }, ok
}

// decodeCharge reads a charge question: a unit charges an enemy at each
// distance. One model per unit profile rolls the charge range; every
// distance is read from its distribution, so a distance sweep costs nothing.
//
//	charge:
//	  unit: {name: Knights, M: 7, rules: [Swiftstride]}
//	  distance: 1..30
//	  flying: true   # flyers make flying charges (the default)
//	  table: wap     # or 8th, to compare with 8th edition's rolls
//
// Metrics: charge_success (range >= distance) per point, charge_reach (the
// range's distribution) per profile.
func decodeCharge(d *decoder, n *node, rs *ruleset) compiler {
	var (
		units    Param[*unitSpec]
		distance Param[int]
		flying   = fixed(true)
		table    = fixed(fantasy.TableWAP)
	)
	d.object(n, "the charge", []field{
		{key: "unit", required: true, decode: func(n *node) { units = unitParam(d, n, "unit", rs) }},
		{key: "distance", required: true, decode: func(n *node) {
			distance = sweep(d, n, "distance", true, func(n *node) (int, bool) { return d.intIn(n, "distance", 1, 100) }, identity)
			if i, ok := distance.axisIndex(); ok {
				d.axes[i].readout = true
			}
		}},
		{key: "flying", decode: func(n *node) {
			flying = sweep(d, n, "flying", false, func(n *node) (bool, bool) { return d.boolean(n, "flying") }, identity)
		}},
		{key: "table", decode: func(n *node) {
			table = sweep(d, n, "table", false, func(n *node) (fantasy.Table, bool) {
				switch w := d.text(n, "the movement table"); w {
				case "wap":
					return fantasy.TableWAP, true
				case "8th":
					return fantasy.Table8th, true
				case "":
					return 0, false
				default:
					d.errorf(n, "unknown table %q; expected wap (the Warhammer Armies Project's) or 8th", w)
					return 0, false
				}
			}, func(t fantasy.Table) any { return [...]string{"wap", "8th"}[t] })
		}},
	})
	return func(d *decoder, axes []*axis, s *Scenario) {
		if !units.Set() || !distance.Set() {
			return
		}
		models, group, ok := groups(axes, func(pt point) (sim.Model, bool) {
			mover, ok := moverOf(d, units.At(pt).at(pt))
			mover.Table = table.At(pt)
			mv := mover.Move(fantasy.Charge, flying.At(pt))
			return newReachModel(mv), ok
		})
		if !ok {
			return
		}
		dists := make([]dice.Dist, len(models))
		for i, m := range models {
			dists[i] = m.(reachModel).move.Dist()
		}
		reach := func(g int) dice.Dist { return dists[g] }
		s.Models = models
		s.Grid = chargeGrid(axes)
		s.results = func(run sim.Run) []sim.Estimate {
			var out []sim.Estimate
			eachPoint(axes, func(pt point) {
				g := group(pt)
				h := &run.Tallies[g].H[0]
				dist := distance.At(pt)
				e := sim.ProbabilityOf("charge_success", params(axes, pt), h.CountAtLeast(dist), run.Completed[g])
				out = append(out, e.WithExact(reach(g).AtLeast(dist)))
			})
			done := map[int]bool{}
			eachPoint(axes, func(pt point) {
				g := group(pt)
				if done[g] {
					return
				}
				done[g] = true
				e := sim.MeanOf("charge_reach", trialParams(axes, pt), &run.Tallies[g].H[0])
				out = append(out, e.WithExact(reach(g).Mean()))
			})
			return out
		}
	}
}

// chargeGrid lays charge_success out with distance down the rows and the
// non-readout axis with the most values (usually M) across the columns.
func chargeGrid(axes []*axis) *sim.Grid {
	cols := ""
	best := 0
	for _, a := range axes {
		if !a.readout && len(a.values) > best {
			cols, best = a.name, len(a.values)
		}
	}
	if cols == "" {
		return nil
	}
	for _, a := range axes {
		if a.readout {
			return &sim.Grid{Metric: "charge_success", Rows: a.name, Cols: cols}
		}
	}
	return nil
}

// decodePursuit reads a flee-and-pursuit question: one unit flees, another
// pursues, and the pursuer catches it when its roll equals or beats the
// flee roll (RULES-FACTS.md).
//
//	pursuit:
//	  fleeing: {name: Clanrats, M: 5}
//	  pursuing: [{name: Knights, M: 7, rules: [Swiftstride]}, ...]
//
// Metric: caught, with its exact value. (`simulate dice` shows the flee and
// pursuit rolls themselves.)
func decodePursuit(d *decoder, n *node, rs *ruleset) compiler {
	var fleeing, pursuing Param[*unitSpec]
	d.object(n, "the pursuit", []field{
		{key: "fleeing", required: true, decode: func(n *node) { fleeing = unitParam(d, n, "fleeing", rs) }},
		{key: "pursuing", required: true, decode: func(n *node) { pursuing = unitParam(d, n, "pursuing", rs) }},
	})
	return func(d *decoder, axes []*axis, s *Scenario) {
		if !fleeing.Set() || !pursuing.Set() {
			return
		}
		models, group, ok := groups(axes, func(pt point) (sim.Model, bool) {
			f, okF := moverOf(d, fleeing.At(pt).at(pt))
			p, okP := moverOf(d, pursuing.At(pt).at(pt))
			return pursuitModel{flee: f.Move(fantasy.Flee, false), pursue: p.Move(fantasy.Pursue, false)}, okF && okP
		})
		if !ok {
			return
		}
		s.Models = models
		s.results = func(run sim.Run) []sim.Estimate {
			var out []sim.Estimate
			eachPoint(axes, func(pt point) {
				g := group(pt)
				m := models[g].(pursuitModel)
				e := sim.ProbabilityOf("caught", params(axes, pt), run.Tallies[g].H[0].Count(1), run.Completed[g])
				out = append(out, e.WithExact(fantasy.CaughtProbability(m.flee, m.pursue)))
			})
			return out
		}
	}
}
