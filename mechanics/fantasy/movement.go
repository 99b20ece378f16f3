package fantasy

import (
	"fmt"

	"hammersim/mechanics/dice"
)

// MoveKind is a kind of move decided by a roll.
type MoveKind uint8

const (
	// Charge is the charge range: M plus a roll, compared with the distance.
	Charge MoveKind = iota
	// FailedCharge is how far a unit moves when its charge falls short.
	FailedCharge
	// Flee is a flee roll.
	Flee
	// Pursue is a pursuit roll.
	Pursue
)

func (k MoveKind) String() string {
	return [...]string{"charge", "failed charge", "flee", "pursue"}[k]
}

// Mover is what decides a unit's movement rolls.
type Mover struct {
	// M is the Movement characteristic; unused with Random Movement.
	M int
	// Swiftstride: every model in the unit has it.
	Swiftstride bool
	// Random is the Random Movement roll; the zero Expr when none.
	Random dice.Expr
	// Fly is the swoop value of Fly (X); 0 when the unit cannot fly.
	Fly int
	// Tunneller: moves as Fly (X) but without Swiftstride (the Dread Maw).
	Tunneller bool
	// Table is the movement table the rolls follow: the Warhammer Armies
	// Project's (the zero value) or 8th edition's, for comparison.
	Table Table
}

// Table is a movement table.
type Table uint8

const (
	// TableWAP is the Swiftstride unit card's table.
	TableWAP Table = iota
	// Table8th is 8th edition's: every charge, flee and pursuit rolls 2D6,
	// and Swiftstride, which every flyer has on the ground too, adds a die
	// and discards the lowest (3D6 discard lowest), whatever M. A failed
	// charge moves the highest die the charge rolled (RollCharge).
	Table8th
)

// Move is a rolled distance: Base plus a roll of Dice.
type Move struct {
	Base int
	Dice dice.Expr
	// Why names the rule that chose the dice, e.g. "Swiftstride, M 7 or more".
	Why string
}

// Roll rolls the distance.
func (m *Move) Roll(r *dice.Rand) int { return m.Base + m.Dice.Roll(r) }

// Dist is the exact distribution of the distance.
func (m Move) Dist() dice.Dist { return m.Dice.Dist().Shift(m.Base) }

func (m Move) String() string {
	if m.Base == 0 {
		return m.Dice.String()
	}
	return fmt.Sprintf("%d+%s", m.Base, m.Dice)
}

// bracket is a row of the Swiftstride unit card's table.
type bracket int8

const (
	noSwiftstride bracket = iota
	swiftstrideM6         // Swiftstride, M 6 or lower
	swiftstrideM7         // Swiftstride, M 7 or more
)

// moveDice is the movement table of the Swiftstride unit card (and WAP's
// movement summary chart, docs/fantasy.md), one row per bracket, one column per MoveKind:
//
//	                    charge              failed charge       flee, pursue
//	no Swiftstride      M + highest of 2D6  highest of 2D6      2D6
//	Swiftstride, M <= 6 M + 2D6             2D6                 3D6 discard lowest
//	Swiftstride, M >= 7 M + 3D6 disc. low   3D6 discard lowest  3D6
var moveDice = [3][4]dice.Expr{
	noSwiftstride: {dice.KeepHighest(2, 6, 1), dice.KeepHighest(2, 6, 1), dice.Dice(2, 6), dice.Dice(2, 6)},
	swiftstrideM6: {dice.Dice(2, 6), dice.Dice(2, 6), dice.KeepHighest(3, 6, 2), dice.KeepHighest(3, 6, 2)},
	swiftstrideM7: {dice.KeepHighest(3, 6, 2), dice.KeepHighest(3, 6, 2), dice.Dice(3, 6), dice.Dice(3, 6)},
}

var bracketWhy = [5]string{"no Swiftstride", "Swiftstride, M 6 or lower", "Swiftstride, M 7 or more",
	"8th edition, no Swiftstride", "8th edition, Swiftstride"}

// Move returns the roll for a move of the given kind. flying asks for a
// flying charge (or failed flying charge) and needs Fly; it is ignored for
// flees and pursuits, which flyers always make on the ground.
//
// The rules, in the order they decide:
//   - Random Movement: the roll is the whole distance for every kind of
//     move, and Swiftstride is not used.
//   - A flying charge uses the Fly value as M and always uses Swiftstride;
//     a Tunneller moves as a flyer but never gets Swiftstride, for any
//     kind of move.
//   - Otherwise M and the unit's own Swiftstride apply.
//   - Swiftstride has no effect when the M used is below 4.
//   - Charges add M to the roll; failed charges, flees and pursuits do not.
func (m Mover) Move(kind MoveKind, flying bool) Move {
	base, e, b, used := m.roll(kind, flying)
	out := Move{Base: base, Dice: *e}
	switch {
	case b < 0:
		out.Why = "Random Movement"
	case used.flying && m.Tunneller:
		out.Why = "tunnelling, " + bracketWhy[b]
	case used.flying:
		out.Why = "flying, " + bracketWhy[b]
	default:
		out.Why = bracketWhy[b]
	}
	if used.voidSwift {
		out.Why += " (Swiftstride void below M 4)"
	}
	return out
}

// Roll rolls the distance of a move of the given kind, as Move describes,
// without building the description: it never allocates.
func (m *Mover) Roll(r *dice.Rand, kind MoveKind, flying bool) int {
	base, e, _, _ := m.roll(kind, flying)
	return base + e.Roll(r)
}

// RollCharge rolls a charge, as Roll does for kind Charge, and reads from
// the same dice how far the unit moves when the charge falls short: on
// the Swiftstride card's table the failed-charge roll is the charge's roll
// without M (the same dice, the table's failed-charge column), on 8th
// edition's the highest die the charge rolled (8E/movement/failed-charge).
// With Random Movement both are the roll. It never allocates.
func (m *Mover) RollCharge(r *dice.Rand, flying bool) (reach, failed int) {
	base, e, b, _ := m.roll(Charge, flying)
	if b != noSwiftstride8th && b != swiftstride8th {
		v := e.Roll(r)
		return base + v, v
	}
	n := 2
	if b == swiftstride8th {
		n = 3 // the lowest is discarded from the charge
	}
	sum, hi, lo := 0, 0, 7
	for range n {
		d := r.D6()
		sum, hi, lo = sum+d, max(hi, d), min(lo, d)
	}
	if n == 3 {
		sum -= lo
	}
	return base + sum, hi
}

// LongestCharge is the farthest a charge can reach (flying, as Roll reads
// it): beyond it a charge cannot be completed, so it is not declared.
func (m *Mover) LongestCharge(flying bool) int {
	base, e, _, _ := m.roll(Charge, flying)
	return base + e.Max()
}

type moveUse struct{ flying, voidSwift bool }

// roll decides the base and dice of a move, and the table row (-1 for
// Random Movement) that chose them.
func (m *Mover) roll(kind MoveKind, flying bool) (int, *dice.Expr, bracket, moveUse) {
	if !m.Random.IsZero() {
		return 0, &m.Random, -1, moveUse{}
	}
	// A Tunneller never benefits from Swiftstride, on the ground or under
	// it, even one its card lists (Dread Maw card).
	mv, swift := m.M, m.Swiftstride && !m.Tunneller
	var use moveUse
	if flying && m.Fly > 0 && (kind == Charge || kind == FailedCharge) {
		mv, swift = m.Fly, !m.Tunneller
		use.flying = true
	}
	b := noSwiftstride
	if swift && mv >= 4 {
		b = swiftstrideM6
		if mv >= 7 {
			b = swiftstrideM7
		}
	}
	use.voidSwift = swift && mv < 4
	base := 0
	if kind == Charge {
		base = mv
	}
	if m.Table == Table8th {
		// 8th edition gives every flyer Swiftstride, flying or on the
		// ground (8E/special-rules/fly); a Tunneller still never has it.
		if swift || m.Fly > 0 && !m.Tunneller {
			return base, &eighthSwift, swiftstride8th, moveUse{flying: use.flying}
		}
		return base, &eighthPlain, noSwiftstride8th, moveUse{flying: use.flying}
	}
	return base, &moveDice[b][kind], b, use
}

// The 8th-edition rolls, and the rows they are reported as.
var (
	eighthPlain = dice.Dice(2, 6)
	eighthSwift = dice.KeepHighest(3, 6, 2)
)

const (
	noSwiftstride8th bracket = 3
	swiftstride8th   bracket = 4
)

// CaughtProbability is the exact chance that a pursuer catches a fleeing
// unit: the pursuit roll equals or beats the flee roll.
func CaughtProbability(flee, pursue Move) float64 {
	return pursue.Dist().ProbGE(flee.Dist())
}
