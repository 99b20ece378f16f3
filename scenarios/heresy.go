package scenarios

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"hammersim/mechanics"
	"hammersim/mechanics/dice"
	"hammersim/mechanics/fantasy"
	"hammersim/mechanics/heresy"
	"hammersim/sim"
)

// The heresy ruleset: Horus Heresy 2nd edition units, read from profiles as
// printed on datasheets, and the questions of heresy_shooting.go and
// heresy_assault.go. docs/heresy.md documents the format.
func init() {
	rulesets["heresy"] = &ruleset{
		name:      "heresy",
		catalogue: heresy.Catalogue,
		questions: map[string]func(*decoder, *node, *ruleset) compiler{
			"shooting": hhDecodeShooting,
			"assault":  hhDecodeAssault,
		},
	}
}

// hhStat is one characteristic of a datasheet profile. dash: "-" may be
// printed for it, read as 0 (an Attacks or Weapon Skill of "-" on a gun).
type hhStat struct {
	key    string
	lo, hi int
	dash   bool
}

// hhStats are the characteristics in datasheet order. Movement is printed
// too, but no heresy question reads it: an M key is an error that says so.
var hhStats = [...]hhStat{
	{"WS", 0, 10, true}, {"BS", 0, 10, true}, {"S", 1, 10, false}, {"T", 1, 10, false},
	{"W", 1, 10, false}, {"I", 1, 10, false}, {"A", 0, 10, true}, {"Ld", 1, 10, false},
}

const (
	hhWS = iota
	hhBS
	hhS
	hhT
	hhW
	hhI
	hhA
	hhLd
)

// hhRole says what a unit does in a question, which decides the keys it
// may have: weapons only where it shoots, a melee weapon only in an
// assault, cover only where it is shot at.
type hhRole uint8

const (
	hhRoleFirer hhRole = iota
	hhRoleTarget
	hhRoleFighter
)

// hhUnitSpec is a Heresy unit as written in a scenario, with its sweeps.
type hhUnitSpec struct {
	node   *node
	name   string
	models Param[int]
	stats  [len(hhStats)]Param[int]
	sv     Param[int] // armour save, 3 for 3+; 0 for none
	inv    Param[int]
	cover  Param[int]
	rules  []Param[ruleChoice]
	// weapons are the ranged weapons each model carries; melee the
	// close-combat weapon every model strikes with (nil: its Strength, AP -).
	weapons []*hhWeaponSpec
	melee   *hhWeaponSpec
}

// hhWeaponSpec is a weapon profile as written.
type hhWeaponSpec struct {
	node  *node
	name  string
	shots Param[dice.Expr]
	s     Param[hhStrength]
	ap    Param[int]
	rules []Param[ruleChoice]
}

// hhStrength is a weapon's Strength as printed: a number, "User" (the
// wielder's Strength) or "+N" (the wielder's plus N).
type hhStrength struct {
	fixed, bonus int
}

func (s hhStrength) param() any {
	switch {
	case s.fixed > 0:
		return s.fixed
	case s.bonus > 0:
		return "+" + strconv.Itoa(s.bonus)
	}
	return "User"
}

// hhUnit is a unit at one point of the sweep, ready for the rules.
type hhUnit struct {
	spec    *hhUnitSpec
	unit    heresy.Unit
	weapons []heresy.Weapon
	melee   heresy.Weapon
}

// hhNameOf returns the text of a mapping's "name" key, so that a weapon's
// sweeps can be named after it ("bolter.shots") before its keys are read.
func hhNameOf(n *node) string {
	if n.kind != mapNode {
		return ""
	}
	for i, k := range n.keys {
		if k.text == "name" && n.vals[i].kind == scalarNode {
			return n.vals[i].text
		}
	}
	return ""
}

// hhDecodeUnit reads a unit mapping for the given role.
func hhDecodeUnit(d *decoder, n *node, rs *ruleset, role hhRole) *hhUnitSpec {
	u := &hhUnitSpec{node: n}
	fields := []field{
		{key: "name", required: true, decode: func(n *node) { u.name = d.text(n, "the unit's name") }},
		{key: "models", required: true, decode: func(n *node) {
			u.models = sweep(d, n, "models", true, func(n *node) (int, bool) { return d.intIn(n, "models", 1, 100) }, identity)
		}},
	}
	for i, st := range hhStats {
		fields = append(fields, field{key: st.key, required: true, decode: func(n *node) {
			u.stats[i] = sweep(d, n, st.key, true, func(n *node) (int, bool) { return d.hhStatValue(n, st) }, identity)
		}})
	}
	fields = append(fields,
		field{key: "Sv", required: true, decode: func(n *node) { u.sv = hhSaveParam(d, n, "Sv") }},
		field{key: "Inv", decode: func(n *node) { u.inv = hhSaveParam(d, n, "Inv") }},
		field{key: "rules", decode: func(n *node) { u.rules = hhRules(d, n, rs) }},
	)
	switch role {
	case hhRoleFirer, hhRoleTarget:
		fields = append(fields, field{key: "weapons", required: role == hhRoleFirer, decode: func(n *node) {
			u.weapons = hhDecodeWeapons(d, n, rs)
		}})
		fields = append(fields, field{key: "cover", decode: func(n *node) { u.cover = hhSaveParam(d, n, "cover") }})
	case hhRoleFighter:
		fields = append(fields, field{key: "melee", decode: func(n *node) { u.melee = hhDecodeWeapon(d, n, rs, true) }})
	}
	d.object(hhDropMovement(d, n), "a unit", fields)
	return u
}

// hhDropMovement reports an M key, printed on datasheets but read by no
// heresy question, and returns the unit's mapping without it.
func hhDropMovement(d *decoder, n *node) *node {
	if n.kind != mapNode {
		return n
	}
	for i, k := range n.keys {
		if k.text == "M" {
			d.errorf(k, "M (Movement) is not read by any heresy question; remove it")
			c := *n
			c.keys = append(slices.Clip(n.keys[:i]), n.keys[i+1:]...)
			c.vals = append(slices.Clip(n.vals[:i]), n.vals[i+1:]...)
			return &c
		}
	}
	return n
}

// stat reads one characteristic.
func (d *decoder) hhStatValue(n *node, st hhStat) (int, bool) {
	if st.dash && n.kind == scalarNode && (n.text == "-" || strings.EqualFold(n.text, "none")) {
		return 0, true
	}
	return d.intIn(n, st.key, st.lo, st.hi)
}

// hhSaveParam reads a save as printed, "3+", or "-" (or none) for no save.
func hhSaveParam(d *decoder, n *node, what string) Param[int] {
	return sweep(d, n, what, false, func(n *node) (int, bool) {
		s, ok := d.scalar(n, what+" (a save such as 3+)")
		if !ok {
			return 0, false
		}
		if s == "-" || strings.EqualFold(s, "none") {
			return 0, true
		}
		v, err := strconv.Atoi(strings.TrimSuffix(s, "+"))
		if err != nil || v < 2 || v > 6 {
			d.errorf(n, "expected %s as a save from 2+ to 6+, or \"-\" (quoted) or none for no save, found %q", what, s)
			return 0, false
		}
		return v, true
	}, func(v int) any { return hhSaveText(v) })
}

func hhSaveText(v int) string {
	if v == 0 {
		return "-"
	}
	return strconv.Itoa(v) + "+"
}

func hhDecodeWeapons(d *decoder, n *node, rs *ruleset) []*hhWeaponSpec {
	if n.kind != seqNode {
		d.errorf(n, "expected weapons as a list of weapon profiles, such as [{name: bolter, S: 4, AP: 5, shots: 2}], found %s", describe(n))
		return nil
	}
	if len(n.items) == 0 {
		d.errorf(n, "empty list of weapons; give at least one")
		return nil
	}
	var out []*hhWeaponSpec
	names := map[string]*node{}
	for _, item := range n.items {
		w := hhDecodeWeapon(d, item, rs, false)
		if prev, dup := names[w.name]; dup && w.name != "" {
			d.errorf(item, "two weapons named %q (the other at line %d); a model fires each weapon once at most", w.name, prev.line)
			continue
		}
		names[w.name] = item
		out = append(out, w)
	}
	return out
}

// hhDecodeWeapon reads a weapon profile: name, S, AP, shots (ranged only),
// range (ranged only, read for checking) and rules.
func hhDecodeWeapon(d *decoder, n *node, rs *ruleset, melee bool) *hhWeaponSpec {
	w := &hhWeaponSpec{node: n, shots: fixed(dice.Const(1)), s: fixed(hhStrength{}), ap: fixed(heresy.APNone)}
	if name := hhNameOf(n); name != "" {
		d.path = append(d.path, name)
		defer func() { d.path = d.path[:len(d.path)-1] }()
	}
	fields := []field{
		{key: "name", required: true, decode: func(n *node) { w.name = d.text(n, "the weapon's name") }},
		{key: "S", required: true, decode: func(n *node) {
			w.s = sweep(d, n, "S", true, func(n *node) (hhStrength, bool) { return d.hhWeaponStrength(n) }, hhStrength.param)
		}},
		{key: "AP", required: true, decode: func(n *node) {
			w.ap = sweep(d, n, "AP", true, func(n *node) (int, bool) {
				if n.kind == scalarNode && (n.text == "-" || strings.EqualFold(n.text, "none")) {
					return heresy.APNone, true
				}
				s, ok := d.scalar(n, "AP (1 to 6, or \"-\")")
				if !ok {
					return 0, false
				}
				v, err := strconv.Atoi(s)
				if err != nil || v < 1 || v > 6 {
					d.errorf(n, "AP %s is out of range; expected 1 to 6, or \"-\" (quoted) or none for no AP", s)
					return 0, false
				}
				return v, true
			}, func(v int) any {
				if v == heresy.APNone {
					return "-"
				}
				return v
			})
		}},
		{key: "rules", decode: func(n *node) { w.rules = hhRules(d, n, rs) }},
	}
	if !melee {
		fields = append(fields,
			field{key: "shots", decode: func(n *node) {
				w.shots = sweep(d, n, "shots", true, func(n *node) (dice.Expr, bool) { return d.hhShots(n) }, hhShotsParam)
			}},
			field{key: "range", decode: func(n *node) { d.hhWeaponRange(n) }},
		)
	}
	what := "a weapon"
	if melee {
		what = "a melee weapon (it strikes the model's Attacks, so it has no shots or range)"
	}
	d.object(n, what, fields)
	return w
}

func hhShotsParam(e dice.Expr) any {
	if e.IsConst() {
		return e.Min()
	}
	return e.String()
}

// hhMaxShots bounds the shots one model fires with one weapon, which keeps
// the exact distributions and the histograms small.
const hhMaxShots = 100

// shots reads a weapon's shots per model: a number or dice, "2" or "D3".
func (d *decoder) hhShots(n *node) (dice.Expr, bool) {
	s, ok := d.scalar(n, "shots (a number or dice such as D3)")
	if !ok {
		return dice.Expr{}, false
	}
	e, err := dice.Parse(s)
	switch {
	case err != nil:
		d.errorf(n, "shots %q: %v", s, err)
	case e.IsArtillery() || e.IsScatter():
		d.errorf(n, "shots %q: expected a number or dice such as D3, not the %s", s, e)
	case e.Min() < 0:
		d.errorf(n, "shots %q can roll below zero", s)
	case e.Max() > hhMaxShots || e.Max() < 1:
		d.errorf(n, "shots %q: expected 1 to %d shots per model", s, hhMaxShots)
	default:
		return e, true
	}
	return dice.Expr{}, false
}

// weaponStrength reads a weapon's S: 1 to 10, "User" or "+1" to "+5".
func (d *decoder) hhWeaponStrength(n *node) (hhStrength, bool) {
	s, ok := d.scalar(n, "S (1 to 10, User or +1)")
	if !ok {
		return hhStrength{}, false
	}
	if strings.EqualFold(s, "user") {
		return hhStrength{}, true
	}
	if b, ok := strings.CutPrefix(s, "+"); ok {
		v, err := strconv.Atoi(b)
		if err != nil || v < 1 || v > 5 {
			d.errorf(n, "weapon S %q: expected +1 to +5 (added to the wielder's Strength)", s)
			return hhStrength{}, false
		}
		return hhStrength{bonus: v}, true
	}
	v, ok := d.intIn(n, "weapon S (or User, +1)", 1, 10)
	return hhStrength{fixed: v}, ok
}

// weaponRange checks a weapon's printed range: inches, or Template. The
// questions assume the target is in range, so it is read for checking only.
func (d *decoder) hhWeaponRange(n *node) {
	s, ok := d.scalar(n, "range (inches, such as 24, or Template)")
	if !ok {
		return
	}
	if strings.EqualFold(s, "template") {
		return
	}
	v, err := strconv.Atoi(strings.TrimSuffix(s, "\""))
	if err != nil || v < 1 || v > 240 {
		d.errorf(n, "expected range as inches from 1 to 240, or Template, found %q", s)
	}
}

// hhRules reads a rules list against the heresy catalogue. A rule only the
// fantasy ruleset knows gets an error that says so, rather than "unknown
// rule": the scenario asks the wrong game.
func hhRules(d *decoder, n *node, rs *ruleset) []Param[ruleChoice] {
	if n.kind == seqNode {
		kept := make([]*node, 0, len(n.items))
		for _, item := range n.items {
			at, text := item, item.text
			if item.kind == mapNode && len(item.keys) == 1 {
				at, text = item.keys[0], item.keys[0].text
			}
			if at.kind == scalarNode && hhFantasyOnly(text) {
				rt, _ := mechanics.ParseRuleText(text)
				d.errorf(at, "%q is a Warhammer Fantasy rule (ruleset: fantasy); a heresy scenario takes Horus Heresy rules: %s",
					rt.Name, strings.Join(heresy.Catalogue.Names(), ", "))
				continue
			}
			kept = append(kept, item)
		}
		c := *n
		c.items = kept
		n = &c
	}
	return decodeRules(d, n, rs)
}

func hhFantasyOnly(text string) bool {
	rt, err := mechanics.ParseRuleText(text)
	if err != nil {
		return false
	}
	if _, ok := heresy.Catalogue.Lookup(rt.Name); ok {
		return false
	}
	_, ok := fantasy.Catalogue.Lookup(rt.Name)
	return ok
}

// hhUnitParam reads one unit, or a list of units to sweep, for a role.
func hhUnitParam(d *decoder, n *node, name string, rs *ruleset, role hhRole) Param[*hhUnitSpec] {
	swept := n.kind == seqNode
	names := map[string]*node{}
	return sweep(d, n, name, false, func(item *node) (*hhUnitSpec, bool) {
		if swept {
			outer := d.inSweep
			d.inSweep = true
			defer func() { d.inSweep = outer }()
		}
		u := hhDecodeUnit(d, item, rs, role)
		if prev, dup := names[u.name]; dup && u.name != "" {
			d.errorf(item, "two units named %q in one list (the other at line %d); names tell the points apart", u.name, prev.line)
			return nil, false
		}
		names[u.name] = item
		return u, u.name != ""
	}, func(u *hhUnitSpec) any { return u.name })
}

// at builds the unit at a point. Rules go into the profile; a weapon rule
// on a unit, or a model's rule on a weapon, is an error where it was
// written.
func (s *hhUnitSpec) at(d *decoder, pt point) (*hhUnit, bool) {
	var p heresy.Profile
	st := func(i int) int { return s.stats[i].At(pt) }
	p.WS, p.BS, p.S, p.T = st(hhWS), st(hhBS), st(hhS), st(hhT)
	p.W, p.I, p.A, p.Ld = st(hhW), st(hhI), st(hhA), st(hhLd)
	p.Save = s.sv.At(pt)
	if s.inv.Set() {
		p.Invuln = s.inv.At(pt)
	}
	ok := true
	for _, rp := range s.rules {
		c := rp.At(pt)
		if !c.on {
			continue
		}
		if err := p.Apply(c.rule); err != nil {
			d.errorf(c.node, "%v (unit %q)", err, s.name)
			ok = false
		}
	}
	u := &hhUnit{spec: s, unit: heresy.NewUnit(p, s.models.At(pt))}
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

func (s *hhWeaponSpec) at(d *decoder, pt point) (heresy.Weapon, bool) {
	str := s.s.At(pt)
	w := heresy.Weapon{Name: s.name, Shots: s.shots.At(pt), S: str.fixed, StrengthBonus: str.bonus, AP: s.ap.At(pt)}
	ok := true
	for _, rp := range s.rules {
		c := rp.At(pt)
		if !c.on {
			continue
		}
		if err := w.Apply(c.rule); err != nil {
			d.errorf(c.node, "%v (weapon %q)", err, s.name)
			ok = false
		}
	}
	return w, ok
}

// hhSpecsReady reports whether every unit of a question was read: a unit
// whose mapping had errors is missing required values, and building it
// would read unset parameters.
func hhSpecsReady(ps ...Param[*hhUnitSpec]) bool {
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

// hhOption is one open point of the rules (heresy.Options) or of a
// question that a scenario may set, or sweep, under options:.
type hhOption struct {
	key string
	// One of: a boolean, a whole number from lo to hi, or one of words.
	boolean bool
	lo, hi  int
	words   []string
	def     any
}

// hhOptionValues holds the options a question read, by key.
type hhOptionValues struct {
	specs []hhOption
	vals  map[string]Param[any]
}

func hhDecodeOptions(d *decoder, n *node, specs []hhOption) *hhOptionValues {
	ov := &hhOptionValues{specs: specs, vals: map[string]Param[any]{}}
	if n == nil {
		return ov
	}
	var fields []field
	for _, o := range specs {
		fields = append(fields, field{key: o.key, decode: func(n *node) {
			ov.vals[o.key] = sweep(d, n, o.key, o.words == nil && !o.boolean, func(n *node) (any, bool) {
				switch {
				case o.boolean:
					return d.boolean(n, o.key)
				case o.words != nil:
					s, ok := d.scalar(n, o.key)
					if ok && !slices.Contains(o.words, s) {
						d.errorf(n, "%s %q: expected one of: %s", o.key, s, strings.Join(o.words, ", "))
						return nil, false
					}
					return s, ok
				}
				return d.intIn(n, o.key, o.lo, o.hi)
			}, identity)
		}})
	}
	d.object(n, "the options", fields)
	return ov
}

// at returns the value of option key at a point: the one written, or its
// default.
func (ov *hhOptionValues) at(key string, pt point) any {
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

// rules returns heresy.Options at a point, from heresy.DefaultOptions and
// the options written.
func (ov *hhOptionValues) rules(pt point) heresy.Options {
	o := heresy.DefaultOptions
	for _, spec := range ov.specs {
		v := ov.at(spec.key, pt)
		switch spec.key {
		case "cap_bs_at_7":
			o.CapBSAt7 = v.(bool)
		case "fnp_vs_instant_death":
			o.FNPVsInstantDeath = v.(bool)
		case "mitigate_blunted_instant_death":
			o.MitigateBluntedInstantDeath = v.(bool)
		case "stupefied_fixed_strength":
			o.StupefiedFixedStrength = v.(bool)
		case "outnumber_bonus":
			o.OutnumberBonus = v.(int)
		case "charge_bonus_attacks":
			o.ChargeBonusAttacks = v.(int)
		case "terrain_charge_initiative":
			o.TerrainChargeInitiative = v.(int)
		}
	}
	return o
}

// The open points of heresy.Options a question may set; each defaults to
// heresy.DefaultOptions.
var (
	hhOptFNP     = hhOption{key: "fnp_vs_instant_death", boolean: true, def: heresy.DefaultOptions.FNPVsInstantDeath}
	hhOptBlunted = hhOption{key: "mitigate_blunted_instant_death", boolean: true, def: heresy.DefaultOptions.MitigateBluntedInstantDeath}
)

// hhDecodeMetrics reads a metrics list: which of the question's metrics to
// report, in the order given.
func hhDecodeMetrics(d *decoder, n *node, known []string) []*node {
	if n.kind != seqNode || len(n.items) == 0 {
		d.errorf(n, "expected metrics as a list of names from: %s", strings.Join(known, ", "))
		return nil
	}
	var out []*node
	for _, item := range n.items {
		s, ok := d.scalar(item, "a metric name")
		if !ok {
			continue
		}
		if !slices.Contains(known, s) {
			d.errorf(item, "unknown metric %q; expected one of: %s", s, strings.Join(known, ", "))
			continue
		}
		if slices.ContainsFunc(out, func(m *node) bool { return m.text == s }) {
			d.errorf(item, "metric %q is listed twice", s)
			continue
		}
		out = append(out, item)
	}
	return out
}

// hhGrid is a grid: key, which lays one probability metric out as a table of
// one swept parameter down the rows against another across the columns.
type hhGrid struct {
	node                    *node
	metric, rows, cols      string
	metricAt, rowsAt, colAt *node
}

func hhDecodeGrid(d *decoder, n *node) *hhGrid {
	g := &hhGrid{node: n}
	d.object(n, "the grid", []field{
		{key: "metric", required: true, decode: func(n *node) { g.metric, g.metricAt = d.text(n, "a probability metric"), n }},
		{key: "rows", required: true, decode: func(n *node) { g.rows, g.rowsAt = d.text(n, "a swept parameter"), n }},
		{key: "cols", required: true, decode: func(n *node) { g.cols, g.colAt = d.text(n, "a swept parameter"), n }},
	})
	if g.metricAt == nil || g.rowsAt == nil || g.colAt == nil {
		return nil
	}
	return g
}

// check returns the grid for a scenario, once the axes have their final
// names; probabilities lists the question's probability metrics that are
// reported.
func (g *hhGrid) check(d *decoder, axes []*axis, probabilities []string) *sim.Grid {
	if g == nil {
		return nil
	}
	ok := true
	if !slices.Contains(probabilities, g.metric) {
		d.errorf(g.metricAt, "grid metric %q: expected a probability metric that is reported: %s", g.metric, strings.Join(probabilities, ", "))
		ok = false
	}
	var names []string
	for _, a := range axes {
		names = append(names, a.name)
	}
	for _, at := range []*node{g.rowsAt, g.colAt} {
		if !slices.Contains(names, at.text) {
			d.errorf(at, "grid %q: expected a swept parameter: %s", at.text, strings.Join(names, ", "))
			ok = false
		}
	}
	if ok && g.rows == g.cols {
		d.errorf(g.colAt, "grid rows and cols are both %q; expected two parameters", g.rows)
		ok = false
	}
	if !ok {
		return nil
	}
	return &sim.Grid{Metric: g.metric, Rows: g.rows, Cols: g.cols}
}

// hhMetricNames returns the texts of a metrics list, or def when none was
// given.
func hhMetricNames(list []*node, def []string) []string {
	if list == nil {
		return def
	}
	out := make([]string, len(list))
	for i, n := range list {
		out[i] = n.text
	}
	return out
}

// hhWith returns params with one more, for results about one unit of several.
func hhWith(ps []sim.Param, name string, v any) []sim.Param {
	return append(slices.Clip(ps), sim.Param{Name: name, Value: v})
}

// hhErrorf reports an error about a unit at a point of a sweep, naming the
// point when there is one.
func hhErrorf(d *decoder, n *node, axes []*axis, pt point, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if len(axes) > 0 {
		var ps []string
		for i, a := range axes {
			ps = append(ps, fmt.Sprintf("%s %v", a.name, a.values[pt[i]]))
		}
		msg += " (at " + strings.Join(ps, ", ") + ")"
	}
	d.errorf(n, "%s", msg)
}

// hhClamp01 keeps an exact probability, a sum of products, from straying
// past 0 or 1 by rounding.
func hhClamp01(p float64) float64 { return min(max(p, 0), 1) }
