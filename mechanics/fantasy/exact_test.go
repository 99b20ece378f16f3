package fantasy

import (
	"math"
	"testing"

	"hammersim/mechanics/dice"
)

// TestExactBattle pins ExactBattle's closed forms to hand-derived values.
func TestExactBattle(t *testing.T) {
	// P(3D6 >= 10) = 1 - 81/216: the counts of 3..9 on 3D6 are 1, 3, 6,
	// 10, 15, 21, 25 (by enumeration), 81 in all.
	p3D6at10 := 1 - 81.0/216
	target := func() *Unit { return foot("Rats", 20, 5, 3, 3, 3, 4, 1, 5, NoSave) }
	fleeing := func() *Battle {
		b := battle(chariot("D6"), target(), 10, PhaseCharge, PhaseCombat)
		b.Units[0].Mover = Mover{M: 6}
		b.Options.TargetFlees = true
		return b
	}
	tests := []struct {
		name   string
		b      *Battle
		metric BattleMetric
		want   float64
		has    bool
	}{
		{"random move reaches", battle(chariot("D6"), target(), 10, PhaseCharge, PhaseCombat), BattleChargeSuccess, p3D6at10, true},
		// Impact Hits (D6): one model, a mean of 3.5 hits when the charge
		// reaches.
		{"impact hits", battle(chariot("D6"), target(), 10, PhaseCharge, PhaseCombat), BattleImpactHits, p3D6at10 * 3.5, true},
		// S6 against T3 wounds on 2+ (the wound chart: S two or more above
		// T), and the target has no armour: 5/6 of the hits wound.
		{"impact wounds", battle(chariot("D6"), target(), 10, PhaseCharge, PhaseCombat), BattleImpactWounds, p3D6at10 * 3.5 * 5 / 6, true},
		// rounds: 1 after a charge: one round exactly when the charge
		// reaches a target that holds.
		{"one round after the charge", battle(chariot("D6"), target(), 10, PhaseCharge, PhaseCombat), BattleRounds, p3D6at10, true},
		{"engaged from the start", battle(chariot("D6"), target(), 0, PhaseCharge, PhaseCombat), BattleChargeSuccess, 0, true},
		{"no impact hits when engaged", battle(chariot("D6"), target(), 0, PhaseCharge, PhaseCombat), BattleImpactHits, 0, false},
		{"no charge phase", battle(chariot("D6"), target(), 10, PhaseCombat), BattleChargeSuccess, 0, false},
		{"a voluntary flight has no closed form", fleeing(), BattleChargeSuccess, 0, false},
	}
	for _, tt := range tests {
		got, has := ExactBattle(tt.b).Value(tt.metric, 0)
		if has != tt.has || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: %v, %v; want %v, %v", tt.name, got, has, tt.want, tt.has)
		}
	}
}

// TestExactBattleMatchesRun checks the charge's closed forms against
// trials of the battle itself, within 5 standard errors (a false alarm
// about once in 3.5 million comparisons), with a fixed seed.
func TestExactBattleMatchesRun(t *testing.T) {
	b := battle(chariot("D6"), foot("Rats", 20, 5, 3, 3, 3, 4, 1, 5, NoSave), 10, PhaseCharge, PhaseCombat)
	ex := ExactBattle(b)
	const n = 20_000
	r := dice.New(3, 0)
	s := b.NewState()
	var charged, hits, hits2 float64
	for range n {
		b.Run(r, s)
		if s.Out.ChargeSuccess {
			charged++
		}
		h := float64(s.Out.ImpactHits)
		hits += h
		hits2 += h * h
	}
	p, _ := ex.Value(BattleChargeSuccess, 0)
	if se := math.Sqrt(p * (1 - p) / n); math.Abs(charged/n-p) > 5*se {
		t.Errorf("charge_success %.4f, exact %.4f (5 SE = %.4f)", charged/n, p, 5*se)
	}
	mean, _ := ex.Value(BattleImpactHits, 0)
	sd := math.Sqrt(hits2/n - (hits/n)*(hits/n))
	if se := sd / math.Sqrt(n); math.Abs(hits/n-mean) > 5*se {
		t.Errorf("impact_hits %.4f, exact %.4f (5 SE = %.4f)", hits/n, mean, 5*se)
	}
}
