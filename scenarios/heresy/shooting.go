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
			m := &shootingModel{
				firer: f.unit, target: t.unit, weapons: f.weapons, back: t.weapons,
				opts:       opts.options(pt),
				morale:     opts.at("morale_check", pt) == "quarter",
				brokenSnap: opts.at("broken_return_fire", pt) == "snap_shots",
				pinning:    pinning.At(pt),
			}
			p := stupefyPolicies[policy.At(pt)]
			if p != rules.StupefyNever && !m.target.CanStupefy(m.opts) {
				if !stupefyErr {
					errorAt(d, policyAt, axes, pt, "stupefied: %s, but target %q cannot become Stupefied: every model needs Lords of Profligacy", policy.At(pt), t.spec.name)
				}
				stupefyErr = true
				return nil, false
			}
			m.choose(p)
			m.exact = m.exactValues()
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

// shootingModel is one point of a shooting question.
type shootingModel struct {
	// firer and target are the units as the attack begins, the target
	// Stupefied as its policy chose.
	firer, target rules.Unit
	// weapons are the firer's; back the target's, for its answering fire.
	weapons, back []rules.Weapon
	opts          rules.Options
	morale        bool // a quarter lost forces a Morale check
	pinning       bool // the attack forces a Pinning test
	brokenSnap    bool // a Fallen Back or Pinned unit shoots back at BS 1
	exact         shootingExact
}

// shootingExact holds the exact value of every metric.
type shootingExact struct {
	hits, wounds, unsaved, mitigated, casualties float64
	destroyed, morale, pinned, back, stupefied   float64
	maxShots                                     int
}

// choose applies the Stupefied policy to the target, weighing, for
// when_it_pays, the firer's attack against the target's own at the firer.
func (m *shootingModel) choose(p rules.StupefyPolicy) {
	c := rules.StupefyChooser{Policy: p}
	st := rules.StupefyStakes{Enemy: &m.firer, EnemyWeapons: m.weapons}
	if len(m.back) > 0 {
		st.OwnTarget, st.OwnWeapons = &m.firer, m.back
	}
	if c.Choose(&m.target, st, m.opts) {
		m.target.Stupefy(false, m.opts)
	}
}

// snapTarget is the target shooting back after it Fell Back or was
// Pinned: Snap Shots only, so BS 1.
func (m *shootingModel) snapTarget() rules.Unit {
	u := m.target
	u.BS = min(u.BS, rules.SnapShotBS)
	return u
}

// exactValues computes every metric in closed form. The attack's counts
// and casualties come from heresy's exact distributions; the tests and the
// answering fire are summed over the casualty distribution, since each
// depends on the attack only through the models it removed (and, for a
// Pinning test, whether any wound went unsaved, which removing a model
// implies).
func (m *shootingModel) exactValues() shootingExact {
	var a rules.Attack
	a.Prepare(&m.firer, m.weapons, &m.target, m.opts)
	var ex shootingExact
	ex.hits = a.Expected(rules.StageHits)
	ex.wounds = a.Expected(rules.StageWounds)
	ex.unsaved = a.Expected(rules.StageUnsaved)
	ex.mitigated = ex.unsaved - a.Expected(rules.StageSuffered)
	cas := a.Casualties(&m.target)
	ex.casualties = cas.Mean()
	n := m.target.Models
	ex.destroyed = cas.At(n)
	if m.target.IsStupefied() {
		ex.stupefied = 1
	}
	for _, v := range a.Volleys {
		ex.maxShots += v.Models * shotsOf(v.Weapon).Max()
	}
	noUnsaved := a.Dist(rules.StageUnsaved).At(0)
	passMorale := m.target.PassProbability(rules.MoraleCheck, rules.PhaseShooting, 0)
	passPin := m.target.PassProbability(rules.PinningTest, rules.PhaseShooting, 0)
	var back, snap rules.Attack
	expectBack := func(att *rules.Attack, u rules.Unit, models int) float64 {
		u.Models = models
		att.Prepare(&u, m.back, &m.firer, m.opts)
		return att.ExpectedCasualties(&m.firer)
	}
	for c := range n {
		pc := cas.At(c)
		if pc == 0 {
			continue
		}
		fell := 0.0
		if m.morale && 4*c >= n {
			fell = 1 - passMorale
		}
		// P(an unsaved wound | c casualties): certain when a model was
		// removed; with none removed, every trial but those with no
		// unsaved wound at all.
		wounded := 1.0
		if c == 0 {
			wounded = max(pc-noUnsaved, 0) / pc
		}
		pinned := 0.0
		if m.pinning {
			pinned = (1 - fell) * wounded * (1 - passPin)
		}
		ex.morale += pc * fell
		ex.pinned += pc * pinned
		if len(m.back) > 0 {
			e := (1 - fell - pinned) * expectBack(&back, m.target, n-c)
			if m.brokenSnap && fell+pinned > 0 {
				e += (fell + pinned) * expectBack(&snap, m.snapTarget(), n-c)
			}
			ex.back += pc * e
		}
	}
	return ex
}

// shotsOf is the shots of a weapon, one when none are written.
func shotsOf(w rules.Weapon) dice.Expr {
	if w.Shots.IsZero() {
		return dice.Const(1)
	}
	return w.Shots
}

func (m *shootingModel) Slots() []sim.Slot {
	n, ex := m.target.Models, &m.exact
	return []sim.Slot{
		slotHits: {Name: metricHits, Hi: ex.maxShots}, slotWounds: {Name: metricWounds, Hi: ex.maxShots},
		slotUnsaved: {Name: metricUnsaved, Hi: ex.maxShots}, slotMitigated: {Name: metricMitigated, Hi: ex.maxShots},
		slotCasualties: {Name: metricCasualties, Hi: n}, slotDestroyed: {Name: metricDestroyed, Hi: 1},
		slotMorale: {Name: metricMorale, Hi: 1}, slotPinned: {Name: metricPinned, Hi: 1},
		slotReturn: {Name: metricReturn, Hi: m.firer.Models}, slotStupefied: {Name: metricChoseStupefied, Hi: 1},
	}
}

func (m *shootingModel) NewTrial() sim.Trial {
	t := &shootingTrial{m: m}
	t.att.Prepare(&m.firer, m.weapons, &m.target, m.opts)
	if len(m.back) > 0 {
		t.back.Prepare(&m.target, m.back, &m.firer, m.opts)
		snap := m.snapTarget()
		t.snap.Prepare(&snap, m.back, &m.firer, m.opts)
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
	if m.target.IsStupefied() {
		stupefied = 1
	}
	for range n {
		tg := m.target
		res := t.att.Roll(r, &tg)
		h[slotHits].Add(res.Hits)
		h[slotWounds].Add(res.Wounds)
		h[slotUnsaved].Add(res.Unsaved)
		h[slotMitigated].Add(res.Unsaved - res.Suffered)
		h[slotCasualties].Add(res.Casualties)
		h[slotStupefied].Add(stupefied)
		fell, pinned, back := false, false, 0
		if !tg.Destroyed() {
			if m.morale && 4*res.Casualties >= m.target.Models && !tg.TakeTest(r, rules.MoraleCheck, rules.PhaseShooting, 0) {
				tg.FallBack()
				fell = true
			}
			if m.pinning && !fell && res.Unsaved > 0 && !tg.TakeTest(r, rules.PinningTest, rules.PhaseShooting, 0) {
				pinned = tg.Pin()
			}
			if len(m.back) > 0 && (m.brokenSnap || !(fell || pinned)) {
				att := &t.back
				if fell || pinned {
					att = &t.snap
				}
				for i := range att.Volleys {
					att.Volleys[i].Models = tg.Models
				}
				f := m.firer
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
		return mean(slotHits, ex.hits)
	case metricWounds:
		return mean(slotWounds, ex.wounds)
	case metricUnsaved:
		return mean(slotUnsaved, ex.unsaved)
	case metricMitigated:
		return mean(slotMitigated, ex.mitigated)
	case metricCasualties:
		return mean(slotCasualties, ex.casualties)
	case metricDestroyed:
		return prob(slotDestroyed, ex.destroyed)
	case metricMorale:
		return prob(slotMorale, ex.morale)
	case metricPinned:
		return prob(slotPinned, ex.pinned)
	case metricReturn:
		return mean(slotReturn, ex.back)
	case metricChoseStupefied:
		return prob(slotStupefied, ex.stupefied)
	}
	panic("scenarios: unknown shooting metric " + metric)
}
