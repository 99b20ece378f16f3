package fantasy

import (
	rules "hammersim/mechanics/fantasy"
	"hammersim/scenarios"
)

// Ruleset returns the fantasy ruleset for a scenarios.Registry: Warhammer
// Armies Project units read from unit cards, and the charge, pursuit and
// battle questions. docs/scenarios.md documents the format.
func Ruleset() *scenarios.Ruleset {
	return &scenarios.Ruleset{
		Name:      "fantasy",
		Title:     "Warhammer Fantasy",
		Catalogue: rules.Catalogue,
		// Impact Hits may come from several sources (each model rolls the
		// highest); Immunity is listed once per thing it is immune to.
		Repeatable: []string{rules.RuleImpactHits, rules.RuleImmunity},
		Questions: map[string]scenarios.Question{
			"charge":  decodeCharge,
			"pursuit": decodePursuit,
			"battle":  decodeBattle,
		},
		Card: func(d *scenarios.Decoder, n *scenarios.Node) { decodeUnit(d, n) },
	}
}
