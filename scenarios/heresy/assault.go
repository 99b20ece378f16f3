package heresy

import (
	"cmp"
	"math"
	"slices"

	"hammersim/mechanics/dice"
	rules "hammersim/mechanics/heresy"
	"hammersim/scenarios"
	"hammersim/sim"
)

// The assault question: a charge and the round of close combat it starts,
// and its aftermath, as rules.Charge and rules.Fight resolve them.
//
//	assault:
//	  attacker: {name: ..., models: 10, WS: 4, ..., melee: {name: chainsword, S: User, AP: "-"}}
//	  defender: {name: ..., models: 3, ..., rules: [Automated Artillery, Bulky (4)]}
//	  charged: true             # the attacker charged this turn
//	  distance: 7               # the charge is rolled over 7"
//	  charge_bonus: 1           # the Movement bonus to the charge roll
//	  stupefied: attacker       # none, attacker, defender, both or attacker_after_overwatch
//	  hold_the_line: false      # the defender made Hold the Line
//	  difficult_terrain: false  # through Difficult Terrain
//	  options: {overwatch: true, ...}
//
// Every metric but the charge's is reported for each unit, named in the
// parameter "unit", and counts what happened to that unit: the blows it
// suffered (hits, wounds, unsaved_wounds, mitigated, casualties), whether
// it won, failed its Morale check (morale_failed, and Fell Back), was
// destroyed by a Sweeping Advance (swept), or has no models left at the
// end (destroyed). The charge's metrics are the attacker's: reached,
// disordered, overwatch_casualties; overwatch_gets_hot, the Gets Hot
// wounds the defender deals itself firing Overwatch, is the defender's.
// Every one has its exact value (see heresy.ExactAssault in mechanics).

// Assault metrics beyond the shooting ones.
const (
	metricWon        = "won"
	metricSwept      = "swept"
	metricReached    = "reached"
	metricDisordered = "disordered"
	metricOverwatch  = "overwatch_casualties"
	metricOverHot    = "overwatch_gets_hot"
)

var assaultMetrics = []string{metricReached, metricDisordered, metricOverwatch, metricOverHot, metricHits, metricWounds,
	metricUnsaved, metricMitigated, metricCasualties, metricWon, metricMorale, metricSwept, metricDestroyed}

// chargeMetrics are reported for the attacker only, defenderMetrics for
// the defender only.
var (
	chargeMetrics   = []string{metricReached, metricDisordered, metricOverwatch}
	defenderMetrics = []string{metricOverHot}
)

// Slots per unit; unit i's slot k is at i*sideSlots + k; the charge's
// slots follow both units'.
const (
	sideHits = iota
	sideWounds
	sideUnsaved
	sideMitigated
	sideCasualties
	sideWon
	sideMorale
	sideSwept
	sideDestroyed
	sideSlots
)

const (
	chargeReached = 2*sideSlots + iota
	chargeDisordered
	chargeOverwatch
	chargeOverHot
	assaultSlots
)

var assaultOptions = []option{
	optWoundChart,
	optFNP,
	optBlunted,
	optHeroism,
	optFixedStrength,
	optStrengthMultiplier,
	optDoubleStrength,
	optWeaponChoice,
	optPistolPair,
	optHotReroll,
	{key: "outnumber_bonus", lo: 0, hi: 10, def: rules.DefaultOptions.OutnumberBonus},
	{key: "charge_bonus_attacks", lo: 0, hi: 10, def: rules.DefaultOptions.ChargeBonusAttacks},
	{key: "terrain_charge_initiative", lo: 0, hi: 10, def: rules.DefaultOptions.TerrainChargeInitiative},
	{key: "poisoned_replaces_chart", boolean: true, def: rules.DefaultOptions.PoisonedReplacesChart},
	{key: "overwatch", boolean: true, def: rules.DefaultOptions.Overwatch},
	{key: "disordered_by_hold_the_line", boolean: true, def: rules.DefaultOptions.DisorderTriggers.HoldTheLine},
	{key: "charge_dice", dice: true, def: rules.DefaultOptions.ChargeDice},
	{key: "max_charge", lo: 0, hi: 48, def: rules.DefaultOptions.MaxCharge},
	{key: "our_weapons_are_useless", boolean: true, def: rules.DefaultOptions.OurWeaponsAreUseless},
	{key: "combat_result", words: []string{"wounds_lost", "unsaved_wounds"}, def: rules.DefaultOptions.CombatScore.String()},
	{key: "loser_ld_penalty", lo: 0, hi: 10, def: rules.DefaultOptions.LoserLdPenalty},
	{key: "sweeping_advance", words: []string{"initiative", "none"}, def: "initiative"},
}

// Who is Stupefied as the assault begins; with stupefiedAfterOverwatch
// nobody is, and the attacker becomes Stupefied once the Overwatch fired
// at it is resolved.
var stupefiedUnits = map[string][2]bool{"none": {}, "attacker": {true, false}, "defender": {false, true}, "both": {true, true},
	stupefiedAfterOverwatch: {}}

const stupefiedAfterOverwatch = "attacker_after_overwatch"

// assaultSpec is an assault question as written.
type assaultSpec struct {
	attacker, defender         scenarios.Param[*unitSpec]
	charged, terrain, held     scenarios.Param[bool]
	distance, bonus            scenarios.Param[int]
	stupefied                  scenarios.Param[string]
	node, chargedAt, stupefyAt *scenarios.Node
	at                         map[string]*scenarios.Node // where a key's value is written
	// unfit: a value of stupefied names a unit that cannot become
	// Stupefied (reported).
	unfit bool
	// partial is set where a distance or max_charge could not be read:
	// the checks that weigh a charge's distance (declarable,
	// charge_bonus) wait for it.
	partial bool
	opts    *optionValues
	grid    *gridSpec
}

func decodeAssault(d *scenarios.Decoder, n *scenarios.Node) scenarios.Compile {
	q := &assaultSpec{
		charged: scenarios.Fixed(true), terrain: scenarios.Fixed(false), held: scenarios.Fixed(false),
		distance: scenarios.Fixed(0), bonus: scenarios.Fixed(0), stupefied: scenarios.Fixed("none"),
		node: n, stupefyAt: n, at: map[string]*scenarios.Node{}, opts: decodeOptions(d, nil, assaultOptions),
	}
	boolKey := func(key string, p *scenarios.Param[bool]) scenarios.Field {
		return scenarios.Field{Key: key, Decode: func(n *scenarios.Node) {
			q.at[key] = n
			*p = scenarios.Sweep(d, n, key, false, func(n *scenarios.Node) (bool, bool) { return d.Boolean(n, key) }, scenarios.Identity)
		}}
	}
	intKey := func(key, what string, lo, hi int, p *scenarios.Param[int]) scenarios.Field {
		return scenarios.Field{Key: key, Decode: func(n *scenarios.Node) {
			q.at[key] = n
			*p = scenarios.Sweep(d, n, key, true, func(n *scenarios.Node) (int, bool) { return d.IntIn(n, what, lo, hi) }, scenarios.Identity)
		}}
	}
	d.Object(n, "the assault", []scenarios.Field{
		{Key: "attacker", Required: true, Decode: func(n *scenarios.Node) { q.attacker = unitParam(d, n, "attacker", roleFighter) }},
		{Key: "defender", Required: true, Decode: func(n *scenarios.Node) { q.defender = unitParam(d, n, "defender", roleDefender) }},
		{Key: "charged", Decode: func(n *scenarios.Node) {
			q.chargedAt = n
			q.charged = scenarios.Sweep(d, n, "charged", false, func(n *scenarios.Node) (bool, bool) { return d.Boolean(n, "charged") }, scenarios.Identity)
		}},
		intKey("distance", "distance (inches to charge)", 1, 48, &q.distance),
		intKey("charge_bonus", "charge_bonus (inches added to the charge roll)", 0, 12, &q.bonus),
		{Key: "stupefied", Decode: func(n *scenarios.Node) {
			q.stupefyAt = n
			q.stupefied = wordsParam(d, n, "stupefied", "who is Stupefied", []string{"none", "attacker", "defender", "both", stupefiedAfterOverwatch})
		}},
		boolKey("hold_the_line", &q.held),
		boolKey("difficult_terrain", &q.terrain),
		{Key: "options", Decode: func(n *scenarios.Node) { q.opts = decodeOptions(d, n, assaultOptions) }},
		{Key: "grid", Decode: func(n *scenarios.Node) { q.grid = decodeGrid(d, n, assaultProbabilities) }},
	})
	q.check(d)
	q.checkUnread(d)
	refuseSweptPrice(d, q.defender, "defender", "attacker")
	return q.compile
}

// checkUnread refuses the options no point of the assault reads: what
// only a charge reads where no point charges (charge_bonus_attacks), what
// only the charge roll reads where none is rolled (charge_dice), max_charge
// where nothing weighs a charge's length (no charge; or no distance and no
// Overwatch: a max_charge below every distance is read, as it stops them),
// terrain_charge_initiative and disordered_by_hold_the_line without
// difficult terrain or Hold the Line at any point, and what only Overwatch
// reads (overwatch, weapon_choice, pistol_pair) where the defender has no
// weapons to fire it with at any point. Values that could not be read wait
// for their own errors.
func (q *assaultSpec) checkUnread(d *scenarios.Decoder) {
	if d.FailedWithin(q.node) && (q.partial || !allRead(q.chargedAt, len(q.charged.Values())) ||
		!allRead(q.at["difficult_terrain"], len(q.terrain.Values())) || !allRead(q.at["hold_the_line"], len(q.held.Values())) ||
		slices.ContainsFunc(q.defender.Values(), func(u *unitSpec) bool { return d.FailedWithin(u.node) })) {
		return
	}
	// A charge at a distance beyond max_charge at every point is declared
	// at none (declarable); max_charge is what says so.
	charged := slices.Contains(q.charged.Values(), true)
	charges := charged && q.declarable()
	distant := slices.ContainsFunc(q.distance.Values(), func(v int) bool { return v > 0 })
	rolls := charges && distant
	weapons := slices.ContainsFunc(q.defender.Values(), func(u *unitSpec) bool { return len(u.weapons) > 0 })
	armed := charges && weapons
	multiplies := slices.ContainsFunc(slices.Concat(q.attacker.Values(), q.defender.Values()), (*unitSpec).multiplies)
	unread := map[string]string{
		"strength_multiplier":         "no weapon multiplies its wielder's Strength (S: x2) at any point, the only Strength it orders",
		"charge_bonus_attacks":        "no point charges (charged: true, and a distance within max_charge), the only time its Attacks are made",
		"charge_dice":                 "no point rolls a charge (charged: true and a distance within max_charge), the only roll it changes",
		"max_charge":                  "no point rolls a charge or fires Overwatch at one, the only things it limits",
		"terrain_charge_initiative":   "no point charges through difficult terrain (difficult_terrain: true) at a defender that is not Stupefied, the only charge it slows",
		"disordered_by_hold_the_line": "no point has the defender Hold the Line (hold_the_line: true), the only Reaction it weighs",
		"overwatch":                   "the defender has no weapons to fire Overwatch with at any point that charges",
		"weapon_choice":               "the defender has no weapons to fire Overwatch with at any point that charges, its only Shooting Attack",
		"pistol_pair":                 "the defender has no weapons to fire Overwatch with at any point that charges, its only Shooting Attack",
		"gets_hot_reroll":             "the defender has no Template that Gets Hot and that it may re-roll To Hit rolls with (Twin-linked, or BS 6 and above) to fire Overwatch with at any point that charges, the only weapon whose Gets Hot roll it re-rolls there",
	}
	read := map[string]bool{
		"strength_multiplier":         multiplies,
		"charge_bonus_attacks":        charges,
		"charge_dice":                 rolls,
		"max_charge":                  charged && (distant || weapons),
		"terrain_charge_initiative":   slices.Contains(q.terrain.Values(), true) && !q.alwaysStupefied(),
		"disordered_by_hold_the_line": slices.Contains(q.held.Values(), true),
		"overwatch":                   armed,
		"weapon_choice":               armed,
		"pistol_pair":                 armed,
		"gets_hot_reroll":             armed && slices.ContainsFunc(q.defender.Values(), func(u *unitSpec) bool { return u.hotRerolled(false) }),
	}
	var refused []*scenarios.Node
	msgs := map[*scenarios.Node]string{}
	for key, why := range unread {
		if n, set := q.opts.where[key]; set && !read[key] {
			refused, msgs[n] = append(refused, n), key+": "+why+"; remove it"
		}
	}
	// In the order written.
	slices.SortFunc(refused, func(a, b *scenarios.Node) int { return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col)) })
	for _, n := range refused {
		d.Errorf(n, "%s", msgs[n])
	}
}

// alwaysStupefied says whether the defender is Stupefied at every point of
// the assault, every value of stupefied having been read (and none refused
// for a unit that cannot become Stupefied).
func (q *assaultSpec) alwaysStupefied() bool {
	return !q.unfit && !slices.ContainsFunc(q.stupefied.Values(), func(st string) bool { return !stupefiedUnits[st][1] }) &&
		allRead(q.stupefyAt, len(q.stupefied.Values()))
}

// assaultProbabilities are the assault metrics that are probabilities.
var assaultProbabilities = []string{metricReached, metricDisordered, metricWon, metricMorale, metricSwept, metricDestroyed}

// idle says which of the charge's metrics cannot vary in a question, and
// why: reached needs a charge rolled, overwatch_casualties defender
// weapons, overwatch_gets_hot a defender weapon with Gets Hot.
func (q *assaultSpec) idle() map[string]string {
	why := map[string]string{}
	if !slices.ContainsFunc(q.distance.Values(), func(v int) bool { return v > 0 }) {
		why[metricReached] = "needs a distance (the charge rolled)"
	}
	if !slices.ContainsFunc(q.defender.Values(), func(u *unitSpec) bool { return len(u.weapons) > 0 }) {
		why[metricOverwatch] = "needs defender weapons (to fire Overwatch)"
	}
	getsHot := func(w *weaponSpec) bool {
		return slices.ContainsFunc(w.rules, func(p scenarios.Param[scenarios.RuleChoice]) bool {
			return p.Values()[0].Rule.Spec.Name == rules.RuleGetsHot
		})
	}
	if !slices.ContainsFunc(q.defender.Values(), func(u *unitSpec) bool { return slices.ContainsFunc(u.weapons, getsHot) }) {
		why[metricOverHot] = "needs a defender weapon with Gets Hot (fired in Overwatch)"
	}
	// A charge is Disordered by a charger Stupefied before it or during
	// it, or by Hold the Line.
	chargerStupefied := slices.ContainsFunc(q.stupefied.Values(), func(st string) bool {
		return stupefiedUnits[st][0] || st == stupefiedAfterOverwatch
	})
	if !chargerStupefied && !slices.Contains(q.held.Values(), true) {
		why[metricDisordered] = "needs a charger that is or becomes Stupefied (stupefied: attacker, both or attacker_after_overwatch) or hold_the_line: true"
	}
	// A Damage Mitigation roll is Feel No Pain's or the Stupefied roll
	// (mechanics/heresy: Mitigation); an assault has no Evade.
	feelNoPain := func(u *unitSpec) bool { return u.mayHave(rules.RuleFeelNoPain) }
	anyStupefied := slices.ContainsFunc(q.stupefied.Values(), func(st string) bool { return st != "none" })
	if !anyStupefied && !slices.ContainsFunc(q.attacker.Values(), feelNoPain) && !slices.ContainsFunc(q.defender.Values(), feelNoPain) {
		why[metricMitigated] = "needs a Damage Mitigation roll: Feel No Pain on a unit, or a unit Stupefied"
	}
	return why
}

func (q *assaultSpec) compile(d *scenarios.Decoder, axes scenarios.Axes) scenarios.Compiled {
	if !specsReady(q.attacker, q.defender) || !q.charged.Set() || !q.terrain.Set() || !q.held.Set() ||
		!q.distance.Set() || !q.bonus.Set() || !q.stupefied.Set() {
		return scenarios.Compiled{}
	}
	why := q.idle()
	work := exactWork{left: rules.MaxScenarioExactWork}
	models, group, ok := axes.Groups(func(pt scenarios.Point) (sim.Model, bool) {
		if d.Stopped() {
			return nil, false
		}
		a, okA := q.attacker.At(pt).at(d, pt)
		b, okB := q.defender.At(pt).at(d, pt)
		if !okA || !okB {
			return nil, false
		}
		m := q.model(a, b, pt)
		m.exact = rules.ExactAssaultWithin(&m.AssaultExchange, work.budget())
		if !m.exact[0].OverBudget {
			work.spend(rules.AssaultExactWork(&m.AssaultExchange))
		}
		return m, true
	})
	if !ok {
		return scenarios.Compiled{}
	}
	var c scenarios.Compiled
	c.Models = models
	c.Idle = idleOf(assaultMetrics, why)
	pricedAttacker := priced(q.attacker)
	if !pricedAttacker {
		c.Absent = per100Absent("attacker")
	}
	c.Grid = q.grid.check(d, axes, why, c.Absent)
	c.Results = func(run sim.Run) []sim.Estimate {
		// At most one a unit, metric and point (as shooting's).
		out := make([]sim.Estimate, 0, (2*len(assaultMetrics)+1)*axes.Len())
		for _, mt := range assaultMetrics {
			axes.Each(func(pt scenarios.Point) {
				g := group(pt)
				m := models[g].(*assaultModel)
				for i := range 2 {
					if i == 1 && slices.Contains(chargeMetrics, mt) || i == 0 && slices.Contains(defenderMetrics, mt) {
						continue
					}
					out = append(out, m.estimate(mt, i, withParam(axes.Params(pt), "unit", m.names[i]), run.Tallies[g], run.Completed[g]))
				}
			})
			if mt != metricCasualties || !pricedAttacker {
				continue
			}
			// The attacker's points efficiency, after the casualties it
			// scales, where the attacker has a price: the defender's
			// models lost.
			axes.Each(func(pt scenarios.Point) {
				if pts := q.attacker.At(pt).pointsAt(pt); pts > 0 {
					g, ps := group(pt), axes.Params(pt)
					m := models[g].(*assaultModel)
					e := m.estimate(mt, 1, withParam(ps, "unit", m.names[1]), run.Tallies[g], run.Completed[g])
					out = append(out, per100(e, ps, pts, "defender's models lost per 100 attacker points"))
				}
			})
		}
		return out
	}
	return c
}

// model builds the point's model from its units.
func (q *assaultSpec) model(a, b *unit, pt scenarios.Point) *assaultModel {
	o := q.opts.options(pt)
	m := &assaultModel{
		AssaultExchange: rules.AssaultExchange{
			Units:   [2]rules.Unit{a.unit, b.unit},
			Weapons: [2]rules.Weapon{a.melee, b.melee},
			Charged: q.charged.At(pt), DifficultTerrain: q.terrain.At(pt),
			Distance: q.distance.At(pt), Bonus: q.bonus.At(pt),
			OverwatchWeapons:      b.weapons,
			StupefyAfterOverwatch: q.stupefied.At(pt) == stupefiedAfterOverwatch,
			Options:               o,
		},
		names:     [2]string{a.spec.name, b.spec.name},
		stupefied: stupefiedUnits[q.stupefied.At(pt)],
		held:      q.held.At(pt),
	}
	for i, on := range m.stupefied {
		if on {
			m.Units[i].Stupefy(false, o)
		}
	}
	// A unit makes one Reaction in a phase: Hold the Line, not Overwatch.
	if m.held {
		m.OverwatchWeapons = nil
	}
	m.Disordered = rules.ChargeDisordered(&m.Units[0], m.held && m.Units[1].CanReact(rules.HoldTheLine), 1, o) && !m.Units[0].IsStupefied()
	return m
}

// noOverwatch says why the defender fires Overwatch at no point of the
// sweep, "" where it may at some: Overwatch off, no charge, no charge
// within max_charge, Hold the Line (its one Reaction) or a Stupefied
// defender (which makes none), at every point. The keys are swept
// independently, so one value of each that allows it meets the others at
// some point. Where a value it weighs could not be read, it says nothing:
// that value may be the one that allows it.
func (q *assaultSpec) noOverwatch() string {
	switch {
	case !allRead(q.opts.where["overwatch"], len(q.opts.values("overwatch"))) || !allRead(q.chargedAt, len(q.charged.Values())) ||
		!allRead(q.at["hold_the_line"], len(q.held.Values())) || !allRead(q.stupefyAt, len(q.stupefied.Values())):
		// A value not read may be the one that allows it.
	case !slices.Contains(q.opts.values("overwatch"), any(true)):
		return "the defender's weapons are fired only in Overwatch; set options: {overwatch: true}, or remove them"
	case !slices.Contains(q.charged.Values(), true):
		return "the defender's weapons are fired only in Overwatch at a charge, and charged: false makes none; remove them, or set charged: true"
	case !q.declarable():
		return "the defender's weapons are fired only in Overwatch at a charge, and a distance beyond max_charge at every point is charged at no point; remove them"
	case !slices.Contains(q.held.Values(), false):
		return "the defender's weapons are fired only in Overwatch, and hold_the_line: true takes the one Reaction it has; remove them"
	case !slices.ContainsFunc(q.stupefied.Values(), func(st string) bool { return !stupefiedUnits[st][1] }):
		return "the defender's weapons are fired only in Overwatch, and a Stupefied defender makes no Reaction; remove them"
	}
	return ""
}

// where is the value of key as written, or the assault's mapping where it
// is not.
func (q *assaultSpec) where(key string) *scenarios.Node {
	if key == "charged" && q.chargedAt != nil {
		return q.chargedAt
	}
	if n, ok := q.at[key]; ok {
		return n
	}
	return q.node
}

// allRead reports whether every value written at n (nil: none written)
// was read: count of them, one a list item.
func allRead(n *scenarios.Node, count int) bool {
	switch {
	case n == nil:
		return true
	case n.Kind == scenarios.SeqNode:
		return count == len(n.Items)
	}
	return count > 0
}

// declarable reports whether a charge is declared at some point of the
// sweep: its distance (0: no roll, it reaches) within max_charge, or no
// maximum (rules.CanDeclareCharge).
func (q *assaultSpec) declarable() bool {
	maxes := q.opts.values("max_charge")
	if q.partial || len(maxes) == 0 || len(q.distance.Values()) == 0 {
		return true
	}
	for _, d := range q.distance.Values() {
		for _, m := range maxes {
			if m, ok := m.(int); !ok || m <= 0 || d <= m {
				return true
			}
		}
	}
	return false
}

// check reports the combinations of the assault's values that cannot be
// played, as the question is read. The keys are swept independently of
// each other (and a unit's rules of its other keys), so two values that
// cannot meet always meet at some point.
func (q *assaultSpec) check(d *scenarios.Decoder) {
	q.partial = d.FailedWithin(q.at["distance"]) || d.FailedWithin(q.opts.where["max_charge"])
	q.checkUnits(d)
	q.checkCharge(d)
	q.checkStupefied(d)
}

// checkUnits reports units that cannot take their parts: an attacker and
// a defender of one name, defender weapons no point fires, and Automated
// Artillery that charges.
func (q *assaultSpec) checkUnits(d *scenarios.Decoder) {
	for _, b := range q.defender.Values() {
		for _, a := range q.attacker.Values() {
			if a.name == b.name {
				d.Errorf(b.node, "attacker and defender are both named %q; results tell the units apart by name", a.name)
			}
		}
		if len(b.weapons) == 0 {
			continue
		}
		why := q.noOverwatch()
		if why == "" && !b.mayLack(rules.RuleAutomatedArtillery) {
			why = "the defender's weapons are fired only in Overwatch, which Automated Artillery may not make (its one Reaction is Interceptor); remove them"
		}
		switch card, changed, used := b.node.CardKey("weapons"); {
		case why == "":
		case used && card != nil && !changed:
			// The card holds them for the questions that fire them; this
			// one never does.
			b.weapons = nil
		default:
			d.Errorf(b.node, "%s", why)
		}
	}
	for _, a := range q.attacker.Values() {
		if slices.Contains(q.charged.Values(), true) && a.mayHave(rules.RuleAutomatedArtillery) {
			at := a.node
			if q.chargedAt != nil {
				at = q.chargedAt
			}
			d.Errorf(at, "attacker %q is Automated Artillery, which may not charge; set charged: false to have it fight without charging", a.name)
		}
	}
}

// checkCharge reports what is about a charge where no point charges (or
// rolls one), and Hold the Line from a defender that can make no Reaction.
func (q *assaultSpec) checkCharge(d *scenarios.Decoder) {
	stands := slices.Contains(q.charged.Values(), false)
	if stands && slices.Contains(q.terrain.Values(), true) {
		d.Errorf(q.where("difficult_terrain"), "difficult_terrain: true needs charged: true (it is the attacker's charge that crosses it)")
	}
	if stands {
		// Only the keys written with a value about a charge are named.
		var keys []string
		if slices.ContainsFunc(q.distance.Values(), func(v int) bool { return v > 0 }) {
			keys = append(keys, "distance")
		}
		if slices.Contains(q.held.Values(), true) {
			keys = append(keys, "hold_the_line")
		}
		switch len(keys) {
		case 1:
			d.Errorf(q.where("charged"), "%s needs charged: true (it is about the attacker's charge)", keys[0])
		case 2:
			d.Errorf(q.where("charged"), "distance and hold_the_line need charged: true (they are about the attacker's charge)")
		}
	}
	// What only a charge reads, where no point has one, would be read by
	// nothing.
	never := !slices.Contains(q.charged.Values(), true)
	rolls := slices.ContainsFunc(q.distance.Values(), func(v int) bool { return v > 0 })
	if slices.ContainsFunc(q.bonus.Values(), func(v int) bool { return v > 0 }) && (never || !rolls || !q.declarable()) && !q.partial && allRead(q.chargedAt, len(q.charged.Values())) {
		d.Errorf(q.where("charge_bonus"), "charge_bonus needs a charge roll: charged: true and a distance within max_charge (without a distance the charge reaches, and no roll is made; beyond max_charge no charge is declared)")
	}
	// Hold the Line from a defender that makes no Reaction at any point of
	// the sweep (where some points may react, the others simply do not).
	if slices.Contains(q.held.Values(), true) && !slices.Contains(q.held.Values(), false) && allRead(q.at["hold_the_line"], len(q.held.Values())) {
		if !q.declarable() {
			d.Errorf(q.where("hold_the_line"), "hold_the_line: true, but a distance beyond max_charge at every point is charged at no point, so no Reaction is made")
		}
		if !slices.ContainsFunc(q.defender.Values(), func(u *unitSpec) bool { return !u.mayHave(rules.RuleAutomatedArtillery) }) {
			d.Errorf(q.where("hold_the_line"), "hold_the_line: true, but the defender is Automated Artillery, whose one Reaction is Interceptor")
		}
		if q.alwaysStupefied() {
			d.Errorf(q.stupefyAt, "hold_the_line: true with a Stupefied defender, which makes no Reaction")
		}
	}
}

// checkStupefied reports who is Stupefied where that cannot be: a unit
// without Lords of Profligacy, Difficult Terrain that no point reads
// against a Stupefied defender, and Stupefied after an Overwatch that is
// not fired.
func (q *assaultSpec) checkStupefied(d *scenarios.Decoder) {
	lacks := func(units scenarios.Param[*unitSpec]) bool {
		return slices.ContainsFunc(units.Values(), func(u *unitSpec) bool { return u.mayLack(rules.RuleLordsOfProfligacy) })
	}
	for _, st := range q.stupefied.Values() {
		who := stupefiedUnits[st]
		if st == stupefiedAfterOverwatch {
			who[0] = true
		}
		if who[0] && lacks(q.attacker) || who[1] && lacks(q.defender) {
			d.Errorf(q.stupefyAt, "stupefied: %s, but a unit without Lords of Profligacy cannot become Stupefied", st)
			q.unfit = true
		}
	}
	// Difficult Terrain against a defender Stupefied at every point: a
	// charge at a Stupefied unit keeps its Initiative, the terrain's one
	// effect here.
	stands := slices.Contains(q.charged.Values(), false)
	if !stands && slices.Contains(q.terrain.Values(), true) && q.alwaysStupefied() && allRead(q.at["difficult_terrain"], len(q.terrain.Values())) {
		d.Errorf(q.where("difficult_terrain"), "difficult_terrain: true with a Stupefied defender at every point, whose chargers keep their Initiative through Difficult Terrain (Lords of Profligacy); remove it")
	}
	if slices.Contains(q.stupefied.Values(), stupefiedAfterOverwatch) {
		// The charger becomes Stupefied after the Overwatch fired at it, so
		// every point must have a charge met by Overwatch.
		unarmed := slices.ContainsFunc(q.defender.Values(), func(u *unitSpec) bool { return len(u.weapons) == 0 })
		artillery := slices.ContainsFunc(q.defender.Values(), func(u *unitSpec) bool { return u.mayHave(rules.RuleAutomatedArtillery) })
		switch {
		case slices.Contains(q.charged.Values(), false):
			d.Errorf(q.stupefyAt, "stupefied: %s needs charged: true (it is the charge that Overwatch meets)", stupefiedAfterOverwatch)
		case slices.Contains(q.opts.values("overwatch"), any(false)) || unarmed || slices.Contains(q.held.Values(), true) || artillery:
			d.Errorf(q.stupefyAt, "stupefied: %s needs Overwatch fired at the charge: options: {overwatch: true}, defender weapons, no hold_the_line, and a defender that may make Overwatch (not Automated Artillery)", stupefiedAfterOverwatch)
		}
	}
}

// assaultModel is one point of an assault question: the exchange, the
// units' names, who is Stupefied, and its exact values.
type assaultModel struct {
	rules.AssaultExchange
	names     [2]string
	stupefied [2]bool
	held      bool
	exact     [2]rules.AssaultExact
}

func (m *assaultModel) Slots() []sim.Slot {
	out := make([]sim.Slot, assaultSlots)
	for i := range 2 {
		s := out[i*sideSlots : (i+1)*sideSlots]
		mb := m.exact[i].MaxBlows * max(m.Weapons[1-i].Brutal, 1)
		s[sideHits] = sim.Slot{Name: m.names[i] + " " + metricHits, Hi: mb}
		s[sideWounds] = sim.Slot{Name: m.names[i] + " " + metricWounds, Hi: mb}
		s[sideUnsaved] = sim.Slot{Name: m.names[i] + " " + metricUnsaved, Hi: mb}
		s[sideMitigated] = sim.Slot{Name: m.names[i] + " " + metricMitigated, Hi: mb}
		s[sideCasualties] = sim.Slot{Name: m.names[i] + " " + metricCasualties, Hi: max(m.Units[i].Models, 0)}
		s[sideWon] = sim.Slot{Name: m.names[i] + " " + metricWon, Hi: 1}
		s[sideMorale] = sim.Slot{Name: m.names[i] + " " + metricMorale, Hi: 1}
		s[sideSwept] = sim.Slot{Name: m.names[i] + " " + metricSwept, Hi: 1}
		s[sideDestroyed] = sim.Slot{Name: m.names[i] + " " + metricDestroyed, Hi: 1}
	}
	out[chargeReached] = sim.Slot{Name: metricReached, Hi: 1}
	out[chargeDisordered] = sim.Slot{Name: metricDisordered, Hi: 1}
	out[chargeOverwatch] = sim.Slot{Name: metricOverwatch, Hi: max(m.Units[0].Models, 0)}
	out[chargeOverHot] = sim.Slot{Name: metricOverHot, Hi: m.exact[1].MaxHot}
	return out
}

func (m *assaultModel) NewTrial() sim.Trial {
	t := &assaultTrial{m: m}
	if m.Overwatches() {
		t.ow.PrepareAt(&m.Units[1], m.OverwatchWeapons, &m.Units[0], m.OverwatchSituation(), m.Options)
	}
	return t
}

// assaultTrial owns the prepared Overwatch attack.
type assaultTrial struct {
	m  *assaultModel
	ow rules.Attack
}

func (t *assaultTrial) Run(r *dice.Rand, n int, tally *sim.Tally) {
	m := t.m
	rolled := m.Charged && (m.Distance > 0 || m.Overwatches())
	for range n {
		u := m.Units
		a, b := m.Sides(&u[0], &u[1])
		var res rules.ChargeResult
		if rolled {
			res = rules.Charge(r, a, b, &t.ow, m.Distance, m.Bonus, m.Options)
		} else {
			res = rules.ChargeResult{Reached: m.Charged, Disordered: a.Disorderly(), Combat: rules.Fight(r, a, b, m.Options)}
		}
		h := tally.H
		h[chargeReached].Add(b2i(res.Reached))
		h[chargeDisordered].Add(b2i(res.Reached && res.Disordered))
		h[chargeOverwatch].Add(res.Overwatch.Casualties)
		h[chargeOverHot].Add(res.Overwatch.Hot)
		for i := range 2 {
			s := h[i*sideSlots : (i+1)*sideSlots]
			got := res.Combat.Inflicted[1-i]
			s[sideHits].Add(got.Hits)
			s[sideWounds].Add(got.Wounds)
			s[sideUnsaved].Add(got.Unsaved)
			s[sideMitigated].Add(got.Unsaved - got.Suffered)
			s[sideCasualties].Add(got.Casualties)
			won := res.Reached || !m.Charged
			s[sideWon].Add(b2i(won && res.Combat.Winner == i))
			lost := won && res.Combat.Winner == 1-i
			s[sideMorale].Add(b2i(lost && res.Combat.FellBack))
			s[sideSwept].Add(b2i(lost && res.Combat.Swept))
			s[sideDestroyed].Add(b2i(u[i].Destroyed()))
		}
	}
}

// estimate reads metric for unit i from the tally.
func (m *assaultModel) estimate(metric string, i int, ps []sim.Param, t *sim.Tally, n int64) sim.Estimate {
	e := m.estimateWithExact(metric, i, ps, t, n).AtLeast(0) // every average is a count
	e.Title = takenTitles[metric]
	if m.exact[i].OverBudget {
		return e.WithoutExact() // rules.MaxExactWork
	}
	return e
}

// takenTitles are the readers' names of the per-unit metrics that count
// the enemy's blows on the unit: beside a unit's name, "hits" or
// "casualties" would read as what the unit did. "wounds" are the hits
// that wounded, before saves.
var takenTitles = map[string]string{
	metricHits:       "hits taken",
	metricWounds:     "wounding hits taken",
	metricUnsaved:    "unsaved wounds taken",
	metricMitigated:  "wounds mitigated",
	metricCasualties: "models lost",
}

func (m *assaultModel) estimateWithExact(metric string, i int, ps []sim.Param, t *sim.Tally, n int64) sim.Estimate {
	ex := &m.exact[i]
	h := t.H[i*sideSlots : (i+1)*sideSlots]
	mean := func(slot int, v float64) sim.Estimate { return sim.MeanOf(metric, ps, &h[slot]).WithExact(v) }
	// spread is mean with the exact spread its mean square v2 gives.
	spread := func(slot int, v, v2 float64) sim.Estimate {
		return mean(slot, v).WithExactSD(math.Sqrt(max(v2-v*v, 0)))
	}
	prob := func(slot int, v float64) sim.Estimate {
		return sim.ProbabilityOf(metric, ps, h[slot].Count(1), n).WithExact(clamp01(v))
	}
	switch metric {
	case metricReached:
		return sim.ProbabilityOf(metric, ps, t.H[chargeReached].Count(1), n).WithExact(clamp01(ex.Reached))
	case metricDisordered:
		return sim.ProbabilityOf(metric, ps, t.H[chargeDisordered].Count(1), n).WithExact(clamp01(ex.Disordered))
	case metricOverwatch:
		d := ex.OverwatchDist
		return sim.MeanOf(metric, ps, &t.H[chargeOverwatch]).WithExactPMF(sim.PMF{Min: d.Min, P: d.P}).WithExact(ex.Overwatch)
	case metricOverHot:
		return sim.MeanOf(metric, ps, &t.H[chargeOverHot]).WithExact(ex.OverwatchHot).WithExactSD(math.Sqrt(max(ex.OverwatchHot2-ex.OverwatchHot*ex.OverwatchHot, 0)))
	case metricHits:
		return spread(sideHits, ex.Hits, ex.Hits2)
	case metricWounds:
		return spread(sideWounds, ex.Wounds, ex.Wounds2)
	case metricUnsaved:
		return spread(sideUnsaved, ex.Unsaved, ex.Unsaved2)
	case metricMitigated:
		return spread(sideMitigated, ex.Mitigated, ex.Mitigated2)
	case metricCasualties:
		return spread(sideCasualties, ex.Casualties, ex.Casualties2)
	case metricWon:
		return prob(sideWon, ex.Won)
	case metricMorale:
		return prob(sideMorale, ex.Morale)
	case metricSwept:
		return prob(sideSwept, ex.Swept)
	case metricDestroyed:
		return prob(sideDestroyed, ex.Destroyed)
	}
	panic("scenarios/heresy: unknown assault metric " + metric)
}

// exactWork is what is left of a scenario's exact-work budget
// (rules.MaxScenarioExactWork) as its points are worked out in order.
type exactWork struct{ left float64 }

// budget is the most work the next point's exact values may take: what is
// left, and no more than a point's own bound.
func (w *exactWork) budget() float64 { return min(w.left, rules.MaxExactWork) }

// spend takes a point's work off what is left.
func (w *exactWork) spend(steps float64) { w.left -= steps }
