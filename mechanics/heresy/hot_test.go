package heresy

import (
	"math"
	"testing"

	"hammersim/mechanics/dice"
)

// hotCases are attacks whose firing unit Gets Hot, one for each way the
// casualty programme resolves a volley: shot by shot (plain, Twin-linked,
// BS 6's re-roll of 1s, a random number of shots), hit by hit (Blast, Wall of Death, Master-crafted),
// with Deflagrate's slabs, with Murderous Strike's wounds first against
// multi-wound models, and two volleys.
var hotCases = []struct {
	name      string
	firer     Profile
	models    int
	weapons   []Weapon
	s         Situation
	target    Unit
	hotCapAdd int
}{
	{"plasma guns", marine, 5, []Weapon{{Name: "plasma", Shots: dice.Const(2), S: 7, AP: 2, GetsHot: true}}, Situation{},
		NewUnit(marine, 10), 0},
	{"Twin-linked, on W2 with Feel No Pain", marine, 4, []Weapon{{Name: "plasma", Shots: dice.Const(2), S: 7, AP: 2, GetsHot: true, TwinLinked: true}}, Situation{},
		Unit{Profile: Profile{T: 4, W: 2, Save: 3, FeelNoPain: 5}, Models: 5, Hurt: 1}, 0},
	{"BS 6", Profile{BS: 6, S: 4, T: 4, W: 2, Save: 2, Invuln: 4}, 3, []Weapon{{Name: "plasma", Shots: dice.Const(3), S: 7, AP: 2, GetsHot: true}}, Situation{},
		NewUnit(marine, 6), 0},
	{"Blast", marine, 3, []Weapon{{Name: "cannon", S: 7, AP: 2, Blast: 3, GetsHot: true}}, Situation{},
		NewUnit(marine, 8), 0},
	{"Twin-linked Blast", marine, 3, []Weapon{{Name: "cannon", S: 7, AP: 2, Blast: 3, GetsHot: true, TwinLinked: true}}, Situation{},
		NewUnit(marine, 8), 0},
	{"Wall of Death", marine, 4, []Weapon{{Name: "flamer", Template: true, S: 5, AP: 4, GetsHot: true}}, Situation{Reaction: true},
		NewUnit(marine, 8), 0},
	{"Master-crafted, D3 shots", Profile{BS: 4, S: 4, T: 4, W: 3, Save: 3}, 2, []Weapon{{Name: "pistol", Shots: dice.MustParse("D3"), S: 7, AP: 2, GetsHot: true, MasterCrafted: true}}, Situation{},
		Unit{Profile: Profile{T: 4, W: 2, Save: 4}, Models: 4}, 0},
	{"D3 shots", marine, 3, []Weapon{{Name: "plasma", Shots: dice.MustParse("D3"), S: 7, AP: 2, GetsHot: true}}, Situation{},
		NewUnit(marine, 8), 0},
	{"Deflagrate", marine, 3, []Weapon{{Name: "volkite", Shots: dice.Const(2), S: 5, AP: 5, GetsHot: true, Deflagrate: true}}, Situation{},
		Unit{Profile: Profile{T: 4, W: 2, Save: 4}, Models: 4}, 0},
	{"Murderous Strike, Rending", marine, 3, []Weapon{{Name: "axe", Shots: dice.Const(2), S: 5, AP: 3, GetsHot: true, MurderousStrike: 5, Rending: 6}}, Situation{},
		Unit{Profile: Profile{T: 4, W: 3, Save: 3}, Models: 3}, 0},
	{"two volleys, a cap below the wounds", Profile{BS: 4, S: 4, T: 4, W: 1, Save: 3, FiringProtocols: 2}, 4,
		[]Weapon{{Name: "plasma", Shots: dice.Const(2), S: 7, AP: 2, GetsHot: true}, {Name: "bolter", Shots: dice.Const(2), S: 4, AP: 5}}, Situation{},
		NewUnit(marine, 10), -2},
}

// TestHotStatesMarginals: HotStates summed over the Gets Hot wounds is
// the casualty programme's FinalStates, and its mean of the wounds (with
// the cap past every possible wound) is ExpectedHot's, and their mean
// square hotSquare's, worked out without the programme.
func TestHotStatesMarginals(t *testing.T) {
	for _, c := range hotCases {
		firer := NewUnit(c.firer, c.models)
		var a Attack
		a.PrepareAt(&firer, c.weapons, &c.target, c.s, DefaultOptions)
		if !a.GetsHot() {
			t.Fatalf("%s: no Gets Hot volley", c.name)
		}
		final, w := a.FinalStates(&c.target)
		final = append([]float64(nil), final...)
		hotCap := MaxCount(&a) // no more wounds than shots
		joint, n := a.HotStates(&c.target, hotCap)
		if n*(hotCap+1) != len(joint) || n != len(final) || n%w != 0 {
			t.Fatalf("%s: %d states and %d joint states for cap %d", c.name, len(final), len(joint), hotCap)
		}
		mean, square, total := 0.0, 0.0, 0.0
		for g := 0; g <= hotCap; g++ {
			for s := range n {
				mean += float64(g) * joint[g*n+s]
				square += float64(g*g) * joint[g*n+s]
				total += joint[g*n+s]
			}
		}
		if !near(square, hotSquare(&a)) {
			t.Errorf("%s: mean square of the Gets Hot wounds %.12f, hotSquare %.12f", c.name, square, hotSquare(&a))
		}
		for s := range n {
			sum := 0.0
			for g := 0; g <= hotCap; g++ {
				sum += joint[g*n+s]
			}
			if math.Abs(sum-final[s]) > 1e-12 {
				t.Errorf("%s: state %d: %.15f over the wounds, FinalStates %.15f", c.name, s, sum, final[s])
			}
		}
		if !near(total, 1) || !near(mean, a.ExpectedHot()) {
			t.Errorf("%s: total %.12f, mean Gets Hot wounds %.12f, ExpectedHot %.12f", c.name, total, mean, a.ExpectedHot())
		}
	}
}

// TestHotStatesMatchFire checks HotStates against attacks rolled by Fire:
// the chance of each number of Gets Hot wounds (capped), the mean models
// lost, and the mean of their product, which ties the two together, each
// within 5 standard errors (about one false alarm in 1.7 million), with a
// fixed seed. Fire puts the wounds on the firing unit.
func TestHotStatesMatchFire(t *testing.T) {
	const trials = 40_000
	for ci, c := range hotCases {
		firer := NewUnit(c.firer, c.models)
		var a Attack
		a.PrepareAt(&firer, c.weapons, &c.target, c.s, DefaultOptions)
		hotCap := max(firer.Models*max(firer.W, 1)-firer.Hurt+c.hotCapAdd, 1)
		joint, n := a.HotStates(&c.target, hotCap)
		w := max(c.target.W, 1)
		pg := make([]float64, hotCap+1)
		var eLost, eProd float64
		for g := 0; g <= hotCap; g++ {
			for s := range n {
				p := joint[g*n+s]
				pg[g] += p
				eLost += p * float64(s/w)
				eProd += p * float64(g*(s/w))
			}
		}
		total := 0.0
		for _, p := range pg {
			total += p
		}
		if !near(total, 1) {
			t.Errorf("%s: the joint law sums to %.12f", c.name, total)
		}
		r := dice.New(uint64(40+ci), 0)
		count := make([]float64, hotCap+1)
		var sLost, sLost2, sProd, sProd2 float64
		for range trials {
			f, tg := firer, c.target
			res := a.Fire(r, &f, &tg)
			g := min(res.Hot, hotCap)
			count[g]++
			lost := float64(c.target.Models - tg.Models)
			sLost += lost
			sLost2 += lost * lost
			sProd += float64(g) * lost
			sProd2 += float64(g) * lost * float64(g) * lost
			if want := max(firer.Models-(firer.Hurt+res.Hot)/max(firer.W, 1), 0); f.Models != want {
				t.Fatalf("%s: Fire left the firer %d models after %d Gets Hot wounds, want %d", c.name, f.Models, res.Hot, want)
			}
		}
		for g, p := range pg {
			se := math.Sqrt(max(p*(1-p), 0) / trials)
			if math.Abs(count[g]/trials-p) > 5*se+1e-12 {
				t.Errorf("%s: P(%d Gets Hot wounds) %.4f, exact %.4f (5 SE = %.4f)", c.name, g, count[g]/trials, p, 5*se)
			}
		}
		for _, m := range []struct {
			what            string
			sum, sum2, want float64
		}{{"models lost", sLost, sLost2, eLost}, {"wounds times models lost", sProd, sProd2, eProd}} {
			mean := m.sum / trials
			se := math.Sqrt((m.sum2/trials - mean*mean) / trials)
			if math.Abs(mean-m.want) > 5*se+1e-12 {
				t.Errorf("%s: mean %s %.4f, exact %.4f (5 SE = %.4f)", c.name, m.what, mean, m.want, 5*se)
			}
		}
	}
}

// TestNoShotNoGetsHot: a firer of BS 0 rolls no To Hit (it cannot hit), so
// its weapon cannot Get Hot either: no wound rolled, none expected.
func TestNoShotNoGetsHot(t *testing.T) {
	firer := NewUnit(Profile{BS: 0, T: 4, W: 1}, 5)
	target := NewUnit(marine, 5)
	// Select fires no weapon that scores nothing, so the volley is built
	// by hand: two shots a model.
	w := Weapon{Name: "plasma", Shots: dice.Const(2), S: 7, AP: 2, GetsHot: true}
	a := Attack{Volleys: []Volley{{Weapon: w, Models: 5, Chain: ShootingChain(&firer, &w, &target, DefaultOptions)}}}
	if got := a.ExpectedHot(); got != 0 {
		t.Errorf("BS 0: %v Gets Hot wounds expected, want 0", got)
	}
	r := dice.New(1, 0)
	for range 100 {
		f, u := firer, target
		if res := a.Fire(r, &f, &u); res.Hot != 0 || f.Models != 5 {
			t.Fatalf("BS 0: %d Gets Hot wounds rolled, %d models left", res.Hot, f.Models)
		}
	}
}

// TestExactReturnFireGetsHot: one T4 W1 3+ model Returns Fire with a BS 4
// plasma pistol (S7 AP2, Gets Hot) at one Legionary with a bolter. Its
// shot slays the Legionary with 4/6 * 5/6 = 20/36 (no save against AP2),
// and ends on a 1 with 1/6, a Gets Hot wound its 3+ cannot save: the
// target falls (ReturnFireHot 1/6). With 10/36 neither happens and the
// bolter (4/6 to hit, 3/6 to wound, 2/6 unsaved) slays it with 1/9:
// destroyed 6/36 + 10/36 * 1/9 = 16/81, hits 10/36 * 4/6 = 5/27.
func TestExactReturnFireGetsHot(t *testing.T) {
	x := ShootingExchange{Firer: NewUnit(marine, 1), Target: NewUnit(marine, 1),
		Weapons:    []Weapon{{Name: "bolter", S: 4, AP: 5}},
		Back:       []Weapon{{Name: "plasma pistol", Type: Pistol, Range: 12, S: 7, AP: 2, GetsHot: true}},
		Options:    DefaultOptions,
		Situation:  Situation{Distance: 12},
		ReturnFire: true}
	ex := ExactShooting(&x)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"ReturnFireHot", ex.ReturnFireHot, 1.0 / 6}, {"ReturnFire", ex.ReturnFire, 20.0 / 36},
		{"Destroyed", ex.Destroyed, 16.0 / 81}, {"Hits", ex.Hits, 5.0 / 27}, {"P(no hit)", ex.HitsDist.At(0), 1 - 5.0/27},
	} {
		if !near(c.got, c.want) {
			t.Errorf("%s: %.6f, want %.6f", c.name, c.got, c.want)
		}
	}
}

// TestNoneHot: the chance that an attack leaves no unsaved wound, or no
// wound suffered, with each number of Gets Hot wounds, which decides a
// Pinning test jointly with the firer's losses. By hand: one BS 4 plasma
// shot (S7 AP2) at a T4 3+ Legionary ends on a 1 with 1/6, a Gets Hot
// wound (AP2 leaves the firer no save) and a miss; a 2 misses (1/6); a hit
// (4/6) fails to wound with 1/6 and is never saved: no unsaved wound and
// no Gets Hot wound 1/6 + 4/6 * 1/6 = 10/36, none and one 6/36. With Feel
// No Pain (5+) an unsaved wound is then ignored with 2/6: no wound
// suffered and no Gets Hot wound 1/6 + 4/6 * (1/6 + 5/6 * 2/6) = 25/54,
// none and one still 6/36. Then every hotCase against Fire's rolls, for
// both stages, each chance within 5 standard errors, with a fixed seed.
func TestNoneHot(t *testing.T) {
	firer, target := NewUnit(marine, 1), NewUnit(marine, 1)
	var a Attack
	a.PrepareAt(&firer, []Weapon{{Name: "plasma", S: 7, AP: 2, GetsHot: true}}, &target, Situation{}, DefaultOptions)
	if got := a.noneHot(StageUnsaved, 1); !near(got[0], 10.0/36) || !near(got[1], 6.0/36) {
		t.Errorf("one plasma shot: %v, want [10/36 6/36]", got)
	}
	if got := a.noneHot(StageSuffered, 1); !near(got[0], 10.0/36) || !near(got[1], 6.0/36) {
		t.Errorf("one plasma shot, no Damage Mitigation: %v wounds suffered, want [10/36 6/36]", got)
	}
	hardy := target
	hardy.FeelNoPain = 5
	a.PrepareAt(&firer, []Weapon{{Name: "plasma", S: 7, AP: 2, GetsHot: true}}, &hardy, Situation{}, DefaultOptions)
	if got := a.noneHot(StageSuffered, 1); !near(got[0], 25.0/54) || !near(got[1], 6.0/36) {
		t.Errorf("one plasma shot at Feel No Pain (5+): %v, want [25/54 6/36]", got)
	}
	const trials = 40_000
	for ci, c := range hotCases {
		firer := NewUnit(c.firer, c.models)
		var a Attack
		a.PrepareAt(&firer, c.weapons, &c.target, c.s, DefaultOptions)
		hotCap := max(firer.Models*max(firer.W, 1)+c.hotCapAdd, 1)
		want := [2][]float64{a.noneHot(StageUnsaved, hotCap), a.noneHot(StageSuffered, hotCap)}
		r := dice.New(uint64(80+ci), 0)
		count := [2][]int{make([]int, hotCap+1), make([]int, hotCap+1)}
		for range trials {
			f, tg := firer, c.target
			res := a.Fire(r, &f, &tg)
			for i, n := range [2]int{res.Unsaved, res.Suffered} {
				if n == 0 {
					count[i][min(res.Hot, hotCap)]++
				}
			}
		}
		for i, stage := range [2]string{"unsaved wound", "wound suffered"} {
			for g, p := range want[i] {
				if z, ok := zWithin(count[i][g], trials, p); !ok {
					t.Errorf("%s: P(no %s, %d Gets Hot wounds) %.4f, exact %.4f, z %.1f", c.name, stage, g, float64(count[i][g])/trials, p, z)
				}
			}
		}
	}
}
