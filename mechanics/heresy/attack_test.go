package heresy

import (
	"math"
	"slices"
	"testing"

	"hammersim/mechanics/dice"
)

// TestFiringProtocols: against T4 3+ models at BS 4, expected unsaved wounds
// per model are: heavy bolter 3 * 4/6 * 4/6 * 2/6 = 0.444; lascannon
// 1 * 4/6 * 5/6 * 1 = 0.556 (AP2 removes 3+); autocannon 2 * 4/6 * 5/6 * 2/6
// = 0.370. Against models of one Wound with no Damage Mitigation these
// are also their worth in models, the default choice's score. The weapons
// fired are the best X different ones.
func TestFiringProtocols(t *testing.T) {
	target := NewUnit(marine, 10)
	weapons := []Weapon{hbolter, lascan, autocan}
	tests := []struct {
		fp   int
		list []Weapon
		want []int
		why  string
	}{
		{0, weapons, []int{1}, "no Firing Protocols: one weapon, the best"},
		{1, weapons, []int{1}, "Firing Protocols (1): one weapon"},
		{2, weapons, []int{1, 0}, "the two best, best first"},
		{3, weapons, []int{1, 0, 2}, "all three"},
		{5, weapons, []int{1, 0, 2}, "never one weapon twice: three weapons, three volleys"},
		{3, []Weapon{lascan}, []int{0}, "one weapon: the rule does nothing"},
		{2, []Weapon{hbolter, hbolter}, []int{0, 1}, "two weapons with the same profile are different weapons; ties to the first"},
	}
	for _, tt := range tests {
		p := marine
		p.FiringProtocols = tt.fp
		firer := NewUnit(p, 3)
		var a Attack
		got := slices.Clone(a.Select(&firer, tt.list, &target, DefaultOptions))
		if !slices.Equal(got, tt.want) {
			t.Errorf("FP %d: picked %v, want %v (%s)", tt.fp, got, tt.want, tt.why)
		}
		a.Prepare(&firer, tt.list, &target, DefaultOptions)
		if len(a.Volleys) != len(tt.want) || a.Volleys[0].Models != 3 {
			t.Errorf("FP %d: %d volleys by %d models", tt.fp, len(a.Volleys), a.Volleys[0].Models)
		}
	}
	// A weapon that cannot wound (S1 vs T5) is not fired.
	tough := NewUnit(Profile{T: 5, W: 1}, 5)
	p := marine
	p.FiringProtocols = 2
	firer := NewUnit(p, 1)
	var a Attack
	if got := a.Select(&firer, []Weapon{feeble, bolter}, &tough, DefaultOptions); !slices.Equal(got, []int{1}) {
		t.Errorf("S1 vs T5 picked: %v, want [1]", got)
	}
}

func TestClosestTarget(t *testing.T) {
	cands := []Candidate{{12, true}, {8, false}, {9, true}, {9, true}, {15, true}}
	if got := ClosestTarget(nil, cands, DefaultOptions); got != 2 {
		t.Errorf("closest visible: %d, want 2 (8\" is out of sight)", got)
	}
	if got := ClosestTarget(nil, []Candidate{{3, false}}, DefaultOptions); got != -1 {
		t.Errorf("nothing visible: %d, want -1", got)
	}
	o := DefaultOptions
	o.Ties = TieRandom
	r := dice.New(1, 0)
	const n = 100_000
	k := 0
	for range n {
		switch ClosestTarget(r, cands, o) {
		case 3:
			k++
		case 2:
		default:
			t.Fatal("random tie picked a unit not tied for closest")
		}
	}
	if z, ok := zWithin(k, n, 0.5); !ok {
		t.Errorf("random tie: second picked %.4f, want 1/2, z %.1f", float64(k)/n, z)
	}
}

func TestStupefyChooser(t *testing.T) {
	u := NewUnit(reveller, 30) // more models than shots: no casualty cap
	enemy := NewUnit(marine, 10)
	bolters := []Weapon{bolter}
	lascans := []Weapon{lascan}

	// Against bolters, with nothing of its own to shoot, Stupefied only
	// saves models (the 6+ roll): it pays.
	st := StupefyStakes{Enemy: &enemy, EnemyWeapons: bolters}
	for _, c := range []struct {
		p    StupefyPolicy
		want bool
	}{{StupefyNever, false}, {StupefyAlways, true}, {StupefyWhenItPays, true}} {
		ch := StupefyChooser{Policy: c.p}
		if got := ch.Choose(&u, st, DefaultOptions); got != c.want {
			t.Errorf("%s against bolters: %v, want %v", c.p, got, c.want)
		}
	}
	if u.IsStupefied() {
		t.Fatal("Choose changed the unit")
	}
	// Against lascannons (S9 vs T4: Instant Death, no Stupefied roll) it
	// saves nothing and costs its own shooting (Snap Shots): it does not pay.
	ch := StupefyChooser{Policy: StupefyWhenItPays}
	st = StupefyStakes{Enemy: &enemy, EnemyWeapons: lascans, OwnTarget: &enemy, OwnWeapons: bolters}
	if ch.Choose(&u, st, DefaultOptions) {
		t.Error("WhenItPays chose Stupefied against Instant Death at the cost of its shooting")
	}
	// The decision is the sign of the exact difference in expected casualties.
	st = StupefyStakes{Enemy: &enemy, EnemyWeapons: bolters, OwnTarget: &enemy, OwnWeapons: bolters}
	stu := u
	stu.Stupefied = 1
	var a Attack
	a.Prepare(&enemy, bolters, &u, DefaultOptions)
	saved := a.ExpectedCasualties(&u)
	a.Prepare(&enemy, bolters, &stu, DefaultOptions)
	saved -= a.ExpectedCasualties(&stu)
	a.Prepare(&u, bolters, &enemy, DefaultOptions)
	lost := a.ExpectedCasualties(&enemy)
	a.Prepare(&stu, bolters, &enemy, DefaultOptions)
	lost -= a.ExpectedCasualties(&enemy)
	// 20 bolter shots at 1/9: 20/9 wounds, 1/6 of them saved by the roll.
	if !near(saved, 20.0/9/6) {
		t.Errorf("saved %.6f, want 20/9 * 1/6", saved)
	}
	if got := ch.Choose(&u, st, DefaultOptions); got != (saved > lost) {
		t.Errorf("WhenItPays %v, saved %.4f, lost %.4f", got, saved, lost)
	}
	// A unit without Lords of Profligacy is never Stupefied.
	m := NewUnit(marine, 10)
	if (&StupefyChooser{Policy: StupefyAlways}).Choose(&m, st, DefaultOptions) {
		t.Error("Always chose Stupefied for a unit without Lords of Profligacy")
	}
}

// TestStupefyChooserOwnSituation: the unit's own next attack is weighed as
// it will be made, in its own turn, not as the enemy's was (moving). Thirty
// Emperor's Children, each with a Heavy 1 gun (S5 AP4), face ten marines'
// bolters (2 shots, BS 4), fired after moving. The bolters make 20 shots
// of 4/6 * 3/6 * 2/6 = 1/9 unsaved wounds: 20/9, and the Stupefied roll
// saves 1/6 of them, 10/27 models (thirty models: no cap). Its own 30
// shots, at a hundred marines (no cap), unsaved at 4/6 * 4/6 * 2/6 = 4/27
// each at BS 4, 1/27 as Snap Shots: 40/9 against 10/9, so Stupefied costs
// 10/3 models and does not pay. Weighed as if it had moved, Heavy would be
// Snap Shots either way, costing nothing, and Stupefied would be chosen.
func TestStupefyChooserOwnSituation(t *testing.T) {
	u := NewUnit(reveller, 30)
	enemy := NewUnit(marine, 10)
	crowd := NewUnit(marine, 100)
	heavy := []Weapon{{Name: "heavy gun", Type: Heavy, Shots: dice.Const(1), Range: 36, S: 5, AP: 4}}
	bolters := []Weapon{bolter}
	moved := Situation{Distance: 24, Moved: true}
	own := Situation{Distance: 24}
	stu := u
	stu.Stupefy(false, DefaultOptions)
	var a Attack
	a.PrepareAt(&enemy, bolters, &u, moved, DefaultOptions)
	saved := a.ExpectedCasualties(&u)
	a.PrepareAt(&enemy, bolters, &stu, moved, DefaultOptions)
	saved -= a.ExpectedCasualties(&stu)
	a.PrepareAt(&u, heavy, &crowd, own, DefaultOptions)
	lost := a.ExpectedCasualties(&crowd)
	a.PrepareAt(&stu, heavy, &crowd, own, DefaultOptions)
	lost -= a.ExpectedCasualties(&crowd)
	if !near(saved, 10.0/27) || !near(lost, 10.0/3) {
		t.Errorf("saved %.6f, lost %.6f; want 10/27 and 10/3", saved, lost)
	}
	ch := StupefyChooser{Policy: StupefyWhenItPays}
	st := StupefyStakes{Enemy: &enemy, EnemyWeapons: bolters, OwnTarget: &crowd, OwnWeapons: heavy, Situation: moved, OwnSituation: own}
	if ch.Choose(&u, st, DefaultOptions) {
		t.Error("chose Stupefied, saving 10/27 models at a cost of 10/3")
	}
}

// TestSelectByCasualties: a Dreadnought (BS 5, one weapon) with an assault
// cannon (Heavy 4, S6 AP4, Rending (6+)) and a multi-melta (Heavy 1, S8
// AP1) shoots five Terminators (T4 W2, 2+ armour, 4+ invulnerable) at 12".
// BS 5 hits on 2+: 5/6.
//   - Assault cannon: S6 against T4 wounds on 2+; a 2 to 5 (4/6) leaves the
//     2+ save, failed on a 1 (1/6); a 6 (1/6) Rends, AP2 removes the armour
//     and the 4+ invulnerable save fails half the time. Per shot
//     5/6 * (4/6 * 1/6 + 1/6 * 1/2) = 35/216 wounds suffered, no Instant
//     Death (S6 < 8), each half a model: 4 shots are worth
//     4 * 35/216 / 2 = 35/108 = 0.324 models, from 4 * 35/216 = 35/54 =
//     0.648 unsaved wounds.
//   - Multi-melta: S8 wounds on 2+ (5/6); AP1 removes the armour, the 4+
//     invulnerable save fails 1/2; S8 is double T4, Instant Death: each
//     wound suffered is a whole model. 5/6 * 5/6 * 1/2 = 25/72 = 0.347
//     models, and 0.347 unsaved wounds.
//
// By casualties (the default) the melta is picked, and its attack removes
// 25/72 models exactly (one shot, at most one model). By unsaved wounds
// the cannon is picked (35/54 > 25/72); its casualties are P(at least 2 of
// 4 shots wound) + P(all 4 do), with p = 35/216: 0.1262.
func TestSelectByCasualties(t *testing.T) {
	dread := NewUnit(Profile{WS: 5, BS: 5, S: 6, T: 7, W: 4, I: 4, A: 4, Ld: 8, Save: 2}, 1)
	terminators := NewUnit(Profile{WS: 4, BS: 4, S: 4, T: 4, W: 2, I: 4, A: 2, Ld: 9, Save: 2, Invuln: 4}, 5)
	weapons := []Weapon{
		{Name: "assault cannon", Type: Heavy, Shots: dice.Const(4), Range: 24, S: 6, AP: 4, Rending: 6},
		{Name: "multi-melta", Type: Heavy, Shots: dice.Const(1), Range: 12, S: 8, AP: 1},
	}
	at := Situation{Distance: 12}
	p := 35.0 / 216
	for i, want := range []float64{p / 2, 25.0 / 72} {
		w := &weapons[i]
		c := FiringChain(&dread, w, &terminators, w.Fire(&dread, at), DefaultOptions)
		if got := c.ModelsPerShot(terminators.W); !near(got, want) {
			t.Errorf("%s: %.6f models a shot, want %.6f", w.Name, got, want)
		}
	}
	q := 1 - p
	cannon := 6*p*p*q*q + 4*p*p*p*q + 2*p*p*p*p // E[floor(wounds/2)], wounds ~ Bin(4, p)
	for _, c := range []struct {
		choice WeaponChoice
		pick   int
		cas    float64
	}{
		{ChooseByCasualties, 1, 25.0 / 72},
		{ChooseByUnsavedWounds, 0, cannon},
	} {
		o := DefaultOptions
		o.WeaponChoice = c.choice
		var a Attack
		a.PrepareAt(&dread, weapons, &terminators, at, o)
		if len(a.Volleys) != 1 || a.Volleys[0].Index != c.pick {
			t.Fatalf("%s: fired %d volleys; want weapon %d alone", c.choice, len(a.Volleys), c.pick)
		}
		if got := a.ExpectedCasualties(&terminators); !near(got, c.cas) {
			t.Errorf("%s: exact casualties %.6f, want %.6f", c.choice, got, c.cas)
		}
		// The simulation agrees within 5 standard errors (fixed seed).
		mean, se := rolledCasualties(&a, terminators, 11, 200_000)
		if math.Abs(mean-c.cas) > 5*se {
			t.Errorf("%s: simulated casualties %.4f, exact %.4f (5 SE = %.4f)", c.choice, mean, c.cas, 5*se)
		}
	}
}

// TestModelsPerShot: the worth of one shot counts what the casualty
// programme counts. BS 4 hits on 3+ (2/3); S4 against T4 wounds on 4+
// (1/2).
func TestModelsPerShot(t *testing.T) {
	firer := NewUnit(marine, 1)
	tests := []struct {
		name   string
		w      Weapon
		target Profile
		want   float64
		why    string
	}{
		{"Damage Mitigation", bolter, Profile{T: 4, W: 1, Save: 3, FeelNoPain: 5}, 2.0 / 3 * 1 / 2 * 1 / 3 * 2 / 3,
			"a 3+ save fails 1/3, Feel No Pain 5+ fails 2/3: 2/27, where unsaved wounds score 1/9"},
		{"Destroyer", Weapon{Name: "d", Type: Destroyer, S: 4, AP: 2}, Profile{T: 4, W: 2, Save: 3}, 2.0 / 3 * 1 / 2 * 5 / 6,
			"AP2 removes the save; D3 wounds on W2 models: 1 is half a model, 2 or 3 a whole one, 1/3 * 1/2 + 2/3 = 5/6"},
		{"Deflagrate", Weapon{Name: "v", S: 4, AP: 5, Deflagrate: true}, Profile{T: 4, W: 1, Save: 3}, 2.0 / 3 * (1.0/6 + 1.0/6*1/6),
			"a hit's unsaved wound 1/2 * 1/3 = 1/6, and as many Deflagrate hits, each an unsaved wound with 1/6"},
		{"Eternal Warrior", lascan, Profile{T: 4, W: 3, Save: 3, EternalWarrior: true}, 2.0 / 3 * 5 / 6 / 3,
			"S9 wounds T4 on 2+, AP2 removes the save; Instant Death costs an Eternal Warrior one of three Wounds"},
		{"Instant Death", lascan, Profile{T: 4, W: 3, Save: 3}, 2.0 / 3 * 5 / 6,
			"without Eternal Warrior each wound suffered is a whole model"},
	}
	for _, tt := range tests {
		u := NewUnit(tt.target, 5)
		c := ShootingChain(&firer, &tt.w, &u, DefaultOptions)
		if got := c.ModelsPerShot(u.W); !near(got, tt.want) {
			t.Errorf("%s: %.6f models a shot, want %.6f (%s)", tt.name, got, tt.want, tt.why)
		}
	}
}

// rolledCasualties rolls attack a against a fresh copy of target n times
// from seed and returns the mean casualties and its standard error.
func rolledCasualties(a *Attack, target Unit, seed uint64, n int) (mean, se float64) {
	r := dice.New(seed, 0)
	sum, sum2 := 0.0, 0.0
	for range n {
		u := target
		k := float64(a.Roll(r, &u).Casualties)
		sum += k
		sum2 += k * k
	}
	mean = sum / float64(n)
	return mean, math.Sqrt((sum2/float64(n) - mean*mean) / float64(n))
}

// TestSelectMasterCrafted: a Master-crafted weapon's re-roll of one miss
// counts in its score. A BS2 model hits on 5+ (p = 1/3); with one shot its
// Master-crafted S4 gun hits 1/3 + 2/3 × 1/3 = 5/9 of the time, and wounds
// T4 on 4+: 5/18 unsaved wounds, against 1/3 × 2/3 = 2/9 for a plain S5
// gun, which the model used to fire instead. With three shots each, a BS4
// model (p = 2/3) misses at all with chance 1 - (2/3)^3 = 19/27: the S4
// gun scores (3 + 19/27) × 2/3 × 1/2 = 100/81, below the S5 gun's
// 3 × 2/3 × 2/3 = 108/81, which is fired there.
func TestSelectMasterCrafted(t *testing.T) {
	target := NewUnit(Profile{WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Save: 7}, 10)
	for _, tc := range []struct {
		bs, shots int
		want      int
		score     float64 // the Master-crafted gun's, exact
	}{
		{2, 1, 0, 5.0 / 18},
		{4, 3, 1, 100.0 / 81},
	} {
		firer := NewUnit(Profile{WS: 4, BS: tc.bs, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Save: 3}, 1)
		weapons := []Weapon{
			{Name: "master-crafted", Type: Assault, Shots: dice.Const(tc.shots), Range: 24, S: 4, AP: 7, MasterCrafted: true},
			{Name: "plain", Type: Assault, Shots: dice.Const(tc.shots), Range: 24, S: 5, AP: 7},
		}
		var a Attack
		if got := a.Select(&firer, weapons, &target, DefaultOptions); !slices.Equal(got, []int{tc.want}) {
			t.Errorf("BS%d, %d shots: fired %v, want [%d]", tc.bs, tc.shots, got, tc.want)
		}
		if !near(a.score[0], tc.score) {
			t.Errorf("BS%d, %d shots: the Master-crafted gun scores %.6f, want %.6f", tc.bs, tc.shots, a.score[0], tc.score)
		}
	}
}
