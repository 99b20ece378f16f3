package fantasy

import "hammersim/mechanics/dice"

// Roll is what a D6 roll must reach: Need is the score on the first die
// (2 to 6; 7 means it cannot succeed) and Then, when above 0, a second D6
// that must also reach Then (the "6 followed by a 4+" of to-hit rolls of 7+).
type Roll struct {
	Need int
	Then int
}

// Impossible is a roll that never succeeds.
var Impossible = Roll{Need: 7}

// P is the exact probability of success.
func (n Roll) P() float64 {
	if n.Need > 6 {
		return 0
	}
	p := float64(7-n.Need) / 6
	if n.Then > 0 {
		p *= float64(7-n.Then) / 6
	}
	return p
}

// Succeeds rolls it. It returns the first die too, for rules that look at a
// natural 6 (Killing Blow) or a natural 1.
func (n Roll) Succeeds(r *dice.Rand) (ok bool, first int) {
	first = r.D6()
	if first < n.Need {
		return false, first
	}
	if n.Then > 0 && r.D6() < n.Then {
		return false, first
	}
	return true, first
}

// ShootingToHit is the to-hit roll of a shot at ballistic skill bs with the
// sum of to-hit modifiers mod (negative for long range, cover, moving). The
// score needed is 7 - BS - mod; a natural 1 always misses, so the best is
// 2+. Beyond 6+ (WAP, shooting; docs/fantasy.md): 7+ is a 6 then 4+, 8+ a
// 6 then 5+, 9+ a 6 then 6, and 10+ cannot hit.
func ShootingToHit(bs, mod int) Roll {
	need := 7 - bs - mod
	switch {
	case need <= 2:
		return Roll{Need: 2}
	case need <= 6:
		return Roll{Need: need}
	case need <= 9:
		return Roll{Need: 6, Then: need - 3}
	}
	return Impossible
}

// MeleeToHit is the close combat to-hit roll of an attacker with weapon
// skill ws against a defender with weapon skill def, by 8th edition's chart
// (8E/close-combat/roll-to-hit-close-combat in docs/fantasy.md; WAP's was
// not found): 3+ when the attacker's WS is higher, 5+ when the
// defender's is more than double, 4+ otherwise. A defender without a WS
// (0, a machine) is simply lower, so it is hit on 3+.
func MeleeToHit(ws, def int) Roll {
	switch {
	case ws > def:
		return Roll{Need: 3}
	case def > 2*ws:
		return Roll{Need: 5}
	}
	return Roll{Need: 4}
}

// ToWound is the roll to wound with strength s against toughness t, by the
// wound chart (docs/fantasy.md): S - T of 2 or more 2+, 1 3+, 0 4+, -1 5+, -2 or
// less 6+. A 6 always wounds and a 1 always fails, so no roll is impossible.
func ToWound(s, t int) Roll {
	switch d := s - t; {
	case d >= 2:
		return Roll{Need: 2}
	case d == 1:
		return Roll{Need: 3}
	case d == 0:
		return Roll{Need: 4}
	case d == -1:
		return Roll{Need: 5}
	}
	return Roll{Need: 6}
}

// NoSave is the save value of a model without one (a 7+ or worse).
const NoSave = 7

// ArmourModifier is how much a hit of strength s worsens an armour save:
// none up to S 3, then one per point (S4 -1, S5 -2, ..., S10 -7).
func ArmourModifier(s int) int { return max(0, s-3) }

// ArmourRoll is the armour save of a model with save sv (2 for 2+, NoSave
// for none) against a hit of strength s. A natural 1 always fails, so a
// save of 1+ still needs 2+ on the die.
func ArmourRoll(sv, s int) Roll {
	need := max(sv+ArmourModifier(s), 2)
	if need > 6 {
		return Impossible
	}
	return Roll{Need: need}
}

// CombineArmour folds Natural Armour into the save from equipment: natural
// armour (X) gives a save of X, and each point by which the equipment's save
// beats 7+ improves it by one (Natural Armour 5+ with light armour, a 6+,
// makes 4+). Either may be NoSave.
func CombineArmour(equipment, natural int) int {
	if natural >= NoSave {
		return equipment
	}
	return max(1, natural-(NoSave-equipment))
}

// MinWard is the best ward save wards may combine to (WAP, Ward Saves:
// never better than 4+ by combining).
const MinWard = 4

// WardRoll is the ward save of value w (NoSave for none); wards are never
// modified by Strength.
func WardRoll(w int) Roll {
	if w >= NoSave {
		return Impossible
	}
	return Roll{Need: max(w, 2)}
}

// Ld2D6Pass is the exact probability that 2D6 is at most ld (a Leadership
// test), with Insane Courage (a double 1 always passes) when asked.
func Ld2D6Pass(ld int, insaneCourage bool) float64 {
	p := twoD6.AtMost(ld)
	if insaneCourage && ld < 2 {
		p = 1.0 / 36
	}
	return p
}

var twoD6 = dice.Dice(2, 6).Dist()

// LdTest rolls a Leadership test: 2D6 at most ld passes; with Insane
// Courage a double 1 always passes, whatever the modifiers.
func LdTest(r *dice.Rand, ld int, insaneCourage bool) bool {
	a, b := r.D6(), r.D6()
	if insaneCourage && a == 1 && b == 1 {
		return true
	}
	return a+b <= ld
}
