package heresy

import (
	"testing"

	"hammersim/mechanics/dice"
)

var (
	returnFire = Reaction{Name: "Return Fire"}
	takeCover  = Reaction{Name: "Take Cover", GrantsSave: true} // a made-up reaction granting a save
	otherAdv   = Reaction{Name: "Death Dealers", Advanced: true}
)

func TestStupefyWhoAndWhen(t *testing.T) {
	plain := NewUnit(marine, 5)
	if plain.CanStupefy(DefaultOptions) || plain.Stupefy(false, DefaultOptions) {
		t.Error("a unit without Lords of Profligacy became Stupefied")
	}
	fleeing := NewUnit(reveller, 5)
	fleeing.FallingBack = true
	if fleeing.Stupefy(false, DefaultOptions) {
		t.Error("a Falling Back unit became Stupefied")
	}
	gone := NewUnit(reveller, 0)
	if gone.Stupefy(false, DefaultOptions) {
		t.Error("a destroyed unit became Stupefied")
	}

	// Shot in the enemy's turn: Stupefied until the end of its own next turn.
	u := NewUnit(reveller, 5)
	if !u.Stupefy(false, DefaultOptions) || !u.IsStupefied() {
		t.Fatal("Stupefy refused a unit of Lords of Profligacy")
	}
	u.EndTurn(false) // the enemy's turn ends
	if !u.IsStupefied() {
		t.Error("Stupefied ended at the end of the enemy's turn")
	}
	u.EndTurn(true) // its own following turn ends
	if u.IsStupefied() {
		t.Error("Stupefied outlasted its controlling player's following turn")
	}

	// Shot in its own turn (a Reaction): the current turn does not count.
	u = NewUnit(reveller, 5)
	u.Stupefy(true, DefaultOptions)
	u.EndTurn(true)
	u.EndTurn(false)
	if !u.IsStupefied() {
		t.Error("Stupefied in its own turn ended before its following turn")
	}
	u.EndTurn(true)
	if u.IsStupefied() {
		t.Error("Stupefied did not end after its following turn")
	}

	// Forced to move: no longer Stupefied.
	u = NewUnit(reveller, 5)
	u.Stupefy(false, DefaultOptions)
	u.FallBack()
	if u.IsStupefied() || !u.FallingBack {
		t.Error("Falling Back did not end Stupefied")
	}

	// Choosing again while Stupefied: not by default; the option restarts it.
	u = NewUnit(reveller, 5)
	u.Stupefy(false, DefaultOptions)
	if u.Stupefy(true, DefaultOptions) {
		t.Error("re-Stupefied without RestupefyRefreshes")
	}
	o := DefaultOptions
	o.RestupefyRefreshes = true
	if !u.Stupefy(true, o) || u.Stupefied != 2 {
		t.Errorf("RestupefyRefreshes: Stupefied %d, want 2", u.Stupefied)
	}
}

func TestStupefiedEffects(t *testing.T) {
	u := NewUnit(reveller, 5)
	u.Conditions = Pinned | Blinded
	u.Stupefy(false, DefaultOptions)

	if !u.SnapShotsOnly() || u.ShootingBS() != SnapShotBS {
		t.Errorf("Stupefied: Snap Shots only at BS %d", u.ShootingBS())
	}
	// Snap Shots lower a Ballistic Skill to 1, never raise one: a unit of
	// BS "-" (0) still cannot hit.
	none := reveller
	none.BS = 0
	blind := NewUnit(none, 5)
	blind.Stupefy(false, DefaultOptions)
	if !blind.SnapShotsOnly() || blind.ShootingBS() != 0 {
		t.Errorf("Stupefied, BS 0: shoots at BS %d, want 0", blind.ShootingBS())
	}
	if u.Strength() != reveller.S+1 {
		t.Errorf("Stupefied Strength %d, want %d", u.Strength(), reveller.S+1)
	}
	for _, re := range []Reaction{returnFire, takeCover, Interceptor, otherAdv} {
		if u.CanReact(re) {
			t.Errorf("Stupefied unit may make %s", re.Name)
		}
	}
	if !u.ChargeDisordered() {
		t.Error("a charge by a Stupefied unit is not Disordered")
	}
	// It ignores Pinned and Blind it had when it became Stupefied.
	if u.Suffers(Pinned, DefaultOptions) || u.Suffers(Blinded, DefaultOptions) {
		t.Error("Stupefied unit suffers Pinned or Blind it had before")
	}
	// Concussive gained later: affected unless the option.
	u.Conditions |= Concussed
	if !u.Suffers(Concussed, DefaultOptions) {
		t.Error("later Concussive ignored by default")
	}
	o := DefaultOptions
	o.StupefiedIgnoresLater = true
	if u.Suffers(Concussed, o) {
		t.Error("later Concussive not ignored with StupefiedIgnoresLater")
	}
	// It cannot be Pinned.
	v := NewUnit(reveller, 5)
	v.Stupefy(false, DefaultOptions)
	if v.Pin() || v.Conditions&Pinned != 0 {
		t.Error("a Stupefied unit was Pinned")
	}
	// When it wears off, Pinned is felt again.
	u.EndTurn(true)
	if !u.Suffers(Pinned, DefaultOptions) {
		t.Error("Pinned not felt after Stupefied ended")
	}
	// Morale: none in the Movement and Shooting phases, as usual in Assault.
	w := NewUnit(reveller, 5)
	w.Stupefy(false, DefaultOptions)
	checks := []struct {
		t    Test
		ph   Phase
		auto bool
	}{
		{MoraleCheck, PhaseMovement, true},
		{MoraleCheck, PhaseShooting, true},
		{MoraleCheck, PhaseAssault, false},
		{PinningTest, PhaseShooting, true},
		{RegroupTest, PhaseMovement, false},
	}
	for _, c := range checks {
		if got := w.AutoPasses(c.t, c.ph); got != c.auto {
			t.Errorf("Stupefied %s in phase %d: auto-pass %v, want %v", c.t, c.ph, got, c.auto)
		}
	}
	if !near(w.PassProbability(MoraleCheck, PhaseAssault, -1, DefaultOptions), 21.0/36) {
		t.Errorf("Stupefied Ld 8-1 in assault: %.4f, want 21/36", w.PassProbability(MoraleCheck, PhaseAssault, -1, DefaultOptions))
	}
}

func TestFearless(t *testing.T) {
	p := marine
	p.Fearless = true
	p.Ld = 2
	u := NewUnit(p, 5)
	r := dice.New(1, 0)
	before := *r
	for _, test := range []Test{MoraleCheck, PinningTest, RegroupTest} {
		for _, ph := range []Phase{PhaseMovement, PhaseShooting, PhaseAssault} {
			if !u.TakeTest(r, test, ph, -10, DefaultOptions) || u.PassProbability(test, ph, -10, DefaultOptions) != 1 {
				t.Errorf("Fearless failed a %s", test)
			}
		}
	}
	if *r != before {
		t.Error("Fearless rolled dice for a test it passes automatically")
	}
	if !u.IgnoresFear() {
		t.Error("Fearless does not ignore Fear")
	}
	if u.CanReact(takeCover) {
		t.Error("Fearless may use a Reaction that grants a save")
	}
	if !u.CanReact(returnFire) {
		t.Error("Fearless may not use a Reaction that grants no save")
	}
	v := NewUnit(marine, 5)
	v.Pin()
	v.GainFearless()
	if v.Suffers(Pinned, DefaultOptions) {
		t.Error("gaining Fearless did not cancel Pinned")
	}
}

func TestTestsMonteCarlo(t *testing.T) {
	u := NewUnit(marine, 5) // Ld 8
	r := dice.New(1, 0)
	const n = 200_000
	k := 0
	for range n {
		if u.TakeTest(r, MoraleCheck, PhaseAssault, -2, DefaultOptions) {
			k++
		}
	}
	// Ld 8 - 2: 2D6 <= 6, 15/36 by enumeration.
	p := u.PassProbability(MoraleCheck, PhaseAssault, -2, DefaultOptions)
	if !near(p, 15.0/36) {
		t.Fatalf("Ld 8-2: %.6f, want 15/36", p)
	}
	if z, ok := zWithin(k, n, p); !ok {
		t.Errorf("Ld 6 pass rate %.4f, exact %.4f, z %.1f", float64(k)/n, p, z)
	}
}

func TestBulky(t *testing.T) {
	big := NewUnit(Profile{Bulky: 3}, 5)
	if big.Bulk() != 15 {
		t.Errorf("five Bulky (3) models count as %d, want 15 (Bulky rule's example)", big.Bulk())
	}
	ten := NewUnit(marine, 10)
	if !big.Outnumbers(&ten) || ten.Outnumbers(&big) {
		t.Error("15 should outnumber 10")
	}
	two := NewUnit(Profile{Bulky: 2}, 5)
	if two.Outnumbers(&ten) || ten.Outnumbers(&two) {
		t.Error("10 against 10 is no outnumbering")
	}
	four := NewUnit(marine, 4)
	if four.Bulk() != 4 {
		t.Error("an ordinary model counts as one")
	}
}

func TestAutomatedArtillery(t *testing.T) {
	u := NewUnit(rapier, 3)
	checks := []struct {
		name string
		got  bool
	}{
		{"may Run", u.CanRun()},
		{"may Charge", u.CanCharge()},
		{"may Sweep", u.CanSweep()},
		{"holds Objectives", u.CanHoldObjective()},
		{"denies Objectives", u.CanDenyObjective()},
		{"makes Return Fire", u.CanReact(returnFire)},
		{"makes another Advanced Reaction", u.CanReact(otherAdv)},
	}
	for _, c := range checks {
		if c.got {
			t.Errorf("Automated Artillery %s", c.name)
		}
	}
	if !u.CanReact(Interceptor) {
		t.Error("Automated Artillery may not make Interceptor")
	}
	if !u.SweptWithoutRoll() {
		t.Error("Automated Artillery is not destroyed without dice by a Sweeping Advance")
	}
	m := NewUnit(marine, 3)
	if !m.CanRun() || !m.CanCharge() || !m.CanSweep() || !m.CanHoldObjective() || m.SweptWithoutRoll() {
		t.Error("an ordinary unit got the Automated Artillery restrictions")
	}
}

// TestPinnedRestrictions: a Pinned unit may not Run or Charge and fires
// Snap Shots only (rulebook p.244), until it becomes Stupefied, which makes
// it ignore the Pinned it had (Lords of Profligacy rule text): it may then
// Run and Charge, and fires Snap Shots for being Stupefied; gaining
// Fearless ends being Pinned (Fearless rule text). Five models
// firing a bolter's two shots make 10 shots; at BS 4 they hit on 3+,
// 10 * 4/6 = 20/3 hits, and as Snap Shots (BS 1) on 6+, 10 * 1/6 = 5/3.
func TestPinnedRestrictions(t *testing.T) {
	target := NewUnit(marine, 10)
	weapons := []Weapon{bolter}
	hits := func(u *Unit) float64 {
		var a Attack
		a.Prepare(u, weapons, &target, DefaultOptions)
		return a.Expected(StageHits)
	}
	u := NewUnit(reveller, 5)
	if got := hits(&u); !near(got, 20.0/3) {
		t.Errorf("unpinned: %v hits, want 20/3", got)
	}
	u.Pin()
	if u.CanRun() || u.CanCharge() {
		t.Error("a Pinned unit may Run or Charge")
	}
	if !u.SnapShotsOnly() || u.ShootingBS() != SnapShotBS {
		t.Errorf("Pinned: shoots at BS %d, want Snap Shots", u.ShootingBS())
	}
	if got := hits(&u); !near(got, 5.0/3) {
		t.Errorf("Pinned: %v hits, want 5/3", got)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Fight accepted a Pinned unit marked as having charged")
			}
		}()
		Fight(dice.New(1, 0), Side{Unit: &u, Charged: true}, Side{Unit: &target}, DefaultOptions)
	}()
	u.Stupefy(false, DefaultOptions)
	if !u.CanRun() || !u.CanCharge() {
		t.Error("a unit Stupefied while Pinned ignores Pinned, yet may not Run or Charge")
	}
	if got := hits(&u); !near(got, 5.0/3) {
		t.Errorf("Stupefied: %v hits, want 5/3", got)
	}
	f := NewUnit(marine, 5)
	f.Pin()
	f.GainFearless()
	if !f.CanCharge() || f.SnapShotsOnly() {
		t.Error("gaining Fearless ends being Pinned, yet the unit may not Charge or fires Snap Shots")
	}
}

// TestWoundsLost: the Wounds a model loses to wounds that land together
// are what it had left at most (all of them when the wound slays), and
// nothing once the unit has no models; the tally's Lost adds them up. A
// W3 model with 1 Wound already lost has 2 left.
func TestWoundsLost(t *testing.T) {
	for _, c := range []struct {
		name      string
		models, n int
		slays     bool
		removed   bool
		want      int
	}{
		{"one wound", 2, 1, false, false, 1},
		{"its last two", 2, 2, false, true, 2},
		{"five, two of them lost", 2, 5, false, true, 2},
		{"a slaying wound takes what it had left", 2, 1, true, true, 2},
		{"no model left", 0, 1, false, false, 0},
	} {
		u := Unit{Profile: Profile{W: 3}, Models: c.models, Hurt: 1}
		if c.models == 0 {
			u.Hurt = 0
		}
		removed, lost := u.takeWounds(c.n, c.slays)
		if removed != c.removed || lost != c.want {
			t.Errorf("%s: removed %v, lost %d; want %v, %d", c.name, removed, lost, c.removed, c.want)
		}
	}
	// Brutal (3) against W2 models with no save: every wound roll that
	// succeeds makes three wounds, all suffered, which slay one model: 2
	// Wounds lost, the third wound past its last.
	w := Weapon{Name: "maul", S: 4, AP: APNone, Brutal: 3}
	firer := NewUnit(marine, 1)
	target := Unit{Profile: Profile{T: 4, W: 2}, Models: 10}
	c := MeleeChain(&firer, &w, &target, DefaultOptions)
	r := dice.New(3, 0)
	for range 100 {
		u := target
		tl := c.Roll(r, 6, &u)
		rolls := tl.Wounds / 3
		if tl.Suffered != 3*rolls || tl.Lost != 2*rolls || tl.Casualties != rolls {
			t.Fatalf("Brutal (3) on W2: %+v, want 3 suffered, 2 Lost and 1 casualty per successful wound roll", tl)
		}
	}
}
