package scenarios

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"hammersim/mechanics"
	"hammersim/mechanics/dice"
	"hammersim/mechanics/fantasy"
)

// unitSpec is a fantasy unit as written in a scenario, with its sweeps: a
// unit card's profile, equipment and special rules. Every question reads
// the same card; a charge only uses M and the movement rules, a battle all
// of it.
type unitSpec struct {
	node  *node
	name  string
	stats map[string]Param[int] // M WS BS S T W I Ld and the counts below
	nodes map[string]*node      // where each key was written
	A     Param[dice.Expr]
	saves map[string]Param[int] // armour, ward, parry; fantasy.NoSave for none
	flags map[string]Param[bool]
	troop Param[fantasy.TroopType]

	champion *profileSpec
	crew     []*profileSpec
	missile  *missileSpec
	rules    []Param[ruleChoice]
}

// profileSpec is a champion's or a crew member's attack profile.
type profileSpec struct {
	node  *node
	name  string
	count int
	stats map[string]int // WS S I, where given
	A     dice.Expr
	hasA  bool
}

type missileSpec struct {
	node               *node
	S, rangeIn, hitMod int
	shots              dice.Expr
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
	stats map[string]int
	has   map[string]bool
	A     dice.Expr
	HasA  bool
	saves map[string]int
	flags map[string]bool
	troop fantasy.TroopType
	Rules []mechanics.Rule
	// ruleNodes holds where each rule was written, for errors.
	ruleNodes []*node
}

// Integer keys of a unit card, with their ranges. "-" (no value, as on a
// war machine's profile) reads as 0 where the range allows 0.
var unitStats = []struct {
	key    string
	lo, hi int
}{
	{"M", 1, 20}, {"WS", 0, 10}, {"BS", 0, 10}, {"S", 0, 10}, {"T", 1, 10}, {"W", 1, 20},
	{"I", 0, 10}, {"Ld", 0, 10},
	{"models", 1, 1000}, {"width", 1, 100}, {"base", 10, 300}, {"unit_strength", 1, 100}, {"points", 0, 100_000},
}

var unitSaves = []string{"armour", "ward", "parry"}

var unitFlags = []string{"standard", "musician", "battle_standard", "flank", "rear", "higher_ground", "flying"}

// rule returns the unit's rule with the given name.
func (u *unit) rule(name string) (mechanics.Rule, bool) {
	for _, r := range u.Rules {
		if r.Spec.Name == name {
			return r, true
		}
	}
	return mechanics.Rule{}, false
}

// rulesNamed returns every rule of the unit with the given name.
func (u *unit) rulesNamed(name string) []mechanics.Rule {
	var out []mechanics.Rule
	for _, r := range u.Rules {
		if r.Spec.Name == name {
			out = append(out, r)
		}
	}
	return out
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

// keyNode returns where a key of the unit was written, or the unit's node.
func (u *unit) keyNode(key string) *node {
	if n, ok := u.spec.nodes[key]; ok {
		return n
	}
	return u.spec.node
}

func (s *unitSpec) at(pt point) *unit {
	u := &unit{spec: s, Name: s.name, stats: map[string]int{}, has: map[string]bool{},
		saves: map[string]int{}, flags: map[string]bool{}}
	for k, p := range s.stats {
		u.stats[k], u.has[k] = p.At(pt), true
	}
	u.M, u.HasM = u.stats["M"], u.has["M"]
	if s.A.Set() {
		u.A, u.HasA = s.A.At(pt), true
	}
	for _, k := range unitSaves {
		u.saves[k] = fantasy.NoSave
		if p, ok := s.saves[k]; ok {
			u.saves[k] = p.At(pt)
		}
	}
	for k, p := range s.flags {
		u.flags[k] = p.At(pt)
	}
	if s.troop.Set() {
		u.troop = s.troop.At(pt)
	}
	for _, p := range s.rules {
		if c := p.At(pt); c.on {
			u.Rules = append(u.Rules, c.rule)
			u.ruleNodes = append(u.ruleNodes, c.node)
		}
	}
	return u
}

// stat reads an integer characteristic: a whole number in range, or "-".
func (d *decoder) statValue(n *node, what string, lo, hi int) (int, bool) {
	if n.kind == scalarNode && n.text == "-" {
		if lo > 0 {
			d.errorf(n, "%s cannot be \"-\"; expected %d to %d", what, lo, hi)
			return 0, false
		}
		return 0, true
	}
	return d.intIn(n, what, lo, hi)
}

// save reads a save: "4+", or "none".
func (d *decoder) save(n *node, what string) (int, bool) {
	s, ok := d.scalar(n, what+" (such as 4+, or none)")
	if !ok {
		return 0, false
	}
	if s == "none" || s == "-" {
		return fantasy.NoSave, true
	}
	v, err := strconv.Atoi(strings.TrimSuffix(s, "+"))
	if err != nil || !strings.HasSuffix(s, "+") || v < 1 || v > 7 {
		d.errorf(n, "expected %s as a save from 1+ to 6+, or none; found %q", what, s)
		return 0, false
	}
	return v, true
}

// attacks reads an Attacks value: a whole number, "-", or a dice roll
// (Random Attacks).
func (d *decoder) attacks(n *node, what string) (dice.Expr, bool) {
	s, ok := d.scalar(n, what+" (a number or dice such as 2D6)")
	if !ok {
		return dice.Expr{}, false
	}
	if s == "-" {
		return dice.Const(0), true
	}
	e, err := dice.Parse(s)
	if err != nil {
		var se *dice.SyntaxError
		if errors.As(err, &se) {
			d.errAt(n, se.Col, fmt.Sprintf("%s: %s", what, se.Msg))
		} else {
			d.errorf(n, "%s: %v", what, err)
		}
		return dice.Expr{}, false
	}
	if e.IsArtillery() || e.IsScatter() || e.Min() < 0 || e.Max() > 100 {
		d.errorf(n, "%s %s: expected 0 to 100 attacks", what, e)
		return dice.Expr{}, false
	}
	return e, true
}

// decodeUnit reads a unit card. extra adds keys the caller reads itself
// (a battle's distance and side).
func decodeUnit(d *decoder, n *node, rs *ruleset, extra ...field) *unitSpec {
	u := &unitSpec{node: n, stats: map[string]Param[int]{}, nodes: map[string]*node{},
		saves: map[string]Param[int]{}, flags: map[string]Param[bool]{}}
	fields := []field{
		{key: "name", required: true, decode: func(n *node) { u.name = d.text(n, "the unit's name") }},
		{key: "troop", decode: func(n *node) {
			u.troop = sweep(d, n, "troop", false, func(n *node) (fantasy.TroopType, bool) {
				s, ok := d.scalar(n, "a troop type")
				if !ok {
					return 0, false
				}
				t, ok := fantasy.ParseTroopType(s)
				if !ok {
					d.errorf(n, "unknown troop type %q; expected one of: %s", s, strings.Join(fantasy.TroopTypes(), ", "))
				}
				return t, ok
			}, func(t fantasy.TroopType) any { return t.String() })
			u.nodes["troop"] = n
		}},
		{key: "A", decode: func(n *node) {
			u.A = sweep(d, n, "A", true, func(n *node) (dice.Expr, bool) { return d.attacks(n, "A") },
				func(e dice.Expr) any {
					if e.IsConst() {
						return e.Min()
					}
					return e.String()
				})
			u.nodes["A"] = n
		}},
		{key: "rules", decode: func(n *node) { u.rules = decodeRules(d, n, rs) }},
		{key: "champion", decode: func(n *node) { u.champion = decodeProfile(d, n, "the champion") }},
		{key: "crew", decode: func(n *node) {
			if n.kind != seqNode {
				d.errorf(n, "expected crew as a list of profiles, such as [{name: Engineer, WS: 3, S: 2, I: 4, A: 2D6}], found %s", describe(n))
				return
			}
			for _, item := range n.items {
				u.crew = append(u.crew, decodeProfile(d, item, "a crew profile"))
			}
		}},
		{key: "missile", decode: func(n *node) { u.missile = decodeMissile(d, n) }},
	}
	for _, st := range unitStats {
		st := st
		fields = append(fields, field{key: st.key, decode: func(n *node) {
			u.stats[st.key] = sweep(d, n, st.key, true, func(n *node) (int, bool) { return d.statValue(n, st.key, st.lo, st.hi) }, identity)
			u.nodes[st.key] = n
		}})
	}
	for _, k := range unitSaves {
		k := k
		fields = append(fields, field{key: k, decode: func(n *node) {
			u.saves[k] = sweep(d, n, k, false, func(n *node) (int, bool) { return d.save(n, k) }, func(v int) any {
				if v >= fantasy.NoSave {
					return "none"
				}
				return strconv.Itoa(v) + "+"
			})
			u.nodes[k] = n
		}})
	}
	for _, k := range unitFlags {
		k := k
		fields = append(fields, field{key: k, decode: func(n *node) {
			u.flags[k] = sweep(d, n, k, false, func(n *node) (bool, bool) { return d.boolean(n, k) }, identity)
			u.nodes[k] = n
		}})
	}
	d.object(n, "a unit", append(fields, extra...))
	return u
}

func decodeProfile(d *decoder, n *node, what string) *profileSpec {
	p := &profileSpec{node: n, count: 1, stats: map[string]int{}}
	fields := []field{
		{key: "name", required: true, decode: func(n *node) { p.name = d.text(n, "the profile's name") }},
		{key: "count", decode: func(n *node) { p.count, _ = d.intIn(n, "count", 1, 20) }},
		{key: "A", decode: func(n *node) { p.A, p.hasA = d.attacks(n, "A") }},
	}
	for _, k := range []string{"WS", "S", "I"} {
		k := k
		fields = append(fields, field{key: k, decode: func(n *node) {
			if v, ok := d.statValue(n, k, 0, 10); ok {
				p.stats[k] = v
			}
		}})
	}
	d.object(n, what, fields)
	return p
}

func decodeMissile(d *decoder, n *node) *missileSpec {
	m := &missileSpec{node: n, shots: dice.Const(1)}
	d.object(n, "a missile weapon", []field{
		{key: "S", required: true, decode: func(n *node) { m.S, _ = d.intIn(n, "the weapon's S", 1, 10) }},
		{key: "range", required: true, decode: func(n *node) { m.rangeIn, _ = d.intIn(n, "range", 1, 120) }},
		{key: "shots", decode: func(n *node) {
			if e, ok := d.attacks(n, "shots"); ok {
				m.shots = e
			}
		}},
		{key: "hit_modifier", decode: func(n *node) { m.hitMod, _ = d.intIn(n, "hit_modifier", -6, 6) }},
	})
	return m
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
			a, b := out[i].vals[0].rule, out[j].vals[0].rule
			if a.Spec == b.Spec && a.Spec.Name != fantasy.RuleImpactHits && a.Spec.Name != fantasy.RuleImmunity {
				d.errorf(out[i].vals[0].node, "%s is listed twice", a.Spec.Name)
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
		if _, ok := parseRule(d, key, key.text, rs); ok { // else it reported the unknown name
			d.errorf(key, "a swept rule's key is the rule's name alone, such as \"Fly: [8, 10]\"; put the values after the colon")
		}
		return Param[ruleChoice]{}, false
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
		switch c.rule.Spec.Arg {
		case mechanics.IntArg, mechanics.SaveArg:
			return c.rule.Int
		case mechanics.DiceArg:
			return c.rule.Dice.String()
		}
		return c.rule.Words
	})
	return p, p.Set()
}
