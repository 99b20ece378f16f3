package fantasy

import (
	"math"
	"testing"

	"hammersim/mechanics/dice"
)

// TestRandomMovementMeetsTheLine: a machine whose Random Movement is a
// fixed 5" moves at its target in the Movement phase. With charge_path:
// line it runs into the first unit within 5" on the line of the distances:
// a friend 3" away stops it 1" short, at 2", leaving the friend 1" and the
// target 8 - 2 = 6" away, unharmed (no Impact Hits: it is no Out of
// Control move); an enemy 4" away, nearer than the target, it charges
// (engaged, the next round the charge's, that enemy its opponent), leaving
// the target 8 - 4 = 4" away; a target 4" away it charges, the friend then
// 10 - 4 = 6" away; a target 8" and a friend 10" away are beyond its 5":
// it stops 3" and 5" short of them. With charge_path: clear only the
// target's distance moves: it charges a target within 5" and stops 5"
// nearer one beyond.
func TestRandomMovementMeetsTheLine(t *testing.T) {
	for _, tc := range []struct {
		name         string
		path         ChargePath
		target, unit int
		enemy        bool
		wantT, wantU int
		engaged      int // the unit it fights; 0: none
	}{
		{"line, into a friend", ChargeLine, 8, 3, false, 6, 1, 0},
		{"line, into another enemy", ChargeLine, 8, 4, true, 4, 0, 2},
		{"line, into the target", ChargeLine, 4, 10, false, 0, 6, 1},
		{"line, short of both", ChargeLine, 8, 10, false, 3, 5, 0},
		{"clear, past a friend", ChargeClear, 8, 3, false, 3, 3, 0},
		{"clear, past another enemy", ChargeClear, 8, 4, true, 3, 4, 0},
		{"clear, into the target", ChargeClear, 4, 10, false, 0, 10, 1},
	} {
		b := doomwheelAmong(OutOfControlInPlace, 5, tc.target, tc.unit)
		b.Enemy[2] = tc.enemy
		b.Phases = []Phase{PhaseCharge}
		b.Options.ChargePath = tc.path
		s := b.NewState()
		b.Run(dice.New(30, 0), s) // the moves are fixed: one run shows them
		as, ts, us := &s.Units[0], &s.Units[1], &s.Units[2]
		if ts.Distance != tc.wantT || us.Distance != tc.wantU {
			t.Errorf("%s: target %d\", other unit %d\"; want %d\", %d\"", tc.name, ts.Distance, us.Distance, tc.wantT, tc.wantU)
		}
		if us.Wounds != 0 {
			t.Errorf("%s: the other unit took %d wounds", tc.name, us.Wounds)
		}
		if tc.engaged == 0 {
			if as.Engaged || s.Out.ChargeSuccess {
				t.Errorf("%s: engaged %v, charge success %v; want neither", tc.name, as.Engaged, s.Out.ChargeSuccess)
			}
			continue
		}
		os := &s.Units[tc.engaged]
		if !as.Engaged || !os.Engaged || !as.Charged || !s.first || s.opp != tc.engaged || !s.Out.ChargeSuccess {
			t.Errorf("%s: engaged %v and %v, charged %v, first round %v, opponent %d, success %v; want a charge at unit %d",
				tc.name, as.Engaged, os.Engaged, as.Charged, s.first, s.opp, s.Out.ChargeSuccess, tc.engaged)
		}
	}
}

// TestDeclaredChargeMeetsTheLine: ten foot (M 5, no Swiftstride, so the
// charge is M plus the highest of 2D6, h, and a failed charge moves h)
// declare a charge at a target 9" away, reached when h >= 4: chance
// 1 - (3/6)^2 = 3/4. A third unit stands 3" away (a friend, or an enemy)
// or 10" away (an enemy beyond the target).
//
// With charge_path: line a unit 3" away is in the way, and nothing moves
// it aside: the charge is impossible, so it is not declared (W9E, Can I
// Charge?), and nobody moves. An enemy 10" away is beyond the target and
// blocks nothing: the charge succeeds with chance 3/4, leaving that enemy
// 10 - 9 = 1" away; a failure moves h, which keeps the two 1" apart. With
// charge_path: clear the third unit never moves and the charge succeeds
// with chance 3/4. 20,000 trials each, within 4 standard errors.
func TestDeclaredChargeMeetsTheLine(t *testing.T) {
	for _, tc := range []struct {
		name    string
		path    ChargePath
		unit    int
		enemy   bool
		success float64
	}{
		{"line, a friend in the way", ChargeLine, 3, false, 0},
		{"line, an enemy in the way", ChargeLine, 3, true, 0},
		{"line, an enemy beyond", ChargeLine, 10, true, 3.0 / 4},
		{"clear, a friend in the way", ChargeClear, 3, false, 3.0 / 4},
		{"clear, an enemy in the way", ChargeClear, 3, true, 3.0 / 4},
	} {
		other := foot("Other", 10, 5, 3, 3, 3, 3, 1, 7, NoSave)
		b := &Battle{Units: []*Unit{foot("Acting", 10, 5, 3, 3, 3, 3, 1, 7, NoSave), foot("Target", 10, 5, 3, 3, 3, 3, 1, 7, NoSave), other},
			Enemy: []bool{false, true, tc.enemy}, Distance: []int{0, 9, tc.unit}, Phases: []Phase{PhaseCharge}, Options: DefaultOptions}
		b.Options.ChargePath = tc.path
		s, r := b.NewState(), dice.New(31, 0)
		const n = 20_000
		success := 0
		blocked := tc.path == ChargeLine && tc.unit == 3
		for range n {
			b.Run(r, s)
			ts, us := &s.Units[1], &s.Units[2]
			if s.Out.ChargeDeclared == blocked || s.Out.ChargeSuccess != s.Units[0].Engaged {
				t.Fatalf("%s: declared %v, success %v, engaged %v", tc.name, s.Out.ChargeDeclared, s.Out.ChargeSuccess, s.Units[0].Engaged)
			}
			if s.Out.ChargeSuccess {
				success++
			}
			switch {
			case tc.path == ChargeClear:
				if us.Distance != tc.unit {
					t.Fatalf("%s: the other unit stands %d\" away, want %d", tc.name, us.Distance, tc.unit)
				}
			case blocked:
				if us.Distance != 3 || ts.Distance != 9 {
					t.Fatalf("%s: the other unit stands %d\" away, the target %d\"; nobody should move", tc.name, us.Distance, ts.Distance)
				}
			case s.Out.ChargeSuccess && (us.Distance != 1 || ts.Distance != 0), !s.Out.ChargeSuccess && us.Distance-ts.Distance != 1:
				t.Fatalf("%s: success %v, the other unit stands %d\" away, the target %d\"", tc.name, s.Out.ChargeSuccess, us.Distance, ts.Distance)
			}
		}
		within4SE(t, tc.name+": charges made", success, n, tc.success)
	}
}

// TestChargeLineAllocatesNothing: charges along the line, declared and by
// Random Movement, into units in the way, allocate nothing.
func TestChargeLineAllocatesNothing(t *testing.T) {
	for _, random := range []bool{false, true} {
		b := doomwheelAmong(OutOfControlTowards, 5, 8, 4)
		b.Enemy[2] = true
		if !random {
			b.Units[0] = foot("Acting", 10, 5, 3, 3, 3, 3, 1, 7, NoSave)
		}
		b.Phases = []Phase{PhaseCharge, PhaseCombat}
		b.Options.ChargePath = ChargeLine
		s, r := b.NewState(), dice.New(32, 0)
		if allocs := allocationsIn(2000, r, func() { b.Run(r, s) }); allocs != 0 {
			t.Fatalf("random %v: a charge along the line allocates %v times", random, allocs)
		}
	}
}

// TestChargeLineMayMeet: along the line a Random Movement move may charge
// an enemy other than its target, so that enemy's combat is reported; a
// declared charge reaches its target or nothing; with charge_path: clear
// neither meets it.
func TestChargeLineMayMeet(t *testing.T) {
	for _, tc := range []struct {
		name   string
		random bool
		path   ChargePath
		want   bool
	}{
		{"random, line", true, ChargeLine, true},
		{"declared, line", false, ChargeLine, false},
		{"random, clear", true, ChargeClear, false},
	} {
		b := doomwheelAmong(OutOfControlInPlace, 5, 8, 4)
		b.Enemy[2] = true
		if !tc.random {
			b.Units[0] = foot("Acting", 10, 5, 3, 3, 3, 3, 1, 7, NoSave)
		}
		b.Phases = []Phase{PhaseCharge}
		b.Options.ChargePath = tc.path
		if got := b.MayMeet(2); got != tc.want {
			t.Errorf("%s: MayMeet = %v, want %v", tc.name, got, tc.want)
		}
		if got := b.MeetsOthers(); got != (tc.path == ChargeLine) {
			t.Errorf("%s: MeetsOthers = %v", tc.name, got)
		}
	}
}

// TestFleeingTargetPastAUnit: the unit in the way is judged after the
// target's flight. Ten foot (M 5, a charge of M plus the highest of 2D6,
// h) charge a target 4" away that flees 2D6 (f), to 4 + f; an enemy
// stands 5" away. With charge_path: clear the charge catches the target
// when 5 + h >= 4 + f: 476 of the 6^4 rolls, 119/324. With line the
// target always ends beyond the enemy (f >= 2), so the charge never
// reaches it. 20,000 trials, within 4 standard errors.
func TestFleeingTargetPastAUnit(t *testing.T) {
	for _, tc := range []struct {
		path ChargePath
		want float64
	}{{ChargeClear, 119.0 / 324}, {ChargeLine, 0}} {
		// Immune to Psychology, the friend the target flees through takes
		// no Panic test, so it stays in the way (TestTargetFleesThroughTheLine).
		other := foot("Other", 10, 5, 3, 3, 3, 3, 1, 7, NoSave)
		other.ImmunePsychology = true
		b := &Battle{Units: []*Unit{foot("Acting", 10, 5, 3, 3, 3, 3, 1, 7, NoSave), foot("Target", 10, 5, 3, 3, 3, 3, 1, 7, NoSave),
			other},
			Enemy: []bool{false, true, true}, Distance: []int{0, 4, 5}, Phases: []Phase{PhaseCharge}, Options: DefaultOptions}
		b.Options.ChargePath, b.Options.TargetFlees = tc.path, true
		s, r := b.NewState(), dice.New(33, 0)
		const n = 20_000
		caught := 0
		for range n {
			b.Run(r, s)
			if s.Out.ChargeSuccess != s.Units[1].Caught {
				t.Fatalf("path %d: success %v, caught %v", tc.path, s.Out.ChargeSuccess, s.Units[1].Caught)
			}
			if s.Out.ChargeSuccess {
				caught++
			}
		}
		within4SE(t, "fleeing targets caught", caught, n, tc.want)
	}
}

// TestTargetFleesThroughTheLine: with charge_path: line, the target's
// flight from the charge goes through the units behind it on the line, as
// a flight from combat does (WAP, Flee!: the unit moves as Move Fleeing
// Units says). The target stands 4" away and flees 2D6; another unit
// stands 9" away, so the flight reaches it when the roll is 5 or more:
// 1 - 6/36 = 30/36.
//   - A wall of three (Unit Strength 3), a friend of the charger: the
//     target of three one-Wound models takes 3 wounds with no save and is
//     destroyed there, without being caught, with chance 30/36. The charge
//     then fails (its target is gone), and the charger stops 1" short of
//     the wall or sooner: the wall stands 1" or more from it.
//   - A friend of the target at Ld 1, without Insane Courage, which fails
//     any test: the target of ten (Unit Strength 10, panic_friend_us)
//     flees through it with chance 30/36, and it flees from Panic. The
//     charger is one model: a catch inflicts 2 wounds (twice its Unit
//     Strength, caught: wounds) and never destroys the ten, whose loss
//     within 6" would be another cause of Panic.
//
// With charge_path: clear the flight passes through nobody: the target
// is destroyed only when caught, and the friend never tests. 20,000
// trials each, within 4 standard errors.
func TestTargetFleesThroughTheLine(t *testing.T) {
	for _, path := range []ChargePath{ChargeLine, ChargeClear} {
		want := 30.0 / 36
		if path == ChargeClear {
			want = 0
		}
		wall := foot("Wall", 3, 3, 3, 3, 3, 3, 0, 10, NoSave)
		wall.ImmunePsychology = true
		b := &Battle{Units: []*Unit{foot("Acting", 10, 5, 3, 3, 3, 3, 1, 7, NoSave), foot("Target", 3, 3, 3, 3, 3, 3, 1, 7, NoSave), wall},
			Enemy: []bool{false, true, false}, Distance: []int{0, 4, 9}, Phases: []Phase{PhaseCharge}, Options: DefaultOptions}
		b.Options.ChargePath, b.Options.TargetFlees = path, true
		s, r := b.NewState(), dice.New(34, 0)
		const n = 20_000
		fell := 0
		for range n {
			b.Run(r, s)
			ts := &s.Units[1]
			if ts.Alive > 0 || ts.Caught {
				continue
			}
			fell++
			if s.Out.ChargeSuccess || s.Units[0].Engaged || s.Units[2].Distance < 1 {
				t.Fatalf("path %d: target destroyed in its flight, yet charge success %v, engaged %v, wall at %d\"",
					path, s.Out.ChargeSuccess, s.Units[0].Engaged, s.Units[2].Distance)
			}
		}
		within4SE(t, "targets destroyed fleeing through the wall", fell, n, want)

		friend := foot("Friend", 5, 5, 3, 3, 3, 3, 0, 1, NoSave)
		b = &Battle{Units: []*Unit{foot("Acting", 1, 1, 3, 3, 3, 3, 1, 7, NoSave), foot("Target", 10, 5, 3, 3, 3, 3, 1, 7, NoSave), friend},
			Enemy: []bool{false, true, true}, Distance: []int{0, 4, 9}, Phases: []Phase{PhaseCharge}, Options: DefaultOptions}
		b.Options.ChargePath, b.Options.TargetFlees, b.Options.InsaneCourage = path, true, false
		s, r = b.NewState(), dice.New(35, 0)
		panicked := 0
		for range n {
			b.Run(r, s)
			if s.Out.Panicked[2] {
				panicked++
			}
		}
		within4SE(t, "friends fled through that fled", panicked, n, want)
	}
}

// TestFleeingTargetPassesAUnitAtItsDistance: a friend of the target at the
// target's own distance stands behind it on the line (lineKey orders it
// after the target), so the target's flight passes through it, as it
// would stand in the charger's way (blocked): at Ld 1 without Insane
// Courage it fails the Panic test every time. The charger is one model,
// whose catch (2 wounds) cannot destroy the ten, so no other Panic test
// comes. 2,000 trials.
func TestFleeingTargetPassesAUnitAtItsDistance(t *testing.T) {
	friend := foot("Friend", 5, 5, 3, 3, 3, 3, 0, 1, NoSave)
	b := &Battle{Units: []*Unit{foot("Acting", 1, 1, 3, 3, 3, 3, 1, 7, NoSave), foot("Target", 10, 5, 3, 3, 3, 3, 1, 7, NoSave), friend},
		Enemy: []bool{false, true, true}, Distance: []int{0, 4, 4}, Phases: []Phase{PhaseCharge}, Options: DefaultOptions}
	b.Options.ChargePath, b.Options.TargetFlees, b.Options.InsaneCourage = ChargeLine, true, false
	s, r := b.NewState(), dice.New(36, 0)
	for k := range 2000 {
		b.Run(r, s)
		if !s.Out.Panicked[2] {
			t.Fatalf("trial %d: the friend behind the target was not fled through", k)
		}
	}
}

// TestChargeLineDropsTheMishapChances: in a Doomwheel's turn (move, shoot,
// one round) with friends 5" away, the Mishap chart's chances hold under
// charge_path: clear, where the move reaches its target or not by its roll
// alone; under line the move may stop 1" short of the friends, never
// engaged, which changes whether and at what the bolts fire: no chance of
// the chart may be claimed. Under clear a Disaster at 9" has (215 +
// 15/36)/216/18 (TestExactZzzzapAfterTheMove).
func TestChargeLineDropsTheMishapChances(t *testing.T) {
	b := doomwheelTurn(9)
	if p, has := ExactBattle(b).Mishap(0); !has || math.Abs(p-(215+15.0/36)/216/18) > 1e-12 {
		t.Fatalf("clear: Disaster chance %v, %v; want one", p, has)
	}
	b.Options.ChargePath = ChargeLine
	for k := range MishapNames() {
		if p, has := ExactBattle(b).Mishap(k); has {
			t.Errorf("line: Mishap result %d keeps the exact chance %v", k, p)
		}
	}
}

// flyer6 is one foot model (M 5) with Fly (6), which charges by flying.
func flyer6() *Unit {
	u := foot("Flyer", 1, 1, 3, 3, 3, 3, 1, 7, NoSave)
	u.Mover.Fly, u.Flying = 6, true
	return u
}

// TestFlyingChargeOverTheLine: a flying charge goes over the units in its
// way (WAP, Fly), so with charge_path: line it is declared through them.
// One flyer with Fly (6) charges on 6 + 2D6 (its Fly value as M, with
// Swiftstride: M 6 or lower adds 2D6), and a failed charge moves the 2D6,
// S. The target stands 12" away, so the charge succeeds when S >= 6:
// 1 - 10/36 = 26/36, as with charge_path: clear; on foot the unit 3"
// away on the line stops it before it is declared. Where the flyer lands
// is fixed by S:
//   - S >= 6: at the target; the unit it flew over stands 12 - 3 = 9"
//     behind it.
//   - S = 2: 2" on; the unit is 1" ahead, the target 10".
//   - S = 3: the move would end on the unit (3"), so it stops 1" short,
//     at 2": as for S = 2.
//   - S = 4 or 5: over the unit, which stands 1" or 2" behind; the target
//     8" or 7" ahead.
//
// 20,000 trials, within 4 standard errors.
func TestFlyingChargeOverTheLine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		path   ChargePath
		flying bool
		want   float64
	}{
		{"line, flying", ChargeLine, true, 26.0 / 36},
		{"clear, flying", ChargeClear, true, 26.0 / 36},
		{"line, on foot", ChargeLine, false, 0},
	} {
		flyer := flyer6()
		if !tc.flying {
			flyer.Mover.M = 6 // on foot, it charges 6 + the highest of 2D6
			flyer.Flying = false
		}
		other := foot("Other", 10, 5, 3, 3, 3, 3, 1, 7, NoSave)
		other.ImmunePsychology = true
		b := &Battle{Units: []*Unit{flyer, foot("Target", 10, 5, 3, 3, 3, 3, 1, 7, NoSave), other},
			Enemy: []bool{false, true, true}, Distance: []int{0, 12, 3}, Phases: []Phase{PhaseCharge}, Options: DefaultOptions}
		b.Options.ChargePath = tc.path
		s, r := b.NewState(), dice.New(37, 0)
		const n = 20_000
		success := 0
		for range n {
			b.Run(r, s)
			ts, us := &s.Units[1], &s.Units[2]
			if s.Out.ChargeSuccess {
				success++
			}
			if tc.path != ChargeLine || !tc.flying {
				continue
			}
			moved := 12 - ts.Distance
			ok := false
			switch {
			case s.Out.ChargeSuccess:
				ok = ts.Distance == 0 && us.behind && us.Distance == 9
			case moved == 2:
				ok = !us.behind && us.Distance == 1
			case moved == 4 || moved == 5:
				ok = us.behind && us.Distance == moved-3
			}
			if !ok {
				t.Fatalf("%s: success %v, target %d\" away, the unit flown at %d\" (behind %v)", tc.name, s.Out.ChargeSuccess, ts.Distance, us.Distance, us.behind)
			}
		}
		within4SE(t, tc.name+": charges made", success, n, tc.want)
	}
}

// TestFlyingChargeAtAFleeingTarget: a flying charge is not stopped by the
// unit a fleeing target passes. The target, 4" away, flees 2D6 (f) through
// a friend of its own 5" away (immune to Psychology: it stays), to 4 + f;
// the flyer (Fly (6): 6 + 2D6, S) catches it when 6 + S >= 4 + f, f - S
// <= 2: 986 of the 1,296 rolls, 493/648, with charge_path: line as with
// clear, and never lands on the unit it flies over. 20,000 trials each,
// within 4 standard errors.
func TestFlyingChargeAtAFleeingTarget(t *testing.T) {
	for _, path := range []ChargePath{ChargeLine, ChargeClear} {
		flyer := flyer6()
		other := foot("Other", 10, 5, 3, 3, 3, 3, 1, 7, NoSave)
		other.ImmunePsychology = true
		b := &Battle{Units: []*Unit{flyer, foot("Target", 10, 5, 3, 3, 3, 3, 1, 7, NoSave), other},
			Enemy: []bool{false, true, true}, Distance: []int{0, 4, 5}, Phases: []Phase{PhaseCharge}, Options: DefaultOptions}
		b.Options.ChargePath, b.Options.TargetFlees = path, true
		s, r := b.NewState(), dice.New(38, 0)
		const n = 20_000
		caught := 0
		for range n {
			b.Run(r, s)
			if s.Out.ChargeSuccess {
				caught++
			}
			// A flyer never lands on a unit: a target that fled 2, to 1"
			// past the other unit (6"), is caught, and the flyer, 1"
			// behind it, would stand on the unit at 5": it stops 1" short
			// of it, 2" from the target.
			if us, ts := &s.Units[2], &s.Units[1]; path == ChargeLine && !us.behind && us.Distance == 0 {
				t.Fatalf("the flyer landed on the other unit (target %d\" away, caught %v)", ts.Distance, ts.Caught)
			}
		}
		within4SE(t, "fleeing targets caught by a flyer", caught, n, 493.0/648)
	}

	// A target destroyed in its flight is gone before the flyer moves, and
	// the charge fails (TestTargetFleesThroughTheLine: three models
	// fleeing 2D6 from 4" through a wall of three 9" away, destroyed with
	// chance 30/36). The failed charge flies towards where the target
	// fell, at the wall, and lands 1" short of it or sooner.
	flyer := flyer6()
	wall := foot("Wall", 3, 3, 3, 3, 3, 3, 0, 10, NoSave)
	wall.ImmunePsychology = true
	b := &Battle{Units: []*Unit{flyer, foot("Target", 3, 3, 3, 3, 3, 3, 1, 7, NoSave), wall},
		Enemy: []bool{false, true, false}, Distance: []int{0, 4, 9}, Phases: []Phase{PhaseCharge}, Options: DefaultOptions}
	b.Options.ChargePath, b.Options.TargetFlees = ChargeLine, true
	s, r := b.NewState(), dice.New(40, 0)
	const n = 20_000
	fell := 0
	for range n {
		b.Run(r, s)
		if ts := &s.Units[1]; ts.Alive > 0 || ts.Caught {
			continue
		}
		fell++
		if ws := &s.Units[2]; s.Out.ChargeSuccess || s.Units[0].Engaged || s.Units[0].Charged || ws.behind || ws.Distance < 1 {
			t.Fatalf("target destroyed in its flight, yet charge success %v, engaged %v, wall at %d\" (behind %v)",
				s.Out.ChargeSuccess, s.Units[0].Engaged, ws.Distance, ws.behind)
		}
	}
	within4SE(t, "targets destroyed fleeing through the wall", fell, n, 30.0/36)
}

// TestApartAcrossTheActingUnit: a unit the acting unit flew over stands on
// its other side, so it is the sum of the two distances from a unit ahead,
// and the difference from another behind. A flyer among units 8", 3", 10"
// and 2" away flies 5" along the line: the units at 3" and 2" now stand 2"
// and 3" behind it, the others 3" and 5" ahead. The unit at 3" is then
// 8 - 3 = 5" from the one at 8", which is 2" from the one at 10"; the two
// behind stand 1" apart. Fleeing 4" from the flyer (a move of its own),
// the unit at 10" stands 6" from the one at 8" and 11" from the one at 3";
// the one at 2", fleeing 4" back along the line, 5" from the one at 3".
func TestApartAcrossTheActingUnit(t *testing.T) {
	b := doomwheelAmong(OutOfControlInPlace, 5, 8, 3)
	b.Units[0].Flying = true
	b.Units = append(b.Units, b.Units[2], b.Units[2])
	b.Enemy, b.Distance = append(b.Enemy, false, false), append(b.Distance, 10, 2)
	s := b.NewState()
	for i, u := range b.Units {
		s.Units[i].reset(u, b.Distance[i])
	}
	m := b.moveOnLine(s, b.Units[0], 5, false)
	if m != 5 {
		t.Fatalf("flew %d inches, want 5", m)
	}
	s.Units[1].Distance -= m // the target's, as charge sets it
	type place struct {
		d      int
		behind bool
	}
	for i, want := range [...]place{{3, false}, {2, true}, {5, false}, {3, true}} {
		if us := s.Units[i+1]; us.Distance != want.d || us.behind != want.behind {
			t.Fatalf("unit %d: %d inches away, behind %v; want %d, behind %v", i+1, us.Distance, us.behind, want.d, want.behind)
		}
	}
	check := func(cases []struct{ i, j, want int }) {
		t.Helper()
		for _, tc := range cases {
			if got := b.apart(s, tc.i, tc.j); got != tc.want {
				t.Errorf("apart(%d, %d) = %d, want %d", tc.i, tc.j, got, tc.want)
			}
		}
	}
	check([]struct{ i, j, want int }{{1, 2, 5}, {2, 1, 5}, {1, 3, 2}, {0, 2, 2}, {2, 4, 1}, {3, 4, 8}})
	s.moveTo(3, s.Units[3].Distance+4)
	check([]struct{ i, j, want int }{{1, 3, 6}, {2, 3, 11}, {0, 3, 9}})
	s.moveTo(4, s.Units[4].Distance+4)
	check([]struct{ i, j, want int }{{2, 4, 5}, {4, 1, 10}, {0, 4, 7}})
}

// TestChargeAtAFleeingTarget: a target already fleeing when the Movement
// phase comes (from a Panic test in an earlier phase) is charged all the
// same; it must flee again, and takes no test for it (WAP, Flee!).
//   - Ten foot (M 5: a charge of 5 plus the highest of 2D6, h) charge it
//     6" away; it flees 2D6 (f) to 6 + f, and is caught when 5 + h >=
//     6 + f: 190 of the 6^4 rolls, 95/648. A Terror-causing charger
//     gives the same: the target makes no Panic test, and is not marked
//     as panicked by the charge.
//   - A machine whose Random Movement is a fixed 5" moves at it, as its
//     move is compulsory: reaching it 4" away, it catches it (charge
//     success), with charge_path clear or line; 8" away, it ends 3"
//     short.
//
// 20,000 trials for the declared charges, within 4 standard errors.
func TestChargeAtAFleeingTarget(t *testing.T) {
	for _, terror := range []bool{false, true} {
		a := foot("Acting", 10, 5, 3, 3, 3, 3, 1, 7, NoSave)
		a.Terror = terror
		b := battle(a, foot("Target", 10, 5, 3, 3, 3, 3, 1, 7, NoSave), 6)
		s, r := b.NewState(), dice.New(41, 0)
		const n = 20_000
		caught := 0
		for range n {
			b.Run(r, s) // no phases: places the units
			s.Units[1].Fled = true
			b.charge(r, s)
			if !s.Out.ChargeDeclared || s.Out.Panicked[1] || s.Out.ChargeSuccess != s.Units[1].Caught {
				t.Fatalf("terror %v: declared %v, panicked %v, success %v, caught %v", terror, s.Out.ChargeDeclared, s.Out.Panicked[1], s.Out.ChargeSuccess, s.Units[1].Caught)
			}
			if s.Units[1].Caught {
				caught++
			}
		}
		within4SE(t, "fleeing targets caught", caught, n, 95.0/648)
	}

	for _, path := range []ChargePath{ChargeClear, ChargeLine} {
		for _, tc := range []struct {
			target, wantT int
			caught        bool
		}{{4, 1, true}, {8, 3, false}} {
			b := doomwheelAmong(OutOfControlInPlace, 5, tc.target, 20)
			b.Options.ChargePath = path
			s := b.NewState()
			b.Run(dice.New(42, 0), s)
			s.Units[1].Fled = true
			b.charge(dice.New(42, 0), s)
			ts := &s.Units[1]
			if ts.Caught != tc.caught || s.Out.ChargeSuccess != tc.caught || s.Units[0].Engaged || ts.Distance != tc.wantT {
				t.Errorf("path %d, fleeing target %d\" away: caught %v, success %v, engaged %v, target %d\" away; want caught %v, %d\"",
					path, tc.target, ts.Caught, s.Out.ChargeSuccess, s.Units[0].Engaged, ts.Distance, tc.caught, tc.wantT)
			}
		}
	}
}
