package fantasy

import (
	"math"
	"testing"

	"hammersim/mechanics/dice"
)

// facingBattle is the combat of the docs' examples (fantasy.md, Base
// contact): ten Infantry (20 mm) five wide fight a block of twenty (20 mm)
// ten wide, two deep, in the block's front, flank or rear; WS 3, S 3, T 3,
// one Attack each, no saves, the same Initiative, one round.
func facingBattle(face Facing) *Battle {
	a := foot("Ten", 10, 5, 3, 3, 3, 3, 1, 10, NoSave)
	t := foot("Block", 20, 10, 3, 3, 3, 3, 1, 10, NoSave)
	a.Flank, a.Rear = face == FaceFlank, face == FaceRear
	b := battle(a, t, 0, PhaseCombat)
	b.Options.Rounds, b.Options.Pursue = 1, PursueNever
	return b
}

// TestSidesInContact: the models in base contact and the supporting
// attacks of each side, by the side of the block that the ten fight
// (fantasy.md, Base contact, whose examples these are):
//   - front: the block's front is 200 mm, which takes all five of the
//     ten's front rank, with five supporting; the ten's 100 mm front takes
//     five 20 mm bases of the block, and one more touches each of its
//     corners (WAP, Who Can Strike): seven, with seven supporting;
//   - flank: the block's flank is two ranks of 20 mm, 40 mm, which two of
//     the ten touch and two more at its corners: four, with four
//     supporting behind them; along it two of the block (one each rank)
//     touch the ten, and make no supporting attacks (WAP, Supporting
//     Attacks: none to the side or rear);
//   - rear: the block's rear is ten 20 mm bases, which takes five of the
//     ten, with five supporting; seven of that rank touch the ten's
//     100 mm front (five along it, two at its corners), and support
//     nobody.
func TestSidesInContact(t *testing.T) {
	for _, tc := range []struct {
		face                        Facing
		front, behind, eFront, eBeh int
	}{
		{FaceFront, 5, 5, 7, 7},
		{FaceFlank, 4, 4, 2, 0},
		{FaceRear, 5, 5, 7, 0},
	} {
		b := facingBattle(tc.face)
		s := b.NewState()
		for i := range s.Units {
			s.Units[i].reset(b.Units[i], b.Distance[i])
		}
		units := [2]*Unit{b.Units[0], b.Units[1]}
		states := [2]*UnitState{&s.Units[0], &s.Units[1]}
		plan := b.plan(s, units, states, false)
		f, bh := fighting(units[0], states[0], units[1], states[1], true, plan, 0)
		ef, eb := fighting(units[1], states[1], units[0], states[0], true, plan, 1)
		if f != tc.front || bh != tc.behind || ef != tc.eFront || eb != tc.eBeh {
			t.Errorf("face %d: the ten fight with %d+%d, the block with %d+%d; want %d+%d and %d+%d",
				tc.face, f, bh, ef, eb, tc.front, tc.behind, tc.eFront, tc.eBeh)
		}
	}
}

// TestContactBySide: Contact along each side, by hand; a line longer than
// the side it meets touches it with the bases along it, a part-base
// counting, and one more at each of its corners (touching: at most
// side/base + 2, rounded down). Three chariots (50 mm wide, 100 mm deep)
// in the flank of the block of twenty ten wide (two ranks, 40 mm of
// flank): 40/50 + 2 = 2 chariots touch it, and two of the block (one a
// rank) touch the chariots' 150 mm front. A block whose last rank holds
// three (twenty-three, ten wide) still shows ten bases, 200 mm, to its
// rear: the five of a 20 mm unit behind it fight across the gaps (WAP,
// Incomplete Ranks), and seven of the block (100/20 + 2), those of that
// rank and of the rank ahead, fight them back; seven left in one rank
// show 140 mm, and touch the five with seven too. Twenty-five 25 by 50 mm
// Cavalry five wide show five ranks of 50 mm, 250 mm, along a flank: a
// 20 mm unit ten wide, 200 mm, touches it with all ten, and all five of
// the Cavalry (one a rank; 200/50 + 2 = 6) touch its 200 mm front.
func TestContactBySide(t *testing.T) {
	chariots := &Unit{Name: "Chariots", Troop: Chariot, Models: 3, Width: 3, FrontMM: 50, DepthMM: 100}
	block := &Unit{Name: "Block", Troop: Infantry, Models: 20, Width: 10, FrontMM: 20}
	five := &Unit{Name: "Five", Troop: Infantry, Models: 5, Width: 5, FrontMM: 20}
	ten := &Unit{Name: "Ten", Troop: Infantry, Models: 10, Width: 10, FrontMM: 20}
	horse := &Unit{Name: "Horse", Troop: Cavalry, Models: 25, Width: 5, FrontMM: 25, DepthMM: 50}
	for _, tc := range []struct {
		name   string
		u      *Unit
		uf     Facing
		uAlive int
		e      *Unit
		ef     Facing
		eAlive int
		want   int
	}{
		{"chariots on the flank", chariots, FaceFront, 3, block, FaceFlank, 20, 2},
		{"flank on the chariots", block, FaceFlank, 20, chariots, FaceFront, 3, 2},
		{"five on a rear of three", five, FaceFront, 5, block, FaceRear, 23, 5},
		{"rear of three on five", block, FaceRear, 23, five, FaceFront, 5, 7},
		{"rear of one rank", block, FaceRear, 7, five, FaceFront, 5, 7},
		{"a full last rank", five, FaceFront, 5, block, FaceRear, 20, 5},
		{"ten on the cavalry's flank", ten, FaceFront, 10, horse, FaceFlank, 25, 10},
		{"cavalry's flank on ten", horse, FaceFlank, 25, ten, FaceFront, 10, 5},
		{"nobody left", five, FaceFront, 5, block, FaceFlank, 0, 0},
	} {
		if got := Contact(tc.u, tc.uf, tc.uAlive, tc.e, tc.ef, tc.eAlive); got != tc.want {
			t.Errorf("%s: %d in contact, want %d", tc.name, got, tc.want)
		}
	}
}

// TestFightBySide: the wounds of one round, against the counts of
// TestSidesInContact. Each attack wounds with 1/2 to hit (WS 3 against
// WS 3) times 1/2 to wound (S 3 against T 3), no save: the ten inflict
// 10/4 (front), 8/4 (flank), 10/4 (rear); the block 14/4, 2/4, 7/4. The
// blows are simultaneous (one Initiative), so no casualty cuts the other
// side's attacks. 40,000 trials a side, within 4 standard errors of the
// binomial (n attacks, 1/4).
func TestFightBySide(t *testing.T) {
	for _, tc := range []struct {
		face       Facing
		ten, block int // attacks
	}{
		{FaceFront, 10, 14},
		{FaceFlank, 8, 2},
		{FaceRear, 10, 7},
	} {
		b := facingBattle(tc.face)
		s, r := b.NewState(), dice.New(41, 0)
		const n = 40_000
		var sum [2]float64
		for range n {
			for i := range s.Units {
				s.Units[i].reset(b.Units[i], b.Distance[i])
			}
			res := b.fightRound(r, s, false)
			sum[0] += float64(res.wounds[0])
			sum[1] += float64(res.wounds[1])
		}
		for side, attacks := range [2]int{tc.ten, tc.block} {
			mean := float64(attacks) / 4
			se := math.Sqrt(float64(attacks) * 3.0 / 16 / n)
			if got := sum[side] / n; math.Abs(got-mean) > 4*se {
				t.Errorf("face %d, side %d: %.4f wounds a round, want %.4f ± %.4f", tc.face, side, got, mean, 4*se)
			}
		}
	}
}

// TestExactImpactInTheFlank: a chariot's Impact Hits come from the models
// in base contact with the side it charges. Three chariots (D6 hits each)
// charge the flank of thirty Clanrats fifteen wide, two ranks of 20 mm:
// 40 mm, which two 50 mm chariots touch (one along it, one at its corner:
// 40/50 + 2 = 2, touching). The exact impact_hits of a charge that always
// lands (the rats 2" away, the chariots' charge at least 2") are
// 2 x 3.5 = 7; in the front (300 mm, all three chariots), 10.5.
func TestExactImpactInTheFlank(t *testing.T) {
	for _, tc := range []struct {
		flank bool
		want  float64
	}{{false, 10.5}, {true, 7}} {
		b := impactBattle("D6")
		a := *b.Units[0]
		a.Models, a.Width, a.Flank = 3, 3, tc.flank
		b.Units[0] = &a
		rats := *b.Units[1]
		rats.Width = 15
		b.Units[1] = &rats
		got, has := ExactBattle(b).Value(BattleImpactHits, 0)
		if !has || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("flank %v: impact hits %v, %v; want %v", tc.flank, got, has, tc.want)
		}
		matchesTrials(t, b, 43, 40_000, []exactProbe{
			{"impact hits", BattleImpactHits, 0, func(s *State) float64 { return float64(s.Out.ImpactHits) }},
		})
	}
}

// TestFlankAndRearAllocateNothing: a combat fought in a flank or rear works
// its contacts out each time (Contact), without allocating.
func TestFlankAndRearAllocateNothing(t *testing.T) {
	for _, face := range []Facing{FaceFlank, FaceRear} {
		b := facingBattle(face)
		b.Options.Rounds = 0
		s, r := b.NewState(), dice.New(44, 0)
		if allocs := allocationsIn(2000, r, func() { b.Run(r, s) }); allocs != 0 {
			t.Errorf("face %d: %v allocations a trial", face, allocs)
		}
	}
}

// TestChampionOutOfTheRear: a champion fights in his unit's front rank
// (W9E, Position within a Unit). The block of twenty ten wide, two deep,
// has a champion of 10 Attacks in place of one model. Fought in its front
// by the ten, seven of the block touch them (TestSidesInContact): the
// champion (10) and six models (6), with seven supporting (7), 23
// attacks; in its rear, seven of its last rank touch them, ordinary models
// all, and nobody supports: 7 attacks. Each wounds with 1/4
// (TestFightBySide), so the ten suffer 23/4 and 7/4 a round; 40,000
// trials, within 4 standard errors of the binomial.
func TestChampionOutOfTheRear(t *testing.T) {
	for _, tc := range []struct {
		face    Facing
		attacks int
	}{{FaceFront, 23}, {FaceRear, 7}} {
		b := facingBattle(tc.face)
		block := *b.Units[1]
		block.Attackers = append(block.Attackers[:1:1], Attacker{Name: "Champion", WS: 3, S: 3, I: 3, A: dice.Const(10), PerBody: 1, Champion: true})
		b.Units[1] = &block
		s, r := b.NewState(), dice.New(45, 0)
		const n = 40_000
		sum := 0.0
		for range n {
			for i := range s.Units {
				s.Units[i].reset(b.Units[i], b.Distance[i])
			}
			sum += float64(b.fightRound(r, s, false).wounds[1])
		}
		mean := float64(tc.attacks) / 4
		se := math.Sqrt(float64(tc.attacks) * 3.0 / 16 / n)
		if got := sum / n; math.Abs(got-mean) > 4*se {
			t.Errorf("face %d: the block inflicts %.4f wounds a round, want %.4f ± %.4f", tc.face, got, mean, 4*se)
		}
	}
}

// TestValidateSides: a unit fights one side of its enemy; only one of the
// two can be in the other's flank or rear; and a charger meets its target
// front first, so a target charged from afar is in neither.
func TestValidateSides(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		aFlank, aRear, tFlank bool
		distance              int
		phases                []Phase
		ok                    bool
	}{
		{"attacker in the flank", true, false, false, 4, []Phase{PhaseCharge, PhaseCombat}, true},
		{"flank and rear", true, true, false, 0, []Phase{PhaseCombat}, false},
		{"each in the other's", false, true, true, 0, []Phase{PhaseCombat}, false},
		{"target in the charger's flank", false, false, true, 4, []Phase{PhaseCharge, PhaseCombat}, false},
		{"target in the flank, engaged", false, false, true, 0, []Phase{PhaseCharge, PhaseCombat}, true},
		{"target in the flank, no charge", false, false, true, 4, []Phase{PhaseCombat}, true},
	} {
		b := facingBattle(FaceFront)
		a, tg := *b.Units[0], *b.Units[1]
		a.Flank, a.Rear, tg.Flank = tc.aFlank, tc.aRear, tc.tFlank
		b.Units[0], b.Units[1] = &a, &tg
		b.Distance[1], b.Phases = tc.distance, tc.phases
		if err := b.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	// An Out of Control move towards the others charges the target it
	// runs into, so it meets it front first too.
	b := facingBattle(FaceFront)
	a, tg := *b.Units[0], *b.Units[1]
	a.LossOfControl, tg.Flank = true, true
	b.Units[0], b.Units[1] = &a, &tg
	b.Distance[1], b.Options.OutOfControl = 4, OutOfControlTowards
	if err := b.Validate(); err == nil {
		t.Error("a target in the flank of a Doomwheel that may run into it Out of Control was accepted")
	}
}

// TestRearAcrossTheGaps: a unit fought in its rear keeps the width of a
// full rank there, however few its last rank holds (WAP, Incomplete
// Ranks: enemies the gaps leave out of contact fight across them). Five
// Infantry in the rear of a block five wide, which has no attacks and is
// Unbreakable; one Attack each at 1/2 to hit (WS 3 against WS 3) and 1/2
// to wound (S 3 against T 3), no save: 5/4 wounds whether the block's last
// rank holds five (twenty), one (twenty-one) or four (twenty-four). With
// the last rank alone in contact the twenty-one would take 1/4.
func TestRearAcrossTheGaps(t *testing.T) {
	for _, models := range []int{20, 21, 24} {
		a := foot("Five", 5, 5, 3, 3, 3, 3, 1, 10, NoSave)
		a.Rear = true
		blk := foot("Block", models, 5, 3, 3, 3, 3, 0, 10, NoSave)
		blk.Unbreakable, blk.ImmunePsychology = true, true
		b := battle(a, blk, 0, PhaseCombat)
		b.Options.Rounds, b.Options.Pursue = 1, PursueNever
		if got, has := ExactBattle(b).Value(BattleWounds, 1); !has || math.Abs(got-1.25) > 1e-12 {
			t.Errorf("%d models: exact wounds %v, %v; want 1.25", models, got, has)
		}
		matchesTrials(t, b, 47, 40_000, []exactProbe{
			{"wounds", BattleWounds, 1, func(s *State) float64 { return float64(s.Units[1].Wounds) }},
		})
	}
}
