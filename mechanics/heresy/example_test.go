package heresy_test

import (
	"fmt"

	"hammersim/mechanics/dice"
	"hammersim/mechanics/heresy"
)

// Ten BS 4 models fire bolters (two shots, S4, AP5) at ten T4 3+ models:
// each shot is an unsaved wound with probability 4/6 * 3/6 * 2/6 = 1/9.
func ExampleAttack() {
	firer := heresy.NewUnit(heresy.Profile{BS: 4, S: 4}, 10)
	target := heresy.NewUnit(heresy.Profile{T: 4, W: 1, Save: 3}, 10)
	bolter := heresy.Weapon{Name: "bolter", Shots: dice.Const(2), S: 4, AP: 5}

	var a heresy.Attack
	a.Prepare(&firer, []heresy.Weapon{bolter}, &target, heresy.DefaultOptions)
	fmt.Printf("P(unsaved wound per shot) = %.4f\n", a.Volleys[0].Chain.P(heresy.StageUnsaved))
	fmt.Printf("expected casualties = %.4f\n", a.ExpectedCasualties(&target))
	fmt.Printf("P(no casualty) = %.4f\n", a.Casualties(&target).At(0))

	t := a.Roll(dice.New(1, 0), &target)
	fmt.Printf("rolled: %d hits, %d wounds, %d unsaved, %d models left\n", t.Hits, t.Wounds, t.Unsaved, target.Models)
	// Output:
	// P(unsaved wound per shot) = 0.1111
	// expected casualties = 2.2222
	// P(no casualty) = 0.0948
	// rolled: 10 hits, 8 wounds, 2 unsaved, 8 models left
}

// A Stupefied unit of Fearless models ignores an unsaved wound on 5+, but
// never one from an Instant Death attack.
func ExampleMitigation() {
	u := heresy.NewUnit(heresy.Profile{T: 4, W: 1, Fearless: true, LordsOfProfligacy: true}, 5)
	u.Stupefy(false, heresy.DefaultOptions)
	need, kind := heresy.Mitigation(&u, false, heresy.DefaultOptions)
	fmt.Printf("%s roll on %d+\n", kind, need)
	_, kind = heresy.Mitigation(&u, true, heresy.DefaultOptions)
	fmt.Printf("against Instant Death: %s\n", kind)
	// Output:
	// Stupefied roll on 5+
	// against Instant Death: none
}

// A bolter is Rapid Fire: two shots within half its 24" range. A charge
// over 7" with a Movement bonus of 1 needs 6 or more on 2D6: 26/36.
func ExampleChargeSuccess() {
	marine := heresy.NewUnit(heresy.Profile{BS: 4, S: 4}, 10)
	bolter := heresy.Weapon{Name: "bolter", Type: heresy.RapidFire, Range: 24, S: 4, AP: 5}
	for _, d := range []int{12, 24, 30} {
		f := bolter.Fire(&marine, heresy.Situation{Distance: d})
		fmt.Printf("at %d\": %s, %d roll(s) of shots\n", d, f.Why, f.Rolls)
	}
	fmt.Printf("charge 7\" with +1: %.4f\n", heresy.ChargeSuccess(7, 1, heresy.DefaultOptions))
	// Output:
	// at 12": fires, 2 roll(s) of shots
	// at 24": fires, 1 roll(s) of shots
	// at 30": out of range, 1 roll(s) of shots
	// charge 7" with +1: 0.7222
}
