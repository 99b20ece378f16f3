package fantasy

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"hammersim/mechanics"
	"hammersim/mechanics/dice"
	rules "hammersim/mechanics/fantasy"
	"hammersim/scenarios"
)

// unitSpec is a fantasy unit as written in a scenario, with its sweeps: a
// unit card's profile, equipment and special rules. Every question reads
// the same card; a charge only uses M and the movement rules, a battle all
// of it.
type unitSpec struct {
	node  *scenarios.Node
	name  string
	stats map[string]scenarios.Param[int] // M WS BS S T W I Ld and the counts below
	nodes map[string]*scenarios.Node      // where each key was written
	A     scenarios.Param[dice.Expr]
	saves map[string]scenarios.Param[int] // armour, ward, parry; rules.NoSave for none
	flags map[string]scenarios.Param[bool]
	troop scenarios.Param[rules.TroopType]

	champion *profileSpec
	crew     []*profileSpec
	missile  *missileSpec
	rules    []scenarios.Param[scenarios.RuleChoice]
	// perModelOf, when above 0, is the number of models a card's points
	// are for, which a use of the card with other models pays per model
	// (scenarios.Decoder.PerModel).
	perModelOf int
}

// profileSpec is a champion's or a crew member's attack profile.
type profileSpec struct {
	node  *scenarios.Node
	name  string
	count int
	stats map[string]int // WS S I, where given
	A     dice.Expr
	hasA  bool
	// rules are the profile's own attack rules (profileRules), beside the
	// unit's, which every profile has: a crew profile's only.
	rules []mechanics.Rule
}

// profileRules are the rules a crew profile may give its own attacks
// alone: a knight's Killing Blow that his warhorse lacks.
var profileRules = []string{rules.RuleKillingBlow, rules.RuleMultipleWounds, rules.RuleStrikesFirst, rules.RuleStrikesLast}

// missileSpec is a unit's missile weapon as written: each of its values
// may be swept.
type missileSpec struct {
	node               *scenarios.Node
	S, rangeIn, hitMod scenarios.Param[int]
	shots              scenarios.Param[dice.Expr]
}

// at is the missile weapon at one point of the sweep.
func (m *missileSpec) at(pt scenarios.Point) rules.Missile {
	out := rules.Missile{Shots: dice.Const(1)}
	for _, v := range []struct {
		p  scenarios.Param[int]
		to *int
	}{{m.S, &out.S}, {m.rangeIn, &out.Range}, {m.hitMod, &out.HitMod}} {
		if v.p.Set() {
			*v.to = v.p.At(pt)
		}
	}
	if m.shots.Set() {
		out.Shots = m.shots.At(pt)
	}
	return out
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
	troop rules.TroopType
	// points is the unit's points cost: as written, or a card's priced
	// per model (scenarios.PriceAt), which need not be whole.
	points float64
	// missile is its missile weapon at the point, if it has one.
	missile rules.Missile
	Rules   []mechanics.Rule
	// ruleNodes holds where each rule was written, for errors.
	ruleNodes []*scenarios.Node
}

// Integer keys of a unit card, with their ranges. "-" (no value, as on a
// war machine's profile) reads as 0 where the range allows 0.
var unitStats = []struct {
	key    string
	lo, hi int
}{
	{"M", 1, 20}, {"WS", 0, 10}, {"BS", 0, 10}, {"S", 0, 10}, {"T", 1, 10}, {"W", 1, 20},
	{"I", 0, 10}, {"Ld", 0, 10},
	{"models", 1, 1000}, {"width", 1, 100}, {"base", 10, 300}, {"base_depth", 10, 600}, {"unit_strength", 1, 100}, {"points", 0, scenarios.MaxUnitPoints},
}

var unitSaves = []string{"armour", "ward", "parry"}

var unitFlags = []string{"standard", "musician", "battle_standard", "flank", "rear", "higher_ground", "flying", "troop_rules"}

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
func (u *unit) ruleNode(name string) *scenarios.Node {
	for i, r := range u.Rules {
		if r.Spec.Name == name {
			return u.ruleNodes[i]
		}
	}
	return u.spec.node
}

// keyNode returns where a key of the unit was written, or the unit's node.
func (u *unit) keyNode(key string) *scenarios.Node {
	if n, ok := u.spec.nodes[key]; ok {
		return n
	}
	return u.spec.node
}

func (s *unitSpec) at(pt scenarios.Point) *unit {
	u := &unit{spec: s, Name: s.name, stats: map[string]int{}, has: map[string]bool{},
		saves: map[string]int{}, flags: map[string]bool{}}
	for k, p := range s.stats {
		u.stats[k], u.has[k] = p.At(pt), true
	}
	u.M, u.HasM = u.stats["M"], u.has["M"]
	u.points = scenarios.PriceAt(u.stats["points"], u.stats["models"], s.perModelOf)
	if s.A.Set() {
		u.A, u.HasA = s.A.At(pt), true
	}
	for _, k := range unitSaves {
		u.saves[k] = rules.NoSave
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
	if s.missile != nil {
		u.missile = s.missile.at(pt)
	}
	listed := map[string]bool{}
	for _, p := range s.rules {
		c := p.At(pt)
		if c.Rule.Spec != nil { // nil only for a value that failed to decode
			listed[c.Rule.Spec.Name] = true
		}
		if c.On {
			u.Rules = append(u.Rules, c.Rule)
			u.ruleNodes = append(u.ruleNodes, c.Node)
		}
	}
	if on, set := u.flags["troop_rules"]; on || !set {
		u.addTroopRules(listed)
	}
	return u
}

// addTroopRules gives the unit its troop type's rules (TroopType.Rules),
// but for those its own rules name: a rule the card lists, or sweeps, is
// the card's to decide (Impact Hits (D3) instead of Cavalry's (1);
// Swiftstride swept off).
func (u *unit) addTroopRules(listed map[string]bool) {
	where := u.keyNode("troop")
	for _, text := range u.troop.Rules() {
		r, err := rules.Catalogue.Parse(text)
		if err != nil { // TestTroopRulesParse: never for the texts there
			continue
		}
		if !listed[r.Spec.Name] {
			u.Rules = append(u.Rules, r)
			u.ruleNodes = append(u.ruleNodes, where)
		}
	}
}

// statValue reads an integer characteristic: a whole number in range, or "-".
func statValue(d *scenarios.Decoder, n *scenarios.Node, what string, lo, hi int) (int, bool) {
	if n.Kind == scenarios.ScalarNode && n.Text == "-" {
		if lo > 0 {
			d.Errorf(n, "%s cannot be \"-\"; expected %d to %d", what, lo, hi)
			return 0, false
		}
		return 0, true
	}
	return d.IntIn(n, what, lo, hi)
}

// save reads a save as printed: "4+", or "none" or "-" for no save. 7+
// is no save too, as a save worsened past 6+ is (docs/fantasy.md). A bare
// number is refused with a hint, as in every ruleset (docs/scenarios.md):
// "armour: 1" reads as a +1 to the save as easily as a 1+.
func save(d *scenarios.Decoder, n *scenarios.Node, what string) (int, bool) {
	s, ok := d.Scalar(n, what+" (such as 4+, or none)")
	if !ok {
		return 0, false
	}
	if s == "none" || s == "-" {
		return rules.NoSave, true
	}
	v, err := strconv.Atoi(strings.TrimSuffix(s, "+"))
	switch {
	case err == nil && v >= 1 && v <= rules.NoSave && !strings.HasSuffix(s, "+"):
		d.Errorf(n, "expected %s as a save with its +, such as %d+; found %q", what, v, s)
		return 0, false
	case err != nil || !strings.HasSuffix(s, "+") || v < 1 || v > rules.NoSave:
		d.Errorf(n, "expected %s as a save from 1+ to 6+, or 7+ or none for no save; found %q", what, s)
		return 0, false
	}
	return v, true
}

// attacks reads an Attacks value: a whole number, "-", or a dice roll
// (Random Attacks).
func attacks(d *scenarios.Decoder, n *scenarios.Node, what string) (dice.Expr, bool) {
	s, ok := d.Scalar(n, what+" (a number or dice such as 2D6)")
	if !ok {
		return dice.Expr{}, false
	}
	if s == "-" {
		return dice.Const(0), true
	}
	noun := "attacks"
	if what == "shots" {
		noun = "shots"
	}
	if v, err := strconv.Atoi(s); err == nil && v < 0 {
		// A number below 0 is out of range, not dice with a minus.
		d.Errorf(n, "%s %d: expected 0 to 100 %s", what, v, noun)
		return dice.Expr{}, false
	}
	e, err := dice.ParseSum(s)
	if err != nil {
		var se *dice.SyntaxError
		if errors.As(err, &se) {
			d.ErrAt(n, se.Col, fmt.Sprintf("%s: %s", what, se.Msg))
		} else {
			d.Errorf(n, "%s: %v", what, err)
		}
		return dice.Expr{}, false
	}
	if e.Min() < 0 || e.Max() > 100 {
		d.Errorf(n, "%s %s: expected 0 to 100 %s", what, e, noun)
		return dice.Expr{}, false
	}
	// Each is small, but a sweep of many is not: the exact values work
	// each one's distribution out.
	return d.ExactDice(n, e, fmt.Sprintf("%s %s", what, e))
}

// decodeUnit reads a unit card. extra adds keys the caller reads itself
// (a battle's distance and side).
func decodeUnit(d *scenarios.Decoder, n *scenarios.Node, extra ...scenarios.Field) *unitSpec {
	u := &unitSpec{node: n, stats: map[string]scenarios.Param[int]{}, nodes: map[string]*scenarios.Node{},
		saves: map[string]scenarios.Param[int]{}, flags: map[string]scenarios.Param[bool]{}}
	fields := []scenarios.Field{
		{Key: "name", Required: true, Decode: func(n *scenarios.Node) { u.name = d.Name(n, "the unit's name") }},
		{Key: "troop", Decode: func(n *scenarios.Node) {
			u.troop = scenarios.Sweep(d, n, "troop", false, func(n *scenarios.Node) (rules.TroopType, bool) {
				s, ok := d.Scalar(n, "a troop type")
				if !ok {
					return 0, false
				}
				t, ok := rules.ParseTroopType(s)
				if !ok {
					d.Expecting(n, "unknown troop type "+scenarios.Excerpt(s)+scenarios.DidYouMean(s, rules.TroopTypes()), "expected one of: "+strings.Join(rules.TroopTypes(), ", "))
				}
				return t, ok
			}, func(t rules.TroopType) any { return t.String() })
			u.nodes["troop"] = n
		}},
		{Key: "A", Decode: func(n *scenarios.Node) {
			u.A = sweepDice(d, n, "A")
			u.nodes["A"] = n
		}},
		{Key: "rules", Decode: func(n *scenarios.Node) { u.rules = d.Rules(n) }},
		{Key: "champion", Decode: func(n *scenarios.Node) { u.champion = decodeProfile(d, n, "the champion", false) }},
		{Key: "crew", Decode: func(n *scenarios.Node) {
			if n.Kind != scenarios.SeqNode {
				d.Errorf(n, "expected crew as a list of profiles, such as [{name: Engineer, WS: 3, S: 2, I: 4, A: 2D6}], found %s", n.Describe())
				return
			}
			for _, item := range n.Items {
				// Under its name: two profiles may sweep one key.
				d.Within(mappingName(item), func() { u.crew = append(u.crew, decodeProfile(d, item, "a crew profile", true)) })
			}
		}},
		{Key: "missile", Decode: func(n *scenarios.Node) { u.missile = decodeMissile(d, n) }},
	}
	for _, st := range unitStats {
		st := st
		fields = append(fields, scenarios.Field{Key: st.key, Decode: func(n *scenarios.Node) {
			u.stats[st.key] = scenarios.Sweep(d, n, st.key, true, func(n *scenarios.Node) (int, bool) { return statValue(d, n, st.key, st.lo, st.hi) }, scenarios.Identity)
			u.nodes[st.key] = n
		}})
	}
	for _, k := range unitSaves {
		k := k
		fields = append(fields, scenarios.Field{Key: k, Decode: func(n *scenarios.Node) {
			u.saves[k] = scenarios.Sweep(d, n, k, false, func(n *scenarios.Node) (int, bool) { return save(d, n, k) }, func(v int) any {
				if v >= rules.NoSave {
					return "none"
				}
				return strconv.Itoa(v) + "+"
			})
			u.nodes[k] = n
		}})
	}
	for _, k := range unitFlags {
		k := k
		fields = append(fields, scenarios.Field{Key: k, Decode: func(n *scenarios.Node) {
			u.flags[k] = scenarios.Sweep(d, n, k, false, func(n *scenarios.Node) (bool, bool) { return d.Boolean(n, k) }, scenarios.Identity)
			u.nodes[k] = n
		}})
	}
	d.Object(n, "a unit", slices.Concat(fields, extra, d.UnitKeys()))
	u.perModelOf = d.PerModel(n, u.name, u.stats["models"], u.stats["points"], u.nodes["models"], u.nodes["points"], false)
	return u
}

// checkTroopRules reports, where each is written, the rules the unit has
// at some point that one of its troop types does not take
// (rules.AllowedOn: Stomp for the Monster and monstrous types, Tunneller
// for a Monster...). A troop type and a rule swept apart meet at some
// point, so each pair is checked. Every question checks it: a rule a type
// may not have would still change the unit (Tunneller makes an Infantry
// unit charge as a flyer). It returns false when it reported one.
func (u *unitSpec) checkTroopRules(d *scenarios.Decoder) bool {
	if u == nil {
		return true
	}
	troops := []rules.TroopType{rules.Infantry}
	if u.troop.Set() {
		troops = u.troop.Values()
	}
	good := true
	for _, p := range u.rules {
		for _, c := range p.Values() {
			if !c.On || c.Rule.Spec == nil {
				continue
			}
			for _, t := range troops {
				if why := misplacedRule(c.Rule.Spec.Name, u.name, t); why != "" {
					d.Errorf(c.Node, "%s", why)
					good = false
					break
				}
			}
		}
	}
	return good
}

// misplacedRule says why unit, of troop type t, may not have the rule
// named (rules.AllowedOn), or "" when it may.
func misplacedRule(rule, unit string, t rules.TroopType) string {
	allowed, types := rules.AllowedOn(rule, t)
	if allowed {
		return ""
	}
	names := make([]string, len(types))
	for j, a := range types {
		names[j] = a.String()
	}
	return fmt.Sprintf("%s on %s (%s): it belongs to %s", rule, unit, t, strings.Join(names, ", "))
}

// checkPrice refuses what makes the unit's price no one number for each
// of its sizes (scenarios.Decoder.PerModel), where the price is read: on
// a battle's attacker, and on a card, which a battle may take as one.
func (u *unitSpec) checkPrice(d *scenarios.Decoder) {
	if u != nil {
		d.PerModel(u.node, u.name, u.stats["models"], u.stats["points"], u.nodes["models"], u.nodes["points"], true)
	}
}

// decodeProfile reads a crew profile, or a champion's (which strikes as
// the first profile does, with its rules). crew gives it the keys of a
// crew profile alone: count, and rules. A champion is one model, and
// takes the first profile's rules, so it has neither.
func decodeProfile(d *scenarios.Decoder, n *scenarios.Node, what string, crew bool) *profileSpec {
	p := &profileSpec{node: n, count: 1, stats: map[string]int{}}
	fields := []scenarios.Field{{Key: "name", Required: true, Decode: func(n *scenarios.Node) { p.name = d.Name(n, "the profile's name") }}}
	if crew {
		fields = append(fields, scenarios.Field{Key: "count", Decode: func(n *scenarios.Node) { p.count, _ = d.IntIn(n, "count", 1, 20) }})
	}
	fields = append(fields, scenarios.Field{Key: "A", Decode: func(n *scenarios.Node) { p.A, p.hasA = attacks(d, n, "A") }})
	if crew {
		fields = append(fields, scenarios.Field{Key: "rules", Decode: func(n *scenarios.Node) { p.rules = decodeProfileRules(d, n) }})
	}
	for _, k := range []string{"WS", "S", "I"} {
		k := k
		fields = append(fields, scenarios.Field{Key: k, Decode: func(n *scenarios.Node) {
			if v, ok := statValue(d, n, k, 0, 10); ok {
				p.stats[k] = v
			}
		}})
	}
	d.Object(n, what, fields)
	return p
}

// decodeProfileRules reads a crew profile's rules: those of profileRules,
// fixed (a sweep belongs on the unit's own rules).
func decodeProfileRules(d *scenarios.Decoder, n *scenarios.Node) []mechanics.Rule {
	var out []mechanics.Rule
	for _, p := range d.Rules(n) {
		vals := p.Values()
		if len(vals) != 1 {
			d.Errorf(n, "a crew profile's rules cannot be swept; sweep a rule in the unit's own rules")
			continue
		}
		rc := vals[0]
		if !slices.Contains(profileRules, rc.Rule.Spec.Name) {
			d.Errorf(rc.Node, "%s belongs to the whole unit: give it in the unit's rules; a crew profile takes only rules of its own attacks (%s)", rc.Rule.Spec.Name, strings.Join(profileRules, ", "))
			continue
		}
		if rc.On {
			out = append(out, rc.Rule)
		}
	}
	return out
}

// missileWritten returns where the scenario writes the unit's missile
// weapon, or nil: none, or the one of a card its use leaves as it is,
// which a question that shoots nothing leaves unused rather than refuses
// (the card is written for every question).
func (u *unitSpec) missileWritten() *scenarios.Node {
	if u.missile == nil {
		return nil
	}
	if _, changed, used := u.node.CardKey("missile"); used && !changed {
		return nil
	}
	return u.missile.node
}

// sweepDice reads a count of attacks or shots, a number or dice, or a
// sweep of them, named key: a number's parameter value is the number, a
// roll's its dice.
func sweepDice(d *scenarios.Decoder, n *scenarios.Node, key string) scenarios.Param[dice.Expr] {
	return scenarios.Sweep(d, n, key, true, func(n *scenarios.Node) (dice.Expr, bool) { return attacks(d, n, key) },
		func(e dice.Expr) any {
			if e.IsConst() {
				return e.Min()
			}
			return e.String()
		})
}

// decodeMissile reads a missile weapon; its values are swept under the
// key missile (missile.S, missile.range, ...) where a name is shared.
func decodeMissile(d *scenarios.Decoder, n *scenarios.Node) *missileSpec {
	m := &missileSpec{node: n}
	whole := func(key, what string, lo, hi int) func(*scenarios.Node) scenarios.Param[int] {
		return func(n *scenarios.Node) scenarios.Param[int] {
			return scenarios.Sweep(d, n, key, true, func(n *scenarios.Node) (int, bool) { return d.IntIn(n, what, lo, hi) }, scenarios.Identity)
		}
	}
	d.Within("missile", func() {
		d.Object(n, "a missile weapon", []scenarios.Field{
			{Key: "S", Required: true, Decode: func(n *scenarios.Node) { m.S = whole("S", "the weapon's S", 1, 10)(n) }},
			{Key: "range", Required: true, Decode: func(n *scenarios.Node) { m.rangeIn = whole("range", "range", 1, 120)(n) }},
			{Key: "shots", Decode: func(n *scenarios.Node) {
				m.shots = sweepDice(d, n, "shots")
			}},
			{Key: "hit_modifier", Decode: func(n *scenarios.Node) { m.hitMod = whole("hit_modifier", "hit_modifier", -6, 6)(n) }},
		})
	})
	return m
}

// unitParam reads one unit, or a list of units to sweep, named by the
// key it sits under.
func unitParam(d *scenarios.Decoder, n *scenarios.Node, name string) scenarios.Param[*unitSpec] {
	return scenarios.SweepUnits(d, n, name, func(item *scenarios.Node) *unitSpec { return decodeUnit(d, item) },
		func(u *unitSpec) string { return u.name })
}

// pricedUnitParam is unitParam for a unit whose price is read (a battle's
// attacker): each unit's price is checked (checkPrice).
func pricedUnitParam(d *scenarios.Decoder, n *scenarios.Node, name string) scenarios.Param[*unitSpec] {
	p := unitParam(d, n, name)
	for _, u := range p.Values() {
		u.checkPrice(d)
	}
	return p
}

// mappingName is the name a mapping writes, or "" when it writes none.
func mappingName(n *scenarios.Node) string {
	for i, k := range n.Keys {
		if k.Text == "name" && n.Vals[i].Kind == scenarios.ScalarNode {
			return n.Vals[i].Text
		}
	}
	return ""
}
