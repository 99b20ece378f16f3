package scenarios

import (
	"errors"
	"fmt"

	"hammersim/mechanics"
)

// unitSpec is a unit as written in a scenario, with its sweeps.
type unitSpec struct {
	node  *node
	name  string
	M     Param[int]
	rules []Param[ruleChoice]
}

// ruleChoice is one value of a rule entry: the rule, and whether the unit
// has it at this point (a rule toggled by a sweep of true and false).
type ruleChoice struct {
	on   bool
	rule mechanics.Rule
	node *node
}

// unit is a unitSpec at one point of the sweep.
type unit struct {
	spec  *unitSpec
	Name  string
	M     int
	HasM  bool
	Rules []mechanics.Rule
	// ruleNodes holds where each rule was written, for errors.
	ruleNodes []*node
}

// rule returns the unit's rule with the given name.
func (u *unit) rule(name string) (mechanics.Rule, bool) {
	for _, r := range u.Rules {
		if r.Spec.Name == name {
			return r, true
		}
	}
	return mechanics.Rule{}, false
}

// ruleNode returns where the named rule was written, or the unit's node.
func (u *unit) ruleNode(name string) *node {
	for i, r := range u.Rules {
		if r.Spec.Name == name {
			return u.ruleNodes[i]
		}
	}
	return u.spec.node
}

func (s *unitSpec) at(pt point) *unit {
	u := &unit{spec: s, Name: s.name}
	if s.M.Set() {
		u.M, u.HasM = s.M.At(pt), true
	}
	for _, p := range s.rules {
		if c := p.At(pt); c.on {
			u.Rules = append(u.Rules, c.rule)
			u.ruleNodes = append(u.ruleNodes, c.node)
		}
	}
	return u
}

// decodeUnit reads a unit mapping.
func decodeUnit(d *decoder, n *node, rs *ruleset) *unitSpec {
	u := &unitSpec{node: n}
	d.object(n, "a unit", []field{
		{key: "name", required: true, decode: func(n *node) { u.name = d.text(n, "the unit's name") }},
		{key: "M", decode: func(n *node) {
			u.M = sweep(d, n, "M", true, func(n *node) (int, bool) { return d.intIn(n, "M", 1, 20) }, identity)
		}},
		{key: "rules", decode: func(n *node) { u.rules = decodeRules(d, n, rs) }},
	})
	return u
}

// unitParam reads one unit, or a list of units to sweep, named by the
// key it sits under. The units of a swept list may not sweep values of their
// own: the points of such a sweep would differ from unit to unit.
func unitParam(d *decoder, n *node, name string, rs *ruleset) Param[*unitSpec] {
	swept := n.kind == seqNode
	names := map[string]*node{}
	return sweep(d, n, name, false, func(item *node) (*unitSpec, bool) {
		if swept {
			outer := d.inSweep
			d.inSweep = true
			defer func() { d.inSweep = outer }()
		}
		u := decodeUnit(d, item, rs)
		if prev, dup := names[u.name]; dup && u.name != "" {
			d.errorf(item, "two units named %q in one list (the other at line %d); names tell the points apart", u.name, prev.line)
			return nil, false
		}
		names[u.name] = item
		return u, u.name != ""
	}, func(u *unitSpec) any { return u.name })
}

// decodeRules reads a rules list. Each entry is a rule as printed
// ("Fly (9)"), or a one-key mapping that sweeps it: "Swiftstride: [false,
// true]" toggles a rule, "Random Movement: [3D6, 4D6]" sweeps its value.
func decodeRules(d *decoder, n *node, rs *ruleset) []Param[ruleChoice] {
	if n.kind != seqNode {
		d.errorf(n, "expected rules as a list, such as [Swiftstride, Fly (9)], found %s", describe(n))
		return nil
	}
	var out []Param[ruleChoice]
	for _, item := range n.items {
		switch item.kind {
		case scalarNode:
			if r, ok := parseRule(d, item, item.text, rs); ok {
				out = append(out, fixed(ruleChoice{on: true, rule: r, node: item}))
			}
		case mapNode:
			if len(item.keys) != 1 {
				d.errorf(item, "a swept rule is one key, the rule's name, such as \"Swiftstride: [false, true]\"")
				continue
			}
			if p, ok := sweptRule(d, item.keys[0], item.vals[0], rs); ok {
				out = append(out, p)
			}
		default:
			d.errorf(item, "expected a rule such as Swiftstride or \"Fly (9)\", found %s", describe(item))
		}
	}
	for i := range out {
		for j := range i {
			a, b := out[i].vals[0].rule.Spec, out[j].vals[0].rule.Spec
			if a == b {
				d.errorf(out[i].vals[0].node, "%s is listed twice", a.Name)
			}
		}
	}
	return out
}

func parseRule(d *decoder, n *node, text string, rs *ruleset) (mechanics.Rule, bool) {
	r, err := rs.catalogue.Parse(text)
	if err != nil {
		var te *mechanics.TextError
		if errors.As(err, &te) {
			d.errAt(n, te.Col, te.Msg)
		} else {
			d.errorf(n, "%v", err)
		}
		return mechanics.Rule{}, false
	}
	return r, true
}

func sweptRule(d *decoder, key, val *node, rs *ruleset) (Param[ruleChoice], bool) {
	spec, ok := rs.catalogue.Lookup(key.text)
	if !ok {
		_, ok := parseRule(d, key, key.text, rs) // reports the unknown name
		return Param[ruleChoice]{}, ok
	}
	id := mechanics.ID(spec.Name)
	if spec.Arg == mechanics.NoArg {
		r, _ := rs.catalogue.Parse(spec.Name)
		p := sweep(d, val, id, false, func(n *node) (ruleChoice, bool) {
			on, ok := d.boolean(n, spec.Name)
			return ruleChoice{on: on, rule: r, node: key}, ok
		}, func(c ruleChoice) any { return c.on })
		return p, p.Set()
	}
	p := sweep(d, val, id, spec.Arg == mechanics.IntArg, func(n *node) (ruleChoice, bool) {
		arg, ok := d.scalar(n, fmt.Sprintf("the value of %s", spec.Name))
		if !ok {
			return ruleChoice{}, false
		}
		text := fmt.Sprintf("%s (%s)", spec.Name, arg)
		r, err := rs.catalogue.Parse(text)
		if err != nil {
			var te *mechanics.TextError
			if errors.As(err, &te) {
				// Point into the value: the argument starts after "Name (".
				d.errAt(n, max(1, te.Col-len(spec.Name)-2), te.Msg)
			}
			return ruleChoice{}, false
		}
		return ruleChoice{on: true, rule: r, node: n}, true
	}, func(c ruleChoice) any {
		if c.rule.Spec.Arg == mechanics.IntArg {
			return c.rule.Int
		}
		if c.rule.Spec.Arg == mechanics.DiceArg {
			return c.rule.Dice.String()
		}
		return c.rule.Words
	})
	return p, p.Set()
}
