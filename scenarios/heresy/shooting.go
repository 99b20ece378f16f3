package heresy

import (
	"slices"

	"hammersim/mechanics/dice"
	rules "hammersim/mechanics/heresy"
	"hammersim/scenarios"
	"hammersim/sim"
)

// The shooting question: one Shooting Attack by a firer at a target, the
// tests it forces, and the target's answering fire.
//
//	shooting:
//	  firer:  {name: ..., models: 10, WS: 4, ..., weapons: [{name: bolter, S: 4, AP: 5, shots: 2}]}
//	  target: {name: ..., models: 10, ..., rules: [Lords of Profligacy]}
//	  stupefied: [never, always, when_it_pays]   # the target's choice
//	  pinning: false                             # the attack forces a Pinning test
//	  options: {morale_check: quarter, ...}
//	  metrics: [casualties, destroyed]
//
// A trial, in order:
//  1. The target is Stupefied or not, as its stupefied policy chose after
//     an earlier Shooting Attack against it (Lords of Profligacy lets it
//     choose only then); when_it_pays chooses with rules.StupefyChooser,
//     weighing this attack against its own answering fire, by exact
//     expectations, so the choice is the same in every trial.
//  2. The firer's models fire their weapons (Firing Protocols picks them);
//     wounds go onto the target.
//  3. If models are left: a Morale check when the attack removed a quarter
//     or more of them (morale_check), Falling Back on a failure; then, with
//     pinning, a Pinning test if it took an unsaved wound and did not Fall
//     Back. Fearless and Stupefied pass both without rolling.
//  4. If the target has weapons and models left, it shoots back at the
//     unhurt firer with the models left; a unit that Fell Back or is Pinned
//     fires Snap Shots (broken_return_fire).

// Shooting metrics, in the order reported by default.
const (
	metricHits           = "hits"
	metricWounds         = "wounds"
	metricUnsaved        = "unsaved_wounds"
	metricMitigated      = "mitigated"
	metricCasualties     = "casualties"
	metricDestroyed      = "destroyed"
	metricMorale         = "morale_failed"
	metricPinned         = "pinned"
	metricReturn         = "return_casualties"
	metricChoseStupefied = "chose_stupefied"
)

var shootingMetrics = []string{metricHits, metricWounds, metricUnsaved, metricMitigated, metricCasualties, metricDestroyed, metricMorale, metricPinned, metricReturn, metricChoseStupefied}

// Slots of a shooting model's tally, one per metric.
const (
	slotHits = iota
	slotWounds
	slotUnsaved
	slotMitigated
	slotCasualties
	slotDestroyed
	slotMorale
	slotPinned
	slotReturn
	slotStupefied
	shootingSlots
)

var shootingOptions = []option{
	{key: "cap_bs_at_7", boolean: true, def: rules.DefaultOptions.CapBSAt7},
	optFNP,
	optBlunted,
	{key: "stupefied_fixed_strength", boolean: true, def: rules.DefaultOptions.StupefiedFixedStrength},
	// When a Shooting Attack forces a Morale check is not in the texts:
	// "quarter" is the usual trigger (a quarter or more of the models the
	// unit had when the attack began), "never" takes none. OPEN.
	{key: "morale_check", words: []string{"quarter", "never"}, def: "quarter"},
	// How a unit that Fell Back or is Pinned shoots back is not in the
	// texts: "snap_shots" (at BS 1), or "none". OPEN.
	{key: "broken_return_fire", words: []string{"snap_shots", "none"}, def: "snap_shots"},
}

var stupefyPolicies = map[string]rules.StupefyPolicy{
	"never":        rules.StupefyNever,
	"always":       rules.StupefyAlways,
	"when_it_pays": rules.StupefyWhenItPays,
}

func decodeShooting(d *scenarios.Decoder, n *scenarios.Node) scenarios.Compile {
	var (
		firer, target scenarios.Param[*unitSpec]
		policy        = scenarios.Fixed("never")
		policyAt      = n
		pinning       = scenarios.Fixed(false)
		opts          = decodeOptions(d, nil, shootingOptions)
		metricList    []*scenarios.Node
		grid          *gridSpec
	)
	d.Object(n, "the shooting question", []scenarios.Field{
		{Key: "firer", Required: true, Decode: func(n *scenarios.Node) { firer = unitParam(d, n, "firer", roleFirer) }},
		{Key: "target", Required: true, Decode: func(n *scenarios.Node) { target = unitParam(d, n, "target", roleTarget) }},
		{Key: "stupefied", Decode: func(n *scenarios.Node) {
			policyAt = n
			policy = scenarios.Sweep(d, n, "stupefied", false, func(n *scenarios.Node) (string, bool) {
				s, ok := d.Scalar(n, "the Stupefied policy (never, always or when_it_pays)")
				if _, known := stupefyPolicies[s]; ok && !known {
					d.Errorf(n, "stupefied %q: expected never, always or when_it_pays", s)
					return "", false
				}
				return s, ok
			}, scenarios.Identity)
		}},
		{Key: "pinning", Decode: func(n *scenarios.Node) {
			pinning = scenarios.Sweep(d, n, "pinning", false, func(n *scenarios.Node) (bool, bool) { return d.Boolean(n, "pinning") }, scenarios.Identity)
		}},
		{Key: "options", Decode: func(n *scenarios.Node) { opts = decodeOptions(d, n, shootingOptions) }},
		{Key: "metrics", Decode: func(n *scenarios.Node) { metricList = decodeMetrics(d, n, shootingMetrics) }},
		{Key: "grid", Decode: func(n *scenarios.Node) { grid = decodeGrid(d, n) }},
	})
	return func(d *scenarios.Decoder, axes scenarios.Axes) scenarios.Compiled {
		if !specsReady(firer, target) || !policy.Set() || !pinning.Set() {
			return scenarios.Compiled{}
		}
		// Which metrics apply: pinned needs pinning, return_casualties a
		// target with weapons, chose_stupefied a choice to make.
		applies := map[string]bool{}
		for _, m := range shootingMetrics {
			applies[m] = true
		}
		applies[metricPinned] = slices.Contains(pinning.Values(), true)
		applies[metricReturn] = slices.ContainsFunc(target.Values(), func(u *unitSpec) bool { return len(u.weapons) > 0 })
		applies[metricChoseStupefied] = slices.Contains(policy.Values(), "when_it_pays")
		var def []string
		for _, m := range shootingMetrics {
			if applies[m] {
				def = append(def, m)
			}
		}
		for _, mn := range metricList {
			switch {
			case mn.Text == metricPinned && !applies[metricPinned]:
				d.Errorf(mn, "metric pinned needs pinning: true (the attack forcing a Pinning test)")
			case mn.Text == metricReturn && !applies[metricReturn]:
				d.Errorf(mn, "metric return_casualties needs a target with weapons to shoot back with")
			}
		}
		metrics := metricNames(metricList, def)

		stupefyErr := false
		models, group, ok := axes.Groups(func(pt scenarios.Point) (sim.Model, bool) {
			f, okF := firer.At(pt).at(d, pt)
			t, okT := target.At(pt).at(d, pt)
			if !okF || !okT {
				return nil, false
			}
			m := &shootingModel{ShootingExchange: rules.ShootingExchange{
				Firer: f.unit, Target: t.unit, Weapons: f.weapons, Back: t.weapons,
				Options:         opts.options(pt),
				MoraleCheck:     opts.at("morale_check", pt) == "quarter",
				BrokenSnapShots: opts.at("broken_return_fire", pt) == "snap_shots",
				Pinning:         pinning.At(pt),
			}}
			p := stupefyPolicies[policy.At(pt)]
			if p != rules.StupefyNever && !m.Target.CanStupefy(m.Options) {
				if !stupefyErr {
					errorAt(d, policyAt, axes, pt, "stupefied: %s, but target %q cannot become Stupefied: every model needs Lords of Profligacy", policy.At(pt), t.spec.name)
				}
				stupefyErr = true
				return nil, false
			}
			m.choose(p)
			m.exact = rules.ExactShooting(&m.ShootingExchange)
			return m, true
		})
		if !ok {
			return scenarios.Compiled{}
		}
		var probs []string
		for _, mt := range metrics {
			if mt == metricDestroyed || mt == metricMorale || mt == metricPinned || mt == metricChoseStupefied {
				probs = append(probs, mt)
			}
		}
		var c scenarios.Compiled
		c.Grid = grid.check(d, axes, probs)
		c.Models = models
		c.Results = func(run sim.Run) []sim.Estimate {
			var out []sim.Estimate
			for _, mt := range metrics {
				axes.Each(func(pt scenarios.Point) {
					if mt == metricChoseStupefied && policy.At(pt) != "when_it_pays" && metricList == nil {
						return
					}
					g := group(pt)
					out = append(out, models[g].(*shootingModel).estimate(mt, axes.Params(pt), run.Tallies[g], run.Completed[g]))
				})
			}
			return out
		}
		return c
	}
}

// shootingModel is one point of a shooting question: the exchange, the
// target Stupefied as its policy chose, and its exact values.
type shootingModel struct {
	rules.ShootingExchange
	exact rules.ShootingExact
}

// choose applies the Stupefied policy to the target, weighing, for
// when_it_pays, the firer's attack against the target's own at the firer.
func (m *shootingModel) choose(p rules.StupefyPolicy) {
	c := rules.StupefyChooser{Policy: p}
	st := rules.StupefyStakes{Enemy: &m.Firer, EnemyWeapons: m.Weapons}
	if len(m.Back) > 0 {
		st.OwnTarget, st.OwnWeapons = &m.Firer, m.Back
	}
	if c.Choose(&m.Target, st, m.Options) {
		m.Target.Stupefy(false, m.Options)
	}
}

func (m *shootingModel) Slots() []sim.Slot {
	n, ex := m.Target.Models, &m.exact
	return []sim.Slot{
		slotHits: {Name: metricHits, Hi: ex.MaxShots}, slotWounds: {Name: metricWounds, Hi: ex.MaxShots},
		slotUnsaved: {Name: metricUnsaved, Hi: ex.MaxShots}, slotMitigated: {Name: metricMitigated, Hi: ex.MaxShots},
		slotCasualties: {Name: metricCasualties, Hi: n}, slotDestroyed: {Name: metricDestroyed, Hi: 1},
		slotMorale: {Name: metricMorale, Hi: 1}, slotPinned: {Name: metricPinned, Hi: 1},
		slotReturn: {Name: metricReturn, Hi: m.Firer.Models}, slotStupefied: {Name: metricChoseStupefied, Hi: 1},
	}
}

func (m *shootingModel) NewTrial() sim.Trial {
	t := &shootingTrial{m: m}
	t.att.Prepare(&m.Firer, m.Weapons, &m.Target, m.Options)
	if len(m.Back) > 0 {
		t.back.Prepare(&m.Target, m.Back, &m.Firer, m.Options)
		snap := m.SnapTarget()
		t.snap.Prepare(&snap, m.Back, &m.Firer, m.Options)
	}
	return t
}

// shootingTrial owns prepared attacks: the answering fire's volleys are
// resized to the models left in each trial.
type shootingTrial struct {
	m               *shootingModel
	att, back, snap rules.Attack
}

func (t *shootingTrial) Run(r *dice.Rand, n int, tally *sim.Tally) {
	m, h := t.m, tally.H
	stupefied := 0
	if m.Target.IsStupefied() {
		stupefied = 1
	}
	for range n {
		tg := m.Target
		res := t.att.Roll(r, &tg)
		h[slotHits].Add(res.Hits)
		h[slotWounds].Add(res.Wounds)
		h[slotUnsaved].Add(res.Unsaved)
		h[slotMitigated].Add(res.Unsaved - res.Suffered)
		h[slotCasualties].Add(res.Casualties)
		h[slotStupefied].Add(stupefied)
		fell, pinned, back := false, false, 0
		if !tg.Destroyed() {
			if m.MoraleCheck && 4*res.Casualties >= m.Target.Models && !tg.TakeTest(r, rules.MoraleCheck, rules.PhaseShooting, 0) {
				tg.FallBack()
				fell = true
			}
			if m.Pinning && !fell && res.Unsaved > 0 && !tg.TakeTest(r, rules.PinningTest, rules.PhaseShooting, 0) {
				pinned = tg.Pin()
			}
			if len(m.Back) > 0 && (m.BrokenSnapShots || !(fell || pinned)) {
				att := &t.back
				if fell || pinned {
					att = &t.snap
				}
				for i := range att.Volleys {
					att.Volleys[i].Models = tg.Models
				}
				f := m.Firer
				back = att.Roll(r, &f).Casualties
			}
		}
		h[slotDestroyed].Add(b2i(tg.Destroyed()))
		h[slotMorale].Add(b2i(fell))
		h[slotPinned].Add(b2i(pinned))
		h[slotReturn].Add(back)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// estimate reads one metric of the model from its tally.
func (m *shootingModel) estimate(metric string, ps []sim.Param, t *sim.Tally, n int64) sim.Estimate {
	ex := &m.exact
	mean := func(slot int, v float64) sim.Estimate { return sim.MeanOf(metric, ps, &t.H[slot]).WithExact(v) }
	prob := func(slot int, v float64) sim.Estimate {
		return sim.ProbabilityOf(metric, ps, t.H[slot].Count(1), n).WithExact(clamp01(v))
	}
	switch metric {
	case metricHits:
		return mean(slotHits, ex.Hits)
	case metricWounds:
		return mean(slotWounds, ex.Wounds)
	case metricUnsaved:
		return mean(slotUnsaved, ex.Unsaved)
	case metricMitigated:
		return mean(slotMitigated, ex.Mitigated)
	case metricCasualties:
		return mean(slotCasualties, ex.Casualties)
	case metricDestroyed:
		return prob(slotDestroyed, ex.Destroyed)
	case metricMorale:
		return prob(slotMorale, ex.Morale)
	case metricPinned:
		return prob(slotPinned, ex.Pinned)
	case metricReturn:
		return mean(slotReturn, ex.Back)
	case metricChoseStupefied:
		return prob(slotStupefied, ex.Stupefied)
	}
	panic("scenarios: unknown shooting metric " + metric)
}
