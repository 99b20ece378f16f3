package heresy

import "hammersim/mechanics/dice"

// Charges, Disordered Charges and the Reactions around them. Sources:
// the Lords of Profligacy rule text (a Stupefied unit's charge is always
// Disordered), the rulebook pages docs/heresy.md cites, and OPEN points
// settled by Options.

// Ready sets the side's unit for the combat: whether it charged in good
// order, which Furious Charge reads. Fight calls it; exact callers that
// build chains for a Side call it first too.
func (s *Side) Ready() {
	s.Unit.ChargedInOrder = s.Charged && !s.Disorderly()
}

// Disorderly reports whether the side's charge was Disordered: a trigger
// said so, or the charger is Stupefied, whose charges always are (rule
// text, including a charge during which it became Stupefied).
func (s *Side) Disorderly() bool {
	return s.Charged && (s.Disordered || s.Unit.ChargeDisordered())
}

// Attacks is the Attacks each model of the side strikes: its
// characteristic, plus Options.ChargeBonusAttacks when it charged in good
// order. A Disordered charge loses the bonus (inferred from rules that
// grant +1 Attack "even if Disordered"; docs/heresy.md).
func (s *Side) Attacks(o Options) int {
	n := s.Unit.A
	if s.Charged && !s.Disorderly() {
		n += o.ChargeBonusAttacks
	}
	return max(n, 0)
}

// Initiative is the Initiative step the side strikes at against foe: its
// own, or Options.TerrainChargeInitiative after charging through Difficult
// Terrain, a penalty not applied against a Stupefied foe (rule text).
func (s *Side) Initiative(foe *Side, o Options) int {
	i := s.Unit.I
	if s.Charged && s.DifficultTerrain && o.TerrainChargeInitiative > 0 && !foe.Unit.IsStupefied() {
		i = min(i, o.TerrainChargeInitiative)
	}
	return i
}

// ChargeDisordered reports whether a charge by u is Disordered: always
// while u is Stupefied (rule text); otherwise when an enabled OPEN trigger
// applies: the charged unit made the Hold the Line Reaction (heldTheLine),
// or the charge is against more than one unit (targets > 1).
func ChargeDisordered(u *Unit, heldTheLine bool, targets int, o Options) bool {
	t := o.DisorderTriggers
	return u.ChargeDisordered() || (t.HoldTheLine && heldTheLine) || (t.MultipleTargets && targets > 1)
}

// ChargeRoll is the exact distribution of a charge's distance: the charge
// dice (Options.ChargeDice; 2D6 by default) plus bonus, the unit's
// Movement bonus to Charge Distance and the like (rulebook p.181; Fleet (X)
// adds X), capped at Options.MaxCharge.
func ChargeRoll(bonus int, o Options) dice.Dist {
	d := o.chargeDice().Dist().Shift(bonus)
	if o.MaxCharge > 0 {
		cap := o.MaxCharge
		d = d.Map(func(v int) int { return min(v, cap) })
	}
	return d
}

// ChargeSuccess is the exact probability that a charge with Movement bonus
// bonus reaches a target distance inches away: P(charge roll >= distance).
// A target beyond Options.MaxCharge cannot be charged at all.
func ChargeSuccess(distance, bonus int, o Options) float64 {
	if !CanDeclareCharge(distance, o) {
		return 0
	}
	return ChargeRoll(bonus, o).AtLeast(distance)
}

// CanDeclareCharge reports whether a charge may be declared against a
// target distance inches away: not beyond Options.MaxCharge, the longest
// charge (greypaints' HH2 assault phase guide: no charge is declared
// against a target out of that range). A distance of 0 is not rolled and
// stands for a charge that reaches.
func CanDeclareCharge(distance int, o Options) bool {
	return o.MaxCharge <= 0 || distance <= o.MaxCharge
}

// RollCharge rolls a charge's distance, as ChargeRoll describes.
func RollCharge(r *dice.Rand, bonus int, o Options) int {
	e := o.chargeDice()
	v := e.Roll(r) + bonus
	if o.MaxCharge > 0 {
		v = min(v, o.MaxCharge)
	}
	return v
}

var twoD6 = dice.Dice(2, 6)

func (o Options) chargeDice() *dice.Expr {
	if o.ChargeDice.IsZero() {
		return &twoD6
	}
	return &o.ChargeDice
}

// ChoosesToFail reports whether a unit that lost a combat chooses to fail
// its Morale check by Our Weapons Are Useless: only with
// Options.OurWeaponsAreUseless, only when its close-combat weapon w cannot
// wound the winner (the 7th-edition reading: a unit that cannot hurt its
// enemy may fail on purpose), and never when it is Fearless (rule text:
// a Fearless unit may never fail one on purpose).
func ChoosesToFail(loser *Unit, w *Weapon, winner *Unit, o Options) bool {
	if !o.OurWeaponsAreUseless || loser.Fearless {
		return false
	}
	c := MeleeChain(loser, w, winner, o)
	return c.P(StageWounds) == 0
}

// ChargeResult is what a charge and the combat it starts did.
type ChargeResult struct {
	// Overwatch is what the charged unit's Overwatch did to the charger;
	// its Hot, the Gets Hot wounds the charged unit suffered.
	Overwatch Tally
	// Roll is the charge's distance; 0 when the charger, or its target,
	// was destroyed before rolling.
	Roll int
	// Reached: the charge reached its target and the combat was fought.
	Reached bool
	// Disordered: the charge was Disordered.
	Disordered bool
	// Combat is the combat's result; the zero value when not Reached.
	Combat CombatResult
}

// Charge resolves a charge by a into b, distance inches away, and the
// combat it starts; a.Charged is set, b.Charged cleared. A charge that may
// not be declared (CanDeclareCharge) does nothing: no Overwatch, no roll.
// In order:
//  1. with Options.Overwatch, if b may make the Overwatch Reaction, ow (an
//     Attack the caller prepared for b's weapons against a, in the
//     situation of a Reaction against a charging unit) is fired with b's
//     models at a, its Gets Hot wounds going onto b (Attack.Fire); a
//     charger it destroys makes no charge, nor does one whose target its
//     own Overwatch destroyed; a charger left becomes Stupefied then if
//     a.StupefyAfterOverwatch and the Overwatch fired a weapon (a Shooting
//     Attack was resolved against it);
//  2. the charge roll (RollCharge with bonus); below distance the charge
//     fails and no combat is fought;
//  3. the charge is Disordered as ChargeDisordered says, with a.Disordered
//     standing for the other triggers, and Fight resolves the combat.
//
// It does not allocate.
func Charge(r *dice.Rand, a, b Side, ow *Attack, distance, bonus int, o Options) ChargeResult {
	var res ChargeResult
	a.Charged, b.Charged = true, false
	if !CanDeclareCharge(distance, o) {
		return res
	}
	if o.Overwatch && ow != nil && b.Unit.CanReact(Overwatch) {
		for i := range ow.Volleys {
			ow.Volleys[i].Models = max(b.Unit.Models, 0)
		}
		res.Overwatch = ow.Fire(r, b.Unit, a.Unit)
		if a.StupefyAfterOverwatch && len(ow.Volleys) > 0 {
			a.Unit.Stupefy(true, o) // in its own turn, the charge's
		}
	}
	if a.Unit.Destroyed() || b.Unit.Destroyed() {
		return res
	}
	res.Roll = RollCharge(r, bonus, o)
	if res.Roll < distance {
		return res
	}
	res.Reached = true
	res.Disordered = a.Disorderly()
	res.Combat = Fight(r, a, b, o)
	return res
}
