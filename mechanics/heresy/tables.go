package heresy

import "hammersim/mechanics/dice"

// Impossible is the D6 score that stands for "no roll succeeds": a D6 never
// shows 7. Needs, saves and mitigation rolls use it for "none".
const Impossible = 7

// clampNeed reads a needed D6 score: a natural 1 always fails (the core rules,
// to hit and to wound; saves likewise; docs/heresy.md), so nothing is easier than 2+, and
// anything above 6 cannot be rolled.
func clampNeed(n int) int { return min(max(n, 2), Impossible) }

// pAtLeast is P(D6 >= need) for a need read by clampNeed.
func pAtLeast(need int) float64 { return float64(Impossible-clampNeed(need)) / 6 }

// HitRoll is what one shot or blow needs to hit: a D6 score, and for BS 6
// and above the score a re-rolled 1 needs.
type HitRoll struct {
	// Need is the score to hit, 2 to 6, or Impossible.
	Need int
	// Reroll is the score a 1 re-rolled to hit needs; 0 when 1s are not
	// re-rolled.
	Reroll int
	// RerollFailed: every failed roll is re-rolled once, needing Need again
	// (Twin-linked, rulebook p.249). It replaces the re-roll of 1s, which it
	// includes: a die is re-rolled once at most.
	RerollFailed bool
}

// P is the exact probability that one shot hits: P(D6 >= Need), plus, with
// a re-roll of 1s, 1/6 times P(D6 >= Reroll), or with every failure
// re-rolled, P(miss) times P(D6 >= Need).
func (h HitRoll) P() float64 {
	p := pAtLeast(h.Need)
	switch {
	case h.RerollFailed:
		p += (1 - p) * p
	case h.Reroll > 0:
		p += pAtLeast(h.Reroll) / 6
	}
	return p
}

// POne is the exact probability that the die a shot ends on is a 1 (the
// roll Gets Hot reads): a 1 that is re-rolled does not count, only the
// re-roll does (rulebook p.239).
func (h HitRoll) POne() float64 {
	switch {
	case h.RerollFailed:
		return (1 - pAtLeast(h.Need)) / 6
	case h.Reroll > 0:
		return 1.0 / 36
	}
	return 1.0 / 6
}

// Roll rolls one shot or blow to hit.
func (h HitRoll) Roll(r *dice.Rand) bool {
	d := r.D6()
	switch {
	case d >= h.Need:
		return true
	case h.RerollFailed:
		return r.D6() >= h.Need
	}
	return d == 1 && h.Reroll > 0 && r.D6() >= h.Reroll
}

// roll rolls one shot to hit and reports whether it hit and whether the
// die it ended on is a 1.
func (h HitRoll) roll(r *dice.Rand) (hit, one bool) {
	d := r.D6()
	if d >= h.Need {
		return true, false
	}
	switch {
	case h.RerollFailed:
		d = r.D6()
		return d >= h.Need, d == 1
	case d == 1 && h.Reroll > 0:
		d = r.D6()
		return d >= h.Reroll, d == 1
	}
	return false, d == 1
}

// bsTable is the HH2 shooting to-hit table (docs/heresy.md, "The attack
// chain", step 1): the score needed is 7 - BS; BS 6 and above hits on 2+
// and re-rolls a 1, the re-roll needing (12 - BS)+. Rows above BS 7 extend
// that formula, which the sources docs/heresy.md names confirm only to BS 7
// (see Options.CapBSAt7).
// BS 0 cannot hit. Columns: need, re-roll need.
var bsTable = [...][2]int{
	0:  {Impossible, 0},
	1:  {6, 0}, // also Snap Shots
	2:  {5, 0},
	3:  {4, 0},
	4:  {3, 0},
	5:  {2, 0},
	6:  {2, 6},
	7:  {2, 5},
	8:  {2, 4}, // extended (12 - BS)+, OPEN
	9:  {2, 3}, // extended, OPEN
	10: {2, 2}, // extended, OPEN; higher BS reads this row
}

// ShootingHit returns what a shot fired at Ballistic Skill bs needs to hit.
// Snap Shots are fired at BS 1 (pass 1).
func ShootingHit(bs int, o Options) HitRoll {
	bs = max(bs, 0)
	if o.CapBSAt7 {
		bs = min(bs, 7)
	}
	row := bsTable[min(bs, len(bsTable)-1)]
	return HitRoll{Need: row[0], Reroll: row[1]}
}

// SnapShotBS is the Ballistic Skill Snap Shots are fired at (Goonhammer's
// HH2 rules Q&A, August 2022: Snap Shots are fired at BS 1).
const SnapShotBS = 1

// WSChart gives the close-combat score to hit, indexed by the attacker's
// Weapon Skill and then the defender's, 0 to 10 (higher values read row or
// column 10).
type WSChart [11][11]int

// StandardWSChart is the close-combat to-hit chart of docs/heresy.md (given
// there for Fantasy, used here by default; see Options.WSChart): the
// attacker's WS higher than the target's hits on 3+; equal, or lower but at
// least half the target's, 4+; the target's WS more than double, 5+.
var StandardWSChart = WSChart{
	// defender WS: 0  1  2  3  4  5  6  7  8  9  10
	0:  {4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5},
	1:  {3, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5},
	2:  {3, 3, 4, 4, 4, 5, 5, 5, 5, 5, 5},
	3:  {3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5},
	4:  {3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5},
	5:  {3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4},
	6:  {3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4},
	7:  {3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4},
	8:  {3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4},
	9:  {3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4},
	10: {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4},
}

func (o Options) wsChart() *WSChart {
	if o.WSChart == (WSChart{}) {
		return &StandardWSChart
	}
	return &o.WSChart
}

// MeleeHit returns what a blow struck at Weapon Skill ws against a target
// of Weapon Skill targetWS needs to hit, by the chart in o.
func MeleeHit(ws, targetWS int, o Options) HitRoll {
	a := min(max(ws, 0), 10)
	d := min(max(targetWS, 0), 10)
	return HitRoll{Need: clampNeed(o.wsChart()[a][d])}
}

// WoundChart gives the score to wound by S - T: index 0 is a difference of
// -4 or worse, index 6 a difference of +2 or better. Impossible means the
// attack cannot wound.
type WoundChart [7]int

// woundChartLow is the S - T difference at index 0 of a WoundChart.
const woundChartLow = -4

// StandardWoundChart is the HH2 S vs T chart (docs/heresy.md, "To wound",
// the standard 40k/HH chart, OPEN with this as the default): S - T of +2
// or more wounds on 2+, +1 on 3+, 0 on 4+, -1 on 5+, -2 or -3 on 6+, and
// -4 or worse cannot wound.
var StandardWoundChart = WoundChart{
	Impossible, // -4 or worse
	6,          // -3
	6,          // -2
	5,          // -1
	4,          // 0
	3,          // +1
	2,          // +2 or better
}

// SixAlwaysWoundChart is StandardWoundChart save that a 6 wounds however
// far the Strength falls below the Toughness, as the Warhammer Fantasy
// chart ends (docs/heresy.md, option wound_chart). The HH2 chart is OPEN;
// this one measures what its end is worth.
var SixAlwaysWoundChart = WoundChart{
	6, // -4 or worse
	6, // -3
	6, // -2
	5, // -1
	4, // 0
	3, // +1
	2, // +2 or better
}

// WoundNeed returns the score an attack of Strength s needs to wound
// Toughness t, by the chart in o.
func WoundNeed(s, t int, o Options) int {
	c := &o.WoundChart
	if *c == (WoundChart{}) {
		c = &StandardWoundChart
	}
	i := min(max(s-t-woundChartLow, 0), len(c)-1)
	return clampNeed(c[i])
}

// SaveKind names the save a model takes.
type SaveKind uint8

const (
	NoSave SaveKind = iota
	ArmourSave
	InvulnerableSave
	CoverSave
)

func (k SaveKind) String() string {
	switch k {
	case NoSave:
		return "no save"
	case ArmourSave:
		return "armour"
	case InvulnerableSave:
		return "invulnerable"
	case CoverSave:
		return "cover"
	}
	return "SaveKind(?)"
}

// APNone is the AP of a weapon printed "-": it never removes an armour save.
const APNone = 0

// BestSave returns the single save a model takes against an attack of
// armour penetration ap (APNone for "-"), and which save it is. armour,
// invuln and cover are the scores of the saves it has (3 for 3+), 0 for
// none; invuln is the best of its invulnerable saves, since they do not
// combine. Impossible with NoSave when none is left.
//
// The rules (docs/heresy.md, "Saves"): an AP equal to or better
// (numerically lower than or equal to) the armour save removes it; AP "-"
// never does; invulnerable and cover saves are not modified by AP; the model
// takes the best one available.
func BestSave(armour, invuln, cover, ap int) (int, SaveKind) {
	best, kind := Impossible, NoSave
	consider := func(v int, k SaveKind) {
		if v > 0 && clampNeed(v) < best {
			best, kind = clampNeed(v), k
		}
	}
	if ap == APNone || ap > armour {
		consider(armour, ArmourSave)
	}
	consider(invuln, InvulnerableSave)
	consider(cover, CoverSave)
	return best, kind
}

// twoD6AtMost[n] counts the 36 outcomes of 2D6 totalling n or less, by
// enumeration: 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36 for n = 2 to 12.
var twoD6AtMost = [13]int{0, 0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36}

// PassProbability is the exact chance of passing a Leadership-based test
// (Morale check, Pinning test, Regroup test) on Leadership ld, already
// modified: 2D6 rolled equal to or under it. With doubleOne (Insane
// Heroism, see Options.InsaneHeroism) a double 1 passes too, which adds its
// 1/36 only where ld is below 2: a double 1 totals 2, already a pass from
// Ld 2 up.
func PassProbability(ld int, doubleOne bool) float64 {
	if doubleOne && ld < 2 {
		return 1.0 / 36
	}
	return float64(twoD6AtMost[min(max(ld, 0), 12)]) / 36
}

// RollTest rolls a Leadership-based test on ld (already modified); with
// doubleOne a double 1 passes whatever ld is. It rolls two dice either way.
func RollTest(r *dice.Rand, ld int, doubleOne bool) bool {
	a, b := r.D6(), r.D6()
	return a+b <= ld || (doubleOne && a == 1 && b == 1)
}
