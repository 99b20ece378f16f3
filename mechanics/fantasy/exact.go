package fantasy

import (
	"math"
	"slices"

	"hammersim/mechanics/dice"
)

// BattleMetric names a quantity of a battle that may have a closed form.
type BattleMetric uint8

const (
	// BattleChargeSuccess is the chance that the acting unit's charge (or
	// Random Movement) reaches its target.
	BattleChargeSuccess BattleMetric = iota
	// BattleImpactHits and BattleImpactWounds are the mean Impact Hits the
	// acting unit inflicts on the charge, and the wounds they cause.
	BattleImpactHits
	BattleImpactWounds
	// BattleFriendlyWounds is the mean wounds Zzzzap! does to friends.
	BattleFriendlyWounds
	// BattleWounds, BattleKilled and BattleDestroyed are per unit: mean
	// wounds suffered, mean models killed, chance of being destroyed.
	BattleWounds
	BattleKilled
	BattleDestroyed
	// BattleCombatResult is the mean first-round combat result;
	// BattleRounds the mean rounds fought; BattleRoundCap the chance that
	// a combat fought to the end was stopped by MaxRounds.
	BattleCombatResult
	BattleRounds
	BattleRoundCap
	// BattleBroke, BattleCaught and BattleWon are per unit (the acting unit
	// and its target): the chance it broke, was caught, beat an enemy
	// (State.Won).
	BattleBroke
	BattleCaught
	BattleWon
	// BattleLostControl is the chance that a Loss of Control test sent the
	// acting unit Out of Control.
	BattleLostControl
	// BattleFled is per unit: the chance that it fled from a failed Panic
	// test (State.Out.Panicked).
	BattleFled
)

// BattleExact holds the quantities of a battle that have a closed form.
// Each is exact only under the conditions stated in ExactBattle; when they
// fail, the quantity has none.
type BattleExact struct {
	values map[battleKey]float64
	dists  map[battleKey]dice.Dist
	mishap map[int]float64
}

type battleKey struct {
	metric BattleMetric
	unit   int
}

// Value returns the exact value of metric, for unit (an index into
// Battle.Units; 0 for the battle-wide metrics), if it has one.
func (e BattleExact) Value(metric BattleMetric, unit int) (float64, bool) {
	v, ok := e.values[battleKey{metric, unit}]
	return v, ok
}

// Mishap returns the exact chance of Mishap chart result k (0-based after
// "none", in the order of MishapNames), if it has one.
func (e BattleExact) Mishap(k int) (float64, bool) {
	v, ok := e.mishap[k]
	return v, ok
}

// Dist returns the exact distribution of a counted metric, for unit, if
// it has one; its mean is Value's.
func (e BattleExact) Dist(metric BattleMetric, unit int) (dice.Dist, bool) {
	d, ok := e.dists[battleKey{metric, unit}]
	return d, ok
}

func (e BattleExact) set(metric BattleMetric, unit int, v float64) {
	e.values[battleKey{metric, unit}] = v
}

// setDist sets a counted metric's exact distribution, beside the mean
// set from its own closed form.
func (e BattleExact) setDist(metric BattleMetric, unit int, d dice.Dist) {
	e.dists[battleKey{metric, unit}] = d
}

// orZero is the distribution of a count that follows d with chance p and
// is 0 otherwise (d counts from 0 or more).
func orZero(d dice.Dist, p float64) dice.Dist {
	out := make([]float64, d.Max()+1)
	out[0] = 1 - p
	for i, q := range d.P {
		out[d.Min+i] += p * q
	}
	return dice.Dist{P: out}
}

// thin is the distribution of the successes when each of a count
// distributed as d succeeds independently with chance q: a mixture of
// binomials over d.
func thin(d dice.Dist, q float64) dice.Dist {
	out := make([]float64, d.Max()+1)
	row := []float64{1} // Binomial(h, q), for h = 0, 1, ...
	for h := 0; h <= d.Max(); h++ {
		if w := d.At(h); w > 0 {
			for k, b := range row {
				out[k] += w * b
			}
		}
		next := make([]float64, len(row)+1)
		for k, b := range row {
			next[k] += b * (1 - q)
			next[k+1] += b * q
		}
		row = next
	}
	return dice.Dist{P: out}
}

// ExactBattle works out the closed forms a battle has.
//
// Where its moves may run into other units (MeetsOthers), fewer hold. An
// Out of Control move that may run into them leaves only the charge, the
// Zzzzap! bolts and the Mishap chart theirs, since they come before it,
// and the Loss of Control test its own, which counts the wounds of a
// phase before the move it sends the Doomwheel on. A flight from combat
// and a pursuit along the line come after the one combat of the battles
// with closed forms, which fixes its rounds, result, breaks, catches and
// wins, the acting unit's losses too (it flees away from every other unit);
// but the fleeing unit may take wounds on its way, and a fleeing unit may
// be caught, so no other unit keeps its losses. A charge along the line
// may be blocked, or meet a unit other than its target, and it moves every
// unit's distance, so none hold.
func ExactBattle(b *Battle) BattleExact {
	ex, _ := ExactBattleWithin(b, MaxCombatWork)
	return ex
}

// ExactBattleWithin is ExactBattle with at most budget steps (and never
// more than MaxCombatWork) for a combat's closed form (exactCombat), which
// has none past them. It also returns the steps the combat took, for a
// caller that shares one budget among several battles.
func ExactBattleWithin(b *Battle, budget float64) (BattleExact, float64) {
	ex, work := exactBattle(b, min(budget, MaxCombatWork))
	switch {
	case b.chargeMeets():
		// The charge decides whether the Doomwheel is engaged, and so
		// whether it fires: the Mishap chart's chances go too.
		ex.drop(func(battleKey) bool { return true })
		clear(ex.mishap)
	case b.outOfControlMeets():
		ex.drop(func(k battleKey) bool {
			return k.metric != BattleChargeSuccess && k.metric != BattleFriendlyWounds && k.metric != BattleLostControl
		})
	case b.pursuitMeets():
		ex.drop(func(k battleKey) bool {
			return k.unit > 0 && (k.metric == BattleWounds || k.metric == BattleKilled || k.metric == BattleDestroyed)
		})
	}
	return ex, work
}

// drop removes the closed forms that gone picks.
func (e BattleExact) drop(gone func(battleKey) bool) {
	for k := range e.values {
		if gone(k) {
			delete(e.values, k)
		}
	}
	for k := range e.dists {
		if gone(k) {
			delete(e.dists, k)
		}
	}
}

func exactBattle(b *Battle, limit float64) (ex BattleExact, work float64) {
	ex = BattleExact{values: map[battleKey]float64{}, dists: map[battleKey]dice.Dist{}, mishap: map[int]float64{}}
	survive, shot := exactZzzzap(b, ex)
	exactStaticCombat(b, ex)
	engaged := slices.Equal(b.Phases, []Phase{PhaseCombat}) || slices.Equal(b.Phases, []Phase{PhaseCharge, PhaseCombat})
	if engaged && b.Distance[1] == 0 && !(onlyImpact(b.Units[0]) && onlyImpact(b.Units[1])) {
		// Engaged from the start, with blows struck. A charge phase
		// before the combat changes nothing there: an engaged unit
		// declares no charge (a point of a sweep over distances).
		work = exactCombat(b, combatStart{p: 1}, false, ex, limit)
	}
	pCharge, pCombat, pFled, chargeKnown := exactCharge(b)
	if chargeKnown {
		ex.set(BattleChargeSuccess, 0, pCharge)
	}
	exactFled(b, pFled, chargeKnown, ex)
	// lost: the models the target may lose between the charge and the
	// combat.
	lost := 0
	// intact: the charger fights with every model it has.
	intact := true
	switch {
	case !chargeKnown || b.Distance[1] == 0:
		return ex, work
	case slices.Equal(b.Phases, []Phase{PhaseCharge, PhaseCombat}):
	case slices.Equal(b.Phases, []Phase{PhaseCharge, PhaseShooting, PhaseCombat}) && shot:
		// Zzzzap! comes between: the acting unit, engaged, must live
		// through its own Disaster, and its bolts may slay a model each.
		// A Disaster may also slay one of several machines, which then
		// make fewer Impact Hits: no closed form is kept for those.
		pCombat *= survive
		lost = b.Options.ZzzzapBolts
		intact = b.Units[0].Models == 1
	default:
		return ex, work
	}
	if intact {
		exactImpact(b, pCombat, lost, ex)
	}
	if b.Options.Rounds == 1 {
		// One round is fought exactly when the charge leads to a combat
		// (and the combat's closed form, where there is one, says so too).
		ex.set(BattleRounds, 0, pCombat)
		ex.setDist(BattleRounds, 0, orZero(dice.Point(1), pCombat))
	}
	switch {
	case len(b.Phases) == 2:
		// The charges that reach a target that fled from a Terror-causer
		// catch it (pCharge less pCombat, exactCharge): no combat follows.
		work = exactCombat(b, fledFromCharge(b, pCombat, pCharge-pCombat), true, ex, limit)
	case intact:
		// Zzzzap! between: the combat starts from the wounds the bolts and
		// a Disaster left, where the Doomwheel still stands.
		if st, ok := zzzzapBeforeCombat(b); ok {
			work = exactCombat(b, st, true, ex, limit)
		}
	}
	return ex, work
}

// exactCharge is the chance of charge_success: a Random Movement roll, or a
// declared charge's range, reaching the distance (after a test to charge a
// Terror-causer, and a flight from a Terror-causer's charge). It has none
// when the battle has no charge phase first, or the target flees by option:
// a voluntary flight is not modelled in closed form.
//
// pCombat is the part of it that leads to a combat: a charge into a target
// that held (one that fled and was caught fights no round). pFled is the
// chance that the target failed the Terror test and fled: a charge
// declared (the target within the longest charge) at a target it
// terrifies.
func exactCharge(b *Battle) (pCharge, pCombat, pFled float64, known bool) {
	a, t := b.Units[0], b.Units[1]
	if len(b.Phases) == 0 || b.Phases[0] != PhaseCharge {
		return 0, 0, 0, false
	}
	switch {
	case b.Distance[1] == 0: // engaged from the start: no charge
		return 0, 0, 0, true
	case !a.Mover.Random.IsZero():
		p := a.Mover.Random.Dist().AtLeast(b.Distance[1])
		return p, p, 0, true
	case b.Options.TargetFlees:
		return 0, 0, 0, false
	}
	// The target holds, or (after a failed Terror test) flees its flee roll
	// further away before the charge range is rolled.
	reach := a.Mover.Move(Charge, a.Flying).Dist()
	pCharge = reach.AtLeast(b.Distance[1])
	pCombat = pCharge
	if Terrifies(a, t) {
		s := b.NewState()
		for i, u := range b.Units {
			s.Units[i].reset(u, b.Distance[i])
		}
		pass := b.holdPass(s, 1, t.Ld)
		flee := t.Mover.Move(Flee, false).Dist().Shift(b.Distance[1])
		pCombat = pass * pCharge
		pCharge = pCombat + (1-pass)*reach.ProbGE(flee)
		if b.Distance[1] <= a.Mover.LongestCharge(a.Flying) {
			pFled = 1 - pass // a charge that cannot be completed is not declared
		}
	}
	if TestsToCharge(a, t) {
		declare := Ld2D6Pass(a.Ld, b.Options.InsaneCourage)
		pCharge, pCombat, pFled = pCharge*declare, pCombat*declare, pFled*declare
	}
	return pCharge, pCombat, pFled, true
}

// exactFled sets fled where it is known: 0 for a unit that no trial makes
// flee from Panic (MayPanic, ActingMayFlee), and for a target whose only
// Panic test is the Terror test of the battle's one declared charge
// (panicsOnlyAtCharge), the chance that it failed it, pFled (exactCharge,
// when the charge is known).
func exactFled(b *Battle, pFled float64, chargeKnown bool, ex BattleExact) {
	for i := range b.Units {
		switch {
		case i == 0 && !b.ActingMayFlee(), i > 0 && !b.MayPanic(i):
			ex.set(BattleFled, i, 0)
		case i == 1 && chargeKnown && b.panicsOnlyAtCharge():
			ex.set(BattleFled, 1, pFled)
		}
	}
}

// exactImpact: impact_hits and impact_wounds, for a combat that follows
// the charge with chance pCombat, with every model of the acting unit alive
// and the target short of at most lost models: each model in base contact
// with the target rolls its Impact Hits, once. Later rounds add none,
// unless a Grind Attack adds its own: then only a single round has the
// closed form. The hits are exact while the lost models cannot change the
// models in contact, the wounds while the target cannot run out of wounds
// to take or is whole (lost is 0), so that they are capped at a known
// number; it returns their distribution in a combat (given that there is
// one), if they are.
func exactImpact(b *Battle, pCombat float64, lost int, ex BattleExact) (dice.Dist, bool) {
	a, t := b.Units[0], b.Units[1]
	af, tf := FacedBy(t), FacedBy(a)
	models := Contact(a, af, a.Models, t, tf, t.Models)
	if a.Impact.IsZero() || (a.GrindAttack && b.Options.Rounds != 1) || t.Models <= lost {
		return dice.Dist{}, false
	}
	if most := float64(openingMost(a, models, af, a.Models)); most*most > MaxCombatWork {
		// Adding up and thinning that many hits would take longer than a
		// combat may: a hundred chariots rolling 100D6 each.
		return dice.Dist{}, false
	}
	// Every number of models the target may have left is tried, so that
	// nothing is assumed of how the side it shows shrinks with them.
	for alive := t.Models - lost; alive < t.Models; alive++ {
		if Contact(a, af, a.Models, t, tf, alive) != models {
			return dice.Dist{}, false
		}
	}
	sum := dice.Point(0) // each model's Impact Hits, rolled independently
	for range models {
		sum = sum.Add(a.Impact.Dist())
	}
	d3 := dice.Dice(1, 3).Dist()
	for range chariotsBehind(a, af, a.Models, models) {
		sum = sum.Add(d3)
	}
	ex.set(BattleImpactHits, 0, pCombat*sum.Mean())
	ex.setDist(BattleImpactHits, 0, orZero(sum, pCombat))
	// Each hit wounds on its own roll, and the target takes no more wounds
	// than it has: when the hits can outrun them, the wounds are capped at
	// the target's, which is a closed form only while no model can have
	// been lost before the combat.
	wounds := thin(sum, HitWounds(a.S, t, false))
	if limit := (t.Models - lost) * t.W; limit < sum.Max() {
		if lost > 0 {
			return dice.Dist{}, false
		}
		wounds = wounds.Map(func(w int) int { return min(w, limit) })
	}
	ex.set(BattleImpactWounds, 0, pCombat*wounds.Mean())
	ex.setDist(BattleImpactWounds, 0, orZero(wounds, pCombat))
	return wounds, true
}

// exactCombat: a combat between the acting unit and its target, fought
// after a charge (charged: phases [charge, combat], with a combat's chance
// pCombat, into a target that cannot flee from the charge: Random Movement
// declares none, otherwise no Terror) or engaged from the start (phases
// [combat], pCombat 1; a combat in which no blow can be struck is
// exactStaticCombat's), over Options.Rounds rounds (MaxRounds for all).
// The combats still going as a round starts are a distribution of the
// wounds each side has taken; from each, exactRound gives the round's
// ends, and each end fixes the round: combatResult works out the result,
// and so the loser and its Leadership, through the code the trials use
// for scoring; the loser breaks with the chance its break test fails, and
// is caught with the pursuit's; a side destroyed ends the combat, and the
// rest go on to the next round. Mixing over the rounds gives
// combat_result (the first round's), rounds, round_cap, broke, won,
// caught and every unit's losses. A combat past limit steps of
// exactRound, counted over all its rounds, has none of them. It returns
// the steps taken.
func exactCombat(b *Battle, st combatStart, charged bool, ex BattleExact, limit float64) (work float64) {
	a, t := b.Units[0], b.Units[1]
	if cells := (a.Models*a.W + 1) * (t.Models*t.W + 1); cells > maxGridCells || float64(cells) > limit {
		return 0 // too large to hold, or to go through once: no closed form
	}
	n := b.Options.Rounds
	if n <= 0 || n > MaxRounds {
		n = MaxRounds
	}
	s := b.NewState()
	for i := range b.Units { // where the charge leaves them
		s.Units[i].reset(b.Units[i], b.Distance[i])
	}
	units := [2]*Unit{a, t}
	states := [2]*UnitState{&s.Units[0], &s.Units[1]}
	if charged {
		// The charger stands in contact; the target where it stood (its
		// place), from which a battle standard's 12" is measured.
		states[0].reset(a, 0)
		states[1].Distance = 0
		states[0].Engaged, states[1].Engaged, states[0].Charged = true, true, true
	}
	tl := newCombatTally(b, s, units, states, n)
	plan := func(first bool) *roundPlan {
		*states[0], *states[1] = tl.start[0], tl.start[1]
		return b.plan(s, units, states, first)
	}
	parts := st.parts
	if parts == nil {
		parts = []startPart{{}}
	}
	for _, part := range parts {
		tl.movers(part.random)
		live := tl.grid()
		if part.wounds == nil {
			live.add(0, 0, 1)
		} else {
			part.wounds.each(func(wa, wt int, q float64) bool { live.add(wa, wt, q); return true })
		}
		w, ok := tl.fight(live, plan, charged, limit-work)
		if work += w; !ok {
			return work
		}
	}
	tl.set(ex, st, b.Options.Rounds <= 0)
	return work
}

// negligibleCombat is the chance below which a combat still going, as a
// round starts, is not followed further (its wounds taken so far being
// those of one cell of the distribution). Such combats together weigh
// less than one cell's bound times the cells of the grid (maxGridCells),
// a round, so at most about 10^-14 a round: far below what any estimate can
// show, and at the level of the rounding of the sums themselves, while a
// long combat of two large units spends most of its rounds on them (two
// blocks of infantry fought to the end: the chance that either is still
// fighting halves each round, and from the tenth round on, most of the
// grid's cells hold less than this).
const negligibleCombat = 1e-20

// fight plays the rounds from live, the combats going on as the first
// starts (chances adding up to the share of the combats they are), into
// the tally, with no more than limit steps. It reports false past them,
// or for a result past any the rules give. A combat whose chance is below
// negligibleCombat as a round starts is left out of it and of the rounds
// after it.
func (tl *combatTally) fight(live roundEnds, plan func(first bool) *roundPlan, charged bool, limit float64) (work float64, ok bool) {
	for k := range tl.n {
		first := charged && k == 0
		rp := plan(first)
		next := tl.grid()
		work += float64(len(live.p))
		read, all := live.each(func(wa, wt int, m float64) bool {
			if m < negligibleCombat {
				return true // not followed further
			}
			rf, w, ok := tl.round(rp, first, wa, wt, limit-work)
			if work += w; !ok {
				return false
			}
			tl.opening[0] += m * rf.opening[0]
			tl.opening[1] += m * rf.opening[1]
			steps, ok := tl.ends(k, wa, wt, m, rf.ends, &next)
			work += steps
			return ok && work <= limit
		})
		if work += float64(read); !all {
			return work, false
		}
		live = next
	}
	return work, true
}

// endCell is one end of a round fought from a state: the wounds each side
// took in it (the acting unit's, a, and its opponent's, t), its chance,
// and how the round ends there (outcome), which the state and the kind of
// round fix whichever round of the combat it is.
type endCell struct {
	a, t int32
	p    float64
	outcome
}

// outcome is how a round ends: the combat result (the acting unit's less
// its opponent's), the sides it destroyed (bit 1 << side), and, where
// neither, the side that lost it, the winner's Unit Strength and the
// chance that the loser breaks (0 for a draw, or a loser that cannot).
type outcome struct {
	pBreak           float64
	result, us       int32
	loser, destroyed uint8
}

// roundFrom is a round fought from one state of the combat: its ends, and
// the acting unit's opening hits and their wounds, in the mean.
type roundFrom struct {
	ends    []endCell
	opening [2]float64
}

// roundKey names a round fought from one state: the kind of round and the
// wounds each side had taken as it started, which fix the units (place).
type roundKey struct {
	plan   *roundPlan
	first  bool
	wa, wt int
}

// maxKeptEnds bounds what a combat's tally keeps of the rounds it has
// worked out, in ends (40 bytes each), a round's key and its place in the
// map counting as keyEnds more: 2^19, about 21 MB (two blocks of 40
// infantry fought to the end keep about two thirds of it). A combat that
// then runs past its steps has kept it for nothing, so it is no larger. (A
// variable, so that a test can keep nothing.)
var maxKeptEnds = 1 << 19

const keyEnds = 3

// round is the round of plan fought from wa and wt wounds taken, worked out
// by exactRound the first time it is asked for. The same state meets the
// same round again in later rounds of a long combat (every round after the
// first is of one kind), so it is kept, while the ends kept stay within
// maxKeptEnds; one not kept lasts until the next round is worked out. It
// returns the steps it took (none for a round kept), and false past limit.
func (tl *combatTally) round(plan *roundPlan, first bool, wa, wt int, limit float64) (roundFrom, float64, bool) {
	key := roundKey{plan, first, wa, wt}
	if rf, kept := tl.fought[key]; kept {
		return rf, 0, true
	}
	tl.place(wa, wt)
	ends, opening, work, ok := tl.b.exactRound(tl.units, tl.states, plan, first, limit, tl.memo)
	if !ok {
		return roundFrom{}, work, false
	}
	rf := roundFrom{opening: opening, ends: tl.scratch[:0]}
	read, _ := ends.each(func(a, t int, q float64) bool {
		rf.ends = append(rf.ends, endCell{a: int32(a), t: int32(t), p: q, outcome: tl.outcome(plan, wa, wt, a, t)})
		return true
	})
	tl.scratch = rf.ends
	if size := len(rf.ends) + keyEnds; tl.kept+size <= maxKeptEnds {
		rf.ends = slices.Clone(rf.ends)
		tl.fought[key] = rf
		tl.kept += size
	}
	return rf, work + float64(read) + endSteps*float64(len(rf.ends)), true
}

// endSteps is what round counts for each end's outcome: placing the units,
// scoring the round and the break test take about as long as that many
// steps of exactRound.
const endSteps = 20

// outcome is how the round of plan ends, fought from wa and wt wounds
// taken, where the acting unit takes ea more and its opponent et.
func (tl *combatTally) outcome(plan *roundPlan, wa, wt, ea, et int) outcome {
	units, states := tl.units, tl.states
	tl.place(wa+ea, wt+et)
	cr, us, disrupted := combatResult(plan, units, states, [2]int{et, ea})
	o := outcome{result: int32(cr[0] - cr[1])}
	for side := range 2 {
		if states[side].Alive == 0 {
			o.destroyed |= 1 << side
		}
	}
	if o.destroyed != 0 {
		return o
	}
	loser := 1
	if cr[0] < cr[1] {
		loser = 0
	}
	o.loser, o.us = uint8(loser), int32(us[1-loser])
	if lu := units[loser]; cr[0] != cr[1] && !lu.Unbreakable {
		ld := lu.Ld
		if !steadfast(lu, states[loser], us[1-loser], disrupted[loser], plan.score[loser].denied) {
			ld -= cr[1-loser] - cr[loser]
		}
		o.pBreak = 1 - tl.b.holdPass(tl.s, loser, ld)
	}
	return o
}

// combatTally gathers what the rounds of exactCombat end in.
type combatTally struct {
	b                  *Battle
	s                  *State
	units              [2]*Unit
	states             [2]*UnitState
	start              [2]UnitState // the units as the combat starts
	n                  int          // the rounds the combat may last
	broke, won, caught [2]float64
	// lost[side][w]: the chance that side has lost w wounds in all.
	lost [2][]float64
	// results[r - lo]: the chance of the first round's result r; mean its
	// mean.
	lo      int
	results []float64
	mean    float64
	// rounds[k]: the chance that the combat lasted k+1 rounds; capped: that
	// it was still going after the last.
	rounds []float64
	capped float64
	// catch[side]: the chance that side, broken, is caught.
	catch [2]float64
	// opening: the acting unit's opening hits and their wounds, in the
	// mean, over every round.
	opening [2]float64
	memo    *roundMemo
	// fought keeps the rounds worked out from each state (round), kept
	// the ends they hold with their keys (maxKeptEnds); scratch holds the
	// ends of a round not kept, until the next is worked out.
	fought  map[roundKey]roundFrom
	kept    int
	scratch []endCell
}

func newCombatTally(b *Battle, s *State, units [2]*Unit, states [2]*UnitState, n int) *combatTally {
	tl := &combatTally{b: b, s: s, units: units, states: states, start: [2]UnitState{*states[0], *states[1]}, n: n,
		rounds: make([]float64, n), memo: &roundMemo{m: map[memoKey]*memoEntry{}}, fought: map[roundKey]roundFrom{}}
	for side, u := range units {
		tl.lost[side] = make([]float64, u.Models*u.W+1)
	}
	// A result is the wounds one side dealt less the other's, give or
	// take bonuses far below 64.
	tl.lo = -(units[0].Models*units[0].W + 64)
	tl.results = make([]float64, units[1].Models*units[1].W+64-tl.lo+1)
	return tl
}

// movers sets the chance that each side, broken, is caught, the acting
// unit moving by random (its flee and pursuit rolls; zero: its own
// Random Movement).
func (tl *combatTally) movers(random dice.Expr) {
	m := [2]Mover{tl.units[0].Mover, tl.units[1].Mover}
	if !random.IsZero() {
		m[0].Random = random
	}
	for side := range 2 {
		tl.catch[side] = tl.b.pursuesChance(tl.units[1-side]) * CaughtProbability(m[side].Move(Flee, false), m[1-side].Move(Pursue, false))
	}
}

// grid is a distribution of the wounds each side has taken, all zero.
func (tl *combatTally) grid() roundEnds { return newEnds(len(tl.lost[0]), len(tl.lost[1])) }

// place sets the units' states as wa and wt wounds leave them.
func (tl *combatTally) place(wa, wt int) {
	*tl.states[0], *tl.states[1] = tl.start[0], tl.start[1]
	tl.states[0].wound(tl.units[0], wa)
	tl.states[1].wound(tl.units[1], wt)
}

// tallySteps is what ends counts for tallying one end whose outcome is
// known: about as long as that many steps of exactRound.
const tallySteps = 3

// ends adds the ends of round k (from 0), fought from wa and wt wounds
// taken with chance m, to the tally, and the combats that go on to next.
// It returns the steps it took, and false for a result past any the rules
// give (no closed form).
func (tl *combatTally) ends(k, wa, wt int, m float64, ends []endCell, next *roundEnds) (float64, bool) {
	steps := tallySteps * float64(len(ends))
	for _, e := range ends {
		p := m * e.p
		fa, ft := wa+int(e.a), wt+int(e.t)
		if k == 0 {
			r := int(e.result)
			if r-tl.lo < 0 || r-tl.lo >= len(tl.results) {
				return steps, false
			}
			tl.mean += float64(r) * p
			tl.results[r-tl.lo] += p
		}
		taken := [2]int{fa, ft}
		if e.destroyed != 0 {
			// A side the round's blows destroyed lost the combat; the
			// other won it, if it still stands.
			for side := range 2 {
				if e.destroyed&(1<<side) == 0 {
					tl.won[side] += p
				}
				tl.lost[side][taken[side]] += p
			}
			tl.rounds[k] += p
			continue
		}
		tl.broken(int(e.loser), taken, int(e.us), p*e.pBreak)
		tl.rounds[k] += p * e.pBreak
		goOn := p * (1 - e.pBreak)
		if k < tl.n-1 {
			steps += float64(next.add(fa, ft, goOn))
			continue
		}
		// The last round: the combat stops, still going.
		tl.rounds[k] += goOn
		tl.capped += goOn
		tl.lost[0][fa] += goOn
		tl.lost[1][ft] += goOn
	}
	return steps, true
}

// broken tallies the loser's break, with chance p, the units having taken
// taken wounds and the winner's Unit Strength being us: the winner won,
// and the loser is caught with the pursuit's chance, taking its Caught
// wounds, up to what it has left.
func (tl *combatTally) broken(loser int, taken [2]int, us int, p float64) {
	units, b := tl.units, tl.b
	tl.broke[loser] += p
	tl.won[1-loser] += p
	pCaught := p * tl.catch[loser]
	tl.caught[loser] += pCaught
	tl.lost[1-loser][taken[1-loser]] += p
	tl.lost[loser][taken[loser]] += p - pCaught
	extra := 2 * us
	if b.Options.Caught == CaughtDestroyed {
		extra = units[loser].Models * units[loser].W
	}
	tl.lost[loser][min(taken[loser]+extra, units[loser].Models*units[loser].W)] += pCaught
}

// set writes the tally's closed forms, for a combat fought with chance
// pCombat; all marks a combat fought to the end (round_cap).
// Each distribution's chances add up to 1 but for rounding, which is
// taken out (normalize): a count that takes one value (one round fought)
// then has that value and no spread, not a spread of 10^-16 that would
// make any estimate of it look far off.
func (tl *combatTally) set(ex BattleExact, st combatStart, all bool) {
	b, pCombat := tl.b, st.p
	// combat_result counts the trials that fight: where none can, it has
	// no value to be exact about.
	if pCombat > 0 {
		ex.set(BattleCombatResult, 0, tl.mean/normalize(tl.results))
		ex.setDist(BattleCombatResult, 0, trimmed(dice.Dist{Min: tl.lo, P: tl.results}))
	}
	normalize(tl.rounds)
	normalize(tl.lost[0])
	normalize(tl.lost[1])
	rounds := trimmed(orZero(dice.Dist{Min: 1, P: tl.rounds}, pCombat))
	ex.set(BattleRounds, 0, rounds.Mean())
	ex.setDist(BattleRounds, 0, rounds)
	// The opening hits of every round: exactImpact's, where it has them,
	// are the same with their distributions; here they come in the mean
	// alone, with a Grind Attack in later rounds, or a target the bolts
	// may have brought within reach of its last wound.
	for k, metric := range [2]BattleMetric{BattleImpactHits, BattleImpactWounds} {
		if _, has := ex.Value(metric, 0); !has {
			ex.set(metric, 0, pCombat*tl.opening[k])
		}
	}
	if all {
		ex.set(BattleRoundCap, 0, pCombat*tl.capped)
	}
	for side := range 2 {
		// The combats' losses, and those of the trials without one.
		lost := make([]float64, len(tl.lost[side]))
		for w, q := range tl.lost[side] {
			lost[w] = pCombat * q
		}
		if st.outside[side] == nil {
			lost[0] += 1 - pCombat
		}
		for w, q := range st.outside[side] {
			lost[w] += q
		}
		d := dice.Dist{P: lost}
		ex.set(BattleBroke, side, pCombat*tl.broke[side])
		ex.set(BattleWon, side, pCombat*tl.won[side]+st.won[side])
		ex.set(BattleCaught, side, pCombat*tl.caught[side]+st.caught[side])
		ex.setLosses(b, side, d.Mean(), d)
	}
	for i := 2; i < len(b.Units); i++ {
		// Only the two sides fight; a unit the bolts may strike keeps the
		// losses exactZzzzap gave it.
		if _, has := ex.Value(BattleWounds, i); !has {
			ex.unharmed(b, i)
		}
	}
}

// combatStart is how a combat of exactCombat starts: with chance p; in
// parts (nil: one, from no wounds, each unit with its own movement); and
// what befalls the two units in the trials without a combat: outside[side]
// the chances, adding up to 1 - p, of the wounds that side lost there
// (nil: none in all of them), and there the chance each won and was
// caught.
type combatStart struct {
	p           float64
	parts       []startPart
	outside     [2][]float64
	won, caught [2]float64
}

// startPart is one part of a combat's start: wounds, the chances of the
// wounds each side has taken before it (adding up, over all the parts, to
// 1; nil: none, the whole start); random, the acting unit's Random
// Movement as the combat starts, when a Mishap has changed it (zero: its
// own), which its flight and pursuit roll.
type startPart struct {
	wounds *roundEnds
	random dice.Expr
}

// fledFromCharge is the start of a combat after a charge that leads to it
// with chance pCombat, and with chance pCaught catches a target that fled
// from a Terror-causer (exactCharge): the caught target takes its Caught
// wounds from the whole charging unit (Battle.caught), and the charger
// wins if they destroy it.
func fledFromCharge(b *Battle, pCombat, pCaught float64) combatStart {
	st := combatStart{p: pCombat}
	if pCaught <= 0 {
		return st
	}
	t := b.Units[1]
	total := t.Models * t.W
	fled := min(2*b.Units[0].TotalUS(b.Units[0].Models), total)
	if b.Options.Caught == CaughtDestroyed {
		fled = total
	}
	st.outside[1] = make([]float64, total+1)
	st.outside[1][0] = 1 - pCombat - pCaught
	st.outside[1][fled] += pCaught
	st.caught[1] = pCaught
	if fled == total {
		st.won[0] = pCaught
	}
	return st
}

// zzzzapBeforeCombat is the start of the combat of a battle of [charge,
// shooting, combat] whose Zzzzap! has a closed form (exactZzzzap), between
// the Doomwheel and its target alone. Where the Random Movement reached the
// target, the Doomwheel, engaged, fires at it (its nearest unit): held
// fire, or a Misfire's Out of Control (no move while engaged), leave both
// whole; a Burst of Speed leaves them whole with 4D6 to flee and pursue; a
// Disaster wounds the Doomwheel (exactDisaster's wounds) and takes a die
// from its Random Movement, and where it destroys it no combat follows;
// the bolts wound the target, each with its own chance at the Artillery
// dice's strength (boltWounds). Where the move fell short, the same
// happens at a distance, and no combat follows: the losses are those of
// the Shooting phase.
func zzzzapBeforeCombat(b *Battle) (combatStart, bool) {
	a, t := b.Units[0], b.Units[1]
	starts, ok := shootingStarts(b)
	n, plain := a.Mover.Random.PlainD6()
	if !ok || !plain {
		return combatStart{}, false
	}
	totalA, totalT := a.Models*a.W, t.Models*t.W
	taken := disasterWounds(a)
	// The parts: the Doomwheel's own movement, after a Disaster, after a
	// Burst of Speed.
	parts := []startPart{{wounds: ptr(newEnds(totalA+1, totalT+1))}, {wounds: ptr(newEnds(totalA+1, totalT+1))}, {wounds: ptr(newEnds(totalA+1, totalT+1)), random: fourD6}}
	if n > 1 {
		parts[1].random = plainD6[n-1]
	}
	var st combatStart
	st.outside = [2][]float64{make([]float64, totalA+1), make([]float64, totalT+1)}
	s := b.NewState()
	misfire := artilleryFaces.At(dice.Misfire)
	for _, start := range starts {
		for i, u := range b.Units {
			s.Units[i].reset(u, b.Distance[i])
		}
		s.Units[1].Distance = start.dist
		near := b.nearest(s, 0)
		pFire, _, bolts := boltWounds(b, near)
		if near != 1 {
			bolts = dice.Point(0) // they strike another unit, or none
		}
		// The target's wounds from the bolts, and none where no bolt flew
		// and no Disaster or Burst of Speed befell the Doomwheel.
		disaster, burst := pFire*misfire*mishapShare(0), pFire*misfire*mishapShare(2)
		bolts.P[0] -= disaster + burst
		engaged := start.dist == 0
		for w, q := range bolts.P {
			st.add(parts[0], engaged, 0, min(w, totalT), start.p*q)
		}
		for w, q := range taken.P {
			st.add(parts[1], engaged && w+taken.Min < totalA, w+taken.Min, 0, start.p*disaster*q)
		}
		st.add(parts[2], engaged, 0, 0, start.p*burst)
	}
	for _, part := range parts {
		part.wounds.each(func(_, _ int, q float64) bool { st.p += q; return true })
	}
	if st.p <= 0 {
		return combatStart{}, false
	}
	for _, part := range parts {
		part.wounds.divide(st.p)
	}
	st.parts = parts
	return st, true
}

// add adds chance p of wa and wt wounds before the combat, in part when a
// combat follows, else to the losses without one.
func (st *combatStart) add(part startPart, combat bool, wa, wt int, p float64) {
	if combat {
		part.wounds.add(wa, wt, p)
		return
	}
	st.outside[0][wa] += p
	st.outside[1][wt] += p
}

func ptr[T any](v T) *T { return &v }

// normalize scales p to add up to 1, and returns what it added up to.
func normalize(p []float64) float64 {
	sum := 0.0
	for _, q := range p {
		sum += q
	}
	if sum > 0 {
		for i := range p {
			p[i] /= sum
		}
	}
	return sum
}

// trimmed is d without the values of chance 0 at either end.
func trimmed(d dice.Dist) dice.Dist {
	lo, hi := 0, len(d.P)
	for lo < hi && d.P[lo] == 0 {
		lo++
	}
	for hi > lo && d.P[hi-1] == 0 {
		hi--
	}
	if lo == hi {
		return dice.Point(d.Min)
	}
	return dice.Dist{Min: d.Min + lo, P: d.P[lo:hi]}
}

// shootingStart is one way the Shooting phase can open: with chance p,
// the target at distance dist (0: engaged).
type shootingStart struct {
	p    float64
	dist int
}

// zzzzapPhases are the battles whose Zzzzap! has closed forms: the Shooting
// phase first, or right after a charge (then perhaps the combat).
var zzzzapPhases = [][]Phase{{PhaseShooting}, {PhaseCharge, PhaseShooting}, {PhaseCharge, PhaseShooting, PhaseCombat}}

// shootingStarts lists how the Shooting phase opens: as the battle places
// the units, or after a Random Movement roll (no charge is declared, so
// nothing else moves): a roll that reaches the target engages it, one that
// falls short leaves it the rest of the distance away. A declared charge
// (a failed one moves a roll of its own, and Terror may move the target)
// has none.
func shootingStarts(b *Battle) ([]shootingStart, bool) {
	a, d := b.Units[0], b.Distance[1]
	switch {
	case b.Phases[0] == PhaseShooting || d == 0:
		return []shootingStart{{1, d}}, true
	case a.Mover.Random.IsZero():
		return nil, false
	}
	roll := a.Mover.Random.Dist()
	var out []shootingStart
	for i, p := range roll.P {
		if p > 0 {
			out = append(out, shootingStart{p, max(d-(roll.Min+i), 0)})
		}
	}
	return out, true
}

// exactZzzzap: Zzzzap! when the Shooting phase opens in ways
// shootingStarts knows, with no missile weapon and the default of one wound
// per bolt. In each, the bolts go to the nearest unit in range, and if it
// cannot be destroyed by them none goes elsewhere: its wounds are a mixture
// of binomials over the Artillery dice's numbered faces, after any test to
// hold fire. The Misfire's Disaster is the only thing that wounds the
// Doomwheel (exactDisaster). Units the combat cannot touch keep these
// losses to the end; the acting unit and its target keep them only when no
// combat follows.
//
// It returns the chance that the acting unit, engaged with its target,
// lives through the phase (its Disaster can destroy it), for the combat
// that follows.
func exactZzzzap(b *Battle, ex BattleExact) (survive float64, known bool) {
	a := b.Units[0]
	if !a.Zzzzap || b.Options.ZzzzapD6Wounds || !a.Missile.Shots.IsZero() ||
		!slices.ContainsFunc(zzzzapPhases, func(ps []Phase) bool { return slices.Equal(ps, b.Phases) }) {
		return 0, false
	}
	starts, ok := shootingStarts(b)
	if !ok {
		return 0, false
	}
	s := b.NewState()
	// Bolt wounds per unit and on friends, built up over the starts: their
	// distributions, and their means in closed form.
	losses, means := make([]dice.Dist, len(b.Units)), make([]float64, len(b.Units))
	for i := range losses {
		losses[i] = dice.Dist{P: []float64{0}}
	}
	friendly, friendlyMean := dice.Dist{P: []float64{0}}, 0.0
	var mishap [3]float64
	var disaster, disasterFree, fireEngaged float64 // free: out of combat
	for _, st := range starts {
		for i, u := range b.Units {
			s.Units[i].reset(u, b.Distance[i])
		}
		s.Units[1].Distance = st.dist // a move of the acting unit: the target's place stays
		near := b.nearest(s, 0)
		pFire, mean, wounds := boltWounds(b, near)
		if near >= 0 && b.Units[near].Models*b.Units[near].W <= b.Options.ZzzzapBolts {
			return 0, false // a bolt may move on
		}
		misfire := pFire * artilleryFaces.At(dice.Misfire)
		for k := range mishap {
			mishap[k] += st.p * misfire * mishapShare(k)
		}
		disaster += st.p * misfire * mishapShare(0)
		if st.dist == 0 {
			fireEngaged = pFire
		} else {
			disasterFree += st.p * misfire * mishapShare(0)
		}
		for i := 1; i < len(b.Units); i++ {
			if i == near {
				losses[i] = mix(losses[i], wounds, st.p)
				means[i] += st.p * mean
			} else {
				losses[i] = mix(losses[i], dice.Point(0), st.p)
			}
		}
		if near >= 0 && !b.Enemy[near] {
			friendly = mix(friendly, wounds, st.p)
			friendlyMean += st.p * mean
		} else {
			friendly = mix(friendly, dice.Point(0), st.p)
		}
	}
	for k, p := range mishap {
		ex.mishap[k] = p
	}
	ex.set(BattleFriendlyWounds, 0, friendlyMean)
	ex.setDist(BattleFriendlyWounds, 0, friendly)
	combat := slices.Contains(b.Phases, PhaseCombat)
	for i := 1; i < len(b.Units); i++ {
		if i > 1 || !combat {
			ex.setLosses(b, i, means[i], losses[i])
		}
	}
	destroyed := exactDisaster(b, disaster, disasterFree, combat, ex)
	return 1 - fireEngaged/18*destroyed, true
}

// boltWounds is the chance that the bolts are fired, after any test to
// hold fire, at unit near (at nothing when it is -1: the Artillery dice is
// rolled all the same), and the mean and distribution of the wounds they
// do it: no bolts (held, or a Misfire), or Binomial(bolts,
// P(wound) at S) for each numbered face S of the Artillery dice.
func boltWounds(b *Battle, near int) (pFire, mean float64, wounds dice.Dist) {
	pFire = 1
	if hold := b.Options.ZzzzapHoldFire; hold == HoldFireAlways || (hold == HoldFireFriends && near >= 0 && !b.Enemy[near]) {
		pFire = 1 - Ld2D6Pass(b.Units[0].Ld, b.Options.InsaneCourage)
	}
	if near < 0 {
		return pFire, 0, dice.Point(0) // fired at nothing, the dice still rolled
	}
	wounds = dice.Dist{P: []float64{1 - pFire*(1-artilleryFaces.At(dice.Misfire))}}
	for i, p := range artilleryFaces.P {
		s := artilleryFaces.Min + i
		if p == 0 || s == dice.Misfire {
			continue
		}
		q := HitWounds(s, b.Units[near], false)
		mean += float64(b.Options.ZzzzapBolts) * q * p
		wounds = mix(wounds, thin(dice.Point(b.Options.ZzzzapBolts), q), pFire*p)
	}
	return pFire, mean * pFire, wounds
}

// artilleryFaces is the law of the Artillery dice Zzzzap! rolls: Misfire,
// 2, 4, 6, 8 and 10, each 1/6.
var artilleryFaces = artillery.Dist()

// exactDisaster: the Doomwheel's own wounds, losses and Loss of Control
// from a Disaster, which befalls it with chance pDisaster (pFree of it out
// of combat): D6 hits at S6 on it (each wounding independently, so the
// wounds are a mixture of binomials over the D6), stopping at the wounds it
// has. Alive and out of combat at the end of the phase, it then rolls a D6
// per wound it took, and any 1 sends it Out of Control. When a combat
// follows, its losses there have no closed form, but under the default
// loss_of_control its wounds there never make it test. A Doomwheel whose
// Random Movement is a single D6 loses its last die to the Disaster and is
// removed, whatever the hits did: its every wound is taken. It returns the
// chance that a Disaster destroys it.
func exactDisaster(b *Battle, pDisaster, pFree float64, combat bool, ex BattleExact) float64 {
	a := b.Units[0]
	total := a.Models * a.W
	taken := disasterWounds(a)
	if !combat {
		wounds := mix(dice.Dist{P: []float64{1 - pDisaster}}, taken, pDisaster)
		ex.setLosses(b, 0, pDisaster*taken.Mean(), wounds)
	}
	if a.LossOfControl && (!combat || b.Options.LossOfControl == LossOfControlWhenWounded) {
		lost := 0.0
		for w := 1; w < total; w++ { // destroyed (w = total), it does not test
			lost += taken.At(w) * (1 - math.Pow(5.0/6, float64(w)))
		}
		ex.set(BattleLostControl, 0, pFree*lost)
	}
	return taken.At(total)
}

// mix adds the distribution d, with weight p, to the partial distribution
// acc (counts from 0), and returns the sum.
func mix(acc, d dice.Dist, p float64) dice.Dist {
	out := make([]float64, max(acc.Max(), d.Max())+1)
	for i, q := range acc.P {
		out[acc.Min+i] += q
	}
	for i, q := range d.P {
		out[d.Min+i] += p * q
	}
	return dice.Dist{P: out}
}

// setLosses sets unit i's wounds (mean, and distribution when known) and
// the models killed and the chance of being destroyed they imply: wounds
// carry over from model to model, so w wounds kill w / W models.
func (e BattleExact) setLosses(b *Battle, i int, mean float64, wounds dice.Dist) {
	u := b.Units[i]
	total := u.Models * u.W
	killed := wounds.Map(func(w int) int { return w / u.W })
	e.set(BattleWounds, i, mean)
	e.setDist(BattleWounds, i, wounds)
	if u.W == 1 {
		e.set(BattleKilled, i, mean)
	} else {
		e.set(BattleKilled, i, killed.Mean())
	}
	e.setDist(BattleKilled, i, killed)
	e.set(BattleDestroyed, i, wounds.AtLeast(total))
}

// unharmed sets unit i's losses to none: nothing in the battle can wound it.
func (e BattleExact) unharmed(b *Battle, i int) { e.setLosses(b, i, 0, dice.Point(0)) }

// exactStaticCombat: a combat in which no blow can be struck, engaged from
// the start (phases [combat], target at distance 0): no attacks, Grind
// Attack or Stomps on either side, and no Impact Hits, since neither
// charged (onlyImpact). Every round then has the
// same result, so the loser passes each break test with the same chance p
// (1 when it is Unbreakable or the round is a draw). Over at most N rounds
// (Options.Rounds, or MaxRounds for all): it breaks with chance 1 - p^N;
// the rounds fought average 1 + p + ... + p^(N-1); a combat to the end
// reaches the cap with chance p^N. A broken loser is caught with the
// pursuit's chance, and then takes its fixed Caught wounds.
func exactStaticCombat(b *Battle, ex BattleExact) {
	if !slices.Equal(b.Phases, []Phase{PhaseCombat}) || b.Distance[1] != 0 || !onlyImpact(b.Units[0]) || !onlyImpact(b.Units[1]) {
		return
	}
	s := b.NewState()
	for i, u := range b.Units {
		s.Units[i].reset(u, b.Distance[i])
	}
	units := [2]*Unit{b.Units[0], b.Units[1]}
	states := [2]*UnitState{&s.Units[0], &s.Units[1]}
	cr, us, disrupted := combatResult(b.plan(s, units, states, false), units, states, [2]int{})
	ex.set(BattleCombatResult, 0, float64(cr[0]-cr[1]))
	ex.setDist(BattleCombatResult, 0, dice.Point(cr[0]-cr[1]))
	n := b.Options.Rounds
	if n <= 0 || n > MaxRounds {
		n = MaxRounds
	}
	loser, p := 1, 1.0
	if cr[0] < cr[1] {
		loser = 0
	}
	if lu := units[loser]; cr[0] != cr[1] && !lu.Unbreakable {
		ld := lu.Ld
		if !steadfast(lu, states[loser], us[1-loser], disrupted[loser], false) {
			ld -= cr[1-loser] - cr[loser]
		}
		p = b.holdPass(s, loser, ld)
	}
	// Round k is the last when the loser passed k-1 tests and then broke,
	// or k is the cap.
	pN, mean, rounds := 1.0, 0.0, make([]float64, n)
	for k := range n {
		mean += pN
		rounds[k] = pN * (1 - p)
		pN *= p
	}
	rounds[n-1] += pN
	ex.set(BattleRounds, 0, mean)
	ex.setDist(BattleRounds, 0, dice.Dist{Min: 1, P: rounds})
	if b.Options.Rounds <= 0 {
		ex.set(BattleRoundCap, 0, pN)
	}
	broke := 1 - pN
	caught := broke * b.pursuesChance(units[1-loser]) * CaughtProbability(units[loser].Mover.Move(Flee, false), units[1-loser].Mover.Move(Pursue, false))
	lost := min(2*us[1-loser], units[loser].Models*units[loser].W)
	if b.Options.Caught == CaughtDestroyed {
		lost = units[loser].Models * units[loser].W
	}
	for side, u := range units {
		mine := side == loser
		ex.set(BattleBroke, side, pick(mine, broke))
		ex.set(BattleWon, side, pick(!mine, broke))
		ex.set(BattleCaught, side, pick(mine, caught))
		// The loser takes its Caught wounds when caught, none otherwise.
		wounds := orZero(dice.Point(lost), pick(mine, caught))
		ex.set(BattleWounds, side, pick(mine, caught*float64(lost)))
		ex.setDist(BattleWounds, side, wounds)
		ex.set(BattleDestroyed, side, pick(mine && lost == u.Models*u.W, caught))
		// No blow was struck before, so no model was wounded: the
		// Caught wounds remove whole models, the rest of them wounding one.
		killed := lost / u.W
		ex.set(BattleKilled, side, pick(mine, caught*float64(killed)))
		ex.setDist(BattleKilled, side, orZero(dice.Point(killed), pick(mine, caught)))
	}
	for i := 2; i < len(b.Units); i++ { // only the two sides fight
		ex.unharmed(b, i)
	}
}

// disasterWounds is the distribution of the wounds a Disaster does to
// Doomwheel a: D6 hits at S6, each wounding on its own, stopped at the
// wounds it has; with Random Movement (D6) every wound, since the Disaster
// takes its last die and removes it.
func disasterWounds(a *Unit) dice.Dist {
	total := a.Models * a.W
	if n, ok := a.Mover.Random.PlainD6(); ok && n == 1 {
		return dice.Point(total)
	}
	return thin(dice.Uniform(6), HitWounds(6, a, false)).Map(func(w int) int { return min(w, total) })
}

// pick is v when cond holds, else 0.
func pick(cond bool, v float64) float64 {
	if cond {
		return v
	}
	return 0
}

// onlyImpact reports whether u strikes no blow in close combat but its
// Impact Hits, if any: no attacks on any profile, no Grind Attack or Stomp.
// A unit that has not charged strikes no blow at all then: Impact Hits
// come only with a charge (the Cavalry that a troop type gives Impact Hits
// (1) still stand still in a static combat).
func onlyImpact(u *Unit) bool {
	if u.GrindAttack || u.Stomp {
		return false
	}
	for i := range u.Attackers {
		if u.Attackers[i].A.Dist().Max() > 0 {
			return false
		}
	}
	return true
}
