package heresy

import (
	"math"
	"slices"
	"strings"
	"testing"

	"hammersim/mechanics/dice"
)

func TestParseType(t *testing.T) {
	tests := []struct {
		text  string
		typ   WeaponType
		shots string // "" when the type prints none
		rules []RuleAt
	}{
		{"Rapid Fire", RapidFire, "", nil},
		{"Heavy 2", Heavy, "2", nil},
		{"Assault 1, Rending (6+)", Assault, "1", []RuleAt{{"Rending (6+)", 12}}},
		{"Heavy 1, Blast (3\"), Gets Hot", Heavy, "1", []RuleAt{{"Blast (3\")", 10}, {"Gets Hot", 22}}},
		{"Pistol D3", Pistol, "D3", nil},
		{"Ordnance 1", Ordnance, "1", nil},
		{"destroyer 1", Destroyer, "1", nil},
		{"Melee, Brutal (2), Rending (5+)", Melee, "", []RuleAt{{"Brutal (2)", 8}, {"Rending (5+)", 20}}},
	}
	for _, tt := range tests {
		got, err := ParseType(tt.text)
		if err != nil {
			t.Errorf("%q: %v", tt.text, err)
			continue
		}
		shots := ""
		if !got.Shots.IsZero() {
			shots = got.Shots.String()
		}
		if got.Type != tt.typ || shots != tt.shots || !slices.Equal(got.Rules, tt.rules) {
			t.Errorf("%q: %v %q %v, want %v %q %v", tt.text, got.Type, shots, got.Rules, tt.typ, tt.shots, tt.rules)
		}
	}
	bad := []struct {
		text string
		col  int
	}{
		{"", 1},
		{"Salvo 2/4", 1},
		{"Heavy", 6},
		{"Melee 2", 7},
		{"Assault 0", 9},
		{"Assault 1,, Shred", 11},
		{"  Lance 1", 3},
		// Re-rolled shots, which only simulate dice reads: at the "r1".
		{"Assault D6r1", 11},
	}
	for _, tt := range bad {
		_, err := ParseType(tt.text)
		te, ok := err.(*TypeError)
		if !ok || te.Col != tt.col {
			t.Errorf("%q: error %v, want one at column %d", tt.text, err, tt.col)
		}
	}
}

func TestFire(t *testing.T) {
	still := NewUnit(marine, 5)
	high := stupefied(reveller, 5)
	rf := Weapon{Type: RapidFire, Range: 24}
	heavy := Weapon{Type: Heavy, Range: 36}
	ord := Weapon{Type: Ordnance, Range: 48}
	blast := Weapon{Type: Assault, Range: 24, Blast: 3}
	tmpl := Weapon{Type: Assault, Template: true}
	tests := []struct {
		name string
		w    Weapon
		u    *Unit
		s    Situation
		want Firing
	}{
		{"Rapid Fire at half range: two rolls", rf, &still, Situation{Distance: 12}, Firing{Rolls: 2, HalfRange: true}},
		{"Rapid Fire beyond half range: one", rf, &still, Situation{Distance: 13}, Firing{Rolls: 1}},
		{"Rapid Fire, distance not given: one", rf, &still, Situation{}, Firing{Rolls: 1}},
		{"out of range", rf, &still, Situation{Distance: 25}, Firing{Why: OutOfRange, Rolls: 1}},
		{"Heavy after moving: Snap Shots", heavy, &still, Situation{Distance: 20, Moved: true}, Firing{Rolls: 1, Snap: true}},
		{"Heavy in Return Fire counts as stationary", heavy, &still, Situation{Moved: true, Stationary: true}, Firing{Rolls: 1}},
		{"Ordnance after moving: not fired", ord, &still, Situation{Moved: true}, Firing{Why: MovedOrdnance, Rolls: 1}},
		{"Ordnance by a Stupefied unit: no Snap Shots", ord, high, Situation{}, Firing{Why: NoSnapShots, Rolls: 1, Snap: true}},
		{"Blast as Snap Shots: not fired", blast, &still, Situation{SnapShots: true}, Firing{Why: NoSnapShots, Rolls: 1, Snap: true}},
		{"Template beyond 8\"", tmpl, &still, Situation{Distance: 9}, Firing{Why: OutOfRange, Rolls: 1}},
		// Half range, which Armourbane (Melta) reads: a Template's is half
		// its 8".
		{"Template at 4\": half range", tmpl, &still, Situation{Distance: 4}, Firing{Rolls: 1, HalfRange: true}},
		{"Heavy at 18\" of 36\": half range", heavy, &still, Situation{Distance: 18}, Firing{Rolls: 1, HalfRange: true}},
		{"Heavy at 19\" of 36\"", heavy, &still, Situation{Distance: 19}, Firing{Rolls: 1}},
		{"Template in a Reaction: Wall of Death", tmpl, &still, Situation{Distance: 6, Reaction: true}, Firing{Rolls: 1, Snap: true, WallOfDeath: true}},
		{"Wall of Death reaches a charging unit", tmpl, &still, Situation{Distance: 11, Reaction: true, Charging: true}, Firing{Rolls: 1, Snap: true, WallOfDeath: true}},
		{"Template by a Stupefied unit outside a Reaction", tmpl, high, Situation{}, Firing{Why: NoSnapShots, Rolls: 1, Snap: true}},
	}
	for _, tt := range tests {
		if got := tt.w.Fire(tt.u, tt.s); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	for typ, blocks := range map[WeaponType]bool{Assault: false, Heavy: true, RapidFire: true, Pistol: false, Ordnance: true, Destroyer: false} {
		if typ.BlocksCharge() != blocks {
			t.Errorf("%s: BlocksCharge %v, want %v", typ, !blocks, blocks)
		}
	}
}

// TestRuleChains pins each weapon rule's effect on the exact chain against
// a value derived by hand. The base case: BS 4 hits on 3+ (4/6), S4 against
// T4 wounds on 4+ (3/6), a 3+ armour save kept by AP5 fails on 1-2 (2/6).
func TestRuleChains(t *testing.T) {
	firer := NewUnit(marine, 1)
	sv3 := NewUnit(marine, 10)
	t8 := NewUnit(Profile{T: 8, W: 1, Save: 3}, 10)
	t5 := NewUnit(Profile{T: 5, W: 1, Save: 3}, 10)
	t6 := NewUnit(Profile{T: 6, W: 1, Save: 3}, 10)
	bolt := Weapon{S: 4, AP: 5}
	with := func(f func(*Weapon)) Weapon { w := bolt; f(&w); return w }
	replace := DefaultOptions
	replace.PoisonedReplacesChart = true
	tests := []struct {
		name   string
		w      Weapon
		target *Unit
		melee  bool
		o      Options
		stage  Stage
		want   float64
	}{
		{"base: 4/6 * 3/6 * 2/6", bolt, &sv3, false, DefaultOptions, StageUnsaved, 4.0 / 6 * 3 / 6 * 2 / 6},
		// Twin-linked re-rolls the 2/6 of misses: 4/6 + 2/6*4/6 = 8/9 (rulebook p.249).
		{"Twin-linked hits", with(func(w *Weapon) { w.TwinLinked = true }), &sv3, false, DefaultOptions, StageHits, 8.0 / 9},
		// Shred re-rolls failed wounds: 3/6 + 3/6*3/6 = 3/4 per hit (p.246).
		{"Shred wounds", with(func(w *Weapon) { w.Shred = true }), &sv3, false, DefaultOptions, StageWounds, 4.0 / 6 * 3 / 4},
		// Rending (6+): 4 or 5 wound and face the 3+ save (2/6 unsaved), a 6
		// wounds at AP2, which removes the 3+: 2/6*2/6 + 1/6 = 5/18 per hit (p.246).
		{"Rending (6+) at T4", with(func(w *Weapon) { w.Rending = 6 }), &sv3, false, DefaultOptions, StageUnsaved, 4.0 / 6 * 5 / 18},
		// At T8, S4 cannot wound (S-T = -4); Rending's 6 still does, at AP2.
		{"Rending (6+) at T8", with(func(w *Weapon) { w.Rending = 6 }), &t8, false, DefaultOptions, StageUnsaved, 4.0 / 6 / 6},
		// Breaching gives AP2 but no wound: nothing at T8 (Liber p.117).
		{"Breaching (6+) at T8", with(func(w *Weapon) { w.Breaching = 6 }), &t8, false, DefaultOptions, StageWounds, 0},
		// Breaching (5+) at T5 (S4 needs 5+): every wound is AP2, none saved: 2/6.
		{"Breaching (5+) at T5", with(func(w *Weapon) { w.Breaching = 5 }), &t5, false, DefaultOptions, StageUnsaved, 4.0 / 6 * 2 / 6},
		// Fleshbane wounds on 2+ whatever the Toughness (p.238): 5/6.
		{"Fleshbane at T8", with(func(w *Weapon) { w.Fleshbane = true }), &t8, false, DefaultOptions, StageWounds, 4.0 / 6 * 5 / 6},
		// Poisoned (4+) at T6 (S4 needs 6+): 4+, 3/6 (p.244).
		{"Poisoned (4+) at T6", with(func(w *Weapon) { w.Poisoned = 4 }), &t6, false, DefaultOptions, StageWounds, 4.0 / 6 * 3 / 6},
		// Poisoned (5+) with S6 against T4 (2+ on the chart): the better, 2+, by default ...
		{"Poisoned (5+), chart better", Weapon{S: 6, AP: 5, Poisoned: 5}, &sv3, false, DefaultOptions, StageWounds, 4.0 / 6 * 5 / 6},
		// ... and 5+ with the option.
		{"Poisoned (5+), replacing the chart", Weapon{S: 6, AP: 5, Poisoned: 5}, &sv3, false, replace, StageWounds, 4.0 / 6 * 2 / 6},
		// In close combat with S5 against T4, Poisoned (4+) re-rolls failed
		// wounds: 3+ (chart) re-rolled, 4/6 + 2/6*4/6 = 8/9; WS4 vs WS4 hits on 4+.
		{"Poisoned (4+) in melee, S > T", Weapon{S: 5, AP: 5, Poisoned: 4}, &sv3, true, DefaultOptions, StageWounds, 3.0 / 6 * 8 / 9},
		// Brutal (2): each wound is two wounds saved one by one: 2 * 2/6 unsaved per wound.
		{"Brutal (2)", with(func(w *Weapon) { w.Brutal = 2 }), &sv3, false, DefaultOptions, StageUnsaved, 4.0 / 6 * 3 / 6 * 2 * 2 / 6},
		// Deflagrate: each unsaved wound (1/6 per hit here) scores one more
		// hit: hits per shot 4/6 * (1 + 1/6) (p.237).
		{"Deflagrate hits", with(func(w *Weapon) { w.Deflagrate = true }), &sv3, false, DefaultOptions, StageHits, 4.0 / 6 * 7 / 6},
		// and its hits wound and are saved as the weapon's: suffered per hit 1/6 + 1/6*1/6.
		{"Deflagrate suffered", with(func(w *Weapon) { w.Deflagrate = true }), &sv3, false, DefaultOptions, StageSuffered, 4.0 / 6 * 7 / 36},
		// Blast (3") against ten models: three automatic hits per shot.
		{"Blast (3\")", with(func(w *Weapon) { w.Blast = 3 }), &sv3, false, DefaultOptions, StageHits, 3},
		// Template: five (the OPEN default).
		{"Template", with(func(w *Weapon) { w.Template = true }), &sv3, false, DefaultOptions, StageHits, 5},
		// Sniper and Precision Shots let the firer pick the model, which
		// changes nothing against identical models.
		{"Sniper", with(func(w *Weapon) { w.Sniper = true; w.PrecisionShots = 6 }), &sv3, false, DefaultOptions, StageUnsaved, 4.0 / 6 * 3 / 6 * 2 / 6},
	}
	for _, tt := range tests {
		var c Chain
		if tt.melee {
			c = MeleeChain(&firer, &tt.w, tt.target, tt.o)
		} else {
			c = ShootingChain(&firer, &tt.w, tt.target, tt.o)
		}
		if got := c.P(tt.stage); !near(got, tt.want) {
			t.Errorf("%s: %s per shot %.6f, want %.6f", tt.name, tt.stage, got, tt.want)
		}
	}
}

// TestWallOfDeath: a Template in a Reaction is D3 automatic hits, mean 2.
func TestWallOfDeath(t *testing.T) {
	firer := NewUnit(marine, 1)
	target := NewUnit(marine, 10)
	w := Weapon{Template: true, S: 4, AP: 5}
	c := FiringChain(&firer, &w, &target, w.Fire(&firer, Situation{Reaction: true}), DefaultOptions)
	if !c.WallOfDeath || !near(c.P(StageHits), 2) {
		t.Errorf("Wall of Death: %v, hits %.4f, want D3 (mean 2)", c.WallOfDeath, c.P(StageHits))
	}
	// Blast hits never exceed the target's models.
	two := NewUnit(marine, 2)
	b := Weapon{Blast: 5, S: 4, AP: 5}
	if c := ShootingChain(&firer, &b, &two, DefaultOptions); c.AutoHits != 2 {
		t.Errorf("Blast (5\") at two models: %d hits, want 2", c.AutoHits)
	}
}

// TestMurderousStrike: a To Wound roll of X+ is Instant Death, against
// which the Stupefied roll is not taken (rule text; rulebook p.243).
func TestMurderousStrike(t *testing.T) {
	firer := NewUnit(marine, 1)
	target := stupefied(Profile{T: 4, W: 2, Save: 3, LordsOfProfligacy: true}, 5)
	w := Weapon{S: 4, AP: 5, MurderousStrike: 6}
	c := ShootingChain(&firer, &w, target, DefaultOptions)
	// Per hit: 4 or 5 wound, 2/6 unsaved, 5/6 not mitigated; a 6: 2/6
	// unsaved, never mitigated.
	want := 4.0 / 6 * (2.0/6*2/6*5/6 + 1.0/6*2/6)
	if got := c.P(StageSuffered); !near(got, want) {
		t.Errorf("suffered per shot %.6f, want %.6f", got, want)
	}
	if !c.SlaysMurderous || c.MitigateIDKind != NoMitigation {
		t.Errorf("Murderous wound: slays %v, mitigation %s; want slays, none", c.SlaysMurderous, c.MitigateIDKind)
	}
}

// TestMasterCraftedAndGetsHot pins the per-bearer re-roll and the wounds
// Gets Hot deals the firer, by hand.
func TestMasterCraftedAndGetsHot(t *testing.T) {
	firer := NewUnit(marine, 1)
	target := NewUnit(marine, 10)
	mc := Weapon{Shots: dice.Const(2), S: 4, AP: 5, MasterCrafted: true}
	var a Attack
	a.Prepare(&firer, []Weapon{mc}, &target, DefaultOptions)
	// Two shots at 4/6, and a re-roll of one miss when there is one:
	// 2*4/6 + (1 - (4/6)^2) * 4/6 = 4/3 + 10/27 = 46/27.
	if got := a.Expected(StageHits); !near(got, 46.0/27) {
		t.Errorf("Master-crafted hits %.6f, want 46/27", got)
	}
	plasma := Weapon{S: 7, AP: 2, GetsHot: true}
	a.Prepare(&firer, []Weapon{plasma}, &target, DefaultOptions)
	// A To Hit 1 (1/6) wounds the firer; AP2 removes its 3+: 1/6 per shot.
	if got := a.ExpectedHot(); !near(got, 1.0/6) {
		t.Errorf("Gets Hot at AP2: %.6f, want 1/6", got)
	}
	plasma.AP = 4
	a.Prepare(&firer, []Weapon{plasma}, &target, DefaultOptions)
	// AP4 leaves the firer's 3+: 1/6 * 2/6 = 1/18.
	if got := a.ExpectedHot(); !near(got, 1.0/18) {
		t.Errorf("Gets Hot at AP4: %.6f, want 1/18", got)
	}
	plasma.TwinLinked = true
	a.Prepare(&firer, []Weapon{plasma}, &target, DefaultOptions)
	// Twin-linked: only a re-rolled 1 counts: 2/6 missed, then 1/6 a 1: 1/18, then 2/6 unsaved.
	if got := a.ExpectedHot(); !near(got, 1.0/18*2/6) {
		t.Errorf("Gets Hot, Twin-linked: %.6f, want 1/54", got)
	}
	mcHot := Weapon{Shots: dice.Const(2), S: 7, AP: 2, GetsHot: true, MasterCrafted: true}
	a.Prepare(&firer, []Weapon{mcHot}, &target, DefaultOptions)
	// Two shots: 2/6 ones, less P(any 1) = 11/36, plus P(any miss)/6 = (5/9)/6.
	if got, want := a.ExpectedHot(), 2.0/6-11.0/36+5.0/54; !near(got, want) {
		t.Errorf("Gets Hot, Master-crafted: %.6f, want %.6f", got, want)
	}
}

// TestDestroyer: each wound suffered costs D3 wounds. One BS4 shot at S4
// against a lone T4 W3 model with no save removes it when it hits (4/6),
// wounds (3/6) and the D3 rolls 3 (1/3): 1/9.
func TestDestroyer(t *testing.T) {
	firer := NewUnit(marine, 1)
	target := NewUnit(Profile{T: 4, W: 3}, 1)
	w := Weapon{Type: Destroyer, S: 4, AP: 5}
	var a Attack
	a.Prepare(&firer, []Weapon{w}, &target, DefaultOptions)
	if got := a.Casualties(&target).At(1); !near(got, 1.0/9) {
		t.Errorf("P(removed) %.6f, want 1/9", got)
	}
}

// TestConcussive: P(at least one wound, saved or not) from n shots.
func TestConcussive(t *testing.T) {
	firer := NewUnit(marine, 3)
	target := NewUnit(marine, 10)
	w := Weapon{S: 4, AP: 5, Concussive: 1}
	var a Attack
	a.Prepare(&firer, []Weapon{w}, &target, DefaultOptions)
	// Three shots, each wounding with 4/6 * 3/6 = 1/3: 1 - (2/3)^3.
	if got := a.PConcussed(); !near(got, 1-math.Pow(2.0/3, 3)) {
		t.Errorf("P(concussed) %.6f, want 1 - (2/3)^3", got)
	}
}

// TestRulesMonteCarlo rolls attacks with every rule that changes the
// programme's packets (Rending, Brutal, Destroyer, Deflagrate, Murderous
// Strike, Master-crafted, Gets Hot, Blast) against multi-wound models and
// compares each stage's mean, the Gets Hot wounds and the casualty
// distribution with the exact values, within 5 standard errors.
func TestRulesMonteCarlo(t *testing.T) {
	p := marine
	p.FiringProtocols = 2
	firer := NewUnit(p, 3)
	start := Unit{Profile: Profile{T: 4, W: 3, Save: 3, Invuln: 5, FeelNoPain: 6}, Models: 4, Hurt: 1}
	sets := [][]Weapon{
		{{Name: "rend", Shots: dice.Const(2), S: 5, AP: 4, Rending: 5, Brutal: 2, MasterCrafted: true, GetsHot: true},
			{Name: "volkite", Shots: dice.MustParse("D3"), S: 6, AP: 5, Deflagrate: true, Type: Destroyer}},
		{{Name: "murder", Shots: dice.Const(3), S: 4, AP: 3, MurderousStrike: 5, Shred: true, Breaching: 6},
			{Name: "blast", Type: Heavy, S: 4, AP: 4, Blast: 3, GetsHot: true}},
		// Murderous Strike with a random number of shots, and with
		// Master-crafted (counted hit by hit), Rending and Brutal.
		{{Name: "axe", Shots: dice.MustParse("D3"), S: 5, AP: 3, MurderousStrike: 6, Rending: 5, Brutal: 2},
			{Name: "blade", Shots: dice.Const(2), S: 4, AP: 4, MurderousStrike: 5, MasterCrafted: true}},
	}
	for si, weapons := range sets {
		var a Attack
		a.Prepare(&firer, weapons, &start, DefaultOptions)
		if len(a.Volleys) != 2 {
			t.Fatalf("set %d: %d volleys, want 2", si, len(a.Volleys))
		}
		r := dice.New(uint64(si+1), 0)
		const n = 200_000
		var sums [5]float64
		hot := 0.0
		counts := make([]int, start.Models+1)
		for range n {
			u := start
			tl := a.Roll(r, &u)
			for s := StageShots; s <= StageSuffered; s++ {
				sums[s] += float64(tl.At(s))
			}
			hot += float64(tl.Hot)
			counts[start.Models-u.Models]++
		}
		for s := StageShots; s <= StageSuffered; s++ {
			d := a.Dist(s)
			if !near(d.Mean(), a.Expected(s)) {
				t.Errorf("set %d %s: Dist mean %.9f, Expected %.9f", si, s, d.Mean(), a.Expected(s))
			}
			se := d.StdDev() / math.Sqrt(n)
			if z := (sums[s]/n - d.Mean()) / se; math.Abs(z) > 5 {
				t.Errorf("set %d %s: mean %.4f, exact %.4f, z %.1f", si, s, sums[s]/n, d.Mean(), z)
			}
		}
		// Gets Hot wounds are at most a few per attack: a Poisson-like SE
		// bound sqrt(mean/n) is generous for a count that rarely exceeds 1.
		if e := a.ExpectedHot(); math.Abs(hot/n-e) > 5*math.Sqrt(e/n)+1e-9 {
			t.Errorf("set %d: Gets Hot mean %.5f, exact %.5f", si, hot/n, e)
		}
		cas := a.Casualties(&start)
		for v, k := range counts {
			if z, ok := zWithin(k, n, cas.At(v)); !ok {
				t.Errorf("set %d: P(%d casualties) %.4f, exact %.4f, z %.1f", si, v, float64(k)/n, cas.At(v), z)
			}
		}
		if !near(cas.Mean(), a.ExpectedCasualties(&start)) {
			t.Errorf("set %d: casualty mean %.9f, ExpectedCasualties %.9f", si, cas.Mean(), a.ExpectedCasualties(&start))
		}
	}
}

// TestSelectRules: Ordnance fires alone, a second Pistol fires with the
// first, and weapons out of range are not fired.
func TestSelectRules(t *testing.T) {
	firer := NewUnit(marine, 5)
	target := NewUnit(marine, 10)
	pistols := []Weapon{{Name: "a", Type: Pistol, Range: 12, S: 4, AP: 5}, {Name: "b", Type: Pistol, Range: 12, S: 3, AP: 5}}
	var a Attack
	if got := a.Select(&firer, pistols, &target, DefaultOptions); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("two pistols: %v, want both", got)
	}
	p := marine
	p.FiringProtocols = 2
	fp := NewUnit(p, 5)
	ord := []Weapon{{Name: "ordnance", Type: Ordnance, S: 9, AP: 2, Blast: 5}, {Name: "bolter", S: 4, AP: 5}}
	if got := a.Select(&fp, ord, &target, DefaultOptions); !slices.Equal(got, []int{0}) {
		t.Errorf("Ordnance with Firing Protocols (2): %v, want it alone", got)
	}
	rf := []Weapon{{Name: "bolter", Type: RapidFire, Range: 24, S: 4, AP: 5}}
	a.PrepareAt(&firer, rf, &target, Situation{Distance: 30}, DefaultOptions)
	if len(a.Volleys) != 0 {
		t.Errorf("out of range: %d volleys, want none", len(a.Volleys))
	}
	a.PrepareAt(&firer, rf, &target, Situation{Distance: 12}, DefaultOptions)
	// Five models, two shots each within half range.
	if got := a.Expected(StageShots); got != 10 {
		t.Errorf("Rapid Fire at 12\": %v shots, want 10", got)
	}
	if !a.BlocksCharge() {
		t.Error("a Rapid Fire attack should stop a charge")
	}
}

// TestSelectNothingScores: a unit whose weapons can do the target no
// harm still makes its Shooting Attack, with the first weapon it can fire:
// S1 and S2 cannot wound T6 (four or more below), the first is out of
// range at 20", so the models fire the second. One that can harm is
// fired in its stead, the others left out.
func TestSelectNothingScores(t *testing.T) {
	firer := NewUnit(marine, 5)
	p := marine
	p.T = 6
	target := NewUnit(p, 5)
	weak := []Weapon{{Name: "pistol", Type: Pistol, Range: 12, S: 1, AP: 5}, {Name: "rifle", Range: 24, S: 2, AP: 5}}
	var a Attack
	a.PrepareAt(&firer, weak, &target, Situation{Distance: 20}, DefaultOptions)
	if len(a.Volleys) != 1 || a.Volleys[0].Index != 1 || a.Expected(StageShots) != 5 || a.Expected(StageWounds) != 0 {
		t.Errorf("weapons that cannot wound: volleys %+v, want the rifle's five shots and no wound", a.Volleys)
	}
	a.PrepareAt(&firer, append(weak, Weapon{Name: "lascannon", Range: 48, S: 9, AP: 2}), &target, Situation{Distance: 20}, DefaultOptions)
	if len(a.Volleys) != 1 || a.Volleys[0].Index != 2 {
		t.Errorf("with a lascannon: volleys %+v, want it alone", a.Volleys)
	}
}

// TestSelectOrdnanceLeftOut: an Ordnance weapon that is not the best pick
// is left out without taking a weapon's place, so Firing Protocols (2)
// still fires two weapons. Expected unsaved wounds per shot against T4 3+
// models at BS 4 (hit 4/6): lascannon S9 AP2 4/6 * 5/6 * 1 = 5/9, one shot;
// the Ordnance S5 AP3 4/6 * 4/6 * 1 = 4/9, one shot; autocannon S7 AP4
// 4/6 * 5/6 * 2/6 = 5/27, two shots, 10/27. The Ordnance is second best,
// so the two fired are the lascannon and the autocannon: 5/9 + 10/27 =
// 25/27 unsaved wounds for one model. Against one-Wound models with no
// Damage Mitigation each unsaved wound is one model, so the default
// choice, by casualties, scores the weapons the same.
func TestSelectOrdnanceLeftOut(t *testing.T) {
	target := NewUnit(marine, 10)
	ord := Weapon{Name: "ordnance", Type: Ordnance, Shots: dice.Const(1), S: 5, AP: 3}
	list := []Weapon{lascan, ord, autocan}
	p := marine
	p.FiringProtocols = 2
	firer := NewUnit(p, 1)
	var a Attack
	if got := a.Select(&firer, list, &target, DefaultOptions); !slices.Equal(got, []int{0, 2}) {
		t.Errorf("Firing Protocols (2) with the Ordnance second best: %v, want [0 2]", got)
	}
	a.Prepare(&firer, list, &target, DefaultOptions)
	if got, want := a.Expected(StageUnsaved), 25.0/27; !near(got, want) {
		t.Errorf("expected unsaved wounds %v, want 25/27 = %v", got, want)
	}
}

// FuzzParseType: no Type column may panic the reader, and every rule it
// returns points inside the text.
func FuzzParseType(f *testing.F) {
	for _, s := range []string{"Rapid Fire", "Heavy 2", "Assault 1, Rending (6+)", "Melee, Brutal (2)", "Heavy 1, Blast (3\")", ",,", "(", "Pistol D3+1, (a, b), c", "Melee,\t0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tt, err := ParseType(s)
		if err != nil {
			if te, ok := err.(*TypeError); !ok || te.Col < 1 || te.Col > len(s)+1 {
				t.Fatalf("%q: error %v with a column outside the text", s, err)
			}
			return
		}
		for _, r := range tt.Rules {
			if r.Col < 1 || r.Col > len(s) || !strings.HasPrefix(s[r.Col-1:], r.Text) {
				t.Fatalf("%q: rule %q at column %d", s, r.Text, r.Col)
			}
		}
	})
}

// TestTwinLinkedTemplate: a Template rolls no To Hit, so Twin-linked
// re-rolls its failed To Wound rolls instead (rulebook p.249). S4 against
// T4 wounds on 4+, re-rolled: 3/6 + 3/6*3/6 = 3/4 per hit, against 1/2
// without the rule. Each template hits five models (the OPEN default), so
// a shot scores 5 * 3/4 = 15/4 wounds and, through the 3+ save kept by
// AP5, 15/4 * 2/6 = 5/4 unsaved; Wall of Death's D3 hits (mean 2) wound
// 2 * 3/4 = 3/2. Rolling 200,000 shots must land within 5 standard errors
// of the exact mean: a shot's wounds are Binomial(5, 3/4), variance
// 5 * 3/4 * 1/4 = 15/16.
func TestTwinLinkedTemplate(t *testing.T) {
	firer := NewUnit(marine, 1)
	target := NewUnit(marine, 10)
	w := Weapon{Template: true, S: 4, AP: 5, TwinLinked: true}
	c := ShootingChain(&firer, &w, &target, DefaultOptions)
	if got := c.P(StageWounds); !near(got, 15.0/4) {
		t.Errorf("Twin-linked Template: wounds per shot %.6f, want 15/4", got)
	}
	if got := c.P(StageUnsaved); !near(got, 5.0/4) {
		t.Errorf("Twin-linked Template: unsaved per shot %.6f, want 5/4", got)
	}
	wod := FiringChain(&firer, &w, &target, w.Fire(&firer, Situation{Reaction: true}), DefaultOptions)
	if got := wod.P(StageWounds); !near(got, 3.0/2) {
		t.Errorf("Twin-linked Wall of Death: wounds per shot %.6f, want 3/2", got)
	}
	plain := w
	plain.TwinLinked = false
	if c := ShootingChain(&firer, &plain, &target, DefaultOptions); !near(c.P(StageWounds), 5.0/2) {
		t.Errorf("Template: wounds per shot %.6f, want 5 * 1/2", c.P(StageWounds))
	}
	const n = 200_000
	r := dice.New(7, 0)
	sum := 0
	for range n {
		u := target
		sum += c.Roll(r, 1, &u).Wounds
	}
	se := math.Sqrt(15.0 / 16 / n)
	if z := (float64(sum)/n - 15.0/4) / se; math.Abs(z) > 5 {
		t.Errorf("Twin-linked Template rolled: mean wounds %.4f, exact 3.75, z %.1f", float64(sum)/n, z)
	}
}

// TestMasterCraftedBlast: Master-crafted re-rolls a failed To Hit roll, and
// a Blast weapon rolls none: each shot of a Blast (3") at ten models is
// three hits, exactly, as rolled and as computed. With Gets Hot the shot's
// D6 still loses it on a 1 (1/6), which Master-crafted does not re-roll:
// three hits with 5/6, the firer (3+ save, removed by AP2) wounded with
// 1/6.
func TestMasterCraftedBlast(t *testing.T) {
	firer := NewUnit(marine, 2)
	target := NewUnit(marine, 10)
	w := Weapon{S: 4, AP: 5, Blast: 3, MasterCrafted: true}
	var a Attack
	a.Prepare(&firer, []Weapon{w}, &target, DefaultOptions)
	// Two models, one shot each, three hits a shot: 6.
	if d := a.Dist(StageHits); d.At(6) != 1 {
		t.Errorf("Master-crafted Blast: P(6 hits) %.6f, want 1", d.At(6))
	}
	r := dice.New(3, 0)
	for range 1000 {
		u := target
		if got := a.Roll(r, &u).Hits; got != 6 {
			t.Fatalf("Master-crafted Blast rolled %d hits, want 6", got)
		}
	}
	hot := Weapon{S: 7, AP: 2, Blast: 3, MasterCrafted: true, GetsHot: true}
	a.Prepare(&firer, []Weapon{hot}, &target, DefaultOptions)
	if got := a.Expected(StageHits); !near(got, 2*3*5.0/6) {
		t.Errorf("Master-crafted Blast, Gets Hot: hits %.6f, want 2 * 3 * 5/6", got)
	}
	if got := a.ExpectedHot(); !near(got, 2.0/6) {
		t.Errorf("Master-crafted Blast, Gets Hot: firer wounds %.6f, want 2 * 1/6", got)
	}
}

// TestGetsHotRerollNoToHit: with Options.HotRerollNoToHit, a weapon that
// rolls no To Hit re-rolls its Gets Hot D6 of 1 when its firer may re-roll
// To Hit rolls (Twin-linked, BS 6 and above; rulebook p.239), and only the
// re-roll counts: a shot is lost, and the firer wounded (AP2 leaves its 3+
// nothing), with 1/36 instead of 1/6. Two models with a Blast (3") that
// hits three of ten Legionaries: 2 * 3 * 35/36 = 35/6 hits and 2/36 = 1/18
// wounds; a BS 4 firer with no Twin-linked, 2 * 3 * 5/6 = 5 hits and 2/6
// wounds; a Twin-linked Template in Wall of Death (D3 hits, mean 2): 2 * 2
// * 35/36. By default nothing re-rolls that D6: 5 hits and 2/6 wounds for
// the Blasts, 2 * 2 * 5/6 hits for the Template.
func TestGetsHotRerollNoToHit(t *testing.T) {
	target := NewUnit(marine, 10)
	cannon := Weapon{Name: "cannon", S: 7, AP: 2, Blast: 3, GetsHot: true}
	twin := cannon
	twin.TwinLinked = true
	flamer := Weapon{Name: "flamer", S: 5, AP: 2, Template: true, GetsHot: true, TwinLinked: true}
	bs6 := marine
	bs6.BS = 6
	for _, c := range []struct {
		name        string
		firer       Profile
		w           Weapon
		s           Situation
		reroll      bool
		hits, wound float64
	}{
		{"BS 4", marine, cannon, Situation{}, true, 5, 2.0 / 6},
		{"Twin-linked", marine, twin, Situation{}, true, 35.0 / 6, 1.0 / 18},
		{"BS 6", bs6, cannon, Situation{}, true, 35.0 / 6, 1.0 / 18},
		{"Twin-linked Wall of Death", marine, flamer, Situation{Reaction: true}, true, 2 * 2 * 35.0 / 36, 1.0 / 18},
		{"Twin-linked, by default", marine, twin, Situation{}, false, 5, 2.0 / 6},
		{"BS 6, by default", bs6, cannon, Situation{}, false, 5, 2.0 / 6},
		{"Twin-linked Wall of Death, by default", marine, flamer, Situation{Reaction: true}, false, 2 * 2 * 5.0 / 6, 2.0 / 6},
	} {
		firer := NewUnit(c.firer, 2)
		var a Attack
		o := DefaultOptions
		o.HotRerollNoToHit = c.reroll
		a.PrepareAt(&firer, []Weapon{c.w}, &target, c.s, o)
		if got := a.Expected(StageHits); !near(got, c.hits) {
			t.Errorf("%s: hits %.6f, want %.6f", c.name, got, c.hits)
		}
		if got := a.ExpectedHot(); !near(got, c.wound) {
			t.Errorf("%s: Gets Hot wounds %.6f, want %.6f", c.name, got, c.wound)
		}
		// Rolled: the firer's wounds within 5 standard errors, with a
		// fixed seed (a Poisson-like count, variance below its mean of
		// two shots' Bernoulli sum).
		const n = 40_000
		r := dice.New(17, 0)
		sum, sum2 := 0.0, 0.0
		for range n {
			f, u := firer, target
			h := float64(a.Fire(r, &f, &u).Hot)
			sum += h
			sum2 += h * h
		}
		mean := sum / n
		if se := math.Sqrt((sum2/n - mean*mean) / n); math.Abs(mean-c.wound) > 5*se+1e-12 {
			t.Errorf("%s: rolled %.5f Gets Hot wounds, exact %.5f (5 SE = %.5f)", c.name, mean, c.wound, 5*se)
		}
	}
}

// TestGetsHotNoShrouded: a Gets Hot wound allows the firer's armour,
// invulnerable save and Damage Mitigation, but no cover and no Shrouded
// roll (rulebook p.239). A firer left with a 2+ Shrouded roll fires a
// plasma gun at AP2 (no save for its 3+): a To Hit 1 (1/6) wounds it
// whatever the Shrouded roll, 1/6 per shot; with Feel No Pain (5+) it
// ignores 2/6 of those: 1/6 * 4/6 = 1/9.
func TestGetsHotNoShrouded(t *testing.T) {
	firer := NewUnit(marine, 1)
	firer.Shrouded = 2
	target := NewUnit(marine, 10)
	w := Weapon{S: 7, AP: 2, GetsHot: true}
	c := ShootingChain(&firer, &w, &target, DefaultOptions)
	if got := c.PHot(); !near(got, 1.0/6) {
		t.Errorf("Gets Hot with Shrouded (2+): %.6f per shot, want 1/6", got)
	}
	firer.FeelNoPain = 5
	c = ShootingChain(&firer, &w, &target, DefaultOptions)
	if got := c.PHot(); !near(got, 1.0/9) {
		t.Errorf("Gets Hot with Feel No Pain (5+): %.6f per shot, want 1/9", got)
	}
}

// TestPoisonedWielderStrength: in close combat Poisoned re-rolls failed
// To Wound rolls when the wielder's Strength or the weapon's is above the
// target's Toughness (rulebook p.244). A Strength 5 model striking with a
// Strength 1 Poisoned (4+) weapon at T4: S1 needs 6+ on the chart, so the
// Poisoned 4+ stands (3/6), re-rolled for the wielder's S5: 3/6 + 3/6*3/6
// = 3/4; WS4 against WS4 hits on 4+ (1/2): 3/8 wounds per blow. A Strength
// 4 wielder (S4 is not above T4) gets no re-roll: 1/2 * 3/6 = 1/4.
func TestPoisonedWielderStrength(t *testing.T) {
	strong := marine
	strong.S = 5
	a := NewUnit(strong, 1)
	target := NewUnit(marine, 10)
	w := Weapon{S: 1, AP: APNone, Poisoned: 4}
	if c := MeleeChain(&a, &w, &target, DefaultOptions); !near(c.P(StageWounds), 3.0/8) {
		t.Errorf("Poisoned (4+) S1 wielded at S5: wounds per blow %.6f, want 3/8", c.P(StageWounds))
	}
	b := NewUnit(marine, 1)
	if c := MeleeChain(&b, &w, &target, DefaultOptions); !near(c.P(StageWounds), 1.0/4) {
		t.Errorf("Poisoned (4+) S1 wielded at S4: wounds per blow %.6f, want 1/4", c.P(StageWounds))
	}
}

// TestSelectAgainstTogether: an Ordnance weapon, which fires alone, is
// fired only when it makes more expected unsaved wounds than the weapons it
// would stop together, and two Pistols are fired instead of one better
// weapon when the pair makes more. Per model against T4 3+ models at BS 4
// (hit 4/6): lascannon S9 AP2 4/6 * 5/6 * 1 = 15/27 (one shot); autocannon
// S7 AP4 2 * 4/6 * 5/6 * 2/6 = 10/27; together 25/27. Ordnance 2 at S5 AP3
// makes 2 * 4/6 * 4/6 * 1 = 24/27, more than the lascannon alone but less
// than both; at S6 AP3, 2 * 4/6 * 5/6 * 1 = 30/27, more than both. Heavy
// bolter S5 AP4, three shots: 3 * 4/6 * 4/6 * 2/6 = 12/27; a Pistol 2 at
// S5 AP5 makes 2 * 4/6 * 4/6 * 2/6 = 8/27, and two of them 16/27. With
// Firing Protocols (X) and PistolPairWithinProtocols off, the pair of
// Pistols takes one of the X choices, so Firing Protocols (2) fires the
// heavy bolter and both Pistols, 12/27 + 16/27 = 28/27, and Firing
// Protocols (3) the lascannon, the heavy bolter and both, 15/27 + 12/27 +
// 16/27 = 43/27; counted as two of the X (the default), the Pistols leave
// Firing Protocols (2) the heavy bolter and one Pistol, 20/27, and Firing
// Protocols (3) the lascannon, the heavy bolter and one Pistol, 35/27.
// Profiles of one weapon (Weapon.Group) are fired one at most: the
// lascannon and the autocannon as two profiles of one gun leave Firing
// Protocols (2) the lascannon alone, 15/27, and beside a heavy bolter the
// lascannon and the heavy bolter, 27/27; two Pistols that are profiles of
// one Pistol are no pair, and the heavy bolter (12/27) outscores one
// (8/27).
func TestSelectAgainstTogether(t *testing.T) {
	grouped := func(g int, ws ...Weapon) []Weapon {
		for i := range ws {
			ws[i].Group = g
		}
		return ws
	}
	target := NewUnit(marine, 10)
	ord := func(s int) Weapon {
		return Weapon{Name: "ordnance", Type: Ordnance, Shots: dice.Const(2), S: s, AP: 3}
	}
	pistol := func(name string) Weapon {
		return Weapon{Name: name, Type: Pistol, Shots: dice.Const(2), Range: 12, S: 5, AP: 5}
	}
	tests := []struct {
		name    string
		fp      int
		within  bool
		list    []Weapon
		want    []int
		unsaved float64
	}{
		{"FP 2: 24/27 alone against 25/27 together", 2, false, []Weapon{ord(5), lascan, autocan}, []int{1, 2}, 25.0 / 27},
		{"FP 2: 30/27 alone against 25/27 together", 2, false, []Weapon{ord(6), lascan, autocan}, []int{0}, 30.0 / 27},
		{"FP 1: 24/27 alone against 15/27", 1, false, []Weapon{ord(5), lascan, autocan}, []int{0}, 24.0 / 27},
		{"two Pistols, 16/27, against a heavy bolter, 12/27", 0, false, []Weapon{hbolter, pistol("a"), pistol("b")}, []int{1, 2}, 16.0 / 27},
		{"two Pistols counted as two: still both without Firing Protocols", 0, true, []Weapon{hbolter, pistol("a"), pistol("b")}, []int{1, 2}, 16.0 / 27},
		{"FP 2: the heavy bolter and both Pistols, 28/27", 2, false, []Weapon{hbolter, pistol("a"), pistol("b")}, []int{0, 1, 2}, 28.0 / 27},
		{"FP 2, Pistols counted as two: the heavy bolter and a Pistol, 20/27", 2, true, []Weapon{hbolter, pistol("a"), pistol("b")}, []int{0, 1}, 20.0 / 27},
		{"FP 3: the lascannon, the heavy bolter and both Pistols, 43/27", 3, false, []Weapon{pistol("a"), hbolter, pistol("b"), lascan}, []int{3, 1, 0, 2}, 43.0 / 27},
		{"FP 3, Pistols counted as two: one Pistol, 35/27", 3, true, []Weapon{pistol("a"), hbolter, pistol("b"), lascan}, []int{3, 1, 0}, 35.0 / 27},
		{"FP 2, two profiles of one gun: the lascannon alone, 15/27", 2, true, grouped(1, lascan, autocan), []int{0}, 15.0 / 27},
		{"FP 2, two profiles of one gun and a heavy bolter: 27/27", 2, true, append(grouped(1, lascan, autocan), hbolter), []int{0, 2}, 27.0 / 27},
		{"two profiles of one Pistol: no pair, the heavy bolter, 12/27", 0, false, append([]Weapon{hbolter}, grouped(2, pistol("a"), pistol("b"))...), []int{0}, 12.0 / 27},
	}
	for _, tt := range tests {
		p := marine
		p.FiringProtocols = tt.fp
		firer := NewUnit(p, 1)
		o := DefaultOptions
		o.PistolPairWithinProtocols = tt.within
		var a Attack
		if got := slices.Clone(a.Select(&firer, tt.list, &target, o)); !slices.Equal(got, tt.want) {
			t.Errorf("%s: picked %v, want %v", tt.name, got, tt.want)
		}
		a.Prepare(&firer, tt.list, &target, o)
		if got := a.Expected(StageUnsaved); !near(got, tt.unsaved) {
			t.Errorf("%s: %v unsaved wounds, want %v", tt.name, got, tt.unsaved)
		}
	}
}
