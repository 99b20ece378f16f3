package fantasy

import "slices"

// Which units of a battle can flee from a failed Panic test, worked out
// from its units, options and phases alone, without rolling: a report may
// then leave out a count of flights that cannot be non-zero. The answer is
// conservative. It is false only where Run can never make the unit flee
// from Panic; wherever some path to a Panic test exists, it is true, even
// when the dice would seldom or never take it.
//
// The paths are the ones Run plays:
//   - Run for Your Lives!: a Terror-causer that declares a charge (not a
//     Random Movement, which declares none) makes its target test (charge);
//   - a loss of a quarter of the Unit Strength in one phase while not in
//     close combat (afterPhase);
//   - a friend of at least Options.PanicFriendUS Unit Strength within 6"
//     breaking or being destroyed (friendPanic, annihilated).
//
// The last two pass through panicTest, whose exemptions (no Leadership,
// Immunity (Psychology), Immunity (Panic)) close them for good. A unit in
// close combat takes no Panic test either, but whether it is still in
// combat when a test falls due depends on the dice, so that is not used.
//
// A battle whose moves may run into other units (MeetsOthers) opens more
// paths: a friend fled through, a friend struck by an Out of Control
// Doomwheel, a fight with a unit charged in a pursuit, distances that
// shrink as the acting unit moves. There every unit that can take a Panic
// test may flee from one.

// MayPanic reports whether unit i of b can fail a Panic test and flee in
// some trial. False means no trial of b makes State.Out.Panicked[i] true.
func (b *Battle) MayPanic(i int) bool {
	if i == 1 && b.terrorOnCharge() {
		return true
	}
	u := b.Units[i]
	if !u.TroopPanics() || u.ImmunePsychology || u.ImmunePanic {
		return false
	}
	return b.MeetsOthers() || b.mayLoseQuarter(i) || b.mayLoseFriend(i)
}

// ActingMayFlee reports whether the acting unit may flee from a failed
// Panic test: MayPanic's question for it, narrowed where a unit of one
// model loses a quarter of itself, which is the whole of it and takes no
// test. A move along the line (MeetsOthers) still counts: it brings the
// acting unit nearer friends that may then fall within 6" of it.
func (b *Battle) ActingMayFlee() bool {
	u := b.Units[0]
	if !u.TroopPanics() || u.ImmunePsychology || u.ImmunePanic {
		return false
	}
	return b.MeetsOthers() || u.Models > 1 && b.mayLoseQuarter(0) || b.mayLoseFriend(0)
}

// MeetsOthers reports whether a move of the battle may run into units
// other than the one it is made at: a flight from combat and the acting
// unit's pursuit with Options.PursuitPath PathLine, when there are other
// units and a combat phase; an Out of Control move with
// OutOfControlTowards, when the acting unit can go Out of Control (Zzzzap!
// with a Shooting phase, or Loss of Control); the acting unit's charge with
// Options.ChargePath ChargeLine, when there are other units and a Movement
// phase.
func (b *Battle) MeetsOthers() bool {
	return b.pursuitMeets() || b.outOfControlMeets() || b.chargeMeets()
}

// MayFight reports whether the battle's first combat phase can be fought
// (a later one fights on): the battle starts in contact; or a phase before
// it may bring the acting unit into contact. A charge phase does where an
// enemy is within the acting unit's longest charge: its target, or, for a
// Random Movement move along the line (Options.ChargePath ChargeLine),
// any enemy, which the move charges when it meets it first (advance). A
// shooting phase does for a Zzzzap! machine whose Mishap chart may send it
// Out of Control towards the others (OutOfControlTowards), and one before
// its charge lengthens its longest Random Movement move to 4D6's for good
// (Burst of Speed). Nothing else does: no other unit starts in combat with
// it, a pursuit follows a combat, and Loss of Control needs a wound out of
// combat, which only its own Zzzzap! deals before a combat.
func (b *Battle) MayFight() bool {
	first := slices.Index(b.Phases, PhaseCombat)
	if first < 0 {
		return false
	}
	a := b.Units[0]
	reach := a.Mover.LongestCharge(a.Flying)
	for _, p := range b.Phases[:first] {
		switch {
		case p == PhaseShooting && a.Zzzzap && b.Options.OutOfControl == OutOfControlTowards:
			return true
		case p == PhaseShooting && a.Zzzzap && !a.Mover.Random.IsZero():
			reach = max(reach, fourD6.Max()) // a Burst of Speed, for the charge after it
		case p != PhaseCharge:
		case b.Distance[1] <= reach:
			return true
		case b.Options.ChargePath == ChargeLine && !a.Mover.Random.IsZero():
			for j := 2; j < len(b.Units); j++ {
				if b.Enemy[j] && b.Distance[j] <= reach {
					return true
				}
			}
		}
	}
	return b.Distance[1] == 0
}

func (b *Battle) chargeMeets() bool {
	return b.Options.ChargePath == ChargeLine && len(b.Units) > 2 && slices.Contains(b.Phases, PhaseCharge)
}

func (b *Battle) pursuitMeets() bool {
	return b.Options.PursuitPath == PathLine && len(b.Units) > 2 && slices.Contains(b.Phases, PhaseCombat)
}

func (b *Battle) outOfControlMeets() bool {
	a := b.Units[0]
	return b.Options.OutOfControl == OutOfControlTowards && (a.Zzzzap && slices.Contains(b.Phases, PhaseShooting) || a.LossOfControl)
}

// MayMeet reports whether unit i, other than the acting unit and its
// target, may be charged or caught by a move of the acting unit: an enemy
// of the acting unit, in a battle whose pursuits (when the winner pursues,
// Options.Pursue) or Out of Control moves may run into it, or whose charge
// along the line is a Random Movement move (a declared charge along the
// line reaches its target or nothing).
func (b *Battle) MayMeet(i int) bool {
	return i > 1 && b.Enemy[i] &&
		(b.Options.Pursue != PursueNever && b.pursuitMeets() || b.outOfControlMeets() || b.chargeMeets() && !b.Units[0].Mover.Random.IsZero())
}

// terrorOnCharge reports whether the acting unit can declare a charge that
// makes its target take the Panic test of Run for Your Lives!. A battle
// that starts in combat declares none: a charge comes only once the two
// are apart, when the target is fleeing already, which takes no test.
func (b *Battle) terrorOnCharge() bool {
	a := b.Units[0]
	return slices.Contains(b.Phases, PhaseCharge) && a.Mover.Random.IsZero() && b.Distance[1] > 0 && a.terrifies(b.Units[1])
}

// panicsOnlyAtCharge reports whether the target's one Panic test is Run
// for Your Lives!, at the charge of a battle whose first phase is its only
// charge phase (scenario files allow one; a Battle built in Go may have
// more, and each may declare a charge): the Terror test can fall due
// (terrorOnCharge, which also says that the target is not exempt from
// Panic tests), and no other path of MayPanic's is open. The target's
// losses in that charge phase open none: it loses models there only when
// caught fleeing, and a fleeing unit takes no test.
func (b *Battle) panicsOnlyAtCharge() bool {
	if !b.terrorOnCharge() || b.Phases[0] != PhaseCharge || slices.Index(b.Phases[1:], PhaseCharge) >= 0 {
		return false
	}
	return !b.MeetsOthers() && !b.quarterLoss(1, len(b.Phases), PhaseCharge) && !b.mayLoseFriend(1)
}

// targetMayFlee reports whether the target can flee as its charge reaction,
// and so be caught in the charge phase (none in a battle that starts in
// combat: terrorOnCharge).
func (b *Battle) targetMayFlee() bool {
	t := b.Units[1]
	return b.terrorOnCharge() || slices.Contains(b.Phases, PhaseCharge) && b.Units[0].Mover.Random.IsZero() &&
		b.Distance[1] > 0 && b.Options.TargetFlees && !t.ImmunePsychology
}

// TargetMayBeCaught reports whether a move of the acting unit outside
// close combat may catch its target fleeing: its charge, at a target that
// may flee as its reaction (Run for Your Lives!, Options.TargetFlees) or
// may be fleeing already when the charge phase comes; or an Out of
// Control move that runs into the units on the line (outOfControlMeets).
// It is conservative, as MayPanic is. (A pursuit, the other catch, needs
// a combat phase.)
func (b *Battle) TargetMayBeCaught() bool {
	return slices.Contains(b.Phases, PhaseCharge) && (b.targetMayFlee() || b.targetMayFleeBeforeCharge()) ||
		b.outOfControlMeets()
}

// targetMayFleeBeforeCharge reports whether the target can be fleeing
// already when a charge phase comes, and so be caught by the charge
// (targetMayFleeBefore).
func (b *Battle) targetMayFleeBeforeCharge() bool {
	for k, p := range b.Phases {
		if p == PhaseCharge && b.targetMayFleeBefore(k) {
			return true
		}
	}
	return false
}

// targetMayFleeBefore reports whether the target can be fleeing when
// phase k begins: the phases before it may have broken it in combat (any
// but an Unbreakable one), made it flee from an earlier charge, or made
// it fail a Panic test, by the paths MayPanic follows within those
// phases. It is conservative, as MayPanic is, and asks only about phases
// before k, so that the losses of phase k (maxModelsLost) may ask it.
func (b *Battle) targetMayFleeBefore(k int) bool {
	t, before := b.Units[1], b.Phases[:k]
	switch {
	case slices.Contains(before, PhaseCombat) && !t.Unbreakable:
		return true
	case slices.Contains(before, PhaseCharge) && b.targetMayFlee():
		return true
	case !t.TroopPanics() || t.ImmunePsychology || t.ImmunePanic:
		return false
	}
	return b.MeetsOthers() || b.mayLoseQuarterBefore(1, k) || b.mayLoseFriend(1)
}

// mayLoseQuarter reports whether unit i can lose a quarter of its Unit
// Strength in one phase while not in close combat. The losses of a close
// combat never count, and in a combat phase only a move that runs into
// other units (MeetsOthers, which MayPanic counts already) wounds a unit
// outside the combat, so combat phases add nothing here. Losing n models
// of a alive is a quarter when 4n >= a (each model has the same Unit
// Strength), or when a <= n; either is likelier the fewer models the phase
// starts with, so the test is made against the fewest the earlier phases
// can leave (never below one). A Unit Strength of 0 makes any wound a
// quarter.
func (b *Battle) mayLoseQuarter(i int) bool {
	return b.mayLoseQuarterBefore(i, len(b.Phases))
}

// mayLoseQuarterBefore is mayLoseQuarter over the phases before phase k.
func (b *Battle) mayLoseQuarterBefore(i, k int) bool {
	return b.quarterLoss(i, k, PhaseCombat)
}

// quarterLoss is mayLoseQuarterBefore with the losses of phases of kind
// untested, as well as combat phases, counted only as losses that leave
// the unit fewer models for the phases after them.
func (b *Battle) quarterLoss(i, k int, untested Phase) bool {
	u := b.Units[i]
	lostBefore := 0
	for j, p := range b.Phases[:k] {
		n := b.maxModelsLost(i, j)
		fewest := max(1, u.Models-lostBefore)
		if n > 0 && p != PhaseCombat && p != untested && (u.US <= 0 || 4*min(n, fewest) >= fewest) {
			return true
		}
		lostBefore += n
	}
	return false
}

// maxModelsLost bounds the models unit i can lose in one phase p (0 when it
// cannot be wounded in it). The acting unit and its target may lose every
// model in close combat, and the target when caught fleeing a charge (as
// its reaction, or fleeing already). In
// the Shooting phase a Zzzzap! bolt slays at most one model (one wound, or
// D6 capped at the wounds of the model it strikes), a missile hit does one
// wound, and a Misfire's Disaster strikes the Doomwheel itself with at most
// 6 hits of one wound each, or removes it when it takes its last movement
// die (mayLoseLastDie).
func (b *Battle) maxModelsLost(i, k int) int {
	a, u := b.Units[0], b.Units[i]
	n := 0
	switch b.Phases[k] {
	case PhaseCombat:
		if i <= 1 {
			n = u.Models
		}
	case PhaseCharge:
		if i == 1 && (b.targetMayFlee() || b.targetMayFleeBefore(k)) {
			n = u.Models
		}
	case PhaseShooting:
		switch {
		case a.Zzzzap && i == 0 && b.mayLoseLastDie():
			n = u.Models
		case a.Zzzzap && i == 0:
			n += 6
		case a.Zzzzap && b.mayBeInZzzzapRange(i):
			n += b.Options.ZzzzapBolts
		}
		if i == 1 && !a.Missile.Shots.IsZero() {
			n += a.Shooters(a.Models, b.Options.FiringRanks) * max(0, a.Missile.Shots.Max())
		}
	}
	return min(n, u.Models)
}

// mayLoseLastDie reports whether the acting unit's Disasters can take away
// every die of its Random Movement (nD6, one a Disaster, at most one
// Disaster a Shooting phase), which removes it.
func (b *Battle) mayLoseLastDie() bool {
	a := b.Units[0]
	n, ok := a.Mover.Random.PlainD6()
	shootings := 0
	for _, p := range b.Phases {
		if p == PhaseShooting {
			shootings++
		}
	}
	return ok && shootings >= n
}

// mayBeInZzzzapRange reports whether unit i may stand within Zzzzap! range
// in a Shooting phase. The target comes nearer only in the charge phase;
// other units only move away (fleeing), so one beyond range stays beyond.
func (b *Battle) mayBeInZzzzapRange(i int) bool {
	if i == 1 && slices.Contains(b.Phases, PhaseCharge) {
		return true
	}
	return b.Distance[i] <= b.Options.ZzzzapRange
}

// mayLoseFriend reports whether a friend of unit i with at least
// Options.PanicFriendUS Unit Strength can break or be destroyed while i may
// stand within 6" of it.
func (b *Battle) mayLoseFriend(i int) bool {
	for j, f := range b.Units {
		if j == i || b.Enemy[j] != b.Enemy[i] || f.TotalUS(f.Models) < b.Options.PanicFriendUS {
			continue
		}
		if b.mayFall(j) && b.mayStandNear(i, j) {
			return true
		}
	}
	return false
}

// mayFall reports whether unit j can break or be destroyed: only the units
// in close combat break, and they may lose every model there; any unit is
// destroyed only if its losses over the phases can add up to all of it.
func (b *Battle) mayFall(j int) bool {
	lost := 0
	for k := range b.Phases {
		lost += b.maxModelsLost(j, k)
	}
	return lost >= b.Units[j].Models
}

// mayStandNear reports whether units i and j may stand within 6" of each
// other (apart) when i could take a Panic test. The target's distance
// changes in the charge phase and when it flees from combat; another
// unit's only grows: when it flees, after which it takes no test, or, by
// as much for every unit, when the acting unit flees from combat
// (placeFlights), which leaves the distances between the others as they
// were. So the distance from the acting unit to a unit i other than the
// target never shrinks while i can test, the distance between two such
// units never changes, and a unit j other than the target can only come
// within 6" of i from nearer the acting unit.
func (b *Battle) mayStandNear(i, j int) bool {
	switch {
	case i == 1 || j == 1:
		return true
	case j == 0:
		return b.Distance[i] <= 6
	case i == 0:
		return b.Distance[j] <= 6
	}
	return b.Distance[j] <= b.Distance[i]+6
}
