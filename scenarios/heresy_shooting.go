package scenarios

import (
	"slices"

	"hammersim/mechanics/dice"
	"hammersim/mechanics/heresy"
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
//     choose only then); when_it_pays chooses with heresy.StupefyChooser,
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
	hhHits           = "hits"
	hhWounds         = "wounds"
	hhUnsaved        = "unsaved_wounds"
	hhMitigated      = "mitigated"
	hhCasualties     = "casualties"
	hhDestroyed      = "destroyed"
	hhMorale         = "morale_failed"
	hhPinned         = "pinned"
	hhReturn         = "return_casualties"
	hhChoseStupefied = "chose_stupefied"
)

var hhShootingMetrics = []string{hhHits, hhWounds, hhUnsaved, hhMitigated, hhCasualties, hhDestroyed, hhMorale, hhPinned, hhReturn, hhChoseStupefied}

// Slots of a shooting model's tally, one per metric.
const (
	hsHits = iota
	hsWounds
	hsUnsaved
	hsMitigated
	hsCasualties
	hsDestroyed
	hsMorale
	hsPinned
	hsReturn
	hsStupefied
	hsSlots
)

var hhShootingOptions = []hhOption{
	{key: "cap_bs_at_7", boolean: true, def: heresy.DefaultOptions.CapBSAt7},
	hhOptFNP,
	hhOptBlunted,
	{key: "stupefied_fixed_strength", boolean: true, def: heresy.DefaultOptions.StupefiedFixedStrength},
	// When a Shooting Attack forces a Morale check is not in the texts:
	// "quarter" is the usual trigger (a quarter or more of the models the
	// unit had when the attack began), "never" takes none. OPEN.
	{key: "morale_check", words: []string{"quarter", "never"}, def: "quarter"},
	// How a unit that Fell Back or is Pinned shoots back is not in the
	// texts: "snap_shots" (at BS 1), or "none". OPEN.
	{key: "broken_return_fire", words: []string{"snap_shots", "none"}, def: "snap_shots"},
}

var hhStupefyPolicies = map[string]heresy.StupefyPolicy{
	"never":        heresy.StupefyNever,
	"always":       heresy.StupefyAlways,
	"when_it_pays": heresy.StupefyWhenItPays,
}

func hhDecodeShooting(d *decoder, n *node, rs *ruleset) compiler {
	var (
		firer, target Param[*hhUnitSpec]
		policy        = fixed("never")
		policyAt      = n
		pinning       = fixed(false)
		opts          = hhDecodeOptions(d, nil, hhShootingOptions)
		metricList    []*node
		grid          *hhGrid
	)
	d.object(n, "the shooting question", []field{
		{key: "firer", required: true, decode: func(n *node) { firer = hhUnitParam(d, n, "firer", rs, hhRoleFirer) }},
		{key: "target", required: true, decode: func(n *node) { target = hhUnitParam(d, n, "target", rs, hhRoleTarget) }},
		{key: "stupefied", decode: func(n *node) {
			policyAt = n
			policy = sweep(d, n, "stupefied", false, func(n *node) (string, bool) {
				s, ok := d.scalar(n, "the Stupefied policy (never, always or when_it_pays)")
				if _, known := hhStupefyPolicies[s]; ok && !known {
					d.errorf(n, "stupefied %q: expected never, always or when_it_pays", s)
					return "", false
				}
				return s, ok
			}, identity)
		}},
		{key: "pinning", decode: func(n *node) {
			pinning = sweep(d, n, "pinning", false, func(n *node) (bool, bool) { return d.boolean(n, "pinning") }, identity)
		}},
		{key: "options", decode: func(n *node) { opts = hhDecodeOptions(d, n, hhShootingOptions) }},
		{key: "metrics", decode: func(n *node) { metricList = hhDecodeMetrics(d, n, hhShootingMetrics) }},
		{key: "grid", decode: func(n *node) { grid = hhDecodeGrid(d, n) }},
	})
	return func(d *decoder, axes []*axis, s *Scenario) {
		if !hhSpecsReady(firer, target) || !policy.Set() || !pinning.Set() {
			return
		}
		// Which metrics apply: pinned needs pinning, return_casualties a
		// target with weapons, chose_stupefied a choice to make.
		applies := map[string]bool{}
		for _, m := range hhShootingMetrics {
			applies[m] = true
		}
		applies[hhPinned] = slices.Contains(pinning.Values(), true)
		applies[hhReturn] = slices.ContainsFunc(target.Values(), func(u *hhUnitSpec) bool { return len(u.weapons) > 0 })
		applies[hhChoseStupefied] = slices.Contains(policy.Values(), "when_it_pays")
		var def []string
		for _, m := range hhShootingMetrics {
			if applies[m] {
				def = append(def, m)
			}
		}
		for _, mn := range metricList {
			switch {
			case mn.text == hhPinned && !applies[hhPinned]:
				d.errorf(mn, "metric pinned needs pinning: true (the attack forcing a Pinning test)")
			case mn.text == hhReturn && !applies[hhReturn]:
				d.errorf(mn, "metric return_casualties needs a target with weapons to shoot back with")
			}
		}
		metrics := hhMetricNames(metricList, def)

		stupefyErr := false
		models, group, ok := groups(axes, func(pt point) (sim.Model, bool) {
			f, okF := firer.At(pt).at(d, pt)
			t, okT := target.At(pt).at(d, pt)
			if !okF || !okT {
				return nil, false
			}
			m := &hhShootingModel{
				firer: f.unit, target: t.unit, weapons: f.weapons, back: t.weapons,
				opts:       opts.rules(pt),
				morale:     opts.at("morale_check", pt) == "quarter",
				brokenSnap: opts.at("broken_return_fire", pt) == "snap_shots",
				pinning:    pinning.At(pt),
			}
			p := hhStupefyPolicies[policy.At(pt)]
			if p != heresy.StupefyNever && !m.target.CanStupefy(m.opts) {
				if !stupefyErr {
					hhErrorf(d, policyAt, axes, pt, "stupefied: %s, but target %q cannot become Stupefied: every model needs Lords of Profligacy", policy.At(pt), t.spec.name)
				}
				stupefyErr = true
				return nil, false
			}
			m.choose(p)
			m.exact = m.exactValues()
			return m, true
		})
		if !ok {
			return
		}
		var probs []string
		for _, mt := range metrics {
			if mt == hhDestroyed || mt == hhMorale || mt == hhPinned || mt == hhChoseStupefied {
				probs = append(probs, mt)
			}
		}
		s.Grid = grid.check(d, axes, probs)
		s.Models = models
		s.results = func(run sim.Run) []sim.Estimate {
			var out []sim.Estimate
			for _, mt := range metrics {
				eachPoint(axes, func(pt point) {
					if mt == hhChoseStupefied && policy.At(pt) != "when_it_pays" && metricList == nil {
						return
					}
					g := group(pt)
					out = append(out, models[g].(*hhShootingModel).estimate(mt, params(axes, pt), run.Tallies[g], run.Completed[g]))
				})
			}
			return out
		}
	}
}

// hhShootingModel is one point of a shooting question.
type hhShootingModel struct {
	// firer and target are the units as the attack begins, the target
	// Stupefied as its policy chose.
	firer, target heresy.Unit
	// weapons are the firer's; back the target's, for its answering fire.
	weapons, back []heresy.Weapon
	opts          heresy.Options
	morale        bool // a quarter lost forces a Morale check
	pinning       bool // the attack forces a Pinning test
	brokenSnap    bool // a Fallen Back or Pinned unit shoots back at BS 1
	exact         hhShootingExact
}

// hhShootingExact holds the exact value of every metric.
type hhShootingExact struct {
	hits, wounds, unsaved, mitigated, casualties float64
	destroyed, morale, pinned, back, stupefied   float64
	maxShots                                     int
}

// choose applies the Stupefied policy to the target, weighing, for
// when_it_pays, the firer's attack against the target's own at the firer.
func (m *hhShootingModel) choose(p heresy.StupefyPolicy) {
	c := heresy.StupefyChooser{Policy: p}
	st := heresy.StupefyStakes{Enemy: &m.firer, EnemyWeapons: m.weapons}
	if len(m.back) > 0 {
		st.OwnTarget, st.OwnWeapons = &m.firer, m.back
	}
	if c.Choose(&m.target, st, m.opts) {
		m.target.Stupefy(false, m.opts)
	}
}

// snapTarget is the target shooting back after it Fell Back or was
// Pinned: Snap Shots only, so BS 1.
func (m *hhShootingModel) snapTarget() heresy.Unit {
	u := m.target
	u.BS = min(u.BS, heresy.SnapShotBS)
	return u
}

// exactValues computes every metric in closed form. The attack's counts
// and casualties come from heresy's exact distributions; the tests and the
// answering fire are summed over the casualty distribution, since each
// depends on the attack only through the models it removed (and, for a
// Pinning test, whether any wound went unsaved, which removing a model
// implies).
func (m *hhShootingModel) exactValues() hhShootingExact {
	var a heresy.Attack
	a.Prepare(&m.firer, m.weapons, &m.target, m.opts)
	var ex hhShootingExact
	ex.hits = a.Expected(heresy.StageHits)
	ex.wounds = a.Expected(heresy.StageWounds)
	ex.unsaved = a.Expected(heresy.StageUnsaved)
	ex.mitigated = ex.unsaved - a.Expected(heresy.StageSuffered)
	cas := a.Casualties(&m.target)
	ex.casualties = cas.Mean()
	n := m.target.Models
	ex.destroyed = cas.At(n)
	if m.target.IsStupefied() {
		ex.stupefied = 1
	}
	for _, v := range a.Volleys {
		ex.maxShots += v.Models * hhShotsOf(v.Weapon).Max()
	}
	noUnsaved := a.Dist(heresy.StageUnsaved).At(0)
	passMorale := m.target.PassProbability(heresy.MoraleCheck, heresy.PhaseShooting, 0)
	passPin := m.target.PassProbability(heresy.PinningTest, heresy.PhaseShooting, 0)
	var back, snap heresy.Attack
	expectBack := func(att *heresy.Attack, u heresy.Unit, models int) float64 {
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

// hhShotsOf is the shots of a weapon, one when none are written.
func hhShotsOf(w heresy.Weapon) dice.Expr {
	if w.Shots.IsZero() {
		return dice.Const(1)
	}
	return w.Shots
}

func (m *hhShootingModel) Slots() []sim.Slot {
	n, ex := m.target.Models, &m.exact
	return []sim.Slot{
		hsHits: {Name: hhHits, Hi: ex.maxShots}, hsWounds: {Name: hhWounds, Hi: ex.maxShots},
		hsUnsaved: {Name: hhUnsaved, Hi: ex.maxShots}, hsMitigated: {Name: hhMitigated, Hi: ex.maxShots},
		hsCasualties: {Name: hhCasualties, Hi: n}, hsDestroyed: {Name: hhDestroyed, Hi: 1},
		hsMorale: {Name: hhMorale, Hi: 1}, hsPinned: {Name: hhPinned, Hi: 1},
		hsReturn: {Name: hhReturn, Hi: m.firer.Models}, hsStupefied: {Name: hhChoseStupefied, Hi: 1},
	}
}

func (m *hhShootingModel) NewTrial() sim.Trial {
	t := &hhShootingTrial{m: m}
	t.att.Prepare(&m.firer, m.weapons, &m.target, m.opts)
	if len(m.back) > 0 {
		t.back.Prepare(&m.target, m.back, &m.firer, m.opts)
		snap := m.snapTarget()
		t.snap.Prepare(&snap, m.back, &m.firer, m.opts)
	}
	return t
}

// hhShootingTrial owns prepared attacks: the answering fire's volleys are
// resized to the models left in each trial.
type hhShootingTrial struct {
	m               *hhShootingModel
	att, back, snap heresy.Attack
}

func (t *hhShootingTrial) Run(r *dice.Rand, n int, tally *sim.Tally) {
	m, h := t.m, tally.H
	stupefied := 0
	if m.target.IsStupefied() {
		stupefied = 1
	}
	for range n {
		tg := m.target
		res := t.att.Roll(r, &tg)
		h[hsHits].Add(res.Hits)
		h[hsWounds].Add(res.Wounds)
		h[hsUnsaved].Add(res.Unsaved)
		h[hsMitigated].Add(res.Unsaved - res.Suffered)
		h[hsCasualties].Add(res.Casualties)
		h[hsStupefied].Add(stupefied)
		fell, pinned, back := false, false, 0
		if !tg.Destroyed() {
			if m.morale && 4*res.Casualties >= m.target.Models && !tg.TakeTest(r, heresy.MoraleCheck, heresy.PhaseShooting, 0) {
				tg.FallBack()
				fell = true
			}
			if m.pinning && !fell && res.Unsaved > 0 && !tg.TakeTest(r, heresy.PinningTest, heresy.PhaseShooting, 0) {
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
		h[hsDestroyed].Add(hhB2I(tg.Destroyed()))
		h[hsMorale].Add(hhB2I(fell))
		h[hsPinned].Add(hhB2I(pinned))
		h[hsReturn].Add(back)
	}
}

func hhB2I(b bool) int {
	if b {
		return 1
	}
	return 0
}

// estimate reads one metric of the model from its tally.
func (m *hhShootingModel) estimate(metric string, ps []sim.Param, t *sim.Tally, n int64) sim.Estimate {
	ex := &m.exact
	mean := func(slot int, v float64) sim.Estimate { return sim.MeanOf(metric, ps, &t.H[slot]).WithExact(v) }
	prob := func(slot int, v float64) sim.Estimate {
		return sim.ProbabilityOf(metric, ps, t.H[slot].Count(1), n).WithExact(hhClamp01(v))
	}
	switch metric {
	case hhHits:
		return mean(hsHits, ex.hits)
	case hhWounds:
		return mean(hsWounds, ex.wounds)
	case hhUnsaved:
		return mean(hsUnsaved, ex.unsaved)
	case hhMitigated:
		return mean(hsMitigated, ex.mitigated)
	case hhCasualties:
		return mean(hsCasualties, ex.casualties)
	case hhDestroyed:
		return prob(hsDestroyed, ex.destroyed)
	case hhMorale:
		return prob(hsMorale, ex.morale)
	case hhPinned:
		return prob(hsPinned, ex.pinned)
	case hhReturn:
		return mean(hsReturn, ex.back)
	case hhChoseStupefied:
		return prob(hsStupefied, ex.stupefied)
	}
	panic("scenarios: unknown shooting metric " + metric)
}
