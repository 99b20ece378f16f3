package heresy

import (
	"hammersim/mechanics/dice"
	rules "hammersim/mechanics/heresy"
	"hammersim/sim"
)

// exactValues computes every metric in closed form. Return Fire's losses
// on the firer are an exact distribution; for each outcome the firer's
// attack with the models left has exact counts and an exact casualty
// distribution, and the tests and the target's next attack are summed
// over that distribution, since each depends on the attack only through
// the models it removed (and, for a Pinning test, whether any wound went
// unsaved, which removing a model implies).
func (m *shootingModel) exactValues() shootingExact {
	var ex shootingExact
	if m.reacted {
		ex.reacted = 1
	}
	if m.target.IsStupefied() {
		ex.stupefied = 1
	}
	rf := dice.Point(0)
	if m.returnFire {
		var a rules.Attack
		a.PrepareAt(&m.target, m.back, &m.firer, m.returnFireSit(), m.opts)
		rf = a.Casualties(&m.firer)
		ex.returnFire = rf.Mean()
	}
	next := m.nextAttack()
	var a rules.Attack
	for cf := rf.Min; cf <= rf.Max(); cf++ {
		w := rf.At(cf)
		if w == 0 {
			continue
		}
		f := m.firer
		if !m.opts.ReturnFireAfterCasualties {
			f.Models -= cf
		}
		a.PrepareAt(&f, m.weapons, &m.target, m.sit, m.opts)
		if cf == 0 {
			ex.maxCount = maxCount(&a)
		}
		m.addAttack(&ex, &a, w, next)
	}
	return ex
}

// maxCount bounds any count of hits, wounds or unsaved wounds an attack
// can reach: shots times the hits a shot can score (Blast, Wall of Death),
// times Brutal's wounds per hit, with Deflagrate's hits on top.
func maxCount(a *rules.Attack) int {
	total := 0
	for _, v := range a.Volleys {
		c := &v.Chain
		perShot := 1
		switch {
		case c.WallOfDeath:
			perShot = 3
		case c.AutoHits > 0:
			perShot = c.AutoHits
		}
		b := max(c.Brutal, 1)
		hits := v.Models * max(v.Rolls, 1) * shotsOf(v.Weapon).Max() * perShot
		if c.Deflagrate {
			hits += hits * b
		}
		total += hits * b
	}
	return total
}

// nextAttack returns the exact expected casualties of the target's own
// next Shooting Attack on the firer (as it stood before this attack) for
// each number of target models left: [0] as the target stands, [1] with
// Snap Shots after Falling Back or being Pinned.
func (m *shootingModel) nextAttack() [2][]float64 {
	var out [2][]float64
	if len(m.back) == 0 {
		return out
	}
	var a rules.Attack
	for k, snap := range []bool{false, true} {
		out[k] = make([]float64, m.target.Models+1)
		for left := 1; left <= m.target.Models; left++ {
			u := m.target
			u.Models = left
			a.PrepareAt(&u, m.back, &m.firer, m.nextSit(snap), m.opts)
			out[k][left] = a.ExpectedCasualties(&m.firer)
		}
	}
	return out
}

// addAttack adds, with weight w, the exact metrics of the firer's attack
// a (prepared with the models that fire) to ex.
func (m *shootingModel) addAttack(ex *shootingExact, a *rules.Attack, w float64, next [2][]float64) {
	ex.hits += w * a.Expected(rules.StageHits)
	ex.wounds += w * a.Expected(rules.StageWounds)
	unsaved := a.Expected(rules.StageUnsaved)
	ex.unsaved += w * unsaved
	ex.mitigated += w * (unsaved - a.Expected(rules.StageSuffered))
	ex.hot += w * a.ExpectedHot()
	cas := a.Casualties(&m.target)
	ex.casualties += w * cas.Mean()
	n := m.target.Models
	ex.destroyed += w * cas.At(n)
	if m.concussionCounts() {
		ex.concussed += w * a.PConcussedAlive(&m.target) * (1 - rules.PassProbability(m.target.Ld))
	}
	noUnsaved := a.Dist(rules.StageUnsaved).At(0)
	passMorale := m.target.PassProbability(rules.MoraleCheck, rules.PhaseShooting, -m.fear)
	passPin := m.target.PassProbability(rules.PinningTest, rules.PhaseShooting, -m.fear)
	for c := range n {
		pc := w * cas.At(c)
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
			wounded = max(cas.At(0)-noUnsaved, 0) / cas.At(0)
		}
		pinned := 0.0
		if m.pinning {
			pinned = (1 - fell) * wounded * (1 - passPin)
		}
		ex.morale += pc * fell
		ex.pinned += pc * pinned
		if len(m.back) > 0 {
			e := (1 - fell - pinned) * next[0][n-c]
			if m.brokenSnap {
				e += (fell + pinned) * next[1][n-c]
			}
			ex.next += pc * e
		}
	}
}

// concussionCounts reports whether a Concussive test the target fails
// affects it: a Stupefied unit ignores Concussive gained after it became
// Stupefied only with the StupefiedIgnoresLater option.
func (m *shootingModel) concussionCounts() bool {
	return !(m.target.IsStupefied() && m.opts.StupefiedIgnoresLater)
}

// shotsOf is the shots of a weapon, one when none are written.
func shotsOf(w rules.Weapon) dice.Expr {
	if w.Shots.IsZero() {
		return dice.Const(1)
	}
	return w.Shots
}

func (m *shootingModel) Slots() []sim.Slot {
	n, nf, ex := m.target.Models, m.firer.Models, &m.exact
	mc := ex.maxCount
	return []sim.Slot{
		slotHits: {Name: metricHits, Hi: mc}, slotWounds: {Name: metricWounds, Hi: mc},
		slotUnsaved: {Name: metricUnsaved, Hi: mc}, slotMitigated: {Name: metricMitigated, Hi: mc},
		slotCasualties: {Name: metricCasualties, Hi: n}, slotDestroyed: {Name: metricDestroyed, Hi: 1},
		slotMorale: {Name: metricMorale, Hi: 1}, slotPinned: {Name: metricPinned, Hi: 1},
		slotConcussed: {Name: metricConcussed, Hi: 1}, slotReacted: {Name: metricReacted, Hi: 1},
		slotReturnFire: {Name: metricReturnFire, Hi: nf}, slotNextAttack: {Name: metricNextAttack, Hi: nf},
		slotGetsHot: {Name: metricGetsHot, Hi: mc}, slotStupefied: {Name: metricChoseStupefied, Hi: 1},
	}
}

func (m *shootingModel) NewTrial() sim.Trial {
	t := &shootingTrial{m: m}
	t.att.PrepareAt(&m.firer, m.weapons, &m.target, m.sit, m.opts)
	if len(m.back) > 0 {
		t.rf.PrepareAt(&m.target, m.back, &m.firer, m.returnFireSit(), m.opts)
		t.next.PrepareAt(&m.target, m.back, &m.firer, m.nextSit(false), m.opts)
		t.snap.PrepareAt(&m.target, m.back, &m.firer, m.nextSit(true), m.opts)
	}
	return t
}

// shootingTrial owns prepared attacks, whose volleys are resized to the
// models left in each trial.
type shootingTrial struct {
	m                   *shootingModel
	att, rf, next, snap rules.Attack
}

func setModels(a *rules.Attack, n int) {
	for i := range a.Volleys {
		a.Volleys[i].Models = max(n, 0)
	}
}

func (t *shootingTrial) Run(r *dice.Rand, n int, tally *sim.Tally) {
	m, h := t.m, tally.H
	for range n {
		tg, f := m.target, m.firer
		rfLost := 0
		if m.returnFire {
			rfLost = t.rf.Roll(r, &f).Casualties
		}
		if m.opts.ReturnFireAfterCasualties {
			setModels(&t.att, m.firer.Models)
		} else {
			setModels(&t.att, f.Models)
		}
		res := t.att.Roll(r, &tg)
		h[slotHits].Add(res.Hits)
		h[slotWounds].Add(res.Wounds)
		h[slotUnsaved].Add(res.Unsaved)
		h[slotMitigated].Add(res.Unsaved - res.Suffered)
		h[slotCasualties].Add(res.Casualties)
		h[slotGetsHot].Add(res.Hot)
		h[slotReturnFire].Add(rfLost)
		h[slotReacted].Add(b2i(m.reacted))
		h[slotStupefied].Add(b2i(m.target.IsStupefied()))
		fell, pinned, concussed, next := false, false, false, 0
		if !tg.Destroyed() {
			if m.morale && 4*res.Casualties >= m.target.Models && !tg.TakeTest(r, rules.MoraleCheck, rules.PhaseShooting, -m.fear) {
				tg.FallBack()
				fell = true
			}
			if m.pinning && !fell && res.Unsaved > 0 && !tg.TakeTest(r, rules.PinningTest, rules.PhaseShooting, -m.fear) {
				pinned = tg.Pin()
			}
			if res.Concussive > 0 && m.concussionCounts() {
				concussed = !rules.RollTest(r, tg.Ld)
			}
			next = t.nextAttack(r, &tg, fell || pinned)
		}
		h[slotDestroyed].Add(b2i(tg.Destroyed()))
		h[slotMorale].Add(b2i(fell))
		h[slotPinned].Add(b2i(pinned))
		h[slotConcussed].Add(b2i(concussed))
		h[slotNextAttack].Add(next)
	}
}

// nextAttack rolls the target's own next Shooting Attack on the firer as
// it stood before this attack, with the target's models left.
func (t *shootingTrial) nextAttack(r *dice.Rand, tg *rules.Unit, broken bool) int {
	m := t.m
	if len(m.back) == 0 || (broken && !m.brokenSnap) {
		return 0
	}
	att := &t.next
	if broken {
		att = &t.snap
	}
	setModels(att, tg.Models)
	f := m.firer
	return att.Roll(r, &f).Casualties
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
	case metricConcussed:
		return prob(slotConcussed, ex.concussed)
	case metricReacted:
		return prob(slotReacted, ex.reacted)
	case metricReturnFire:
		return mean(slotReturnFire, ex.returnFire)
	case metricNextAttack:
		return mean(slotNextAttack, ex.next)
	case metricGetsHot:
		return mean(slotGetsHot, ex.hot)
	case metricChoseStupefied:
		return prob(slotStupefied, ex.stupefied)
	}
	panic("scenarios/heresy: unknown shooting metric " + metric)
}
