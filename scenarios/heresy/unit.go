package heresy

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"hammersim/mechanics"
	"hammersim/mechanics/dice"
	rules "hammersim/mechanics/heresy"
	"hammersim/scenarios"
	"hammersim/sim"
)

// stat is one characteristic of a datasheet profile. dash: "-" may be
// printed for it, read as 0 (an Attacks or Weapon Skill of "-" on a gun).
type stat struct {
	key    string
	lo, hi int
	dash   bool
}

// stats are the characteristics in datasheet order. Movement is printed
// too, but no heresy question reads it: an M key is an error that says so.
var stats = [...]stat{
	{"WS", 0, 10, true}, {"BS", 0, 10, true}, {"S", 1, 10, false}, {"T", 1, 10, false},
	{"W", 1, 10, false}, {"I", 1, 10, false}, {"A", 0, 10, true}, {"Ld", 1, 10, false},
}

const (
	statWS = iota
	statBS
	statS
	statT
	statW
	statI
	statA
	statLd
)

// role says what a unit does in a question, which decides the keys it
// may have: weapons only where it shoots, a melee weapon only in an
// assault, cover only where it is shot at.
type role uint8

const (
	roleFirer role = iota
	roleTarget
	roleFighter
	// roleDefender fights, and may carry weapons for Overwatch.
	roleDefender
	// roleCard is a unit card on its own: it may hold what any role
	// reads, and needs none of it.
	roleCard
)

// unitSpec is a Heresy unit as written in a scenario, with its sweeps.
type unitSpec struct {
	node   *scenarios.Node
	name   string
	models scenarios.Param[int]
	stats  [len(stats)]scenarios.Param[int]
	sv     scenarios.Param[int] // armour save, 3 for 3+; 0 for none
	inv    scenarios.Param[int]
	cover  scenarios.Param[int]
	// typ is the unit type; unset, Infantry.
	typ   scenarios.Param[rules.UnitType]
	rules []scenarios.Param[scenarios.RuleChoice]
	// weapons are the ranged weapons each model carries; melee the
	// close-combat weapon every model strikes with (nil: its Strength, AP -).
	weapons []*weaponSpec
	melee   *weaponSpec
	// points is the unit's points cost as written, read for the unit
	// that acts (the firer, the attacker); perModelOf, when above 0, the
	// models a card's points are for, which a use of the card with other
	// models pays per model (scenarios.Decoder.PerModel).
	points     scenarios.Param[int]
	pointsNode *scenarios.Node
	perModelOf int
}

// pointsAt is the unit's points cost at a point of the sweep: 0 where it
// has no price.
func (s *unitSpec) pointsAt(pt scenarios.Point) float64 {
	if !s.points.Set() {
		return 0
	}
	return scenarios.PriceAt(s.points.At(pt), s.models.At(pt), s.perModelOf)
}

// weaponSpec is a weapon profile as written.
type weaponSpec struct {
	node  *scenarios.Node
	name  string
	shots scenarios.Param[dice.Expr]
	s     scenarios.Param[strength]
	ap    scenarios.Param[int]
	rules []scenarios.Param[scenarios.RuleChoice]
	// typ is the type its type key names (Untyped without one); rng its
	// range in inches (0 when not given); template: its range is Template.
	typ      rules.WeaponType
	rng      int
	template bool
	// rngNode is where range is written (nil without one).
	rngNode *scenarios.Node
	// of is the weapon this one is a profile of (profile_of), written at
	// ofNode; group numbers the unit's weapons of one profile_of from 1
	// (rules.Weapon.Group), 0 without one.
	of     string
	ofNode *scenarios.Node
	group  int
}

// markers reports the sizes of the Blast markers ("3", "5", "7", "10")
// and whether a template, by which the weapon hits at some point.
func (w *weaponSpec) markers() (blasts map[string]bool, template bool) {
	blasts, template = map[string]bool{}, w.template
	for _, rp := range w.rules {
		for _, c := range rp.Values() {
			switch {
			case !c.On || c.Rule.Spec == nil:
			case c.Rule.Spec.Name == rules.RuleBlast:
				blasts[strings.TrimSuffix(c.Rule.Words, "\"")] = true
			case c.Rule.Spec.Name == rules.RuleTemplate:
				template = true
			}
		}
	}
	return blasts, template
}

// melta reports whether the weapon has Armourbane (Melta) at some point
// of its sweeps, and where it is written.
func (w *weaponSpec) melta() (at *scenarios.Node, ok bool) {
	w.applied(func(c scenarios.RuleChoice, rw rules.Weapon) bool {
		if rw.Armourbane == rules.ArmourbaneMelta {
			at, ok = c.Node, true
		}
		return !ok
	})
	return at, ok
}

// armourbaneTarget reports whether the unit is of a type Armourbane
// re-rolls against (Dreadnought, Automata) at some point of its sweeps.
func (s *unitSpec) armourbaneTarget() bool {
	return s.typ.Set() && slices.ContainsFunc(s.typ.Values(), func(t rules.UnitType) bool { return t == rules.Dreadnought || t == rules.Automata })
}

// strength is a weapon's Strength as printed: a number, "User" (the
// wielder's Strength), "+N" (the wielder's plus N) or "xN" (the
// wielder's times N).
type strength struct {
	fixed, bonus, times int
}

func (s strength) param() any {
	switch {
	case s.fixed > 0:
		return s.fixed
	case s.bonus > 0:
		return "+" + strconv.Itoa(s.bonus)
	case s.times > 0:
		return "x" + strconv.Itoa(s.times)
	}
	return "User"
}

// multiplies says whether the weapon multiplies its wielder's Strength at
// some point of the sweep (what strength_multiplier orders).
func (w *weaponSpec) multiplies() bool {
	return slices.ContainsFunc(w.s.Values(), func(s strength) bool { return s.times > 0 })
}

// hotUnrolled says whether the weapon Gets Hot and rolls no To Hit (a
// Template, or with blast a Blast) at some point of the sweep: the weapons
// whose Gets Hot D6 gets_hot_reroll is about.
func (w *weaponSpec) hotUnrolled(blast bool) bool {
	blasts, template := w.markers()
	if !template && (!blast || len(blasts) == 0) {
		return false
	}
	return w.mayHave(rules.RuleGetsHot)
}

// mayHave says whether the weapon has the rule named at some point of the
// sweep.
func (w *weaponSpec) mayHave(name string) bool {
	for _, rp := range w.rules {
		for _, c := range rp.Values() {
			if c.On && c.Rule.Spec != nil && c.Rule.Spec.Name == name {
				return true
			}
		}
	}
	return false
}

// hotRerolled says whether one of the unit's ranged weapons Gets Hot,
// rolls no To Hit (a Template, or with blast a Blast) and is fired by a
// model that may re-roll To Hit rolls (the weapon Twin-linked, or BS 6 and
// above) at some point of the sweep: the weapons gets_hot_reroll is
// about. A unit that could not be read may, and waits for its own errors.
func (u *unitSpec) hotRerolled(blast bool) bool {
	if u == nil {
		return true
	}
	bs := u.stats[statBS]
	sharp := !bs.Set() || slices.ContainsFunc(bs.Values(), func(v int) bool { return v >= 6 })
	return slices.ContainsFunc(u.weapons, func(w *weaponSpec) bool {
		return w.hotUnrolled(blast) && (sharp || w.mayHave(rules.RuleTwinLinked))
	})
}

// multiplies says whether one of the unit's weapons, ranged or close
// combat, multiplies its Strength at some point of the sweep; a unit that
// could not be read may, and waits for its own errors.
func (u *unitSpec) multiplies() bool {
	if u == nil {
		return true
	}
	return slices.ContainsFunc(u.weapons, (*weaponSpec).multiplies) || (u.melee != nil && u.melee.multiplies())
}

// unit is a unit at one point of the sweep, ready for the rules.
type unit struct {
	spec    *unitSpec
	unit    rules.Unit
	weapons []rules.Weapon
	melee   rules.Weapon
}

// nameOf returns the text of a mapping's "name" key, so that a weapon's
// sweeps can be named after it ("bolter.shots") before its keys are read.
func nameOf(n *scenarios.Node) string {
	if n.Kind != scenarios.MapNode {
		return ""
	}
	for i, k := range n.Keys {
		if k.Text == "name" && n.Vals[i].Kind == scenarios.ScalarNode {
			return n.Vals[i].Text
		}
	}
	return ""
}

// decodeUnit reads a unit mapping for the given role.
func decodeUnit(d *scenarios.Decoder, n *scenarios.Node, role role) *unitSpec {
	u := &unitSpec{node: n}
	var modelsAt *scenarios.Node
	fields := []scenarios.Field{
		{Key: "name", Required: true, Decode: func(n *scenarios.Node) { u.name = d.Name(n, "the unit's name") }},
		{Key: "models", Required: true, Decode: func(n *scenarios.Node) {
			u.models, modelsAt = scenarios.Sweep(d, n, "models", true, func(n *scenarios.Node) (int, bool) { return d.IntIn(n, "models", 1, 100) }, scenarios.Identity), n
		}},
	}
	for i, st := range stats {
		fields = append(fields, scenarios.Field{Key: st.key, Required: true, Decode: func(n *scenarios.Node) {
			u.stats[i] = scenarios.Sweep(d, n, st.key, true, func(n *scenarios.Node) (int, bool) { return statValue(d, n, st) }, scenarios.Identity)
		}})
	}
	fields = append(fields,
		scenarios.Field{Key: "Sv", Required: true, Decode: func(n *scenarios.Node) { u.sv = saveParam(d, n, "Sv") }},
		scenarios.Field{Key: "Inv", Decode: func(n *scenarios.Node) { u.inv = saveParam(d, n, "Inv") }},
		scenarios.Field{Key: "type", Decode: func(n *scenarios.Node) { u.typ = unitTypeParam(d, n) }},
		scenarios.Field{Key: "rules", Decode: func(rn *scenarios.Node) {
			u.rules = d.RulesOn(rn, mechanics.OnModel)
			checkRules(d, u.rules, func(r mechanics.Rule) error { var p rules.Profile; return p.Apply(r) }, "unit", nameOf(n))
		}},
		scenarios.Field{Key: "points", Decode: func(n *scenarios.Node) {
			u.points, u.pointsNode = scenarios.Sweep(d, n, "points", true, func(n *scenarios.Node) (int, bool) { return d.IntIn(n, "points", 0, scenarios.MaxUnitPoints) }, scenarios.Identity), n
			// The price changes no trial: its sweep shares the trials.
			scenarios.Readout(d, u.points)
		}},
	)
	switch role {
	case roleFirer, roleTarget:
		fields = append(fields, scenarios.Field{Key: "weapons", Required: role == roleFirer, Decode: func(n *scenarios.Node) {
			u.weapons = decodeWeapons(d, n)
		}})
		fields = append(fields, scenarios.Field{Key: "cover", Decode: func(n *scenarios.Node) { u.cover = saveParam(d, n, "cover") }})
	case roleFighter, roleDefender:
		fields = append(fields, scenarios.Field{Key: "melee", Decode: func(n *scenarios.Node) { u.melee = decodeWeapon(d, n, true) }})
		if role == roleDefender {
			fields = append(fields, scenarios.Field{Key: "weapons", Decode: func(n *scenarios.Node) { u.weapons = decodeWeapons(d, n) }})
		}
	case roleCard:
		fields = append(fields,
			scenarios.Field{Key: "weapons", Decode: func(n *scenarios.Node) { u.weapons = decodeWeapons(d, n) }},
			scenarios.Field{Key: "cover", Decode: func(n *scenarios.Node) { u.cover = saveParam(d, n, "cover") }},
			scenarios.Field{Key: "melee", Decode: func(n *scenarios.Node) { u.melee = decodeWeapon(d, n, true) }})
	}
	d.Object(dropCardOnly(dropMovement(d, n), fields), "a unit", append(fields, d.UnitKeys()...))
	if u.melee != nil {
		u.melee.checkMelee(d)
	}
	// The price is read for the unit that acts, and checked on a card,
	// which any question may take as either.
	read := role == roleFirer || role == roleFighter || role == roleCard
	u.perModelOf = d.PerModel(n, u.name, u.models, u.points, modelsAt, u.pointsNode, read)
	return u
}

// checkRules reports each rule of a list, at every value it is swept
// over, that apply refuses: a weapon rule on a unit, a model's rule on a
// weapon. It runs as the list is read, so that these problems are
// reported with every other one in the file, whatever else is wrong.
func checkRules(d *scenarios.Decoder, list []scenarios.Param[scenarios.RuleChoice], apply func(mechanics.Rule) error, what, name string) {
	for _, rp := range list {
		for _, c := range rp.Values() {
			if !c.On {
				continue
			}
			if err := apply(c.Rule); err != nil {
				d.Errorf(c.Node, "%v (%s %q)", err, what, name)
			}
		}
	}
}

// checkMelee reports a melee weapon with a ranged weapon's rule, at any
// value of a sweep.
func (w *weaponSpec) checkMelee(d *scenarios.Decoder) {
	w.applied(func(_ scenarios.RuleChoice, rw rules.Weapon) bool {
		switch {
		case rw.Deflagrate || rw.Blast > 0 || rw.Template || rw.GetsHot:
			d.Errorf(w.node, "melee weapon %q: Deflagrate, Blast, Template and Gets Hot are ranged weapons' rules, not modelled in close combat", w.name)
		case rw.Armourbane == rules.ArmourbaneMelta || rw.Armourbane == rules.ArmourbaneRanged:
			d.Errorf(w.node, "melee weapon %q: Armourbane (Melta) and Armourbane (Ranged) are for Shooting Attacks only; write Armourbane or Armourbane (Melee)", w.name)
		case rw.Concussive > 0:
			// Its test is rolled for a shooting attack (concussed); an
			// assault rolls none, so on a melee weapon it is read by
			// nothing.
			d.Errorf(w.node, "melee weapon %q: Concussive is rolled only for a shooting attack (the concussed metric); an assault does not model it", w.name)
		default:
			return true
		}
		return false // one problem of this kind a weapon
	})
}

// applied calls f with each rule the weapon has at some point of its
// sweeps (its swept values one by one), read into a Weapon of its own,
// until f returns false. A rule its Weapon refuses, reported as it was
// read, is skipped.
func (w *weaponSpec) applied(f func(c scenarios.RuleChoice, rw rules.Weapon) bool) {
	for _, rp := range w.rules {
		for _, c := range rp.Values() {
			var rw rules.Weapon
			if c.On && rw.Apply(c.Rule) == nil && !f(c, rw) {
				return
			}
		}
	}
}

// mayHave reports whether the unit has the named rule at some point of
// its sweeps; mayLack whether it lacks it at some point. A rules list's
// entries are swept independently of each other.
func (s *unitSpec) mayHave(name string) bool {
	return slices.ContainsFunc(s.rules, func(rp scenarios.Param[scenarios.RuleChoice]) bool {
		return slices.ContainsFunc(rp.Values(), func(c scenarios.RuleChoice) bool { return gives(c, name) })
	})
}

func (s *unitSpec) mayLack(name string) bool {
	return !slices.ContainsFunc(s.rules, func(rp scenarios.Param[scenarios.RuleChoice]) bool {
		return !slices.ContainsFunc(rp.Values(), func(c scenarios.RuleChoice) bool { return !gives(c, name) })
	})
}

// gives reports whether a rule choice gives the named rule.
func gives(c scenarios.RuleChoice, name string) bool {
	return c.On && c.Rule.Spec != nil && c.Rule.Spec.Name == name
}

// cardOnly are the keys a card may hold for some question but not every
// one: a shooting question reads no melee, an assault no cover.
var cardOnly = []string{"weapons", "cover", "melee"}

// dropCardOnly returns n without the keys of cardOnly that a use of a card
// took from the card (not written beside the use) and that its question
// does not read (not among fields): the card holds them for the questions
// that do. A use that writes such a key itself is told it is not read.
func dropCardOnly(n *scenarios.Node, fields []scenarios.Field) *scenarios.Node {
	if n.Kind != scenarios.MapNode {
		return n
	}
	c := *n
	c.Keys, c.Vals = nil, nil
	for i, k := range n.Keys {
		if slices.Contains(cardOnly, k.Text) && !slices.ContainsFunc(fields, func(f scenarios.Field) bool { return f.Key == k.Text }) {
			if card, changed, used := n.CardKey(k.Text); used && card != nil && !changed {
				continue
			}
		}
		c.Keys, c.Vals = append(c.Keys, k), append(c.Vals, n.Vals[i])
	}
	return &c
}

// dropMovement reports an M key, printed on datasheets but read by no
// heresy question, and returns the unit's mapping without it.
func dropMovement(d *scenarios.Decoder, n *scenarios.Node) *scenarios.Node {
	if n.Kind != scenarios.MapNode {
		return n
	}
	for i, k := range n.Keys {
		if k.Text == "M" {
			d.Errorf(k, "M (Movement) is not read by any heresy question; remove it")
			c := *n
			c.Keys = append(slices.Clip(n.Keys[:i]), n.Keys[i+1:]...)
			c.Vals = append(slices.Clip(n.Vals[:i]), n.Vals[i+1:]...)
			return &c
		}
	}
	return n
}

// stat reads one characteristic.
func statValue(d *scenarios.Decoder, n *scenarios.Node, st stat) (int, bool) {
	if st.dash && n.Kind == scenarios.ScalarNode && (n.Text == "-" || strings.EqualFold(n.Text, "none")) {
		return 0, true
	}
	return d.IntIn(n, st.key, st.lo, st.hi)
}

// unitTypeParam reads a unit's type, or a list of them to sweep.
func unitTypeParam(d *scenarios.Decoder, n *scenarios.Node) scenarios.Param[rules.UnitType] {
	return scenarios.Sweep(d, n, "type", false, func(n *scenarios.Node) (rules.UnitType, bool) {
		names := make([]string, len(rules.UnitTypes))
		for i, t := range rules.UnitTypes {
			names[i] = t.String()
		}
		s, ok := d.Scalar(n, "type (a unit type: "+strings.Join(names, ", ")+")")
		if !ok {
			return rules.Infantry, false
		}
		t, ok := rules.ParseUnitType(s)
		if !ok {
			d.Errorf(n, "unknown unit type %q; expected one of: %s (a type no rule here reads, such as Cavalry, is written as Infantry or left out; hammersim has no Vehicles)", s, strings.Join(names, ", "))
		}
		return t, ok
	}, func(t rules.UnitType) any { return t.String() })
}

// saveParam reads a save as printed, "3+", or "-" (or none) for no save. A
// bare number is refused with a hint, as in every ruleset
// (docs/scenarios.md): saves are printed with their +, and a bare number
// beside them reads as a modifier as easily as a save.
func saveParam(d *scenarios.Decoder, n *scenarios.Node, what string) scenarios.Param[int] {
	return scenarios.Sweep(d, n, what, false, func(n *scenarios.Node) (int, bool) {
		s, ok := d.Scalar(n, what+" (a save such as 3+)")
		if !ok {
			return 0, false
		}
		if s == "-" || strings.EqualFold(s, "none") {
			return 0, true
		}
		v, err := strconv.Atoi(strings.TrimSuffix(s, "+"))
		if err == nil && v >= 2 && v <= 6 && !strings.HasSuffix(s, "+") {
			d.Errorf(n, "expected %s as a save with its +, such as %d+; found %q", what, v, s)
			return 0, false
		}
		if err != nil || !strings.HasSuffix(s, "+") || v < 2 || v > 6 {
			d.Errorf(n, "expected %s as a save from 2+ to 6+, or \"-\" (quoted) or none for no save, found %q", what, s)
			return 0, false
		}
		return v, true
	}, func(v int) any { return saveText(v) })
}

func saveText(v int) string {
	if v == 0 {
		return "-"
	}
	return strconv.Itoa(v) + "+"
}

func decodeWeapons(d *scenarios.Decoder, n *scenarios.Node) []*weaponSpec {
	if n.Kind != scenarios.SeqNode {
		d.Errorf(n, "expected weapons as a list of weapon profiles, such as [{name: bolter, S: 4, AP: 5, shots: 2}], found %s", n.Describe())
		return nil
	}
	if len(n.Items) == 0 {
		d.Errorf(n, "empty list of weapons; give at least one")
		return nil
	}
	var out []*weaponSpec
	names := map[string]*scenarios.Node{}
	for _, item := range n.Items {
		w := decodeWeapon(d, item, false)
		if prev, dup := names[w.name]; dup && w.name != "" {
			d.Errorf(item, "two weapons named %q (the other at line %d); a model fires each weapon once at most", w.name, prev.Line)
			continue
		}
		names[w.name] = item
		out = append(out, w)
	}
	groupProfiles(d, out)
	return out
}

// groupProfiles numbers the weapons that are profiles of one weapon (the
// same profile_of) alike, from 1 in the order first written: a model
// fires one of them at most. A profile_of that only one weapon gives is
// refused: it groups nothing.
func groupProfiles(d *scenarios.Decoder, ws []*weaponSpec) {
	count, group := map[string]int{}, map[string]int{}
	for _, w := range ws {
		if w.of != "" {
			count[w.of]++
		}
	}
	for _, w := range ws {
		switch {
		case w.of == "":
		case count[w.of] < 2:
			d.Errorf(w.ofNode, "profile_of %q on weapon %q: no other weapon of the unit is a profile of %q; give profile_of to each profile of that weapon, or leave it out", w.of, w.name, w.of)
		default:
			if group[w.of] == 0 {
				group[w.of] = len(group) + 1
			}
			w.group = group[w.of]
		}
	}
}

// decodeWeapon reads a weapon profile: name, type, S, AP, shots and range
// (ranged only) and rules.
func decodeWeapon(d *scenarios.Decoder, n *scenarios.Node, melee bool) *weaponSpec {
	w := &weaponSpec{node: n, shots: scenarios.Fixed(dice.Const(1)), s: scenarios.Fixed(strength{}), ap: scenarios.Fixed(rules.APNone)}
	var typeAt, shotsAt, rulesAt *scenarios.Node
	var typeShots dice.Expr
	var typeRules []scenarios.Param[scenarios.RuleChoice]
	fields := []scenarios.Field{
		{Key: "name", Required: true, Decode: func(n *scenarios.Node) { w.name = d.Name(n, "the weapon's name") }},
		{Key: "type", Decode: func(n *scenarios.Node) {
			typeAt = n
			typeShots, typeRules = decodeType(d, n, w, melee)
		}},
		{Key: "S", Required: true, Decode: func(n *scenarios.Node) {
			w.s = scenarios.Sweep(d, n, "S", true, func(n *scenarios.Node) (strength, bool) { return weaponStrength(d, n) }, strength.param)
		}},
		{Key: "AP", Required: true, Decode: func(n *scenarios.Node) {
			w.ap = scenarios.Sweep(d, n, "AP", true, func(n *scenarios.Node) (int, bool) { return weaponAP(d, n) }, apParam)
		}},
		{Key: "rules", Decode: func(n *scenarios.Node) { rulesAt, w.rules = n, d.RulesOn(n, mechanics.OnWeapon) }},
	}
	if !melee {
		fields = append(fields,
			scenarios.Field{Key: "shots", Decode: func(n *scenarios.Node) {
				shotsAt = n
				w.shots = scenarios.Sweep(d, n, "shots", true, func(n *scenarios.Node) (dice.Expr, bool) { return decodeShots(d, n) }, shotsParam)
			}},
			scenarios.Field{Key: "range", Decode: func(n *scenarios.Node) { w.rng, w.template, w.rngNode = decodeRange(d, n) }},
			scenarios.Field{Key: "profile_of", Decode: func(n *scenarios.Node) { w.of, w.ofNode = d.Name(n, "the weapon it is a profile of"), n }},
		)
	}
	what := "a weapon"
	if melee {
		what = "a melee weapon (it strikes the model's Attacks, so it has no shots or range)"
	}
	if name := nameOf(n); name != "" {
		d.Within(name, func() { d.Object(n, what, fields) })
	} else {
		d.Object(n, what, fields)
	}
	// Template, from range, the type or the rules: at some point of a
	// sweep (template), or at every point (always); and Blast.
	template, always, blast := w.template, w.template, false
	for _, rp := range append(slices.Clone(w.rules), typeRules...) {
		on := 0
		for _, c := range rp.Values() {
			if c.On && c.Rule.Spec != nil {
				if c.Rule.Spec.Name == rules.RuleTemplate {
					template, on = true, on+1
				}
				blast = blast || c.Rule.Spec.Name == rules.RuleBlast
			}
		}
		always = always || on > 0 && on == len(rp.Values())
	}
	// A Template weapon reaches as far as its template (TemplateReach),
	// and resolves its hits by the template, not by Blast markers: a range
	// in inches, or Blast beside it, at any point of a sweep, would be read
	// for nothing there. A melee weapon may take neither (checkMelee says
	// so).
	switch {
	case melee:
	case template && w.rng > 0:
		d.Errorf(w.rngNode, "range %d on weapon %q: a Template weapon reaches as far as its template, %d\"; write range: Template, or leave range out", w.rng, w.name, rules.TemplateReach)
	case template && blast:
		d.Errorf(w.node, "weapon %q has both Blast and Template: a weapon's hits come from a Blast marker or from a template, not both; keep one", w.name)
	}
	// A Template weapon reaches as far as its template at every point, or
	// it needs its range where it is a plain Rapid Fire weapon.
	if w.typ == rules.RapidFire && w.rng == 0 && !always && typeAt != nil {
		// Without a range it would never be within half of it, and fire
		// once at every distance.
		d.Errorf(typeAt, "a Rapid Fire weapon needs its range: it fires twice within half of it; add range, such as range: 24")
	}
	if !typeShots.IsZero() {
		if shotsAt != nil {
			d.Errorf(shotsAt, "shots are given twice: the type %q prints them already; remove shots", typeAt.Text)
		} else {
			w.shots = scenarios.Fixed(typeShots)
		}
	}
	for _, tr := range typeRules {
		for _, lr := range w.rules {
			if tr.Values()[0].Rule.Spec == lr.Values()[0].Rule.Spec {
				d.Errorf(rulesAt, "%s is in both the type and the rules list; give it once", tr.Values()[0].Rule.Spec.Name)
			}
		}
	}
	w.rules = append(w.rules, typeRules...)
	checkRules(d, w.rules, func(r mechanics.Rule) error { var rw rules.Weapon; return rw.Apply(r) }, "weapon", w.name)
	if !melee {
		w.checkArmourbane(d, template)
	}
	return w
}

// checkArmourbane reports a ranged weapon's Armourbane that no attack of
// it could use, at any value of a sweep: (Melee), which only close combat
// reads, and (Melta) on a weapon with no range to be within half of.
func (w *weaponSpec) checkArmourbane(d *scenarios.Decoder, template bool) {
	w.applied(func(c scenarios.RuleChoice, rw rules.Weapon) bool {
		switch {
		case rw.Armourbane == rules.ArmourbaneMelee:
			d.Errorf(c.Node, "weapon %q: Armourbane (Melee) is for close combat only, and this weapon is fired; write Armourbane or Armourbane (Ranged), or give it to the melee weapon", w.name)
		case rw.Armourbane == rules.ArmourbaneMelta && w.rng == 0 && !template:
			d.Errorf(c.Node, "weapon %q: Armourbane (Melta) works at half the weapon's range or less, and it has no range; add range, such as range: 12", w.name)
		default:
			return true
		}
		return false
	})
}

// decodeType reads a weapon's type as printed in the Type column, such as
// "Rapid Fire", "Heavy 2" or "Assault 1, Rending (6+)": the type goes into
// w, the shots it prints and its special rules are returned.
func decodeType(d *scenarios.Decoder, n *scenarios.Node, w *weaponSpec, melee bool) (dice.Expr, []scenarios.Param[scenarios.RuleChoice]) {
	s, ok := d.Scalar(n, "the weapon's type as printed, such as Rapid Fire, Heavy 2 or \"Assault 1, Rending (6+)\"")
	if !ok {
		return dice.Expr{}, nil
	}
	tt, err := rules.ParseType(s)
	if err != nil {
		te := err.(*rules.TypeError)
		d.ErrAt(n, te.Col, "type: "+te.Msg)
		return dice.Expr{}, nil
	}
	switch {
	case melee && tt.Type != rules.Melee:
		d.Errorf(n, "a melee weapon's type is Melee, found %s", tt.Type)
		return dice.Expr{}, nil
	case !melee && tt.Type == rules.Melee:
		d.Errorf(n, "a Melee weapon is not fired; give it as the unit's melee weapon in an assault")
		return dice.Expr{}, nil
	}
	w.typ = tt.Type
	if tt.Shots.Max() > maxShots {
		d.ErrAt(n, tt.ShotsCol, fmt.Sprintf("type: %s %s: expected 1 to %d shots per model", tt.Type, tt.Shots, maxShots))
		return dice.Expr{}, nil
	}
	var out []scenarios.Param[scenarios.RuleChoice]
	for _, ra := range tt.Rules {
		r, err := rules.Catalogue.ParseOn(ra.Text, mechanics.OnWeapon)
		if err != nil {
			var te *mechanics.TextError
			if errors.As(err, &te) {
				d.ErrExpecting(n, ra.Col+te.Col-1, te.Msg, te.Expected)
			} else {
				d.Errorf(n, "%v", err)
			}
			continue
		}
		if slices.ContainsFunc(out, func(p scenarios.Param[scenarios.RuleChoice]) bool { return p.Values()[0].Rule.Spec == r.Spec }) {
			d.ErrAt(n, ra.Col, fmt.Sprintf("type: %s is listed twice; give it once", r.Spec.Name))
			continue
		}
		out = append(out, scenarios.Fixed(scenarios.RuleChoice{On: true, Rule: r, Node: n}))
	}
	return tt.Shots, out
}

// weaponAP reads a weapon's AP: 1 to 6, or "-" (or none) for no AP.
func weaponAP(d *scenarios.Decoder, n *scenarios.Node) (int, bool) {
	if n.Kind == scenarios.ScalarNode && (n.Text == "-" || strings.EqualFold(n.Text, "none")) {
		return rules.APNone, true
	}
	s, ok := d.Scalar(n, "AP (1 to 6, or \"-\")")
	if !ok {
		return 0, false
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 || v > 6 {
		d.Errorf(n, "AP %s is out of range; expected 1 to 6, or \"-\" (quoted) or none for no AP", s)
		return 0, false
	}
	return v, true
}

func apParam(v int) any {
	if v == rules.APNone {
		return "-"
	}
	return v
}

func shotsParam(e dice.Expr) any {
	if e.IsConst() {
		return e.Min()
	}
	return e.String()
}

// maxShots bounds the shots one model fires with one weapon, which keeps
// the exact distributions and the histograms small.
const maxShots = 100

// shots reads a weapon's shots per model: a number or dice, "2" or "D3".
func decodeShots(d *scenarios.Decoder, n *scenarios.Node) (dice.Expr, bool) {
	s, ok := d.Scalar(n, "shots (a number or dice such as D3)")
	if !ok {
		return dice.Expr{}, false
	}
	e, err := dice.ParseSum(s)
	var se *dice.SyntaxError
	switch {
	case errors.As(err, &se) && se.QueryOnly:
		d.ErrAt(n, se.Col, fmt.Sprintf("shots %q: %s", s, se.Msg))
	case err != nil:
		d.Errorf(n, "shots %q: %v", s, err)
	case e.Min() < 0:
		d.Errorf(n, "shots %q can roll below zero", s)
	case e.Max() > maxShots || e.Max() < 1:
		d.Errorf(n, "shots %q: expected 1 to %d shots per model", s, maxShots)
	default:
		// Each is small, but a sweep of many is not: the exact values
		// work each one's distribution out.
		return d.ExactDice(n, e, fmt.Sprintf("shots %s", e))
	}
	return dice.Expr{}, false
}

// weaponStrength reads a weapon's S: 1 to 10, "User", "+1" to "+5", or
// "x2" or "x3".
func weaponStrength(d *scenarios.Decoder, n *scenarios.Node) (strength, bool) {
	s, ok := d.Scalar(n, "S (1 to 10, User, +1 or x2)")
	if !ok {
		return strength{}, false
	}
	if strings.EqualFold(s, "user") {
		return strength{}, true
	}
	if b, ok := cutTimes(s); ok {
		v, err := strconv.Atoi(b)
		if err != nil || v < 2 || v > 3 {
			d.Errorf(n, "weapon S %q: expected x2 or x3 (the wielder's Strength multiplied)", s)
			return strength{}, false
		}
		return strength{times: v}, true
	}
	if b, ok := strings.CutPrefix(s, "+"); ok {
		v, err := strconv.Atoi(b)
		if err != nil || v < 1 || v > 5 {
			d.Errorf(n, "weapon S %q: expected +1 to +5 (added to the wielder's Strength)", s)
			return strength{}, false
		}
		return strength{bonus: v}, true
	}
	v, ok := d.IntIn(n, "weapon S (or User, +1, x2)", 1, 10)
	return strength{fixed: v}, ok
}

// cutTimes cuts the sign of a multiplier from a weapon's S as profiles
// print it: x, X or the multiplication sign.
func cutTimes(s string) (string, bool) {
	for _, sign := range []string{"x", "X", "\u00d7"} {
		if b, ok := strings.CutPrefix(s, sign); ok {
			return b, true
		}
	}
	return "", false
}

// decodeRange reads a weapon's printed range: inches, or Template.
func decodeRange(d *scenarios.Decoder, n *scenarios.Node) (int, bool, *scenarios.Node) {
	s, ok := d.Scalar(n, "range (inches, such as 24, or Template)")
	if !ok {
		return 0, false, n
	}
	if strings.EqualFold(s, "template") {
		return 0, true, n
	}
	v, err := strconv.Atoi(strings.TrimSuffix(s, "\""))
	if err != nil || v < 1 || v > 240 {
		d.Errorf(n, "expected range as inches from 1 to 240, or Template, found %q", s)
		return 0, false, n
	}
	return v, false, n
}

// unitParam reads one unit, or a list of units to sweep, for a role.
func unitParam(d *scenarios.Decoder, n *scenarios.Node, name string, role role) scenarios.Param[*unitSpec] {
	return scenarios.SweepUnits(d, n, name, func(item *scenarios.Node) *unitSpec { return decodeUnit(d, item, role) },
		func(u *unitSpec) string { return u.name })
}

// at builds the unit at a point. Rules go into the profile; a rule in the
// wrong place was reported as it was read (checkRules), and is refused
// here again.
func (s *unitSpec) at(d *scenarios.Decoder, pt scenarios.Point) (*unit, bool) {
	var p rules.Profile
	st := func(i int) int { return s.stats[i].At(pt) }
	p.WS, p.BS, p.S, p.T = st(statWS), st(statBS), st(statS), st(statT)
	p.W, p.I, p.A, p.Ld = st(statW), st(statI), st(statA), st(statLd)
	p.Save = s.sv.At(pt)
	if s.inv.Set() {
		p.Invuln = s.inv.At(pt)
	}
	if s.typ.Set() {
		p.Type = s.typ.At(pt)
	}
	ok := true
	for _, rp := range s.rules {
		c := rp.At(pt)
		if !c.On {
			continue
		}
		if err := p.Apply(c.Rule); err != nil {
			d.Errorf(c.Node, "%v (unit %q)", err, s.name)
			ok = false
		}
	}
	u := &unit{spec: s, unit: rules.NewUnit(p, s.models.At(pt))}
	if s.cover.Set() {
		u.unit.Cover = s.cover.At(pt)
	}
	for _, ws := range s.weapons {
		w, good := ws.at(d, pt)
		ok = ok && good
		u.weapons = append(u.weapons, w)
	}
	if s.melee != nil {
		w, good := s.melee.at(d, pt)
		ok = ok && good
		u.melee = w
	}
	return u, ok
}

func (s *weaponSpec) at(d *scenarios.Decoder, pt scenarios.Point) (rules.Weapon, bool) {
	str := s.s.At(pt)
	w := rules.Weapon{Name: s.name, Type: s.typ, Shots: s.shots.At(pt), Range: s.rng, Template: s.template,
		S: str.fixed, StrengthBonus: str.bonus, StrengthMultiplier: str.times, AP: s.ap.At(pt), Group: s.group}
	ok := true
	for _, rp := range s.rules {
		c := rp.At(pt)
		if !c.On {
			continue
		}
		if err := w.Apply(c.Rule); err != nil {
			d.Errorf(c.Node, "%v (weapon %q)", err, s.name)
			ok = false
		}
	}
	return w, ok
}

// specsReady reports whether every unit of a question was read: a unit
// whose mapping had errors is missing required values, and building it
// would read unset parameters.
func specsReady(ps ...scenarios.Param[*unitSpec]) bool {
	for _, p := range ps {
		if !p.Set() {
			return false
		}
		for _, u := range p.Values() {
			if u == nil || !u.models.Set() || !u.sv.Set() {
				return false
			}
			for _, s := range u.stats {
				if !s.Set() {
					return false
				}
			}
			for _, w := range append(slices.Clone(u.weapons), u.melee) {
				if w != nil && (!w.s.Set() || !w.ap.Set() || !w.shots.Set()) {
					return false
				}
			}
		}
	}
	return true
}

// option is one open point of the rules (rules.Options) or of a
// question that a scenario may set, or sweep, under options:.
type option struct {
	key string
	// One of: a boolean, dice, a whole number from lo to hi, or one of
	// words.
	boolean bool
	dice    bool
	lo, hi  int
	words   []string
	def     any
}

// optionValues holds the options a question read, by key.
type optionValues struct {
	specs []option
	vals  map[string]scenarios.Param[any]
	where map[string]*scenarios.Node // where each option written is
}

func decodeOptions(d *scenarios.Decoder, n *scenarios.Node, specs []option) *optionValues {
	ov := &optionValues{specs: specs, vals: map[string]scenarios.Param[any]{}, where: map[string]*scenarios.Node{}}
	if n == nil {
		return ov
	}
	var fields []scenarios.Field
	for _, o := range specs {
		fields = append(fields, scenarios.Field{Key: o.key, Decode: func(n *scenarios.Node) {
			ov.where[o.key] = n
			ov.vals[o.key] = scenarios.Sweep(d, n, o.key, o.words == nil && !o.boolean && !o.dice, func(n *scenarios.Node) (any, bool) {
				switch {
				case o.boolean:
					return d.Boolean(n, o.key)
				case o.dice:
					return optionDice(d, n, o.key)
				case o.words != nil:
					s, ok := d.Scalar(n, o.key)
					if ok && !slices.Contains(o.words, s) {
						d.Expecting(n, "unknown "+o.key+" "+scenarios.Excerpt(s), "expected one of: "+strings.Join(o.words, ", "))
						return nil, false
					}
					return s, ok
				}
				return d.IntIn(n, o.key, o.lo, o.hi)
			}, optionParam)
		}})
	}
	d.Object(n, "the options", fields)
	return ov
}

// optionDice reads dice for an option, such as 2D6 or 3D6: at least 1.
func optionDice(d *scenarios.Decoder, n *scenarios.Node, key string) (any, bool) {
	s, ok := d.Scalar(n, key+" (dice such as 2D6)")
	if !ok {
		return nil, false
	}
	e, err := dice.ParseSum(s)
	var se *dice.SyntaxError
	switch {
	case errors.As(err, &se) && se.QueryOnly:
		d.ErrAt(n, se.Col, fmt.Sprintf("%s %q: %s", key, s, se.Msg))
	case err != nil:
		d.Errorf(n, "%s %q: %v", key, s, err)
	case e.Min() < 1:
		d.Errorf(n, "%s %q: expected dice that roll 1 or more, such as 2D6", key, s)
	default:
		return d.ExactDice(n, e, fmt.Sprintf("%s %s", key, e))
	}
	return nil, false
}

// optionParam is how an option's value is shown: dice as written.
func optionParam(v any) any {
	if e, ok := v.(dice.Expr); ok {
		return e.String()
	}
	return v
}

// at returns the value of option key at a point: the one written, or its
// default.
func (ov *optionValues) at(key string, pt scenarios.Point) any {
	if p, ok := ov.vals[key]; ok && p.Set() {
		return p.At(pt)
	}
	for _, o := range ov.specs {
		if o.key == key {
			return o.def
		}
	}
	panic("scenarios: unknown heresy option " + key)
}

// values returns every value option key takes: those written, or its
// default; none when what was written is in error.
func (ov *optionValues) values(key string) []any {
	if p, ok := ov.vals[key]; ok {
		return p.Values()
	}
	return []any{ov.at(key, nil)}
}

// options returns rules.Options at a point, from rules.DefaultOptions and
// the options written.
func (ov *optionValues) options(pt scenarios.Point) rules.Options {
	o := rules.DefaultOptions
	for _, spec := range ov.specs {
		if set, ok := optionSetters[spec.key]; ok {
			set(&o, ov.at(spec.key, pt))
		}
	}
	return o
}

// optionSetters put the options that are open points of the rules into
// rules.Options; the others are the questions' own.
var optionSetters = map[string]func(*rules.Options, any){
	"cap_bs_at_7":                       func(o *rules.Options, v any) { o.CapBSAt7 = v.(bool) },
	"fnp_vs_instant_death":              func(o *rules.Options, v any) { o.FNPVsInstantDeath = v.(bool) },
	"mitigate_blunted_instant_death":    func(o *rules.Options, v any) { o.MitigateBluntedInstantDeath = v.(bool) },
	"stupefied_fixed_strength":          func(o *rules.Options, v any) { o.StupefiedFixedStrength = v.(bool) },
	"strength_multiplier":               func(o *rules.Options, v any) { o.MultiplyModifiedStrength = v.(string) == "modified" },
	"stupefied_roll_vs_double_strength": func(o *rules.Options, v any) { o.StupefiedRollVsDoubleStrength = v.(bool) },
	"outnumber_bonus":                   func(o *rules.Options, v any) { o.OutnumberBonus = v.(int) },
	"charge_bonus_attacks":              func(o *rules.Options, v any) { o.ChargeBonusAttacks = v.(int) },
	"terrain_charge_initiative":         func(o *rules.Options, v any) { o.TerrainChargeInitiative = v.(int) },
	"poisoned_replaces_chart":           func(o *rules.Options, v any) { o.PoisonedReplacesChart = v.(bool) },
	"blast_hits_3":                      func(o *rules.Options, v any) { o.BlastHits[0] = v.(int) },
	"blast_hits_5":                      func(o *rules.Options, v any) { o.BlastHits[1] = v.(int) },
	"blast_hits_7":                      func(o *rules.Options, v any) { o.BlastHits[2] = v.(int) },
	"blast_hits_10":                     func(o *rules.Options, v any) { o.BlastHits[3] = v.(int) },
	"template_hits":                     func(o *rules.Options, v any) { o.TemplateHits = v.(int) },
	"return_fire_after_casualties":      func(o *rules.Options, v any) { o.ReturnFireAfterCasualties = v.(bool) },
	"evade_save":                        func(o *rules.Options, v any) { o.EvadeSave = v.(int) },
	"overwatch":                         func(o *rules.Options, v any) { o.Overwatch = v.(bool) },
	"disordered_by_hold_the_line":       func(o *rules.Options, v any) { o.DisorderTriggers.HoldTheLine = v.(bool) },
	"charge_dice":                       func(o *rules.Options, v any) { o.ChargeDice = v.(dice.Expr) },
	"max_charge":                        func(o *rules.Options, v any) { o.MaxCharge = v.(int) },
	"our_weapons_are_useless":           func(o *rules.Options, v any) { o.OurWeaponsAreUseless = v.(bool) },
	"insane_heroism":                    func(o *rules.Options, v any) { o.InsaneHeroism = v.(bool) },
	"wound_chart":                       func(o *rules.Options, v any) { o.WoundChart = woundCharts[v.(string)] },
	"loser_ld_penalty":                  func(o *rules.Options, v any) { o.LoserLdPenalty = v.(int) },
	"sweeping_advance":                  func(o *rules.Options, v any) { o.SweepingAdvance = sweepRules[v.(string)] },
	"weapon_choice":                     func(o *rules.Options, v any) { o.WeaponChoice = weaponChoices[v.(string)] },
	"pistol_pair":                       func(o *rules.Options, v any) { o.PistolPairWithinProtocols = v.(string) == "two_weapons" },
	"gets_hot_reroll":                   func(o *rules.Options, v any) { o.HotRerollNoToHit = v.(string) == "to_hit_rerolls" },
	"combat_result":                     func(o *rules.Options, v any) { o.CombatScore = combatScores[v.(string)] },
}

// combatScores are the values of the combat_result option, "wounds_lost"
// its default (rules.DefaultOptions.CombatScore).
var combatScores = map[string]rules.CombatScore{
	"wounds_lost":    rules.ScoreWoundsLost,
	"unsaved_wounds": rules.ScoreUnsavedWounds,
}

// sweepRules are the values of the sweeping_advance option, "initiative"
// its default (rules.DefaultOptions.SweepingAdvance).
var sweepRules = map[string]rules.SweepRule{
	"initiative": rules.SweepByInitiative,
	"none":       rules.NoSweep,
}

// weaponChoices are the values of the weapon_choice option, "casualties"
// its default (rules.DefaultOptions.WeaponChoice).
var weaponChoices = map[string]rules.WeaponChoice{
	"casualties":     rules.ChooseByCasualties,
	"unsaved_wounds": rules.ChooseByUnsavedWounds,
}

// woundCharts are the values of the wound_chart option: the S vs T chart
// is OPEN (docs/heresy.md), "standard" its default.
var woundCharts = map[string]rules.WoundChart{
	"standard":   rules.StandardWoundChart,
	"six_always": rules.SixAlwaysWoundChart,
}

// The open points of rules.Options a question may set; each defaults to
// rules.DefaultOptions.
var (
	optFNP     = option{key: "fnp_vs_instant_death", boolean: true, def: rules.DefaultOptions.FNPVsInstantDeath}
	optBlunted = option{key: "mitigate_blunted_instant_death", boolean: true, def: rules.DefaultOptions.MitigateBluntedInstantDeath}
	optHeroism = option{key: "insane_heroism", boolean: true, def: rules.DefaultOptions.InsaneHeroism}
	// The Stupefied roll against Instant Death by Strength alone.
	optDoubleStrength = option{key: "stupefied_roll_vs_double_strength", boolean: true, def: rules.DefaultOptions.StupefiedRollVsDoubleStrength}
	// A Stupefied unit's fixed-Strength weapons, ranged or close combat.
	optFixedStrength = option{key: "stupefied_fixed_strength", boolean: true, def: rules.DefaultOptions.StupefiedFixedStrength}
	// What a weapon's "x2" multiplies: the Strength characteristic, the
	// default (rules.DefaultOptions.MultiplyModifiedStrength false), or the
	// modified Strength.
	optStrengthMultiplier = option{key: "strength_multiplier", words: []string{"characteristic", "modified"}, def: "characteristic"}
	// The default chart is rules.DefaultOptions.WoundChart, the standard one.
	optWoundChart = option{key: "wound_chart", words: []string{"standard", "six_always"}, def: "standard"}
	// How a model picks the weapons it fires; the default is
	// rules.DefaultOptions.WeaponChoice, by casualties.
	optWeaponChoice = option{key: "weapon_choice", words: []string{"casualties", "unsaved_wounds"}, def: "casualties"}
	// How two Pistols count against Firing Protocols (X): two_weapons, the
	// default (rules.DefaultOptions.PistolPairWithinProtocols true), counts
	// them as two of the X; one_weapon takes one of the X choices for the
	// pair.
	optPistolPair = option{key: "pistol_pair", words: []string{"one_weapon", "two_weapons"}, def: "two_weapons"}
	// Whether a weapon that rolls no To Hit re-rolls its Gets Hot D6 when
	// its firer may re-roll To Hit rolls: never, the default
	// (rules.DefaultOptions.HotRerollNoToHit false), or to_hit_rerolls.
	optHotReroll = option{key: "gets_hot_reroll", words: []string{"never", "to_hit_rerolls"}, def: "never"}
)

// gridSpec is a grid: key, which lays one probability metric, or the
// acting unit's points efficiency, out as a table of one swept parameter
// down the rows against another across the columns.
type gridSpec struct {
	node                    *scenarios.Node
	metric, rows, cols      string
	metricAt, rowsAt, colAt *scenarios.Node
}

// decodeGrid reads a grid: key; probabilities are the question's
// probability metrics, one of which it lays out, or metricPer100.
func decodeGrid(d *scenarios.Decoder, n *scenarios.Node, probabilities []string) *gridSpec {
	g := &gridSpec{node: n}
	d.Object(n, "the grid", []scenarios.Field{
		{Key: "metric", Required: true, Decode: func(n *scenarios.Node) {
			g.metric, g.metricAt = d.Text(n, "a probability metric"), n
			if g.metric != "" && g.metric != metricPer100 && !slices.Contains(probabilities, g.metric) {
				d.Errorf(n, "grid metric %q: expected a probability metric of the question (%s) or %s", g.metric, strings.Join(probabilities, ", "), metricPer100)
			}
		}},
		{Key: "rows", Required: true, Decode: func(n *scenarios.Node) { g.rows, g.rowsAt = d.Text(n, "a swept parameter"), n }},
		{Key: "cols", Required: true, Decode: func(n *scenarios.Node) { g.cols, g.colAt = d.Text(n, "a swept parameter"), n }},
	})
	if g.metricAt == nil || g.rowsAt == nil || g.colAt == nil {
		return nil
	}
	if g.rows == g.cols && g.rows != "" {
		d.Errorf(g.colAt, "grid rows and cols are both %q; expected two parameters", g.rows)
	}
	return g
}

// check returns the grid for a scenario, once the axes have their final
// names; idle names the metrics that cannot vary in it, with why, and
// absent those the scenario lacks what they need for (Compiled.Absent).
func (g *gridSpec) check(d *scenarios.Decoder, axes scenarios.Axes, idle, absent map[string]string) *sim.Grid {
	if g == nil {
		return nil
	}
	ok := true
	if why, no := idle[g.metric]; no {
		d.Errorf(g.metricAt, "grid metric %q %s", g.metric, why)
		ok = false
	}
	if why, absent := absent[g.metric]; absent {
		d.Errorf(g.metricAt, "grid metric %q is not reported here: it needs %s", g.metric, why)
		ok = false
	}
	var names []string
	for _, a := range axes {
		names = append(names, a.Name)
	}
	for _, at := range []*scenarios.Node{g.rowsAt, g.colAt} {
		switch {
		case len(names) == 0:
			d.Errorf(at, "grid %q: the scenario sweeps no parameter; a grid lays out two swept ones", at.Text)
			ok = false
		case !slices.Contains(names, at.Text):
			d.Errorf(at, "grid %q: expected a swept parameter: %s", at.Text, strings.Join(names, ", "))
			ok = false
		}
	}
	if !ok {
		return nil
	}
	return &sim.Grid{Metric: g.metric, Rows: g.rows, Cols: g.cols}
}

// idleOf lists the metrics, in order, that idle gives a reason for.
func idleOf(metrics []string, idle map[string]string) []string {
	var out []string
	for _, m := range metrics {
		if _, ok := idle[m]; ok {
			out = append(out, m)
		}
	}
	return out
}

// metricPer100 is the acting unit's points efficiency: the models its
// enemy lost per 100 of its points (casualties scaled).
const metricPer100 = "casualties_per_100_points"

// priced says whether the acting unit has a price at some point of the
// sweep; where none has, per100Absent says what the metric needs.
func priced(acting scenarios.Param[*unitSpec]) bool {
	return slices.ContainsFunc(acting.Values(), func(u *unitSpec) bool {
		return u != nil && slices.ContainsFunc(u.points.Values(), func(p int) bool { return p > 0 })
	})
}

func per100Absent(role string) map[string]string {
	return map[string]string{metricPer100: "points on the " + role + ", at some point (its card's or its own points key)"}
}

// per100 scales the enemy's casualties at a point to 100 of the acting
// unit's points, titled as what it is.
func per100(casualties sim.Estimate, ps []sim.Param, points float64, title string) sim.Estimate {
	e := casualties.Scaled(metricPer100, ps, 100, points)
	e.Title = title
	return e
}

// refuseSweptPrice refuses points swept on a unit whose price nothing
// reads (the shooting's target, the assault's defender): every value would
// give the same answer.
func refuseSweptPrice(d *scenarios.Decoder, units scenarios.Param[*unitSpec], role, acting string) {
	for _, u := range units.Values() {
		if u != nil && len(u.points.Values()) > 1 {
			d.Errorf(u.pointsNode, "points is swept on the %s %q, but only the %s's points are read (%s); every value gives the same answer: sweep the %s's",
				role, u.name, acting, metricPer100, acting)
		}
	}
}

// withParam returns params with one more, for results about one unit of several.
func withParam(ps []sim.Param, name string, v any) []sim.Param {
	return append(slices.Clip(ps), sim.Param{Name: name, Value: v})
}

// clamp01 keeps an exact probability, a sum of products, from straying
// past 0 or 1 by rounding.
func clamp01(p float64) float64 { return min(max(p, 0), 1) }
