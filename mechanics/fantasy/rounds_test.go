package fantasy

import (
	"math"
	"slices"
	"testing"
	"time"

	"hammersim/mechanics/dice"
)

// TestRoundsStopAtTheCap: two unbreakable units that cannot hurt each other
// fight until the combat ends, which it never does: MaxRounds rounds, and
// the cap is reported.
func TestRoundsStopAtTheCap(t *testing.T) {
	a := foot("A", 10, 5, 3, 3, 3, 3, 0, 8, NoSave)
	d := foot("D", 10, 5, 3, 3, 3, 3, 0, 8, NoSave)
	a.Unbreakable, d.Unbreakable = true, true
	b := battle(a, d, 0, PhaseCombat)
	b.Options.Rounds = 0
	s := b.NewState()
	b.Run(dice.New(1, 0), s)
	if s.Out.Rounds != MaxRounds || !s.Out.RoundCap {
		t.Errorf("rounds %d, cap %v; want %d and the cap reported", s.Out.Rounds, s.Out.RoundCap, MaxRounds)
	}
	b.Options.Rounds = 3
	b.Run(dice.New(1, 0), s)
	if s.Out.Rounds != 3 || s.Out.RoundCap {
		t.Errorf("rounds: 3 fought %d, cap %v", s.Out.Rounds, s.Out.RoundCap)
	}
}

// TestRoundCapAtTheBattlesEnd: a combat that a first combat phase leaves
// at the cap is fought on by a second, and counts as stopped only if that
// one stops too. Neither side strikes; the attacker's standard wins each
// round by 1, and the Stubborn loser tests on its Ld 10 unmodified,
// passing with p = 33/36. The first phase reaches the cap with chance
// p^50 (1.3%, about 260 of 20,000 trials); the combat is still going
// after both with p^100 (0.02%). In every trial the cap is reported
// exactly when 100 rounds were fought and the loser stands.
func TestRoundCapAtTheBattlesEnd(t *testing.T) {
	a := foot("Banner", 5, 5, 3, 3, 3, 3, 0, 7, NoSave)
	a.Standard = true
	d := foot("Stubborn", 5, 5, 3, 3, 3, 3, 0, 10, NoSave)
	d.Stubborn = true
	b := battle(a, d, 0, PhaseCombat, PhaseCombat)
	b.Options.Rounds = 0
	s := b.NewState()
	r := dice.New(4, 0)
	long := 0
	for range 20_000 {
		b.Run(r, s)
		if s.Out.Rounds > MaxRounds {
			long++
		}
		if want := s.Out.Rounds == 2*MaxRounds && !s.Units[1].Broke; s.Out.RoundCap != want {
			t.Fatalf("rounds %d, loser broke %v: cap %v, want %v", s.Out.Rounds, s.Units[1].Broke, s.Out.RoundCap, want)
		}
	}
	if long == 0 {
		t.Error("no trial fought past the first phase's cap: the test checks nothing")
	}
}

// TestRoundCapEndedByBolts: a combat stopped at the cap and then ended by
// a later shooting phase (Zzzzap! bolts destroy the lone, unbreakable
// target that nothing could hurt in combat) is not reported as stopped at
// the cap. The crew have no attacks, so every combat reaches the cap; it
// is reported exactly when the target still stands at the end.
func TestRoundCapEndedByBolts(t *testing.T) {
	a := chariot("")
	a.Zzzzap = true
	d := foot("Lone", 1, 1, 3, 3, 3, 3, 0, 7, NoSave)
	d.Unbreakable = true
	b := battle(a, d, 0, PhaseCombat, PhaseShooting)
	b.Options.Rounds = 0
	s := b.NewState()
	r := dice.New(6, 0)
	destroyed := 0
	for range 4000 {
		b.Run(r, s)
		if s.Units[1].Alive == 0 {
			destroyed++
		}
		if want := s.Units[1].Alive > 0 && s.Units[0].Alive > 0; s.Out.RoundCap != want {
			t.Fatalf("target alive %d, chariot alive %d: cap %v, want %v", s.Units[1].Alive, s.Units[0].Alive, s.Out.RoundCap, want)
		}
	}
	if destroyed == 0 {
		t.Error("the bolts never destroyed the target: the test checks nothing")
	}
}

// TestChargeBonusOnlyInTheFirstRound: five charge five (M 10 from 1"),
// nobody strikes, the target is unbreakable and has a musician. Round 1:
// charge +1 against 0, the target loses. Round 2: 0 against 0, a draw the
// musician wins by 1; the charger, at Ld 2 without Insane Courage, cannot
// pass and breaks. Were the charge bonus kept, round 2 would be 1 against 0
// and the charger would never break.
func TestChargeBonusOnlyInTheFirstRound(t *testing.T) {
	a := foot("Chargers", 5, 5, 3, 3, 3, 3, 0, 2, NoSave)
	a.Mover = Mover{M: 10}
	d := foot("Holders", 5, 5, 3, 3, 3, 3, 0, 8, NoSave)
	d.Unbreakable, d.Musician = true, true
	b := battle(a, d, 1, PhaseCharge, PhaseCombat)
	b.Options.Rounds, b.Options.InsaneCourage, b.Options.Pursue = 0, false, PursueNever
	s := b.NewState()
	b.Run(dice.New(2, 0), s)
	if s.Out.CombatResult != 1 || s.Out.Rounds != 2 || !s.Units[0].Broke || !s.Won(1) || s.Won(0) {
		t.Errorf("first result %d, rounds %d, charger broke %v, target won %v; want 1, 2, true, true",
			s.Out.CombatResult, s.Out.Rounds, s.Units[0].Broke, s.Won(1))
	}
}

// TestImpactHitsThenGrind: a machine with Impact Hits (2) and a Grind
// Attack charges a wall it cannot break. Round 1: 2 Impact Hits, no grind
// (it charged). Rounds 2 and 3: D3+1 each (mean 3). Over three rounds: 2 +
// 2 x 3 = 8 on average, at least 6 and at most 10. A Dread Maw-style
// charger's Impact Hits come once: 2 over three rounds.
func TestImpactHitsThenGrind(t *testing.T) {
	a := chariot("2")
	a.GrindAttack = true
	a.Mover = Mover{M: 10}
	a.Unbreakable = true
	wall := foot("Wall", 200, 10, 3, 3, 10, 3, 0, 10, 1) // T10, 2+: hardly wounded
	wall.Unbreakable = true
	b := battle(a, wall, 1, PhaseCharge, PhaseCombat)
	b.Options.Rounds = 3
	s := b.NewState()
	r := dice.New(3, 0)
	const n = 40_000
	sum := 0
	for range n {
		b.Run(r, s)
		h := s.Out.ImpactHits
		if h < 6 || h > 10 || s.Out.Rounds != 3 {
			t.Fatalf("impact and grind hits %d in %d rounds; want 6 to 10 in 3", h, s.Out.Rounds)
		}
		sum += h
	}
	// Two D3+1: variance 2 x 2/3.
	if z := (float64(sum)/n - 8) / math.Sqrt(4.0/3/n); math.Abs(z) > 5 {
		t.Errorf("hits over three rounds %.4f, want 8, z %.1f", float64(sum)/n, z)
	}
	a.GrindAttack = false
	for range 100 {
		b.Run(r, s)
		if s.Out.ImpactHits != 2 {
			t.Fatalf("Impact Hits over three rounds %d, want 2 (the charge round only)", s.Out.ImpactHits)
		}
	}
}

// TestDreadMawStrikesFirstOnlyOnItsCharge: in the first round after its
// charge the Maw (I 1) strikes in the Always Strikes First band, re-rolling
// nothing, since its I 1 + 1 does not beat the wall's I 5; in later rounds
// it strikes in Initiative order, after the wall.
func TestDreadMawStrikesFirstOnlyOnItsCharge(t *testing.T) {
	maw := monster("Maw", 100)
	maw.DreadMaw = true
	wall := foot("Wall", 25, 5, 3, 3, 3, 5, 1, 10, NoSave)
	units := [2]*Unit{maw, wall}
	states := [2]*UnitState{{Alive: 1, Charged: true}, {Alive: 25}}
	var groups [maxGroups]strikeGroup
	n := strikeOrder(&groups, units, states, true, 1)
	if n != 2 || groups[0].side != 0 || groups[0].band != bandFirst || groups[0].reroll != noReroll {
		t.Errorf("first round: %+v; the Maw strikes first, re-rolling nothing", groups[:n])
	}
	n = strikeOrder(&groups, units, states, false, 1)
	if n != 2 || groups[0].side != 1 || groups[1].band != bandNormal || groups[1].init != 1 {
		t.Errorf("second round: %+v; the wall (I 5) strikes before the Maw (I 1)", groups[:n])
	}
}

// TestRanksRecomputedEachRound: the rank bonus follows the models left:
// 30 five wide +3; after losing 16 (14 left: two full ranks) +1.
func TestRanksRecomputedEachRound(t *testing.T) {
	u := foot("Block", 30, 5, 3, 3, 3, 3, 0, 8, NoSave)
	if rankBonus(u, 30) != 3 || rankBonus(u, 14) != 1 {
		t.Errorf("rank bonus at 30 and 14 models: %d, %d; want 3, 1", rankBonus(u, 30), rankBonus(u, 14))
	}
}

// doomwheelCombat is a Doomwheel (Random Movement 3D6, Impact Hits D6+1,
// Grind Attack, crew with 2D6 Random Attacks) against thirty Clanrats six
// wide with a champion, standard and musician, fought to the end.
func doomwheelCombat() *Battle {
	a := chariot("D6+1")
	a.GrindAttack, a.Terror, a.Ld = true, true, 7
	a.Attackers[0].A = dice.MustParse("2D6")
	rats := foot("Clanrats", 30, 6, 3, 3, 3, 4, 1, 5, 5)
	rats.Parry, rats.Standard, rats.Musician = 6, true, true
	rats.Attackers = append(rats.Attackers, Attacker{Name: "Clawleader", WS: 3, S: 3, I: 4, A: dice.Const(2), PerBody: 1, Champion: true})
	b := battle(a, rats, 8, PhaseCharge, PhaseCombat)
	b.Options.Rounds = 0
	return b
}

// TestCombatToTheEndAllocatesNothing: a whole combat, every round of it,
// allocates nothing.
func TestCombatToTheEndAllocatesNothing(t *testing.T) {
	b := doomwheelCombat()
	s := b.NewState()
	r := dice.New(1, 0)
	if allocs := allocationsIn(2000, r, func() { b.Run(r, s) }); allocs != 0 {
		t.Fatalf("a combat to the end allocates %v times", allocs)
	}
	// And it ends: within the cap, with exactly one winner or none.
	for range 2000 {
		b.Run(r, s)
		if s.Out.RoundCap || (s.Won(0) && s.Won(1)) {
			t.Fatalf("rounds %d, cap %v, both won", s.Out.Rounds, s.Out.RoundCap)
		}
	}
}

// countDraws returns how many D6 results a trial of b drew from a
// generator seeded (seed, 0): a twin generator is stepped one D6 at a time
// until its whole state equals the trial's. Every Fantasy roll is a D6 (D3
// and the Artillery dice are read from a D6), so the count is exact.
func countDraws(b *Battle, s *State, seed uint64) int {
	r, twin := dice.New(seed, 0), dice.New(seed, 0)
	b.Run(r, s)
	n := 0
	for *twin != *r {
		twin.D6()
		n++
		if n > 1_000_000 {
			panic("fantasy: a trial drew something other than D6 results")
		}
	}
	return n
}

// BenchmarkCombatToTheEnd times whole Doomwheel-against-Clanrats combats
// (charge, then rounds until one side breaks or dies) and, in the same run,
// the raw D6 draws they consume: draws/trial counts them, ns/trial is a
// trial's time, and trial/draws is that time over the time of drawing as
// many D6 results alone. Trials and raw draws alternate in short chunks,
// and both figures are medians over the chunk pairs: on a shared machine a
// chunk the scheduler interrupted is an outlier, and the median ignores it
// where a sum would charge it to whichever side it fell in.
func BenchmarkCombatToTheEnd(b *testing.B) {
	bt := doomwheelCombat()
	s := bt.NewState()
	const sample = 4000
	total := 0
	for seed := range uint64(sample) {
		total += countDraws(bt, s, seed+1)
	}
	perTrial := float64(total) / sample
	r, raw := dice.New(1, 0), dice.New(2, 0)
	const chunk = 100
	drawsPerChunk := int(perTrial * chunk)
	var perTrialNs, ratios []float64
	sink := 0
	b.ResetTimer()
	for trials := 0; trials < b.N; trials += chunk {
		t0 := time.Now()
		for range chunk {
			bt.Run(r, s)
		}
		t1 := time.Now()
		for range drawsPerChunk {
			sink += raw.D6()
		}
		t2 := time.Now()
		perTrialNs = append(perTrialNs, float64(t1.Sub(t0).Nanoseconds())/chunk)
		ratios = append(ratios, float64(t1.Sub(t0))/float64(t2.Sub(t1)))
	}
	drawSink = sink
	b.ReportMetric(perTrial, "draws/trial")
	b.ReportMetric(median(perTrialNs), "ns/trial")
	b.ReportMetric(median(ratios), "trial/draws")
}

// median returns the median of xs, which it sorts.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

var drawSink int

// staticCombat is ten infantry five wide in the rear of thirty (Ld 8),
// nobody striking, engaged from the start: every round the rear unit
// scores one extra rank +1 and rear +2 = 3, the thirty (disrupted by two
// ranks of five in their rear) only their higher Unit Strength, 1. They
// lose by 2 and, disrupted, test on Ld 8 - 2 = 6: pass 15/36.
func staticCombat(rounds int) *Battle {
	a := foot("Rear", 10, 5, 3, 3, 3, 3, 0, 10, NoSave)
	a.Rear = true
	d := foot("Block", 30, 5, 3, 3, 3, 3, 0, 8, NoSave)
	b := battle(a, d, 0, PhaseCombat)
	b.Options.Rounds = rounds
	return b
}

// TestExactStaticCombat pins the closed forms of a combat no blow is
// struck in to hand-derived values, and checks them against trials.
//
// With p = 15/36 the chance to pass, over N rounds: broke 1 - p^N, rounds
// 1 + p + ... + p^(N-1), the cap reached p^N (rounds: all, N = 50). Both
// units flee and pursue on 2D6: caught when the pursuit ties or beats the
// flight, (1 + P(tie))/2 with P(tie) = (1+4+9+16+25+36+25+16+9+4+1)/1296 =
// 146/1296, so 721/1296. Caught, the block takes 2 wounds per point of the
// rear unit's Unit Strength, 20, and survives.
func TestExactStaticCombat(t *testing.T) {
	p := 15.0 / 36
	caught := 721.0 / 1296
	for _, tt := range []struct {
		rounds             int
		broke, meanRounds  float64
		roundCap, capKnown bool
	}{
		{1, 1 - p, 1, false, false},
		{3, 1 - p*p*p, 1 + p + p*p, false, false},
		{0, 1 - math.Pow(p, MaxRounds), (1 - math.Pow(p, MaxRounds)) / (1 - p), true, true},
	} {
		b := staticCombat(tt.rounds)
		ex := ExactBattle(b)
		want := []struct {
			m    BattleMetric
			unit int
			v    float64
		}{
			{BattleCombatResult, 0, 2},
			{BattleRounds, 0, tt.meanRounds},
			{BattleBroke, 1, tt.broke},
			{BattleBroke, 0, 0},
			{BattleWon, 0, tt.broke},
			{BattleWon, 1, 0},
			{BattleCaught, 1, tt.broke * caught},
			{BattleWounds, 1, tt.broke * caught * 20},
			{BattleKilled, 1, tt.broke * caught * 20},
			{BattleDestroyed, 1, 0},
		}
		for _, w := range want {
			got, has := ex.Value(w.m, w.unit)
			if !has || math.Abs(got-w.v) > 1e-12 {
				t.Errorf("rounds %d, metric %d unit %d: %v (%v), want %v", tt.rounds, w.m, w.unit, got, has, w.v)
			}
		}
		if c, has := ex.Value(BattleRoundCap, 0); has != tt.capKnown || (has && math.Abs(c-math.Pow(p, MaxRounds)) > 1e-15) {
			t.Errorf("rounds %d: round cap %v (%v)", tt.rounds, c, has)
		}
		// Trials agree within 5 standard errors.
		s := b.NewState()
		r := dice.New(21, 0)
		const n = 40_000
		var broke, rounds, rounds2 float64
		for range n {
			b.Run(r, s)
			if s.Units[1].Broke {
				broke++
			}
			k := float64(s.Out.Rounds)
			rounds += k
			rounds2 += k * k
		}
		if z := zProb(int(broke), n, tt.broke); math.Abs(z) > 5 {
			t.Errorf("rounds %d: broke %v of %d, exact %.4f, z %.1f", tt.rounds, broke, n, tt.broke, z)
		}
		sd := math.Sqrt(rounds2/n - (rounds/n)*(rounds/n))
		if sd > 0 {
			if z := (rounds/n - tt.meanRounds) / (sd / math.Sqrt(n)); math.Abs(z) > 5 {
				t.Errorf("rounds %d: mean rounds %.4f, exact %.4f, z %.1f", tt.rounds, rounds/n, tt.meanRounds, z)
			}
		}
	}
	// A blow that can be struck takes the combat to exactCombat, round by
	// round (TestExactRoundMatchesTrials).
	b := staticCombat(2)
	b.Units[1].Attackers[0].A = dice.Const(1)
	if _, has := ExactBattle(b).Value(BattleRounds, 0); !has {
		t.Error("a combat of two rounds with attacks has no closed form for its rounds")
	}
}

// TestExactStaticCombatKilledOfSeveralWounds: the block of
// TestExactStaticCombat with 3 Wounds a model (90 in all) fights as
// before, since Wounds change neither Unit Strength nor ranks: it breaks
// with 21/36 in one round and is caught with 721/1296 of those. Caught,
// it takes 20 wounds, which remove 20/3 = 6 whole models and wound a
// seventh: models_killed is 6 times the chance of the catch, wounds 20
// times it. Trials agree within 5 standard errors.
func TestExactStaticCombatKilledOfSeveralWounds(t *testing.T) {
	b := staticCombat(1)
	b.Units[1].W = 3
	caught := 21.0 / 36 * 721 / 1296
	ex := ExactBattle(b)
	for _, w := range []struct {
		m    BattleMetric
		unit int
		v    float64
	}{
		{BattleCaught, 1, caught},
		{BattleWounds, 1, 20 * caught},
		{BattleKilled, 1, 6 * caught},
		{BattleKilled, 0, 0},
		{BattleDestroyed, 1, 0},
	} {
		if got, has := ex.Value(w.m, w.unit); !has || math.Abs(got-w.v) > 1e-12 {
			t.Errorf("metric %d unit %d: %v (%v), want %v", w.m, w.unit, got, has, w.v)
		}
	}
	s := b.NewState()
	r := dice.New(8, 0)
	const n = 40_000
	six := 0
	for range n {
		b.Run(r, s)
		switch lost := b.Units[1].Models - s.Units[1].Alive; lost {
		case 6:
			six++
		case 0:
		default:
			t.Fatalf("the block lost %d models; 0 or 6 can be", lost)
		}
	}
	if z := zProb(six, n, caught); math.Abs(z) > 5 {
		t.Errorf("six models lost in %d of %d trials, exact %.4f, z %.1f", six, n, caught, z)
	}
}

// TestExactStaticCombatIgnoresImpactHits: Impact Hits come only with a
// charge, so units that have them (Cavalry get Impact Hits (1) from their
// troop type) fight the static combat of TestExactStaticCombat all the
// same: its closed form stands (break with 1 - 15/36 in one round), and no
// trial makes an Impact Hit.
func TestExactStaticCombatIgnoresImpactHits(t *testing.T) {
	b := staticCombat(1)
	b.Units[0].Impact, b.Units[1].Impact = dice.Const(1), dice.Const(1)
	got, has := ExactBattle(b).Value(BattleBroke, 1)
	if want := 1 - 15.0/36; !has || math.Abs(got-want) > 1e-15 {
		t.Fatalf("broke %v (%v), want 21/36", got, has)
	}
	s := b.NewState()
	r := dice.New(5, 0)
	for range 1000 {
		b.Run(r, s)
		if s.Out.ImpactHits != 0 {
			t.Fatalf("a static combat made %d Impact Hits", s.Out.ImpactHits)
		}
	}
}

// BenchmarkCombatRepeated measures what a full combat (the trial of
// BenchmarkCombatToTheEnd) costs once the processor has learnt the
// branches it takes. The same 200 seeds are run 50 times each in two
// orders, in the same run: each seed's 50 trials in a row (every trial
// but a seed's first follows the path of the one before: learnt), and
// round-robin, every seed once before any again (200 different trials
// apart: not learnt). Both orders make the same trials, with the same
// dice, and reseed before each; the reseeding is timed alone and taken
// out. The raw D6 draws those trials consume are timed in the same run.
// learnt/trial and round-robin/trial are a trial's ns; learnt/draws is the
// learnt trial over its raw draws.
func BenchmarkCombatRepeated(b *testing.B) {
	bt := doomwheelCombat()
	s := bt.NewState()
	const seeds, repeat = 200, 50
	total := 0
	for seed := range uint64(seeds) {
		total += countDraws(bt, s, 1000+seed)
	}
	perTrial := float64(total) / seeds
	r, raw := dice.New(1, 0), dice.New(2, 0)
	var learnt, rr, reseed, draws time.Duration
	n := 0
	sink := 0
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		for seed := range uint64(seeds) {
			for range repeat {
				r.Seed(1000+seed, 0)
				bt.Run(r, s)
			}
		}
		t1 := time.Now()
		for range repeat {
			for seed := range uint64(seeds) {
				r.Seed(1000+seed, 0)
				bt.Run(r, s)
			}
		}
		t2 := time.Now()
		for range repeat {
			for seed := range uint64(seeds) {
				r.Seed(1000+seed, 0)
			}
		}
		sink += r.D6()
		t3 := time.Now()
		for range int(perTrial * seeds * repeat) {
			sink += raw.D6()
		}
		t4 := time.Now()
		learnt, rr = learnt+t1.Sub(t0), rr+t2.Sub(t1)
		reseed, draws = reseed+t3.Sub(t2), draws+t4.Sub(t3)
		n += seeds * repeat
	}
	drawSink = sink
	b.ReportMetric(perTrial, "draws/trial")
	b.ReportMetric(float64((learnt-reseed).Nanoseconds())/float64(n), "learnt/trial")
	b.ReportMetric(float64((rr-reseed).Nanoseconds())/float64(n), "round-robin/trial")
	b.ReportMetric(float64(learnt-reseed)/float64(draws), "learnt/draws")
}

// TestFlightIsPlaced: a unit that breaks from combat is moved its flee
// roll (2D6 for these M 5 foot) away from the enemy it fought, for the
// phases that follow. A block of ten at Ld 1 without Insane Courage always
// breaks: charged in the rear by ten (rank +1 and rear +2 against
// nothing: those two ranks of five disrupt the block, which loses its own
// rank bonus, and the Unit Strengths are equal); or, as the acting unit,
// ten in front of thirty (ranks +3 and Unit Strength +1 against rank +1). A third unit, 5" from
// the acting unit and immune to psychology, stays put when the target
// flees, and moves as far as the acting unit when that one flees, since
// distances are kept from it along one line. The flee rolls are checked
// against 2D6 by chi-square (df 10, 29.59 at p = 0.001). The third unit,
// which never fights, wins nothing when the acting unit breaks.
func TestFlightIsPlaced(t *testing.T) {
	twoD6 := dice.MustParse("2D6").Dist()
	for _, loser := range []int{1, 0} {
		a := foot("Acting", 10, 5, 3, 3, 3, 3, 0, 10, NoSave)
		d := foot("Block", 10, 5, 3, 3, 3, 3, 0, 1, NoSave)
		if loser == 1 {
			a.Rear = true
		} else {
			a.Ld, d.Ld, d.Models = 1, 10, 30
		}
		other := foot("Other", 10, 5, 3, 3, 3, 3, 0, 7, NoSave)
		other.ImmunePsychology = true
		b := &Battle{Units: []*Unit{a, d, other}, Enemy: []bool{false, true, true},
			Distance: []int{0, 0, 5}, Phases: []Phase{PhaseCombat, PhaseShooting}, Options: DefaultOptions}
		b.Options.InsaneCourage, b.Options.Pursue = false, PursueNever
		s := b.NewState()
		r := dice.New(12, 0)
		const n = 20_000
		var counts [13]float64
		for range n {
			b.Run(r, s)
			if !s.Units[loser].Broke {
				t.Fatalf("unit %d passed a break test on Ld 1 without Insane Courage", loser)
			}
			flee := s.Units[1].Distance
			if loser == 0 && s.Units[2].Distance != 5+flee {
				t.Fatalf("the acting unit fled %d\", the third unit stands %d\" from it, want %d", flee, s.Units[2].Distance, 5+flee)
			}
			if loser == 1 && s.Units[2].Distance != 5 {
				t.Fatalf("the target fled, yet the third unit stands %d\" away, want 5", s.Units[2].Distance)
			}
			if s.Won(2) {
				t.Fatal("the third unit, an enemy of the acting unit that never fought it, won")
			}
			if flee < 2 || flee > 12 {
				t.Fatalf("unit %d fled %d\", not a 2D6 roll", loser, flee)
			}
			counts[flee]++
		}
		chi := 0.0
		for v := 2; v <= 12; v++ {
			e := twoD6.At(v) * n
			chi += (counts[v] - e) * (counts[v] - e) / e
		}
		if chi > 29.59 {
			t.Errorf("unit %d's flight: chi-square %.1f > 29.59 against 2D6", loser, chi)
		}
	}
}

// TestPursuersArePlaced: a pursuer moves its pursuit roll (2D6 for these
// M 5 foot) after the unit it pursued, or to 1" behind one it caught that
// lives on (WAP, Caught! and Move Pursuers); the other units' distances
// are left as they were. The blocks are those of TestFlightIsPlaced, with
// Pursue on and Wounds enough that the wounds of a catch (two per point of
// the pursuers' Unit Strength) leave the caught unit standing. A third
// unit, immune to psychology, stands on the line 30" from the acting unit.
//
// A flee roll f and a pursuit roll p are independent 2D6: the pursuers
// catch when p >= f, with chance (1 + P(tie))/2 = (1 + 146/1296)/2 =
// 0.55633 (P(tie) is the sum of the squared 2D6 chances), checked within 4
// standard errors. An escape leaves the two f - p apart, whose chance of k
// >= 1 is the sum over v of P(v) P(v+k), over P(p < f); when the acting
// unit flees, the third unit's distance tells f as well, whose rolls are
// checked against 2D6. Both by chi-square (df 9 and 10: 27.88 and 29.59
// at p = 0.001).
func TestPursuersArePlaced(t *testing.T) {
	twoD6 := dice.MustParse("2D6").Dist()
	const pCatch = (1 + 146.0/1296) / 2
	for _, loser := range []int{1, 0} {
		a := foot("Acting", 10, 5, 3, 3, 3, 3, 0, 10, NoSave)
		d := foot("Block", 10, 5, 3, 3, 3, 3, 0, 1, NoSave)
		a.W, d.W = 3, 3
		if loser == 1 {
			a.Rear = true
		} else {
			// Thirty pursuers make 60 wounds of a catch: seven Wounds a
			// model keep the ten standing.
			a.Ld, d.Ld, d.Models, a.W = 1, 10, 30, 7
		}
		other := foot("Other", 10, 5, 3, 3, 3, 3, 0, 7, NoSave)
		other.ImmunePsychology = true
		b := &Battle{Units: []*Unit{a, d, other}, Enemy: []bool{false, true, true},
			Distance: []int{0, 0, 30}, Phases: []Phase{PhaseCombat, PhaseShooting}, Options: DefaultOptions}
		b.Options.InsaneCourage = false
		s := b.NewState()
		r := dice.New(13, 0)
		const n = 20_000
		var gaps, flights [13]float64
		caught, escaped := 0, 0
		for range n {
			b.Run(r, s)
			if !s.Units[loser].Broke || s.Units[loser].Alive == 0 {
				t.Fatalf("unit %d: broke %v, alive %d; want it broken and standing", loser, s.Units[loser].Broke, s.Units[loser].Alive)
			}
			d1, d2 := s.Units[1].Distance, s.Units[2].Distance
			f := 0 // the flee roll, when the third unit tells it
			if loser == 0 {
				f = d2 - 30
				if f < 2 || f > 12 {
					t.Fatalf("the acting unit fled %d\", not a 2D6 roll", f)
				}
				flights[f]++
			} else if d2 != 30 {
				t.Fatalf("the third unit stands %d\" away after the target fled, want 30", d2)
			}
			if s.Units[loser].Caught {
				if d1 != 1 {
					t.Fatalf("unit %d, caught, stands %d\" from its pursuer, want 1", loser, d1)
				}
				caught++
				continue
			}
			if d1 < 1 || d1 > 10 || loser == 0 && f-d1 < 2 {
				t.Fatalf("unit %d escaped to %d\" of its pursuer (flee roll %d): not f - p for 2D6 rolls f > p", loser, d1, f)
			}
			gaps[d1]++
			escaped++
		}
		chi := 0.0
		for k := 1; k <= 10; k++ {
			pk := 0.0
			for v := 2; v+k <= 12; v++ {
				pk += twoD6.At(v) * twoD6.At(v+k)
			}
			e := pk / (1 - pCatch) * float64(escaped)
			chi += (gaps[k] - e) * (gaps[k] - e) / e
		}
		if chi > 27.88 {
			t.Errorf("unit %d: gaps after an escape, chi-square %.1f > 27.88", loser, chi)
		}
		if loser == 0 {
			chi := 0.0
			for v := 2; v <= 12; v++ {
				e := twoD6.At(v) * n
				chi += (flights[v] - e) * (flights[v] - e) / e
			}
			if chi > 29.59 {
				t.Errorf("flee rolls: chi-square %.1f > 29.59 against 2D6", chi)
			}
		}
		se := math.Sqrt(pCatch * (1 - pCatch) / n)
		if got := float64(caught) / n; math.Abs(got-pCatch) > 4*se {
			t.Errorf("unit %d caught in %.4f of trials, want %.4f ± %.4f (4 SE)", loser, got, pCatch, 4*se)
		}
	}
}

// TestChargeOnAFleeingTarget: a target that flees as its charge reaction
// (target_flees) is caught when the charge reaches its new place, and the
// charger stops 1" behind what is left of it
// (WAP/movement/charging-a-fleeing-enemy); short of it, the charge has
// failed and the charger moves its failed-charge roll closer. Ten M 5 foot
// without Swiftstride charge from 8": reach 5 + the highest of two dice
// (h), a failed charge moves h; the target flees 2D6 (f), and its 30
// wounds outlast the 20 of a catch. So the charge succeeds when
// 5 + h >= 8 + f, and a failed one leaves 8 + f - h between them (6" or
// more, so never clamped to 1"; 6" to 19", fourteen values). Both are
// worked out over the 6^4 rolls and checked: the success rate within 4
// standard errors, the distances of failures by chi-square (df 13, 34.53
// at p = 0.001).
func TestChargeOnAFleeingTarget(t *testing.T) {
	pHit, pGap := 0.0, map[int]float64{}
	for h1 := 1; h1 <= 6; h1++ {
		for h2 := 1; h2 <= 6; h2++ {
			for f1 := 1; f1 <= 6; f1++ {
				for f2 := 1; f2 <= 6; f2++ {
					h, f := max(h1, h2), f1+f2
					if 5+h >= 8+f {
						pHit += 1.0 / 1296
					} else {
						pGap[8+f-h] += 1.0 / 1296
					}
				}
			}
		}
	}
	a := foot("Acting", 10, 5, 3, 3, 3, 3, 0, 10, NoSave)
	d := foot("Target", 10, 5, 3, 3, 3, 3, 0, 7, NoSave)
	d.W = 3
	b := battle(a, d, 8, PhaseCharge, PhaseShooting)
	b.Options.TargetFlees = true
	s := b.NewState()
	r := dice.New(15, 0)
	const n = 40_000
	hits := 0
	gaps := map[int]float64{}
	for range n {
		b.Run(r, s)
		ts := s.Units[1]
		if !ts.Fled || ts.Alive == 0 {
			t.Fatalf("target: fled %v, alive %d; want it fled and standing", ts.Fled, ts.Alive)
		}
		if s.Out.ChargeSuccess {
			if !ts.Caught || ts.Distance != 1 {
				t.Fatalf("a charge that reached: caught %v, %d\" apart; want caught, 1\"", ts.Caught, ts.Distance)
			}
			hits++
			continue
		}
		if ts.Caught || s.Units[0].Engaged {
			t.Fatal("a charge that fell short caught the target or engaged")
		}
		gaps[ts.Distance]++
	}
	se := math.Sqrt(pHit * (1 - pHit) / n)
	if got := float64(hits) / n; math.Abs(got-pHit) > 4*se {
		t.Errorf("charges that reached: %.4f, want %.4f ± %.4f (4 SE)", got, pHit, 4*se)
	}
	chi, df := 0.0, -1
	for g, p := range pGap {
		e := p / (1 - pHit) * float64(n-hits)
		chi += (gaps[g] - e) * (gaps[g] - e) / e
		df++
		delete(gaps, g)
	}
	if len(gaps) > 0 {
		t.Errorf("failed charges left distances no roll makes: %v", gaps)
	}
	if df != 13 || chi > 34.53 {
		t.Errorf("distances after a failed charge: chi-square %.1f > 34.53, or df %d, not 13", chi, df)
	}
}
