package fantasy

import (
	"fmt"
	"math"
	"testing"

	"hammersim/mechanics/dice"
)

// zProb is the distance, in standard errors, of k successes in n trials
// from probability p.
func zProb(k, n int, p float64) float64 {
	return (float64(k)/float64(n) - p) / math.Sqrt(p*(1-p)/float64(n))
}

// monster returns a one-model monster with no attacks and no saves.
func monster(name string, front int) *Unit {
	return &Unit{Name: name, Troop: Monster, Models: 1, Width: 1, FrontMM: front, WS: 3, S: 5, T: 6, W: 6, I: 1, Ld: 10,
		Armour: NoSave, Ward: NoSave, Parry: NoSave, US: 6,
		Attackers: []Attacker{{Name: name, WS: 3, S: 5, I: 1, A: dice.Const(0), PerBody: 1}},
		Mover:     Mover{M: 10}}
}

// TestImpactHitsOnlyFromModelsInContact: six chariots in one rank on 50 mm
// bases charge infantry six wide on 20 mm bases. The infantry's front is
// 6 x 20 = 120 mm; 50 mm bases along it, a part-base counting, and one
// more at each corner (WAP, Who Can Strike): 120/50 + 2 = 4 chariots in
// contact, rounded down (touching). With Impact Hits (2), 4 x 2 = 8 hits,
// not 6 x 2 = 12 (unit card, Impact Hits: a model not in base contact
// inflicts none). Against a front of two rats (40 mm) two chariots touch:
// 4 hits. (A second rank of chariots adds to these:
// TestChariotsInTheSecondRank.)
func TestImpactHitsOnlyFromModelsInContact(t *testing.T) {
	for _, tt := range []struct {
		width, want int
		source      string
	}{
		{6, 8, "120 mm front: 4 chariots x Impact Hits (2)"},
		{2, 4, "40 mm front: 2 chariots x Impact Hits (2)"},
	} {
		a := chariot("2")
		a.Models, a.Width = 6, 6
		a.Mover = Mover{M: 10}
		rats := foot("Rats", 60, tt.width, 3, 3, 3, 3, 0, 10, NoSave)
		rats.Unbreakable = true
		b := battle(a, rats, 1, PhaseCharge, PhaseCombat)
		s := b.NewState()
		b.Run(dice.New(1, 0), s)
		if !s.Out.ChargeSuccess || s.Out.ImpactHits != tt.want {
			t.Errorf("rats %d wide: charged %v, impact hits %d, want %d (%s)", tt.width, s.Out.ChargeSuccess, s.Out.ImpactHits, tt.want, tt.source)
		}
	}
}

// TestGrindAttackOnlyFromModelsInContact: three Doomwheels side by side
// (3 x 50 mm) against a lone 20 mm model: two touch it, one along its
// front and one at its corner (20/50 + 2 = 2, touching), so two D3+1:
// 4 to 8 hits, 6 in the mean (exact), where all three would make 9.
func TestGrindAttackOnlyFromModelsInContact(t *testing.T) {
	a := chariot("")
	a.Models, a.Width, a.GrindAttack = 3, 3, true
	lone := foot("Hero", 1, 1, 3, 3, 10, 3, 0, 10, NoSave) // T10: no wound ends the round early
	lone.W, lone.Unbreakable = 10, true
	b := battle(a, lone, 0, PhaseCombat)
	s := b.NewState()
	r := dice.New(2, 0)
	for range 2000 {
		b.Run(r, s)
		if h := s.Out.ImpactHits; h < 4 || h > 8 {
			t.Fatalf("grind hits %d; two machines in contact roll 2(D3+1) (4 to 8)", h)
		}
	}
	if got, has := ExactBattle(b).Value(BattleImpactHits, 0); !has || math.Abs(got-6) > 1e-12 {
		t.Errorf("exact grind hits %v, %v; want 6", got, has)
	}
}

// TestStompOnlyFromModelsInContact: three monsters three wide on 50 mm
// bases against infantry two wide on 20 mm (a 40 mm front): 40/50 + 2 = 2
// monsters touch it (touching: one along it, one at its corner) and stomp,
// D6 hits each at S5 against T3 (2+ to wound, 5/6). Expected wounds per
// round: 2 x 3.5 x 5/6 = 35/6, not 3 x 3.5 x 5/6.
func TestStompOnlyFromModelsInContact(t *testing.T) {
	m := monster("Giants", 50)
	m.Models, m.Width, m.Stomp = 3, 3, true
	rats := foot("Rats", 100, 2, 3, 3, 3, 3, 0, 10, NoSave)
	b := battle(m, rats, 0)
	s := b.NewState()
	r := dice.New(3, 0)
	const n = 40_000
	total := 0
	for range n {
		b.Run(r, s)
		s.Units[0].Engaged, s.Units[1].Engaged = true, true
		total += b.fightRound(r, s, false).wounds[0]
	}
	p := 5.0 / 6
	want := 2 * 3.5 * p
	// Two D6 of hits, each wounding with p: variance 2(3.5 p(1-p) + p^2 35/12).
	sd := math.Sqrt(2 * (3.5*p*(1-p) + p*p*35.0/12))
	if z := (float64(total)/n - want) / (sd / math.Sqrt(n)); math.Abs(z) > 5 {
		t.Errorf("stomp wounds %.3f per round, want %.3f (two monsters in contact), z %.1f", float64(total)/n, want, z)
	}
}

// brokeIn runs n trials of b from seed and counts those in which unit 1
// broke. The combats it is used on are static (nobody can wound), so every
// trial must score the combat result cr; one that does not fails the test.
func brokeIn(t *testing.T, what string, b *Battle, seed uint64, n, cr int) int {
	t.Helper()
	s := b.NewState()
	r := dice.New(seed, 0)
	broke := 0
	for range n {
		b.Run(r, s)
		if s.Out.CombatResult != cr {
			t.Fatalf("%s: combat result %d, want %d", what, s.Out.CombatResult, cr)
		}
		if s.Units[1].Broke {
			broke++
		}
	}
	return broke
}

// TestDisrupted: a unit of ten five wide (two ranks of five) in the rear of
// thirty five wide disrupts them. Nobody strikes. Rear unit: one extra rank
// +1, rear +2 = 3. The thirty: no rank bonus (disrupted), higher Unit
// Strength +1 = 1. They lose by 2 and, disrupted, are not Steadfast: Ld 8 - 2
// = 6, passing on 15/36, breaking 21/36. Stubborn, they stay Steadfast (unit
// card, Stubborn: disrupted or not): Ld 8, breaking 10/36. Five in the
// rear (one rank) disrupt nothing: 2 against ranks +3 and US +1: -2. Nor
// do ten chariots in two ranks, whose ranks count for nothing: rear +2
// against ranks +3 and US +1, -2 again.
func TestDisrupted(t *testing.T) {
	for _, tt := range []struct {
		rear     int
		troop    TroopType
		stubborn bool
		cr       int
		broke    float64
	}{
		{10, Infantry, false, 2, 21.0 / 36},
		{10, Infantry, true, 2, 10.0 / 36},
		{5, Infantry, false, -2, 0},
		{10, Chariot, false, -2, 0},
	} {
		a := foot("Rear", tt.rear, 5, 3, 3, 3, 3, 0, 10, NoSave)
		a.Rear, a.Unbreakable, a.Troop = true, true, tt.troop
		d := foot("Block", 30, 5, 3, 3, 3, 3, 0, 8, NoSave)
		d.Stubborn = tt.stubborn
		b := battle(a, d, 0, PhaseCombat)
		b.Options.Pursue = PursueNever
		const n = 60_000
		broke := brokeIn(t, fmt.Sprintf("%d in the rear", tt.rear), b, 4, n, tt.cr)
		if tt.broke == 0 {
			if broke != 0 {
				t.Errorf("the winning block broke %d times", broke)
			}
			continue
		}
		if z := zProb(broke, n, tt.broke); math.Abs(z) > 5 {
			t.Errorf("%d in the rear, stubborn %v: broke %d of %d, want %.4f, z %.1f", tt.rear, tt.stubborn, broke, n, tt.broke, z)
		}
	}
}

// TestTerrorAgainstFearCausers: a Terror-causing monster (US 6) against ten
// Fear-causing infantry five wide (US 10), nobody striking. The infantry
// treat Terror as Fear (unit card, Terror), so the monster scores Fear +1 (US 6
// is not double 10): 1. The infantry: one extra rank +1, higher US +1 = 2.
// Result -1. Immunity (Fear) ignores the Fear it is treated as, and a
// Terror-causer is immune to both: -2. A Fear-causer is so whatever else
// it lists.
func TestTerrorAgainstFearCausers(t *testing.T) {
	for _, tt := range []struct {
		name string
		set  func(u *Unit)
		want int
	}{
		{"Fear-causer", func(u *Unit) { u.Fear = true }, -1},
		{"no psychology rule", func(u *Unit) {}, -1},
		{"Immunity (Fear)", func(u *Unit) { u.ImmuneFear = true }, -2},
		// A Fear-causer that also lists Immunity (Fear), which causing Fear
		// gives it anyway, is still a Fear-causer: -1.
		{"Fear-causer with Immunity (Fear)", func(u *Unit) { u.Fear, u.ImmuneFear = true, true }, -1},
		// Immunity (Fear/Terror) ignores both, Fear-causer or not: -2.
		{"Fear-causer with Immunity (Fear/Terror)", func(u *Unit) { u.Fear, u.ImmuneFear, u.ImmuneTerror = true, true, true }, -2},
		{"Terror-causer", func(u *Unit) { u.Terror = true }, -2},
	} {
		m := monster("Horror", 50)
		m.Terror, m.Unbreakable = true, true
		d := foot("Ghouls", 10, 5, 3, 3, 3, 3, 0, 10, NoSave)
		d.Unbreakable = true
		tt.set(d)
		b := battle(m, d, 0, PhaseCombat)
		s := b.NewState()
		b.Run(dice.New(5, 0), s)
		if s.Out.CombatResult != tt.want {
			t.Errorf("Terror against %s: combat result %d, want %d", tt.name, s.Out.CombatResult, tt.want)
		}
	}
	// A Fear-causer alone gets no bonus against another Fear-causer.
	m := monster("Wight", 50)
	m.Fear = true
	d := foot("Ghouls", 10, 5, 3, 3, 3, 3, 0, 10, NoSave)
	d.Fear = true
	if m.causesFearOf(d, false) {
		t.Error("Fear affected a Fear-causer")
	}
	// With terror_vs_immune_fear, Immunity (Fear) gives the Terror-causer
	// its bonus too: -1 as against a Fear-causer.
	h := monster("Horror", 50)
	h.Terror, h.Unbreakable = true, true
	g := foot("Ghouls", 10, 5, 3, 3, 3, 3, 0, 10, NoSave)
	g.Unbreakable, g.ImmuneFear = true, true
	b := battle(h, g, 0, PhaseCombat)
	b.Options.TerrorVsImmuneFear = true
	s := b.NewState()
	b.Run(dice.New(5, 0), s)
	if s.Out.CombatResult != -1 {
		t.Errorf("terror_vs_immune_fear: combat result %d, want -1", s.Out.CombatResult)
	}
	// Immunity (Fear/Terror) ignores both, whatever the option: -2 again.
	g.ImmuneTerror = true
	s = b.NewState() // a State keeps what the units fix about a round
	b.Run(dice.New(5, 0), s)
	if s.Out.CombatResult != -2 {
		t.Errorf("terror_vs_immune_fear against Immunity (Fear/Terror): combat result %d, want -2", s.Out.CombatResult)
	}
}

// TestChargingATerrorCauser: a unit with Immunity (Panic) alone must still
// pass a Psychology test (Ld 5: 2D6 <= 5, 10/36) to charge a Terror-causer;
// a Fear-causer treats Terror as Fear and charges freely, as do units
// immune to Terror or Psychology. The charge from 1" with M 10 always
// reaches, so declared charges are successful ones.
func TestChargingATerrorCauser(t *testing.T) {
	for _, tt := range []struct {
		name string
		set  func(u *Unit)
		p    float64
	}{
		{"Immunity (Panic)", func(u *Unit) { u.ImmunePanic = true }, 10.0 / 36},
		{"no rule", func(u *Unit) {}, 10.0 / 36},
		{"Fear", func(u *Unit) { u.Fear = true }, 1},
		{"Immunity (Fear)", func(u *Unit) { u.ImmuneFear = true }, 1},
		{"Immunity (Terror)", func(u *Unit) { u.ImmuneTerror = true }, 1},
		{"Immunity (Psychology)", func(u *Unit) { u.ImmunePsychology = true }, 1},
	} {
		a := foot("Chargers", 10, 5, 3, 3, 3, 3, 0, 5, NoSave)
		a.Mover = Mover{M: 10}
		tt.set(a)
		m := monster("Horror", 50)
		m.Terror = true
		b := battle(a, m, 1, PhaseCharge)
		s := b.NewState()
		r := dice.New(6, 0)
		const n = 40_000
		charged := 0
		for range n {
			b.Run(r, s)
			if s.Out.ChargeSuccess {
				charged++
			}
		}
		if tt.p == 1 {
			if charged != n {
				t.Errorf("%s: charged %d of %d, want every time", tt.name, charged, n)
			}
			continue
		}
		if z := zProb(charged, n, tt.p); math.Abs(z) > 5 {
			t.Errorf("%s: charged %d of %d, want %.4f, z %.1f", tt.name, charged, n, tt.p, z)
		}
	}
}

// TestDreadMawDeniesSupportingAttacks: charged by a Dread Maw, a unit gets
// no benefit from its ranks in the first round (unit card, Dread Maw), so
// no supporting attacks (the rank bonus: TestDreadMawStrikesFirstAndDeniesRanks;
// Steadfast: TestDreadMawDeniesSteadfast).
//
// Attacks: 25 infantry five wide (A 1) strike a 100 mm Maw; five touch it
// (100/20), and the rank behind would add five more. Each attack: WS 3
// against WS 3 hits on 4+ (1/2), S3 against T6 wounds on 6 (1/6), no save:
// 1/12. Five attacks: 5/12 wounds per round, not 10/12.
func TestDreadMawDeniesSupportingAttacks(t *testing.T) {
	maw := monster("Maw", 100)
	maw.DreadMaw, maw.Unbreakable = true, true
	wall := foot("Wall", 25, 5, 3, 3, 3, 3, 1, 10, NoSave)
	wall.Unbreakable = true
	b := battle(maw, wall, 1, PhaseCharge, PhaseCombat)
	s := b.NewState()
	r := dice.New(7, 0)
	const n = 100_000
	wounds := 0
	for range n {
		b.Run(r, s)
		wounds += s.Units[0].Wounds
	}
	p := 1.0 / 12
	mean, sd := 5*p, math.Sqrt(5*p*(1-p))
	if z := (float64(wounds)/n - mean) / (sd / math.Sqrt(n)); math.Abs(z) > 5 {
		t.Errorf("wounds on the Maw %.4f per round, want %.4f (no supporting attacks), z %.1f", float64(wounds)/n, mean, z)
	}
}

// TestDreadMawDeniesSteadfast: nobody strikes. The Maw: charge +1,
// standard +1 = 2. The wall of 25 (US 25 > 6, ranks of five: Steadfast
// otherwise): no rank bonus, US +1 = 1. It loses by 1 and, denied its
// ranks, tests on Ld 7 - 1 = 6: breaks 21/36 (Steadfast it would test on 7:
// 15/36).
func TestDreadMawDeniesSteadfast(t *testing.T) {
	maw := monster("Maw", 100)
	maw.DreadMaw, maw.Standard = true, true
	wall := foot("Wall", 25, 5, 3, 3, 3, 3, 0, 7, NoSave)
	b := battle(maw, wall, 1, PhaseCharge, PhaseCombat)
	b.Options.Pursue = PursueNever
	const n = 60_000
	broke := brokeIn(t, "the wall", b, 8, n, 2-1)
	if z := zProb(broke, n, 21.0/36); math.Abs(z) > 5 {
		t.Errorf("broke %d of %d, want 21/36, z %.1f", broke, n, z)
	}
}

// TestKillingBlowAgainstOtherTypes: S3 against T10 wounds only on a natural
// 6 (1/6), every one a Killing Blow. A monster (W6, 2+ armour) cannot be
// slain outright. Each option, by its definition:
//   - one wound: armour ignored, exactly 1 wound, on 1/6 of hits;
//   - multiple: armour ignored, Multiple Wounds (6) applies: 6 wounds;
//   - none (8th edition): an ordinary wound; the 2+ save (S3: unmodified)
//     fails on a 1: 1/6 x 1/6 = 1/36 of hits, 6 wounds each.
func TestKillingBlowAgainstOtherTypes(t *testing.T) {
	six := dice.Const(6)
	for _, tt := range []struct {
		rule      KillingBlowRule
		p         float64
		perWounds int
	}{
		{KillingBlowOneWound, 1.0 / 6, 1},
		{KillingBlowMultiple, 1.0 / 6, 6},
		{KillingBlowNone, 1.0 / 36, 6},
	} {
		m := monster("Monster", 50)
		m.T, m.Armour = 10, 2
		r := dice.New(9, 0)
		const n = 100_000
		hits := 0
		for range n {
			st := UnitState{Alive: 1}
			w := resolveHit(r, killingBlows(3, m, tt.rule, &six), m, &st)
			if w != 0 && w != tt.perWounds {
				t.Fatalf("rule %d: a wound did %d wounds, want %d", tt.rule, w, tt.perWounds)
			}
			if w > 0 {
				hits++
			}
		}
		if z := zProb(hits, n, tt.p); math.Abs(z) > 5 {
			t.Errorf("rule %d: wounded %d of %d, want %.4f, z %.1f", tt.rule, hits, n, tt.p, z)
		}
	}
}

// TestCombineWards: WAP (Ward Saves) combines wards as armour combines,
// never better than 4+ by combining: its own example, two 6+ and a 5+, is
// held to 4+; a single listed 3+ keeps 3+. 8th edition takes the best.
func TestCombineWards(t *testing.T) {
	for _, tt := range []struct {
		rule WardRule
		ws   []int
		want int
		why  string
	}{
		{WardsCombine, []int{5, 6}, 4, "5+ improved by one for the 6+"},
		{WardsCombine, []int{6, 6}, 5, "6+ improved by one"},
		{WardsCombine, []int{6, 6, 5}, 4, "3+ by combining, held to 4+ (WAP's example)"},
		{WardsCombine, []int{3}, 3, "a single ward is not capped"},
		{WardsCombine, []int{3, 6}, 3, "the single 3+ beats the capped combination"},
		{WardsCombine, []int{NoSave, 5}, 5, "no ward adds nothing"},
		{WardsBest, []int{5, 6}, 5, "8th edition: the best"},
	} {
		if got := CombineWards(tt.rule, tt.ws); got != tt.want {
			t.Errorf("rule %d, wards %v: %d+, want %d+ (%s)", tt.rule, tt.ws, got, tt.want, tt.why)
		}
	}
}

// TestParry: a 6+ Parry joins a 5+ ward (4+) against a front blow of
// ordinary strength; not against blows from the rear, from S 3 or more
// above the model's (WAP, Parry), nor for a mounted model.
func TestParry(t *testing.T) {
	u := foot("Guard", 10, 5, 3, 3, 3, 3, 1, 8, NoSave)
	u.Ward, u.Parry = 5, 6
	front := foot("Foe", 10, 5, 3, 3, 3, 3, 1, 8, NoSave)
	rear := *front
	rear.Rear = true
	for _, tt := range []struct {
		name string
		u    *Unit
		s    int
		a    *Unit
		rule WardRule
		want int
	}{
		{"front, S3", u, 3, front, WardsCombine, 4},
		{"front, S3, 8th edition", u, 3, front, WardsBest, 5},
		{"rear", u, 3, &rear, WardsCombine, 5},
		{"S6 against S3", u, 6, front, WardsCombine, 5},
		{"S5 against S3", u, 5, front, WardsCombine, 4},
	} {
		if got := wardAgainst(tt.u, tt.s, tt.a, tt.rule); got != tt.want {
			t.Errorf("%s: ward %d+, want %d+", tt.name, got, tt.want)
		}
	}
	// A knight on a horse (a split profile) rides: no Parry. A cavalry
	// model of one profile counts as on foot for Parry (WAP, troop types,
	// Cavalry): 5+ and 6+ combine to 4+, as on foot. A chariot never
	// parries.
	knight := *u
	knight.Troop = Cavalry
	knight.Attackers = []Attacker{{Name: "Knight", A: dice.Const(1)}, {Name: "Horse", A: dice.Const(1)}}
	if got := wardAgainst(&knight, 3, front, WardsCombine); got != 5 {
		t.Errorf("a mounted model parried: %d+, want its 5+ ward", got)
	}
	knight.Attackers = knight.Attackers[:1]
	if got := wardAgainst(&knight, 3, front, WardsCombine); got != 4 {
		t.Errorf("cavalry of one profile: %d+, want 4+ (its Parry joined)", got)
	}
	knight.Troop = Chariot
	if got := wardAgainst(&knight, 3, front, WardsCombine); got != 5 {
		t.Errorf("a chariot parried: %d+, want its 5+ ward", got)
	}
	// A ridden Monster (a rider and the monster: WAP gives it Cavalry's
	// split profile) may not parry; a Monster of one profile may, even with
	// the Chomp its Dread Maw rule adds.
	knight.Troop = Monster
	knight.Attackers = []Attacker{{Name: "Rider", A: dice.Const(1)}, {Name: "Wyvern", A: dice.Const(3)}}
	if got := wardAgainst(&knight, 3, front, WardsCombine); got != 5 {
		t.Errorf("a ridden Monster parried: %d+, want its 5+ ward", got)
	}
	knight.Attackers = []Attacker{{Name: "Maw", A: dice.Const(3)}, ChompAttacks(3, 6, 2)}
	if got := wardAgainst(&knight, 3, front, WardsCombine); got != 4 {
		t.Errorf("a Monster of one profile with Chomp: %d+, want 4+ (its Parry joined)", got)
	}
}

// TestPanicWhenAFriendBreaks: a block of ten (US 10) at Ld 1, without
// Insane Courage, loses by 2 to a unit in its rear and cannot pass its break
// test. Its friends test for Panic if within 6" (WAP, Panic): one 5" away
// (Ld 7: flees on 2D6 > 7, 15/36), one 7" away (never), and a friend of
// the winner (never). What counts is the Unit Strength the block started
// the phase with, not what the round left it.
func TestPanicWhenAFriendBreaks(t *testing.T) {
	a := foot("Rear", 10, 5, 3, 3, 3, 3, 0, 10, NoSave)
	a.Rear = true
	d := foot("Block", 10, 5, 3, 3, 3, 3, 0, 1, NoSave)
	near := foot("Near", 10, 5, 3, 3, 3, 3, 0, 7, NoSave)
	far := foot("Far", 10, 5, 3, 3, 3, 3, 0, 7, NoSave)
	mine := foot("Mine", 10, 5, 3, 3, 3, 3, 0, 2, NoSave)
	b := &Battle{Units: []*Unit{a, d, near, far, mine}, Enemy: []bool{false, true, true, true, false},
		Distance: []int{0, 0, 5, 7, 3}, Phases: []Phase{PhaseCombat}, Options: DefaultOptions}
	b.Options.InsaneCourage, b.Options.Pursue = false, PursueNever
	s := b.NewState()
	r := dice.New(10, 0)
	const n = 60_000
	fled := 0
	for range n {
		b.Run(r, s)
		if !s.Units[1].Broke {
			t.Fatal("the block passed a break test on Ld -1")
		}
		if s.Out.Panicked[3] || s.Out.Panicked[4] {
			t.Fatal("a unit 7\" away or a friend of the winner took the test")
		}
		if s.Out.Panicked[2] {
			fled++
		}
	}
	if z := zProb(fled, n, 15.0/36); math.Abs(z) > 5 {
		t.Errorf("the friend 5\" away fled %d of %d, want 15/36, z %.1f", fled, n, z)
	}
	// A block of 25 (the same result: disrupted, it has no rank bonus)
	// caught by its pursuer loses 2 x 10 = 20 wounds, leaving US 5; it had
	// US 25 at the start of the phase, so the friend still tests: the same
	// 15/36.
	d.Models = 25
	b.Options.Pursue, b.Options.Caught = PursueAlways, CaughtWounds
	fled = 0
	for range n {
		b.Run(r, s)
		if s.Out.Panicked[2] {
			fled++
		}
	}
	if z := zProb(fled, n, 15.0/36); math.Abs(z) > 5 {
		t.Errorf("with pursuit: the friend 5\" away fled %d of %d, want 15/36, z %.1f", fled, n, z)
	}
	b.Options.Pursue = PursueNever
	// A friend of Unit Strength 9 breaking panics nobody.
	d.Models = 9
	for range 1000 {
		b.Run(r, s)
		if s.Out.Panicked[2] {
			t.Fatal("a friend of US 9 breaking caused a Panic test")
		}
	}
	// Ten again, now struck by the rear unit's ten attacks (each kills one
	// in four: 4+ to hit, WS 3 against 3, and 4+ to wound, S 3 against T
	// 3), so it breaks with fewer than ten models left 1 - (3/4)^10 = 94%
	// of the time. It started the phase with Unit Strength 10, which is
	// what counts (WAP: a unit that started the phase with US 10 or more
	// breaks): the friend flees on the same 15/36.
	d.Models = 10
	a.Attackers[0].A = dice.Const(1)
	fled, struck := 0, 0
	for range n {
		b.Run(r, s)
		if !s.Units[1].Broke {
			t.Fatal("the struck block passed a break test on Ld -1")
		}
		if s.Units[1].Alive < 10 {
			struck++
		}
		if s.Out.Panicked[2] {
			fled++
		}
	}
	if z := zProb(struck, n, 1-math.Pow(0.75, 10)); math.Abs(z) > 5 {
		t.Errorf("the block lost a model in %d of %d rounds, want 1 - (3/4)^10, z %.1f", struck, n, z)
	}
	if z := zProb(fled, n, 15.0/36); math.Abs(z) > 5 {
		t.Errorf("struck: the friend 5\" away fled %d of %d, want 15/36, z %.1f", fled, n, z)
	}
}

// TestPanicWhenAFriendIsDestroyed: a friend of US 10 destroyed 2" away
// (distances 3 and 5 on the line from the acting unit) makes a unit of Ld 7
// flee on 15/36; one already having passed a Panic test this phase does not
// test again.
func TestPanicWhenAFriendIsDestroyed(t *testing.T) {
	a := foot("Actor", 10, 5, 3, 3, 3, 3, 0, 10, NoSave)
	foe := foot("Foe", 10, 5, 3, 3, 3, 3, 0, 10, NoSave)
	gone := foot("Gone", 10, 5, 3, 3, 3, 3, 0, 7, NoSave)
	friend := foot("Friend", 10, 5, 3, 3, 3, 3, 0, 7, NoSave)
	b := &Battle{Units: []*Unit{a, foe, gone, friend}, Enemy: []bool{false, true, false, false},
		Distance: []int{0, 20, 3, 5}, Options: DefaultOptions}
	s := b.NewState()
	r := dice.New(11, 0)
	const n = 60_000
	fled := 0
	for range n {
		b.Run(r, s)
		s.Units[2].phaseAlive, s.Units[2].Alive = 10, 0
		b.friendPanic(r, s)
		if s.Out.Panicked[3] {
			fled++
		}
	}
	if z := zProb(fled, n, 15.0/36); math.Abs(z) > 5 {
		t.Errorf("fled %d of %d, want 15/36, z %.1f", fled, n, z)
	}
	b.Run(r, s)
	s.Units[2].phaseAlive, s.Units[2].Alive = 10, 0
	s.Units[3].passedPanic = true
	b.friendPanic(r, s)
	if s.Out.Panicked[3] {
		t.Error("a unit that passed a Panic test this phase took another")
	}
}

// TestSkirmishers: no rank bonus, never Steadfast, no disruption, and a
// Stomp on them is D3 hits (mean 2, never above 3).
func TestSkirmishers(t *testing.T) {
	u := foot("Harpies", 30, 5, 3, 3, 3, 3, 1, 6, NoSave)
	u.Skirmishers, u.Rear = true, true
	if ranksCount(u, false) || !ranksCount(u, true) {
		t.Errorf("skirmishers' ranks count: %v by default, %v with skirmishers_ranks; want false, true", ranksCount(u, false), ranksCount(u, true))
	}
	if steadfast(u, &UnitState{Alive: 30}, 5, false, false) {
		t.Error("skirmishers were Steadfast")
	}
	b := battle(u, u, 0)
	if disruptedBy(b.disruptRanks(u), u, 30) {
		t.Error("skirmishers disrupted a unit")
	}
	b.Options.SkirmishersDisrupt = true
	if !disruptedBy(b.disruptRanks(u), u, 30) {
		t.Error("with skirmishers_disrupt, six ranks of five in the rear did not disrupt")
	}
	r := dice.New(12, 0)
	const n = 60_000
	sum := 0
	for range n {
		v := stompCount(r, 1, u, &UnitState{Alive: 30})
		if v < 1 || v > 3 {
			t.Fatalf("a stomp on skirmishers made %d hits", v)
		}
		sum += v
	}
	// D3: mean 2, variance 2/3.
	if z := (float64(sum)/n - 2) / math.Sqrt(2.0/3/n); math.Abs(z) > 5 {
		t.Errorf("stomp hits on skirmishers %.4f, want 2, z %.1f", float64(sum)/n, z)
	}
}

// TestSkirmishersRanks: fifteen Skirmishers five wide (three ranks of
// five) against ten infantry five wide (two ranks), engaged, nobody
// striking. By default (7th edition's rule; open for WAP) the Skirmishers
// score only their higher Unit Strength (15 against 10): 1; the infantry
// one extra rank: 1. A draw, 0. With skirmishers_ranks they add two extra
// ranks: 3 against 1, +2.
func TestSkirmishersRanks(t *testing.T) {
	for _, tt := range []struct {
		ranks bool
		want  int
	}{{false, 0}, {true, 2}} {
		sk := foot("Harpies", 15, 5, 3, 3, 3, 3, 0, 6, NoSave)
		sk.Skirmishers, sk.Unbreakable = true, true
		d := foot("Spears", 10, 5, 3, 3, 3, 3, 0, 8, NoSave)
		d.Unbreakable = true
		b := battle(sk, d, 0, PhaseCombat)
		b.Options.SkirmishersRanks = tt.ranks
		s := b.NewState()
		b.Run(dice.New(13, 0), s)
		if s.Out.CombatResult != tt.want {
			t.Errorf("skirmishers_ranks %v: combat result %d, want %d", tt.ranks, s.Out.CombatResult, tt.want)
		}
	}
}

// TestLossOfControl: a Doomwheel (W 5) takes two wounds in a phase, then
// the phase ends out of combat. Its Loss of Control test, a D6 per wound
// with any 1 sending it Out of Control, fails with 1 - (5/6)^2 = 11/36
// (unit card, Loss of Control). Wounded in close combat (its enemy then
// broke), it tests only when the rule is judged at the end of the phase
// (loss_of_control: end_of_phase); by default a wound must come while it
// is neither in combat nor fleeing. Fleeing or destroyed at the end of the
// phase, it never tests. 40,000 tests; the estimate of 11/36 is checked
// within 4 standard errors.
func TestLossOfControl(t *testing.T) {
	const n = 40_000
	p := 11.0 / 36
	for _, tc := range []struct {
		name                string
		rule                LossOfControlRule
		engaged, fled, dead bool
		want                float64
	}{
		{"wounded out of combat", LossOfControlWhenWounded, false, false, false, p},
		{"wounded out of combat, judged at the end", LossOfControlEndOfPhase, false, false, false, p},
		{"wounded in combat", LossOfControlWhenWounded, true, false, false, 0},
		{"wounded in combat, judged at the end", LossOfControlEndOfPhase, true, false, false, p},
		{"fleeing at the end", LossOfControlEndOfPhase, false, true, false, 0},
		{"destroyed", LossOfControlWhenWounded, false, false, true, 0},
	} {
		dw := chariot("")
		dw.LossOfControl = true
		b := battle(dw, foot("Rats", 20, 5, 3, 3, 3, 4, 1, 5, NoSave), 10)
		b.Options.LossOfControl = tc.rule
		s, r := b.NewState(), dice.New(8, 0)
		lost := 0
		for range n {
			b.Run(r, s) // no phases: the units as they start
			us := &s.Units[0]
			us.Engaged = tc.engaged
			us.wound(dw, 2)
			us.Engaged = false // the enemy broke or died: out of combat now
			us.Fled = tc.fled
			if tc.dead {
				us.wound(dw, 3)
			}
			b.afterPhase(r, s)
			if s.Out.LostControl {
				lost++
			}
		}
		got := float64(lost) / n
		se := math.Sqrt(tc.want * (1 - tc.want) / n)
		if math.Abs(got-tc.want) > 4*se || (tc.want == 0) != (lost == 0) {
			t.Errorf("%s: Out of Control in %.4f of tests, want %.4f", tc.name, got, tc.want)
		}
	}
}

// TestStompStrikesWithTheChargeBonus: a Stomp strikes in the Always Strikes
// Last band at its model's Initiative, and a charger's +1 in the first
// round counts there as everywhere (W9E/close-combat/striking-order). A
// monster of I3 with Stomp charges three halberdiers of I3 with Always
// Strikes Last: at I4 this round its Stomp lands before their blows, D6
// hits at S5 on T3 (2+, 5/6) killing K = min(Binomial(D6, 5/6), 3); each
// survivor then hits on 4+ (WS3 against WS3) re-rolling its hits (its I3
// below the charger's 4: 1/2 x 1/2) and wounds T6 on 6+: 1/24 a blow.
// E[3 - K] = 16319/23328 (an enumeration over the D6 and the binomial),
// so the monster takes 16319/559872 = 0.0291 wounds a round. Not charging,
// the two I3 bands strike together and the halberdiers do not re-roll:
// three blows at 1/2 x 1/6, 0.25. A monster of I6 ridden by its rider
// (the unit's I) whose own I is 3 (StompI) stomps at 3: not charging, the
// halberdiers strike with it, all three, re-rolling their hits against the
// unit's I6: 3 x 1/4 x 1/6 = 0.125 (at the rider's I6 the Stomp would land
// first, 0.0291 as above). 200,000 rounds each (fixed seeds), within 4
// standard errors.
func TestStompStrikesWithTheChargeBonus(t *testing.T) {
	for _, tc := range []struct {
		charged   bool
		i, stompI int
		want      float64
	}{{true, 3, 0, 16319.0 / 559872}, {false, 3, 0, 0.25}, {false, 6, 3, 0.125}} {
		m := monster("Beast", 50)
		m.I, m.Attackers[0].I, m.StompI, m.Stomp = tc.i, tc.i, tc.stompI, true
		h := foot("Halberds", 3, 3, 3, 3, 3, 3, 1, 7, NoSave)
		h.Attackers[0].ASL = true
		b := battle(m, h, 0)
		s := b.NewState()
		r := dice.New(5, 0)
		const n = 200_000
		total := 0
		for range n {
			b.Run(r, s)
			s.Units[0].Engaged, s.Units[1].Engaged = true, true
			s.Units[0].Charged = tc.charged
			total += b.fightRound(r, s, true).wounds[1]
		}
		// Between 0 and 3 wounds a round, whose variance is then at most
		// mean x (3 - mean) (the Bhatia-Davis inequality).
		se := math.Sqrt(tc.want * (3 - tc.want) / n)
		if got := float64(total) / n; math.Abs(got-tc.want) > 4*se {
			t.Errorf("charged %v, I %d, Stomp at %d: %.4f wounds on the monster a round, want %.4f ± %.4f (4 SE)", tc.charged, tc.i, tc.stompI, got, tc.want, 4*se)
		}
	}
}

// TestNoChargeBeyondTheLongest: a charge that cannot be completed cannot
// be declared (W9E/movement/can-i-charge): a Terror-causing monster of M 6
// without Swiftstride reaches at most 6 + 6 = 12". At 12" it declares its
// charge and its Ld 8 target takes the Panic test of Run for Your Lives!,
// fleeing on 9 or more, 10/36; at 13" nothing is declared, so nothing
// flees and the monster stays where it stood.
func TestNoChargeBeyondTheLongest(t *testing.T) {
	for _, tc := range []struct {
		distance int
		fled     float64
	}{{12, 10.0 / 36}, {13, 0}} {
		m := monster("Beast", 50)
		m.Mover, m.Terror = Mover{M: 6}, true
		if got := m.Mover.LongestCharge(false); got != 12 {
			t.Fatalf("longest charge %d, want 12", got)
		}
		h := foot("Halberds", 20, 5, 3, 3, 3, 3, 1, 8, NoSave)
		b := battle(m, h, tc.distance, PhaseCharge)
		s := b.NewState()
		r := dice.New(29, 0)
		const n = 36_000
		fled, declared := 0, 0
		for range n {
			b.Run(r, s)
			if s.Units[1].Fled {
				fled++
			}
			if s.Out.ChargeDeclared {
				declared++
			}
		}
		se := math.Sqrt(tc.fled * (1 - tc.fled) / n)
		if got := float64(fled) / n; math.Abs(got-tc.fled) > 4*se+1e-12 {
			t.Errorf("%d\": fled %.4f, want %.4f ± %.4f (4 SE)", tc.distance, got, tc.fled, 4*se)
		}
		if want := tc.distance <= 12; (declared == n) != want || (declared == 0) == want {
			t.Errorf("%d\": a charge declared in %d of %d trials, want it declared %v", tc.distance, declared, n, want)
		}
	}
}
