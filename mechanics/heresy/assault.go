package heresy

import "hammersim/mechanics/dice"

// Side is one unit in a close combat.
type Side struct {
	Unit *Unit
	// Weapon is the close-combat weapon every model strikes with; the zero
	// Weapon strikes at the model's Strength with AP "-".
	Weapon Weapon
	// Charged: the unit charged into this combat this turn.
	Charged bool
	// DifficultTerrain: it charged through Difficult Terrain.
	DifficultTerrain bool
	// Disordered: its charge was Disordered by a trigger other than being
	// Stupefied (see ChargeDisordered); a Stupefied charger's always is.
	Disordered bool
	// StupefyAfterOverwatch: the charger's player has it become Stupefied,
	// if it may (Unit.CanStupefy), once the Overwatch fired at it is
	// resolved (see Charge). Lords of Profligacy allows the choice after a
	// Shooting Attack against the unit, and a charge during which it
	// becomes Stupefied goes on, Disordered (rule text).
	StupefyAfterOverwatch bool
}

// CombatResult is what one round of close combat did.
type CombatResult struct {
	// Inflicted[i] is what side i (0 for the first Side given to Fight)
	// did to the other.
	Inflicted [2]Tally
	// Score[i] is side i's combat result: the wounds it inflicted, as
	// Options.CombatScore counts them, plus any outnumbering bonus.
	Score [2]int
	// Winner is 0 or 1, or -1 for a draw.
	Winner int
	// Tested: the loser took a Morale check; Passed: it passed.
	Tested, Passed bool
	// ChoseToFail: the loser chose to fail its Morale check by Our Weapons
	// Are Useless (see ChoosesToFail).
	ChoseToFail bool
	// FellBack: the loser failed and Fell Back.
	FellBack bool
	// Swept: the loser was destroyed by a Sweeping Advance.
	Swept bool
	// SweepRolled: dice were rolled for the Sweeping Advance (false when
	// there was none, or when the loser was Automated Artillery).
	SweepRolled bool
}

// Fight resolves one round of close combat between a and b and its
// aftermath, changing both units. It panics if a side marked Charged could
// not have charged (Automated Artillery, a unit Falling Back). It does not
// allocate.
//
// The sequence (a minimal one, enough to settle what happens to a unit that
// is charged and loses):
//  1. Strikes in Initiative order, the higher first; equal Initiatives
//     strike together. Each model left strikes its Attacks, plus
//     Options.ChargeBonusAttacks if its unit charged and the charge was not
//     Disordered (a Stupefied unit's charge always is). A unit that charged
//     through Difficult Terrain strikes at Options.TerrainChargeInitiative,
//     unless its enemy is Stupefied (Lords of Profligacy rule text).
//  2. Combat resolution: each side scores the wounds it inflicted that were
//     not saved or mitigated, counted as Options.CombatScore says (by
//     default the Wounds the enemy's models lost), plus
//     Options.OutnumberBonus (a house rule, 0 by default) if it outnumbers
//     the other, Bulky models counting as X (rule text). The higher score
//     wins; equal scores draw. A side wiped out loses.
//  3. The loser takes a Morale check on Leadership minus
//     Options.LoserLdPenalty per point of the difference in scores, and
//     minus the winner's Fear (X), a double 1 passing it with
//     Options.InsaneHeroism; Fearless passes it (rule text),
//     Stupefied does not help in the Assault phase. With
//     Options.OurWeaponsAreUseless a loser that cannot wound the winner
//     fails it by choice, unless it is Fearless (see ChoosesToFail).
//  4. On a failure it Falls Back (ending Stupefied) and the winner makes a
//     Sweeping Advance unless it is Automated Artillery, settled as
//     Options.SweepingAdvance says (see SweepProbability); Automated
//     Artillery is destroyed by one with no dice rolled (rule text).
func Fight(r *dice.Rand, a, b Side, o Options) CombatResult {
	sides := [2]*Side{&a, &b}
	for _, s := range sides {
		if s.Charged && !s.Unit.CanCharge() {
			panic("heresy: Fight: a unit that cannot charge is marked as having charged")
		}
	}
	var res CombatResult
	var init [2]int
	for i, s := range sides {
		s.Ready()
		init[i] = s.Initiative(sides[1-i], o)
	}
	strike := func(i int) (Chain, int, int) {
		s, foe := sides[i], sides[1-i]
		return MeleeChain(s.Unit, &s.Weapon, foe.Unit, o), max(s.Unit.Models, 0), s.Attacks(o)
	}
	switch {
	case init[0] == init[1]:
		c0, m0, n0 := strike(0)
		c1, m1, n1 := strike(1)
		res.Inflicted[0] = c0.RollBearers(r, m0, n0, b.Unit)
		res.Inflicted[1] = c1.RollBearers(r, m1, n1, a.Unit)
	default:
		first := 0
		if init[1] > init[0] {
			first = 1
		}
		c, m, n := strike(first)
		res.Inflicted[first] = c.RollBearers(r, m, n, sides[1-first].Unit)
		c, m, n = strike(1 - first)
		res.Inflicted[1-first] = c.RollBearers(r, m, n, sides[first].Unit)
	}

	for i, s := range sides {
		res.Score[i] = o.CombatScore.of(&res.Inflicted[i])
		if s.Unit.Outnumbers(sides[1-i].Unit) {
			res.Score[i] += o.OutnumberBonus
		}
	}
	deadA, deadB := a.Unit.Destroyed(), b.Unit.Destroyed()
	switch {
	case deadA && deadB:
		res.Winner = -1
	case deadA:
		res.Winner = 1
	case deadB:
		res.Winner = 0
	case res.Score[0] > res.Score[1]:
		res.Winner = 0
	case res.Score[1] > res.Score[0]:
		res.Winner = 1
	default:
		res.Winner = -1
	}
	if res.Winner < 0 {
		return res
	}
	res.aftermath(r, sides, o)
	return res
}

// aftermath settles the loser's Morale check and the Sweeping Advance
// after a combat with a winner (steps 3 and 4 of Fight).
func (res *CombatResult) aftermath(r *dice.Rand, sides [2]*Side, o Options) {
	win, lose := sides[res.Winner].Unit, sides[1-res.Winner].Unit
	if lose.Destroyed() {
		return
	}
	res.Tested = true
	mod := -o.LoserLdPenalty*(res.Score[res.Winner]-res.Score[1-res.Winner]) - lose.FearOf(win)
	if res.ChoseToFail = ChoosesToFail(lose, &sides[1-res.Winner].Weapon, win, o); res.ChoseToFail {
		res.Passed = false
	} else {
		res.Passed = lose.TakeTest(r, MoraleCheck, PhaseAssault, mod, o)
	}
	if res.Passed {
		return
	}
	lose.FallBack()
	res.FellBack = true
	if !win.CanSweep() || o.SweepingAdvance == NoSweep {
		return
	}
	if lose.SweptWithoutRoll() {
		res.Swept = true
	} else {
		res.SweepRolled = true
		res.Swept = r.D6()+win.I >= r.D6()+lose.I
	}
	if res.Swept {
		lose.Models, lose.Hurt = 0, 0
	}
}

// SweepProbability is the exact chance that a Sweeping Advance by winner
// destroys loser: 0 when the winner may not sweep or with NoSweep, 1 for
// Automated Artillery (no dice), else P(D6 + winner's I >= D6 + loser's
// I), by enumerating the 36 pairs of dice.
func SweepProbability(winner, loser *Unit, o Options) float64 {
	switch {
	case !winner.CanSweep() || o.SweepingAdvance == NoSweep:
		return 0
	case loser.SweptWithoutRoll():
		return 1
	}
	n := 0
	for dw := 1; dw <= 6; dw++ {
		for dl := 1; dl <= 6; dl++ {
			if dw+winner.I >= dl+loser.I {
				n++
			}
		}
	}
	return float64(n) / 36
}
