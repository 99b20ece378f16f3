package fantasy

import (
	"fmt"
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
		// Engaged, the charge phase changes nothing, and the combat from
		// the start has its closed form: no Impact Hits, as no charge.
		{"no impact hits when engaged", battle(chariot("D6"), target(), 0, PhaseCharge, PhaseCombat), BattleImpactHits, 0, true},
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
// about once in 1.7 million comparisons), with a fixed seed.
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

// zzzzapBattle is the doomwheel-zzzzap built-in: a Doomwheel (T6, W5, 4+
// armour, Ld 7, Zzzzap!, Loss of Control) shooting, thirty Clanrats (enemy)
// at rats inches and twenty Stormvermin (friends, T3, 4+) at storm inches.
func zzzzapBattle(hold HoldFire, rats, storm int) *Battle {
	a := chariot("D6")
	a.Zzzzap, a.LossOfControl = true, true
	b := &Battle{Units: []*Unit{a, foot("Clanrats", 30, 6, 3, 3, 3, 4, 1, 5, 5), foot("Stormvermin", 20, 5, 4, 4, 3, 5, 1, 7, 4)},
		Enemy: []bool{false, true, false}, Distance: []int{0, rats, storm}, Phases: []Phase{PhaseShooting}, Options: DefaultOptions}
	b.Options.ZzzzapHoldFire = hold
	return b
}

// disasterLostControl is the chance a Disaster sends the Doomwheel Out of
// Control (TestExactDisaster): sum over w = 1..4 of P(w) (1 - (5/6)^w).
const disasterLostControl = (120.0/6 + 99*11.0/36 + 64*91.0/216 + 29*671.0/1296) / 384

// TestExactDisaster pins the Doomwheel's own losses and Loss of Control
// under Zzzzap! to hand-derived values.
//
// The bolts are fired with chance f: 1, or 15/36 when a Leadership 7 test
// to hold fire is taken (2D6 <= 7 passes 21 times in 36). A Misfire is 1/6
// of the Artillery dice, a Disaster 2/6 of the Mishap chart: f/18 in all.
// A Disaster is D6 hits at S6 on the Doomwheel: T6 wounds on 4+ (1/2), and
// S6 takes its 4+ armour to 7+ (none). Its wounds w, mixed over the D6
// hits h of Binomial(h, 1/2): P(w) = (1/6) sum over h of C(h,w)/2^h, which
// is 63, 120, 99, 64, 29, 8, 1 in 384 for w = 0..6. It has 5 wounds:
//   - wounds: E[min(w,5)] = (120 + 2*99 + 3*64 + 4*29 + 5*8 + 5*1)/384
//     = 671/384, so f * 671/6912;
//   - destroyed (and models killed, one model of 5 wounds): P(w >= 5)
//     = 9/384, so f * 9/6912 = f/768;
//   - lost_control: alive (w <= 4) and out of combat, a D6 per wound and
//     any 1: sum over w = 1..4 of P(w) (1 - (5/6)^w) = (120*1/6 +
//     99*11/36 + 64*91/216 + 29*671/1296)/384, times f/18.
func TestExactDisaster(t *testing.T) {
	lost := disasterLostControl / 18
	const held = 15.0 / 36
	engaged := zzzzapBattle(HoldFireNever, 0, 8) // the Clanrats in contact: nearest, and no test
	noLoss := zzzzapBattle(HoldFireNever, 10, 4)
	noLoss.Units[0].LossOfControl = false
	tests := []struct {
		name   string
		b      *Battle
		metric BattleMetric
		unit   int
		want   float64
		has    bool
	}{
		{"wounds, never held", zzzzapBattle(HoldFireNever, 10, 4), BattleWounds, 0, 671.0 / 6912, true},
		{"destroyed, never held", zzzzapBattle(HoldFireNever, 10, 4), BattleDestroyed, 0, 1.0 / 768, true},
		{"killed, never held", zzzzapBattle(HoldFireNever, 10, 4), BattleKilled, 0, 1.0 / 768, true},
		{"lost control, never held", zzzzapBattle(HoldFireNever, 10, 4), BattleLostControl, 0, lost, true},
		{"wounds, friends nearest", zzzzapBattle(HoldFireFriends, 10, 4), BattleWounds, 0, held * 671 / 6912, true},
		{"destroyed, friends nearest", zzzzapBattle(HoldFireFriends, 10, 4), BattleDestroyed, 0, held / 768, true},
		{"lost control, friends nearest", zzzzapBattle(HoldFireFriends, 10, 8), BattleLostControl, 0, held * lost, true},
		{"lost control, enemy nearest", zzzzapBattle(HoldFireFriends, 10, 12), BattleLostControl, 0, lost, true},
		{"engaged: wounded", engaged, BattleWounds, 0, 671.0 / 6912, true},
		{"engaged: no test", engaged, BattleLostControl, 0, 0, true},
		{"no Loss of Control", noLoss, BattleLostControl, 0, 0, false},
		// Units the bolts never reach lose nothing.
		{"Clanrats behind the friends: killed", zzzzapBattle(HoldFireNever, 10, 4), BattleKilled, 1, 0, true},
		{"Clanrats behind the friends: destroyed", zzzzapBattle(HoldFireNever, 10, 4), BattleDestroyed, 1, 0, true},
		{"Stormvermin behind the enemy: killed", zzzzapBattle(HoldFireNever, 10, 12), BattleKilled, 2, 0, true},
		{"Stormvermin behind the enemy: destroyed", zzzzapBattle(HoldFireNever, 10, 12), BattleDestroyed, 2, 0, true},
	}
	for _, tt := range tests {
		ex := ExactBattle(tt.b)
		got, has := ex.Value(tt.metric, tt.unit)
		if has != tt.has || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: %v, %v; want %v, %v", tt.name, got, has, tt.want, tt.has)
		}
		if d, ok := ex.Dist(tt.metric, tt.unit); ok && math.Abs(d.Mean()-got) > 1e-12 {
			t.Errorf("%s: distribution's mean %v, value %v", tt.name, d.Mean(), got)
		}
	}
}

// impactBattle is the impact-hits built-in with the target unarmoured: a
// chariot (Random Movement 3D6, so 2" is always reached; Impact Hits
// impact, no attacks, Ld 7, Unit Strength 5) charging thirty Clanrats six
// wide (no attacks, Ld 5), one round.
func impactBattle(impact string) *Battle {
	b := battle(chariot(impact), foot("Clanrats", 30, 6, 3, 3, 3, 4, 0, 5, NoSave), 2, PhaseCharge, PhaseCombat)
	b.Options.Rounds, b.Options.Pursue = 1, PursueNever
	return b
}

// TestExactImpactCombat pins a round of Impact Hits alone to hand-derived
// values. S6 wounds T3 on 2+, no armour: the wounds W are Binomial(h, 5/6)
// mixed over the D6 hits h, P(W = 0, 1, 2) = 9331, 55980, 55875 in 279936
// and P(W >= 4) = 51875/139968 (sum over h = 4..6 of P(Binomial(h, 5/6)
// >= 4): 625/1296, 6250/7776, 43750/46656, over 6). At most 6 of 30
// Clanrats fall: they keep 4 ranks of six (+3) and the higher Unit
// Strength (+1), 4 in all; the chariot scores W and +1 for the charge.
//   - combat_result: E[W] + 1 - 4 = 3.5*5/6 - 3 = -1/12.
//   - The Clanrats lose when W >= 4; Steadfast (more Unit Strength, at
//     least 10, a rank of five), they test on Ld 5, failing 26 in 36:
//     51875/139968 * 26/36.
//   - The chariot loses when W <= 2, by 3 - W, testing on 7 - (3 - W):
//     2D6 above 4, 5, 6 fails 30, 26, 21 times in 36; so
//     (9331*30 + 55980*26 + 55875*21)/(279936*36) = 2908785/10077696.
//   - W = 3 is a draw: nobody breaks. won is the other side's broke.
//   - The Clanrats' wounds and models killed are W: 3.5*5/6.
func TestExactImpactCombat(t *testing.T) {
	ratsBreak := 51875.0 / 139968 * 26 / 36
	chariotBreaks := 2908785.0 / 10077696
	tests := []struct {
		metric BattleMetric
		unit   int
		want   float64
	}{
		{BattleCombatResult, 0, -1.0 / 12},
		{BattleBroke, 1, ratsBreak},
		{BattleWon, 0, ratsBreak},
		{BattleBroke, 0, chariotBreaks},
		{BattleWon, 1, chariotBreaks},
		{BattleCaught, 0, 0},
		{BattleCaught, 1, 0},
		{BattleWounds, 1, 3.5 * 5 / 6},
		{BattleKilled, 1, 3.5 * 5 / 6},
		{BattleDestroyed, 1, 0},
		{BattleWounds, 0, 0},
		{BattleDestroyed, 0, 0},
	}
	ex := ExactBattle(impactBattle("D6"))
	for _, tt := range tests {
		got, has := ex.Value(tt.metric, tt.unit)
		if !has || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("metric %d, unit %d: %v, %v; want %v", tt.metric, tt.unit, got, has, tt.want)
		}
	}
	// Beyond the chariot's longest charge (its M plus 2D6 is at most 20)
	// no trial fights, so the combat result, which counts only those that
	// do, has no exact value; breaking and winning have none of chance.
	far := impactBattle("D6")
	far.Distance[1] = 30
	farEx := ExactBattle(far)
	if v, has := farEx.Value(BattleCombatResult, 0); has {
		t.Errorf("a charge that cannot reach: exact combat result %v", v)
	}
	if v, has := farEx.Value(BattleBroke, 1); !has || v != 0 {
		t.Errorf("a charge that cannot reach: broke %v, %v; want 0", v, has)
	}
	// A crew that strikes blows keeps a closed form, over one round or
	// more (exactCombat; TestExactRoundMatchesTrials,
	// TestExactRoundRandomBattles).
	b := impactBattle("D6")
	b.Units[0].Attackers[0].A = dice.Const(1)
	for _, rounds := range []int{1, 2, 0} {
		b.Options.Rounds = rounds
		if _, has := ExactBattle(b).Value(BattleBroke, 1); !has {
			t.Errorf("rounds %d with attacks: no exact broke", rounds)
		}
	}
}

// TestExactImpactCombatBannersAndFear pins the other terms of the combat
// result by hand: the chariot causes Fear and charges six Clanrats in one
// rank of six (no rank bonus: one rank) holding a standard. Its D6 Impact
// Hits at S6 wound on 2+ with no save, at most 6 wounds on 6 models: W is
// Binomial(h, 5/6) mixed over h = 1..6, P(W = 0..6) = 9331, 55980, 55875,
// 55000, 50625, 37500, 15625 in 279936 (the sum over h of C(h,w) 5^w /
// 6^(h+1)); W = 6 destroys the unit.
//   - The chariot scores W + 1 (charge) + 1 (Fear), + 1 for the higher Unit
//     Strength (5 against 6 - W) when W >= 2, + 1 more for Fear when its 5
//     is at least double the rats' 6 - W, at W >= 4. The rats score 1 for
//     the higher Unit Strength at W = 0 and 1 for the standard while any
//     stand. The differences at W = 0..6 are 0, 2, 4, 5, 7, 8, 10:
//     combat_result = (2*55980 + 4*55875 + 5*55000 + 7*50625 + 8*37500 +
//     10*15625)/279936 = 473695/93312.
//   - W = 0 is a draw. At W = 1..5 the rats (never Steadfast: six models)
//     lose by 2, 4, 5, 7, 8 and test on Ld 3, 1, 0, -2, -3; a double 1
//     always passes (insane_courage), so they break 33, 35, 35, 35, 35
//     times in 36: (55980*33 + 199000*35)/(279936*36) = 2203085/2519424.
//     The chariot never loses: it wins when they break or die.
//   - models killed: E[W] = 3.5 * 5/6 = 35/12.
func TestExactImpactCombatBannersAndFear(t *testing.T) {
	b := impactBattle("D6")
	b.Units[0].Fear = true
	b.Units[1] = foot("Clanrats", 6, 6, 3, 3, 3, 4, 0, 5, NoSave)
	b.Units[1].Standard = true
	broke, destroyed := 2203085.0/2519424, 15625.0/279936
	ex := ExactBattle(b)
	for _, tt := range []struct {
		name   string
		metric BattleMetric
		unit   int
		want   float64
	}{
		{"combat result", BattleCombatResult, 0, 473695.0 / 93312},
		{"rats broke", BattleBroke, 1, broke},
		{"rats destroyed", BattleDestroyed, 1, destroyed},
		{"chariot won", BattleWon, 0, broke + destroyed},
		{"chariot broke", BattleBroke, 0, 0},
		{"rats killed", BattleKilled, 1, 35.0 / 12},
	} {
		got, has := ex.Value(tt.metric, tt.unit)
		if !has || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: %v, %v; want %v", tt.name, got, has, tt.want)
		}
	}
	// The trials against the same hand values, within 5 standard errors
	// (fixed seed): the rats' break, and the combat result's mean, whose
	// variance is worked out from the differences above.
	const n = 100_000
	s, r := b.NewState(), dice.New(23, 0)
	breaks, sum := 0.0, 0.0
	for range n {
		b.Run(r, s)
		if s.Units[1].Broke {
			breaks++
		}
		sum += float64(s.Out.CombatResult)
	}
	if se := math.Sqrt(broke * (1 - broke) / n); math.Abs(breaks/n-broke) > 5*se {
		t.Errorf("trials: the rats broke in %.4f, want %.4f", breaks/n, broke)
	}
	diffs := []float64{0, 2, 4, 5, 7, 8, 10}
	ps := []float64{9331, 55980, 55875, 55000, 50625, 37500, 15625}
	mean, sq := 0.0, 0.0
	for i, d := range diffs {
		mean += d * ps[i] / 279936
		sq += d * d * ps[i] / 279936
	}
	if se := math.Sqrt((sq - mean*mean) / n); math.Abs(sum/n-mean) > 5*se {
		t.Errorf("trials: combat result %.4f, want %.4f", sum/n, mean)
	}
}

// TestExactNewFormsMatchRun checks the Disaster's and the Impact round's
// closed forms against trials of the battles themselves, within 5
// standard errors, with a fixed seed.
func TestExactNewFormsMatchRun(t *testing.T) {
	check := func(b *Battle, probes []exactProbe) { matchesTrials(t, b, 17, 200_000, probes) }
	f := func(b bool) float64 { return float64(flag(b)) }
	check(zzzzapBattle(HoldFireNever, 10, 4), []exactProbe{
		{"lost_control", BattleLostControl, 0, func(s *State) float64 { return f(s.Out.LostControl) }},
		{"Doomwheel wounds", BattleWounds, 0, func(s *State) float64 { return float64(s.Units[0].Wounds) }},
		{"Doomwheel destroyed", BattleDestroyed, 0, func(s *State) float64 { return f(s.Units[0].Destroyed()) }},
	})
	check(impactBattle("D6"), []exactProbe{
		{"combat_result", BattleCombatResult, 0, func(s *State) float64 { return float64(s.Out.CombatResult) }},
		{"Clanrats broke", BattleBroke, 1, func(s *State) float64 { return f(s.Units[1].Broke) }},
		{"chariot broke", BattleBroke, 0, func(s *State) float64 { return f(s.Units[0].Broke) }},
	})
	// The closed forms kept where moves meet other units
	// (TestExactWhenMovesMeetOthers) hold there: the Doomwheel's Loss of
	// Control when it moves Out of Control at its friends; the Impact
	// round's when the Clanrats flee through a wall of friends of the
	// chariot (taking its 3 wounds as they pass) and the chariot pursues.
	towards := zzzzapBattle(HoldFireNever, 10, 4)
	towards.Options.OutOfControl = OutOfControlTowards
	check(towards, []exactProbe{{"lost_control, towards", BattleLostControl, 0, func(s *State) float64 { return f(s.Out.LostControl) }}})
	line := impactBattle("D6")
	line.Units, line.Enemy, line.Distance = append(line.Units, foot("Wall", 3, 3, 3, 3, 3, 3, 0, 10, NoSave)), append(line.Enemy, false), append(line.Distance, 2)
	line.Options.PursuitPath, line.Options.Pursue = PathLine, PursueAlways
	check(line, []exactProbe{
		{"combat_result, line", BattleCombatResult, 0, func(s *State) float64 { return float64(s.Out.CombatResult) }},
		{"Clanrats broke, line", BattleBroke, 1, func(s *State) float64 { return f(s.Units[1].Broke) }},
		{"Clanrats caught, line", BattleCaught, 1, func(s *State) float64 { return f(s.Units[1].Caught) }},
		{"chariot won, line", BattleWon, 0, func(s *State) float64 { return f(s.Won(0)) }},
	})
}

// doomwheelTurn is the doomwheel-vs-clanrats built-in: a Doomwheel
// (Random Movement 3D6, Impact Hits D6+1, Grind Attack, Zzzzap!, Loss of
// Control, crew with 2D6 attacks) moves at thirty Clanrats d inches away,
// shoots, and fights one round; friendly Stormvermin (T3, 4+) stand 5"
// away.
func doomwheelTurn(d int) *Battle {
	b := doomwheelCombat()
	b.Units[0].Zzzzap, b.Units[0].LossOfControl = true, true
	b.Units = append(b.Units, foot("Stormvermin", 20, 5, 4, 4, 3, 5, 1, 7, 4))
	b.Enemy, b.Distance = []bool{false, true, false}, []int{0, d, 5}
	b.Phases = []Phase{PhaseCharge, PhaseShooting, PhaseCombat}
	b.Options.Rounds = 1
	return b
}

// TestExactZzzzapAfterTheMove pins the closed forms of a Doomwheel's turn
// (move, shoot, one round) to hand-derived values. The 3D6 move reaches d
// with P(3D6 >= d): 206/216 at 6 (3D6 <= 5 comes 1+3+6 = 10 times in 216),
// 215/216 at 9, 81/216 at 12 (the counts of 3..11 are 1, 3, 6, 10, 15, 21,
// 25, 27, 27: 135 below 12).
//   - Engaged, the Clanrats (enemy) are nearest and the bolts fire; a
//     Disaster (1/18) destroys it with 9/384 (TestExactDisaster), leaving
//     no round: impact_hits = P(reach) (1 - 9/6912) 4.5.
//   - Short by 1-5", the Clanrats are nearest (a tie at 5" goes to the
//     enemy); short by more, the Stormvermin at 5", and the Ld 7 test to
//     hold fire passes 21 times in 36. At 9" only a roll of 3 falls 6
//     short: disaster = (215 + 15/36)/216/18.
//   - At 12" a roll of 3-6 (20 in 216) leaves the Stormvermin nearest:
//     friendly_wounds = 20/216 * 15/36 * 3 bolts * (1/6 * (1/6 + 4/9 +
//     3*5/6)), the chances that a bolt at S2, S4, S6-10 wounds T3 through
//     4+ armour (S2: 5+ to wound, 4+ saves; S4: 3+, 5+ saves; S6 up: 2+,
//     no save).
//   - Loss of Control comes only from a Disaster while short (out of
//     combat; combat wounds never test under loss_of_control
//     when_wounded): at 6", 10/216 * 1/18 * 0.2401761 (TestExactDisaster's
//     sum: 92.2276235/384).
func TestExactZzzzapAfterTheMove(t *testing.T) {
	lost := disasterLostControl
	tests := []struct {
		name   string
		b      *Battle
		metric BattleMetric
		unit   int
		want   float64
	}{
		{"impact hits at 6", doomwheelTurn(6), BattleImpactHits, 0, 206.0 / 216 * (1 - 9.0/6912) * 4.5},
		{"one round at 6", doomwheelTurn(6), BattleRounds, 0, 206.0 / 216 * (1 - 9.0/6912)},
		{"friendly wounds at 12", doomwheelTurn(12), BattleFriendlyWounds, 0, 20.0 / 216 * 15 / 36 * 3 * (1.0/6 + 4.0/9 + 2.5) / 6},
		{"Stormvermin killed at 12", doomwheelTurn(12), BattleKilled, 2, 20.0 / 216 * 15 / 36 * 3 * (1.0/6 + 4.0/9 + 2.5) / 6},
		{"lost control at 6", doomwheelTurn(6), BattleLostControl, 0, 10.0 / 216 / 18 * lost},
	}
	for _, tt := range tests {
		got, has := ExactBattle(tt.b).Value(tt.metric, tt.unit)
		if !has || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: %v, %v; want %v", tt.name, got, has, tt.want)
		}
	}
	if got, _ := ExactBattle(doomwheelTurn(9)).Mishap(0); math.Abs(got-(215+15.0/36)/216/18) > 1e-12 {
		t.Errorf("disaster at 9: %v", got)
	}
	// The combat decides the Doomwheel's and the Clanrats' losses, from the
	// wounds the Shooting phase left (exactCombat; TestExactZzzzapCombat).
	if _, has := ExactBattle(doomwheelTurn(6)).Value(BattleWounds, 1); !has {
		t.Error("the Clanrats' wounds have no exact value after the combat")
	}
	// Under loss_of_control end_of_phase, combat wounds may make it test.
	b := doomwheelTurn(6)
	b.Options.LossOfControl = LossOfControlEndOfPhase
	if _, has := ExactBattle(b).Value(BattleLostControl, 0); has {
		t.Error("lost_control has an exact value when combat wounds may test")
	}
}

// TestExactImpactNeedsEveryMachine: two Doomwheels in a column (width 1),
// with Zzzzap! between the charge and the combat: a Disaster may slay one
// of them and leave one to make Impact Hits, so the closed form, which
// counts both, is not given; the round's count, which does not depend on
// how many fight, still is. With one Doomwheel the Impact Hits stay exact.
func TestExactImpactNeedsEveryMachine(t *testing.T) {
	b := doomwheelTurn(6)
	b.Units[0].Models, b.Units[0].Width, b.Units[0].T, b.Units[0].W = 2, 1, 3, 3
	b.Options.ZzzzapHoldFire = HoldFireNever
	ex := ExactBattle(b)
	if v, has := ex.Value(BattleImpactHits, 0); has {
		t.Errorf("two Doomwheels that a Disaster may thin: exact impact hits %v", v)
	}
	if _, has := ex.Value(BattleRounds, 0); !has {
		t.Error("the round's count lost its closed form")
	}
	b.Units[0].Models = 1
	if _, has := ExactBattle(b).Value(BattleImpactHits, 0); !has {
		t.Error("one Doomwheel: no exact impact hits")
	}
}

// TestExactImpactWoundsCapped: Impact Hits that can outnumber the wounds
// of a whole target still have a closed form, capped at those wounds. The
// chariot's D6 hits at S6 wound four unarmoured Clanrats on 2+: W is
// Binomial(h, 5/6) mixed over h = 1..6, P(W = 0..6) = 9331, 55980, 55875,
// 55000, 50625, 37500, 15625 in 279936 (TestExactImpactCombatBannersAndFear),
// and the rats take min(W, 4):
//   - impact_wounds = (55980 + 2*55875 + 3*55000 + 4*(50625 + 37500 +
//     15625))/279936 = 747730/279936;
//   - destroyed = P(W >= 4) = 103750/279936.
//
// The round's other closed forms, which follow from the capped wounds, are
// checked against trials within 5 standard errors (fixed seed).
func TestExactImpactWoundsCapped(t *testing.T) {
	b := impactBattle("D6")
	b.Units[1] = foot("Clanrats", 4, 4, 3, 3, 3, 4, 0, 5, NoSave)
	ex := ExactBattle(b)
	for _, tt := range []struct {
		name   string
		metric BattleMetric
		unit   int
		want   float64
	}{
		{"impact wounds", BattleImpactWounds, 0, 747730.0 / 279936},
		{"rats destroyed", BattleDestroyed, 1, 103750.0 / 279936},
		{"rats killed", BattleKilled, 1, 747730.0 / 279936},
	} {
		got, has := ex.Value(tt.metric, tt.unit)
		if !has || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: %v, %v; want %v", tt.name, got, has, tt.want)
		}
		if d, ok := ex.Dist(tt.metric, tt.unit); ok && math.Abs(d.Mean()-got) > 1e-12 {
			t.Errorf("%s: distribution's mean %v, value %v", tt.name, d.Mean(), got)
		}
	}
	matchesTrials(t, b, 29, 100_000, []exactProbe{
		{"impact wounds", BattleImpactWounds, 0, func(s *State) float64 { return float64(s.Out.ImpactWounds) }},
		{"combat result", BattleCombatResult, 0, func(s *State) float64 { return float64(s.Out.CombatResult) }},
		{"rats broke", BattleBroke, 1, func(s *State) float64 { return float64(flag(s.Units[1].Broke)) }},
		{"chariot won", BattleWon, 0, func(s *State) float64 { return float64(flag(s.Won(0))) }},
	})
}

// exactProbe reads one metric of a trial, to set against its closed form.
type exactProbe struct {
	name   string
	metric BattleMetric
	unit   int
	read   func(s *State) float64
}

// matchesTrials runs n trials of b from seed and checks each probe's mean
// (a combat result's over the trials that fought) against ExactBattle's value within 5 standard errors (a false alarm
// about once in 1.7 million comparisons; where the trials saw no spread,
// the standard error of the exact distribution, or of the exact chance: a
// unit destroyed in every trial may have exact losses short of all of it,
// by the chance, 2 in 10 million in one random battle, that its enemy
// breaks before it dies); a probe with no closed form claimed fails.
func matchesTrials(t *testing.T, b *Battle, seed uint64, n int, probes []exactProbe) {
	t.Helper()
	ex := ExactBattle(b)
	s, r := b.NewState(), dice.New(seed, 0)
	sum, sum2, count := make([]float64, len(probes)), make([]float64, len(probes)), make([]float64, len(probes))
	for range n {
		b.Run(r, s)
		for i, p := range probes {
			if p.metric == BattleCombatResult && !s.Out.Fought {
				continue // the combat result counts the trials that fought
			}
			v := p.read(s)
			sum[i] += v
			sum2[i] += v * v
			count[i]++
		}
	}
	for i, p := range probes {
		want, has := ex.Value(p.metric, p.unit)
		if !has {
			t.Errorf("%s: no closed form", p.name)
			continue
		}
		k := count[i]
		mean := sum[i] / k
		se := math.Sqrt((sum2[i]/k - mean*mean) / k)
		if se == 0 {
			// No trial differed (an event none of them met): the spread
			// is the one the exact distribution gives, where there is
			// one, or the exact chance.
			v := want * (1 - want)
			if d, has := ex.Dist(p.metric, p.unit); has {
				v = d.Variance()
			}
			se = math.Sqrt(max(v, 1e-12) / k)
		}
		if math.Abs(mean-want) > 5*se+1e-12 {
			t.Errorf("%s: %.5f, exact %.5f (5 SE = %.5f)", p.name, mean, want, 5*se)
		}
	}
}

// TestExactWhenMovesMeetOthers: the closed forms kept where a battle's
// moves may run into other units. A Doomwheel's turn at 12" has them all
// (TestExactZzzzapAfterTheMove). Moved away by Out of Control, it meets
// nobody: they stand. Moved towards the others, it may charge the Clanrats
// from the Shooting phase or strike the Stormvermin: only the charge, the
// bolts on friends, the Mishap chart and the Loss of Control test, which
// all come before such a move, keep theirs, with the same values. With
// pursuit_path: line, the Clanrats' flight and the pursuit after the one
// round may meet the Stormvermin: every closed form of the round stands,
// the Doomwheel's losses too, but no other unit's.
func TestExactWhenMovesMeetOthers(t *testing.T) {
	base := ExactBattle(doomwheelTurn(12))
	kept := []BattleMetric{BattleChargeSuccess, BattleFriendlyWounds, BattleLostControl}
	round := []BattleMetric{BattleImpactHits, BattleImpactWounds, BattleRounds}
	for _, metric := range append(append(append([]BattleMetric{}, kept...), round...), BattleKilled) {
		unit := 0
		if metric == BattleKilled {
			unit = 2
		}
		if _, has := base.Value(metric, unit); !has {
			t.Fatalf("the Doomwheel's turn at 12\" has no closed form for metric %d", metric)
		}
	}
	same := func(name string, ex BattleExact, metric BattleMetric, unit int) {
		t.Helper()
		want, _ := base.Value(metric, unit)
		if got, has := ex.Value(metric, unit); !has || got != want {
			t.Errorf("%s: metric %d of unit %d: %v, %v; want %v", name, metric, unit, got, has, want)
		}
	}
	gone := func(name string, ex BattleExact, metric BattleMetric, unit int) {
		t.Helper()
		if v, has := ex.Value(metric, unit); has {
			t.Errorf("%s: metric %d of unit %d keeps the closed form %v", name, metric, unit, v)
		}
	}
	for _, move := range []OutOfControlMove{OutOfControlAway, OutOfControlTowards} {
		b := doomwheelTurn(12)
		b.Options.OutOfControl = move
		ex := ExactBattle(b)
		name := map[OutOfControlMove]string{OutOfControlAway: "away", OutOfControlTowards: "towards"}[move]
		for _, metric := range kept {
			same(name, ex, metric, 0)
		}
		for k := range 3 {
			w, _ := base.Mishap(k)
			if got, has := ex.Mishap(k); !has || got != w {
				t.Errorf("%s: mishap %d: %v, %v; want %v", name, k, got, has, w)
			}
		}
		for _, metric := range round {
			if move == OutOfControlAway {
				same(name, ex, metric, 0)
			} else {
				gone(name, ex, metric, 0)
			}
		}
		if move == OutOfControlAway {
			same(name, ex, BattleKilled, 2)
		} else {
			gone(name, ex, BattleKilled, 2)
		}
	}
	b := doomwheelTurn(12)
	b.Options.PursuitPath = PathLine
	ex := ExactBattle(b)
	for _, metric := range append(kept, round...) {
		same("line", ex, metric, 0)
	}
	gone("line", ex, BattleKilled, 2)
	// Its one round of Impact Hits alone keeps its result, breaks and the
	// acting unit's losses, but not the target's.
	c := impactBattle("D6")
	c.Units, c.Enemy, c.Distance = append(c.Units, foot("Wall", 3, 3, 3, 3, 3, 3, 0, 10, NoSave)), append(c.Enemy, false), append(c.Distance, 2)
	clearEx := ExactBattle(c)
	c.Options.PursuitPath = PathLine
	lineEx := ExactBattle(c)
	for _, k := range []battleKey{{BattleCombatResult, 0}, {BattleBroke, 1}, {BattleWon, 0}, {BattleCaught, 1}, {BattleWounds, 0}} {
		want, _ := clearEx.Value(k.metric, k.unit)
		if got, has := lineEx.Value(k.metric, k.unit); !has || got != want {
			t.Errorf("line, Impact Hits alone: metric %d of unit %d: %v, %v; want %v", k.metric, k.unit, got, has, want)
		}
	}
	for _, k := range []battleKey{{BattleWounds, 1}, {BattleDestroyed, 1}, {BattleWounds, 2}} {
		if _, has := clearEx.Value(k.metric, k.unit); !has {
			t.Errorf("clear, Impact Hits alone: no closed form for metric %d of unit %d", k.metric, k.unit)
		}
		if v, has := lineEx.Value(k.metric, k.unit); has {
			t.Errorf("line, Impact Hits alone: metric %d of unit %d keeps the closed form %v", k.metric, k.unit, v)
		}
	}
}

// TestExactImpactCombatHeartened: a friend of the Clanrats with the battle
// standard 14" from the chariot's start stands 14 - 2 = 12" from the
// Clanrats, which the charge leaves where they stood: within the
// standard's 12", so a failed Break test is taken again (WAP, Hold Your
// Ground!): broke = 51875/139968 x (26/36)^2 (TestExactImpactCombat's
// terms). One 15" away is 13" from them: no re-roll, 51875/139968 x
// 26/36. The exact values match trials (200,000, fixed seed, within 4
// standard errors); the exact value once measured from the chariot's
// start, and gave the re-roll at 14" to neither.
func TestExactImpactCombatHeartened(t *testing.T) {
	lose := 51875.0 / 139968
	for _, tc := range []struct {
		at   int
		want float64
	}{{14, lose * 26 / 36 * 26 / 36}, {15, lose * 26 / 36}} {
		b := impactBattle("D6")
		bearer := foot("Bearer", 20, 5, 3, 3, 3, 4, 1, 5, NoSave)
		bearer.BattleStandard, bearer.ImmunePsychology = true, true
		b.Units, b.Enemy, b.Distance = append(b.Units, bearer), append(b.Enemy, true), append(b.Distance, tc.at)
		got, has := ExactBattle(b).Value(BattleBroke, 1)
		if !has || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("bearer at %d\": exact broke %v, %v; want %v", tc.at, got, has, tc.want)
		}
		const n = 200_000
		k := trialsWhere(b, uint64(60+tc.at), n, func(s *State) bool { return s.Units[1].Broke })
		within4SE(t, fmt.Sprintf("bearer at %d\": the Clanrats broke", tc.at), k, n, tc.want)
	}
}

// TestExactFled: the chance that a unit fled from a failed Panic test,
// where it has a closed form. A Terror-causer (M 5) declaring a charge
// makes its target take a Panic test (Run for Your Lives!); when that test
// is the target's only one, fled is the chance of failing it. Clanrats on
// Ld 5 fail on 2D6 above 5: 26/36 (a double 1, which Insane Courage lets
// pass, is a 2 and passes anyway). A battle standard in the unit lets it
// re-roll a failed test: (26/36)^2. Beyond the Horror's longest charge
// (M 5 + D6 = 11", WAP's charge without Swiftstride) no charge is declared, so no test: 0. A unit that
// can take no Panic test at all (immune to Psychology, or a friend of the
// Horror's 30" away, whose only test would be for a friend of its own
// breaking nearby) has 0 too. Each is held to 40,000 trials within 4
// standard errors, and a 0 to no trial fleeing.
//
// Where another test may follow, there is none: a Horror that also
// shoots may, beyond its charge, shoot a quarter of eight Clanrats (two
// of its five shots hitting and wounding); a second charge phase (in a
// Battle built in Go: scenario files allow one) declares a second charge
// after a failed one; a flight along the line
// (pursuit_path: line) may bring the Clanrats near a friend that breaks.
func TestExactFled(t *testing.T) {
	horror := func() *Unit {
		a := foot("Horror", 5, 5, 3, 3, 3, 3, 1, 8, NoSave)
		a.Terror = true
		return a
	}
	rats := func(n int) *Unit { return foot("Clanrats", n, 5, 3, 3, 3, 4, 1, 5, 5) }
	fail := 26.0 / 36
	if got := 1 - Ld2D6Pass(5, DefaultOptions.InsaneCourage); math.Abs(got-fail) > 1e-12 {
		t.Fatalf("Ld 5 fails with %v, want 26/36", got)
	}
	longest := horror().Mover.LongestCharge(false)
	if longest != 11 {
		t.Fatalf("M 5 charges at most %d\", want 11 (5 + D6)", longest)
	}
	fled := func(s *State) bool { return s.Out.Panicked[1] }
	for i, tc := range []struct {
		name string
		b    func() *Battle
		unit int
		want float64
	}{
		{"terror at 6\"", func() *Battle { return battle(horror(), rats(20), 6, PhaseCharge, PhaseCombat) }, 1, fail},
		{"terror at the longest charge", func() *Battle { return battle(horror(), rats(20), longest, PhaseCharge) }, 1, fail},
		{"terror beyond the longest charge", func() *Battle { return battle(horror(), rats(20), longest+1, PhaseCharge, PhaseCombat) }, 1, 0},
		{"terror on a unit with a battle standard", func() *Battle {
			r := rats(20)
			r.BattleStandard = true
			return battle(horror(), r, 6, PhaseCharge, PhaseCombat, PhaseCombat)
		}, 1, fail * fail},
		{"terror on a unit immune to psychology", func() *Battle {
			r := rats(20)
			r.ImmunePsychology = true
			return battle(horror(), r, 6, PhaseCharge, PhaseCombat)
		}, 1, 0},
		{"a friend far away", func() *Battle {
			b := battle(horror(), rats(20), 6, PhaseCharge, PhaseCombat)
			b.Units = append(b.Units, rats(20))
			b.Enemy, b.Distance = append(b.Enemy, false), append(b.Distance, 30)
			return b
		}, 2, 0},
	} {
		b := tc.b()
		got, has := ExactBattle(b).Value(BattleFled, tc.unit)
		if !has || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: exact fled %v (%v), want %v", tc.name, got, has, tc.want)
		}
		const n = 40_000
		k := trialsWhere(b, uint64(41+i), n, func(s *State) bool { return s.Out.Panicked[tc.unit] })
		within4SE(t, tc.name, k, n, tc.want)
	}

	// Where another test may follow, the trials see more flights than the
	// one Terror test gives (single), beyond 4 standard errors, where the
	// case is built to show it (shows).
	for i, tc := range []struct {
		name   string
		b      func() *Battle
		single float64
		shows  bool
	}{
		{"a Horror that shoots", func() *Battle {
			a := horror()
			a.BS, a.Missile = 5, Missile{S: 4, Range: 24, Shots: dice.Const(1)}
			return battle(a, rats(8), longest+2, PhaseCharge, PhaseShooting)
		}, 0, true},
		// At 10" a charge fails on a D6 below 5, and the Horror charges
		// again: 26/36 + 10/36 x 4/6 x 26/36 = 0.856.
		{"two charge phases", func() *Battle {
			return battle(horror(), rats(20), 10, PhaseCharge, PhaseCombat, PhaseCharge)
		}, fail, true},
		{"pursuit along the line", func() *Battle {
			b := battle(horror(), rats(20), 6, PhaseCharge, PhaseCombat)
			b.Units = append(b.Units, rats(20))
			b.Enemy, b.Distance = append(b.Enemy, true), append(b.Distance, 9)
			b.Options.PursuitPath = PathLine
			return b
		}, fail, false},
	} {
		b := tc.b()
		if got, has := ExactBattle(b).Value(BattleFled, 1); has {
			t.Errorf("%s: exact fled %v, want none", tc.name, got)
		}
		if !tc.shows {
			continue
		}
		const n = 40_000
		got := float64(trialsWhere(b, uint64(51+i), n, fled)) / n
		if se := math.Sqrt(max(tc.single*(1-tc.single), 1e-12) / n); got <= tc.single+4*se {
			t.Errorf("%s: %.4f of the trials fled, no more than the one test's %.4f (4 SE %.4f): the case shows nothing", tc.name, got, tc.single, 4*se)
		}
	}
}

// TestEngagedChargePhase: from distance 0 a charge phase before the
// combat declares nothing, so [charge, combat] has the closed forms of
// [combat] alone, value for value.
func TestEngagedChargePhase(t *testing.T) {
	mk := func(phases ...Phase) *Battle {
		return battle(foot("A", 20, 5, 5, 4, 4, 5, 1, 8, 4), foot("B", 30, 5, 3, 3, 3, 3, 1, 7, 5), 0, phases...)
	}
	with, without := ExactBattle(mk(PhaseCharge, PhaseCombat)), ExactBattle(mk(PhaseCombat))
	checked := 0
	for _, m := range []BattleMetric{BattleCombatResult, BattleRounds, BattleWounds, BattleKilled, BattleBroke, BattleWon, BattleDestroyed} {
		for unit := range 2 {
			w, okW := with.Value(m, unit)
			o, okO := without.Value(m, unit)
			if okW != okO || math.Abs(w-o) > 1e-12 {
				t.Errorf("metric %v, unit %d: %v, %v with the charge phase; %v, %v without", m, unit, w, okW, o, okO)
			}
			if okO {
				checked++
			}
		}
	}
	if checked < 8 {
		t.Errorf("only %d closed forms compared", checked)
	}
}
