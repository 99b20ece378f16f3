package fantasy

import "slices"

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
)

// BattleExact holds the quantities of a battle that have a closed form.
// Each is exact only under the conditions stated in ExactBattle; when they
// fail, the quantity has none.
type BattleExact struct {
	values map[battleKey]float64
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

func (e BattleExact) set(metric BattleMetric, unit int, v float64) {
	e.values[battleKey{metric, unit}] = v
}

// ExactBattle works out the closed forms a battle has.
func ExactBattle(b *Battle) BattleExact {
	ex := BattleExact{values: map[battleKey]float64{}, mishap: map[int]float64{}}
	pCharge, chargeKnown := exactCharge(b)
	if chargeKnown {
		ex.set(BattleChargeSuccess, 0, pCharge)
		exactImpact(b, pCharge, ex)
	}
	exactZzzzap(b, ex)
	return ex
}

// exactCharge is the chance of charge_success: a Random Movement roll, or a
// declared charge's range, reaching the distance (after a test to charge a
// Terror-causer, and a flight from a Terror-causer's charge). It has none
// when the battle has no charge phase first, or the target flees by option:
// a voluntary flight is not modelled in closed form.
func exactCharge(b *Battle) (float64, bool) {
	a, t := b.Units[0], b.Units[1]
	if len(b.Phases) == 0 || b.Phases[0] != PhaseCharge {
		return 0, false
	}
	switch {
	case b.Distance[1] == 0: // engaged from the start: no charge
		return 0, true
	case !a.Mover.Random.IsZero():
		return a.Mover.Random.Dist().AtLeast(b.Distance[1]), true
	case b.Options.TargetFlees:
		return 0, false
	}
	// The target holds, or (after a failed Terror test) flees its flee roll
	// further away before the charge range is rolled.
	reach := a.Mover.Move(Charge, a.Flying).Dist()
	p := reach.AtLeast(b.Distance[1])
	if Terrifies(a, t) {
		pass := Ld2D6Pass(t.Ld, b.Options.InsaneCourage)
		flee := t.Mover.Move(Flee, false).Dist().Shift(b.Distance[1])
		p = pass*p + (1-pass)*reach.ProbGE(flee)
	}
	if Terrifies(t, a) {
		p *= Ld2D6Pass(a.Ld, b.Options.InsaneCourage)
	}
	return p, true
}

// exactImpact: impact_hits and impact_wounds, for one round of combat right
// after a charge that reaches with chance pCharge, with every model alive:
// each model rolls its Impact Hits. The wounds are exact while the target
// cannot run out of wounds to take.
func exactImpact(b *Battle, pCharge float64, ex BattleExact) {
	a, t := b.Units[0], b.Units[1]
	if !slices.Equal(b.Phases, []Phase{PhaseCharge, PhaseCombat}) || b.Distance[1] == 0 || a.Impact.IsZero() {
		return
	}
	hits := pCharge * float64(a.Models) * a.Impact.Dist().Mean()
	ex.set(BattleImpactHits, 0, hits)
	if t.Models*t.W >= a.Models*a.Impact.Dist().Max() {
		ex.set(BattleImpactWounds, 0, hits*HitWounds(a.S, t, false))
	}
}

// exactZzzzap: Zzzzap! alone. With distances fixed, the bolts go to the
// nearest unit in range; if it cannot be destroyed by them, none goes
// elsewhere. Exact only with the default of one wound per bolt.
func exactZzzzap(b *Battle, ex BattleExact) {
	a := b.Units[0]
	if !slices.Equal(b.Phases, []Phase{PhaseShooting}) || !a.Zzzzap || b.Options.ZzzzapD6Wounds {
		return
	}
	near := NearestAtStart(b)
	if near < 0 {
		for k := range 3 {
			ex.mishap[k] = 0
		}
		ex.set(BattleFriendlyWounds, 0, 0)
		return
	}
	pFire := 1.0
	if hold := b.Options.ZzzzapHoldFire; hold == HoldFireAlways || (hold == HoldFireFriends && !b.Enemy[near]) {
		pFire = 1 - Ld2D6Pass(a.Ld, b.Options.InsaneCourage)
	}
	for k, share := range []float64{2.0 / 6, 3.0 / 6, 1.0 / 6} { // Mishap chart: 1-2, 3-5, 6
		ex.mishap[k] = pFire / 6 * share
	}
	u := b.Units[near]
	if u.Models*u.W <= b.Options.ZzzzapBolts {
		return
	}
	mean := 0.0
	for _, s := range []int{2, 4, 6, 8, 10} { // the Artillery dice's numbered faces
		mean += float64(b.Options.ZzzzapBolts) * HitWounds(s, u, false) / 6
	}
	mean *= pFire
	ex.set(BattleWounds, near, mean)
	if u.W == 1 {
		ex.set(BattleKilled, near, mean)
	}
	ex.set(BattleDestroyed, near, 0)
	friendly := 0.0
	if !b.Enemy[near] {
		friendly = mean
	}
	ex.set(BattleFriendlyWounds, 0, friendly)
	for i := 1; i < len(b.Units); i++ {
		if i != near {
			ex.set(BattleWounds, i, 0)
		}
	}
}
