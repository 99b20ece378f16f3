package fantasy

import (
	"math"
	"strings"
	"testing"

	"hammersim/mechanics/dice"
)

func TestShootingToHit(t *testing.T) {
	tests := []struct {
		bs, mod int
		want    float64
		source  string
	}{
		{3, 0, 3.0 / 6, "BS 3 hits on 4+"},
		{5, 0, 5.0 / 6, "BS 5 hits on 2+"},
		{6, 0, 5.0 / 6, "a natural 1 always misses: 2+ at best"},
		{1, 0, 1.0 / 6, "BS 1 hits on 6+"},
		{1, -1, 1.0 / 12, "7+: a 6, then 4+"},
		{1, -2, 1.0 / 18, "8+: a 6, then 5+"},
		{1, -3, 1.0 / 36, "9+: a 6, then a 6"},
		{1, -4, 0, "10+ cannot hit"},
		{3, -1, 2.0 / 6, "BS 3 at long range: 5+"},
	}
	for _, tt := range tests {
		if got := ShootingToHit(tt.bs, tt.mod).P(); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("BS %d mod %d: %v, want %v (%s)", tt.bs, tt.mod, got, tt.want, tt.source)
		}
	}
	// The two-roll chains roll as they claim: 7+ (a 6, then 4+) over 300k shots, within 5 SE.
	r := dice.New(3, 0)
	need := ShootingToHit(1, -1)
	const n = 300_000
	hits := 0
	for range n {
		if ok, _ := need.Succeeds(r); ok {
			hits++
		}
	}
	p := 1.0 / 12
	if z := (float64(hits)/n - p) / math.Sqrt(p*(1-p)/n); math.Abs(z) > 5 {
		t.Errorf("7+ to hit: %d of %d, z %.1f", hits, n, z)
	}
}

func TestMeleeAndWoundCharts(t *testing.T) {
	melee := []struct{ ws, def, need int }{
		{4, 3, 3}, {3, 3, 4}, {3, 6, 4}, {3, 7, 5}, {1, 10, 5}, {10, 1, 3}, {3, 0, 3},
	}
	for _, tt := range melee {
		if got := MeleeToHit(tt.ws, tt.def).Need; got != tt.need {
			t.Errorf("WS %d vs %d: %d+, want %d+ (8th-edition chart, docs/fantasy.md)", tt.ws, tt.def, got, tt.need)
		}
	}
	wound := []struct{ s, t, need int }{
		{5, 3, 2}, {10, 3, 2}, {4, 3, 3}, {3, 3, 4}, {3, 4, 5}, {3, 5, 6}, {2, 6, 6},
	}
	for _, tt := range wound {
		if got := ToWound(tt.s, tt.t).Need; got != tt.need {
			t.Errorf("S %d vs T %d: %d+, want %d+ (wound chart, docs/fantasy.md)", tt.s, tt.t, got, tt.need)
		}
	}
	armour := []struct{ sv, s, need int }{
		{4, 3, 4}, {4, 4, 5}, {4, 5, 6}, {4, 6, NoSave}, {1, 3, 2}, {1, 10, NoSave}, {NoSave, 3, NoSave},
	}
	for _, tt := range armour {
		if got := ArmourRoll(tt.sv, tt.s).Need; got != tt.need {
			t.Errorf("save %d+ against S %d: %d+, want %d+ (S4 -1 ... S10 -7)", tt.sv, tt.s, got, tt.need)
		}
	}
	// Natural Armour 5+ with light armour (6+) is 4+.
	if got := CombineArmour(6, 5); got != 4 {
		t.Errorf("Natural Armour (5+) with 6+: %d+, want 4+", got)
	}
	if got := CombineArmour(NoSave, 5); got != 5 {
		t.Errorf("Natural Armour (5+) alone: %d+, want 5+", got)
	}
}

// foot returns an infantry unit of n models, width wide.
func foot(name string, n, width, ws, s, tough, init, a, ld, armour int) *Unit {
	return &Unit{Name: name, Troop: Infantry, Models: n, Width: width, FrontMM: 20,
		WS: ws, S: s, T: tough, W: 1, I: init, Ld: ld, Armour: armour, Ward: NoSave, Parry: NoSave, US: 1,
		Attackers: []Attacker{{Name: name, WS: ws, S: s, I: init, A: dice.Const(a), PerBody: 1}},
		Mover:     Mover{M: 5}}
}

// fightRound fights one round between units 0 and 1, as their states
// stand, as Battle.round does before working out the result; first marks
// the round after a charge.
func (b *Battle) fightRound(r *dice.Rand, s *State, first bool) roundResult {
	units := [2]*Unit{b.Units[0], b.Units[1]}
	states := [2]*UnitState{&s.Units[0], &s.Units[1]}
	return b.fight(r, units, states, b.plan(s, units, states, first), first)
}

func battle(a, t *Unit, distance int, phases ...Phase) *Battle {
	return &Battle{Units: []*Unit{a, t}, Enemy: []bool{false, true}, Distance: []int{0, distance},
		Phases: phases, Options: DefaultOptions}
}

// chariot is a Doomwheel-like machine: S 6, T 6, W 5, 4+ save, crew of 1.
func chariot(impact string) *Unit {
	u := &Unit{Name: "Chariot", Troop: Chariot, Models: 1, Width: 1, FrontMM: 50,
		WS: 3, S: 6, T: 6, W: 5, I: 4, Ld: 7, Armour: 4, Ward: NoSave, Parry: NoSave, US: 5,
		Attackers: []Attacker{{Name: "crew", WS: 3, S: 2, I: 4, A: dice.Const(0), PerBody: 1}},
		Mover:     Mover{Random: dice.MustParse("3D6")}, ImmunePsychology: true}
	if impact != "" {
		u.Impact = dice.MustParse(impact)
	}
	return u
}

// TestImpactHitsEachModelRollsAndParryNeverApplies: two models with Impact
// Hits (D6) roll separately (2D6, not twice one D6), and the target's Parry
// save, which would stop most blows, never applies to them (unit card).
func TestImpactHitsEachModelRolls(t *testing.T) {
	a := chariot("D6")
	a.Models, a.Width = 2, 2
	target := foot("Target", 200, 10, 3, 3, 3, 3, 0, 10, NoSave)
	target.Parry = 2          // parry on 2+: if it applied, few hits would wound
	target.Unbreakable = true // no flight or pursuit to add wounds
	b := battle(a, target, 1, PhaseCharge, PhaseCombat)
	s := b.NewState()
	r := dice.New(4, 0)
	const n = 100_000
	var hits [13]float64
	wounds := 0.0
	for range n {
		b.Run(r, s)
		if !s.Out.ChargeSuccess {
			t.Fatal("a 3D6 random move always reaches 1\"")
		}
		hits[s.Out.ImpactHits]++
		wounds += float64(s.Units[1].Wounds)
	}
	// Chi-square against 2D6 (df 10): 29.59 is the p = 0.001 critical value.
	exact := dice.MustParse("2D6").Dist()
	chi := 0.0
	for v := 2; v <= 12; v++ {
		e := exact.At(v) * n
		chi += (hits[v] - e) * (hits[v] - e) / e
	}
	if chi > 29.59 {
		t.Errorf("impact hits of two models: chi-square %.1f > 29.59 against 2D6 (df 10, p 0.001)", chi)
	}
	// Each hit: S6 vs T3 wounds on 2+ (5/6), no armour, and no parry: 7 * 5/6 per trial.
	p := HitWounds(6, target, false)
	if math.Abs(p-5.0/6) > 1e-12 {
		t.Fatalf("HitWounds = %v, want 5/6", p)
	}
	mean := wounds / n
	// Wounds per trial have mean 7p and variance 7p(1-p) + p^2 Var(2D6) (a
	// binomial with a random number of trials).
	sd := math.Sqrt(7*p*(1-p) + p*p*35.0/6)
	if z := (mean - 7*p) / (sd / math.Sqrt(n)); math.Abs(z) > 5 {
		t.Errorf("impact wounds mean %.4f, exact %.4f, z %.1f: Parry must not apply", mean, 7*p, z)
	}
}

func TestImpactHitsOnlyOnSuccessfulCharge(t *testing.T) {
	a := chariot("D6+1")
	target := foot("Target", 20, 5, 3, 3, 3, 3, 1, 10, NoSave)
	b := battle(a, target, 19, PhaseCharge, PhaseCombat) // 3D6 cannot reach 19"
	s := b.NewState()
	r := dice.New(1, 0)
	for range 1000 {
		b.Run(r, s)
		if s.Out.ChargeSuccess || s.Out.ImpactHits != 0 || s.Out.Fought {
			t.Fatalf("no charge, yet impact hits %d, fought %v", s.Out.ImpactHits, s.Out.Fought)
		}
	}
}

func TestHighestImpactNotTotal(t *testing.T) {
	got := HighestImpact([]dice.Expr{dice.MustParse("D3"), dice.MustParse("D6"), dice.MustParse("2")})
	if got.String() != "D6" {
		t.Errorf("highest of D3, D6, 2: %s, want D6", got)
	}
}

// TestHighestImpactEqualMeans: of two sets with the same mean (D6+1 and
// 3D2, both 4.5), the one with the higher maximum (7 against 6) is the
// highest, in either order: means are compared to a part in 10^9, so that
// the last bits of their sums, which a machine that fuses multiply-adds
// rounds otherwise, do not decide.
func TestHighestImpactEqualMeans(t *testing.T) {
	a, b := dice.MustParse("D6+1"), dice.MustParse("3D2")
	for _, sets := range [][]dice.Expr{{a, b}, {b, a}} {
		if got := HighestImpact(sets); got.String() != "D6+1" {
			t.Errorf("highest of %s, %s: %s, want D6+1", sets[0], sets[1], got)
		}
	}
}

// TestKillingBlow: against infantry a natural 6 to wound slays through any
// armour; against a monster it only ignores armour.
func TestKillingBlow(t *testing.T) {
	r := dice.New(5, 0)
	armoured := foot("Armoured", 1, 1, 3, 3, 10, 3, 1, 10, 1) // T10: wounds only on a 6; 1+ save
	armoured.W = 3
	const n = 60_000
	slain := 0
	for range n {
		st := UnitState{Alive: 1}
		resolveHit(r, killingBlows(3, armoured, KillingBlowOneWound, nil), armoured, &st)
		if st.Alive == 0 {
			slain++
		}
	}
	// P = 1/6: every natural 6 slays the 3-wound infantry model, whatever its save.
	p := 1.0 / 6
	if z := (float64(slain)/n - p) / math.Sqrt(p*(1-p)/n); math.Abs(z) > 5 {
		t.Errorf("killing blow slew %d of %d, z %.1f", slain, n, z)
	}
	monster := *armoured
	monster.Troop = Monster
	wounded := 0
	for range n {
		st := UnitState{Alive: 1}
		if resolveHit(r, killingBlows(3, &monster, KillingBlowOneWound, nil), &monster, &st) > 0 {
			wounded++
			if st.Alive == 0 {
				t.Fatal("killing blow slew a monster")
			}
		}
	}
	// Against a monster: one wound on a 6, armour ignored: 1/6 still.
	if z := (float64(wounded)/n - p) / math.Sqrt(p*(1-p)/n); math.Abs(z) > 5 {
		t.Errorf("killing blow wounded a monster %d of %d, z %.1f", wounded, n, z)
	}
}

// TestMultipleWoundsCapped: Multiple Wounds (D6) on 2-wound models never
// takes more than the struck model's wounds left.
func TestMultipleWoundsCapped(t *testing.T) {
	u := foot("Ogres", 3, 3, 3, 3, 1, 3, 1, 10, NoSave)
	u.W = 2
	r := dice.New(6, 0)
	six := dice.Const(6)
	for range 100 {
		st := UnitState{Alive: 3}
		got := resolveHit(r, &blows{wound: 2, armour: NoSave, ward: NoSave, multiple: &six}, u, &st)
		if got > 2 || (got > 0 && st.Alive != 2) {
			t.Fatalf("one wound of 6 took %d wounds, %d models left", got, st.Alive)
		}
	}
	// Ordinary wounds carry over from model to model: 3 wounds on 2-wound
	// models kill one and wound the next.
	st := UnitState{Alive: 3}
	st.wound(u, 3)
	if st.Alive != 2 || st.Damage != 1 {
		t.Errorf("3 wounds on W2 models: %d alive, %d damage; want 2 and 1", st.Alive, st.Damage)
	}
}

// TestStompTargets: Stomps hit Infantry, War Beasts and Swarms only.
func TestStompTargets(t *testing.T) {
	m := &Unit{Name: "Monster", Troop: Monster, Models: 1, Width: 1, FrontMM: 50, WS: 1, S: 5, T: 5, W: 6, I: 1, Ld: 10,
		Armour: NoSave, Ward: NoSave, Parry: NoSave, US: 6, Stomp: true, Attackers: []Attacker{{Name: "m", WS: 1, S: 5, I: 1, A: dice.Const(0), PerBody: 1}},
		Mover: Mover{M: 6}}
	horse := foot("Knights", 10, 5, 0, 3, 3, 0, 0, 10, NoSave)
	horse.Troop = Cavalry
	// No phases: Run only resets the states; the test fights the round.
	b := battle(m, horse, 1)
	s := b.NewState()
	r := dice.New(1, 0)
	for range 200 {
		b.Run(r, s)
		s.Units[0].Engaged, s.Units[1].Engaged = true, true
		res := b.fightRound(r, s, false)
		if res.wounds[0] != 0 {
			t.Fatalf("a Stomp wounded cavalry")
		}
	}
	rats := foot("Clanrats", 10, 5, 0, 3, 3, 0, 0, 10, NoSave)
	b = battle(m, rats, 1)
	s = b.NewState()
	total := 0
	const n = 20_000
	for range n {
		b.Run(r, s)
		s.Units[0].Engaged, s.Units[1].Engaged = true, true
		total += b.fightRound(r, s, false).wounds[0]
	}
	// D6 hits at S5 against T3 wound on 2+: 3.5 * 5/6 per round, capped by
	// the 10 models (the cap is never reached: at most 6 hits).
	want := 3.5 * 5 / 6
	// A binomial with D6 trials: variance E[N]p(1-p) + p^2 Var(N), Var(D6) = 35/12.
	p := 5.0 / 6
	sd := math.Sqrt(3.5*p*(1-p) + p*p*35.0/12)
	if z := (float64(total)/n - want) / (sd / math.Sqrt(n)); math.Abs(z) > 5 {
		t.Errorf("stomp wounds %.3f per round, exact %.3f, z %.1f", float64(total)/n, want, z)
	}
}

func TestRankBonusAndSteadfast(t *testing.T) {
	u := foot("Clanrats", 30, 6, 3, 3, 3, 4, 1, 5, 6)
	for _, tt := range []struct{ alive, want int }{{30, 3}, {18, 2}, {11, 1}, {6, 0}, {5, 0}, {24, 3}} {
		if got := rankBonus(u, tt.alive); got != tt.want {
			t.Errorf("%d clanrats 6 wide: rank bonus %d, want %d", tt.alive, got, tt.want)
		}
	}
	narrow := foot("Column", 30, 4, 3, 3, 3, 4, 1, 5, 6)
	if got := rankBonus(narrow, 30); got != 0 {
		t.Errorf("a unit 4 wide gets rank bonus %d; ranks need five models", got)
	}
	st := &UnitState{Alive: 20}
	if !steadfast(u, st, 5, false, false) || steadfast(u, st, 25, false, false) {
		t.Errorf("steadfast: 20 clanrats against US 5 should be, against US 25 not")
	}
	few := &UnitState{Alive: 8}
	if steadfast(u, few, 5, false, false) {
		t.Errorf("8 models (US below 10) are not steadfast")
	}
	u.Stubborn = true
	if !steadfast(u, few, 50, true, true) {
		t.Errorf("a Stubborn unit is always steadfast")
	}
}

// TestBreakTestExact sets up a combat in which nobody can wound: the
// result is fixed, so the chance of breaking has a closed form.
func TestBreakTestExact(t *testing.T) {
	// The charger: 5 wide, 15 models (2 extra ranks: +2), charging (+1),
	// standard (+1), higher US (+1): 5. The target: 5 models, 5 wide, no
	// bonuses: 0. Nobody attacks (A 0). Target Ld 8 tests on 8 - 5 = 3:
	// P(2D6 <= 3) = 3/36, with Insane Courage's double 1 already inside.
	a := foot("Chargers", 15, 5, 3, 3, 3, 3, 0, 8, NoSave)
	a.Standard = true
	a.Mover = Mover{M: 10}
	d := foot("Defenders", 5, 5, 3, 3, 3, 3, 0, 8, NoSave)
	b := battle(a, d, 1, PhaseCharge, PhaseCombat)
	b.Options.Pursue = PursueNever
	const n = 100_000
	broke := brokeIn(t, "the defenders", b, 8, n, 5)
	p := 1 - 3.0/36
	if z := (float64(broke)/n - p) / math.Sqrt(p*(1-p)/n); math.Abs(z) > 5 {
		t.Errorf("broke %d of %d, exact %.4f, z %.1f", broke, n, p, z)
	}
}

// TestCaughtWAP: a caught unit takes 2 wounds per point of the pursuers'
// Unit Strength, with no saves.
func TestCaughtWAP(t *testing.T) {
	a := foot("Pursuers", 3, 3, 3, 3, 3, 3, 0, 8, NoSave)
	d := foot("Fleeing", 20, 5, 3, 3, 3, 3, 0, 8, 1)
	b := battle(a, d, 5)
	s := b.NewState()
	b.Run(dice.New(1, 0), s)
	b.caught(1, 0, s)
	if s.Units[1].Alive != 14 || !s.Units[1].Caught {
		t.Errorf("caught by US 3: %d left, want 20 - 6", s.Units[1].Alive)
	}
	b.Options.Caught = CaughtDestroyed
	b.caught(1, 0, s)
	if s.Units[1].Alive != 0 {
		t.Errorf("8th-edition caught: %d left, want 0", s.Units[1].Alive)
	}
}

// TestTerror: a Terror-causer's declared charge makes the target test for
// panic (10" away, within its longest charge of 6 + 6); a Random Movement
// charge does not (no charge is declared).
func TestTerror(t *testing.T) {
	maw := &Unit{Name: "Maw", Troop: Monster, Models: 1, Width: 1, FrontMM: 50, WS: 3, S: 6, T: 6, W: 6, I: 1, Ld: 10,
		Armour: NoSave, Ward: NoSave, Parry: NoSave, US: 6, Terror: true, Attackers: []Attacker{{Name: "m", WS: 3, S: 6, I: 1, A: dice.Const(0), PerBody: 1}},
		Mover: Mover{M: 6}}
	timid := foot("Timid", 10, 5, 3, 3, 3, 3, 0, 4, NoSave)
	b := battle(maw, timid, 10, PhaseCharge)
	s := b.NewState()
	r := dice.New(2, 0)
	const n = 50_000
	panicked := 0
	for range n {
		b.Run(r, s)
		if s.Out.Panicked[1] {
			panicked++
		}
	}
	// Ld 4: passes on 2D6 <= 4, 6/36; panics 30/36.
	p := 30.0 / 36
	if z := (float64(panicked)/n - p) / math.Sqrt(p*(1-p)/n); math.Abs(z) > 5 {
		t.Errorf("panicked %d of %d, exact %.4f, z %.1f", panicked, n, p, z)
	}
	wheel := chariot("D6")
	wheel.Terror = true
	b = battle(wheel, timid, 5, PhaseCharge)
	s = b.NewState()
	for range 1000 {
		b.Run(r, s)
		if s.Out.Panicked[1] {
			t.Fatal("a Random Movement charge made the target test for Terror")
		}
	}
	// A unit that causes Fear treats Terror as Fear: no panic.
	brave := foot("Brave", 10, 5, 3, 3, 3, 3, 0, 2, NoSave)
	brave.Fear = true
	b = battle(maw, brave, 30, PhaseCharge)
	s = b.NewState()
	for range 1000 {
		b.Run(r, s)
		if s.Out.Panicked[1] {
			t.Fatal("a Fear-causing target tested for Terror")
		}
	}
	// A unit without Leadership (a machine) takes no Panic tests, this one
	// included.
	machine := foot("Machine", 1, 1, 3, 3, 3, 3, 0, 0, NoSave)
	b = battle(maw, machine, 30, PhaseCharge)
	s = b.NewState()
	for range 1000 {
		b.Run(r, s)
		if s.Out.Panicked[1] || s.Units[1].Fled {
			t.Fatal("a target without Leadership tested for Terror and fled")
		}
	}
}

// TestChargeTerrorWithoutLeadership: a unit without Leadership takes no
// Psychology test to charge a Terror-causer; one with Ld 2 passes it on
// 2D6 <= 2, 1/36 (double 1, also Insane Courage), and charges from 1" (M
// 4 reaches) only then.
func TestChargeTerrorWithoutLeadership(t *testing.T) {
	giant := &Unit{Name: "Giant", Troop: Monster, Models: 1, Width: 1, FrontMM: 50, WS: 3, S: 6, T: 5, W: 6, I: 3, Ld: 10,
		Armour: NoSave, Ward: NoSave, Parry: NoSave, US: 6, Terror: true, Unbreakable: true, ImmunePsychology: true,
		Attackers: []Attacker{{Name: "g", WS: 3, S: 6, I: 3, A: dice.Const(0), PerBody: 1}}, Mover: Mover{M: 6}}
	for _, ld := range []int{0, 2} {
		c := foot("Charger", 10, 5, 3, 3, 3, 3, 0, ld, NoSave)
		b := battle(c, giant, 1, PhaseCharge)
		s := b.NewState()
		r := dice.New(3, 0)
		const n = 36_000
		declared := 0
		for range n {
			b.Run(r, s)
			if s.Out.ChargeDeclared {
				declared++
			}
		}
		want := 1.0
		if ld == 2 {
			want = 1.0 / 36
		}
		se := math.Sqrt(want * (1 - want) / n)
		if got := float64(declared) / n; math.Abs(got-want) > 4*se+1e-12 {
			t.Errorf("Ld %d: declared %.4f of charges, want %.4f ± %.4f (4 SE)", ld, got, want, 4*se)
		}
	}
}

// TestDreadMawStrikesFirstAndDeniesRanks checks the Dread Maw's charge:
// its blows come before the target's (ASF on the turn it charges), and the
// charged unit's ranks give no bonus in the first round.
func TestDreadMawStrikesFirstAndDeniesRanks(t *testing.T) {
	maw := &Unit{Name: "Maw", Troop: Monster, Models: 1, Width: 1, FrontMM: 100, WS: 3, S: 6, T: 6, W: 6, I: 1, Ld: 10,
		Armour: NoSave, Ward: NoSave, Parry: NoSave, US: 6, DreadMaw: true,
		Attackers: []Attacker{{Name: "Maw", WS: 3, S: 6, I: 1, A: dice.Const(0), PerBody: 1}},
		Mover:     Mover{M: 3, Fly: 9, Tunneller: true}, Flying: true}
	wall := foot("Wall", 25, 5, 3, 3, 3, 5, 0, 10, NoSave) // 5 ranks of 5: +3 ranks normally
	b := battle(maw, wall, 1, PhaseCharge, PhaseCombat)
	s := b.NewState()
	r := dice.New(1, 0)
	b.Run(r, s)
	// Maw: charge +1, no other bonus (US 6 < 25). Wall: ranks denied, US +1. 1 - 1 = 0.
	if s.Out.CombatResult != 0 {
		t.Errorf("combat result %d, want 0 (ranks denied on the Dread Maw's charge)", s.Out.CombatResult)
	}
	// The strike order puts the Maw's I 1 (+1 charging) before the Wall's
	// I 5, in the Always Strikes First band, re-rolling nothing: its I 2
	// does not beat the Wall's 5.
	var groups [maxGroups]strikeGroup
	states := [2]*UnitState{{Alive: 1, Charged: true}, {Alive: 25}}
	n := strikeOrder(&groups, [2]*Unit{maw, wall}, states, true, DefaultOptions.ChargerInitiative)
	if n != 2 || groups[0].side != 0 || groups[0].band != bandFirst || groups[0].init != 2 || groups[0].reroll != noReroll ||
		groups[1].side != 1 || groups[1].init != 5 {
		t.Errorf("strike order %+v; the Maw (I 1 + 1, no re-roll) strikes before the Wall (I 5)", groups[:n])
	}
}

// TestRunAllocatesNothing runs a full Doomwheel-style turn: charge,
// shooting (Zzzzap!), combat.
func TestRunAllocatesNothing(t *testing.T) {
	a := chariot("D6+1")
	a.Zzzzap, a.GrindAttack, a.LossOfControl, a.Terror = true, true, true, true
	a.Attackers[0].A = dice.MustParse("2D6")
	target := foot("Clanrats", 30, 6, 3, 3, 3, 4, 1, 5, 6)
	friend := foot("Stormvermin", 20, 5, 4, 4, 3, 5, 1, 7, 5)
	b := &Battle{Units: []*Unit{a, target, friend}, Enemy: []bool{false, true, false}, Distance: []int{0, 8, 5},
		Phases: []Phase{PhaseCharge, PhaseShooting, PhaseCombat}, Options: DefaultOptions}
	s := b.NewState()
	r := dice.New(1, 0)
	if allocs := allocationsIn(2000, r, func() { b.Run(r, s) }); allocs != 0 {
		t.Fatalf("a full turn allocates %v times", allocs)
	}
}

// TestImpactHitsComeFirst: Impact Hits land before any other blow, so a
// champion-less defender slain by them never strikes back, even with a
// higher Initiative.
func TestImpactHitsComeFirst(t *testing.T) {
	a := chariot("10")
	a.S = 10
	duelist := foot("Duelist", 1, 1, 10, 10, 1, 10, 10, 10, NoSave) // T1, I10, A10
	b := battle(a, duelist, 1, PhaseCharge, PhaseCombat)
	b.Options.Pursue = PursueNever
	s := b.NewState()
	r := dice.New(9, 0)
	for range 2000 {
		b.Run(r, s)
		if s.Units[1].Alive == 0 && s.Units[0].Wounds > 0 {
			t.Fatal("the defender struck after the Impact Hits slew it")
		}
	}
}

// TestImpactHitsIgnoreOtherAttackRules: a unit with Killing Blow does not
// get it on its Impact Hits (unit card: the model's other attack rules do not
// apply), and the combat result counts the Impact Hits' wounds.
func TestImpactHitsIgnoreOtherAttackRules(t *testing.T) {
	a := chariot("D6")
	a.S = 3
	for i := range a.Attackers {
		a.Attackers[i].Killing = true
	}
	wall := foot("Wall", 200, 10, 3, 3, 10, 3, 0, 10, 1) // T10: wounded on 6s only; 1+ save (2+ against S3)
	wall.Unbreakable = true
	b := battle(a, wall, 1, PhaseCharge, PhaseCombat)
	s := b.NewState()
	r := dice.New(10, 0)
	const n = 100_000
	var hits, wounds float64
	for range n {
		b.Run(r, s)
		hits += float64(s.Out.ImpactHits)
		wounds += float64(s.Out.ImpactWounds)
		// Nothing else wounds: the result is the impact wounds, +1 for the
		// charge and +1 for Fear... none here, so charge only; the wall
		// gets its ranks (+3), higher US (+1), no standard.
		if want := s.Out.ImpactWounds + 1 - 4; s.Out.CombatResult != want {
			t.Fatalf("combat result %d, want impact wounds %d + 1 - 4", s.Out.CombatResult, s.Out.ImpactWounds)
		}
	}
	// Per hit: a 6 to wound, then the 2+ save fails on a 1: 1/36. With
	// Killing Blow it would be 1/6 (no armour on a natural 6).
	p := 1.0 / 36
	got := wounds / hits
	if z := (got - p) / math.Sqrt(p*(1-p)/hits); math.Abs(z) > 5 {
		t.Errorf("wounds per impact hit %.4f, want %.4f (no Killing Blow), z %.1f", got, p, z)
	}
}

// TestGrindAttack: engaged from the start (no charge), a Doomwheel grinds
// D3+1 Impact Hits in the round: mean 3 per round, and nothing on the turn
// it charged but its Impact Hits.
func TestGrindAttack(t *testing.T) {
	a := chariot("")
	a.GrindAttack = true
	wall := foot("Wall", 200, 10, 3, 3, 3, 3, 0, 10, NoSave)
	wall.Unbreakable = true
	b := battle(a, wall, 0, PhaseCombat)
	s := b.NewState()
	r := dice.New(11, 0)
	const n = 60_000
	var hist [5]float64
	for range n {
		b.Run(r, s)
		if s.Out.ImpactHits < 2 || s.Out.ImpactHits > 4 {
			t.Fatalf("grind hits %d outside D3+1", s.Out.ImpactHits)
		}
		hist[s.Out.ImpactHits]++
	}
	for v := 2; v <= 4; v++ {
		p := 1.0 / 3
		if z := (hist[v]/n - p) / math.Sqrt(p*(1-p)/n); math.Abs(z) > 5 {
			t.Errorf("grind hits = %d: %.4f, want 1/3, z %.1f", v, hist[v]/n, z)
		}
	}
	b = battle(a, wall, 1, PhaseCharge, PhaseCombat)
	for range 1000 {
		b.Run(r, s)
		if s.Out.ChargeSuccess && s.Out.ImpactHits != 0 {
			t.Fatal("a Doomwheel without Impact Hits ground on the turn it charged")
		}
	}
}

// TestZzzzapMovesOnWhenTheNearestDies: a lone friendly model nearest takes
// the first bolt; once it is slain the next bolt goes to the next nearest.
func TestZzzzapMovesOnWhenTheNearestDies(t *testing.T) {
	a := chariot("")
	a.Zzzzap = true
	scout := foot("Scout", 1, 1, 3, 3, 1, 3, 1, 10, NoSave) // T1: any bolt wounds on 2+
	rats := foot("Rats", 30, 6, 3, 3, 3, 3, 1, 10, NoSave)
	b := &Battle{Units: []*Unit{a, rats, scout}, Enemy: []bool{false, true, false}, Distance: []int{0, 10, 3},
		Phases: []Phase{PhaseShooting}, Options: DefaultOptions}
	b.Options.ZzzzapHoldFire = HoldFireNever
	s := b.NewState()
	r := dice.New(12, 0)
	sawMoveOn := false
	for range 5000 {
		b.Run(r, s)
		if s.Units[1].Wounds > 0 {
			if s.Units[2].Alive != 0 {
				t.Fatal("a bolt passed over the living nearest unit")
			}
			sawMoveOn = true
		}
		if s.Out.FriendlyWounds != s.Units[2].Wounds {
			t.Fatalf("friendly wounds %d, the scout took %d", s.Out.FriendlyWounds, s.Units[2].Wounds)
		}
	}
	if !sawMoveOn {
		t.Error("no bolt ever moved on to the Rats")
	}
}

// TestRandomAttacksPerModel: two models with Random Attacks (D6) roll
// separately: their attacks are 2D6, not twice a D6.
func TestRandomAttacksPerModel(t *testing.T) {
	u := foot("Frenzied", 2, 2, 3, 3, 3, 3, 0, 10, NoSave)
	u.Attackers[0].A = dice.MustParse("D6")
	r := dice.New(13, 0)
	const n = 100_000
	var counts [13]float64
	for range n {
		counts[countAttacks(r, u, &u.Attackers[0], 2, 0, false, 1)]++
	}
	exact := dice.MustParse("2D6").Dist()
	chi := 0.0
	for v := 2; v <= 12; v++ {
		e := exact.At(v) * n
		chi += (counts[v] - e) * (counts[v] - e) / e
	}
	if chi > 29.59 { // p = 0.001, df = 10
		t.Errorf("random attacks of two models: chi-square %.1f against 2D6", chi)
	}
}

// killingBlows readies hits at strength s with Killing Blow on u, no ward.
func killingBlows(s int, u *Unit, kb KillingBlowRule, multiple *dice.Expr) *blows {
	b := newBlows(s, u, NoSave)
	b.withKillingBlow(kb, u)
	b.multiple = multiple
	return &b
}

// TestChampionRidesAMount: ten knights five wide, each a Knight (A 1) on
// a Warhorse (A 1), one knight a champion (A 2), against a wall of infantry
// ten wide (200 mm, so all five 25 mm knights touch it) that strikes
// nothing. The champion stands in for one Knight, not for his horse:
// Knights 5 - 1 = 4 in front + 5 supporting = 9; Warhorses 5 in front + 5
// supporting = 10; the champion 2.
func TestChampionRidesAMount(t *testing.T) {
	k := foot("Knights", 10, 5, 4, 4, 3, 3, 1, 8, 2)
	k.Troop, k.FrontMM, k.US = Cavalry, 25, 2
	k.Attackers = []Attacker{
		{Name: "Knight", WS: 4, S: 4, I: 3, A: dice.Const(1), PerBody: 1},
		{Name: "Warhorse", WS: 3, S: 3, I: 3, A: dice.Const(1), PerBody: 1},
		{Name: "Preceptor", WS: 4, S: 4, I: 3, A: dice.Const(2), PerBody: 1, Champion: true},
	}
	wall := foot("Wall", 40, 10, 3, 3, 10, 1, 0, 10, 1)
	b := battle(k, wall, 0)
	s := b.NewState()
	b.Run(dice.New(14, 0), s)
	s.Units[0].Engaged, s.Units[1].Engaged = true, true
	b.fightRound(dice.New(14, 0), s, false)
	want := map[string]int{"Knight": 9, "Warhorse": 10, "Preceptor": 2}
	p := &s.plans[0]
	seen := 0
	for _, g := range p.groups[:p.n] {
		if g.side != 0 {
			continue
		}
		seen++
		name := k.Attackers[g.attacker].Name
		if g.attacks != want[name] {
			t.Errorf("%s: %d attacks, want %d", name, g.attacks, want[name])
		}
	}
	if seen != len(want) {
		t.Errorf("%d strike groups of the knights, want %d", seen, len(want))
	}
}

// TestMonstrousSupport: four Rat Ogres (Monstrous Infantry, A 3) two wide
// on 40 mm bases, against a wall of infantry ten wide (200 mm, so both
// front Ogres touch it) that strikes nothing. The two in front make their 3
// attacks each; the two behind support with as many of their Attacks as
// monstrous_support allows (3 by default, WAP's Monstrous Infantry page):
// 2*3 + 2*3 = 12; with monstrous_support 2, 2*3 + 2*2 = 10; with 1, 8.
// The same unit as Infantry supports with one attack a model whatever the
// option: 8.
func TestMonstrousSupport(t *testing.T) {
	for _, tt := range []struct {
		troop     TroopType
		monstrous int
		want      int
	}{
		{MonstrousInfantry, 3, 12}, {MonstrousInfantry, 2, 10}, {MonstrousInfantry, 1, 8},
		{MonstrousBeast, 3, 12}, {Infantry, 3, 8},
	} {
		o := foot("Rat Ogres", 4, 2, 3, 5, 4, 4, 3, 6, NoSave)
		o.Troop, o.FrontMM, o.W = tt.troop, 40, 3
		got := attacksAgainstAWall(o, tt.monstrous)
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("%v, monstrous_support %d: attacks by strike group %v, want [%d]", tt.troop, tt.monstrous, got, tt.want)
		}
	}
}

// TestMonstrousSupportRandomAttacks: a supporting Monstrous Infantry model
// with Random Attacks (D6) makes min(D6, 3) attacks, 1, 2, 3, 3, 3, 3 with
// chance 1/6 each: a mean of 15/6 = 2.5 and a variance of 41/6 - 6.25 =
// 7/12. Two supporting models and none in contact but one (A D6, mean 3.5):
// the mean is 3.5 + 2 * 2.5 = 8.5, variance 35/12 + 2 * 7/12 = 49/12.
// 100,000 rolls, within 5 standard errors.
func TestMonstrousSupportRandomAttacks(t *testing.T) {
	u := foot("Frenzied Ogres", 3, 1, 3, 4, 4, 3, 0, 7, NoSave)
	u.Troop = MonstrousInfantry
	u.Attackers[0].A = dice.MustParse("D6")
	r := dice.New(16, 0)
	const n = 100_000
	sum := 0
	for range n {
		sum += countAttacks(r, u, &u.Attackers[0], 1, 2, false, supportCap(u, 0, 3))
	}
	mean, se := float64(sum)/n, math.Sqrt(49.0/12/n)
	if math.Abs(mean-8.5) > 5*se {
		t.Errorf("mean attacks %.4f, want 8.5 (SE %.4f)", mean, se)
	}
}

// TestOpeningHitsAreSimultaneous: a chariot with Impact Hits (10) at S10
// charges a lone Doomwheel-like machine of 1 Wound with a Grind Attack.
// Both sides' opening hits come at the very start of the round, so the
// machine grinds even though the Impact Hits kill it: D3+1 hits (mean 3)
// at S3 on the charger's T3, wounding on 4+, no save: 1.5 wounds a trial.
// The machine dies with 1 - (1/6)^10 (S10 on T6 wounds on 2+; S10 takes a
// 4+ save away). Resolved one side after the other, the charger would take
// none.
func TestOpeningHitsAreSimultaneous(t *testing.T) {
	a := chariot("10")
	a.S, a.T, a.W, a.Armour = 10, 3, 20, NoSave
	a.Unbreakable = true
	g := chariot("")
	g.GrindAttack = true
	g.S, g.W = 3, 1
	g.Unbreakable = true
	b := battle(a, g, 1, PhaseCharge, PhaseCombat)
	s := b.NewState()
	r := dice.New(7, 0)
	const n = 40_000
	var sum, sum2, dead float64
	for range n {
		b.Run(r, s)
		if !s.Out.ChargeSuccess {
			t.Fatal("a 3D6 random move always reaches 1\"")
		}
		w := float64(s.Units[0].Wounds)
		sum += w
		sum2 += w * w
		if s.Units[1].Alive == 0 {
			dead++
		}
	}
	mean := sum / n
	sd := math.Sqrt(sum2/n - mean*mean)
	if z := (mean - 1.5) / (sd / math.Sqrt(n)); math.Abs(z) > 5 {
		t.Errorf("the charger took %.4f wounds a trial, exact 1.5, z %.1f", mean, z)
	}
	if pDead := 1 - math.Pow(1.0/6, 10); math.Abs(dead/n-pDead) > 5*math.Sqrt(pDead*(1-pDead)/n)+1e-9 {
		t.Errorf("the machine died in %.5f of trials, exact %.7f", dead/n, pDead)
	}
}

// TestStrikeFirstAndLastAgainstACharger: the re-rolls of Always Strikes
// First and Last compare Initiatives as they stand in the round, so a
// charger's +1 Initiative counts on the other side too. A charger of I3
// strikes at I4 in the first round: a charged unit of I3 with Always
// Strikes Last is lower and re-rolls its hits, one of I4 with Always
// Strikes First is not higher and re-rolls nothing. In the second round
// the charger is back at I3, and the I4 unit re-rolls its misses while the
// I3 one, tied, does not.
func TestStrikeFirstAndLastAgainstACharger(t *testing.T) {
	for _, tt := range []struct {
		name     string
		init     int
		asf, asl bool
		first    bool
		want     rerollRule
	}{
		{"ASL I3, first round", 3, false, true, true, rerollSuccessful},
		{"ASL I3, second round", 3, false, true, false, noReroll},
		{"ASF I4, first round", 4, true, false, true, noReroll},
		{"ASF I4, second round", 4, true, false, false, rerollFailed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := foot("Chargers", 20, 5, 3, 3, 3, 3, 0, 7, NoSave)
			d := foot("Charged", 5, 5, 3, 3, 3, tt.init, 1, 7, NoSave)
			d.Attackers[0].ASF, d.Attackers[0].ASL = tt.asf, tt.asl
			units := [2]*Unit{c, d}
			var s0, s1 UnitState
			s0.Charged = true
			var groups [maxGroups]strikeGroup
			n := strikeOrder(&groups, units, [2]*UnitState{&s0, &s1}, tt.first, DefaultOptions.ChargerInitiative)
			charged := 0
			for _, g := range groups[:n] {
				if g.side != 1 {
					continue
				}
				charged++
				if g.reroll != tt.want {
					t.Errorf("the charged unit's re-roll is %v, want %v", g.reroll, tt.want)
				}
			}
			if charged != 1 {
				t.Errorf("%d strike groups for the charged unit, want 1", charged)
			}
		})
	}
}

// TestFiringRanks: thirty archers (BS4, S3, one shot, 24") shoot forty
// Spearmen (T3, no save) 10" away, at short range: a shot hits on 3+
// (7 - BS, 4/6) and wounds on 4+ (S3 on T3, 1/2), so each shooter does 1/3
// of a wound on average. With two firing ranks (8th edition's Fire in Two
// Ranks, the default) ten models shoot five wide (10/3 wounds) and twenty
// ten wide (20/3); with firing_ranks 0 all thirty shoot (10); as
// Skirmishers, or as a troop type that stands in no ranks (a battery of
// War Machines), all thirty shoot whatever the ranks.
func TestFiringRanks(t *testing.T) {
	for _, tt := range []struct {
		name        string
		width       int
		ranks       int
		skirmishers bool
		troop       TroopType
		shooters    int
	}{
		{"five wide", 5, 2, false, Infantry, 10},
		{"ten wide", 10, 2, false, Infantry, 20},
		{"every model", 5, 0, false, Infantry, 30},
		{"skirmishers", 5, 2, true, Infantry, 30},
		{"war machines", 5, 1, false, WarMachine, 30},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := foot("Archers", 30, tt.width, 3, 3, 3, 3, 1, 7, NoSave)
			a.BS, a.Missile = 4, Missile{S: 3, Range: 24, Shots: dice.Const(1)}
			a.Skirmishers, a.Troop = tt.skirmishers, tt.troop
			d := foot("Spearmen", 40, 5, 3, 3, 3, 3, 1, 7, NoSave)
			d.ImmunePsychology = true
			b := battle(a, d, 10, PhaseShooting)
			b.Options.FiringRanks = tt.ranks
			if got := a.Shooters(a.Models, tt.ranks); got != tt.shooters {
				t.Fatalf("%d shooters, want %d", got, tt.shooters)
			}
			s := b.NewState()
			r := dice.New(17, 0)
			const n = 20_000
			sum := 0.0
			for range n {
				b.Run(r, s)
				sum += float64(s.Units[1].Wounds)
			}
			// The wounds are Binomial(shooters, 1/3): sd sqrt(shooters * 2/9).
			want := float64(tt.shooters) / 3
			se := math.Sqrt(float64(tt.shooters)*2/9) / math.Sqrt(n)
			if z := (sum/n - want) / se; math.Abs(z) > 5 {
				t.Errorf("%.4f wounds a trial, exact %.4f, z %.1f", sum/n, want, z)
			}
		})
	}
}

// TestNoShootingAfterADeclaredCharge: a unit that declared a charge does
// not shoot in the Shooting phase of that turn (WAP/shooting/who-can-
// shoot). Ten archers (M4, BS4: 3+ to hit, 4+ beyond half of their 24"
// range; S3 on T3 4+ to wound) declare a charge 10" away, at the longest
// they can roll (4 + the higher of 2D6): reaching it or falling short,
// they do not shoot. Had they not declared one (a target causing Terror
// that they test to charge on Ld 2, passing 1/36), they shoot from 10",
// within half range: 35/36 x 10 x 2/3 x 1/2. A target 20" away, beyond
// their longest charge, cannot be charged (W9E/movement/can-i-charge), so
// no charge is declared and they shoot at long range: 10 x 1/2 x 1/2. A
// shooting phase with no charge phase before it shoots as ever, here from
// 12": 10 x 2/3 x 1/2. Random Movement declares no charge: its 2D6 roll
// takes them from 20" to within half range on 8 or more (15/36), and
// having moved they shoot at -1 (WAP/shooting/moving-and-shooting): 4+
// within half range, 5+ beyond, so 10 x (15/36 x 1/2 + 21/36 x 1/3) x 1/2
// = 10 x 29/144. In the next turn's Shooting phase (after a combat phase
// that fights nobody) they have not moved: 10 x (15/36 x 2/3 + 21/36 x
// 1/2) x 1/2 = 10 x 41/144.
func TestNoShootingAfterADeclaredCharge(t *testing.T) {
	for _, tc := range []struct {
		name     string
		ld       int
		terror   bool
		random   bool
		distance int
		phases   []Phase
		want     float64
	}{
		{"a charge declared", 7, false, false, 10, []Phase{PhaseCharge, PhaseShooting}, 0},
		{"a charge not declared", 2, true, false, 10, []Phase{PhaseCharge, PhaseShooting}, 35.0 / 36 * 10 / 3},
		{"a target beyond the longest charge", 7, false, false, 20, []Phase{PhaseCharge, PhaseShooting}, 10.0 / 4},
		{"no charge phase", 7, false, false, 12, []Phase{PhaseShooting}, 10.0 / 3},
		{"Random Movement", 7, false, true, 20, []Phase{PhaseCharge, PhaseShooting}, 10 * 29.0 / 144},
		{"Random Movement, the next turn", 7, false, true, 20, []Phase{PhaseCharge, PhaseCombat, PhaseShooting}, 10 * 41.0 / 144},
	} {
		a := foot("Archers", 10, 5, 3, 3, 3, 3, 1, tc.ld, NoSave)
		a.BS, a.Missile = 4, Missile{S: 3, Range: 24, Shots: dice.Const(1)}
		a.Mover = Mover{M: 4}
		if tc.random {
			a.Mover = Mover{Random: dice.MustParse("2D6")}
		}
		d := foot("Spearmen", 40, 5, 3, 3, 3, 3, 1, 7, NoSave)
		d.ImmunePsychology, d.Terror = true, tc.terror
		b := battle(a, d, tc.distance, tc.phases...)
		s := b.NewState()
		r := dice.New(23, 0)
		const n = 20_000
		sum := 0.0
		for range n {
			b.Run(r, s)
			sum += float64(s.Units[1].Wounds)
		}
		// At most 10 wounds a trial: variance at most want x (10 - want)
		// (the Bhatia-Davis inequality).
		se := math.Sqrt(tc.want*(10-tc.want)/n) + 1e-12
		if got := sum / n; math.Abs(got-tc.want) > 5*se {
			t.Errorf("%s: %.4f wounds a trial, want %.4f ± %.4f (5 SE)", tc.name, got, tc.want, 5*se)
		}
	}
}

// TestValidateOneCharge: a battle has one charge phase at most. A second
// would find the units engaged and leave the first's Charged standing, so
// the combat after it would fight as a charge round again (Impact Hits
// instead of a Grind Attack, the charge bonuses). The scenario format
// refuses it too; Validate guards other callers.
func TestValidateOneCharge(t *testing.T) {
	b := battle(chariot("D6"), foot("Target", 10, 5, 3, 3, 3, 3, 1, 7, NoSave), 6, PhaseCharge, PhaseCombat)
	if err := b.Validate(); err != nil {
		t.Fatalf("one charge: %v", err)
	}
	b.Phases = []Phase{PhaseCharge, PhaseCombat, PhaseCharge, PhaseCombat}
	if err := b.Validate(); err == nil || !strings.Contains(err.Error(), "one charge phase at most") {
		t.Errorf("two charges: %v", err)
	}
}

// allocationsIn is every allocation n calls of f make, after the same n
// calls to warm up, r (which f draws from) seeded alike before each.
// testing.AllocsPerRun divides the allocations by its runs, rounding down,
// so that a rare path's (fewer than one a run) would read 0; given one run
// of all n calls, it counts each. The count is the process's, which the
// runtime's own allocations may join: the least of three is taken, since
// the calls replay the same stream and an allocation of theirs comes back.
func allocationsIn(n int, r *dice.Rand, f func()) float64 {
	least := math.Inf(1)
	for range 3 {
		least = min(least, testing.AllocsPerRun(1, func() {
			r.Seed(7, 0)
			for range n {
				f()
			}
		}))
	}
	return least
}
