package scenarios

import (
	"hammersim/mechanics/dice"
	"hammersim/mechanics/heresy"
	"hammersim/sim"
)

// The assault question: one round of close combat and its aftermath, as
// heresy.Fight resolves it.
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
// inflicts (see hhAssaultModel.exactValues).

// Assault metrics beyond the shooting ones.
const (
	hhWon   = "won"
	hhSwept = "swept"
)

var hhAssaultMetrics = []string{hhHits, hhWounds, hhUnsaved, hhMitigated, hhCasualties, hhWon, hhMorale, hhSwept, hhDestroyed}

// Slots per unit; unit i's slot k is at i*haSlots + k.
const (
	haHits = iota
	haWounds
	haUnsaved
	haMitigated
	haCasualties
	haWon
	haMorale
	haSwept
	haDestroyed
	haSlots
)

var hhAssaultOptions = []hhOption{
	hhOptFNP,
	hhOptBlunted,
	{key: "outnumber_bonus", lo: 0, hi: 10, def: heresy.DefaultOptions.OutnumberBonus},
	{key: "charge_bonus_attacks", lo: 0, hi: 10, def: heresy.DefaultOptions.ChargeBonusAttacks},
	{key: "terrain_charge_initiative", lo: 0, hi: 10, def: heresy.DefaultOptions.TerrainChargeInitiative},
}

func hhDecodeAssault(d *decoder, n *node, rs *ruleset) compiler {
	var (
		attacker, defender Param[*hhUnitSpec]
		charged            = fixed(true)
		chargedAt          *node
		terrain            = fixed(false)
		opts               = hhDecodeOptions(d, nil, hhAssaultOptions)
		metricList         []*node
		grid               *hhGrid
	)
	d.object(n, "the assault", []field{
		{key: "attacker", required: true, decode: func(n *node) { attacker = hhUnitParam(d, n, "attacker", rs, hhRoleFighter) }},
		{key: "defender", required: true, decode: func(n *node) { defender = hhUnitParam(d, n, "defender", rs, hhRoleFighter) }},
		{key: "charged", decode: func(n *node) {
			chargedAt = n
			charged = sweep(d, n, "charged", false, func(n *node) (bool, bool) { return d.boolean(n, "charged") }, identity)
		}},
		{key: "difficult_terrain", decode: func(n *node) {
			terrain = sweep(d, n, "difficult_terrain", false, func(n *node) (bool, bool) { return d.boolean(n, "difficult_terrain") }, identity)
		}},
		{key: "options", decode: func(n *node) { opts = hhDecodeOptions(d, n, hhAssaultOptions) }},
		{key: "metrics", decode: func(n *node) { metricList = hhDecodeMetrics(d, n, hhAssaultMetrics) }},
		{key: "grid", decode: func(n *node) { grid = hhDecodeGrid(d, n) }},
	})
	return func(d *decoder, axes []*axis, s *Scenario) {
		if !hhSpecsReady(attacker, defender) || !charged.Set() || !terrain.Set() {
			return
		}
		metrics := hhMetricNames(metricList, hhAssaultMetrics)
		chargeErr, nameErr, terrainErr := false, false, false
		models, group, ok := groups(axes, func(pt point) (sim.Model, bool) {
			a, okA := attacker.At(pt).at(d, pt)
			b, okB := defender.At(pt).at(d, pt)
			if !okA || !okB {
				return nil, false
			}
			m := &hhAssaultModel{
				units:   [2]heresy.Unit{a.unit, b.unit},
				weapons: [2]heresy.Weapon{a.melee, b.melee},
				names:   [2]string{a.spec.name, b.spec.name},
				charged: charged.At(pt), terrain: terrain.At(pt),
				opts: opts.rules(pt),
			}
			if m.names[0] == m.names[1] {
				if !nameErr {
					hhErrorf(d, b.spec.node, axes, pt, "attacker and defender are both named %q; results tell the units apart by name", m.names[0])
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
					hhErrorf(d, at, axes, pt, "attacker %q is Automated Artillery, which may not charge; set charged: false to have it fight without charging", m.names[0])
				}
				chargeErr = true
				return nil, false
			}
			if m.terrain && !m.charged {
				if !terrainErr {
					hhErrorf(d, n, axes, pt, "difficult_terrain: true needs charged: true (it is the attacker's charge that crosses it)")
				}
				terrainErr = true
				return nil, false
			}
			m.exact = m.exactValues()
			return m, true
		})
		if !ok {
			return
		}
		s.Grid = grid.check(d, axes, hhIntersect(metrics, []string{hhWon, hhMorale, hhSwept, hhDestroyed}))
		s.Models = models
		s.results = func(run sim.Run) []sim.Estimate {
			var out []sim.Estimate
			for _, mt := range metrics {
				eachPoint(axes, func(pt point) {
					g := group(pt)
					m := models[g].(*hhAssaultModel)
					for i := range 2 {
						out = append(out, m.estimate(mt, i, hhWith(params(axes, pt), "unit", m.names[i]), run.Tallies[g], run.Completed[g]))
					}
				})
			}
			return out
		}
	}
}

// hhIntersect returns the strings of a that are in b, in a's order.
func hhIntersect(a, b []string) []string {
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

// hhAssaultModel is one point of an assault question: units[0] is the
// attacker, units[1] the defender, as the combat begins.
type hhAssaultModel struct {
	units   [2]heresy.Unit
	weapons [2]heresy.Weapon
	names   [2]string
	charged bool // the attacker charged
	terrain bool // through Difficult Terrain
	opts    heresy.Options
	exact   [2]hhSideExact
}

// hhSideExact is the exact value of every metric for one unit.
type hhSideExact struct {
	hits, wounds, unsaved, mitigated, casualties float64
	won, morale, swept, destroyed                float64
	maxBlows                                     int // the most blows it can suffer
}

func (m *hhAssaultModel) sides(a, b *heresy.Unit) (heresy.Side, heresy.Side) {
	return heresy.Side{Unit: a, Weapon: m.weapons[0], Charged: m.charged, DifficultTerrain: m.terrain},
		heresy.Side{Unit: b, Weapon: m.weapons[1]}
}

// exactValues computes every metric in closed form, following the steps of
// heresy.Fight. A side's blows are a fixed number (models times Attacks),
// so the wounds it inflicts, k, have the exact distribution
// Chain.Dist(StageSuffered, k blows), and the casualties are a function of
// k. The side striking second strikes with the models left, so its
// distribution is taken for each outcome of the first; sides striking
// together are independent. Each joint outcome (k0, k1) then settles the
// scores, the winner and, with the loser's exact pass chance and
// heresy.SweepProbability, the rest.
func (m *hhAssaultModel) exactValues() [2]hhSideExact {
	o := m.opts
	u := m.units
	a, b := m.sides(&u[0], &u[1])
	sides := [2]*heresy.Side{&a, &b}
	var init, attacks [2]int
	var chains [2]heresy.Chain
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
		chains[i] = heresy.MeleeChain(s.Unit, &s.Weapon, sides[1-i].Unit, o)
	}
	dists := map[[2]int]dice.Dist{}
	inflicted := func(i, blows int) dice.Dist {
		key := [2]int{i, blows}
		if d, ok := dists[key]; ok {
			return d
		}
		d := chains[i].Dist(heresy.StageSuffered, dice.Const(blows))
		dists[key] = d
		return d
	}
	var ex [2]hhSideExact
	for i := range 2 {
		ex[1-i].maxBlows = max(u[i].Models, 0) * attacks[i]
	}
	// outcome adds the joint outcome where side i struck blows[i] blows
	// and inflicted k[i] wounds, with probability p.
	outcome := func(p float64, blows, k [2]int) {
		var end [2]heresy.Unit
		for i := range 2 {
			c := chains[i]
			ex[1-i].hits += p * float64(blows[i]) * c.P(heresy.StageHits)
			ex[1-i].wounds += p * float64(blows[i]) * c.P(heresy.StageWounds)
			ex[1-i].unsaved += p * float64(blows[i]) * c.P(heresy.StageUnsaved)
			ex[1-i].mitigated += p * float64(blows[i]) * (c.P(heresy.StageUnsaved) - c.P(heresy.StageSuffered))
			end[1-i] = u[1-i]
			lost := hhLoss(&end[1-i], k[i], c.Slays)
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
		fail := p * (1 - lose.PassProbability(heresy.MoraleCheck, heresy.PhaseAssault, -(score[winner]-score[1-winner])))
		ex[1-winner].morale += fail
		lose.FallBack()
		swept := fail * heresy.SweepProbability(win, lose)
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
		hhLoss(&left, kf, chains[first].Slays)
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

// hhLoss applies k wounds suffered to u, as Chain.Roll does, and returns
// the models removed.
func hhLoss(u *heresy.Unit, k int, slays bool) int {
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

func (m *hhAssaultModel) Slots() []sim.Slot {
	out := make([]sim.Slot, 2*haSlots)
	for i := range 2 {
		s := out[i*haSlots : (i+1)*haSlots]
		mb := m.exact[i].maxBlows
		s[haHits] = sim.Slot{Name: m.names[i] + " " + hhHits, Hi: mb}
		s[haWounds] = sim.Slot{Name: m.names[i] + " " + hhWounds, Hi: mb}
		s[haUnsaved] = sim.Slot{Name: m.names[i] + " " + hhUnsaved, Hi: mb}
		s[haMitigated] = sim.Slot{Name: m.names[i] + " " + hhMitigated, Hi: mb}
		s[haCasualties] = sim.Slot{Name: m.names[i] + " " + hhCasualties, Hi: max(m.units[i].Models, 0)}
		s[haWon] = sim.Slot{Name: m.names[i] + " " + hhWon, Hi: 1}
		s[haMorale] = sim.Slot{Name: m.names[i] + " " + hhMorale, Hi: 1}
		s[haSwept] = sim.Slot{Name: m.names[i] + " " + hhSwept, Hi: 1}
		s[haDestroyed] = sim.Slot{Name: m.names[i] + " " + hhDestroyed, Hi: 1}
	}
	return out
}

func (m *hhAssaultModel) NewTrial() sim.Trial { return m }

func (m *hhAssaultModel) Run(r *dice.Rand, n int, t *sim.Tally) {
	for range n {
		u := m.units
		a, b := m.sides(&u[0], &u[1])
		res := heresy.Fight(r, a, b, m.opts)
		for i := range 2 {
			h := t.H[i*haSlots : (i+1)*haSlots]
			got := res.Inflicted[1-i]
			h[haHits].Add(got.Hits)
			h[haWounds].Add(got.Wounds)
			h[haUnsaved].Add(got.Unsaved)
			h[haMitigated].Add(got.Unsaved - got.Suffered)
			h[haCasualties].Add(got.Casualties)
			h[haWon].Add(hhB2I(res.Winner == i))
			lost := res.Winner == 1-i
			h[haMorale].Add(hhB2I(lost && res.FellBack))
			h[haSwept].Add(hhB2I(lost && res.Swept))
			h[haDestroyed].Add(hhB2I(u[i].Destroyed()))
		}
	}
}

// estimate reads metric for unit i from the tally.
func (m *hhAssaultModel) estimate(metric string, i int, ps []sim.Param, t *sim.Tally, n int64) sim.Estimate {
	ex := &m.exact[i]
	h := t.H[i*haSlots : (i+1)*haSlots]
	mean := func(slot int, v float64) sim.Estimate { return sim.MeanOf(metric, ps, &h[slot]).WithExact(v) }
	prob := func(slot int, v float64) sim.Estimate {
		return sim.ProbabilityOf(metric, ps, h[slot].Count(1), n).WithExact(hhClamp01(v))
	}
	switch metric {
	case hhHits:
		return mean(haHits, ex.hits)
	case hhWounds:
		return mean(haWounds, ex.wounds)
	case hhUnsaved:
		return mean(haUnsaved, ex.unsaved)
	case hhMitigated:
		return mean(haMitigated, ex.mitigated)
	case hhCasualties:
		return mean(haCasualties, ex.casualties)
	case hhWon:
		return prob(haWon, ex.won)
	case hhMorale:
		return prob(haMorale, ex.morale)
	case hhSwept:
		return prob(haSwept, ex.swept)
	case hhDestroyed:
		return prob(haDestroyed, ex.destroyed)
	}
	panic("scenarios: unknown assault metric " + metric)
}
