package fantasy

import (
	"math"
	"slices"
	"testing"

	"hammersim/mechanics/dice"
)

// TestMoveTable pins Move to the Swiftstride unit card's table and to the
// Random Movement, Fly and Tunneller texts.
func TestMoveTable(t *testing.T) {
	rm3 := dice.MustParse("3D6")
	tests := []struct {
		name   string
		m      Mover
		kind   MoveKind
		flying bool
		want   string // Base+Dice
	}{
		{"foot charge", Mover{M: 5}, Charge, false, "5+2D6kh1"},
		{"foot failed charge", Mover{M: 5}, FailedCharge, false, "2D6kh1"},
		{"foot flee", Mover{M: 5}, Flee, false, "2D6"},
		{"foot pursue", Mover{M: 5}, Pursue, false, "2D6"},
		{"swift M6 charge", Mover{M: 6, Swiftstride: true}, Charge, false, "6+2D6"},
		{"swift M6 failed", Mover{M: 6, Swiftstride: true}, FailedCharge, false, "2D6"},
		{"swift M6 flee", Mover{M: 6, Swiftstride: true}, Flee, false, "3D6kh2"},
		{"swift M6 pursue", Mover{M: 6, Swiftstride: true}, Pursue, false, "3D6kh2"},
		{"swift M7 charge", Mover{M: 7, Swiftstride: true}, Charge, false, "7+3D6kh2"},
		{"swift M7 failed", Mover{M: 7, Swiftstride: true}, FailedCharge, false, "3D6kh2"},
		{"swift M7 flee", Mover{M: 7, Swiftstride: true}, Flee, false, "3D6"},
		{"swift M10 pursue", Mover{M: 10, Swiftstride: true}, Pursue, false, "3D6"},
		{"swift M4 is in the M6 bracket", Mover{M: 4, Swiftstride: true}, Charge, false, "4+2D6"},
		{"swift void below M4", Mover{M: 3, Swiftstride: true}, Charge, false, "3+2D6kh1"},
		{"swift void below M4, flee", Mover{M: 3, Swiftstride: true}, Flee, false, "2D6"},
		{"random movement charge", Mover{Random: rm3}, Charge, false, "3D6"},
		{"random movement ignores swiftstride", Mover{M: 8, Swiftstride: true, Random: rm3}, Flee, false, "3D6"},
		{"random movement pursue", Mover{Random: rm3}, Pursue, false, "3D6"},
		{"fly charge uses fly value and swiftstride", Mover{M: 4, Fly: 9}, Charge, true, "9+3D6kh2"},
		{"fly 6 charge", Mover{M: 4, Fly: 6}, Charge, true, "6+2D6"},
		{"flyer charging on the ground", Mover{M: 4, Fly: 9}, Charge, false, "4+2D6kh1"},
		{"flyer flees on the ground", Mover{M: 4, Fly: 9}, Flee, true, "2D6"},
		{"flyer with swiftstride pursues on the ground", Mover{M: 8, Swiftstride: true, Fly: 10}, Pursue, true, "3D6"},
		{"tunneller: no swiftstride", Mover{M: 3, Fly: 9, Tunneller: true}, Charge, true, "9+2D6kh1"},
		// Tunnellers never benefit from Swiftstride (Dread Maw card), not
		// even one written on the card, on the ground too: the rows without
		// it. With it, M 7 would charge 7+3D6kh2 and flee and pursue 3D6.
		{"tunneller with swiftstride charging on the ground", Mover{M: 7, Swiftstride: true, Fly: 9, Tunneller: true}, Charge, false, "7+2D6kh1"},
		{"tunneller with swiftstride flees", Mover{M: 7, Swiftstride: true, Fly: 9, Tunneller: true}, Flee, false, "2D6"},
		{"tunneller with swiftstride pursues", Mover{M: 7, Swiftstride: true, Fly: 9, Tunneller: true}, Pursue, false, "2D6"},
		{"tunneller with swiftstride tunnels", Mover{M: 7, Swiftstride: true, Fly: 9, Tunneller: true}, Charge, true, "9+2D6kh1"},
	}
	for _, tt := range tests {
		mv := tt.m.Move(tt.kind, tt.flying)
		if got := mv.String(); got != tt.want {
			t.Errorf("%s: %s, want %s (%s)", tt.name, got, tt.want, mv.Why)
		}
	}
}

func TestChargeExact(t *testing.T) {
	tests := []struct {
		m        Mover
		distance int
		want     float64
		source   string
	}{
		{Mover{M: 4}, 10, 11.0 / 36, "highest of 2D6 >= 6: 1 - (5/6)^2"},
		{Mover{M: 4}, 5, 1, "any roll reaches 5 from M 4"},
		{Mover{M: 4}, 11, 0, "M 4 + 6 cannot reach 11"},
		{Mover{M: 6, Swiftstride: true}, 13, 21.0 / 36, "2D6 >= 7"},
		{Mover{M: 7, Swiftstride: true}, 19, 16.0 / 216, "3D6 discard lowest >= 12: two or three sixes"},
		{Mover{Random: dice.MustParse("3D6")}, 18, 1.0 / 216, "3D6 = 18"},
	}
	for _, tt := range tests {
		got := tt.m.Move(Charge, false).Dist().AtLeast(tt.distance)
		if math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%+v at %d\": %.12f, want %.12f (%s)", tt.m, tt.distance, got, tt.want, tt.source)
		}
	}
}

func TestCaughtExact(t *testing.T) {
	two := Mover{M: 5}.Move(Flee, false)
	// P(2D6 >= 2D6) = (1 + sum of squared 2D6 probabilities) / 2
	// = (1 + 146/1296) / 2 = 1442/2592, by symmetry of the two rolls.
	if got := CaughtProbability(two, two); math.Abs(got-1442.0/2592) > 1e-12 {
		t.Errorf("2D6 pursuing 2D6: %.12f, want 1442/2592", got)
	}
	// A 3D6 pursuer always reaches 3; a 2D6 flee of 2 is caught by anything.
	fast := Mover{M: 8, Swiftstride: true}.Move(Pursue, false)
	if got := CaughtProbability(Move{Dice: dice.Const(2)}, fast); math.Abs(got-1) > 1e-12 {
		t.Errorf("3D6 pursuing a 2\" flee: %v, want 1", got)
	}
}

func TestMoveRollMatchesDist(t *testing.T) {
	mv := Mover{M: 7, Swiftstride: true}.Move(Charge, false)
	d := mv.Dist()
	r := dice.New(5, 0)
	const n = 200_000
	hit := 0
	for range n {
		if mv.Roll(r) >= 15 {
			hit++
		}
	}
	p := d.AtLeast(15)
	se := math.Sqrt(p * (1 - p) / n)
	if z := (float64(hit)/n - p) / se; math.Abs(z) > 5 {
		t.Errorf("P(reach >= 15) estimate %.4f, exact %.4f, z %.1f (tolerance 5 SE)", float64(hit)/n, p, z)
	}
}

// TestEighthEditionTable: 8th edition rolls 2D6 for every charge, flee and
// pursuit, and 3D6 discarding the lowest with Swiftstride, whatever M; a
// flyer has Swiftstride on the ground.
func TestEighthEditionTable(t *testing.T) {
	for _, tt := range []struct {
		m    Mover
		kind MoveKind
		want string
	}{
		{Mover{M: 4, Table: Table8th}, Charge, "4+2D6"},
		{Mover{M: 8, Swiftstride: true, Table: Table8th}, Charge, "8+3D6kh2"},
		{Mover{M: 5, Swiftstride: true, Table: Table8th}, Flee, "3D6kh2"},
		{Mover{M: 5, Table: Table8th}, Pursue, "2D6"},
		{Mover{M: 3, Swiftstride: true, Table: Table8th}, Charge, "3+3D6kh2"},
		// Every flyer has Swiftstride, on the ground too (8E/special-rules/fly),
		// but not a Tunneller.
		{Mover{M: 4, Fly: 10, Table: Table8th}, Charge, "4+3D6kh2"},
		{Mover{M: 4, Fly: 10, Table: Table8th}, Flee, "3D6kh2"},
		{Mover{M: 3, Fly: 9, Tunneller: true, Table: Table8th}, Charge, "3+2D6"},
	} {
		if got := tt.m.Move(tt.kind, false).String(); got != tt.want {
			t.Errorf("%+v %v: %s, want %s", tt.m, tt.kind, got, tt.want)
		}
	}
}

// TestRollChargeFailedFromTheSameDice: the failed-charge move is read from
// the charge's own dice. On the Swiftstride card's table it is the charge
// roll without M (or the Fly value of a flying charge), and the charge is
// the roll Roll makes from the same state; on 8th edition's it is the
// highest die rolled, which the test rolls itself from a twin generator.
func TestRollChargeFailedFromTheSameDice(t *testing.T) {
	movers := []struct {
		m      Mover
		flying bool
		base   int
	}{
		{Mover{M: 5}, false, 5},
		{Mover{M: 5, Swiftstride: true}, false, 5},
		{Mover{M: 8, Swiftstride: true}, false, 8},
		{Mover{M: 4, Fly: 9}, true, 9},
		{Mover{M: 4, Fly: 9, Tunneller: true}, true, 9},
	}
	for _, tc := range movers {
		r, twin := dice.New(5, 0), dice.New(5, 0)
		for range 2000 {
			reach, failed := tc.m.RollCharge(r, tc.flying)
			if want := tc.m.Roll(twin, Charge, tc.flying); reach != want || reach-failed != tc.base || *r != *twin {
				t.Fatalf("%+v: reach %d failed %d, want reach %d = %d + failed", tc.m, reach, failed, want, tc.base)
			}
		}
	}
	for _, swift := range []bool{false, true} {
		m := Mover{M: 6, Swiftstride: swift, Table: Table8th}
		r, twin := dice.New(6, 0), dice.New(6, 0)
		for range 2000 {
			reach, failed := m.RollCharge(r, false)
			ds := []int{twin.D6(), twin.D6()}
			if swift {
				ds = append(ds, twin.D6())
			}
			sum := 0
			for _, d := range ds {
				sum += d
			}
			if swift {
				sum -= slices.Min(ds) // 3D6 discard the lowest
			}
			if reach != 6+sum || failed != slices.Max(ds) || *r != *twin {
				t.Fatalf("8th, Swiftstride %v, dice %v: reach %d failed %d, want %d and %d", swift, ds, reach, failed, 6+sum, slices.Max(ds))
			}
		}
	}
}
