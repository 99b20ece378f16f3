package main

import (
	"hammersim/scenarios"
	"hammersim/scenarios/fantasy"
	"hammersim/scenarios/heresy"
)

// registry holds the rulesets simulate reads scenarios in: one line per
// ruleset, the only place a ruleset is named outside its own packages.
var registry = scenarios.NewRegistry(
	fantasy.Ruleset(),
	heresy.Ruleset(),
)
