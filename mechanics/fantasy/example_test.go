package fantasy_test

import (
	"fmt"

	"hammersim/mechanics/dice"
	"hammersim/mechanics/fantasy"
)

// A block of Clanrats charges a unit of Halberdiers from 5" and the combat
// is fought to the end: Options.Rounds 0 fights until one side breaks,
// flees or is destroyed. A broken unit that is caught takes 2 wounds per
// point of its pursuers' Unit Strength (WAP): over 40 from the Clanrats
// left standing, which destroys the 20 Halberdiers in the second and third
// trials.
func ExampleBattle_Run() {
	unit := func(name string, models, ws, s, t, i, ld, armour int) *fantasy.Unit {
		return &fantasy.Unit{Name: name, Troop: fantasy.Infantry, Models: models, Width: 5, FrontMM: 20,
			WS: ws, S: s, T: t, W: 1, I: i, Ld: ld, Armour: armour, Ward: fantasy.NoSave, Parry: fantasy.NoSave, US: 1,
			Attackers: []fantasy.Attacker{{Name: name, WS: ws, S: s, I: i, A: dice.Const(1), PerBody: 1}},
			Mover:     fantasy.Mover{M: 5}}
	}
	b := &fantasy.Battle{
		Units:    []*fantasy.Unit{unit("Clanrats", 30, 3, 3, 3, 4, 5, 5), unit("Halberdiers", 20, 3, 4, 3, 3, 7, 5)},
		Enemy:    []bool{false, true},
		Distance: []int{0, 5},
		Phases:   []fantasy.Phase{fantasy.PhaseCharge, fantasy.PhaseCombat},
		Options:  fantasy.DefaultOptions,
	}
	b.Options.Rounds = 0
	s := b.NewState()
	r := dice.New(2, 0)
	for range 3 {
		b.Run(r, s)
		fmt.Printf("charged %v, %d rounds, Clanrats won %v, Halberdiers won %v, models lost %d and %d\n",
			s.Out.ChargeSuccess, s.Out.Rounds, s.Won(0), s.Won(1), 30-s.Units[0].Alive, 20-s.Units[1].Alive)
	}
	// Output:
	// charged true, 3 rounds, Clanrats won false, Halberdiers won true, models lost 13 and 6
	// charged true, 1 rounds, Clanrats won true, Halberdiers won false, models lost 3 and 20
	// charged true, 2 rounds, Clanrats won true, Halberdiers won false, models lost 8 and 20
}
