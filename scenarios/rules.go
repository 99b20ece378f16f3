package scenarios

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"hammersim/mechanics"
)

// RuleChoice is one value of a rule entry: the rule, and whether the unit
// has it at this point (a rule toggled by a sweep of true and false).
type RuleChoice struct {
	On   bool
	Rule mechanics.Rule
	// Node is where it was written, for errors.
	Node *Node
}

// Rules reads a rules list against the scenario's ruleset. Each entry is a
// rule as printed ("Fly (9)"), or a one-key mapping that sweeps it:
// "Swiftstride: [false, true]" toggles a rule, "Random Movement: [3D6,
// 4D6]" sweeps its value. A rule that only another registered ruleset
// knows gets an error that says so, rather than "unknown rule": the
// scenario asks the wrong game.
func (d *Decoder) Rules(n *Node) []Param[RuleChoice] {
	return d.RulesOn(n, mechanics.AnyHolder)
}

// RulesOn is Rules for a list written on h (a unit's models, a weapon): a
// misspelt name is offered the rules h may hold first.
func (d *Decoder) RulesOn(n *Node, h mechanics.Holder) []Param[RuleChoice] {
	if n.Kind != SeqNode {
		d.Errorf(n, "expected rules as a list, such as [Swiftstride, Fly (9)], found %s", n.Describe())
		return nil
	}
	var out []Param[RuleChoice]
	for _, item := range n.Items {
		if d.otherGame(item) {
			continue
		}
		switch item.Kind {
		case ScalarNode:
			if r, ok := d.parseRule(item, item.Text, h); ok {
				out = append(out, Fixed(RuleChoice{On: true, Rule: r, Node: item}))
			}
		case MapNode:
			if len(item.Keys) != 1 {
				d.Errorf(item, "a swept rule is one key, the rule's name, such as \"Swiftstride: [false, true]\"")
				continue
			}
			if p, ok := d.sweptRule(item.Keys[0], item.Vals[0], h); ok {
				out = append(out, p)
			}
		default:
			d.Errorf(item, "expected a rule such as Swiftstride or \"Fly (9)\", found %s", item.Describe())
		}
	}
	// Each rule listed again is reported once, at each later entry: a
	// check of every pair took time, and made errors, in the square of a
	// long list's entries.
	listed := map[*mechanics.RuleSpec]bool{}
	for i := range out {
		r := out[i].vals[0].Rule
		if listed[r.Spec] && !slices.Contains(d.ruleset.Repeatable, r.Spec.Name) {
			d.Errorf(out[i].vals[0].Node, "%s is listed twice", r.Spec.Name)
		}
		listed[r.Spec] = true
	}
	return out
}

// otherGame reports a rules entry that names a rule this scenario's
// ruleset does not know and another registered ruleset does.
func (d *Decoder) otherGame(item *Node) bool {
	at, text := item, item.Text
	if item.Kind == MapNode && len(item.Keys) == 1 {
		at, text = item.Keys[0], item.Keys[0].Text
	}
	if at.Kind != ScalarNode {
		return false
	}
	rt, err := mechanics.ParseRuleText(text)
	if err != nil {
		return false
	}
	if _, ok := d.ruleset.Catalogue.Lookup(rt.Name); ok {
		return false
	}
	for _, name := range d.registry.Names() {
		other := d.registry.rulesets[name]
		if other == d.ruleset {
			continue
		}
		if _, ok := other.Catalogue.Lookup(rt.Name); ok {
			d.Errorf(at, "%q is a %s rule (ruleset: %s); a %s scenario takes %s rules: %s",
				rt.Name, other.Title, other.Name, d.ruleset.Name, d.ruleset.Title, strings.Join(d.ruleset.Catalogue.Names(), ", "))
			return true
		}
	}
	return false
}

func (d *Decoder) parseRule(n *Node, text string, h mechanics.Holder) (mechanics.Rule, bool) {
	r, err := d.ruleset.Catalogue.ParseOn(text, h)
	if err != nil {
		var te *mechanics.TextError
		if errors.As(err, &te) {
			d.ErrExpecting(n, te.Col, te.Msg, te.Expected)
		} else {
			d.Errorf(n, "%v", err)
		}
		return mechanics.Rule{}, false
	}
	return d.ruleDice(n, r)
}

// ruleDice admits the dice of a rule with a dice argument (ExactDice).
func (d *Decoder) ruleDice(n *Node, r mechanics.Rule) (mechanics.Rule, bool) {
	if r.Spec.Arg != mechanics.DiceArg {
		return r, true
	}
	var ok bool
	r.Dice, ok = d.ExactDice(n, r.Dice, fmt.Sprintf("%s (%s)", r.Spec.Name, r.Dice))
	return r, ok
}

func (d *Decoder) sweptRule(key, val *Node, h mechanics.Holder) (Param[RuleChoice], bool) {
	cat := d.ruleset.Catalogue
	spec, ok := cat.Lookup(key.Text)
	if !ok {
		if _, ok := d.parseRule(key, key.Text, h); ok { // else it reported the unknown name
			d.Errorf(key, "a swept rule's key is the rule's name alone, such as \"Fly: [8, 10]\"; put the values after the colon")
		}
		return Param[RuleChoice]{}, false
	}
	id := mechanics.ID(spec.Name)
	if spec.Arg == mechanics.NoArg {
		r, _ := cat.Parse(spec.Name)
		p := Sweep(d, val, id, false, func(n *Node) (RuleChoice, bool) {
			on, ok := d.Boolean(n, spec.Name)
			return RuleChoice{On: on, Rule: r, Node: key}, ok
		}, func(c RuleChoice) any { return c.On })
		return p, p.Set()
	}
	p := Sweep(d, val, id, spec.Arg == mechanics.IntArg, func(n *Node) (RuleChoice, bool) {
		arg, ok := d.Scalar(n, fmt.Sprintf("the value of %s", spec.Name))
		if !ok {
			return RuleChoice{}, false
		}
		if arg == "true" || arg == "false" || arg == "-" || strings.EqualFold(arg, "none") || strings.EqualFold(arg, "off") {
			// A rule with a value has no "off" among its values.
			d.Errorf(n, "%s takes a value, such as %s, and cannot be swept off and on; to compare units with and without it, sweep the units themselves (a list of units)", spec.Name, mechanics.Example(spec))
			return RuleChoice{}, false
		}
		text := fmt.Sprintf("%s (%s)", spec.Name, arg)
		r, err := cat.Parse(text)
		if err != nil {
			var te *mechanics.TextError
			if errors.As(err, &te) {
				// Point into the value: the argument starts after "Name (".
				d.ErrExpecting(n, max(1, te.Col-len(spec.Name)-2), te.Msg, te.Expected)
			}
			return RuleChoice{}, false
		}
		r, ok = d.ruleDice(n, r)
		return RuleChoice{On: true, Rule: r, Node: n}, ok
	}, func(c RuleChoice) any {
		switch c.Rule.Spec.Arg {
		case mechanics.IntArg:
			return c.Rule.Int
		case mechanics.SaveArg:
			// As a save is written, and as a unit's swept saves are
			// named (armour=4+): a bare 4 reads as a modifier.
			return strconv.Itoa(c.Rule.Int) + "+"
		case mechanics.DiceArg:
			return c.Rule.Dice.String()
		}
		return c.Rule.Words
	})
	return p, p.Set()
}
