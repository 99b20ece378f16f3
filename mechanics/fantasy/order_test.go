package fantasy

import (
	"fmt"
	"testing"

	"hammersim/mechanics/dice"
)

// TestOutOfControlAfterAWin: with loss_of_control: end_of_phase, a
// Doomwheel that won its combat tests for the wounds of that combat once
// the combat's flight and pursuit are made; going Out of Control then, it
// makes no move if it pursued (the pursuit ended its close combat), unless
// pursuer_out_of_control: moves, and its move can only meet the fleeing
// unit where that unit has fled to.
//
// The Doomwheel (W 20, so it lives through anything here; Unit Strength 5;
// Terror; in the rear; no attacks) fights two models of W 20 at Ld 1 with
// one S 10 attack each, without Insane Courage. Its result is rear +2,
// Unit Strength +1 (5 against 2) and Fear +2 (Terror, at double the
// enemy's Unit Strength): 5. The two score their wounds, at most 2. They
// lose by 3 or more and break on Ld 1 minus that. Each attack hits on 4+
// (WS 3 against 3) and wounds on 2+ (S 10 against T 6), with no save (4+
// armour at -7): 5/12; so the Doomwheel takes k ~ Binomial(2, 5/12)
// wounds, and fails its test (a 1 on any of k D6) with
// 1 - (7/12 + 5/12 * 5/6)^2 = 1 - (67/72)^2 = 695/5184.
//
// Its Random Movement is a constant 12. Pursuing, it always catches the
// flee roll (2D6, at most 12): the two take 2 x 5 = 10 wounds, and stand 1"
// from it. Going Out of Control after that, it does not move: the two have
// taken 10 wounds in every trial, never a second catch's 20. Without
// pursuit the two flee 2D6 (2 to 12, f) and stand f away; going Out of
// Control (towards) it then moves 12", reaches them, catches them (10
// wounds) and stops 1" behind them; else they are unwounded, f >= 2 away.
// With pursuer_out_of_control: moves, a Doomwheel that pursued and caught
// them goes Out of Control after all: its 12" reach them, fleeing 1" away,
// and catch them a second time, 20 wounds in all, and it stops 1" behind.
// The failed tests are checked within 4 standard errors over 20,000 trials.
func TestOutOfControlAfterAWin(t *testing.T) {
	for _, c := range []struct{ pursue, moves bool }{{true, false}, {false, false}, {true, true}} {
		pursue := c.pursue
		dw := chariot("")
		dw.LossOfControl, dw.Terror, dw.Rear, dw.W = true, true, true, 20
		dw.Mover = Mover{Random: dice.Const(12)}
		two := foot("Two", 2, 2, 3, 10, 3, 3, 1, 1, NoSave)
		two.W = 20
		b := battle(dw, two, 0, PhaseCombat)
		b.Options.InsaneCourage, b.Options.Pursue = false, pursuit(pursue)
		b.Options.LossOfControl, b.Options.OutOfControl = LossOfControlEndOfPhase, OutOfControlTowards
		b.Options.PursuerOutOfControl = c.moves
		s, r := b.NewState(), dice.New(61, 0)
		const n = 20_000
		lost := 0
		for range n {
			b.Run(r, s)
			as, ts := &s.Units[0], &s.Units[1]
			if !ts.Broke || as.Alive != 1 || as.Engaged {
				t.Fatalf("pursue %v: the two broke %v; the Doomwheel alive %d, engaged %v", pursue, ts.Broke, as.Alive, as.Engaged)
			}
			wounds, distance := 10, 1
			switch {
			case s.Out.LostControl:
				lost++
				if c.moves {
					wounds = 20
				}
			case !pursue:
				wounds, distance = 0, max(ts.Distance, 2)
			}
			if ts.Wounds != wounds || ts.Distance != distance {
				t.Fatalf("pursue %v, lost control %v: the two took %d wounds and stand %d\" away; want %d wounds, %d\"",
					pursue, s.Out.LostControl, ts.Wounds, ts.Distance, wounds, distance)
			}
		}
		within4SE(t, fmt.Sprintf("pursued %v, moves %v: Out of Control", pursue, c.moves), lost, n, 695.0/5184)
	}
}

// TestNextOnLineSkipsPendingFlights: a unit that broke and whose flight is
// yet to be made is not on the line where it broke: a move along the line
// meets the next unit, a friend 3" away, not the broken target at 0.
func TestNextOnLineSkipsPendingFlights(t *testing.T) {
	b := doomwheelAmong(OutOfControlTowards, 5, 0, 3)
	s := b.NewState()
	b.Run(dice.New(62, 0), s)
	ts := &s.Units[1]
	ts.Engaged, ts.Fled, ts.Broke, ts.flight = false, true, true, 4
	if j := b.nextOnLine(s, -1, -1, 5, 0); j != 2 {
		t.Errorf("the unit met first is %d, want the friend (2)", j)
	}
	ts.flight = 0 // fled: it stands where it is
	if j := b.nextOnLine(s, -1, -1, 5, 0); j != 1 {
		t.Errorf("once the flight is made, the unit met first is %d, want the target (1)", j)
	}
}

// TestWonPerCombat: a unit wins when an enemy it fought broke from it, or
// the round's blows destroyed that enemy while it stood, or its catch
// destroyed a fleeing enemy. Nothing else is a win.
//
//   - Own Disaster: a Zzzzap! machine with Random Movement (D6), engaged
//     with thirty Clanrats, Misfires (1/6) and rolls a Disaster (1-2 on the
//     Mishap chart, 1/3), which takes its last die and removes it: destroyed
//     with chance 1/18, yet the Clanrats never won.
//   - Bolts: the same machine (3D6) with a single T 1 model engaged. The
//     bolts (three at the Artillery dice's Strength) destroy it unless the
//     dice Misfire or all three fail to wound: S 2 wounds T 1 on 3+ (2/3),
//     S 4 and up on 2+ (5/6); 1/6 (1 - (1/3)^3) + 4/6 (1 - (1/6)^3) =
//     89/108. The machine never won.
//   - Out of Control into another enemy: a machine moving 5" Out of Control
//     charges four models 3" away, not its target 20" away, and fights
//     them. Its Impact Hit (one, from its one model in contact) and the
//     charge score 1 or 2, with +1 for Unit Strength 5 against 4; the four
//     score nothing (no attacks, one rank) and break on Ld 1 minus 2 or
//     more: the machine won, every time; its target, never fought, did not.
//   - Out of Control, beaten: the same against twenty with a standard, who
//     score ranks +3, Unit Strength +1 and the standard +1, 5 against the
//     machine's 2 at most; at Ld 1 it breaks: they won, and its target did
//     not.
//   - A charge that catches: a Terror-causer charges a unit 1" away at Ld 1
//     without Insane Courage, which fails its Panic test and flees 2D6;
//     the charge (M 20 plus 2D6) always reaches it and, with caught:
//     destroyed, destroys it: the charger won, every time. With the
//     default caught (two wounds per point of the charger's Unit
//     Strength, 10, so 20 wounds on ten models) the same.
//
// The chances are checked within 4 standard errors over 36,000 trials.
func TestWonPerCombat(t *testing.T) {
	const n = 36_000
	t.Run("own Disaster", func(t *testing.T) {
		zz := zzzzapper()
		zz.Mover.Random = dice.MustParse("D6")
		b := battle(zz, foot("Clanrats", 30, 6, 3, 3, 3, 4, 1, 5, NoSave), 0, PhaseShooting)
		s, r := b.NewState(), dice.New(63, 0)
		destroyed := 0
		for range n {
			b.Run(r, s)
			if s.Won(1) || s.Won(0) {
				t.Fatalf("won: machine %v, Clanrats %v; no combat was fought", s.Won(0), s.Won(1))
			}
			if s.Units[0].Destroyed() {
				destroyed++
			}
		}
		within4SE(t, "destroyed by its Disaster", destroyed, n, 1.0/18)
	})
	t.Run("bolts", func(t *testing.T) {
		b := battle(zzzzapper(), foot("One", 1, 1, 3, 3, 1, 4, 1, 5, NoSave), 0, PhaseShooting)
		s, r := b.NewState(), dice.New(64, 0)
		destroyed := 0
		for range n {
			b.Run(r, s)
			if s.Won(0) {
				t.Fatal("the machine won a combat its bolts ended")
			}
			if s.Units[1].Destroyed() {
				destroyed++
			}
		}
		within4SE(t, "the target destroyed by bolts", destroyed, n, 89.0/108)
	})
	for _, beaten := range []bool{false, true} {
		t.Run(map[bool]string{false: "Out of Control, winning", true: "Out of Control, beaten"}[beaten], func(t *testing.T) {
			dw := chariot("1")
			dw.Mover = Mover{Random: dice.Const(5)}
			other := foot("Four", 4, 4, 3, 3, 3, 3, 0, 1, NoSave)
			if beaten {
				dw.Ld = 1
				other = foot("Twenty", 20, 5, 3, 3, 3, 3, 0, 10, NoSave)
				other.Standard = true
			}
			b := &Battle{Units: []*Unit{dw, foot("Target", 10, 5, 3, 3, 3, 3, 1, 7, NoSave), other},
				Enemy: []bool{false, true, true}, Distance: []int{0, 20, 3}, Options: DefaultOptions}
			b.Options.InsaneCourage, b.Options.OutOfControl = false, OutOfControlTowards
			s, r := b.NewState(), dice.New(65, 0)
			for range 2000 { // the outcome is fixed
				b.Run(r, s) // no phases: the units as they start
				b.outOfControl(r, s)
				b.phase(r, s, PhaseCombat)
				if s.Out.Rounds != 1 || s.Units[2].Broke == beaten || s.Units[0].Broke != beaten {
					t.Fatalf("rounds %d, the machine broke %v, the other enemy broke %v", s.Out.Rounds, s.Units[0].Broke, s.Units[2].Broke)
				}
				if s.Won(0) == beaten || s.Won(1) || s.Won(2) != beaten {
					t.Fatalf("won: machine %v, its target %v, the other enemy %v", s.Won(0), s.Won(1), s.Won(2))
				}
			}
		})
	}
	t.Run("a charge that catches", func(t *testing.T) {
		a := foot("Horrors", 10, 5, 3, 3, 3, 3, 1, 7, NoSave)
		a.Terror, a.Mover = true, Mover{M: 20}
		for _, caught := range []CaughtRule{CaughtDestroyed, CaughtWounds} {
			b := battle(a, foot("Timid", 10, 5, 3, 3, 3, 3, 1, 1, NoSave), 1, PhaseCharge)
			b.Options.InsaneCourage, b.Options.Caught = false, caught
			s, r := b.NewState(), dice.New(66, 0)
			for range 2000 { // the outcome is fixed
				b.Run(r, s)
				if !s.Units[1].Caught || !s.Units[1].Destroyed() || !s.Won(0) || s.Won(1) {
					t.Fatalf("caught %v: caught %v, destroyed %v; won: charger %v, target %v", caught, s.Units[1].Caught, s.Units[1].Destroyed(), s.Won(0), s.Won(1))
				}
			}
		}
	})
}

// TestFlightThroughUnits: the order of a flight from combat with
// pursuit_path: line.
//
// Destroyed on the way: a block of ten (Unit Strength 10) breaks and flees
// through a wall of ten enemies 2" away (every flee roll, 2 or more,
// reaches it), whose ten wounds without save destroy it there. A friend of
// the block 8" away, beyond 6" of where it broke, stands 6" from where it
// died, and tests for Panic at once (a friend annihilated, for any
// reason); at Ld 1 without Insane Courage it flees, every time. Were the
// block too small to cause Panic (panic_friend_us 11), never.
//
// Caught, then fled: a block of ten of W 3 is caught by a pursuer that
// always catches (Random Movement 12): 2 x 10 = 20 wounds, six models,
// before it flees, so it flees with Unit Strength 4 and its friend 7" away
// (out of reach of its break) takes no test when fled through. Not
// pursued, the ten flee through the friend when the flee roll is 7 or
// more, 21/36, and it flees (within 4 standard errors over 20,000 trials).
func TestFlightThroughUnits(t *testing.T) {
	for _, tc := range []struct {
		panicUS int
		want    bool
	}{{10, true}, {11, false}} {
		wall := foot("Wall", 10, 5, 3, 3, 3, 3, 0, 10, NoSave)
		wall.ImmunePsychology = true
		friend := foot("Friend", 5, 5, 3, 3, 3, 3, 0, 1, NoSave)
		b := breakingBlock(PathLine, false, []*Unit{wall, friend}, []bool{false, true}, []int{2, 8}, PhaseCombat)
		b.Options.PanicFriendUS = tc.panicUS
		s, r := b.NewState(), dice.New(67, 0)
		for range 2000 { // the outcome is fixed
			b.Run(r, s)
			if ts := &s.Units[1]; !ts.Broke || !ts.Destroyed() || ts.Distance != 2 {
				t.Fatalf("the block broke %v, destroyed %v, at %d\"; want destroyed at the wall, 2\"", ts.Broke, ts.Destroyed(), ts.Distance)
			}
			if s.Out.Panicked[3] != tc.want {
				t.Fatalf("panic_friend_us %d: the friend fled %v, want %v", tc.panicUS, s.Out.Panicked[3], tc.want)
			}
		}
	}
	for _, pursue := range []bool{true, false} {
		friend := foot("Friend", 5, 5, 3, 3, 3, 3, 0, 1, NoSave)
		b := breakingBlock(PathLine, pursue, []*Unit{friend}, []bool{true}, []int{7}, PhaseCombat)
		b.Units[0].Mover = Mover{Random: dice.Const(12)}
		b.Units[1].W = 3
		s, r := b.NewState(), dice.New(68, 0)
		const n = 20_000
		fled := 0
		for range n {
			b.Run(r, s)
			if pursue && (!s.Units[1].Caught || s.Units[1].Alive != 4) {
				t.Fatalf("caught %v with %d models left; want caught, 4 left", s.Units[1].Caught, s.Units[1].Alive)
			}
			if s.Out.Panicked[2] {
				fled++
			}
		}
		want := 21.0 / 36
		if pursue {
			want = 0
		}
		within4SE(t, map[bool]string{true: "caught", false: "not pursued"}[pursue]+": the friend fled", fled, n, want)
	}
}

// TestCombatEndsWhenASideIsDestroyed: a close combat ended by anything
// but its rounds leaves the survivor out of close combat. A Zzzzap!
// machine with Random Movement (D6), engaged with thirty Clanrats, is
// removed by a Disaster with chance 1/18 (a Misfire, 1/6, then 1-2 on the
// Mishap chart, 1/3, which takes its last die): the Clanrats are then no
// longer engaged. With 3D6 and a single T 1 model engaged, its bolts
// destroy that model with chance 89/108 (TestWonPerCombat); the machine is
// then no longer engaged. Every trial must agree; the chances are checked
// within 4 standard errors over 36,000 trials.
func TestCombatEndsWhenASideIsDestroyed(t *testing.T) {
	const n = 36_000
	zz := zzzzapper()
	zz.Mover.Random = dice.MustParse("D6")
	b := battle(zz, foot("Clanrats", 30, 6, 3, 3, 3, 4, 1, 5, NoSave), 0, PhaseShooting)
	s, r := b.NewState(), dice.New(69, 0)
	removed := 0
	for range n {
		b.Run(r, s)
		if gone := s.Units[0].Destroyed(); gone {
			removed++
			if s.Units[1].Engaged {
				t.Fatal("the Clanrats are still engaged with a machine its Disaster removed")
			}
		}
	}
	within4SE(t, "removed by its Disaster", removed, n, 1.0/18)

	b = battle(zzzzapper(), foot("One", 1, 1, 3, 3, 1, 4, 1, 5, NoSave), 0, PhaseShooting)
	s, r = b.NewState(), dice.New(70, 0)
	destroyed := 0
	for range n {
		b.Run(r, s)
		if !s.Units[1].Destroyed() {
			continue
		}
		destroyed++
		if s.Units[0].Engaged {
			t.Fatal("the machine is still engaged with the model its bolts destroyed")
		}
	}
	within4SE(t, "the model destroyed by bolts", destroyed, n, 89.0/108)
}
