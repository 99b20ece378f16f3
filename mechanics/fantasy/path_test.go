package fantasy

import (
	"fmt"
	"math"
	"testing"

	"hammersim/mechanics/dice"
)

// within4SE fails t when k of n trials is not within 4 standard errors of
// the chance p (and when p is 0 and k is not).
func within4SE(t *testing.T, what string, k, n int, p float64) {
	t.Helper()
	got := float64(k) / float64(n)
	se := math.Sqrt(p * (1 - p) / float64(n))
	if math.Abs(got-p) > 4*se || (p == 0) != (k == 0) {
		t.Errorf("%s: %.4f of %d trials, want %.4f ± %.4f (4 SE)", what, got, n, p, 4*se)
	}
}

// trialsWhere runs n trials of b from seed and counts those in which
// happened reports true of the state they end in.
func trialsWhere(b *Battle, seed uint64, n int, happened func(s *State) bool) int {
	s, r := b.NewState(), dice.New(seed, 0)
	k := 0
	for range n {
		b.Run(r, s)
		if happened(s) {
			k++
		}
	}
	return k
}

// breakingBlock is the combat of TestFlightIsPlaced in which the target
// always breaks: ten in the rear (rank +1, rear +2) of a block of ten at
// Ld 1 (disrupted by them, so no rank bonus; equal Unit Strength), with no
// Insane Courage, and no pursuit unless asked. others stand by; path is the
// option under test.
func breakingBlock(path PursuitPath, pursue bool, others []*Unit, enemy []bool, distance []int, phases ...Phase) *Battle {
	a := foot("Acting", 10, 5, 3, 3, 3, 3, 0, 10, NoSave)
	a.Rear = true
	b := &Battle{Units: append([]*Unit{a, foot("Block", 10, 5, 3, 3, 3, 3, 0, 1, NoSave)}, others...),
		Enemy: append([]bool{false, true}, enemy...), Distance: append([]int{0, 0}, distance...),
		Phases: phases, Options: DefaultOptions}
	b.Options.InsaneCourage, b.Options.Pursue, b.Options.PursuitPath = false, pursuit(pursue), path
	return b
}

// TestFlightThroughAnEnemy: with pursuit_path: line, a target broken from
// combat flees through the non-fleeing enemies its flight reaches and
// takes one wound for each point of their Unit Strength, with no save
// (WAP, Move Fleeing Units); ending on one, it goes on to 1" beyond it. A
// wall of three (Unit Strength 3) friends of the acting unit stands 2" away:
// every flee roll (2D6, 2 or more) reaches it, so the block of ten always
// loses exactly 3 models, and stands max(f, 3) away: 3 with chance
// P(2) + P(3) = 3/36, each f of 4 to 12 with its 2D6 chance (chi-square,
// df 9, 27.88 at p = 0.001). With pursuit_path: clear, the wall is not in
// its path: it loses nothing and stands f away.
func TestFlightThroughAnEnemy(t *testing.T) {
	for _, path := range []PursuitPath{PathLine, PathClear} {
		wall := foot("Wall", 3, 3, 3, 3, 3, 3, 0, 10, NoSave)
		wall.ImmunePsychology = true
		b := breakingBlock(path, false, []*Unit{wall}, []bool{false}, []int{2}, PhaseCombat)
		s, r := b.NewState(), dice.New(21, 0)
		const n = 20_000
		var counts [13]float64
		for range n {
			b.Run(r, s)
			ts := &s.Units[1]
			wantLost := 3
			if path == PathClear {
				wantLost = 0
			}
			if !ts.Broke || ts.Wounds != wantLost || ts.Alive != 10-wantLost {
				t.Fatalf("path %d: broke %v, wounds %d, alive %d; want broken with %d wounds", path, ts.Broke, ts.Wounds, ts.Alive, wantLost)
			}
			counts[ts.Distance]++
		}
		chi := 0.0
		for v := 2; v <= 12; v++ {
			p := twoD6.At(v)
			if path == PathLine {
				switch {
				case v == 2:
					continue
				case v == 3:
					p = twoD6.At(2) + twoD6.At(3)
				}
			}
			e := p * n
			chi += (counts[v] - e) * (counts[v] - e) / e
		}
		if path == PathLine && counts[2] != 0 {
			t.Errorf("the block ended its flight on the wall, 2\" away, %v times", counts[2])
		}
		if limit := map[PursuitPath]float64{PathLine: 27.88, PathClear: 29.59}[path]; chi > limit { // df 9, or 10
			t.Errorf("path %d: distances after the flight, chi-square %.1f > %.2f", path, chi, limit)
		}
	}
}

// TestFlightThroughAFriend: with pursuit_path: line, a friend that a unit
// of Unit Strength panic_friend_us (10) or more flees through takes a
// Panic test once the flight is made (WAP, Move Fleeing Units). The block
// of ten breaks; a friend of it stands 8" away, beyond the 6" of a friend
// breaking nearby, and at Ld 1 without Insane Courage fails any test. Its
// flight reaches the friend when the flee roll is 8 or more: 15/36. With
// panic_friend_us 11 the block is too small, and with pursuit_path: clear
// the friend is not in its path: it never tests. 20,000 trials each,
// within 4 standard errors.
func TestFlightThroughAFriend(t *testing.T) {
	for _, tc := range []struct {
		name    string
		path    PursuitPath
		panicUS int
		want    float64
	}{
		{"line", PathLine, 10, 15.0 / 36},
		{"line, too small", PathLine, 11, 0},
		{"clear", PathClear, 10, 0},
	} {
		friend := foot("Friend", 5, 5, 3, 3, 3, 3, 0, 1, NoSave)
		b := breakingBlock(tc.path, false, []*Unit{friend}, []bool{true}, []int{8}, PhaseCombat)
		b.Options.PanicFriendUS = tc.panicUS
		s, r := b.NewState(), dice.New(22, 0)
		const n = 20_000
		fled := 0
		for range n {
			b.Run(r, s)
			if s.Out.Panicked[2] {
				fled++
			}
		}
		within4SE(t, tc.name+": the friend fled", fled, n, tc.want)
	}
}

// TestPursuitStopsShortOfAFriend: with pursuit_path: line, the acting unit
// pursues its broken target, and stops 1" short of a friend in its way
// (WAP, Move Pursuers). The friend (five, Unit Strength 5) stands 3" away;
// the block has three Wounds a model, so that it lives through a catch (20
// wounds) and the friend's 5. A flee roll f of 2 leaves the block short of
// the friend, 2" away, and the pursuer stops 1" behind it, at 1" (its roll
// is 2 or more): the friend then stands 2" from it, the block 1". Any
// other f takes the block through the friend, to 4" or more, and the
// pursuer, whose roll of 2 or more reaches 2", stops there, 1" short of the
// friend: the friend stands 1" from it, the block 2" or more. The first
// comes with chance 1/36 (within 4 standard errors over 20,000 trials).
// With pursuit_path: clear the friend stays 3" away.
func TestPursuitStopsShortOfAFriend(t *testing.T) {
	for _, path := range []PursuitPath{PathLine, PathClear} {
		friend := foot("Friend", 5, 5, 3, 3, 3, 3, 0, 10, NoSave)
		friend.ImmunePsychology = true
		b := breakingBlock(path, true, []*Unit{friend}, []bool{false}, []int{3}, PhaseCombat)
		b.Units[1].W = 3
		s, r := b.NewState(), dice.New(23, 0)
		const n = 20_000
		short := 0
		for range n {
			b.Run(r, s)
			fd, td := s.Units[2].Distance, s.Units[1].Distance
			switch {
			case s.Units[1].Alive == 0:
				t.Fatalf("path %d: the block was destroyed", path)
			case path == PathClear && fd != 3:
				t.Fatalf("pursuit_path clear: the friend stands %d\" away, want 3", fd)
			case path == PathClear:
			case fd == 2 && td == 1:
				short++
			case fd != 1 || td < 2:
				t.Fatalf("the friend stands %d\" from the pursuer, the block %d\": neither a short flight nor a stop 1\" short of the friend", fd, td)
			}
		}
		if path == PathLine {
			within4SE(t, "flights short of the friend", short, n, 1.0/36)
		}
	}
}

// TestPursuitChargesAnEnemy: with pursuit_path: line, a pursuer that
// reaches an enemy charges it (WAP, Move Pursuers), and the next round of
// combat is fought against that unit, as the charge's. Five in the rear of
// a block of five at Ld 1 win by 2 (rear +2; neither has a rank bonus or
// the higher Unit Strength) and the block breaks; a unit of five with a
// standard, friends of the block, stand 2" away. The block's flight (2 or
// more) takes it to 3" or more (through its friends, whose Unit Strength
// of 5 is too small for a Panic test); the pursuer's roll (2 or more)
// reaches 2" whether the block lives or not, so it always charges the five.
// In the second combat phase the pursuer scores +1 for the charge and no
// rear bonus (its rear placed it against the block), the five +1 for the
// standard: a draw, so nobody breaks, and both stand engaged after two
// rounds. Were the rear counted, the five (Ld 1) would always break; were
// the charge not, the pursuer would lose by 1 and break on Ld 9 in 6/36.
// Without the standard the five lose by 1 and always break, and the
// pursuer has won its combat against its target. It pursues them in turn,
// and catches them when its 2D6 equals or beats theirs, (1 + 146/1296)/2
// (TestPursuersArePlaced), within 4 standard errors over 4,000 trials: the
// catch's 10 wounds (two for each of its five) destroy the five.
func TestPursuitChargesAnEnemy(t *testing.T) {
	for _, standard := range []bool{true, false} {
		guard := foot("Guard", 5, 5, 3, 3, 3, 3, 0, 1, NoSave)
		guard.Standard = standard
		b := breakingBlock(PathLine, true, []*Unit{guard}, []bool{true}, []int{2}, PhaseCombat, PhaseCombat)
		b.Units[0].Models, b.Units[1].Models = 5, 5
		s, r := b.NewState(), dice.New(24, 0)
		const n = 4000
		caught := 0
		for range n {
			b.Run(r, s)
			as, gs := &s.Units[0], &s.Units[2]
			if gs.Caught {
				if gs.Alive != 0 {
					t.Fatalf("the guard, caught, has %d models left", gs.Alive)
				}
				caught++
			}
			if !s.Units[1].Broke || s.Out.Rounds != 2 || as.Broke || gs.Broke == standard || s.opp != 2 {
				t.Fatalf("standard %v: block broke %v, rounds %d, pursuer broke %v, guard broke %v, opponent %d",
					standard, s.Units[1].Broke, s.Out.Rounds, as.Broke, gs.Broke, s.opp)
			}
			if standard && !(as.Engaged && gs.Engaged && gs.Distance == 0) {
				t.Fatalf("after a drawn round: pursuer engaged %v, guard engaged %v at %d\"", as.Engaged, gs.Engaged, gs.Distance)
			}
			if !s.Won(0) || s.Won(2) != false {
				t.Fatalf("standard %v: won %v and %v; want the pursuer's and not the guard's", standard, s.Won(0), s.Won(2))
			}
		}
		want := 0.0
		if !standard {
			want = (1 + 146.0/1296) / 2
		}
		within4SE(t, "the guard caught", caught, n, want)
	}
}

// TestPursuitCatchesAFleeingEnemy: a fleeing enemy in the pursuer's way is
// caught, as by a charge it cannot react to. The block of ten (Unit
// Strength 10) breaks within 6" of its friends, ten at Ld 1 3" away, who
// fail their Panic test and flee 2D6 (g): they stand 3 + g away. The
// pursuers (ten, Unit Strength 10) destroy the block when they catch it
// (20 wounds on 10), and else stop short of its place, so they move their
// whole roll p; it reaches the friends when p >= 3 + g, and the catch's 20
// wounds destroy them. With p and g independent 2D6 that is the sum of
// P(p) P(g) over p - g >= 3 (310/1296 = 0.2392, enumerated below), within
// 4 standard errors over 40,000 trials; with pursuit_path: clear, never.
func TestPursuitCatchesAFleeingEnemy(t *testing.T) {
	want := 0.0
	for p := 2; p <= 12; p++ {
		for g := 2; g <= p-3; g++ {
			want += twoD6.At(p) * twoD6.At(g)
		}
	}
	for _, path := range []PursuitPath{PathLine, PathClear} {
		friends := foot("Friends", 10, 5, 3, 3, 3, 3, 0, 1, NoSave)
		b := breakingBlock(path, true, []*Unit{friends}, []bool{true}, []int{3}, PhaseCombat)
		s, r := b.NewState(), dice.New(25, 0)
		const n = 40_000
		caught := 0
		for range n {
			b.Run(r, s)
			fs := &s.Units[2]
			if !s.Out.Panicked[2] {
				t.Fatal("the friends passed a Panic test on Ld 1")
			}
			if fs.Caught {
				if fs.Alive != 0 {
					t.Fatalf("caught friends: %d alive, want 0", fs.Alive)
				}
				caught++
			}
		}
		within4SE(t, "the friends caught", caught, n, map[PursuitPath]float64{PathLine: want, PathClear: 0}[path])
	}
}

// doomwheelAmong is a machine with Random Movement const, Impact Hits (6)
// at S 10, its enemy target at target inches and a friend of it (twenty
// T 1 models, no save) at friend inches, with the out_of_control option
// move, in a battle with no phases: Run places the units as they start.
func doomwheelAmong(move OutOfControlMove, random, target, friend int) *Battle {
	a := chariot("6")
	a.S, a.Mover.Random = 10, dice.Const(random)
	b := &Battle{Units: []*Unit{a, foot("Rats", 20, 5, 3, 3, 3, 4, 1, 5, NoSave), foot("Friend", 20, 5, 3, 3, 1, 3, 1, 7, NoSave)},
		Enemy: []bool{false, true, false}, Distance: []int{0, target, friend}, Options: DefaultOptions}
	b.Options.OutOfControl = move
	return b
}

// TestOutOfControlPlaced: where an Out of Control move takes a machine
// that moves 5": in place, nothing moves; away, every distance grows by 5;
// towards, it goes 5" along the line of the distances and runs into the
// first unit within 5. A friend 3" away takes its six Impact Hits at once
// (S 10 on T 1: each wounds on 2+, 5/6, so 5 wounds on average; checked
// within 4 standard errors over 20,000 moves) and it stops 1" short of it,
// at 2", leaving the target 8 - 2 = 6" away. An enemy 4" away it charges:
// both engaged, 0" apart, the next round the charge's, the friend then
// 10 - 4 = 6" away. A target 8" away and a friend 10" away are beyond its
// 5": it stops 3" and 5" short of them. Engaged, it does not move at all
// (Doomwheel Mishap chart).
func TestOutOfControlPlaced(t *testing.T) {
	for _, tc := range []struct {
		name               string
		move               OutOfControlMove
		target, friend     int
		engaged            bool
		wantT, wantF       int
		wantEngaged, smash bool
	}{
		{"in place", OutOfControlInPlace, 8, 3, false, 8, 3, false, false},
		{"away", OutOfControlAway, 8, 3, false, 13, 8, false, false},
		{"into a friend", OutOfControlTowards, 8, 3, false, 6, 1, false, true},
		{"into the enemy", OutOfControlTowards, 4, 10, false, 0, 6, true, false},
		{"short of both", OutOfControlTowards, 8, 10, false, 3, 5, false, false},
		{"engaged", OutOfControlTowards, 0, 3, true, 0, 3, true, false},
	} {
		n := 1 // the moves are fixed: one shows them
		if tc.smash {
			n = 20_000
		}
		wounds := 0
		b := doomwheelAmong(tc.move, 5, tc.target, tc.friend)
		s, r := b.NewState(), dice.New(29, 0)
		for range n {
			b.Run(r, s)
			if tc.engaged != s.Units[0].Engaged {
				t.Fatalf("%s: the battle starts engaged %v", tc.name, s.Units[0].Engaged)
			}
			b.outOfControl(r, s)
			as, ts, fs := &s.Units[0], &s.Units[1], &s.Units[2]
			if ts.Distance != tc.wantT || fs.Distance != tc.wantF || as.Engaged != tc.wantEngaged || ts.Engaged != tc.wantEngaged {
				t.Fatalf("%s: target %d\" (engaged %v), friend %d\", acting unit engaged %v; want %d\", %d\", engaged %v",
					tc.name, ts.Distance, ts.Engaged, fs.Distance, as.Engaged, tc.wantT, tc.wantF, tc.wantEngaged)
			}
			if tc.wantEngaged && !tc.engaged && !(s.first && as.Charged && s.opp == 1) {
				t.Fatalf("%s: the charge: first round %v, charged %v, opponent %d", tc.name, s.first, as.Charged, s.opp)
			}
			if !tc.smash && fs.Wounds != 0 {
				t.Fatalf("%s: the friend took %d wounds", tc.name, fs.Wounds)
			}
			wounds += fs.Wounds
		}
		if tc.smash {
			p := 5.0 / 6
			mean, se := 6*p, math.Sqrt(6*p*(1-p)/float64(n))
			if got := float64(wounds) / float64(n); math.Abs(got-mean) > 4*se {
				t.Errorf("%s: the friend took %.3f wounds a move, want %.3f ± %.3f (4 SE)", tc.name, got, mean, 4*se)
			}
		}
	}
}

// TestOutOfControlCharges: a Zzzzap! machine with the enemy 4" away, the
// nearest unit, so it never tests to hold fire, Misfires with chance 1/6,
// and then goes Out of Control on 3-5 of the Mishap chart (1/2). With
// out_of_control: towards it moves 3D6 at the enemy and charges it on any
// roll but 3 (215/216), so a combat is fought with chance 215/2592, and
// that round is the charge's: the machine's Impact Hits (D6, at least 1)
// open it. Left in place, or moved away, it fights no combat. 40,000
// trials, within 4 standard errors.
func TestOutOfControlCharges(t *testing.T) {
	for _, tc := range []struct {
		move OutOfControlMove
		want float64
	}{{OutOfControlTowards, 215.0 / 2592}, {OutOfControlInPlace, 0}, {OutOfControlAway, 0}} {
		b := battle(zzzzapper(), foot("Rats", 20, 5, 3, 3, 3, 4, 0, 5, NoSave), 4, PhaseShooting, PhaseCombat)
		b.Options.OutOfControl = tc.move
		s, r := b.NewState(), dice.New(26, 0)
		const n = 40_000
		fought := 0
		for range n {
			b.Run(r, s)
			if !s.Out.Fought {
				continue
			}
			fought++
			if s.Out.Mishap != OutOfControl || s.Out.ImpactHits < 1 {
				t.Fatalf("a combat after mishap %v with %d Impact Hits", s.Out.Mishap, s.Out.ImpactHits)
			}
		}
		within4SE(t, "combats after Out of Control", fought, n, tc.want)
	}
}

// TestLossOfControlMoves: a Loss of Control test that fails sends the
// machine Out of Control at once: wounded twice out of combat, it fails on
// any 1 of two D6, 11/36, and with out_of_control: towards then moves 3D6
// at an enemy 4" away and charges it unless it rolls 3: 11/36 * 215/216,
// within 4 standard errors over 40,000 tests (the set-up of
// TestLossOfControl).
func TestLossOfControlMoves(t *testing.T) {
	dw := chariot("")
	dw.LossOfControl = true
	b := battle(dw, foot("Rats", 20, 5, 3, 3, 3, 4, 1, 5, NoSave), 4)
	b.Options.OutOfControl = OutOfControlTowards
	s, r := b.NewState(), dice.New(27, 0)
	const n = 40_000
	engaged := 0
	for range n {
		b.Run(r, s)
		s.Units[0].wound(dw, 2)
		b.afterPhase(r, s)
		if s.Units[0].Engaged {
			if !s.Out.LostControl || s.Units[1].Distance != 0 {
				t.Fatalf("engaged with the enemy %d\" away, lost control %v", s.Units[1].Distance, s.Out.LostControl)
			}
			engaged++
		}
	}
	within4SE(t, "charges out of control", engaged, n, 11.0/36*215/216)
}

// TestMeetingOthersAllocatesNothing: a battle whose pursuits and Out of
// Control moves run into other units, charges and fights among them,
// allocates nothing.
func TestMeetingOthersAllocatesNothing(t *testing.T) {
	guard := foot("Guard", 5, 5, 3, 3, 3, 3, 1, 1, NoSave)
	b := breakingBlock(PathLine, true, []*Unit{guard, foot("Friend", 5, 5, 3, 3, 3, 3, 1, 7, NoSave)},
		[]bool{true, false}, []int{2, 9}, PhaseShooting, PhaseCombat, PhaseShooting, PhaseCombat, PhaseCombat)
	b.Units[0] = zzzzapper()
	b.Units[0].LossOfControl = true
	b.Distance[1] = 3
	b.Options.OutOfControl = OutOfControlTowards
	b.Options.Rounds = 0
	s, r := b.NewState(), dice.New(28, 0)
	if allocs := allocationsIn(2000, r, func() { b.Run(r, s) }); allocs != 0 {
		t.Fatalf("a battle meeting other units allocates %v times", allocs)
	}
}

// TestValidateOthersInPlace: flank, rear and higher ground place a unit
// against the one it fights from the start, so only the acting unit and
// its target may have them.
func TestValidateOthersInPlace(t *testing.T) {
	other := foot("Other", 5, 5, 3, 3, 3, 3, 1, 7, NoSave)
	b := breakingBlock(PathLine, true, []*Unit{other}, []bool{true}, []int{2}, PhaseCombat)
	if err := b.Validate(); err != nil {
		t.Fatalf("a battle with a unit standing by: %v", err)
	}
	other.Flank = true
	if err := b.Validate(); err == nil {
		t.Error("a unit standing by in a flank passed validation")
	}
}

// pursuit is the choice a test's pursue flag names: always or never.
func pursuit(pursue bool) PursuitChoice {
	if pursue {
		return PursueAlways
	}
	return PursueNever
}

// TestRestrainPursuit: a winner whose player would restrain pursuit takes
// a Leadership test to hold, and pursues all the same when it fails it
// (WAP, Restrain or Pursue). Twenty models five wide with Fear, A 0, Ld 7,
// fight ten models ten wide, A 0, Ld 10: nobody strikes, and the combat
// result is 6 to 0 (three ranks behind the first +3, Fear at twice the
// enemy's Unit Strength +2, the higher Unit Strength +1). The ten test
// on Ld 10 - 6 = 4 and break on 7 or more: 30/36. The winner restrains
// on Ld 7, failing on 8 or more: 15/36; its 2D6 pursuit then catches the
// 2D6 flight when it is at least as long: (1 + 146/1296)/2 (146/1296 the
// chance of a tie). Caught: 30/36 x 15/36 x 1442/2592 = 0.19316. With
// pursue true the factor 15/36 goes, and with pursue false the catch.
// The exact value is pinned to 1e-12, and 40,000 trials (a fixed seed)
// within 4 standard errors.
func TestRestrainPursuit(t *testing.T) {
	catch := 1442.0 / 2592
	for _, tc := range []struct {
		choice PursuitChoice
		want   float64
	}{{PursueRestrain, 30.0 / 36 * 15 / 36 * catch}, {PursueAlways, 30.0 / 36 * catch}, {PursueNever, 0}} {
		big := foot("Big", 20, 5, 3, 3, 3, 3, 0, 7, NoSave)
		big.Fear = true
		ten := foot("Ten", 10, 10, 3, 3, 3, 3, 0, 10, NoSave)
		b := battle(big, ten, 0, PhaseCombat)
		b.Options.Pursue = tc.choice
		if got, has := ExactBattle(b).Value(BattleCaught, 1); !has || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("pursue %d: exact caught %v (%v), want %v", tc.choice, got, has, tc.want)
		}
		const n = 40_000
		caught := trialsWhere(b, 29, n, func(s *State) bool { return s.Units[1].Caught })
		within4SE(t, fmt.Sprintf("pursue %d: caught", tc.choice), caught, n, tc.want)
	}
}
