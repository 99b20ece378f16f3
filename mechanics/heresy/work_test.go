package heresy

import (
	"fmt"
	"testing"

	"hammersim/mechanics/dice"
)

// workFactor is how far an estimate of the exact work may stray from the
// steps the exact computation counts (Attack.steps), either way.
const workFactor = 2

// TestExactWorkTracksSteps holds ShootingExactWork and AssaultExactWork
// within workFactor of the steps exactShooting and exactAssault count, over
// the paths they take: Return Fire and Overwatch that Get Hot or not,
// Pinning, multi-Wound models, a Template whose hits the firer's losses
// change, Deflagrate, Brutal, Murderous Strike, Master-crafted, strikes in
// turn and together, both combat results, and a heavy volley. Twenty
// two-Wound models firing plasma in Overwatch at twenty charging them,
// striking together, take about 1.1 x 10^8 steps (0.2 s), within
// MaxExactWork: the estimate must keep them within it too.
func TestExactWorkTracksSteps(t *testing.T) {
	p1 := Profile{WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Save: 3}
	p2 := p1
	p2.W, p2.A = 2, 2
	p3 := Profile{WS: 5, BS: 4, S: 5, T: 5, W: 3, I: 3, A: 3, Ld: 9, Save: 2}
	bolter := Weapon{Name: "bolter", Type: RapidFire, Range: 24, S: 4, AP: 5}
	plasma := Weapon{Name: "plasma", Type: RapidFire, Range: 24, S: 7, AP: 2, GetsHot: true}
	flamer := Weapon{Name: "flamer", Template: true, S: 4, AP: 5}
	volkite := Weapon{Name: "volkite", Type: Heavy, Shots: dice.Const(2), Range: 30, S: 5, AP: 5, Deflagrate: true}
	pistol := Weapon{Name: "pistol", Type: Pistol, Shots: dice.Const(2), Range: 12, S: 7, AP: 2, GetsHot: true, MasterCrafted: true}
	shooting := func(f, t Unit, w, back []Weapon, d int, rf bool) *ShootingExchange {
		return &ShootingExchange{Firer: f, Target: t, Weapons: w, Back: back, Options: DefaultOptions, Situation: Situation{Distance: d},
			ReturnFire: rf, MoraleCheck: true, Pinning: true, BrokenSnapShots: true}
	}
	var cases []struct {
		name  string
		shoot *ShootingExchange
		fight *AssaultExchange
	}
	addShoot := func(name string, x *ShootingExchange) {
		cases = append(cases, struct {
			name  string
			shoot *ShootingExchange
			fight *AssaultExchange
		}{name, x, nil})
	}
	addFight := func(name string, x *AssaultExchange) {
		cases = append(cases, struct {
			name  string
			shoot *ShootingExchange
			fight *AssaultExchange
		}{name, nil, x})
	}
	for _, rf := range []bool{false, true} {
		addShoot(fmt.Sprintf("bolters, Return Fire %v", rf), shooting(NewUnit(p1, 10), NewUnit(p1, 10), []Weapon{bolter}, []Weapon{bolter}, 12, rf))
		addShoot(fmt.Sprintf("plasma on W2, Return Fire %v", rf), shooting(NewUnit(p2, 20), NewUnit(p2, 20), []Weapon{plasma}, []Weapon{plasma}, 12, rf))
		addShoot(fmt.Sprintf("volkite at a flamer, Return Fire %v", rf), shooting(NewUnit(p1, 20), NewUnit(p2, 20), []Weapon{volkite}, []Weapon{flamer, plasma}, 8, rf))
	}
	// Master-crafted pistols that Get Hot, with Pinning and Return Fire:
	// the chance of no unsaved wound with each number of Gets Hot wounds
	// builds the pistols' joint law again for each Return Fire outcome.
	p3x := p3
	p3x.BS = 4
	addShoot("Master-crafted pistols on W3, Return Fire", shooting(NewUnit(p3x, 25), NewUnit(p3x, 25), []Weapon{pistol}, []Weapon{pistol}, 12, true))
	addShoot("forty guns of 75 shots", &ShootingExchange{Firer: NewUnit(p1, 40), Target: NewUnit(p1, 100),
		Weapons: []Weapon{{Name: "gun", Shots: dice.Const(75), S: 4, AP: 5}}, Options: DefaultOptions})
	ow := DefaultOptions
	ow.Overwatch = true
	unsaved := DefaultOptions
	unsaved.CombatScore = ScoreUnsavedWounds
	for _, hot := range []bool{false, true} {
		gun := plasma
		gun.GetsHot = hot
		slow := p2
		slow.I = 3
		addFight(fmt.Sprintf("Overwatch plasma on W2, Gets Hot %v, strikes in turn", hot), &AssaultExchange{Units: [2]Unit{NewUnit(p2, 10), NewUnit(slow, 10)},
			Charged: true, Distance: 6, OverwatchWeapons: []Weapon{gun}, Options: ow})
	}
	addFight("Overwatch Wall of Death that Gets Hot", &AssaultExchange{Units: [2]Unit{NewUnit(p3, 10), NewUnit(p1, 20)}, Charged: true, Distance: 5,
		OverwatchWeapons: []Weapon{{Name: "flamer", Template: true, S: 5, AP: 4, GetsHot: true}}, Options: ow})
	addFight("Overwatch Master-crafted pistols that Get Hot", &AssaultExchange{Units: [2]Unit{NewUnit(p2, 10), NewUnit(p2, 10)}, Charged: true,
		Distance: 6, OverwatchWeapons: []Weapon{pistol}, Options: ow})
	addFight("Brutal on W3", &AssaultExchange{Units: [2]Unit{NewUnit(p1, 20), NewUnit(p3, 8)},
		Weapons: [2]Weapon{{}, {Name: "maul", S: 6, AP: 4, Brutal: 2}}, Charged: true, Options: DefaultOptions})
	addFight("Brutal on W3, unsaved wounds", &AssaultExchange{Units: [2]Unit{NewUnit(p1, 20), NewUnit(p3, 8)},
		Weapons: [2]Weapon{{}, {Name: "maul", S: 6, AP: 4, Brutal: 2}}, Charged: true, Options: unsaved})
	addFight("Murderous Strike on W3", &AssaultExchange{Units: [2]Unit{NewUnit(p3, 8), NewUnit(p3, 8)},
		Weapons: [2]Weapon{{Name: "axe", S: 6, AP: 3, MurderousStrike: 6}, {}}, Charged: true, Options: DefaultOptions})
	addFight("Master-crafted blades, together", &AssaultExchange{Units: [2]Unit{NewUnit(p1, 20), NewUnit(p1, 20)},
		Weapons: [2]Weapon{{Name: "blade", S: 5, AP: 3, MasterCrafted: true}, {}}, Charged: true, Options: DefaultOptions})
	big := &AssaultExchange{Units: [2]Unit{NewUnit(p2, 20), NewUnit(p2, 20)}, Charged: true, Distance: 6,
		OverwatchWeapons: []Weapon{plasma}, Options: ow}
	addFight("twenty W2 against twenty, Overwatch that Gets Hot", big)

	for _, c := range cases {
		var est, steps float64
		if c.shoot != nil {
			est = ShootingExactWork(c.shoot)
			_, steps = exactShooting(c.shoot, 2*est)
		} else {
			est = AssaultExactWork(c.fight)
			_, steps = exactAssault(c.fight, 2*est)
		}
		t.Logf("%s: estimated %.3g steps, counted %.3g (%.2f)", c.name, est, steps, est/steps)
		if steps == 0 || est > workFactor*steps || steps > workFactor*est {
			t.Errorf("%s: estimated %.3g steps, counted %.3g", c.name, est, steps)
		}
	}
	if w := AssaultExactWork(big); w > MaxExactWork || ExactAssault(big)[0].OverBudget {
		t.Errorf("twenty W2 against twenty: estimated %.3g steps, past MaxExactWork", w)
	}
}
