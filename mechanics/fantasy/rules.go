package fantasy

import "hammersim/mechanics"

// Rule names, as printed on unit cards.
const (
	RuleSwiftstride    = "Swiftstride"
	RuleRandomMovement = "Random Movement"
	RuleFly            = "Fly"
	RuleTunneller      = "Tunneller"
)

// Catalogue lists the special rules this package implements, with the
// value each takes in brackets. Summaries paraphrase the seeds' texts.
var Catalogue = mechanics.Catalogue{
	{Name: RuleSwiftstride, Summary: "Charge, failed-charge, flee and pursuit rolls by the Swiftstride table; " +
		"needs every model in the unit; no effect below M 4 or with Random Movement."},
	{Name: RuleRandomMovement, Arg: mechanics.DiceArg, Summary: "The roll in brackets is the distance the unit moves, " +
		"charges, flees and pursues; the slowest roll in a unit moves it; Swiftstride is not used."},
	{Name: RuleFly, Arg: mechanics.IntArg, Min: 1, Max: 30, Summary: "Flying moves and charges use the value in brackets " +
		"as M; a flying charge uses Swiftstride; flees and pursuits are on the ground."},
	{Name: RuleTunneller, Aliases: []string{"Tunneler", "Tunnellers", "Tunnelers"}, Arg: mechanics.IntArg, Min: 1, Max: 30,
		Summary: "Moves and charges as Fly with the value in brackets, but never with Swiftstride (the Dread Maw)."},
}
