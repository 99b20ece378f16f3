package heresy

import (
	rules "hammersim/mechanics/heresy"
	"hammersim/scenarios"
)

// Ruleset returns the heresy ruleset for a scenarios.Registry: Horus
// Heresy 2nd edition units, read from profiles as printed on datasheets,
// and the shooting and assault questions. docs/heresy.md documents the
// format.
func Ruleset() *scenarios.Ruleset {
	return &scenarios.Ruleset{
		Name:           "heresy",
		Title:          "Horus Heresy",
		ProfileExample: "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+",
		Catalogue:      rules.Catalogue,
		Questions: map[string]scenarios.Question{
			"shooting": decodeShooting,
			"assault":  decodeAssault,
		},
		UnitPlaces: map[string][]string{
			"shooting": {"firer", "target"},
			"assault":  {"attacker", "defender"},
		},
		Acting: map[string]string{"shooting": "firer", "assault": "attacker"},
		Card:   func(d *scenarios.Decoder, n *scenarios.Node) { decodeUnit(d, n, roleCard) },
	}
}
