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
// inflicts (see assaultModel.exactValues).

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

func decodeAssault(d *scenarios.Decoder, n *scenarios.Node) scenarios.Compile {
	var (
		attacker, defender scenarios.Param[*unitSpec]
		charged            = scenarios.Fixed(true)
		chargedAt          *scenarios.Node
		terrain            = scenarios.Fixed(false)
		opts               = decodeOptions(d, nil, assaultOptions)
		metricList         []*scenarios.Node
		grid               *gridSpec
	)
	d.Object(n, "the assault", []scenarios.Field{
		{Key: "attacker", Required: true, Decode: func(n *scenarios.Node) { attacker = unitParam(d, n, "attacker", roleFighter) }},
		{Key: "defender", Required: true, Decode: func(n *scenarios.Node) { defender = unitParam(d, n, "defender", roleFighter) }},
		{Key: "charged", Decode: func(n *scenarios.Node) {
			chargedAt = n
			charged = scenarios.Sweep(d, n, "charged", false, func(n *scenarios.Node) (bool, bool) { return d.Boolean(n, "charged") }, scenarios.Identity)
		}},
		{Key: "difficult_terrain", Decode: func(n *scenarios.Node) {
			terrain = scenarios.Sweep(d, n, "difficult_terrain", false, func(n *scenarios.Node) (bool, bool) { return d.Boolean(n, "difficult_terrain") }, scenarios.Identity)
		}},
		{Key: "options", Decode: func(n *scenarios.Node) { opts = decodeOptions(d, n, assaultOptions) }},
		{Key: "metrics", Decode: func(n *scenarios.Node) { metricList = decodeMetrics(d, n, assaultMetrics) }},
		{Key: "grid", Decode: func(n *scenarios.Node) { grid = decodeGrid(d, n) }},
	})
	return func(d *scenarios.Decoder, axes scenarios.Axes) scenarios.Compiled {
		if !specsReady(attacker, defender) || !charged.Set() || !terrain.Set() {
			return scenarios.Compiled{}
		}
		metrics := metricNames(metricList, assaultMetrics)
		chargeErr, nameErr, terrainErr := false, false, false
		models, group, ok := axes.Groups(func(pt scenarios.Point) (sim.Model, bool) {
			a, okA := attacker.At(pt).at(d, pt)
			b, okB := defender.At(pt).at(d, pt)
			if !okA || !okB {
				return nil, false
			}
			m := &assaultModel{
				units:   [2]rules.Unit{a.unit, b.unit},
				weapons: [2]rules.Weapon{a.melee, b.melee},
				names:   [2]string{a.spec.name, b.spec.name},
				charged: charged.At(pt), terrain: terrain.At(pt),
				opts: opts.options(pt),
			}
			if m.names[0] == m.names[1] {
				if !nameErr {
					errorAt(d, b.spec.node, axes, pt, "attacker and defender are both named %q; results tell the units apart by name", m.names[0])
				}
				nameErr = true
				return nil, false
			}
			if m.charged && !m.units[0].CanCharge() {
				at := a.spec.node
				if chargedAt != nil {
					at = chargedAt
				}
				if !chargeErr {
					errorAt(d, at, axes, pt, "attacker %q is Automated Artillery, which may not charge; set charged: false to have it fight without charging", m.names[0])
				}
				chargeErr = true
				return nil, false
			}
			if m.terrain && !m.charged {
				if !terrainErr {
					errorAt(d, n, axes, pt, "difficult_terrain: true needs charged: true (it is the attacker's charge that crosses it)")
				}
				terrainErr = true
				return nil, false
			}
			m.exact = m.exactValues()
			return m, true
		})
		if !ok {
			return scenarios.Compiled{}
		}
		var c scenarios.Compiled
		c.Grid = grid.check(d, axes, intersect(metrics, []string{metricWon, metricMorale, metricSwept, metricDestroyed}))
		c.Models = models
		c.Results = func(run sim.Run) []sim.Estimate {
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
		return c
	}
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

// assaultModel is one point of an assault question: units[0] is the
// attacker, units[1] the defender, as the combat begins.
type assaultModel struct {
	units   [2]rules.Unit
	weapons [2]rules.Weapon
	names   [2]string
	charged bool // the attacker charged
	terrain bool // through Difficult Terrain
	opts    rules.Options
	exact   [2]sideExact
}

// sideExact is the exact value of every metric for one unit.
type sideExact struct {
	hits, wounds, unsaved, mitigated, casualties float64
	won, morale, swept, destroyed                float64
	maxBlows                                     int // the most blows it can suffer
}

func (m *assaultModel) sides(a, b *rules.Unit) (rules.Side, rules.Side) {
	return rules.Side{Unit: a, Weapon: m.weapons[0], Charged: m.charged, DifficultTerrain: m.terrain},
		rules.Side{Unit: b, Weapon: m.weapons[1]}
}

// exactValues computes every metric in closed form, following the steps of
// rules.Fight. A side's blows are a fixed number (models times Attacks),
// so the wounds it inflicts, k, have the exact distribution
// Chain.Dist(StageSuffered, k blows), and the casualties are a function of
// k. The side striking second strikes with the models left, so its
// distribution is taken for each outcome of the first; sides striking
// together are independent. Each joint outcome (k0, k1) then settles the
// scores, the winner and, with the loser's exact pass chance and
// rules.SweepProbability, the rest.
func (m *assaultModel) exactValues() [2]sideExact {
	o := m.opts
	u := m.units
	a, b := m.sides(&u[0], &u[1])
	sides := [2]*rules.Side{&a, &b}
	var init, attacks [2]int
	var chains [2]rules.Chain
	for i, s := range sides {
		init[i] = s.Unit.I
		if s.Charged && s.DifficultTerrain && o.TerrainChargeInitiative > 0 && !sides[1-i].Unit.IsStupefied() {
			init[i] = min(init[i], o.TerrainChargeInitiative)
		}
		attacks[i] = s.Unit.A
		if s.Charged && !s.Unit.ChargeDisordered() {
			attacks[i] += o.ChargeBonusAttacks
		}
		attacks[i] = max(attacks[i], 0)
		chains[i] = rules.MeleeChain(s.Unit, &s.Weapon, sides[1-i].Unit, o)
	}
	dists := map[[2]int]dice.Dist{}
	inflicted := func(i, blows int) dice.Dist {
		key := [2]int{i, blows}
		if d, ok := dists[key]; ok {
			return d
		}
		d := chains[i].Dist(rules.StageSuffered, dice.Const(blows))
		dists[key] = d
		return d
	}
	var ex [2]sideExact
	for i := range 2 {
		ex[1-i].maxBlows = max(u[i].Models, 0) * attacks[i]
	}
	// outcome adds the joint outcome where side i struck blows[i] blows
	// and inflicted k[i] wounds, with probability p.
	outcome := func(p float64, blows, k [2]int) {
		var end [2]rules.Unit
		for i := range 2 {
			c := chains[i]
			ex[1-i].hits += p * float64(blows[i]) * c.P(rules.StageHits)
			ex[1-i].wounds += p * float64(blows[i]) * c.P(rules.StageWounds)
			ex[1-i].unsaved += p * float64(blows[i]) * c.P(rules.StageUnsaved)
			ex[1-i].mitigated += p * float64(blows[i]) * (c.P(rules.StageUnsaved) - c.P(rules.StageSuffered))
			end[1-i] = u[1-i]
			lost := loss(&end[1-i], k[i], c.Slays)
			ex[1-i].casualties += p * float64(lost)
		}
		var score [2]int
		for i := range 2 {
			score[i] = k[i]
			if end[i].Outnumbers(&end[1-i]) {
				score[i] += o.OutnumberBonus
			}
		}
		winner := -1
		switch dead0, dead1 := end[0].Destroyed(), end[1].Destroyed(); {
		case dead0 && dead1:
		case dead0:
			winner = 1
		case dead1:
			winner = 0
		case score[0] > score[1]:
			winner = 0
		case score[1] > score[0]:
			winner = 1
		}
		for i := range 2 {
			if end[i].Destroyed() {
				ex[i].destroyed += p
			}
		}
		if winner < 0 {
			return
		}
		ex[winner].won += p
		win, lose := &end[winner], &end[1-winner]
		if lose.Destroyed() {
			return
		}
		fail := p * (1 - lose.PassProbability(rules.MoraleCheck, rules.PhaseAssault, -(score[winner]-score[1-winner])))
		ex[1-winner].morale += fail
		lose.FallBack()
		swept := fail * rules.SweepProbability(win, lose)
		ex[1-winner].swept += swept
		ex[1-winner].destroyed += swept
	}
	blows := func(i, models int) int { return max(models, 0) * attacks[i] }
	if init[0] == init[1] {
		n0, n1 := blows(0, u[0].Models), blows(1, u[1].Models)
		d0, d1 := inflicted(0, n0), inflicted(1, n1)
		for k0 := d0.Min; k0 <= d0.Max(); k0++ {
			for k1 := d1.Min; k1 <= d1.Max(); k1++ {
				if p := d0.At(k0) * d1.At(k1); p > 0 {
					outcome(p, [2]int{n0, n1}, [2]int{k0, k1})
				}
			}
		}
		return ex
	}
	first := 0
	if init[1] > init[0] {
		first = 1
	}
	second := 1 - first
	nf := blows(first, u[first].Models)
	df := inflicted(first, nf)
	for kf := df.Min; kf <= df.Max(); kf++ {
		pf := df.At(kf)
		if pf == 0 {
			continue
		}
		left := u[second]
		loss(&left, kf, chains[first].Slays)
		ns := blows(second, left.Models)
		ds := inflicted(second, ns)
		for ks := ds.Min; ks <= ds.Max(); ks++ {
			if p := pf * ds.At(ks); p > 0 {
				var nb, k [2]int
				nb[first], nb[second] = nf, ns
				k[first], k[second] = kf, ks
				outcome(p, nb, k)
			}
		}
	}
	return ex
}

// loss applies k wounds suffered to u, as Chain.Roll does, and returns
// the models removed.
func loss(u *rules.Unit, k int, slays bool) int {
	lost := 0
	for range k {
		if u.Destroyed() {
			break
		}
		if u.TakeWound(slays) {
			lost++
		}
	}
	return lost
}

func (m *assaultModel) Slots() []sim.Slot {
	out := make([]sim.Slot, 2*sideSlots)
	for i := range 2 {
		s := out[i*sideSlots : (i+1)*sideSlots]
		mb := m.exact[i].maxBlows
		s[sideHits] = sim.Slot{Name: m.names[i] + " " + metricHits, Hi: mb}
		s[sideWounds] = sim.Slot{Name: m.names[i] + " " + metricWounds, Hi: mb}
		s[sideUnsaved] = sim.Slot{Name: m.names[i] + " " + metricUnsaved, Hi: mb}
		s[sideMitigated] = sim.Slot{Name: m.names[i] + " " + metricMitigated, Hi: mb}
		s[sideCasualties] = sim.Slot{Name: m.names[i] + " " + metricCasualties, Hi: max(m.units[i].Models, 0)}
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
		u := m.units
		a, b := m.sides(&u[0], &u[1])
		res := rules.Fight(r, a, b, m.opts)
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
		return mean(sideHits, ex.hits)
	case metricWounds:
		return mean(sideWounds, ex.wounds)
	case metricUnsaved:
		return mean(sideUnsaved, ex.unsaved)
	case metricMitigated:
		return mean(sideMitigated, ex.mitigated)
	case metricCasualties:
		return mean(sideCasualties, ex.casualties)
	case metricWon:
		return prob(sideWon, ex.won)
	case metricMorale:
		return prob(sideMorale, ex.morale)
	case metricSwept:
		return prob(sideSwept, ex.swept)
	case metricDestroyed:
		return prob(sideDestroyed, ex.destroyed)
	}
	panic("scenarios: unknown assault metric " + metric)
}
