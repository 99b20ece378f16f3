package heresy

import (
	"fmt"
	"math"
	"testing"

	"hammersim/mechanics/dice"
)

// TestNoAllocations pins invariant 3 of the architecture: a trial allocates
// nothing. Scratch space grows on the first call, so each function runs once
// before it is measured.
func TestNoAllocations(t *testing.T) {
	r := dice.New(1, 0)
	p := marine
	p.FiringProtocols = 2
	firer := NewUnit(p, 5)
	start := Unit{Profile: Profile{T: 4, W: 2, Save: 3, FeelNoPain: 6, LordsOfProfligacy: true}, Models: 6}
	weapons := []Weapon{flamer, lascan, hbolter}
	var a Attack
	a.Prepare(&firer, weapons, &start, DefaultOptions)
	chain := a.Volleys[0].Chain
	ch := StupefyChooser{Policy: StupefyWhenItPays}
	stakes := StupefyStakes{Enemy: &firer, EnemyWeapons: weapons, OwnTarget: &firer, OwnWeapons: weapons}
	cands := []Candidate{{5, true}, {5, true}, {7, true}}
	tieRandom := DefaultOptions
	tieRandom.Ties = TieRandom
	chargers, guns := NewUnit(marine, 10), NewUnit(rapier, 3)
	overwatch := DefaultOptions
	overwatch.Overwatch = true
	var rich Attack
	rich.Prepare(&firer, []Weapon{
		{Name: "rend", Shots: dice.Const(2), S: 5, AP: 4, Rending: 5, Brutal: 2, MasterCrafted: true, GetsHot: true, Type: Destroyer},
		{Name: "volkite", Shots: dice.MustParse("D3"), S: 6, AP: 5, Deflagrate: true, MurderousStrike: 6, Shred: true},
	}, &start, DefaultOptions)
	// Murderous Strike with Rending: the waiting wounds are drawn in a
	// random order (Chain.resolveMurderousFirst).
	// Overwatch whose plasma Gets Hot: its wounds go onto the defender.
	var hot Attack
	hot.PrepareAt(&firer, []Weapon{{Name: "plasma", Shots: dice.Const(2), S: 7, AP: 2, GetsHot: true}, {Name: "cannon", S: 7, AP: 2, Blast: 3, GetsHot: true}},
		&chargers, Situation{SnapShots: true, Reaction: true, Charging: true}, DefaultOptions)
	var murder Attack
	murder.Prepare(&firer, []Weapon{{Name: "axe", Shots: dice.MustParse("D3"), S: 5, AP: 3, MurderousStrike: 5, Rending: 6}}, &start, DefaultOptions)

	cases := []struct {
		name string
		f    func()
	}{
		{"Chain.Roll", func() { u := start; chain.Roll(r, 12, &u) }},
		{"Attack.Roll", func() { u := start; a.Roll(r, &u) }},
		{"Attack.Prepare", func() { a.Prepare(&firer, weapons, &start, DefaultOptions) }},
		{"Attack.ExpectedCasualties", func() { _ = a.ExpectedCasualties(&start) }},
		{"StupefyChooser.Choose", func() { u := start; _ = ch.Choose(&u, stakes, DefaultOptions) }},
		{"Unit.TakeTest", func() { u := start; u.TakeTest(r, MoraleCheck, PhaseAssault, -1, DefaultOptions) }},
		{"ClosestTarget", func() { _ = ClosestTarget(r, cands, tieRandom) }},
		{"Charge", func() {
			x, y := chargers, guns
			Charge(r, Side{Unit: &x}, Side{Unit: &y}, &a, 6, 0, overwatch)
		}},
		{"Attack.Roll, every rule", func() { u := start; rich.Roll(r, &u) }},
		{"Attack.ExpectedCasualties, every rule", func() { _ = rich.ExpectedCasualties(&start) }},
		{"Attack.Roll, Murderous Strike and Rending", func() { u := start; murder.Roll(r, &u) }},
		{"Attack.Fire", func() { f, u := firer, start; rich.Fire(r, &f, &u) }},
		{"Attack.Retarget", func() { rich.Retarget(3, DefaultOptions) }},
		{"Charge, Overwatch that Gets Hot", func() {
			x, y := chargers, NewUnit(marine, 5)
			Charge(r, Side{Unit: &x}, Side{Unit: &y}, &hot, 6, 0, overwatch)
		}},
		{"Attack.ExpectedCasualties, Murderous Strike", func() { _ = murder.ExpectedCasualties(&start) }},
		{"Fight", func() {
			x, y := chargers, guns
			Fight(r, Side{Unit: &x, Charged: true}, Side{Unit: &y}, DefaultOptions)
		}},
	}
	for _, c := range cases {
		c.f()
		// One run of a hundred calls counts every allocation, where
		// AllocsPerRun's count per run rounds a rare one down to 0. The
		// count is the process's, which the runtime's own allocations may
		// join: the least of three, each replaying the same stream, where
		// an allocation of the calls' comes back every time.
		least := math.Inf(1)
		for range 3 {
			least = min(least, testing.AllocsPerRun(1, func() {
				r.Seed(1, 0)
				for range 100 {
					c.f()
				}
			}))
		}
		if least != 0 {
			t.Errorf("%s: %v allocations in 100 runs, want 0", c.name, least)
		}
	}
}

var sinkTally Tally

func BenchmarkAttackRoll(b *testing.B) {
	r := dice.New(1, 0)
	p := marine
	p.FiringProtocols = 2
	firer := NewUnit(p, 10)
	start := Unit{Profile: Profile{T: 4, W: 2, Save: 3, FeelNoPain: 6}, Models: 10}
	var a Attack
	a.Prepare(&firer, []Weapon{flamer, lascan, hbolter}, &start, DefaultOptions)
	b.ReportAllocs()
	for b.Loop() {
		u := start
		sinkTally = a.Roll(r, &u)
	}
}

var sinkResult CombatResult

func BenchmarkFight(b *testing.B) {
	r := dice.New(1, 0)
	chargers, guns := NewUnit(marine, 10), NewUnit(rapier, 3)
	b.ReportAllocs()
	for b.Loop() {
		x, y := chargers, guns
		sinkResult = Fight(r, Side{Unit: &x, Charged: true}, Side{Unit: &y}, DefaultOptions)
	}
}

var sinkFloat float64

func BenchmarkExpectedCasualties(b *testing.B) {
	for _, models := range []int{5, 20} {
		b.Run(fmt.Sprintf("models=%d", models), func(b *testing.B) {
			firer := NewUnit(marine, models)
			target := Unit{Profile: Profile{T: 4, W: 3, Save: 3}, Models: models}
			var a Attack
			a.Prepare(&firer, []Weapon{flamer}, &target, DefaultOptions)
			b.ReportAllocs()
			for b.Loop() {
				sinkFloat = a.ExpectedCasualties(&target)
			}
		})
	}
}

// BenchmarkAttackRollRules is BenchmarkAttackRoll's attack with weapons
// carrying the rules that leave the fast path (Rending, Brutal,
// Master-crafted, Gets Hot, Deflagrate, Murderous Strike, Shred), to
// price them against the plain one in the same run.
func BenchmarkAttackRollRules(b *testing.B) {
	r := dice.New(1, 0)
	p := marine
	p.FiringProtocols = 2
	firer := NewUnit(p, 10)
	start := Unit{Profile: Profile{T: 4, W: 2, Save: 3, FeelNoPain: 6}, Models: 10}
	var a Attack
	a.Prepare(&firer, []Weapon{
		{Name: "flamer", Template: true, S: 4, AP: 5, Shred: true},
		{Name: "rend", Shots: dice.Const(2), S: 5, AP: 4, Rending: 5, Brutal: 2, MasterCrafted: true, GetsHot: true},
		{Name: "volkite", Shots: dice.Const(3), S: 5, AP: 5, Deflagrate: true, MurderousStrike: 6},
	}, &start, DefaultOptions)
	b.ReportAllocs()
	for b.Loop() {
		u := start
		sinkTally = a.Roll(r, &u)
	}
}
