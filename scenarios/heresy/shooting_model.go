package heresy

import (
	"hammersim/mechanics/dice"
	rules "hammersim/mechanics/heresy"
	"hammersim/sim"
	"math"
)

func (m *shootingModel) Slots() []sim.Slot {
	n, nf, ex := m.Target.Models, m.Firer.Models, &m.exact
	mc := ex.MaxCount
	back := rules.MaxShots(&m.Target, m.Back) // the target's Gets Hot wounds in one attack
	return []sim.Slot{
		slotHits: {Name: metricHits, Hi: mc}, slotWounds: {Name: metricWounds, Hi: mc},
		slotUnsaved: {Name: metricUnsaved, Hi: mc}, slotMitigated: {Name: metricMitigated, Hi: mc},
		slotCasualties: {Name: metricCasualties, Hi: n}, slotDestroyed: {Name: metricDestroyed, Hi: 1},
		slotMorale: {Name: metricMorale, Hi: 1}, slotPinned: {Name: metricPinned, Hi: 1},
		slotConcussed: {Name: metricConcussed, Hi: 1}, slotReacted: {Name: metricReacted, Hi: 1},
		slotReturnFire: {Name: metricReturnFire, Hi: nf}, slotReturnFireHot: {Name: metricReturnFireHot, Hi: back},
		slotNextAttack: {Name: metricNextAttack, Hi: nf}, slotNextAttackHot: {Name: metricNextAttackHot, Hi: back},
		slotGetsHot: {Name: metricGetsHot, Hi: mc}, slotStupefied: {Name: metricChoseStupefied, Hi: 1},
	}
}

func (m *shootingModel) NewTrial() sim.Trial {
	t := &shootingTrial{m: m}
	t.att.PrepareAt(&m.Firer, m.Weapons, &m.Target, m.Situation, m.Options)
	if len(m.Back) > 0 {
		t.rf.PrepareAt(&m.Target, m.Back, &m.Firer, m.ReturnFireSituation(), m.Options)
		t.next.PrepareAt(&m.Target, m.Back, &m.Firer, m.NextSituation(false), m.Options)
		t.snap.PrepareAt(&m.Target, m.Back, &m.Firer, m.NextSituation(true), m.Options)
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
		tg, f := m.Target, m.Firer
		var rf rules.Tally
		if m.ReturnFire {
			// The target's own Gets Hot wounds go onto it before it is shot.
			rf = t.rf.Fire(r, &tg, &f)
		}
		if m.Options.ReturnFireAfterCasualties {
			setModels(&t.att, m.Firer.Models)
		} else {
			setModels(&t.att, f.Models)
		}
		var res rules.Tally
		if !tg.Destroyed() {
			// The firer's own Gets Hot wounds go onto it: its state is what
			// the target's next attack finds.
			t.att.Retarget(tg.Models, m.Options)
			res = t.att.Fire(r, &f, &tg)
		}
		h[slotHits].Add(res.Hits)
		h[slotWounds].Add(res.Wounds)
		h[slotUnsaved].Add(res.Unsaved)
		h[slotMitigated].Add(res.Unsaved - res.Suffered)
		h[slotCasualties].Add(res.Casualties)
		h[slotGetsHot].Add(res.Hot)
		h[slotReturnFire].Add(rf.Casualties)
		h[slotReturnFireHot].Add(rf.Hot)
		h[slotReacted].Add(b2i(m.reacted))
		h[slotStupefied].Add(b2i(m.Target.IsStupefied()))
		fell, pinned, concussed := false, false, false
		var next rules.Tally
		if !tg.Destroyed() {
			// The Pinning test follows the attack at once; the Morale check
			// for casualties comes at the end of the phase, Pinned or not,
			// counting every model lost in the phase.
			pinning := res.Unsaved
			if m.PinningSuffered {
				pinning = res.Suffered
			}
			if m.Pinning && pinning > 0 && !tg.TakeTest(r, rules.PinningTest, rules.PhaseShooting, -m.Fear, m.Options) {
				pinned = tg.Pin()
			}
			if m.MoraleCheck && 4*(m.Target.Models-tg.Models) >= m.Target.Models && !tg.TakeTest(r, rules.MoraleCheck, rules.PhaseShooting, -m.Fear, m.Options) {
				tg.FallBack()
				fell = true
			}
			if res.Concussive > 0 && m.ConcussionCounts() {
				concussed = !rules.RollTest(r, tg.Ld, false) // a Leadership test, not a Morale check: no Insane Heroism
			}
			next = t.nextAttack(r, &tg, &f, fell || pinned)
		}
		h[slotDestroyed].Add(b2i(tg.Destroyed()))
		h[slotMorale].Add(b2i(fell))
		h[slotPinned].Add(b2i(pinned))
		h[slotConcussed].Add(b2i(concussed))
		h[slotNextAttack].Add(next.Casualties)
		h[slotNextAttackHot].Add(next.Hot)
	}
}

// nextAttack rolls the target's own next Shooting Attack, with its models
// left, on the firer as it stands after this attack (f: Return Fire's
// casualties and its own Gets Hot wounds taken). A firer with no models
// left is not shot at. The Tally counts the target's Gets Hot wounds
// (Hot), which nothing later in the question reads.
func (t *shootingTrial) nextAttack(r *dice.Rand, tg, f *rules.Unit, broken bool) rules.Tally {
	m := t.m
	if len(m.Back) == 0 || (broken && !m.BrokenSnapShots) || f.Destroyed() {
		return rules.Tally{}
	}
	att := &t.next
	if broken {
		att = &t.snap
	}
	setModels(att, tg.Models)
	att.Retarget(f.Models, m.Options)
	return att.Roll(r, f)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// estimate reads one metric of the model from its tally.
func (m *shootingModel) estimate(metric string, ps []sim.Param, t *sim.Tally, n int64) sim.Estimate {
	e := m.estimateWithExact(metric, ps, t, n).AtLeast(0) // every average is a count
	if m.exact.OverBudget {
		return e.WithoutExact() // rules.MaxExactWork
	}
	return e
}

func (m *shootingModel) estimateWithExact(metric string, ps []sim.Param, t *sim.Tally, n int64) sim.Estimate {
	ex := &m.exact
	mean := func(slot int, v float64) sim.Estimate { return sim.MeanOf(metric, ps, &t.H[slot]).WithExact(v) }
	// spread is mean with the exact spread its mean square v2 gives.
	spread := func(slot int, v, v2 float64) sim.Estimate {
		return mean(slot, v).WithExactSD(math.Sqrt(max(v2-v*v, 0)))
	}
	// counted attaches the exact distribution behind a count, keeping the
	// closed-form mean as the exact value (rounding may part the two in
	// the last digits).
	counted := func(slot int, v float64, d dice.Dist) sim.Estimate {
		return sim.MeanOf(metric, ps, &t.H[slot]).WithExactPMF(sim.PMF{Min: d.Min, P: d.P}).WithExact(v)
	}
	prob := func(slot int, v float64) sim.Estimate {
		return sim.ProbabilityOf(metric, ps, t.H[slot].Count(1), n).WithExact(clamp01(v))
	}
	switch metric {
	case metricHits:
		return counted(slotHits, ex.Hits, ex.HitsDist)
	case metricWounds:
		return counted(slotWounds, ex.Wounds, ex.WoundsDist)
	case metricUnsaved:
		return counted(slotUnsaved, ex.Unsaved, ex.UnsavedDist)
	case metricMitigated:
		return spread(slotMitigated, ex.Mitigated, ex.Mitigated2)
	case metricCasualties:
		return counted(slotCasualties, ex.Casualties, ex.CasualtiesDist)
	case metricDestroyed:
		return prob(slotDestroyed, ex.Destroyed)
	case metricMorale:
		return prob(slotMorale, ex.Morale)
	case metricPinned:
		return prob(slotPinned, ex.Pinned)
	case metricConcussed:
		return prob(slotConcussed, ex.Concussed)
	case metricReacted:
		return prob(slotReacted, float64(b2i(m.reacted)))
	case metricReturnFire:
		return counted(slotReturnFire, ex.ReturnFire, ex.ReturnFireDist)
	case metricReturnFireHot:
		return spread(slotReturnFireHot, ex.ReturnFireHot, ex.ReturnFireHot2)
	case metricNextAttack:
		return spread(slotNextAttack, ex.Next, ex.Next2)
	case metricNextAttackHot:
		return spread(slotNextAttackHot, ex.NextHot, ex.NextHot2)
	case metricGetsHot:
		return spread(slotGetsHot, ex.Hot, ex.Hot2)
	case metricChoseStupefied:
		return prob(slotStupefied, ex.Stupefied)
	}
	panic("scenarios/heresy: unknown shooting metric " + metric)
}
