package fantasy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"hammersim/mechanics/dice"
)

// binom is the chance of k successes in n tries of chance p (gonum's
// binomial law).
func binom(n, k int, p float64) float64 {
	return distuv.Binomial{N: float64(n), P: p}.Prob(float64(k))
}

// TestExactRoundByHand pins one round with blows on both sides to values
// worked out here, by a route of its own. Two lines of five infantry
// (one rank each, so no rank bonus and no Steadfast), engaged from the
// start (no charge bonus), WS 3 against WS 3 (4+ to hit), S 3 against T 3
// (4+ to wound), no saves: each attack is an unsaved wound with chance
// 1/2 x 1/2 = 1/4. The first unit strikes first (I 5 against 3), so it
// deals i ~ Binomial(5, 1/4) and the j the other deals is Binomial(5 - i,
// 1/4). Each side scores its wounds, +1 for the higher Unit Strength
// (5 - j against 5 - i). The loser takes its break test on Ld 7 less the
// difference; a unit the blows destroy (i = 5, or j = 5 after i = 0)
// takes none and the other wins; nobody pursues.
func TestExactRoundByHand(t *testing.T) {
	a := foot("Swordsmen", 5, 5, 3, 3, 3, 5, 1, 7, NoSave)
	e := foot("Spearmen", 5, 5, 3, 3, 3, 3, 1, 7, NoSave)
	b := battle(a, e, 0, PhaseCombat)
	b.Options.Rounds, b.Options.Pursue = 1, PursueNever
	var result, wounds0, wounds1 float64
	var broke, won [2]float64
	for i := 0; i <= 5; i++ {
		for j := 0; j <= 5-i; j++ {
			p := binom(5, i, 0.25) * binom(5-i, j, 0.25)
			cr := [2]int{i + flag(i > j), j + flag(j > i)}
			result += p * float64(cr[0]-cr[1])
			wounds0 += p * float64(j)
			wounds1 += p * float64(i)
			if i == 5 || j == 5 { // a side destroyed: the other won
				won[flag(j == 5)] += p
				continue
			}
			if cr[0] == cr[1] {
				continue
			}
			loser := 0
			if cr[1] < cr[0] {
				loser = 1
			}
			fail := 1 - Ld2D6Pass(7-(cr[1-loser]-cr[loser]), b.Options.InsaneCourage)
			broke[loser] += p * fail
			won[1-loser] += p * fail
		}
	}
	ex := ExactBattle(b)
	for _, tc := range []struct {
		name   string
		metric BattleMetric
		unit   int
		want   float64
	}{
		{"combat result", BattleCombatResult, 0, result},
		{"first unit broke", BattleBroke, 0, broke[0]},
		{"second unit broke", BattleBroke, 1, broke[1]},
		{"first unit won", BattleWon, 0, won[0]},
		{"second unit won", BattleWon, 1, won[1]},
		{"first unit's wounds", BattleWounds, 0, wounds0},
		{"second unit's wounds", BattleWounds, 1, wounds1},
		{"first unit destroyed", BattleDestroyed, 0, binom(5, 0, 0.25) * binom(5, 5, 0.25)},
		{"second unit destroyed", BattleDestroyed, 1, binom(5, 5, 0.25)},
		{"rounds", BattleRounds, 0, 1},
	} {
		got, has := ex.Value(tc.metric, tc.unit)
		if !has || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, has, tc.want)
		}
	}
	// E[i] - E[j] + P(i > j) - P(j > i), with E[j] = E[5 - i]/4.
	if want := 1.25 - 0.9375; math.Abs(wounds1-wounds0-want) > 1e-12 {
		t.Errorf("the hand sums: wounds %v - %v, want a difference of %v", wounds1, wounds0, want)
	}
	d, has := ex.Dist(BattleCombatResult, 0)
	if !has || math.Abs(d.Mean()-result) > 1e-12 {
		t.Errorf("combat result distribution: mean %v, %v; want %v", d.Mean(), has, result)
	}
	matchesTrials(t, b, 41, 100_000, roundProbes)
}

// openingProbes read the acting unit's opening hits over every round of a
// trial, and the wounds they did.
var openingProbes = []exactProbe{
	{"impact_hits", BattleImpactHits, 0, func(s *State) float64 { return float64(s.Out.ImpactHits) }},
	{"impact_wounds", BattleImpactWounds, 0, func(s *State) float64 { return float64(s.Out.ImpactWounds) }},
}

// roundProbes read a one-round battle's metrics from a trial.
var roundProbes = func() []exactProbe {
	f := func(b bool) float64 { return float64(flag(b)) }
	var ps []exactProbe
	ps = append(ps, exactProbe{"combat_result", BattleCombatResult, 0, func(s *State) float64 { return float64(s.Out.CombatResult) }},
		exactProbe{"rounds", BattleRounds, 0, func(s *State) float64 { return float64(s.Out.Rounds) }})
	ps = append(ps, openingProbes...)
	for side := range 2 {
		ps = append(ps,
			exactProbe{fmt.Sprint("broke ", side), BattleBroke, side, func(s *State) float64 { return f(s.Units[side].Broke) }},
			exactProbe{fmt.Sprint("won ", side), BattleWon, side, func(s *State) float64 { return f(s.Won(side)) }},
			exactProbe{fmt.Sprint("caught ", side), BattleCaught, side, func(s *State) float64 { return f(s.Units[side].Caught) }},
			exactProbe{fmt.Sprint("wounds ", side), BattleWounds, side, func(s *State) float64 { return float64(s.Units[side].Wounds) }},
			exactProbe{fmt.Sprint("destroyed ", side), BattleDestroyed, side, func(s *State) float64 { return f(s.Units[side].Destroyed()) }},
		)
	}
	return ps
}()

// roundCapProbe reads whether a combat fought to the end was stopped at
// MaxRounds.
var roundCapProbe = exactProbe{"round_cap", BattleRoundCap, 0, func(s *State) float64 { return float64(flag(s.Out.RoundCap)) }}

// TestExactRoundMatchesTrials holds the closed form of a combat, of one
// round and fought to the end, to trials of the battles themselves, within
// 5 standard errors (fixed seeds), across the rules a round applies: ranks, supporting attacks and
// Steadfast after casualties, Random Attacks, Killing Blow on models of
// several wounds, Multiple Wounds, Stomps, Always Strikes First with its
// re-roll, a champion, wards and Parry, a charge's Impact Hits beside the
// charger's own blows, a Terror-causer's charge from which the target may
// flee and be caught (by two Wounds a point of Unit Strength, or
// destroyed), a Dread Maw, pursuit and Caught wounds.
func TestExactRoundMatchesTrials(t *testing.T) {
	for i, tc := range []struct {
		name  string
		build func() *Battle
	}{
		{"ranks, Random Attacks and a pursuit", func() *Battle {
			a := foot("Wildmen", 15, 5, 3, 4, 3, 3, 0, 7, NoSave)
			a.Attackers[0].A = dice.MustParse("D3")
			e := foot("Spearmen", 20, 5, 3, 3, 3, 3, 1, 8, 5)
			b := battle(a, e, 0, PhaseCombat)
			b.Options.Rounds = 1
			return b
		}},
		{"Killing Blow on two-wound models", func() *Battle {
			a := foot("Executioners", 10, 5, 5, 5, 3, 5, 1, 8, 5)
			a.Attackers[0].Killing = true
			e := foot("Ogres", 4, 4, 3, 4, 4, 2, 3, 7, 6)
			e.Troop, e.W, e.FrontMM, e.US = Infantry, 2, 40, 3
			e.Attackers[0].A = dice.Const(3)
			b := battle(a, e, 0, PhaseCombat)
			b.Options.Rounds = 1
			return b
		}},
		{"Multiple Wounds (D3) on a monster, its Stomp and Always Strikes First", func() *Battle {
			a := foot("Halberdiers", 20, 5, 4, 4, 3, 4, 1, 7, 6)
			a.Attackers[0].Multiple = dice.MustParse("D3")
			a.Attackers[0].ASF = true
			e := foot("Giant", 1, 1, 3, 6, 5, 3, 2, 10, NoSave)
			e.Troop, e.W, e.FrontMM, e.US, e.Stomp = Monster, 6, 50, 6, true
			b := battle(a, e, 0, PhaseCombat)
			b.Options.Rounds = 1
			return b
		}},
		{"a champion, wards and Parry", func() *Battle {
			a := foot("Swordmasters", 12, 6, 6, 5, 3, 6, 2, 8, 6)
			a.Attackers = append(a.Attackers, Attacker{Name: "Bladelord", WS: 6, S: 5, I: 6, A: dice.Const(3), PerBody: 1, Champion: true})
			a.Ward = 5
			e := foot("Guard", 20, 5, 4, 3, 3, 4, 1, 8, 4)
			e.Parry = 6
			b := battle(a, e, 0, PhaseCombat)
			b.Options.Rounds = 1
			return b
		}},
		{"a charge's Impact Hits and the crew's blows", func() *Battle {
			c := chariot("D6")
			c.Attackers[0].A = dice.Const(2)
			e := foot("Clanrats", 20, 5, 3, 3, 3, 4, 1, 5, 6)
			b := battle(c, e, 2, PhaseCharge, PhaseCombat)
			b.Options.Rounds = 1
			return b
		}},
		{"a Terror-causer's charge, held or fled from and caught", func() *Battle {
			g := foot("Giant", 1, 1, 3, 6, 5, 3, 3, 10, NoSave)
			g.Troop, g.W, g.FrontMM, g.US, g.Stomp, g.Terror, g.Mover = Monster, 6, 50, 6, true, true, Mover{M: 6}
			e := foot("Spearmen", 20, 5, 3, 3, 3, 3, 1, 7, 5)
			return battle(g, e, 6, PhaseCharge, PhaseCombat)
		}},
		{"the same, a caught unit destroyed", func() *Battle {
			g := foot("Giant", 1, 1, 3, 6, 5, 3, 3, 10, NoSave)
			g.Troop, g.W, g.FrontMM, g.US, g.Stomp, g.Terror, g.Mover = Monster, 6, 50, 6, true, true, Mover{M: 6}
			e := foot("Spearmen", 20, 5, 3, 3, 3, 3, 1, 7, 5)
			b := battle(g, e, 6, PhaseCharge, PhaseCombat)
			b.Options.Caught = CaughtDestroyed
			return b
		}},
		{"a Dread Maw's charge", func() *Battle {
			m := foot("Dread Maw", 1, 1, 4, 6, 6, 2, 4, 8, 4)
			m.Troop, m.W, m.FrontMM, m.US, m.DreadMaw, m.Mover = Monster, 6, 50, 6, true, Mover{M: 6}
			e := foot("Knights", 8, 4, 4, 4, 3, 3, 1, 8, 2)
			e.Troop, e.FrontMM = Cavalry, 25
			b := battle(m, e, 3, PhaseCharge, PhaseCombat)
			b.Options.Rounds = 1
			return b
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.build()
			if err := b.Validate(); err != nil {
				t.Fatal(err)
			}
			matchesTrials(t, b, uint64(70+i), 100_000, roundProbes)
			// The same fought to the end.
			b.Options.Rounds = 0
			matchesTrials(t, b, uint64(170+i), 100_000, append(roundProbes[:len(roundProbes):len(roundProbes)], roundCapProbe))
		})
	}
}

// TestExactRoundRandomBattles holds the closed form of a combat (of one
// round, two, three, or fought to the end) to trials of 100 battles drawn
// at random (fixed seeds): units of 1 to 25 models,
// of several Wounds, Cavalry and Monsters, Random Attacks, Killing Blow,
// Multiple Wounds, Always Strikes First and Last, Stomps, wards and
// Parry, standards, musicians, Fear, Terror (a charge the target may flee
// and be caught), Stubborn, Unbreakable, Skirmishers,
// champions, flank and rear fights and charges with Impact Hits, with and
// without a pursuit. A combat past MaxCombatWork would have no closed form;
// all 100 are within it (the two longest take 2.4 and 2.5 x 10^7 steps:
// one an Unbreakable unit of 21 worn down over some fifteen rounds, whose
// enemy breaks first with a chance of 2 in 10 million). Each probe agrees
// within 5 standard errors of 40,000 trials; where the trials saw no
// spread (an event none of them met), the standard error is the one the
// exact distribution or chance gives.
func TestExactRoundRandomBattles(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	one := func(xs ...string) dice.Expr { return dice.MustParse(xs[rng.IntN(len(xs))]) }
	chance := func(n int) bool { return rng.IntN(n) == 0 }
	unit := func(name string) *Unit {
		n := 1 + rng.IntN(25)
		u := foot(name, n, min(1+rng.IntN(6), n), 2+rng.IntN(5), 2+rng.IntN(5), 2+rng.IntN(4), 1+rng.IntN(6), 1, 5+rng.IntN(5), 2+rng.IntN(6))
		switch rng.IntN(6) {
		case 0:
			u.Troop, u.W, u.FrontMM, u.US, u.Stomp = Monster, 3+rng.IntN(4), 50, 3, chance(2)
			u.Models = 1 + rng.IntN(2)
			u.Width = 1 + rng.IntN(u.Models)
		case 1:
			u.Troop, u.FrontMM, u.US, u.W = Cavalry, 25, 2, 1+rng.IntN(2)
		case 2:
			u.W, u.FrontMM = 2+rng.IntN(2), 40
		}
		a := &u.Attackers[0]
		a.A = one("1", "2", "D3", "D6", "0")
		a.Killing, a.ASF, a.ASL = chance(5), chance(6), chance(8)
		if chance(5) {
			a.Multiple = one("D3", "2", "D6")
		}
		if chance(5) {
			u.Ward = 4 + rng.IntN(3)
		}
		if chance(5) {
			u.Parry = 6
		}
		u.Standard, u.Musician, u.Fear, u.Terror = chance(3), chance(3), chance(6), chance(10)
		u.Stubborn, u.Unbreakable = chance(8), chance(12)
		u.Skirmishers = u.Troop == Infantry && chance(8)
		if chance(4) && u.Models > 2 {
			u.Attackers = append(u.Attackers, Attacker{Name: "champion", WS: u.WS, S: u.S, I: u.I, A: dice.Const(1 + rng.IntN(2)), PerBody: 1, Champion: true})
		}
		return u
	}
	checked := 0
	for k := range 100 {
		a, e := unit("A"), unit("E")
		var b *Battle
		if chance(2) {
			b = battle(a, e, 0, PhaseCombat)
			a.Flank = chance(4)
			a.Rear = !a.Flank && chance(4)
		} else {
			// M 8 and 2D6 always reach 2": every trial fights.
			a.Mover = Mover{M: 8}
			if chance(3) {
				a.Impact = one("1", "D3", "D6")
			}
			b = battle(a, e, 2, PhaseCharge, PhaseCombat)
		}
		b.Options.Rounds = []int{1, 1, 2, 3, 0}[rng.IntN(5)]
		if chance(2) {
			b.Options.Pursue = PursueNever
		}
		if err := b.Validate(); err != nil {
			t.Fatalf("battle %d: %v", k, err)
		}
		probes := roundProbes
		if b.Options.Rounds == 0 {
			probes = append(probes[:len(probes):len(probes)], roundCapProbe)
		}
		ex, work := ExactBattleWithin(b, MaxCombatWork)
		if _, has := ex.Value(BattleCombatResult, 0); !has {
			// Only a combat at the work bound has none: past it, or with
			// too little of it left for its next round's opening hits.
			if work < 0.9*MaxCombatWork {
				t.Errorf("battle %d: no closed form, after %.3g steps", k, work)
			}
			continue
		}
		checked++
		t.Run(fmt.Sprint("battle ", k), func(t *testing.T) { matchesTrials(t, b, uint64(1000+k), 40_000, probes) })
	}
	if checked < 100 {
		t.Errorf("%d battles checked against trials, want all 100", checked)
	}
}

// TestExactCombatBounds: a combat's closed form stays within its bounds,
// and a combat known to pass them is refused before the work is done.
// Two units of 1,000 models of 20 Wounds would need grids of 20,001 x
// 20,001 cells (3.2 GB each), past maxGridCells: no closed form, and no
// step taken. A combat given no budget has none, whatever its size, while
// the charge before it keeps its own; given MaxCombatWork, a heavy
// combat fought to the end stops at about that many steps (within the
// steps of one round's start state, far below it) rather than running on.
func TestExactCombatBounds(t *testing.T) {
	huge := func(n, w int) *Unit {
		u := foot("Giants", n, 10, 4, 4, 4, 3, 2, 8, NoSave)
		u.Troop, u.W, u.FrontMM, u.US = MonstrousInfantry, w, 40, 3
		return u
	}
	b := battle(huge(1000, 20), huge(1000, 20), 0, PhaseCombat)
	b.Options.Rounds = 1
	ex, work := ExactBattleWithin(b, MaxCombatWork)
	if _, has := ex.Value(BattleCombatResult, 0); has || work != 0 {
		t.Errorf("1,000 models of 20 Wounds a side: closed form %v after %.3g steps; want none and none", has, work)
	}

	charge := battle(foot("Swordsmen", 10, 5, 4, 3, 3, 4, 1, 8, 5), foot("Spearmen", 10, 5, 3, 3, 3, 3, 1, 7, 5), 2, PhaseCharge, PhaseCombat)
	charge.Units[0].Mover = Mover{M: 8}
	ex, _ = ExactBattleWithin(charge, 0)
	if _, has := ex.Value(BattleCombatResult, 0); has {
		t.Error("a combat given no budget has a closed form")
	}
	if p, has := ex.Value(BattleChargeSuccess, 0); !has || p != 1 {
		t.Errorf("the charge (M 8 and 2D6 against 2\"): %v, %v; want 1", p, has)
	}

	// A hundred chariots of 10 mm bases rolling Impact Hits (30D6) each
	// into a horde could make 18,000 hits: adding them up and thinning them
	// (18,000 squared steps) passes the bound, and is refused before it is
	// done, for the Impact Hits and the combat alike, spending nothing.
	carts := foot("Carts", 100, 100, 3, 5, 5, 3, 1, 7, NoSave)
	carts.Troop, carts.FrontMM, carts.Impact, carts.Mover = Chariot, 10, dice.MustParse("30D6"), Mover{M: 6}
	horde := foot("Horde", 1000, 100, 3, 3, 3, 3, 1, 7, NoSave)
	horde.FrontMM = 10
	rush := battle(carts, horde, 5, PhaseCharge, PhaseCombat)
	rush.Options.Rounds = 1
	ex, work = ExactBattleWithin(rush, MaxCombatWork)
	_, impact := ex.Value(BattleImpactHits, 0)
	_, result := ex.Value(BattleCombatResult, 0)
	if impact || result || work > 1e6 {
		t.Errorf("a hundred chariots with Impact Hits (30D6): impact %v, combat %v after %.3g steps; want neither, spending little", impact, result, work)
	}

	heavy := battle(huge(60, 3), huge(60, 3), 0, PhaseCombat)
	heavy.Units[0].Attackers[0].Multiple = dice.MustParse("D3")
	heavy.Options.Rounds = 0
	ex, work = ExactBattleWithin(heavy, MaxCombatWork)
	if _, has := ex.Value(BattleCombatResult, 0); has || work < MaxCombatWork || work > 1.1*MaxCombatWork {
		t.Errorf("a heavy combat to the end: closed form %v after %.3g steps; want none, after about %.3g", has, work, float64(MaxCombatWork))
	}
}

// TestExactZzzzapCombat holds the closed form of a Doomwheel's turn of
// Random Movement, Zzzzap! and combat (the Stormvermin beside it, a friend
// the bolts strike when it is nearest) to trials, within 5 standard errors
// of 200,000 (fixed seeds): the combat starts from the wounds the bolts
// left on the Clanrats, or a Disaster on the Doomwheel (one die fewer to
// flee and pursue), or whole after a Burst of Speed (4D6), at 6", 9" and
// 12", of one round and fought to the end; the Stormvermin keep the bolts'
// losses.
func TestExactZzzzapCombat(t *testing.T) {
	for i, d := range []int{6, 9, 12} {
		for _, rounds := range []int{1, 0} {
			b := doomwheelTurn(d)
			b.Options.Rounds = rounds
			probes := append(roundProbes[:len(roundProbes):len(roundProbes)],
				exactProbe{"Stormvermin wounds", BattleWounds, 2, func(s *State) float64 { return float64(s.Units[2].Wounds) }})
			if rounds == 0 {
				probes = append(probes, roundCapProbe)
			}
			matchesTrials(t, b, uint64(300+10*i+rounds), 200_000, probes)
		}
	}
}

// TestExactOpeningHits: impact_hits and impact_wounds of a combat of
// several rounds, by hand. A Grind Attack makes D3+1 hits a round (mean
// 3) in every round in which the machine did not charge; engaged from the
// start, that is every round. S6 wounds T3 on 2+, through no armour.
//   - Against 30 Unbreakable models, which strike no blow, the machine
//     (Unbreakable too) grinds 3 rounds: 9 hits, 9 x 5/6 = 7.5 wounds
//     (at most 12 of the 30, so none is lost to the cap).
//   - Against 2 such models, for one round, the wounds stop at the 2 the
//     unit has: E[min(W, 2)] with W ~ Bin(h, 5/6) and h = 2, 3, 4 alike,
//     is 2 - 2 P(W = 0) - P(W = 1): (60/36 + 415/216 + 2570/1296) / 3 =
//     7220/3888 (uncapped it would be 2.5).
//
// Where Impact Hits on the charge have a closed form of their own
// (exactImpact, with distributions), the combat's rounds give the same
// means, to 1e-12.
func TestExactOpeningHits(t *testing.T) {
	grinder := func() *Unit {
		a := chariot("")
		a.GrindAttack, a.Unbreakable = true, true
		return a
	}
	wall := func(n, rounds int) *Battle {
		w := foot("Wall", n, min(n, 10), 3, 3, 3, 3, 0, 10, NoSave)
		w.Unbreakable = true
		b := battle(grinder(), w, 0, PhaseCombat)
		b.Options.Rounds = rounds
		return b
	}
	for _, tc := range []struct {
		name         string
		b            *Battle
		hits, wounds float64
	}{
		{"three rounds against 30", wall(30, 3), 9, 7.5},
		{"one round against 2", wall(2, 1), 3, 7220.0 / 3888},
	} {
		ex := ExactBattle(tc.b)
		for _, m := range []struct {
			metric BattleMetric
			want   float64
		}{{BattleImpactHits, tc.hits}, {BattleImpactWounds, tc.wounds}} {
			if got, has := ex.Value(m.metric, 0); !has || math.Abs(got-m.want) > 1e-12 {
				t.Errorf("%s: metric %d exact %v (%v), want %v", tc.name, m.metric, got, has, m.want)
			}
		}
		matchesTrials(t, tc.b, 61, 40_000, openingProbes)
	}

	one := doomwheelCombat()
	one.Options.Rounds = 1
	for _, b := range []*Battle{impactBattle("D6"), impactBattle("2D6"), one} {
		want := ExactBattle(b)
		_, pCombat, _, _ := exactCharge(b)
		got := BattleExact{values: map[battleKey]float64{}, dists: map[battleKey]dice.Dist{}, mishap: map[int]float64{}}
		exactCombat(b, combatStart{p: pCombat}, true, got, MaxCombatWork)
		for _, metric := range []BattleMetric{BattleImpactHits, BattleImpactWounds} {
			w, hasW := want.Value(metric, 0)
			g, hasG := got.Value(metric, 0)
			if _, isDist := want.Dist(metric, 0); !hasW || !hasG || !isDist || math.Abs(g-w) > 1e-12 {
				t.Errorf("%s, metric %d: the rounds give %v (%v), the charge's closed form %v (%v)", b.Units[0].Name, metric, g, hasG, w, hasW)
			}
		}
	}
}

// TestExactLongCombat: two blocks of infantry fought to the end, 20
// Halberdiers (S 4) against 40 Clanrats, both with standards, engaged from
// the start. The Clanrats stay Steadfast for long, and a combat may last
// dozens of rounds, though the chance that it is still going about halves
// each round. Its closed form keeps each round fought from a state once,
// with how each of its ends comes out (round), and leaves the combats whose
// chance falls below negligibleCombat:
//   - every value is the same, to the last bit, whether the rounds are kept
//     or each worked out again, and keeping them takes less than a fifth of
//     the steps (0.14 of them when this test was written: 4.6 x 10^6
//     against 3.3 x 10^7);
//   - every probe agrees with 40,000 trials within 5 standard errors.
func TestExactLongCombat(t *testing.T) {
	h := foot("Halberdiers", 20, 5, 3, 4, 3, 3, 1, 7, 6)
	r := foot("Clanrats", 40, 5, 3, 3, 3, 4, 1, 5, 6)
	h.Standard, r.Standard = true, true
	b := battle(h, r, 0, PhaseCombat)
	b.Options.Rounds = 0
	kept, keptWork := ExactBattleWithin(b, MaxCombatWork)
	keep := maxKeptEnds
	t.Cleanup(func() { maxKeptEnds = keep })
	maxKeptEnds = 0
	again, againWork := ExactBattleWithin(b, MaxCombatWork)
	maxKeptEnds = keep
	if keptWork == 0 || keptWork > againWork/5 {
		t.Errorf("%.3g steps keeping the rounds, %.3g without: want less than a fifth", keptWork, againWork)
	}
	type key struct {
		metric BattleMetric
		unit   int
	}
	keys := []key{{BattleCombatResult, 0}, {BattleRounds, 0}, {BattleRoundCap, 0}}
	for _, m := range []BattleMetric{BattleWounds, BattleKilled, BattleDestroyed, BattleBroke, BattleCaught, BattleWon} {
		keys = append(keys, key{m, 0}, key{m, 1})
	}
	for _, k := range keys {
		v, has := kept.Value(k.metric, k.unit)
		w, hasW := again.Value(k.metric, k.unit)
		if !has || !hasW || v != w {
			t.Errorf("metric %d, unit %d: %v (%v) keeping the rounds, %v (%v) without", k.metric, k.unit, v, has, w, hasW)
		}
	}
	matchesTrials(t, b, 71, 40_000, append(roundProbes[:len(roundProbes):len(roundProbes)], roundCapProbe))
}
