package fantasy

import (
	"fmt"
	"math"
	"testing"

	"hammersim/mechanics/dice"
)

// TestDisasterTakesTheLastDie: a Disaster (Doomwheel Mishap chart, 1-2)
// takes one D6 from the Doomwheel's Random Movement from then on, and a
// Doomwheel left with no die is removed as a casualty.
//
// The Doomwheel of zzzzapBattle (W 5, one model), its friends nearest and
// no test to hold fire, Misfires with chance 1/6 and then rolls a Disaster
// with 2/6: 1/18 in all. With Random Movement (D6) every Disaster removes
// it, whatever its D6 hits at S6 did, so it is destroyed exactly when a
// Disaster comes: destroyed and models killed 1/18, wounds 5/18 (its five
// wounds, all taken), and no Loss of Control test (a Doomwheel destroyed
// at the end of the phase takes none). With 3D6 the Disaster leaves it
// 2D6 and only its hits can destroy it: 9/384 of them (TestExactDisaster),
// 1/768 in all.
//
// A machine of W 20 and Random Movement (2D6) in two Shooting phases is
// never destroyed by its hits (at most 6 wounds a Disaster, 12 in two), so
// it is destroyed exactly when both phases roll a Disaster: (1/18)^2 =
// 1/324, and then it has taken all 20 wounds.
//
// The exact values are pinned to 1e-12; the trials (36,000 and 100,000,
// fixed seeds) are held within 4 standard errors, and every trial of the
// first battle must be destroyed exactly when it rolled a Disaster.
func TestDisasterTakesTheLastDie(t *testing.T) {
	oneDie := func() *Battle {
		b := zzzzapBattle(HoldFireNever, 10, 4)
		b.Units[0].Mover.Random = dice.Dice(1, 6)
		return b
	}
	for _, tt := range []struct {
		name   string
		b      *Battle
		metric BattleMetric
		want   float64
	}{
		{"D6: destroyed", oneDie(), BattleDestroyed, 1.0 / 18},
		{"D6: models killed", oneDie(), BattleKilled, 1.0 / 18},
		{"D6: wounds", oneDie(), BattleWounds, 5.0 / 18},
		{"D6: lost control", oneDie(), BattleLostControl, 0},
		{"3D6: destroyed", zzzzapBattle(HoldFireNever, 10, 4), BattleDestroyed, 1.0 / 768},
	} {
		ex := ExactBattle(tt.b)
		got, has := ex.Value(tt.metric, 0)
		if !has || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: exact %v (%v), want %v", tt.name, got, has, tt.want)
		}
		if d, ok := ex.Dist(tt.metric, 0); ok && math.Abs(d.Mean()-got) > 1e-12 {
			t.Errorf("%s: distribution's mean %v, value %v", tt.name, d.Mean(), got)
		}
	}

	b := oneDie()
	s, r := b.NewState(), dice.New(41, 0)
	const n = 36_000
	destroyed := 0
	for range n {
		b.Run(r, s)
		dw := &s.Units[0]
		if dw.Destroyed() != (s.Out.Mishap == Disaster) {
			t.Fatalf("Random Movement (D6): mishap %v, destroyed %v", s.Out.Mishap, dw.Destroyed())
		}
		if dw.Destroyed() {
			destroyed++
			if dw.Wounds != 5 {
				t.Fatalf("removed with %d wounds taken, want all 5", dw.Wounds)
			}
		}
	}
	within4SE(t, "Random Movement (D6): destroyed", destroyed, n, 1.0/18)

	b = zzzzapBattle(HoldFireNever, 10, 4)
	b.Phases = []Phase{PhaseShooting, PhaseShooting}
	b.Units[0].W, b.Units[0].Mover.Random = 20, dice.Dice(2, 6)
	s, r = b.NewState(), dice.New(42, 0)
	const n2 = 100_000
	destroyed = 0
	for range n2 {
		b.Run(r, s)
		if s.Units[0].Destroyed() {
			destroyed++
			if s.Units[0].Wounds != 20 {
				t.Fatalf("removed with %d wounds taken, want all 20", s.Units[0].Wounds)
			}
		}
	}
	within4SE(t, "Random Movement (2D6), two Shooting phases: destroyed", destroyed, n2, 1.0/324)
}

// TestDisasterNeedsPlainD6: a Disaster takes one D6 from the movement, so
// a Zzzzap! machine that shoots must move by D6s alone; one that never
// shoots, or moves by its M, may have anything.
func TestDisasterNeedsPlainD6(t *testing.T) {
	for _, tc := range []struct {
		random string
		phases []Phase
		ok     bool
	}{
		{"3D6", []Phase{PhaseShooting}, true},
		{"2D6+1", []Phase{PhaseShooting}, false},
		{"3D6kh2", []Phase{PhaseCharge, PhaseShooting}, false},
		{"2D6+1", []Phase{PhaseCharge, PhaseCombat}, true},
		{"", []Phase{PhaseShooting}, true},
	} {
		b := zzzzapBattle(HoldFireNever, 10, 4)
		b.Phases = tc.phases
		b.Units[0].Mover = Mover{M: 6}
		if tc.random != "" {
			b.Units[0].Mover.Random = dice.MustParse(tc.random)
		}
		if err := b.Validate(); (err == nil) != tc.ok {
			t.Errorf("Random Movement %q, phases %v: error %v, want ok %v", tc.random, tc.phases, err, tc.ok)
		}
	}
}

// TestMishapWithNothingInRange: the bolts are unleashed and the Artillery
// dice rolled in every Shooting phase (unit card), so a Doomwheel with no
// unit within zzzzap_range still Misfires on 1 in 6 and rolls on the
// Mishap chart: Disaster 1-2, Out of Control 3-5, Burst of Speed 6, so
// 1/18, 1/12 and 1/36, and its bolts strike nobody. With hold fire
// `always` the Warlock Engineer tests first (Ld 7 on 2D6 passes 21 times
// in 36): the chances are 15/36 of those. With `friends` no friend is
// nearest, so no test. 36,000 trials a case (fixed seeds), held within 4
// standard errors.
func TestMishapWithNothingInRange(t *testing.T) {
	for _, tc := range []struct {
		hold HoldFire
		fire float64
	}{{HoldFireFriends, 1}, {HoldFireAlways, 15.0 / 36}} {
		b := zzzzapBattle(tc.hold, 19, 30) // both beyond the 18" range
		want := map[Mishap]float64{Disaster: tc.fire / 18, OutOfControl: tc.fire / 12, BurstOfSpeed: tc.fire / 36}
		ex := ExactBattle(b)
		for k, m := range []Mishap{Disaster, OutOfControl, BurstOfSpeed} {
			if got, has := ex.Mishap(k); !has || math.Abs(got-want[m]) > 1e-12 {
				t.Errorf("hold %v, %v: exact %v (%v), want %v", tc.hold, m, got, has, want[m])
			}
		}
		s, r := b.NewState(), dice.New(43, uint64(tc.hold))
		const n = 36_000
		count := map[Mishap]int{}
		for range n {
			b.Run(r, s)
			count[s.Out.Mishap]++
			if s.Units[1].Wounds+s.Units[2].Wounds != 0 {
				t.Fatalf("hold %v: a bolt struck a unit out of range", tc.hold)
			}
		}
		for m, p := range want {
			within4SE(t, fmt.Sprintf("hold %v, %v", tc.hold, m), count[m], n, p)
		}
	}
}
