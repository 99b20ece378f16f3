package fantasy

import (
	"fmt"
	"slices"
	"strings"

	rules "hammersim/mechanics/fantasy"
	"hammersim/scenarios"
)

// Ruleset returns the fantasy ruleset for a scenarios.Registry: Warhammer
// Armies Project units read from unit cards, and the charge, pursuit and
// battle questions. docs/scenarios.md documents the format.
func Ruleset() *scenarios.Ruleset {
	return &scenarios.Ruleset{
		Name:           "fantasy",
		Title:          "Warhammer Fantasy",
		ProfileExample: "M5 WS3 S3 T3 W1 I4 A1 Ld5",
		Catalogue:      rules.Catalogue,
		// Impact Hits may come from several sources (each model rolls the
		// highest); Immunity is listed once per thing it is immune to.
		Repeatable: []string{rules.RuleImpactHits, rules.RuleImmunity},
		Questions: map[string]scenarios.Question{
			"charge":  decodeCharge,
			"pursuit": decodePursuit,
			"battle":  decodeBattle,
		},
		UnitPlaces: map[string][]string{
			"charge":  {"unit"},
			"pursuit": {"fleeing", "pursuing"},
			"battle":  {"attacker", "target", "others"},
		},
		Acting: map[string]string{"charge": "unit", "pursuit": "pursuing", "battle": "attacker"},
		Card: func(d *scenarios.Decoder, n *scenarios.Node) {
			u := decodeUnit(d, n)
			u.checkPrice(d)
			u.checkTroopRules(d)
		},
		CardNotes: cardNotes,
	}
}

// cardNotes names the rules a card's troop type gives it and its rules do
// not name (TroopType.Rules), nor cancel (Swiftstride, for a Tunneller),
// unless troop_rules is false; a swept troop
// type, for each of its values that gives any; a swept troop_rules, where
// it is true.
func cardNotes(n *scenarios.Node) []string {
	var troops []string
	on, swept := "true", false
	var listed *scenarios.Node
	for i, k := range n.Keys {
		v := n.Vals[i]
		switch k.Text {
		case "troop":
			troops = []string{v.Text}
			if v.Kind == scenarios.SeqNode {
				troops = nil
				for _, item := range v.Items {
					troops = append(troops, item.Text)
				}
			}
		case "troop_rules":
			on = v.Text
			if v.Kind == scenarios.SeqNode {
				on, swept = "true", slices.ContainsFunc(v.Items, func(it *scenarios.Node) bool { return it.Text == "true" })
				if !swept {
					on = "false"
				}
			}
		case "rules":
			listed = v
		}
	}
	if on != "true" {
		return nil
	}
	names := map[string]bool{}
	if listed != nil {
		for _, item := range listed.Items {
			text := item.Text
			if item.Kind == scenarios.MapNode && len(item.Keys) == 1 {
				text = item.Keys[0].Text // a swept rule
			}
			if spec, ok := rules.Catalogue.Lookup(strings.TrimSpace(strings.SplitN(text, "(", 2)[0])); ok {
				names[spec.Name] = true
			}
		}
	}
	var notes []string
	for _, troop := range troops {
		t, ok := rules.ParseTroopType(troop)
		if !ok {
			continue
		}
		var gives []string
		for _, text := range t.Rules() {
			r, err := rules.Catalogue.Parse(text)
			// A Tunneller never benefits from Swiftstride, which does
			// nothing else: the Dread Maw's Monster type gives it none.
			cancelled := err == nil && r.Spec.Name == rules.RuleSwiftstride && names[rules.RuleTunneller]
			if err == nil && !names[r.Spec.Name] && !cancelled {
				gives = append(gives, text)
			}
		}
		switch {
		case len(gives) == 0:
		case len(troops) == 1 && swept:
			notes = append(notes, fmt.Sprintf("Where troop_rules is true, its troop type, %s, also gives it %s.", t, strings.Join(gives, ", ")))
		case len(troops) == 1:
			notes = append(notes, fmt.Sprintf("Its troop type, %s, also gives it %s (troop_rules: false turns them off).", t, strings.Join(gives, ", ")))
		case swept:
			notes = append(notes, fmt.Sprintf("Where troop_rules is true and its troop type is %s, that also gives it %s.", t, strings.Join(gives, ", ")))
		default:
			notes = append(notes, fmt.Sprintf("Where its troop type is %s, that also gives it %s (troop_rules: false turns them off).", t, strings.Join(gives, ", ")))
		}
	}
	return notes
}
