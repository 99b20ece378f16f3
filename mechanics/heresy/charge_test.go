package heresy

import (
	"testing"

	"hammersim/mechanics/dice"
)

// TestChargeSuccess pins the charge roll: 2D6 plus the Movement bonus,
// capped at 12" (the OPEN defaults). 2D6 >= n counts: 36, 35, 33, 30, 26,
// 21, 15, 10, 6, 3, 1 for n = 2 to 12, by enumeration.
func TestChargeSuccess(t *testing.T) {
	noCap := DefaultOptions
	noCap.MaxCharge = 0
	tests := []struct {
		name            string
		distance, bonus int
		o               Options
		want            float64
	}{
		{"7\" on 2D6", 7, 0, DefaultOptions, 21.0 / 36},
		{"2\" always", 2, 0, DefaultOptions, 1},
		{"12\" on 2D6", 12, 0, DefaultOptions, 1.0 / 36},
		{"12\" with +2: 2D6 >= 10", 12, 2, DefaultOptions, 6.0 / 36},
		{"13\": beyond the 12\" cap", 13, 5, DefaultOptions, 0},
		{"13\" with +5 and no cap: 2D6 >= 8", 13, 5, noCap, 15.0 / 36},
		{"9\" with +3: 2D6 >= 6", 9, 3, DefaultOptions, 26.0 / 36},
	}
	for _, tt := range tests {
		if got := ChargeSuccess(tt.distance, tt.bonus, tt.o); !near(got, tt.want) {
			t.Errorf("%s: %.6f, want %.6f", tt.name, got, tt.want)
		}
	}
	// A cap folds the roll: 2D6+5 capped at 12 is 12 with P(2D6 >= 7).
	if got := ChargeRoll(5, DefaultOptions).At(12); !near(got, 21.0/36) {
		t.Errorf("P(capped roll = 12) %.6f, want 21/36", got)
	}
	r := dice.New(3, 0)
	const n = 200_000
	k := 0
	for range n {
		if RollCharge(r, 2, DefaultOptions) >= 9 {
			k++
		}
	}
	// 2D6 + 2 >= 9: 2D6 >= 7, 21/36.
	if z, ok := zWithin(k, n, 21.0/36); !ok {
		t.Errorf("rolled charges: %.4f, want 21/36, z %.1f", float64(k)/n, z)
	}
}

// TestDisorderedCharge: a Stupefied charger's charge is always Disordered
// (rule text), and a Disordered charge loses the charge's bonus Attack and
// Furious Charge.
func TestDisorderedCharge(t *testing.T) {
	calm := NewUnit(reveller, 5)
	high := stupefied(reveller, 5)
	none := DefaultOptions
	none.DisorderTriggers = DisorderTriggers{}
	tests := []struct {
		name    string
		u       *Unit
		held    bool
		targets int
		o       Options
		want    bool
	}{
		{"calm, one target", &calm, false, 1, DefaultOptions, false},
		{"Stupefied", high, false, 1, DefaultOptions, true},
		{"Stupefied, every trigger off", high, false, 1, none, true},
		{"Hold the Line", &calm, true, 1, DefaultOptions, true},
		{"Hold the Line, trigger off", &calm, true, 1, none, false},
		{"two targets", &calm, false, 2, DefaultOptions, true},
	}
	for _, tt := range tests {
		if got := ChargeDisordered(tt.u, tt.held, tt.targets, tt.o); got != tt.want {
			t.Errorf("%s: Disordered %v, want %v", tt.name, got, tt.want)
		}
	}
	p := reveller
	p.FuriousCharge = 1
	in := NewUnit(p, 5)
	s := Side{Unit: &in, Charged: true}
	s.Ready()
	if s.Attacks(DefaultOptions) != 2 || in.Strength() != 5 {
		t.Errorf("charge in good order: A %d S %d, want 2 (1 + the charge's 1) and 5 (Furious Charge)", s.Attacks(DefaultOptions), in.Strength())
	}
	s.Disordered = true
	s.Ready()
	if s.Attacks(DefaultOptions) != 1 || in.Strength() != 4 {
		t.Errorf("Disordered: A %d S %d, want 1 and 4", s.Attacks(DefaultOptions), in.Strength())
	}
	hp := *stupefied(p, 5)
	hs := Side{Unit: &hp, Charged: true}
	hs.Ready()
	// Stupefied: +1 Strength, but the charge is Disordered: no Furious
	// Charge, no bonus Attack.
	if hs.Attacks(DefaultOptions) != 1 || hp.Strength() != 5 {
		t.Errorf("Stupefied charger: A %d S %d, want 1 and 5 (4 + Stupefied's 1)", hs.Attacks(DefaultOptions), hp.Strength())
	}
}

// TestReactions: who may make which Reaction (rule text; rulebook p.238,
// p.244).
func TestReactions(t *testing.T) {
	fearless := marine
	fearless.Fearless = true
	pinned := NewUnit(marine, 5)
	pinned.Conditions = Pinned
	back := NewUnit(marine, 5)
	back.FallingBack = true
	fl := NewUnit(fearless, 5)
	plain := NewUnit(marine, 5)
	tests := []struct {
		name string
		u    *Unit
		re   Reaction
		want bool
	}{
		{"Return Fire", &plain, ReturnFire, true},
		{"Stupefied: no Reactions", stupefied(reveller, 5), ReturnFire, false},
		{"Stupefied: no Overwatch", stupefied(reveller, 5), Overwatch, false},
		{"Pinned: none", &pinned, ReturnFire, false},
		{"Falling Back: none", &back, Overwatch, false},
		{"Fearless: no Evade (grants a save)", &fl, Evade, false},
		{"Fearless: Return Fire", &fl, ReturnFire, true},
		{"Evade", &plain, Evade, true},
	}
	for _, tt := range tests {
		if got := tt.u.CanReact(tt.re); got != tt.want {
			t.Errorf("%s: CanReact(%s) %v, want %v", tt.name, tt.re.Name, got, tt.want)
		}
	}
}

// TestFearAndUseless: Fear (X) lowers the enemy's Leadership unless it is
// Fearless; Our Weapons Are Useless makes a loser that cannot wound fail by
// choice, never a Fearless one.
func TestFearAndUseless(t *testing.T) {
	p := marine
	p.Fear = 2
	terror := NewUnit(p, 5)
	plain := NewUnit(marine, 5)
	fp := marine
	fp.Fearless = true
	fearless := NewUnit(fp, 5)
	if plain.FearOf(&terror) != 2 || fearless.FearOf(&terror) != 0 {
		t.Errorf("Fear (2): plain %d, Fearless %d; want 2 and 0", plain.FearOf(&terror), fearless.FearOf(&terror))
	}
	// Ld 8 with Fear (2): 2D6 <= 6, 15/36.
	if got := plain.PassProbability(MoraleCheck, PhaseAssault, -plain.FearOf(&terror), DefaultOptions); !near(got, 15.0/36) {
		t.Errorf("Ld 8 - 2: %.4f, want 15/36", got)
	}
	owau := DefaultOptions
	owau.OurWeaponsAreUseless = true
	dread := NewUnit(Profile{WS: 4, T: 8, W: 3, Save: 2}, 1)
	weak := Weapon{S: 3, AP: APNone} // S3 against T8 cannot wound
	if !ChoosesToFail(&plain, &weak, &dread, owau) {
		t.Error("a loser that cannot wound should choose to fail with the option")
	}
	if ChoosesToFail(&plain, &weak, &dread, DefaultOptions) {
		t.Error("without the option nobody chooses to fail")
	}
	if ChoosesToFail(&fearless, &weak, &dread, owau) {
		t.Error("a Fearless unit may not choose to fail")
	}
	if ChoosesToFail(&plain, &Weapon{S: 5, AP: 2}, &dread, owau) {
		t.Error("a loser that can wound does not choose to fail")
	}
}

// TestChargeWithOverwatch rolls charges by a lone T4 model with no save
// into a unit whose one flamer fires Wall of Death in Overwatch: D3 hits,
// each wounding on 4+ with no save. The charger survives with
// E[(1/2)^D3] = (1/2 + 1/4 + 1/8)/3 = 7/24, then reaches 7" with 21/36.
func TestChargeWithOverwatch(t *testing.T) {
	o := DefaultOptions
	o.Overwatch = true
	charger := NewUnit(Profile{WS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8}, 1)
	defender := NewUnit(marine, 1)
	flamer := Weapon{Name: "flamer", Template: true, S: 4, AP: 5}
	var ow Attack
	ow.PrepareAt(&defender, []Weapon{flamer}, &charger, Situation{Distance: 7, Reaction: true, Charging: true}, o)
	r := dice.New(5, 0)
	const n = 200_000
	reached := 0
	for range n {
		a, b := charger, defender
		res := Charge(r, Side{Unit: &a}, Side{Unit: &b}, &ow, 7, 0, o)
		if res.Reached {
			reached++
		}
	}
	want := 7.0 / 24 * 21 / 36
	if z, ok := zWithin(reached, n, want); !ok {
		t.Errorf("P(reached) %.4f, want 7/24 * 21/36 = %.4f, z %.1f", float64(reached)/n, want, z)
	}
	// A Stupefied charger makes no Overwatch difference but its charge is
	// always Disordered.
	h := *stupefied(reveller, 5)
	d := NewUnit(marine, 5)
	for range 100 {
		a, b := h, d
		if res := Charge(r, Side{Unit: &a}, Side{Unit: &b}, nil, 2, 0, DefaultOptions); !res.Reached || !res.Disordered {
			t.Fatalf("Stupefied charge at 2\": reached %v Disordered %v, want both", res.Reached, res.Disordered)
		}
	}
}

// TestNoOverwatchBeyondMaxCharge: a charge may not be declared against a
// target beyond the longest charge (12" by default), so no Overwatch is
// fired at it. Two marines fire Overwatch with Rapid Fire bolters at ten
// charging marines: at 12", half the bolter's 24", each fires 2 shots, 4
// Snap Shots in all, each removing a model with 1/6 (6+ to hit) * 1/2 (S4
// vs T4) * 1/3 (3+ save against AP5) = 1/36: 4/36 = 1/9 models, never more
// than ten; the charge reaches with P(2D6 >= 12) = 1/36. At 13" nothing
// happens: no Overwatch, no roll.
func TestNoOverwatchBeyondMaxCharge(t *testing.T) {
	o := DefaultOptions
	o.Overwatch = true
	bolter := Weapon{Name: "bolter", Type: RapidFire, Range: 24, S: 4, AP: 5}
	x := AssaultExchange{
		Units:            [2]Unit{NewUnit(marine, 10), NewUnit(marine, 2)},
		Charged:          true,
		OverwatchWeapons: []Weapon{bolter},
		Options:          o,
	}
	for _, tt := range []struct {
		distance           int
		overwatch, reached float64
	}{
		{12, 1.0 / 9, 1.0 / 36},
		{13, 0, 0},
	} {
		x.Distance = tt.distance
		ex := ExactAssault(&x)
		if !near(ex[0].Overwatch, tt.overwatch) || !near(ex[0].Reached, tt.reached) {
			t.Errorf("%d\": Overwatch %.6f, reached %.6f; want %.6f and %.6f",
				tt.distance, ex[0].Overwatch, ex[0].Reached, tt.overwatch, tt.reached)
		}
	}
	// Without a distance the charge reaches, and Overwatch is fired as at
	// the longest charge, 12": the same 1/9 models. With no longest charge
	// (max_charge 0) the bolters are beyond half range: 2 Snap Shots,
	// 2/36 models.
	x.Distance = 0
	for _, tt := range []struct {
		maxCharge int
		overwatch float64
	}{{12, 1.0 / 9}, {0, 1.0 / 18}} {
		x.Options.MaxCharge = tt.maxCharge
		if ex := ExactAssault(&x); !near(ex[0].Overwatch, tt.overwatch) || !near(ex[0].Reached, 1) {
			t.Errorf("no distance, max_charge %d: Overwatch %.6f, reached %.6f; want %.6f and 1", tt.maxCharge, ex[0].Overwatch, ex[0].Reached, tt.overwatch)
		}
	}
	x.Options.MaxCharge = o.MaxCharge
	r := dice.New(5, 0)
	var ow Attack
	for range 1000 {
		a, b := NewUnit(marine, 10), NewUnit(marine, 2)
		ow.PrepareAt(&b, x.OverwatchWeapons, &a, Situation{Distance: 13, SnapShots: true, Reaction: true, Charging: true}, o)
		res := Charge(r, Side{Unit: &a}, Side{Unit: &b}, &ow, 13, 0, o)
		if res.Overwatch.Shots != 0 || res.Roll != 0 || res.Reached {
			t.Fatalf("13\": %d Overwatch shots, roll %d, reached %v; want no charge at all", res.Overwatch.Shots, res.Roll, res.Reached)
		}
	}
}
