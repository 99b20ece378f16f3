package heresy

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	rules "hammersim/mechanics/heresy"
	"hammersim/scenarios"
	"hammersim/sim"
)

// The shooting question: one Shooting Attack by a firer at a target, the
// Reaction the target makes, the tests the attack forces, and the
// target's own next Shooting Attack.
//
//	shooting:
//	  firer:  {name: ..., models: 10, WS: 4, ..., weapons: [{name: bolter, type: Rapid Fire, range: 24, S: 4, AP: 5}]}
//	  target: {name: ..., models: 10, ..., rules: [Lords of Profligacy]}
//	  distance: 12                               # inches; range and half range
//	  moved: false                               # the firer moved this turn
//	  stupefied: [never, always, when_it_pays]   # the target's choice
//	  reaction: none                             # none, return_fire or evade
//	  pinning: false                             # the attack forces a Pinning test
//	  options: {morale_check: quarter, ...}
//	  metrics: [casualties, destroyed]
//
// A trial, in order:
//  1. The target is Stupefied or not, as its stupefied policy chose after
//     an earlier Shooting Attack against it (Lords of Profligacy lets it
//     choose only then); when_it_pays chooses with rules.StupefyChooser,
//     by exact expectations, so the choice is the same in every trial.
//  2. The target's Reaction, declared before the firer's To Hit rolls, if
//     it may make one (not Stupefied, Pinned or Falling Back; Fearless
//     units make no Evade): Return Fire shoots the firer, counting as
//     stationary, and by default the firer's models it removes do not
//     shoot; its Gets Hot wounds go onto the target; Evade gives the
//     target a Shrouded roll against the attack.
//  3. The firer's models fire their weapons at distance (Firing Protocols
//     and the weapon types pick them); wounds go onto the target. A target
//     its own Return Fire destroyed is not shot at.
//  4. If models are left: with pinning, a Pinning test as the attack ends
//     if it took an unsaved wound; then, at the end of the phase, a Morale
//     check when it lost a quarter or more of them in the phase, to the
//     attack and to its own Gets Hot wounds (morale_check), Falling Back
//     on a failure, Pinned or not; both at -X Ld for the firer's Fear (X)
//     within 12". Fearless and Stupefied pass both without rolling. A target wounded by a
//     Concussive weapon takes its Leadership test.
//  5. The target's own next Shooting Attack at the firer as Return Fire
//     and its own Gets Hot wounds left it (none at a firer they
//     destroyed): Snap Shots while Stupefied, and after Falling Back or
//     being Pinned as broken_return_fire says. Its Gets Hot wounds are
//     counted.

// Shooting metrics, in the order reported by default.
const (
	metricHits           = "hits"
	metricWounds         = "wounds"
	metricUnsaved        = "unsaved_wounds"
	metricMitigated      = "mitigated"
	metricCasualties     = "casualties"
	metricDestroyed      = "destroyed"
	metricMorale         = "morale_failed"
	metricPinned         = "pinned"
	metricConcussed      = "concussed"
	metricReacted        = "reacted"
	metricReturnFire     = "return_fire_casualties"
	metricReturnFireHot  = "return_fire_gets_hot"
	metricNextAttack     = "next_attack_casualties"
	metricNextAttackHot  = "next_attack_gets_hot"
	metricGetsHot        = "gets_hot"
	metricChoseStupefied = "chose_stupefied"
)

var shootingMetrics = []string{metricHits, metricWounds, metricUnsaved, metricMitigated, metricCasualties, metricDestroyed,
	metricMorale, metricPinned, metricConcussed, metricReacted, metricReturnFire, metricReturnFireHot, metricNextAttack,
	metricNextAttackHot, metricGetsHot, metricChoseStupefied}

// shootingProbabilities are the shooting metrics that are probabilities.
var shootingProbabilities = []string{metricDestroyed, metricMorale, metricPinned, metricConcussed, metricReacted, metricChoseStupefied}

// Slots of a shooting model's tally, one per metric, in shootingMetrics'
// order.
const (
	slotHits = iota
	slotWounds
	slotUnsaved
	slotMitigated
	slotCasualties
	slotDestroyed
	slotMorale
	slotPinned
	slotConcussed
	slotReacted
	slotReturnFire
	slotReturnFireHot
	slotNextAttack
	slotNextAttackHot
	slotGetsHot
	slotStupefied
	shootingSlots
)

// Reactions a target may be set to make.
const (
	reactNone       = "none"
	reactReturnFire = "return_fire"
	reactEvade      = "evade"
)

var shootingOptions = []option{
	{key: "cap_bs_at_7", boolean: true, def: rules.DefaultOptions.CapBSAt7},
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
	// When a Shooting Attack forces a Morale check is not in the texts:
	// "quarter" is the usual trigger (a quarter or more of the models the
	// unit had when the attack began), "never" takes none. OPEN.
	{key: "morale_check", words: []string{"quarter", "never"}, def: "quarter"},
	// How a unit that Fell Back or is Pinned makes its next Shooting Attack
	// is not in the texts: "snap_shots" (at BS 1), or "none". OPEN.
	{key: "broken_return_fire", words: []string{"snap_shots", "none"}, def: "snap_shots"},
	// Whether a wound a Damage Mitigation roll ignores still forces the
	// Pinning test is not in the texts: "unsaved" (it does: the test
	// follows an unsaved wound, and the roll comes after the save, as for
	// Deflagrate), or "suffered" (only wounds no roll ignored). OPEN.
	{key: "pinning_wounds", words: []string{"unsaved", "suffered"}, def: "unsaved"},
	{key: "poisoned_replaces_chart", boolean: true, def: rules.DefaultOptions.PoisonedReplacesChart},
	{key: "blast_hits_3", lo: 1, hi: 50, def: rules.DefaultOptions.BlastHits[0]},
	{key: "blast_hits_5", lo: 1, hi: 50, def: rules.DefaultOptions.BlastHits[1]},
	{key: "blast_hits_7", lo: 1, hi: 50, def: rules.DefaultOptions.BlastHits[2]},
	{key: "blast_hits_10", lo: 1, hi: 50, def: rules.DefaultOptions.BlastHits[3]},
	{key: "template_hits", lo: 1, hi: 50, def: rules.DefaultOptions.TemplateHits},
	{key: "return_fire_after_casualties", boolean: true, def: rules.DefaultOptions.ReturnFireAfterCasualties},
	{key: "evade_save", lo: 2, hi: 6, def: rules.DefaultOptions.EvadeSave},
}

var stupefyPolicies = map[string]rules.StupefyPolicy{
	"never":        rules.StupefyNever,
	"always":       rules.StupefyAlways,
	"when_it_pays": rules.StupefyWhenItPays,
}

// shootingSpec is a shooting question as written.
type shootingSpec struct {
	firer, target  scenarios.Param[*unitSpec]
	policy         scenarios.Param[string]
	policyAt       *scenarios.Node
	reaction       scenarios.Param[string]
	reactionAt     *scenarios.Node
	pinning, moved scenarios.Param[bool]
	movedAt        *scenarios.Node
	distance       scenarios.Param[int]
	distanceAt     *scenarios.Node
	opts           *optionValues
	grid           *gridSpec
}

func decodeShooting(d *scenarios.Decoder, n *scenarios.Node) scenarios.Compile {
	q := &shootingSpec{
		policy: scenarios.Fixed("never"), policyAt: n, reaction: scenarios.Fixed(reactNone),
		pinning: scenarios.Fixed(false), moved: scenarios.Fixed(false), distance: scenarios.Fixed(0),
		opts: decodeOptions(d, nil, shootingOptions),
	}
	d.Object(n, "the shooting question", []scenarios.Field{
		{Key: "firer", Required: true, Decode: func(n *scenarios.Node) { q.firer = unitParam(d, n, "firer", roleFirer) }},
		{Key: "target", Required: true, Decode: func(n *scenarios.Node) { q.target = unitParam(d, n, "target", roleTarget) }},
		{Key: "distance", Decode: func(n *scenarios.Node) {
			q.distanceAt = n
			q.distance = scenarios.Sweep(d, n, "distance", true, func(n *scenarios.Node) (int, bool) { return d.IntIn(n, "distance (inches)", 1, 240) }, scenarios.Identity)
		}},
		{Key: "moved", Decode: func(n *scenarios.Node) {
			q.movedAt = n
			q.moved = scenarios.Sweep(d, n, "moved", false, func(n *scenarios.Node) (bool, bool) { return d.Boolean(n, "moved") }, scenarios.Identity)
		}},
		{Key: "stupefied", Decode: func(n *scenarios.Node) {
			q.policyAt = n
			q.policy = wordsParam(d, n, "stupefied", "the Stupefied policy", []string{"never", "always", "when_it_pays"})
		}},
		{Key: "reaction", Decode: func(n *scenarios.Node) {
			q.reactionAt = n
			q.reaction = wordsParam(d, n, "reaction", "the target's Reaction", []string{reactNone, reactReturnFire, reactEvade})
		}},
		{Key: "pinning", Decode: func(n *scenarios.Node) {
			q.pinning = scenarios.Sweep(d, n, "pinning", false, func(n *scenarios.Node) (bool, bool) { return d.Boolean(n, "pinning") }, scenarios.Identity)
		}},
		{Key: "options", Decode: func(n *scenarios.Node) { q.opts = decodeOptions(d, n, shootingOptions) }},
		{Key: "grid", Decode: func(n *scenarios.Node) { q.grid = decodeGrid(d, n, shootingProbabilities) }},
	})
	q.checkStupefy(d)
	q.checkReactions(d)
	q.checkUnread(d)
	q.checkMoved(d)
	q.checkMelta(d)
	q.checkInRange(d)
	refuseSweptPrice(d, q.target, "target", "firer")
	return q.compile
}

// checkReactions refuses a Reaction the target makes at no point of the
// sweep (where some points may make it, the others simply do not): any
// Reaction from a target Stupefied at every point (stupefied: always) or
// from Automated Artillery, whose one Reaction is Interceptor; Evade from
// a Fearless target; Return Fire from a target without weapons. These are
// the bars rules.Unit.CanReact and react apply in a trial, read before it.
func (q *shootingSpec) checkReactions(d *scenarios.Decoder) {
	if q.reactionAt == nil || d.FailedWithin(q.reactionAt) || d.FailedWithin(q.policyAt) {
		return
	}
	targets := q.target.Values()
	for _, t := range targets {
		if t == nil || d.FailedWithin(t.node) {
			return // a rule that could not be read may be the one that bars it
		}
	}
	every := func(f func(*unitSpec) bool) bool {
		return !slices.ContainsFunc(targets, func(t *unitSpec) bool { return !f(t) })
	}
	stupefied := !slices.ContainsFunc(q.policy.Values(), func(p string) bool { return p != "always" })
	artillery := every(func(t *unitSpec) bool { return !t.mayLack(rules.RuleAutomatedArtillery) })
	for _, r := range q.reaction.Values() {
		var why string
		switch {
		case r == reactNone:
			continue
		case stupefied:
			why = "the target is Stupefied at every point (stupefied: always), and a Stupefied unit makes no Reaction"
		case artillery:
			why = "the target is Automated Artillery, whose one Reaction is Interceptor"
		case r == reactEvade && every(func(t *unitSpec) bool { return !t.mayLack(rules.RuleFearless) }):
			why = "the target is Fearless, which makes no Reaction that grants a save (Evade)"
		case r == reactReturnFire && every(func(t *unitSpec) bool { return len(t.weapons) == 0 }):
			why = "the target has no weapons to fire (give it weapons)"
		default:
			continue
		}
		at := q.reactionAt
		if i := slices.IndexFunc(at.Items, func(n *scenarios.Node) bool { return n.Text == r }); i >= 0 {
			at = at.Items[i] // the value in a swept list
		}
		d.Errorf(at, "reaction: %s, but no point of the sweep makes it: %s", r, why)
	}
}

// checkUnread refuses the options no point of the question reads: a
// blast_hits_ option for a marker no weapon has at any point (the
// firer's, or the target's in its Return Fire or next attack), and
// template_hits without a Template weapon, each changing those weapons'
// hits alone; evade_save where the target never Evades,
// return_fire_after_casualties where it never Returns Fire, and
// pinning_wounds where no point has pinning or a Damage Mitigation roll
// that could ignore a wound.
func (q *shootingSpec) checkUnread(d *scenarios.Decoder) {
	blasts, template := map[string]bool{}, false
	for _, u := range slices.Concat(q.firer.Values(), q.target.Values()) {
		if d.FailedWithin(u.node) {
			return // a weapon, rule or range that could not be read may be the marker
		}
		for _, w := range u.weapons {
			b, t := w.markers()
			for size := range b {
				blasts[size] = true
			}
			template = template || t
		}
	}
	// A reaction that could not be read may be the one an option needs.
	reactions := map[string]bool{reactEvade: true, reactReturnFire: true}
	if q.reactionAt == nil || !d.FailedWithin(q.reactionAt) {
		clear(reactions)
		for _, r := range q.reaction.Values() {
			reactions[r] = true
		}
	}
	var refused []*scenarios.Node
	msgs := map[*scenarios.Node]string{}
	for _, o := range shootingOptions {
		n, set := q.opts.where[o.key]
		size, isBlast := strings.CutPrefix(o.key, "blast_hits_")
		switch {
		case !set:
		case isBlast && !blasts[size]:
			refused, msgs[n] = append(refused, n), fmt.Sprintf("%s: no weapon has Blast (%s\"), the only rule it changes; remove it", o.key, size)
		case o.key == "strength_multiplier" && !slices.ContainsFunc(slices.Concat(q.firer.Values(), q.target.Values()), (*unitSpec).multiplies):
			refused, msgs[n] = append(refused, n), "strength_multiplier: no weapon multiplies its wielder's Strength (S: x2) at any point, the only Strength it orders; remove it"
		case o.key == "gets_hot_reroll" && !slices.ContainsFunc(slices.Concat(q.firer.Values(), q.target.Values()), func(u *unitSpec) bool { return u.hotRerolled(true) }):
			refused, msgs[n] = append(refused, n), "gets_hot_reroll: no weapon that Gets Hot and is a Blast or a Template has a firer that may re-roll To Hit rolls (the weapon Twin-linked, or BS 6 and above) at any point, the only weapons whose Gets Hot roll it re-rolls; remove it"
		case o.key == "template_hits" && !template:
			refused, msgs[n] = append(refused, n), "template_hits: no weapon is a Template, the only kind it changes; remove it"
		case o.key == "evade_save" && !reactions[reactEvade]:
			refused, msgs[n] = append(refused, n), "evade_save: the target never Evades (reaction: evade), the only Reaction it changes; remove it"
		case o.key == "pinning_wounds" && !slices.Contains(q.pinning.Values(), true):
			refused, msgs[n] = append(refused, n), "pinning_wounds: no point has pinning: true, the only test it changes; remove it"
		case o.key == "pinning_wounds" && !reactions[reactEvade] && !slices.ContainsFunc(q.target.Values(), func(t *unitSpec) bool { return t.mayHave(rules.RuleFeelNoPain) }):
			// A Stupefied target, whose roll is the other, cannot be Pinned.
			refused, msgs[n] = append(refused, n), "pinning_wounds: the target has no Damage Mitigation roll at any point (Feel No Pain, or Evade's Shrouded roll), which decides the only wounds it tells apart; remove it"
		case o.key == "return_fire_after_casualties" && !reactions[reactReturnFire]:
			refused, msgs[n] = append(refused, n), "return_fire_after_casualties: the target never Returns Fire (reaction: return_fire), the only Reaction it changes; remove it"
		}
	}
	// In the order written.
	slices.SortFunc(refused, func(a, b *scenarios.Node) int { return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col)) })
	for _, n := range refused {
		d.Errorf(n, "%s", msgs[n])
	}
}

// checkMoved refuses moved: true where no weapon of the firer, at any
// point, is Heavy or Ordnance, the only types moving changes: a weapon
// with no type fires whatever its unit did, so the key would be read for
// nothing (a datasheet's weapons written without their types, the likely
// cause).
func (q *shootingSpec) checkMoved(d *scenarios.Decoder) {
	if q.movedAt == nil || !slices.Contains(q.moved.Values(), true) {
		return
	}
	typeless := false
	for _, u := range q.firer.Values() {
		if d.FailedWithin(u.node) {
			return // a weapon that could not be read may be the Heavy one
		}
		for _, w := range u.weapons {
			if w.typ == rules.Heavy || w.typ == rules.Ordnance {
				return
			}
			typeless = typeless || w.typ == rules.Untyped
		}
	}
	if typeless {
		d.Errorf(q.movedAt, "moved: no weapon of the firer is Heavy or Ordnance at any point, the only types moving changes (a weapon with no type fires whatever its unit did); give the weapons their types as printed, such as type: Heavy 1, or remove moved")
		return
	}
	d.Errorf(q.movedAt, "moved: no weapon of the firer is Heavy or Ordnance at any point, the only types moving changes (Assault, Rapid Fire, Pistol and Destroyer weapons fire alike after moving); remove moved")
}

// checkInRange refuses a distance beyond the reach of every weapon of the
// firer at every point: the attack would fire nothing, and every count of
// it read 0. A weapon without a range reaches any distance; a Template,
// its template's.
func (q *shootingSpec) checkInRange(d *scenarios.Decoder) {
	if q.distanceAt == nil || !q.distance.Set() {
		return
	}
	nearest := slices.Min(q.distance.Values())
	farthest := 0
	for _, u := range q.firer.Values() {
		if d.FailedWithin(u.node) {
			return // a weapon that could not be read may reach
		}
		for _, w := range u.weapons {
			_, template := w.markers()
			switch {
			case template:
				farthest = max(farthest, rules.TemplateReach)
			case w.rng == 0:
				return // no range: never out of it
			default:
				farthest = max(farthest, w.rng)
			}
		}
	}
	if farthest > 0 && nearest > farthest {
		d.Errorf(q.distanceAt, "distance: the target is %d\" away or more at every point, beyond every weapon of the firer (the farthest reaches %d\"), so the attack fires nothing; bring the distance within range", nearest, farthest)
	}
}

// checkMelta refuses Armourbane (Melta) on a weapon of either unit, at
// the first such weapon, where it could meet a Dreadnought or Automata
// (its re-roll's targets) and the question gives no distance: half range
// takes one, so the rule would be read for nothing.
func (q *shootingSpec) checkMelta(d *scenarios.Decoder) {
	if slices.ContainsFunc(q.distance.Values(), func(v int) bool { return v > 0 }) {
		return
	}
	for _, pair := range [][2]scenarios.Param[*unitSpec]{{q.firer, q.target}, {q.target, q.firer}} {
		if !slices.ContainsFunc(pair[1].Values(), (*unitSpec).armourbaneTarget) {
			continue
		}
		for _, u := range pair[0].Values() {
			for _, w := range u.weapons {
				if at, ok := w.melta(); ok {
					d.Errorf(at, "weapon %q: Armourbane (Melta) works at half the weapon's range or less, and the question gives no distance to tell; add distance, such as distance: 6", w.name)
					return
				}
			}
		}
	}
}

// checkStupefy reports a Stupefied policy for a target that cannot become
// Stupefied at some point: one without Lords of Profligacy there.
func (q *shootingSpec) checkStupefy(d *scenarios.Decoder) {
	for _, p := range q.policy.Values() {
		if p == "never" {
			continue
		}
		for _, t := range q.target.Values() {
			if t.mayLack(rules.RuleLordsOfProfligacy) {
				d.Errorf(q.policyAt, "stupefied: %s, but target %q cannot become Stupefied: every model needs Lords of Profligacy", p, t.name)
				return
			}
		}
	}
}

// wordsParam reads one of words, or a list of them to sweep.
func wordsParam(d *scenarios.Decoder, n *scenarios.Node, key, what string, words []string) scenarios.Param[string] {
	return scenarios.Sweep(d, n, key, false, func(n *scenarios.Node) (string, bool) {
		s, ok := d.Scalar(n, what+" ("+joinWords(words)+")")
		if ok && !slices.Contains(words, s) {
			d.Errorf(n, "%s %q: expected %s", key, s, joinWords(words))
			return "", false
		}
		return s, ok
	}, scenarios.Identity)
}

func joinWords(words []string) string {
	out := ""
	for i, w := range words {
		switch {
		case i == 0:
		case i == len(words)-1:
			out += " or "
		default:
			out += ", "
		}
		out += w
	}
	return out
}

// idle says which metrics cannot be non-zero in a question, and why:
// pinned needs pinning, concussed a Concussive weapon, gets_hot a Gets Hot
// one (the target's Gets Hot metrics one of the target's), the Reaction's
// metrics a Reaction, the next attack a target with weapons.
// chose_stupefied, fixed by the policy but at when_it_pays points, is idle
// without one.
func (q *shootingSpec) idle() map[string]string {
	why := map[string]string{}
	weaponOf := func(units scenarios.Param[*unitSpec], f func(*weaponSpec) bool) bool {
		return slices.ContainsFunc(units.Values(), func(u *unitSpec) bool { return slices.ContainsFunc(u.weapons, f) })
	}
	anyWeapon := func(f func(*weaponSpec) bool) bool { return weaponOf(q.firer, f) }
	ruleNamed := func(name string) func(*weaponSpec) bool {
		return func(w *weaponSpec) bool {
			return slices.ContainsFunc(w.rules, func(p scenarios.Param[scenarios.RuleChoice]) bool { return p.Values()[0].Rule.Spec.Name == name })
		}
	}
	armed := slices.ContainsFunc(q.target.Values(), func(u *unitSpec) bool { return len(u.weapons) > 0 })
	reacts := slices.ContainsFunc(q.reaction.Values(), func(s string) bool { return s != reactNone })
	if !slices.Contains(q.pinning.Values(), true) {
		why[metricPinned] = "needs pinning: true (the attack forcing a Pinning test)"
	}
	if !anyWeapon(ruleNamed(rules.RuleConcussive)) {
		why[metricConcussed] = "needs a firer weapon with Concussive (X)"
	}
	if !anyWeapon(ruleNamed(rules.RuleGetsHot)) {
		why[metricGetsHot] = "needs a firer weapon with Gets Hot"
	}
	if !reacts {
		why[metricReacted] = "needs a reaction other than none"
	}
	if !armed || !slices.Contains(q.reaction.Values(), reactReturnFire) {
		why[metricReturnFire] = "needs reaction: return_fire and a target with weapons"
	}
	targetHot := weaponOf(q.target, ruleNamed(rules.RuleGetsHot))
	if !targetHot || !slices.Contains(q.reaction.Values(), reactReturnFire) {
		why[metricReturnFireHot] = "needs reaction: return_fire and a target weapon with Gets Hot"
	}
	if !armed {
		why[metricNextAttack] = "needs a target with weapons to shoot with"
	}
	if !targetHot {
		why[metricNextAttackHot] = "needs a target weapon with Gets Hot"
	}
	if !slices.Contains(q.policy.Values(), "when_it_pays") {
		why[metricChoseStupefied] = "needs stupefied: when_it_pays (elsewhere the policy fixes it)"
	}
	// A Damage Mitigation roll is Feel No Pain's, the Stupefied roll or
	// Evade's Shrouded roll (mechanics/heresy: Mitigation).
	mayStupefy := slices.ContainsFunc(q.policy.Values(), func(p string) bool { return p != "never" })
	if !mayStupefy && !slices.Contains(q.reaction.Values(), reactEvade) &&
		!slices.ContainsFunc(q.target.Values(), func(t *unitSpec) bool { return t.mayHave(rules.RuleFeelNoPain) }) {
		why[metricMitigated] = "needs a Damage Mitigation roll: Feel No Pain on the target, a stupefied policy other than never, or reaction: evade"
	}
	return why
}

func (q *shootingSpec) compile(d *scenarios.Decoder, axes scenarios.Axes) scenarios.Compiled {
	if !specsReady(q.firer, q.target) || !q.policy.Set() || !q.pinning.Set() || !q.reaction.Set() || !q.moved.Set() || !q.distance.Set() {
		return scenarios.Compiled{}
	}
	why := q.idle()
	work := exactWork{left: rules.MaxScenarioExactWork}
	models, group, ok := axes.Groups(func(pt scenarios.Point) (sim.Model, bool) {
		if d.Stopped() {
			return nil, false
		}
		f, okF := q.firer.At(pt).at(d, pt)
		t, okT := q.target.At(pt).at(d, pt)
		if !okF || !okT {
			return nil, false
		}
		m := q.model(f, t, pt)
		m.choose(stupefyPolicies[q.policy.At(pt)])
		m.react()
		m.exact = rules.ExactShootingWithin(&m.ShootingExchange, work.budget())
		if !m.exact.OverBudget {
			work.spend(rules.ShootingExactWork(&m.ShootingExchange))
		}
		return m, true
	})
	if !ok {
		return scenarios.Compiled{}
	}
	var c scenarios.Compiled
	c.Models = models
	c.Idle = idleOf(shootingMetrics, why)
	pricedFirer := priced(q.firer)
	if !pricedFirer {
		c.Absent = per100Absent("firer")
	}
	c.Grid = q.grid.check(d, axes, why, c.Absent)
	c.Results = func(run sim.Run) []sim.Estimate {
		// One a metric and point, made in place: a large sweep's million
		// estimates would otherwise be copied at every growth.
		out := make([]sim.Estimate, 0, (len(shootingMetrics)+1)*axes.Len())
		for _, mt := range shootingMetrics {
			axes.Each(func(pt scenarios.Point) {
				g := group(pt)
				out = append(out, models[g].(*shootingModel).estimate(mt, axes.Params(pt), run.Tallies[g], run.Completed[g]))
			})
			if mt != metricCasualties || !pricedFirer {
				continue
			}
			// The firer's points efficiency, after the casualties it
			// scales, where the firer has a price.
			axes.Each(func(pt scenarios.Point) {
				if pts := q.firer.At(pt).pointsAt(pt); pts > 0 {
					g, ps := group(pt), axes.Params(pt)
					e := models[g].(*shootingModel).estimate(mt, ps, run.Tallies[g], run.Completed[g])
					out = append(out, per100(e, ps, pts, "target's models lost per 100 firer points"))
				}
			})
		}
		return out
	}
	return c
}

// model builds the point's model from its units.
func (q *shootingSpec) model(f, t *unit, pt scenarios.Point) *shootingModel {
	m := &shootingModel{
		ShootingExchange: rules.ShootingExchange{
			Firer: f.unit, Target: t.unit, Weapons: f.weapons, Back: t.weapons,
			Options:         q.opts.options(pt),
			Situation:       rules.Situation{Distance: q.distance.At(pt), Moved: q.moved.At(pt)},
			MoraleCheck:     q.opts.at("morale_check", pt) == "quarter",
			BrokenSnapShots: q.opts.at("broken_return_fire", pt) == "snap_shots",
			Pinning:         q.pinning.At(pt),
			PinningSuffered: q.opts.at("pinning_wounds", pt) == "suffered",
		},
		reaction: q.reaction.At(pt),
	}
	// Fear (X) reaches enemies within 12" (rulebook p.238); with no
	// distance given the units are taken to be that close.
	if d := m.Situation.Distance; d == 0 || d <= fearRange {
		m.Fear = m.Target.FearOf(&m.Firer)
	}
	return m
}

// fearRange is the reach of Fear (X) in inches (rulebook p.238).
const fearRange = 12

// shootingModel is one point of a shooting question: the exchange, the
// Reaction the target is set to make and whether it makes it, and the
// exact values.
type shootingModel struct {
	rules.ShootingExchange
	reaction string
	reacted  bool
	exact    rules.ShootingExact
}

// choose applies the Stupefied policy to the target, weighing, for
// when_it_pays, the firer's attack against the target's own at the firer.
func (m *shootingModel) choose(p rules.StupefyPolicy) {
	c := rules.StupefyChooser{Policy: p}
	st := rules.StupefyStakes{Enemy: &m.Firer, EnemyWeapons: m.Weapons, Situation: m.Situation, OwnSituation: m.NextSituation(false)}
	if len(m.Back) > 0 {
		st.OwnTarget, st.OwnWeapons = &m.Firer, m.Back
	}
	if c.Choose(&m.Target, st, m.Options) {
		m.Target.Stupefy(false, m.Options)
	}
}

// react settles the target's Reaction: made only if it may (see
// rules.Unit.CanReact); Return Fire needs weapons.
func (m *shootingModel) react() {
	switch m.reaction {
	case reactReturnFire:
		m.reacted = len(m.Back) > 0 && m.Target.CanReact(rules.ReturnFire)
		m.ReturnFire = m.reacted
	case reactEvade:
		m.reacted = m.Target.CanReact(rules.Evade)
		if m.reacted {
			m.Target.Shrouded = m.Options.EvadeSave
		}
	}
}
