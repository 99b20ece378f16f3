package heresy

import (
	"slices"
	"testing"

	"hammersim/mechanics/dice"
)

// TestFiringProtocols: against T4 3+ models at BS 4, expected unsaved wounds
// per model are: heavy bolter 3 * 4/6 * 4/6 * 2/6 = 0.444; lascannon
// 1 * 4/6 * 5/6 * 1 = 0.556 (AP2 removes 3+); autocannon 2 * 4/6 * 5/6 * 2/6
// = 0.370. The weapons fired are the best X different ones.
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
