package fantasy

import (
	"fmt"
	"slices"

	"hammersim/mechanics/dice"
	rules "hammersim/mechanics/fantasy"
	"hammersim/scenarios"
	"hammersim/sim"
)

// moverOf reads a unit's movement from its M and rules.
func moverOf(d *scenarios.Decoder, u *unit) (rules.Mover, bool) {
	m := rules.Mover{M: u.M}
	if _, ok := u.rule(rules.RuleSwiftstride); ok {
		m.Swiftstride = true
	}
	if r, ok := u.rule(rules.RuleRandomMovement); ok {
		m.Random = r.Dice
	}
	if r, ok := u.rule(rules.RuleFly); ok {
		m.Fly = r.Int
	}
	if r, ok := u.rule(rules.RuleTunneller); ok {
		if m.Fly != 0 {
			d.Errorf(u.ruleNode(rules.RuleTunneller), "%s has both Fly and Tunneller; a Tunneller moves as a flyer already, keep one", u.Name)
			return m, false
		}
		m.Fly, m.Tunneller = r.Int, true
	}
	if !u.HasM && m.Random.IsZero() {
		d.Errorf(u.spec.node, "unit %q needs M (its Movement), unless it has Random Movement", u.Name)
		return m, false
	}
	return m, true
}

// reachModel rolls one move per trial and records the distance; lo and hi
// bound the dice's results.
type reachModel struct {
	move   rules.Move
	lo, hi int
}

func newReachModel(mv rules.Move) reachModel {
	return reachModel{move: mv, lo: mv.Dice.Min(), hi: mv.Dice.Max()}
}

func (m reachModel) Slots() []sim.Slot {
	return []sim.Slot{{Name: m.move.String(), Lo: m.move.Base + m.lo, Hi: m.move.Base + m.hi}}
}

func (m reachModel) NewTrial() sim.Trial { return m }

func (m reachModel) Run(r *dice.Rand, n int, t *sim.Tally) {
	// The charge sweep's hot loop: count the rolls straight into the
	// histogram's span of the distances the move can reach.
	m.move.Dice.Count(r, n, t.H[0].Span(m.move.Base+m.lo, m.move.Base+m.hi), m.lo)
}

// pursuitModel rolls a flee and then a pursuit, and records 1 when the
// pursuit roll equals or beats the flee roll (caught), else 0.
type pursuitModel struct{ flee, pursue rules.Move }

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
// flying may be given on the charge, for every unit, or on each unit, as
// in a battle; not in both places.
//
// Metrics: charge_success (range >= distance) per point, charge_reach (the
// range's distribution) per profile.
func decodeCharge(d *scenarios.Decoder, n *scenarios.Node) scenarios.Compile {
	var (
		units      scenarios.Param[*unitSpec]
		distance   scenarios.Param[int]
		flying     = scenarios.Fixed(true)
		flyingNode *scenarios.Node // where the charge's own flying is written
		tableNode  *scenarios.Node // and its table
		table      = scenarios.Fixed(rules.TableWAP)
	)
	d.Object(n, "the charge", []scenarios.Field{
		{Key: "unit", Required: true, Decode: func(n *scenarios.Node) { units = unitParam(d, n, "unit") }},
		{Key: "distance", Required: true, Decode: func(n *scenarios.Node) {
			distance = scenarios.Sweep(d, n, "distance", true, func(n *scenarios.Node) (int, bool) { return d.IntIn(n, "distance", 1, 100) }, scenarios.Identity)
			scenarios.Readout(d, distance)
		}},
		{Key: "flying", Decode: func(n *scenarios.Node) {
			flying = scenarios.Sweep(d, n, "flying", false, func(n *scenarios.Node) (bool, bool) { return d.Boolean(n, "flying") }, scenarios.Identity)
			flyingNode = n
		}},
		{Key: "table", Decode: func(n *scenarios.Node) {
			table = scenarios.Sweep(d, n, "table", false, func(n *scenarios.Node) (rules.Table, bool) { return movementTable(d, n) },
				func(t rules.Table) any { return [...]string{"wap", "8th"}[t] })
			tableNode = n
		}},
	})
	return func(d *scenarios.Decoder, axes scenarios.Axes) scenarios.Compiled {
		if !units.Set() || !distance.Set() {
			return scenarios.Compiled{}
		}
		good := true
		for _, u := range units.Values() {
			flies := flying.Values()
			if f, set := u.flags["flying"]; set {
				flies = f.Values()
			}
			good = refuseUnread(d, u, "a charge question", false, !slices.Contains(flies, false)) && good
			good = u.checkTroopRules(d) && good
			if at, set := u.nodes["flying"]; set && flyingNode != nil {
				// Both say whether the unit charges by flying: one would be
				// ignored.
				d.Errorf(at, "flying is given on unit %q and on the charge (line %d, column %d); give it in one place: on the charge for every unit, or on each unit", u.name, flyingNode.Line, flyingNode.Col)
				good = false
			}
		}
		if !good {
			return scenarios.Compiled{}
		}
		anyFlies, anyRolls := false, false
		models, group, ok := axes.Groups(func(pt scenarios.Point) (sim.Model, bool) {
			if d.Stopped() {
				return nil, false
			}
			u := units.At(pt).at(pt)
			mover, ok := moverOf(d, u)
			anyFlies = anyFlies || mover.Fly > 0
			anyRolls = anyRolls || mover.Random.IsZero()
			if n, why := flyingUnread(u, mover); why != "" {
				d.Errorf(n, "%s", why)
				ok = false
			}
			mover.Table = table.At(pt)
			fly := flying.At(pt)
			if f, set := u.flags["flying"]; set {
				fly = f // the unit's own, as in a battle
			}
			mv := mover.Move(rules.Charge, fly)
			return newReachModel(mv), ok
		})
		if ok && flyingNode != nil && !anyFlies {
			d.Errorf(flyingNode, "flying on the charge, whose units have no Fly or Tunneller: they charge on the ground, so flying decides nothing; remove it")
			ok = false
		}
		if ok && tableNode != nil && !anyRolls {
			d.Errorf(tableNode, "table on the charge, whose units move by Random Movement: its roll is the whole of the move on either table, so table decides nothing; remove it")
			ok = false
		}
		if !ok {
			return scenarios.Compiled{}
		}
		var c scenarios.Compiled
		c.Models = models
		c.Grid = chargeGrid(axes)
		c.Results = chargeResults(axes, models, group, distance)
		return c
	}
}

// chargeResults reports a charge question's run: charge_success at each
// point, and charge_reach once for each model (the distance is read off
// it), each with its exact value from the move's distribution.
func chargeResults(axes scenarios.Axes, models []sim.Model, group func(scenarios.Point) int, distance scenarios.Param[int]) func(sim.Run) []sim.Estimate {
	reach := make([]dice.Dist, len(models))
	for i, m := range models {
		reach[i] = m.(reachModel).move.Dist()
	}
	return func(run sim.Run) []sim.Estimate {
		var out []sim.Estimate
		axes.Each(func(pt scenarios.Point) {
			g := group(pt)
			h := &run.Tallies[g].H[0]
			dist := distance.At(pt)
			e := sim.ProbabilityOf("charge_success", axes.Params(pt), h.CountAtLeast(dist), run.Completed[g])
			out = append(out, e.WithExact(reach[g].AtLeast(dist)))
		})
		done := map[int]bool{}
		axes.Each(func(pt scenarios.Point) {
			g := group(pt)
			if done[g] {
				return
			}
			done[g] = true
			e := sim.MeanOf("charge_reach", axes.TrialParams(pt), &run.Tallies[g].H[0]).AtLeast(0)
			out = append(out, e.WithExactPMF(sim.PMF{Min: reach[g].Min, P: reach[g].P}))
		})
		return out
	}
}

// movementTable reads which edition's movement rolls a charge uses.
func movementTable(d *scenarios.Decoder, n *scenarios.Node) (rules.Table, bool) {
	switch w := d.Text(n, "the movement table"); w {
	case "wap":
		return rules.TableWAP, true
	case "8th":
		return rules.Table8th, true
	case "":
		return 0, false
	default:
		d.Errorf(n, "unknown table %q; expected wap (the Warhammer Armies Project's) or 8th", w)
		return 0, false
	}
}

// chargeGrid lays charge_success out with distance down the rows and the
// non-readout axis with the most values (usually M) across the columns.
func chargeGrid(axes scenarios.Axes) *sim.Grid {
	cols := ""
	best := 0
	for _, a := range axes {
		if !a.Readout && len(a.Values) > best {
			cols, best = a.Name, len(a.Values)
		}
	}
	if cols == "" {
		return nil
	}
	for _, a := range axes {
		if a.Readout {
			return &sim.Grid{Metric: "charge_success", Rows: a.Name, Cols: cols}
		}
	}
	return nil
}

// decodePursuit reads a flee-and-pursuit question: one unit flees, another
// pursues, and the pursuer catches it when its roll equals or beats the
// flee roll (WAP, close combat: caught; docs/fantasy.md).
//
//	pursuit:
//	  fleeing: {name: Clanrats, M: 5}
//	  pursuing: [{name: Knights, M: 7, rules: [Swiftstride]}, ...]
//
// Metric: caught, with its exact value. (`simulate dice` shows the flee and
// pursuit rolls themselves.)
func decodePursuit(d *scenarios.Decoder, n *scenarios.Node) scenarios.Compile {
	var fleeing, pursuing scenarios.Param[*unitSpec]
	d.Object(n, "the pursuit", []scenarios.Field{
		{Key: "fleeing", Required: true, Decode: func(n *scenarios.Node) { fleeing = unitParam(d, n, "fleeing") }},
		{Key: "pursuing", Required: true, Decode: func(n *scenarios.Node) { pursuing = unitParam(d, n, "pursuing") }},
	})
	return func(d *scenarios.Decoder, axes scenarios.Axes) scenarios.Compiled {
		if !fleeing.Set() || !pursuing.Set() {
			return scenarios.Compiled{}
		}
		good := true
		for _, u := range append(fleeing.Values(), pursuing.Values()...) {
			good = refuseUnread(d, u, "a pursuit question", true, false) && good
			good = u.checkTroopRules(d) && good
		}
		if !good {
			return scenarios.Compiled{}
		}
		models, group, ok := axes.Groups(func(pt scenarios.Point) (sim.Model, bool) {
			if d.Stopped() {
				return nil, false
			}
			f, okF := moverOf(d, fleeing.At(pt).at(pt))
			p, okP := moverOf(d, pursuing.At(pt).at(pt))
			return pursuitModel{flee: f.Move(rules.Flee, false), pursue: p.Move(rules.Pursue, false)}, okF && okP
		})
		if !ok {
			return scenarios.Compiled{}
		}
		var c scenarios.Compiled
		c.Models = models
		c.Results = func(run sim.Run) []sim.Estimate {
			var out []sim.Estimate
			axes.Each(func(pt scenarios.Point) {
				g := group(pt)
				m := models[g].(pursuitModel)
				e := sim.ProbabilityOf("caught", axes.Params(pt), run.Tallies[g].H[0].Count(1), run.Completed[g])
				out = append(out, e.WithExact(rules.CaughtProbability(m.flee, m.pursue)))
			})
			return out
		}
		return c
	}
}

// refuseUnread reports the keys of unit u that say how it stands or moves
// in a fight that a charge or pursuit question does not have, which would
// otherwise be read by nothing: flank, rear and higher_ground when true,
// a missile weapon the scenario writes (neither question shoots), and, in
// a pursuit (flying), flying, since flyers flee and pursue on the ground
// (Fly unit card). It returns false when it reported one.
func refuseUnread(d *scenarios.Decoder, u *unitSpec, question string, flying, fliesEverywhere bool) bool {
	good := true
	for _, k := range []string{"flank", "rear", "higher_ground"} {
		if p, set := u.flags[k]; set && slices.Contains(p.Values(), true) {
			d.Errorf(u.nodes[k], "%s: true on unit %q: %s fights no combat, so %s decides nothing there; only a battle's attacker and target take flank, rear and higher_ground", k, u.name, question, k)
			good = false
		}
	}
	if at := u.missileWritten(); at != nil {
		d.Errorf(at, "missile on unit %q: %s shoots nothing, so missile decides nothing there; only a battle's attacker shoots, in its shooting phase; remove it", u.name, question)
		good = false
	}
	if at, set := u.nodes["flying"]; set && flying {
		d.Errorf(at, "flying on unit %q: %s reads no flying, since flyers flee and pursue on the ground (Fly); flying decides only how a unit charges", u.name, question)
		good = false
	}
	return sweptUnread(d, u, question, fliesEverywhere) && good
}

// sweptUnread refuses the values of unit u swept where a charge or pursuit
// question reads none of them, so that every value would give the same
// answer: such a question reads the unit's M and its rules, and not its M
// where Random Movement at every point is the whole of its move, nor in a
// charge made flying at every point (fliesEverywhere) by a unit with Fly
// or Tunneller, whose value is its move. A fixed value it does not read (a
// card's WS) is left alone. It returns false when it reported one.
func sweptUnread(d *scenarios.Decoder, u *unitSpec, question string, fliesEverywhere bool) bool {
	var found []unread
	refuse := func(key string, why string) {
		found = append(found, unread{u.nodes[key], fmt.Sprintf("%s is swept on unit %q, but %s; every value gives the same answer: sweep what the question reads, or ask it as a battle", key, u.name, why)})
	}
	for _, st := range unitStats {
		if p, set := u.stats[st.key]; !set || len(p.Values()) < 2 {
			continue
		}
		switch {
		case st.key != "M":
			refuse(st.key, question+" reads only the unit's M and its rules")
		case u.alwaysRule(rules.RuleRandomMovement):
			refuse(st.key, "its Random Movement is the whole of its move at every point")
		case fliesEverywhere && u.alwaysRule(rules.RuleFly):
			refuse(st.key, "it charges by flying at every point, which moves it by its Fly value, not its M")
		case fliesEverywhere && u.alwaysRule(rules.RuleTunneller):
			refuse(st.key, "it charges by flying at every point, which moves it by its Tunneller value, not its M")
		}
	}
	if len(u.A.Values()) > 1 {
		refuse("A", question+" reads only the unit's M and its rules")
	}
	for _, k := range unitSaves {
		if p, set := u.saves[k]; set && len(p.Values()) > 1 {
			refuse(k, question+" reads only the unit's M and its rules")
		}
	}
	return report(d, found) // in the order written
}

// alwaysRule says whether the unit has the named rule at every point.
func (u *unitSpec) alwaysRule(name string) bool {
	for _, rp := range u.rules {
		vals := rp.Values()
		if len(vals) > 0 && !slices.ContainsFunc(vals, func(c scenarios.RuleChoice) bool {
			return !c.On || c.Rule.Spec.Name != name
		}) {
			return true
		}
	}
	return false
}
