package fantasy

import (
	"math"
	"testing"

	"hammersim/mechanics/dice"
)

// TestTroopTypeValues pins each troop type's Unit Strength and rank size
// to its source: Unit Strength 1 (Infantry, War Beasts), 2 (Cavalry), 3
// (Monstrous Infantry, Monstrous Beasts, Swarms), 4 (Monstrous Cavalry)
// and the Wounds of the others; ranks of three for the monstrous rank-and-file
// types and of five for the rest (the WAP troop-type pages; 8th edition,
// Monstrous Ranks).
func TestTroopTypeValues(t *testing.T) {
	for _, tt := range []struct {
		troop    TroopType
		us, rank int
	}{
		{Infantry, 1, 5}, {WarBeasts, 1, 5}, {Cavalry, 2, 5},
		{MonstrousInfantry, 3, 3}, {MonstrousBeast, 3, 3}, {MonstrousCavalry, 4, 3},
		{Swarm, 3, 5}, {Monster, 7, 5}, {Chariot, 7, 5}, {WarMachine, 7, 5},
		// The WAP reference chart's Large Infantry: ranks of four, Unit
		// Strength 1.
		{LargeInfantry, 1, 4},
	} {
		if us := tt.troop.UnitStrength(7); us != tt.us {
			t.Errorf("%v: Unit Strength %d with 7 wounds, want %d", tt.troop, us, tt.us)
		}
		if k := tt.troop.RankSize(); k != tt.rank {
			t.Errorf("%v: a rank needs %d models, want %d", tt.troop, k, tt.rank)
		}
	}
	// Killing Blow and Stomp name Infantry, which takes in Large Infantry
	// (a reading), and support caps: two for Large Infantry.
	if !LargeInfantry.KillingBlowSlays() || !LargeInfantry.Stompable() || !LargeInfantry.FightsInRanks() {
		t.Error("Large Infantry: not slain by Killing Blow, not stomped, or not fighting in ranks, as Infantry is")
	}
	if c := supportCap(&Unit{Troop: LargeInfantry}, 0, 3); c != 2 {
		t.Errorf("Large Infantry support with %d attacks, want 2", c)
	}
}

// TestMonstrousRanks counts ranks, rank bonus and Steadfast for units of
// a few shapes, each worked out by hand from the rank sizes above.
func TestMonstrousRanks(t *testing.T) {
	for _, tt := range []struct {
		troop        TroopType
		models, wide int
		ranks, bonus int
		steadfast    bool // losing to a unit of Unit Strength 5, at 3 a model
	}{
		// Six in two ranks of three: two ranks, +1; a front of three is a
		// rank for Ogres, not for Infantry. Every unit here has Unit
		// Strength 3 a model (at least 18 >= 10, and > 5), so only its
		// ranks decide Steadfast.
		{MonstrousInfantry, 6, 3, 2, 1, true},
		{Infantry, 6, 3, 0, 0, false},
		// Seven three wide: a last rank of one does not count.
		{MonstrousInfantry, 7, 3, 2, 1, true},
		// Eleven four wide: 4 + 4 + 3, three ranks, +2.
		{MonstrousCavalry, 11, 4, 3, 2, true},
		// Eight two wide: no rank of three at all, and no Steadfast.
		{MonstrousBeast, 8, 2, 0, 0, false},
		// Twenty five wide: four ranks either way.
		{Infantry, 20, 5, 4, 3, true},
		{MonstrousInfantry, 20, 5, 4, 3, true},
		// Fourteen Ogres seven wide: 7 + 7, two ranks.
		{MonstrousInfantry, 14, 7, 2, 1, true},
		// Eight Large Infantry four wide: 4 + 4, two ranks, +1, where
		// Infantry has none.
		{LargeInfantry, 8, 4, 2, 1, true},
		{Infantry, 8, 4, 0, 0, false},
	} {
		u := foot("Unit", tt.models, tt.wide, 3, 3, 3, 3, 1, 7, NoSave)
		u.Troop, u.US = tt.troop, 3
		if got := fullRanks(u, tt.models); got != tt.ranks {
			t.Errorf("%v, %d models %d wide: %d ranks, want %d", tt.troop, tt.models, tt.wide, got, tt.ranks)
		}
		if got := rankBonus(u, tt.models); got != tt.bonus {
			t.Errorf("%v, %d models %d wide: rank bonus %d, want %d", tt.troop, tt.models, tt.wide, got, tt.bonus)
		}
		st := &UnitState{Alive: tt.models}
		if got := steadfast(u, st, 5, false, false); got != tt.steadfast {
			t.Errorf("%v, %d models %d wide: Steadfast %v, want %v", tt.troop, tt.models, tt.wide, got, tt.steadfast)
		}
	}
}

// ogresInTheRear is six Ogres (Monstrous Infantry, Unit Strength 3) three
// wide in the rear of thirty infantry five wide (Ld 8), nobody striking,
// engaged from the start, one round. By hand:
//
//   - the Ogres: two ranks of three, +1; rear +2; Unit Strength 18 against
//     30 earns nothing: 3. Their two ranks disrupt the thirty
//     (disrupt_ranks 2), which lose their rank bonus and Steadfast.
//   - the thirty: the higher Unit Strength, +1.
//
// The thirty lose by 2 and test on Ld 8 - 2 = 6: 2D6 <= 6 is 15/36, so they
// break with 21/36. The same unit as Infantry (Unit Strength still 3)
// has no rank at three wide: it scores the rear's 2 and disrupts nothing,
// and the thirty score +1 and six ranks of five, +3: 4. Now the unit in
// the rear loses by 2, on Ld 8 - 2 = 6, and breaks with 21/36.
func ogresInTheRear(troop TroopType) *Battle {
	o := foot("Ogres", 6, 3, 3, 4, 4, 2, 0, 8, NoSave)
	o.Troop, o.US, o.FrontMM, o.W, o.Rear = troop, 3, 40, 3, true
	d := foot("Block", 30, 5, 3, 3, 3, 3, 0, 8, NoSave)
	return battle(o, d, 0, PhaseCombat)
}

func TestMonstrousRanksInCombat(t *testing.T) {
	const broke = 21.0 / 36
	for _, tt := range []struct {
		troop  TroopType
		result float64 // the Ogres' combat result less the block's
		loser  int
	}{
		{MonstrousInfantry, 2, 1},
		{Infantry, -2, 0},
	} {
		b := ogresInTheRear(tt.troop)
		ex := ExactBattle(b)
		if got, has := ex.Value(BattleCombatResult, 0); !has || got != tt.result {
			t.Errorf("%v: combat result %v (%v), want %v", tt.troop, got, has, tt.result)
		}
		if got, has := ex.Value(BattleBroke, tt.loser); !has || math.Abs(got-broke) > 1e-15 {
			t.Errorf("%v: unit %d breaks with %v (%v), want 21/36", tt.troop, tt.loser, got, has)
		}
		// Trials agree within 5 standard errors.
		s := b.NewState()
		r := dice.New(31, 0)
		const n = 40_000
		k := 0
		for range n {
			b.Run(r, s)
			if s.Out.CombatResult != int(tt.result) {
				t.Fatalf("%v: a trial's combat result is %d, want %v", tt.troop, s.Out.CombatResult, tt.result)
			}
			if s.Units[tt.loser].Broke {
				k++
			}
		}
		if z := zProb(k, n, broke); math.Abs(z) > 5 {
			t.Errorf("%v: unit %d broke %d of %d, exact 21/36, z %.1f", tt.troop, tt.loser, k, n, z)
		}
	}
}

// TestMonstrousCavalrySupport: six Monstrous Cavalry three wide on 50 mm
// bases against a wall ten wide (every front model touches it), which
// strikes nothing. Each front model strikes with all its Attacks, and each
// of the three behind supports (WAP, troop types, Monstrous Cavalry):
//
//   - a rider (A 1) and his mount (A 3): the riders 3 + 3*1 = 6 attacks;
//     the mounts 3*3 + 3*min(3, cap) with cap = monstrous_support: 18 (3),
//     15 (2), 12 (1).
//   - one profile for rider and mount (A 4): 3*4 + 3*min(4, cap + 1): 24
//     (3), 21 (2), 18 (1).
//
// The same unit as Cavalry supports with one attack a profile, riders 6
// and mounts 9 + 3 = 12, and with one profile up to two (WAP, troop types,
// Cavalry): 12 + 3*2 = 18. (Large Infantry, below, are not riders; the
// profiles only test their cap of two a profile.)
func TestMonstrousCavalrySupport(t *testing.T) {
	split := []Attacker{
		{Name: "Rider", WS: 4, S: 4, I: 3, A: dice.Const(1), PerBody: 1},
		{Name: "Mount", WS: 4, S: 5, I: 2, A: dice.Const(3), PerBody: 1},
	}
	single := []Attacker{{Name: "Beast", WS: 4, S: 5, I: 2, A: dice.Const(4), PerBody: 1}}
	for _, tt := range []struct {
		troop     TroopType
		attackers []Attacker
		monstrous int
		want      []int // attacks of each profile, in Initiative order
	}{
		{MonstrousCavalry, split, 3, []int{6, 18}},
		{MonstrousCavalry, split, 2, []int{6, 15}},
		{MonstrousCavalry, split, 1, []int{6, 12}},
		{MonstrousCavalry, single, 3, []int{24}},
		{MonstrousCavalry, single, 2, []int{21}},
		{MonstrousCavalry, single, 1, []int{18}},
		{Cavalry, split, 3, []int{6, 12}},
		{Cavalry, single, 3, []int{18}},
		// Large Infantry support with up to two of their Attacks (the WAP
		// reference chart): 3*4 + 3*2 = 18; split, 3 + 3 and 9 + 3*2.
		{LargeInfantry, single, 3, []int{18}},
		{LargeInfantry, split, 3, []int{6, 15}},
	} {
		u := foot("Riders", 6, 3, 4, 4, 5, 3, 1, 8, NoSave)
		u.Troop, u.FrontMM, u.W, u.Attackers = tt.troop, 50, 4, tt.attackers
		got := attacksAgainstAWall(u, tt.monstrous)
		if len(got) != len(tt.want) {
			t.Fatalf("%v, %d profiles: %d strike groups, want %d", tt.troop, len(tt.attackers), len(got), len(tt.want))
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%v, %d profiles, monstrous_support %d: group %d makes %d attacks, want %d",
					tt.troop, len(tt.attackers), tt.monstrous, i, got[i], tt.want[i])
			}
		}
	}
}

// TestMonstrousCavalryChampion: a champion does not make a unit's single
// profile a split one: six Monstrous Cavalry of one profile (A 4) with a
// champion still support with up to monstrous_support + 1, 4: the front
// makes 2*4 (one place is the champion's), the three behind 3*4.
func TestMonstrousCavalryChampion(t *testing.T) {
	u := foot("Riders", 6, 3, 4, 4, 5, 3, 4, 8, NoSave)
	u.Troop, u.FrontMM, u.W = MonstrousCavalry, 50, 4
	u.Attackers = append(u.Attackers, Attacker{Name: "Champion", WS: 4, S: 4, I: 3, A: dice.Const(5), PerBody: 1, Champion: true})
	if mountOf(u) >= 0 {
		t.Fatal("a champion made the unit's profile split")
	}
	if got := supportCap(u, 0, 3); got != 4 {
		t.Errorf("supportCap %d, want 4", got)
	}
	if got := countAttacks(dice.New(1, 0), u, &u.Attackers[0], 3, 3, true, supportCap(u, 0, 3)); got != 2*4+3*4 {
		t.Errorf("%d attacks, want %d", got, 2*4+3*4)
	}
}

// TestTroopRulesParse: every troop type's rules are rules of the
// Catalogue, allowed on that troop type, each once.
func TestTroopRulesParse(t *testing.T) {
	for i := range len(troopNames) {
		tt := TroopType(i)
		seen := map[string]bool{}
		for _, text := range tt.Rules() {
			r, err := Catalogue.Parse(text)
			if err != nil {
				t.Errorf("%v: %q: %v", tt, text, err)
				continue
			}
			if ok, _ := AllowedOn(r.Spec.Name, tt); !ok {
				t.Errorf("%v: %s is not allowed on it", tt, r.Spec.Name)
			}
			if seen[r.Spec.Name] {
				t.Errorf("%v: %s twice", tt, r.Spec.Name)
			}
			seen[r.Spec.Name] = true
		}
	}
}

// TestChariotsInTheSecondRank: six chariots three wide with Impact Hits
// (2) charge rats six wide (120 mm: the three 50 mm chariots of the front
// rank touch). Each chariot of the second rank adds D3 to the one in front
// of it (W9E, troop types, Chariots): 3 x 2 + 3D3 hits, mean 6 + 6 = 12.
// Against rats two wide (40 mm) two chariots touch, one along their front
// and one at its corner (40/50 + 2 = 2, touching): 2 x 2 + 2D3, mean 8;
// the third chariot of the front rank, and the one behind it, make none.
// Four chariots
// three wide have one behind: 6 + D3. The exact distribution is checked
// against trials by chi-square.
func TestChariotsInTheSecondRank(t *testing.T) {
	for _, tt := range []struct {
		models, ratsWide int
		hits             string // the dice of the charge's Impact Hits
	}{
		{6, 6, "3D3+6"},
		{6, 2, "2D3+4"},
		{4, 6, "D3+6"},
		{3, 6, "6"},
	} {
		a := chariot("2")
		a.Models, a.Width = tt.models, 3
		a.Mover = Mover{M: 10}
		rats := foot("Rats", 60, tt.ratsWide, 3, 3, 3, 3, 0, 10, NoSave)
		rats.Unbreakable = true
		b := battle(a, rats, 1, PhaseCharge, PhaseCombat)
		want := dice.MustParse(tt.hits).Dist()
		exact, has := ExactBattle(b).Dist(BattleImpactHits, 0)
		if !has {
			t.Fatalf("%d chariots, rats %d wide: no exact impact hits", tt.models, tt.ratsWide)
		}
		for v := min(exact.Min, want.Min); v <= max(exact.Max(), want.Max()); v++ {
			if math.Abs(exact.At(v)-want.At(v)) > 1e-15 {
				t.Errorf("%d chariots, rats %d wide: exact P(%d hits) %v, want %v", tt.models, tt.ratsWide, v, exact.At(v), want.At(v))
			}
		}
		s := b.NewState()
		r := dice.New(41, 0)
		const n = 30_000
		counts := map[int]float64{}
		for range n {
			b.Run(r, s)
			counts[s.Out.ImpactHits]++
		}
		// Chi-square with len(P)-1 degrees of freedom; 29.59 is the p =
		// 0.001 critical value for 10, above any here (at most 6).
		chi := 0.0
		for v := want.Min; v <= want.Max(); v++ {
			e := want.At(v) * n
			chi += (counts[v] - e) * (counts[v] - e) / e
			delete(counts, v)
		}
		if len(counts) > 0 || chi > 29.59 {
			t.Errorf("%d chariots, rats %d wide: impact hits outside %s %v, chi-square %.1f", tt.models, tt.ratsWide, tt.hits, counts, chi)
		}
	}
}

// TestMonstrousCavalryRiders: with two riders before the mount (a rider
// before his mount), each rider supports with one attack whatever his A,
// and only the last profile, the mount, with up to monstrous_support.
func TestMonstrousCavalryRiders(t *testing.T) {
	u := foot("Riders", 6, 3, 4, 4, 5, 3, 0, 8, NoSave)
	u.Troop = MonstrousCavalry
	u.Attackers = []Attacker{
		{Name: "Rider", A: dice.Const(1), PerBody: 1},
		{Name: "Second rider", A: dice.Const(3), PerBody: 1},
		{Name: "Beast", A: dice.Const(3), PerBody: 1},
	}
	for i, want := range []int{1, 1, 3} {
		if got := supportCap(u, i, 3); got != want {
			t.Errorf("profile %d (%s): supports with up to %d, want %d", i, u.Attackers[i].Name, got, want)
		}
	}
}

// attacksAgainstAWall fights one round, not the charge's, between u and a
// wall of 40 models ten wide that strikes nothing, with monstrous_support
// monstrous, and returns the attacks of each of u's strike groups, in
// their order. The wall has T 10 and a 1+ save, so that the blows of u's
// first groups in these tests (S 5 at most) cannot thin it before a later
// group counts its attacks.
func attacksAgainstAWall(u *Unit, monstrous int) []int {
	wall := foot("Wall", 40, 10, 3, 3, 10, 1, 0, 10, 1)
	b := battle(u, wall, 0)
	b.Options.MonstrousSupport = monstrous
	s := b.NewState()
	b.Run(dice.New(15, 0), s)
	s.Units[0].Engaged, s.Units[1].Engaged = true, true
	b.fightRound(dice.New(15, 0), s, false)
	p := &s.plans[0]
	var got []int
	for _, g := range p.groups[:p.n] {
		if g.side == 0 {
			got = append(got, g.attacks)
		}
	}
	return got
}
