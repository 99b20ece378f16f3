package heresy

import (
	"hammersim/mechanics/dice"
	rules "hammersim/mechanics/heresy"
	"hammersim/scenarios"
	"hammersim/sim"
)

// The assault question: one round of close combat and its aftermath, as
// rules.Fight resolves it.
//
//	assault:
//	  attacker: {name: ..., models: 10, WS: 4, ..., melee: {name: chainsword, S: User, AP: "-"}}
//	  defender: {name: ..., models: 3, ..., rules: [Automated Artillery, Bulky (4)]}
//	  charged: true             # the attacker charged this turn
//	  difficult_terrain: false  # through Difficult Terrain
//	  options: {outnumber_bonus: 1, ...}
//
// Every metric is reported for each unit, named in the parameter "unit",
// and counts what happened to that unit: the blows it suffered (hits,
// wounds, unsaved_wounds, mitigated, casualties), whether it won, failed
// its Morale check (morale_failed, and Fell Back), was destroyed by a
// Sweeping Advance (swept), or has no models left at the end (destroyed).
// Every one has its exact value, by enumerating the wounds each side
// inflicts (see heresy.ExactAssault in mechanics).

// Assault metrics beyond the shooting ones.
const (
	metricWon   = "won"
	metricSwept = "swept"
)

var assaultMetrics = []string{metricHits, metricWounds, metricUnsaved, metricMitigated, metricCasualties, metricWon, metricMorale, metricSwept, metricDestroyed}

// Slots per unit; unit i's slot k is at i*sideSlots + k.
const (
	sideHits = iota
	sideWounds
	sideUnsaved
	sideMitigated
	sideCasualties
	sideWon
	sideMorale
	sideSwept
	sideDestroyed
	sideSlots
)

var assaultOptions = []option{
	optFNP,
	optBlunted,
	{key: "outnumber_bonus", lo: 0, hi: 10, def: rules.DefaultOptions.OutnumberBonus},
	{key: "charge_bonus_attacks", lo: 0, hi: 10, def: rules.DefaultOptions.ChargeBonusAttacks},
	{key: "terrain_charge_initiative", lo: 0, hi: 10, def: rules.DefaultOptions.TerrainChargeInitiative},
}

// assaultQuestion is an assault question as decoded, before its axes are
// known.
type assaultQuestion struct {
	node               *scenarios.Node
	attacker, defender scenarios.Param[*unitSpec]
	charged            scenarios.Param[bool]
	chargedAt          *scenarios.Node
	terrain            scenarios.Param[bool]
	opts               *optionValues
	metricList         []*scenarios.Node
	grid               *gridSpec
	// reported holds the point problems already reported, by kind: each is
	// reported once, at the first point it fails.
	reported map[string]bool
}

func decodeAssault(d *scenarios.Decoder, n *scenarios.Node) scenarios.Compile {
	q := &assaultQuestion{node: n, charged: scenarios.Fixed(true), terrain: scenarios.Fixed(false),
		opts: decodeOptions(d, nil, assaultOptions), reported: map[string]bool{}}
	d.Object(n, "the assault", []scenarios.Field{
		{Key: "attacker", Required: true, Decode: func(n *scenarios.Node) { q.attacker = unitParam(d, n, "attacker", roleFighter) }},
		{Key: "defender", Required: true, Decode: func(n *scenarios.Node) { q.defender = unitParam(d, n, "defender", roleFighter) }},
		{Key: "charged", Decode: func(n *scenarios.Node) {
			q.chargedAt = n
			q.charged = scenarios.Sweep(d, n, "charged", false, func(n *scenarios.Node) (bool, bool) { return d.Boolean(n, "charged") }, scenarios.Identity)
		}},
		{Key: "difficult_terrain", Decode: func(n *scenarios.Node) {
			q.terrain = scenarios.Sweep(d, n, "difficult_terrain", false, func(n *scenarios.Node) (bool, bool) { return d.Boolean(n, "difficult_terrain") }, scenarios.Identity)
		}},
		{Key: "options", Decode: func(n *scenarios.Node) { q.opts = decodeOptions(d, n, assaultOptions) }},
		{Key: "metrics", Decode: func(n *scenarios.Node) { q.metricList = decodeMetrics(d, n, assaultMetrics) }},
		{Key: "grid", Decode: func(n *scenarios.Node) { q.grid = decodeGrid(d, n) }},
	})
	return q.compile
}

func (q *assaultQuestion) compile(d *scenarios.Decoder, axes scenarios.Axes) scenarios.Compiled {
	if !specsReady(q.attacker, q.defender) || !q.charged.Set() || !q.terrain.Set() {
		return scenarios.Compiled{}
	}
	metrics := metricNames(q.metricList, assaultMetrics)
	models, group, ok := axes.Groups(func(pt scenarios.Point) (sim.Model, bool) {
		m, good := q.model(d, axes, pt)
		return m, good
	})
	if !ok {
		return scenarios.Compiled{}
	}
	results := func(run sim.Run) []sim.Estimate {
		var out []sim.Estimate
		for _, mt := range metrics {
			axes.Each(func(pt scenarios.Point) {
				g := group(pt)
				m := models[g].(*assaultModel)
				for i := range 2 {
					out = append(out, m.estimate(mt, i, withParam(axes.Params(pt), "unit", m.names[i]), run.Tallies[g], run.Completed[g]))
				}
			})
		}
		return out
	}
	grid := q.grid.check(d, axes, intersect(metrics, []string{metricWon, metricMorale, metricSwept, metricDestroyed}))
	return scenarios.Compiled{Grid: grid, Models: models, Results: results}
}

// model builds the model of one point, or reports why the point cannot
// be fought.
func (q *assaultQuestion) model(d *scenarios.Decoder, axes scenarios.Axes, pt scenarios.Point) (*assaultModel, bool) {
	a, okA := q.attacker.At(pt).at(d, pt)
	b, okB := q.defender.At(pt).at(d, pt)
	if !okA || !okB {
		return nil, false
	}
	m := &assaultModel{
		AssaultExchange: rules.AssaultExchange{
			Units:   [2]rules.Unit{a.unit, b.unit},
			Weapons: [2]rules.Weapon{a.melee, b.melee},
			Charged: q.charged.At(pt), DifficultTerrain: q.terrain.At(pt),
			Options: q.opts.options(pt),
		},
		names: [2]string{a.spec.name, b.spec.name},
	}
	fail := func(kind string, at *scenarios.Node, format string, args ...any) (*assaultModel, bool) {
		if !q.reported[kind] {
			errorAt(d, at, axes, pt, format, args...)
		}
		q.reported[kind] = true
		return nil, false
	}
	if m.names[0] == m.names[1] {
		return fail("names", b.spec.node, "attacker and defender are both named %q; results tell the units apart by name", m.names[0])
	}
	if m.Charged && !m.Units[0].CanCharge() {
		at := a.spec.node
		if q.chargedAt != nil {
			at = q.chargedAt
		}
		return fail("charge", at, "attacker %q is Automated Artillery, which may not charge; set charged: false to have it fight without charging", m.names[0])
	}
	if m.DifficultTerrain && !m.Charged {
		return fail("terrain", q.node, "difficult_terrain: true needs charged: true (it is the attacker's charge that crosses it)")
	}
	m.exact = rules.ExactAssault(&m.AssaultExchange)
	return m, true
}

// intersect returns the strings of a that are in b, in a's order.
func intersect(a, b []string) []string {
	var out []string
	for _, s := range a {
		for _, t := range b {
			if s == t {
				out = append(out, s)
			}
		}
	}
	return out
}

// assaultModel is one point of an assault question: the exchange, the
// units' names, and its exact values.
type assaultModel struct {
	rules.AssaultExchange
	names [2]string
	exact [2]rules.AssaultExact
}

func (m *assaultModel) Slots() []sim.Slot {
	out := make([]sim.Slot, 2*sideSlots)
	for i := range 2 {
		s := out[i*sideSlots : (i+1)*sideSlots]
		mb := m.exact[i].MaxBlows
		s[sideHits] = sim.Slot{Name: m.names[i] + " " + metricHits, Hi: mb}
		s[sideWounds] = sim.Slot{Name: m.names[i] + " " + metricWounds, Hi: mb}
		s[sideUnsaved] = sim.Slot{Name: m.names[i] + " " + metricUnsaved, Hi: mb}
		s[sideMitigated] = sim.Slot{Name: m.names[i] + " " + metricMitigated, Hi: mb}
		s[sideCasualties] = sim.Slot{Name: m.names[i] + " " + metricCasualties, Hi: max(m.Units[i].Models, 0)}
		s[sideWon] = sim.Slot{Name: m.names[i] + " " + metricWon, Hi: 1}
		s[sideMorale] = sim.Slot{Name: m.names[i] + " " + metricMorale, Hi: 1}
		s[sideSwept] = sim.Slot{Name: m.names[i] + " " + metricSwept, Hi: 1}
		s[sideDestroyed] = sim.Slot{Name: m.names[i] + " " + metricDestroyed, Hi: 1}
	}
	return out
}

func (m *assaultModel) NewTrial() sim.Trial { return m }

func (m *assaultModel) Run(r *dice.Rand, n int, t *sim.Tally) {
	for range n {
		u := m.Units
		a, b := m.Sides(&u[0], &u[1])
		res := rules.Fight(r, a, b, m.Options)
		for i := range 2 {
			h := t.H[i*sideSlots : (i+1)*sideSlots]
			got := res.Inflicted[1-i]
			h[sideHits].Add(got.Hits)
			h[sideWounds].Add(got.Wounds)
			h[sideUnsaved].Add(got.Unsaved)
			h[sideMitigated].Add(got.Unsaved - got.Suffered)
			h[sideCasualties].Add(got.Casualties)
			h[sideWon].Add(b2i(res.Winner == i))
			lost := res.Winner == 1-i
			h[sideMorale].Add(b2i(lost && res.FellBack))
			h[sideSwept].Add(b2i(lost && res.Swept))
			h[sideDestroyed].Add(b2i(u[i].Destroyed()))
		}
	}
}

// estimate reads metric for unit i from the tally.
func (m *assaultModel) estimate(metric string, i int, ps []sim.Param, t *sim.Tally, n int64) sim.Estimate {
	ex := &m.exact[i]
	h := t.H[i*sideSlots : (i+1)*sideSlots]
	mean := func(slot int, v float64) sim.Estimate { return sim.MeanOf(metric, ps, &h[slot]).WithExact(v) }
	prob := func(slot int, v float64) sim.Estimate {
		return sim.ProbabilityOf(metric, ps, h[slot].Count(1), n).WithExact(clamp01(v))
	}
	switch metric {
	case metricHits:
		return mean(sideHits, ex.Hits)
	case metricWounds:
		return mean(sideWounds, ex.Wounds)
	case metricUnsaved:
		return mean(sideUnsaved, ex.Unsaved)
	case metricMitigated:
		return mean(sideMitigated, ex.Mitigated)
	case metricCasualties:
		return mean(sideCasualties, ex.Casualties)
	case metricWon:
		return prob(sideWon, ex.Won)
	case metricMorale:
		return prob(sideMorale, ex.Morale)
	case metricSwept:
		return prob(sideSwept, ex.Swept)
	case metricDestroyed:
		return prob(sideDestroyed, ex.Destroyed)
	}
	panic("scenarios: unknown assault metric " + metric)
}
