package fantasy

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"hammersim/mechanics/dice"
	rules "hammersim/mechanics/fantasy"
	"hammersim/scenarios"
	"hammersim/sim"
)

// battleOptions are the option keys of a battle, each sweepable, with how
// it sets rules.Options. Values are words or numbers as documented.
var battleOptions = []struct {
	key    string
	values []string // allowed words; nil for a number or a boolean
	lo, hi int      // range of a number
	orWord string   // a word allowed instead of a number
	isBool bool
	// only, when set, is the one phase the option changes anything in: a
	// battle without it refuses the option rather than ignore it.
	only *rules.Phase
	set  func(o *rules.Options, word string, n int, b bool)
}{
	{key: "rounds", only: inCombat, lo: 1, hi: rules.MaxRounds, orWord: "all", set: func(o *rules.Options, w string, n int, _ bool) {
		o.Rounds = n
		if w == "all" {
			o.Rounds = 0
		}
	}},
	{key: "killing_blow", only: inCombat, values: []string{"one_wound", "multiple_wounds", "none"}, set: func(o *rules.Options, w string, _ int, _ bool) {
		o.KillingBlow = map[string]rules.KillingBlowRule{"one_wound": rules.KillingBlowOneWound,
			"multiple_wounds": rules.KillingBlowMultiple, "none": rules.KillingBlowNone}[w]
	}},
	{key: "wards", only: inCombat, values: []string{"combine", "best"}, set: func(o *rules.Options, w string, _ int, _ bool) {
		o.Wards = map[string]rules.WardRule{"combine": rules.WardsCombine, "best": rules.WardsBest}[w]
	}},
	{key: "disrupt_ranks", only: inCombat, lo: 0, hi: 10, set: func(o *rules.Options, _ string, n int, _ bool) { o.DisruptRanks = n }},
	{key: "skirmishers_disrupt", only: inCombat, isBool: true, set: func(o *rules.Options, _ string, _ int, b bool) { o.SkirmishersDisrupt = b }},
	{key: "skirmishers_ranks", only: inCombat, isBool: true, set: func(o *rules.Options, _ string, _ int, b bool) { o.SkirmishersRanks = b }},
	{key: "terror_vs_immune_fear", only: inCombat, values: []string{"ignored", "fear"}, set: func(o *rules.Options, w string, _ int, _ bool) {
		o.TerrorVsImmuneFear = w == "fear"
	}},
	{key: "monstrous_support", only: inCombat, lo: 1, hi: 3, set: func(o *rules.Options, _ string, n int, _ bool) { o.MonstrousSupport = n }},
	{key: "panic_friend_us", lo: 1, hi: 100, set: func(o *rules.Options, _ string, n int, _ bool) { o.PanicFriendUS = n }},
	{key: "insane_courage", isBool: true, set: func(o *rules.Options, _ string, _ int, b bool) { o.InsaneCourage = b }},
	{key: "caught", values: []string{"wounds", "destroyed"}, set: func(o *rules.Options, w string, _ int, _ bool) {
		o.Caught = map[string]rules.CaughtRule{"wounds": rules.CaughtWounds, "destroyed": rules.CaughtDestroyed}[w]
	}},
	{key: "zzzzap_bolts", only: inShooting, lo: 1, hi: 10, set: func(o *rules.Options, _ string, n int, _ bool) { o.ZzzzapBolts = n }},
	{key: "zzzzap_range", only: inShooting, lo: 1, hi: 48, set: func(o *rules.Options, _ string, n int, _ bool) { o.ZzzzapRange = n }},
	{key: "zzzzap_d6_wounds", only: inShooting, isBool: true, set: func(o *rules.Options, _ string, _ int, b bool) { o.ZzzzapD6Wounds = b }},
	{key: "zzzzap_hold_fire", only: inShooting, values: []string{"never", "friends", "always"}, set: func(o *rules.Options, w string, _ int, _ bool) {
		o.ZzzzapHoldFire = map[string]rules.HoldFire{"never": rules.HoldFireNever, "friends": rules.HoldFireFriends, "always": rules.HoldFireAlways}[w]
	}},
	{key: "zzzzap_ties", only: inShooting, values: []string{"enemy", "friend"}, set: func(o *rules.Options, w string, _ int, _ bool) { o.ZzzzapPreferFriends = w == "friend" }},
	{key: "charger_initiative", only: inCombat, lo: 0, hi: 10, set: func(o *rules.Options, _ string, n int, _ bool) { o.ChargerInitiative = n }},
	{key: "supporting_attacks", only: inCombat, isBool: true, set: func(o *rules.Options, _ string, _ int, b bool) { o.SupportingAttacks = b }},
	// true: the winner pursues; restrain: its player would hold it, which
	// takes a Leadership test (WAP, Restrain or Pursue); false: it never
	// pursues, which no rule offers.
	{key: "pursue", only: inCombat, values: []string{"true", "false", "restrain"}, set: func(o *rules.Options, w string, _ int, _ bool) {
		o.Pursue = map[string]rules.PursuitChoice{"true": rules.PursueAlways, "false": rules.PursueNever, "restrain": rules.PursueRestrain}[w]
	}},
	{key: "target_flees", only: inCharge, isBool: true, set: func(o *rules.Options, _ string, _ int, b bool) { o.TargetFlees = b }},
	{key: "firing_ranks", only: inShooting, lo: 0, hi: 10, set: func(o *rules.Options, _ string, n int, _ bool) { o.FiringRanks = n }},
	// A wound out of combat is a Disaster's, in a Shooting phase, where
	// the two readings agree: only a combat's wounds part them.
	{key: "loss_of_control", only: inCombat, values: []string{"when_wounded", "end_of_phase"}, set: func(o *rules.Options, w string, _ int, _ bool) {
		o.LossOfControl = map[string]rules.LossOfControlRule{"when_wounded": rules.LossOfControlWhenWounded,
			"end_of_phase": rules.LossOfControlEndOfPhase}[w]
	}},
	{key: "pursuit_path", only: inCombat, values: []string{"clear", "line"}, set: func(o *rules.Options, w string, _ int, _ bool) {
		o.PursuitPath = map[string]rules.PursuitPath{"clear": rules.PathClear, "line": rules.PathLine}[w]
	}},
	{key: "out_of_control", values: []string{"in_place", "towards", "away"}, set: func(o *rules.Options, w string, _ int, _ bool) {
		o.OutOfControl = map[string]rules.OutOfControlMove{"in_place": rules.OutOfControlInPlace,
			"towards": rules.OutOfControlTowards, "away": rules.OutOfControlAway}[w]
	}},
	{key: "charge_path", only: inCharge, values: []string{"clear", "line"}, set: func(o *rules.Options, w string, _ int, _ bool) {
		o.ChargePath = map[string]rules.ChargePath{"clear": rules.ChargeClear, "line": rules.ChargeLine}[w]
	}},
	{key: "grind_scythes", only: inCombat, isBool: true, set: func(o *rules.Options, _ string, _ int, b bool) { o.GrindScythes = b }},
	{key: "command_losses", only: inCombat, values: []string{"musician_first", "standard_first"}, set: func(o *rules.Options, w string, _ int, _ bool) {
		o.StandardFirst = w == "standard_first"
	}},
	{key: "pursuer_out_of_control", only: inCombat, values: []string{"stays", "moves"}, set: func(o *rules.Options, w string, _ int, _ bool) {
		o.PursuerOutOfControl = w == "moves"
	}},
}

// The phases an option may be bound to (battleOptions' only).
var (
	inCharge   = new(rules.PhaseCharge)
	inShooting = new(rules.PhaseShooting)
	inCombat   = new(rules.PhaseCombat)
)

// optionValue is one value of a battle option.
type optionValue struct {
	word string
	n    int
	b    bool
}

// bystander is a unit of a battle other than the acting unit and its
// target: a friend or a foe at a distance, for Zzzzap! to strike, and for
// a flight, a pursuit or an Out of Control move to meet where the options
// place it in the way.
type bystander struct {
	spec     *unitSpec
	enemy    bool
	distance scenarios.Param[int]
}

// decodeBattle reads a battle: an acting unit charges (or random-moves
// into) its target, shoots and fights, through the phases listed.
//
//	battle:
//	  attacker: {name: Doomwheel, ...}
//	  target: {name: Clanrats, ...}
//	  distance: 8          # the target's distance; 0 starts in combat
//	  others: [{name: Stormvermin, side: friend, distance: 5, ...}]
//	  phases: [charge, shooting, combat]
//	  options: {zzzzap_hold_fire: friends}
func decodeBattle(d *scenarios.Decoder, n *scenarios.Node) scenarios.Compile {
	q := &battleSpec{options: map[string]scenarios.Param[optionValue]{}, optionAt: map[string]*scenarios.Node{}}
	d.Object(n, "the battle", []scenarios.Field{
		{Key: "attacker", Required: true, Decode: func(n *scenarios.Node) { q.attacker = pricedUnitParam(d, n, "attacker") }},
		{Key: "target", Required: true, Decode: func(n *scenarios.Node) { q.target = unitParam(d, n, "target") }},
		{Key: "distance", Required: true, Decode: func(n *scenarios.Node) {
			q.distance = scenarios.Sweep(d, n, "distance", true, func(n *scenarios.Node) (int, bool) { return d.IntIn(n, "distance", 0, 100) }, scenarios.Identity)
		}},
		{Key: "others", Decode: func(n *scenarios.Node) { q.others = decodeBystanders(d, n) }},
		{Key: "phases", Required: true, Decode: func(n *scenarios.Node) {
			q.phases = decodePhases(d, n)
			at := func(p rules.Phase) *scenarios.Node {
				if i := slices.Index(q.phases, p); i >= 0 {
					return n.Items[i]
				}
				return nil
			}
			q.chargeAt, q.shootingAt, q.combatAt = at(rules.PhaseCharge), at(rules.PhaseShooting), at(rules.PhaseCombat)
		}},
		{Key: "options", Decode: func(n *scenarios.Node) { decodeBattleOptions(d, n, q.options, q.optionAt) }},
	})
	return q.compile
}

// battleSpec is a battle question as written.
type battleSpec struct {
	attacker, target scenarios.Param[*unitSpec]
	distance         scenarios.Param[int]
	others           []bystander
	phases           []rules.Phase
	chargeAt         *scenarios.Node // the charge phase listed
	shootingAt       *scenarios.Node // the first shooting phase listed
	combatAt         *scenarios.Node // the first combat phase listed
	options          map[string]scenarios.Param[optionValue]
	optionAt         map[string]*scenarios.Node
}

// builtBattle is the battle of one group of points, with its closed forms.
type builtBattle struct {
	b     *rules.Battle
	exact rules.BattleExact
}

// compile builds the battle at every point, refuses what no point reads,
// and says which metrics the question can report.
func (q *battleSpec) compile(d *scenarios.Decoder, axes scenarios.Axes) scenarios.Compiled {
	if !q.attacker.Set() || !q.target.Set() || !q.distance.Set() || len(q.phases) == 0 {
		return scenarios.Compiled{}
	}
	read := optionsRead(d, q.phases, q.optionAt)
	var built []builtBattle
	work := combatBudget(scenarioCombatWork)
	models, groupOf, ok := axes.Groups(func(pt scenarios.Point) (sim.Model, bool) {
		if d.Stopped() {
			return nil, false
		}
		b, good := buildBattle(d, pt, q.attacker, q.target, q.distance, q.others, q.phases, q.options)
		if !good {
			return nil, false
		}
		built = append(built, builtBattle{b: b, exact: work.exact(b)})
		return newBattleModel(b), true
	})
	battles := make([]*rules.Battle, len(built))
	for i, g := range built {
		battles[i] = g.b
	}
	// Weighed only where every point was built, so that a unit that
	// could not be read hides nothing the checks need; then all in one
	// run.
	allBuilt := ok && len(battles) > 0 // none where the reading was stopped
	ok = ok && optionsOfRules(d, q.optionAt, battles, q.phases)
	ok = (!allBuilt || phasesPlayed(d, battles, q.chargeAt, q.shootingAt, q.combatAt)) && ok
	if !ok || !read {
		return scenarios.Compiled{}
	}
	var c scenarios.Compiled
	c.Models = models
	pointed := slices.ContainsFunc(built, func(g builtBattle) bool { return g.b.Units[0].Points > 0 })
	c.Grid = balanceGrid(axes, pointed)
	if !pointed {
		why := "points on the attacker, at some point (its card's or its own points key)"
		c.Absent = map[string]string{"wounds_per_100_points": why, "models_killed_per_100_points": why}
	}
	if !slices.ContainsFunc(built, func(g builtBattle) bool { return hasFriend(g.b) }) {
		// Zzzzap! can only wound a friend that is on the table.
		c.Idle = append(c.Idle, recNames[recFriendlyWounds])
	}
	if !slices.ContainsFunc(built, func(g builtBattle) bool { return mayFlee(g.b) }) {
		// No unit can ever take a Panic test it could fail.
		c.Idle = append(c.Idle, recNames[recFled])
	}
	c.Results = battleResults(axes, models, groupOf, built)
	return c
}

// battleResults reads a run's tallies into estimates, point by point,
// each beside its group's closed forms.
func battleResults(axes scenarios.Axes, models []sim.Model, groupOf func(scenarios.Point) int, built []builtBattle) func(sim.Run) []sim.Estimate {
	return func(run sim.Run) []sim.Estimate {
		var out []sim.Estimate
		first := true
		axes.Each(func(pt scenarios.Point) {
			g := groupOf(pt)
			m := models[g].(*battleModel)
			out = append(out, m.estimates(axes.Params(pt), run.Tallies[g], run.Completed[g], built[g].exact)...)
			if first {
				// Room for as many at every point as at the first, so
				// that a large sweep's estimates are not copied at
				// every growth.
				first = false
				out = slices.Grow(out, len(out)*(axes.Len()-1))
			}
		})
		return out
	}
}

// mayMeetOther reports whether a move of the acting unit may charge or
// catch an enemy other than its target (Battle.MayMeet).
func mayMeetOther(b *rules.Battle) bool {
	for j := 2; j < len(b.Units); j++ {
		if b.MayMeet(j) {
			return true
		}
	}
	return false
}

// hasFriend reports whether a unit other than the acting one is on its
// side.
func hasFriend(b *rules.Battle) bool {
	return slices.Contains(b.Enemy[1:], false)
}

// mayFlee reports whether any unit of the battle can flee from a failed
// Panic test.
func mayFlee(b *rules.Battle) bool {
	for i := 1; i < len(b.Units); i++ {
		if b.MayPanic(i) {
			return true
		}
	}
	return b.ActingMayFlee()
}

func decodeBystanders(d *scenarios.Decoder, n *scenarios.Node) []bystander {
	if n.Kind != scenarios.SeqNode {
		d.Errorf(n, "expected others as a list of units, each with side and distance, found %s", n.Describe())
		return nil
	}
	var out []bystander
	for _, item := range n.Items {
		name := ""
		for i, k := range item.Keys {
			if k.Text == "name" && item.Vals[i].Kind == scenarios.ScalarNode {
				name = item.Vals[i].Text
			}
		}
		var by bystander
		sideSet := false
		// Under its name, so that a sweep of it is told apart from the
		// same key swept on another unit of the list ("Slaves.Ld").
		d.Within(name, func() {
			by.spec = decodeUnit(d, item,
				scenarios.Field{Key: "side", Required: true, Decode: func(n *scenarios.Node) {
					w, ok := d.Scalar(n, "side (friend or enemy)")
					switch {
					case !ok: // reported, as not one word
					case w == "friend":
						sideSet = true
					case w == "enemy":
						by.enemy, sideSet = true, true
					default:
						d.Errorf(n, "expected side as friend or enemy, found %s", n.Describe())
					}
				}},
				scenarios.Field{Key: "distance", Required: true, Decode: func(n *scenarios.Node) {
					// Named after its unit, "Stormvermin.distance", so that it is
					// never mistaken for the target's distance.
					by.distance = scenarios.Sweep(d, n, name+".distance", true, func(n *scenarios.Node) (int, bool) { return d.IntIn(n, "distance", 1, 100) }, scenarios.Identity)
				}})
		})
		if sideSet && by.distance.Set() {
			out = append(out, by)
		}
	}
	return out
}

func decodePhases(d *scenarios.Decoder, n *scenarios.Node) []rules.Phase {
	if n.Kind != scenarios.SeqNode || len(n.Items) == 0 {
		d.Errorf(n, "expected phases as a list, such as [charge, shooting, combat], found %s", n.Describe())
		return nil
	}
	var out []rules.Phase
	for _, item := range n.Items {
		w := d.Text(item, "a phase")
		p, ok := rules.ParsePhase(w)
		if !ok {
			if w != "" {
				d.Expecting(item, "unknown phase "+scenarios.Excerpt(w), "expected one of: "+strings.Join(rules.PhaseNames(), ", "))
			}
			return nil
		}
		if p == rules.PhaseCharge && slices.Contains(out, rules.PhaseCharge) {
			d.Errorf(item, "a battle has one charge phase, at most")
			return nil
		}
		out = append(out, p)
	}
	return out
}

// optionsRead refuses each option written (at) that changes only a phase
// the battle does not have, in the order they are written, and reports
// whether none was.
func optionsRead(d *scenarios.Decoder, phases []rules.Phase, at map[string]*scenarios.Node) bool {
	var refused []unread
	for _, o := range battleOptions {
		if n, set := at[o.key]; set && o.only != nil && !slices.Contains(phases, *o.only) {
			refused = append(refused, unread{n, fmt.Sprintf("%s: the battle has no %s phase, the only one this option changes; remove it or add the phase", o.key, *o.only)})
		}
	}
	return report(d, refused)
}

// moving is what the units of some battle of a sweep do that the options
// of shooting, movement, flight and Out of Control read.
type moving struct {
	zaps, fires, loses, actingLoses, moves, pursuerMoves, friends, catches, flees bool
}

// movingOf works moving out over the battles of a sweep, which play
// phases.
func movingOf(battles []*rules.Battle, phases []rules.Phase) moving {
	some := func(has func(b *rules.Battle) bool) bool { return slices.ContainsFunc(battles, has) }
	zaps := some(func(b *rules.Battle) bool { return b.Units[0].Zzzzap })
	fires := some(func(b *rules.Battle) bool { return !b.Units[0].Missile.Shots.IsZero() && b.MissileMayFire() })
	loses := some(func(b *rules.Battle) bool {
		return slices.ContainsFunc(b.Units, func(u *rules.Unit) bool { return u.LossOfControl })
	})
	actingLoses := some(func(b *rules.Battle) bool { return b.Units[0].LossOfControl })
	// Nothing but its own Zzzzap! wounds the acting unit out of combat, so
	// it goes Out of Control by the Mishap chart or a Loss of Control test
	// in a shooting phase, or by a test at the end of a phase it fought in
	// (loss_of_control: end_of_phase).
	shoots := zaps && slices.Contains(phases, rules.PhaseShooting)
	fights := slices.Contains(phases, rules.PhaseCombat)
	moves := shoots || fights && some(func(b *rules.Battle) bool {
		return b.Units[0].LossOfControl && b.Options.LossOfControl == rules.LossOfControlEndOfPhase
	})
	// A pursuer goes Out of Control only by the test at the end of the
	// combat phase, and moves only where out_of_control moves it; it
	// pursues only where pursue lets it.
	pursuerMoves := some(func(b *rules.Battle) bool {
		return b.Units[0].LossOfControl && b.Options.LossOfControl == rules.LossOfControlEndOfPhase &&
			b.Options.OutOfControl != rules.OutOfControlInPlace && b.Options.Pursue != rules.PursueNever
	})
	// A friend's break or destruction makes a unit take a Panic test only
	// where some side has two units or more.
	friends := some(func(b *rules.Battle) bool {
		ours := 0
		for _, enemy := range b.Enemy {
			if !enemy {
				ours++
			}
		}
		return ours >= 2 || len(b.Enemy)-ours >= 2
	})
	// A fleeing unit is caught by a charge, by a winner's pursuit, or by an
	// Out of Control move towards it that reaches it (as a charge does).
	catches := slices.Contains(phases, rules.PhaseCharge) || slices.Contains(phases, rules.PhaseCombat) &&
		some(func(b *rules.Battle) bool { return b.Options.Pursue != rules.PursueNever }) ||
		moves && some(func(b *rules.Battle) bool { return b.Options.OutOfControl == rules.OutOfControlTowards })
	// Every flight is a break, a failed Panic test or a charge reaction,
	// none of which an Unbreakable unit makes.
	flees := some(func(b *rules.Battle) bool {
		return slices.ContainsFunc(b.Units, func(u *rules.Unit) bool { return !u.Unbreakable })
	})
	return moving{zaps: zaps, fires: fires, loses: loses, actingLoses: actingLoses, moves: moves,
		pursuerMoves: pursuerMoves, friends: friends, catches: catches, flees: flees}
}

// optionsOfRules refuses the options (at, where written) that the battle's
// units leave nothing to change at any point: the zzzzap_ options without
// an acting unit that shoots Zzzzap!; out_of_control without one that can
// go Out of Control (Zzzzap! with a shooting phase, or Loss of Control
// tested at the end of a phase); pursuer_out_of_control without a point
// where a pursuer can (that test) and moves (out_of_control not in_place);
// loss_of_control without a unit that tests it; target_flees against an
// attacker that moves by Random Movement, which meets no charge reaction;
// charge_path and pursuit_path without a unit besides the attacker and
// the target; what follows a flight where every unit is Unbreakable; and
// the options of troop types, blows and saves no unit that fights has
// (fightingOf). An option the battle's phases refuse already (optionsRead) is passed
// over. It reports whether none was refused.
func optionsOfRules(d *scenarios.Decoder, at map[string]*scenarios.Node, battles []*rules.Battle, phases []rules.Phase) bool {
	some := func(has func(b *rules.Battle) bool) bool { return slices.ContainsFunc(battles, has) }
	m := movingOf(battles, phases)
	f := fightingOf(battles)
	var refused []unread
	for _, o := range battleOptions {
		n, set := at[o.key]
		var why string
		switch {
		case !set || o.only != nil && !slices.Contains(phases, *o.only):
		case o.key == "firing_ranks" && !m.fires:
			why = "the attacker has no missile weapon, the only one it changes"
			if some(func(b *rules.Battle) bool { return !b.Units[0].Missile.Shots.IsZero() }) {
				why = "the attacker never fires its missile weapon, the only one it changes (it declares a charge in the charge phase before every shooting phase, and does not shoot that turn)"
			}
		case o.key == "skirmishers_ranks" && !f.skirmishers:
			why = "no unit is Skirmishers that fights in ranks (a Swarm has none), the only units it changes"
		case o.key == "skirmishers_disrupt" && !f.skirmishersDisrupt:
			why = "no Skirmishers that fight in ranks (a Swarm has none) fight in a flank or rear, the only units it changes"
		case o.key == "disrupt_ranks" && !f.disrupts:
			why = "no unit fights in a flank or rear (flank or rear), which alone disrupts"
		case o.key == "killing_blow" && !f.unslain:
			why = "no unit strikes with Killing Blow at a unit of a type it cannot slay (Infantry, Cavalry and War Beasts it slays), the only blows it changes"
		case o.key == "wards" && !f.joined:
			why = "no unit has both a ward save and a Parry save it may take (mounted models take none), the only saves it joins"
		case o.key == "terror_vs_immune_fear" && !f.feared:
			why = "no Terror-causer faces a unit whose only shield from it is Immunity (Fear) (not immune to Terror or to psychology, nor causing Fear or Terror), the only units it changes"
		case o.key == "monstrous_support" && !f.monstrous:
			why = "no unit is Monstrous Infantry, Monstrous Cavalry or a Monstrous Beast at a point with supporting attacks (supporting_attacks: true), the only attacks it caps"
		case o.key == "panic_friend_us" && !m.friends:
			why = "no side has two units or more, so no friend's break or destruction within 6\" makes a unit take a Panic test, the only test it sets"
		case o.key == "caught" && !m.catches:
			why = "no unit can catch a fleeing one: that takes a charge phase, a combat phase whose winner pursues (pursue: true or restrain), or an attacker that goes Out of Control towards the others (out_of_control: towards), since one that goes away reaches nobody"
		case (o.key == "caught" || o.key == "pursue" || o.key == "pursuit_path" || o.key == "pursuer_out_of_control") && !m.flees:
			why = "every unit is Unbreakable at every point, so none ever flees (Unbreakable units never break, and are immune to psychology), and it decides only what follows a flight"
		case (o.key == "charge_path" || o.key == "pursuit_path") && !some(func(b *rules.Battle) bool { return len(b.Units) > 2 }):
			why = "the battle has no unit besides the attacker and the target (others), and the path decides only how a move meets such units"
		case strings.HasPrefix(o.key, "zzzzap_") && !m.zaps:
			why = "the attacker has no Zzzzap!, the only rule it changes"
		case o.key == "grind_scythes" && !some(func(b *rules.Battle) bool {
			return slices.ContainsFunc(b.Units[:2], func(u *rules.Unit) bool { return u.GrindAttack && u.Scythes })
		}):
			why = "no unit that fights has both a Grind Attack and Scythes, the only hits it changes"
		case o.key == "command_losses" && !some(func(b *rules.Battle) bool {
			// The acting unit and every enemy, which it may come to fight
			// (a pursuit or a move into another); its friends fight no one.
			for i, u := range b.Units {
				if (i == 0 || b.Enemy[i]) && u.Standard && u.Musician {
					return true
				}
			}
			return false
		}):
			why = "no unit that fights has both a standard and a musician, the only command models whose order it sets"
		case o.key == "loss_of_control" && !m.loses:
			why = "no unit has Loss of Control, the only rule it changes"
		case o.key == "out_of_control" && !m.moves:
			why = "the attacker never goes Out of Control: that takes Zzzzap! and a shooting phase (its Mishap chart, or the wounds of a Disaster), or Loss of Control tested at the end of a combat phase (loss_of_control: end_of_phase)"
		case o.key == "pursuer_out_of_control" && !m.actingLoses:
			why = "the attacker has no Loss of Control, which alone sends it Out of Control after a pursuit"
		case o.key == "pursuer_out_of_control" && !m.pursuerMoves:
			why = "a pursuer goes Out of Control only with loss_of_control: end_of_phase, and moves only where out_of_control is not in_place, after a pursuit that pursue allows (true or restrain); no point has all three"
		case o.key == "target_flees" && !some(func(b *rules.Battle) bool { return b.Units[0].Mover.Random.IsZero() }):
			why = "the attacker moves by Random Movement, against which no charge reaction is declared, so target_flees decides nothing"
		case o.key == "target_flees" && !some(func(b *rules.Battle) bool { return b.Distance[1] > 0 }):
			why = "the target is in combat from the start (distance 0), so no charge is declared at it and target_flees decides nothing"
		case o.key == "target_flees" && !some(func(b *rules.Battle) bool {
			a := b.Units[0]
			reach := nearer(b) || b.Distance[1] <= a.Mover.LongestCharge(a.Flying)
			return a.Mover.Random.IsZero() && b.Distance[1] > 0 && reach && !b.Units[1].ImmunePsychology
		}):
			// Immune to psychology, it holds (Run for Your Lives!); beyond
			// the longest charge, none is declared.
			why = "no point has a target that may flee as its charge reaction: one charged from afar but within the attacker's longest charge, by an attacker without Random Movement, and not immune to psychology; so target_flees decides nothing"
		}
		if why != "" {
			refused = append(refused, unread{n, o.key + ": " + why + "; remove it"})
		}
	}
	return report(d, refused)
}

// fighting is what the units that fight in some battle of a sweep have,
// for the options of blows, saves and troop types: the acting unit and its
// enemies fight, its friends stand by and fight no one.
type fighting struct {
	// skirmishers: Skirmishers with ranks to count or to disrupt with (a
	// Swarm has none); skirmishersDisrupt: such Skirmishers in a flank or
	// rear; disrupts: a unit in a flank or rear, which alone disrupts.
	skirmishers, skirmishersDisrupt, disrupts bool
	// monstrous: monstrous types that support, at a point where supporting
	// attacks are made.
	monstrous bool
	// unslain: Killing Blow against a type it cannot slay (killing_blow);
	// joined: a ward joined with a Parry save the model may take (wards);
	// feared: Terror against a unit whose only shield from it is Immunity
	// (Fear) (terror_vs_immune_fear).
	unslain, joined, feared bool
}

// fightingOf is fighting for battles.
func fightingOf(battles []*rules.Battle) fighting {
	some := func(has func(b *rules.Battle) bool) bool { return slices.ContainsFunc(battles, has) }
	var f fighting
	// Only the acting unit and its enemies fight: its friends stand by.
	anyUnit := func(has func(u *rules.Unit) bool) bool {
		return some(func(b *rules.Battle) bool {
			for i, u := range b.Units {
				if (i == 0 || b.Enemy[i]) && has(u) {
					return true
				}
			}
			return false
		})
	}
	// Skirmishers with ranks to count or to disrupt with (a Swarm has
	// none).
	f.skirmishers = anyUnit(func(u *rules.Unit) bool { return u.Skirmishers && u.Troop.FightsInRanks() })
	// Only a unit in an enemy's flank or rear disrupts it.
	f.disrupts = anyUnit(func(u *rules.Unit) bool { return u.Flank || u.Rear })
	f.skirmishersDisrupt = anyUnit(func(u *rules.Unit) bool {
		return u.Skirmishers && u.Troop.FightsInRanks() && (u.Flank || u.Rear)
	})
	// Monstrous types that support, at a point where supporting attacks
	// are made.
	f.monstrous = some(func(b *rules.Battle) bool {
		if !b.Options.SupportingAttacks {
			return false
		}
		for i, u := range b.Units {
			if (i == 0 || b.Enemy[i]) && (u.Troop == rules.MonstrousInfantry || u.Troop == rules.MonstrousCavalry || u.Troop == rules.MonstrousBeast) {
				return true
			}
		}
		return false
	})
	// pair reports whether some battle has the acting unit and an enemy of
	// it, one u and the other e, such that both(u, e): the units that
	// fight each other.
	pair := func(both func(u, e *rules.Unit) bool) bool {
		return some(func(b *rules.Battle) bool {
			for j := 1; j < len(b.Units); j++ {
				if b.Enemy[j] && (both(b.Units[0], b.Units[j]) || both(b.Units[j], b.Units[0])) {
					return true
				}
			}
			return false
		})
	}
	// Killing Blow against a model it cannot slay: what killing_blow
	// decides.
	f.unslain = pair(func(u, e *rules.Unit) bool {
		return slices.ContainsFunc(u.Attackers, func(a rules.Attacker) bool { return a.Killing }) && !e.Troop.KillingBlowSlays()
	})
	// A ward joined with a Parry save the model may take: what wards
	// decides.
	f.joined = anyUnit(func(u *rules.Unit) bool { return u.Ward < rules.NoSave && u.Parry < rules.NoSave && !u.Mounted() })
	// Terror against a unit with Immunity (Fear) and no other shield from
	// it, nor Fear of its own (a Fear-causer feels it whatever the
	// option): what terror_vs_immune_fear decides.
	f.feared = pair(func(u, e *rules.Unit) bool {
		return u.Terror && e.ImmuneFear && !e.Fear && !e.ImmuneTerror && !e.ImmunePsychology && !e.Terror
	})
	return f
}

// nearer reports whether a phase before b's charge phase may bring its
// acting unit nearer its target than the battle places it: an Out of
// Control move towards the others (Zzzzap!'s Mishap chart or Loss of
// Control). Nothing else moves it before its charge: no other unit starts
// in combat with it, so no pursuit can carry it on. Otherwise a target
// beyond the longest charge stays beyond it.
func nearer(b *rules.Battle) bool {
	a := b.Units[0]
	before := slices.Index(b.Phases, rules.PhaseCharge)
	for _, p := range b.Phases[:max(before, 0)] {
		if b.Options.OutOfControl == rules.OutOfControlTowards && (a.Zzzzap && p == rules.PhaseShooting || a.LossOfControl) {
			return true
		}
	}
	return false
}

// refuseIdleShooting refuses a shooting phase (at) in which nothing shoots
// at any of the battles, saying why.
func refuseIdleShooting(d *scenarios.Decoder, at *scenarios.Node, battles []*rules.Battle) {
	if slices.ContainsFunc(battles, func(b *rules.Battle) bool { return !b.Units[0].Missile.Shots.IsZero() }) {
		d.Errorf(at, "shooting: the attacker declares a charge in the charge phase before it at every point, and a unit that declared a charge does not shoot that turn, so nothing shoots in this phase; remove it, or shoot before the charge")
		return
	}
	d.Errorf(at, "shooting: the attacker has no missile weapon and no Zzzzap!, so nothing shoots in this phase; remove it")
}

// phasesPlayed refuses, at its first place in the list, a charge phase
// that charges nobody (the first phase, with the target in combat from
// the start, distance 0, at every point: an engaged unit declares no
// charge, and nothing before it can part them), a shooting phase in which
// nothing shoots and a combat phase that is never fought at any of the
// battles, and reports whether it refused none. A charge phase after
// another phase may charge: a combat's loser flees, and the winner may
// charge it.
func phasesPlayed(d *scenarios.Decoder, battles []*rules.Battle, chargeAt, shootingAt, combatAt *scenarios.Node) bool {
	ok := true
	first := len(battles) > 0 && len(battles[0].Phases) > 0 && battles[0].Phases[0] == rules.PhaseCharge
	if chargeAt != nil && first && !slices.ContainsFunc(battles, func(b *rules.Battle) bool { return b.Distance[1] > 0 }) {
		d.Errorf(chargeAt, "charge: the target starts in combat with the attacker (distance: 0) at every point, and an engaged unit declares no charge, so this phase, the first, charges nobody; remove it, or give a distance to charge from")
		ok = false
	}
	if shootingAt != nil && !slices.ContainsFunc(battles, shoots) {
		refuseIdleShooting(d, shootingAt, battles)
		ok = false
	}
	if combatAt != nil && !slices.ContainsFunc(battles, (*rules.Battle).MayFight) {
		refuseUnfoughtCombat(d, combatAt, battles)
		ok = false
	}
	return ok
}

// refuseUnfoughtCombat refuses the first combat phase (at), which none of
// the battles can fight (rules.Battle.MayFight), saying why.
func refuseUnfoughtCombat(d *scenarios.Decoder, at *scenarios.Node, battles []*rules.Battle) {
	b := battles[0] // the phases are the same at every point
	why := "the target is out of contact (distance above 0) at every point, and no charge phase comes before it to bring them together"
	if i := slices.Index(b.Phases, rules.PhaseCharge); i >= 0 && i < slices.Index(b.Phases, rules.PhaseCombat) {
		why = "the target is beyond the attacker's longest charge at every point, so the charge phase before it never reaches it"
	}
	also := ""
	if slices.ContainsFunc(battles, func(b *rules.Battle) bool { return b.Units[0].Zzzzap }) {
		also = " (a Zzzzap! machine may also come into contact Out of Control: a shooting phase before it, with out_of_control: towards)"
	}
	d.Errorf(at, "combat: no combat is fought in this phase: %s; put a charge phase before it with the target within reach, start in contact (distance: 0), or remove the phase%s", why, also)
}

// shoots reports whether b's acting unit shoots in a shooting phase: a
// missile weapon, or Zzzzap!. Nothing else does.
func shoots(b *rules.Battle) bool {
	return b.Units[0].Zzzzap || !b.Units[0].Missile.Shots.IsZero() && b.MissileMayFire()
}

// unread is an option refused, where it is written, and why.
type unread struct {
	n   *scenarios.Node
	msg string
}

// report reports the options refused in the order they are written, and
// whether there were none.
func report(d *scenarios.Decoder, refused []unread) bool {
	slices.SortFunc(refused, func(a, b unread) int { return cmp.Or(cmp.Compare(a.n.Line, b.n.Line), cmp.Compare(a.n.Col, b.n.Col)) })
	for _, u := range refused {
		d.Errorf(u.n, "%s", u.msg)
	}
	return len(refused) == 0
}

// decodeBattleOptions reads the battle's options into into, and where each
// is written into at.
func decodeBattleOptions(d *scenarios.Decoder, n *scenarios.Node, into map[string]scenarios.Param[optionValue], at map[string]*scenarios.Node) {
	var fields []scenarios.Field
	for _, o := range battleOptions {
		o := o
		fields = append(fields, scenarios.Field{Key: o.key, Decode: func(n *scenarios.Node) {
			at[o.key] = n
			into[o.key] = scenarios.Sweep(d, n, o.key, o.values == nil && !o.isBool, func(n *scenarios.Node) (optionValue, bool) {
				switch {
				case o.isBool:
					b, ok := d.Boolean(n, o.key)
					return optionValue{b: b}, ok
				case o.values != nil:
					w := d.Text(n, o.key)
					if !slices.Contains(o.values, w) {
						if w != "" {
							d.Expecting(n, "unknown "+o.key+" "+scenarios.Excerpt(w), "expected one of: "+strings.Join(o.values, ", "))
						}
						return optionValue{}, false
					}
					return optionValue{word: w}, true
				case o.orWord != "" && n.Kind == scenarios.ScalarNode && n.Text == o.orWord:
					return optionValue{word: o.orWord}, true
				case o.orWord != "" && n.Kind == scenarios.ScalarNode && !isWholeNumber(n.Text):
					d.Errorf(n, "expected %s as a whole number from %d to %d, or %s; found %q", o.key, o.lo, o.hi, o.orWord, n.Text)
					return optionValue{}, false
				case o.orWord != "" && n.Kind == scenarios.ScalarNode && !inRange(n.Text, o.lo, o.hi):
					d.Errorf(n, "%s %s is out of range; expected %d to %d, or %s", o.key, wholeNumber(n.Text), o.lo, o.hi, o.orWord)
					return optionValue{}, false
				}
				v, ok := d.IntIn(n, o.key, o.lo, o.hi)
				return optionValue{n: v}, ok
			}, func(v optionValue) any {
				switch {
				case o.isBool:
					return v.b
				case v.word != "":
					return v.word
				}
				return v.n
			})
			if o.key == "rounds" {
				vs := into[o.key].Values()
				if slices.Contains(vs, optionValue{n: rules.MaxRounds}) && slices.Contains(vs, optionValue{word: "all"}) {
					// all fights at most MaxRounds: the two points would
					// be one battle twice.
					d.Errorf(n, "rounds lists %d and all, which fight alike (all stops at %d rounds); keep one", rules.MaxRounds, rules.MaxRounds)
				}
			}
		}})
	}
	d.Object(n, "the battle's options", fields)
}

// isWholeNumber reports whether s is written as a whole number, so that
// IntIn gives its own message about its range.
func isWholeNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// inRange reports whether s, a whole number, is from lo to hi.
func inRange(s string, lo, hi int) bool {
	v, err := strconv.Atoi(s)
	return err == nil && v >= lo && v <= hi
}

// wholeNumber is s, a whole number, as an error names it: as written if an
// int64 holds it (leading zeros dropped), or quoted and cut short if not,
// as scenarios.Decoder.Int64In does.
func wholeNumber(s string) string {
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return strconv.FormatInt(v, 10)
	}
	return scenarios.Excerpt(s)
}

// unitKeysRead refuses the keys of unit at, the battle's unit i (0 the
// attacker) built as u, that nothing reads there: flying, except on an
// attacker that charges with Fly or Tunneller; a missile weapon the
// scenario writes, except on an attacker with a shooting phase; and BS -
// where that attacker would shoot. It returns false when it refused one.
func unitKeysRead(d *scenarios.Decoder, at *unit, u *rules.Unit, i int, phases []rules.Phase) bool {
	good := true
	if n, why := flyingUnread(at, u.Mover); why != "" && i == 0 {
		d.Errorf(n, "%s", why)
		good = false
	} else if n, set := at.spec.nodes["flying"]; set && i == 0 && !slices.Contains(phases, rules.PhaseCharge) {
		d.Errorf(n, "flying on unit %q: the battle has no charge phase, and flying decides only how the attacker charges; remove it", at.Name)
		good = false
	}
	if n, set := at.spec.nodes["flying"]; set && i > 0 {
		// Only the acting unit charges; every unit flees and pursues on
		// the ground (Fly unit card).
		d.Errorf(n, "flying on unit %q: only the attacker charges in a battle, and flyers flee and pursue on the ground (Fly), so flying decides nothing for the target or the others", at.Name)
		good = false
	}
	// Zzzzap! the scenario writes on another unit is refused where a
	// Shooting phase might make it look fired: a card's, which the card
	// holds for every question, is left unused, as a card's bow is.
	if _, changed, used := at.spec.node.CardKey("rules"); i > 0 && (!used || changed) && slices.Contains(phases, rules.PhaseShooting) {
		for _, r := range at.Rules {
			if r.Spec.Name == rules.RuleZzzzap {
				d.Errorf(at.ruleNode(rules.RuleZzzzap), "Zzzzap! on unit %q: only the attacker shoots in a battle, so these bolts never fire; remove it, or make the unit the attacker", at.Name)
				good = false
			}
		}
	}
	if m := at.spec.missileWritten(); m != nil {
		switch {
		case i > 0:
			// The charged unit's Stand and Shoot is not simulated.
			d.Errorf(m, "missile on unit %q: only the attacker shoots in a battle, so missile decides nothing for the target or the others; remove it", at.Name)
			good = false
		case !slices.Contains(phases, rules.PhaseShooting):
			d.Errorf(m, "missile on unit %q: the battle has no shooting phase, the only one it shoots in; remove it or add the phase", at.Name)
			good = false
		}
	}
	// Only the attacker's price is read (the _per_100_points metrics):
	// another unit's swept price would label rows that are the same.
	if p, set := at.spec.stats["points"]; set && i > 0 && len(p.Values()) > 1 {
		d.Errorf(at.spec.nodes["points"], "points is swept on unit %q, but only the attacker's points are read (wounds_per_100_points, models_killed_per_100_points); every value gives the same answer: sweep the attacker's", at.Name)
		good = false
	}
	// BS is read only by the attacker's missile weapon, in a shooting
	// phase: swept elsewhere, every value gives the same answer.
	if p, set := at.spec.stats["BS"]; set && len(p.Values()) > 1 && (i > 0 || u.Missile.Shots.IsZero() || !slices.Contains(phases, rules.PhaseShooting)) {
		why := "it has no missile weapon, the only thing BS changes"
		switch {
		case i > 0:
			why = "only the attacker shoots in a battle"
		case !slices.Contains(phases, rules.PhaseShooting):
			why = "the battle has no shooting phase, the only one BS is read in"
		}
		d.Errorf(at.keyNode("BS"), "BS is swept on unit %q, but %s; every value gives the same answer: sweep what the battle reads", at.Name, why)
		good = false
	}
	if i == 0 && u.BS == 0 && at.has["BS"] && !u.Missile.Shots.IsZero() && slices.Contains(phases, rules.PhaseShooting) {
		// Where it would shoot: elsewhere a card's bow is left unused.
		// A card's BS is not wrong in itself: the use that makes it
		// shoot is what is refused. A BS not given at all is refused
		// once, at the missile weapon.
		n, whose := at.keyNode("BS"), ""
		if _, changed, used := at.spec.node.CardKey("BS"); used && !changed {
			n, whose = at.spec.node, " (its card's)"
		}
		d.Errorf(n, "unit %q shoots a missile weapon at BS -%s, with which nothing hits; give it a BS, or leave the shooting phase out", at.Name, whose)
		good = false
	}
	return good
}

// buildBattle assembles the battle at one point of the sweep.
func buildBattle(d *scenarios.Decoder, pt scenarios.Point, attacker, target scenarios.Param[*unitSpec], distance scenarios.Param[int],
	others []bystander, phases []rules.Phase, options map[string]scenarios.Param[optionValue]) (*rules.Battle, bool) {
	b := &rules.Battle{Phases: phases, Options: rules.DefaultOptions}
	for _, o := range battleOptions {
		if p, set := options[o.key]; set {
			v := p.At(pt)
			o.set(&b.Options, v.word, v.n, v.b)
		}
	}
	ok := true
	var written []*scenarios.Node // each unit's mapping, in b.Units' order
	add := func(spec *unitSpec, enemy bool, dist int) {
		written = append(written, spec.node)
		at := spec.at(pt)
		u, good := battleUnit(d, at)
		ok = ok && good
		ok = unitKeysRead(d, at, u, len(b.Units), phases) && ok
		if at.flags["flank"] && at.flags["rear"] {
			d.Errorf(at.keyNode("rear"), "rear: true on %q, which has flank: true too: a unit fights one side of its enemy, its flank or its rear", at.Name)
			ok = false
		}
		if len(b.Units) == 1 && (u.Flank || u.Rear) {
			k := "flank"
			if u.Rear {
				k = "rear"
			}
			switch {
			case b.Units[0].Flank || b.Units[0].Rear:
				d.Errorf(at.keyNode(k), "%s: true on the target %q, whose attacker %q is in its flank or rear already: the attacker's front then meets the target, which fights it in its front", k, at.Name, b.Units[0].Name)
				ok = false
			case dist > 0 && b.ChargesFromAfar():
				// The charger (by a charge, or an Out of Control move that
				// runs into it) is moved into contact front first (WAP,
				// Move Chargers), so the target cannot be in its flank or
				// rear.
				d.Errorf(at.keyNode(k), "%s: true on the target %q, which the attacker may charge from %d\" (a charge phase, or an Out of Control move towards it): a charger meets its target with its front, so the target cannot be in its flank or rear", k, at.Name, dist)
				ok = false
			}
		}
		if len(b.Units) > 1 {
			// They place a unit against the one it fights from the start:
			// only the acting unit and its target do.
			for _, k := range []string{"flank", "rear", "higher_ground"} {
				if at.flags[k] {
					d.Errorf(at.keyNode(k), "%s: true on %q in others: only the attacker and the target take flank, rear and higher_ground", k, at.Name)
					ok = false
				}
			}
		}
		b.Units = append(b.Units, u)
		b.Enemy = append(b.Enemy, enemy)
		b.Distance = append(b.Distance, dist)
	}
	add(attacker.At(pt), false, 0)
	add(target.At(pt), true, distance.At(pt))
	for _, o := range others {
		add(o.spec, o.enemy, o.distance.At(pt))
	}
	if !ok {
		return nil, false
	}
	if a := b.Units[0]; a.Zzzzap && slices.Contains(phases, rules.PhaseShooting) && !a.Mover.Random.IsZero() {
		if _, plain := a.Mover.Random.PlainD6(); !plain {
			// A Disaster on the Mishap chart takes away one D6 of it.
			at := attacker.At(pt).at(pt)
			d.Errorf(at.ruleNode(rules.RuleRandomMovement), "Random Movement (%s) on %q, which shoots with Zzzzap!: a Disaster takes one D6 from its movement, so it must be D6s alone, such as 3D6", a.Mover.Random.String(), a.Name)
			return nil, false
		}
	}
	names := map[string]bool{}
	for i, u := range b.Units {
		if names[u.Name] {
			d.Errorf(written[i], "two units of the battle are named %q; results name units, so names must differ", u.Name)
			return nil, false
		}
		names[u.Name] = true
	}
	if err := b.Validate(); err != nil {
		d.Errorf(attacker.At(pt).node, "%v", err)
		return nil, false
	}
	return b, true
}

// metric kinds a battle records, one histogram slot each.
type recKind uint8

const (
	recCharge recKind = iota
	recImpactHits
	recImpactWounds
	recCombatResult
	recRounds
	recRoundCap
	recFriendlyWounds
	recMishap
	recLostControl
	recWounds // per unit from here
	recKilled
	recDestroyed
	recBroke
	recCaught
	recWon
	recFled
)

var recNames = [...]string{"charge_success", "impact_hits", "impact_wounds", "combat_result", "rounds", "round_cap",
	"friendly_wounds", "mishap", "lost_control", "wounds", "models_killed", "destroyed", "broke", "caught", "won", "fled"}

// scenarioCombatWork is the steps a scenario's combats may take together
// for their closed forms (rules.MaxScenarioCombatWork; tests lower it).
var scenarioCombatWork float64 = rules.MaxScenarioCombatWork

// combatBudget is what a scenario's combats have left of
// scenarioCombatWork, spent point by point in the scenario's order.
type combatBudget float64

// exact works out b's closed forms within what is left, and spends what
// its combat took.
func (w *combatBudget) exact(b *rules.Battle) rules.BattleExact {
	ex, spent := rules.ExactBattleWithin(b, float64(*w))
	*w -= combatBudget(spent)
	return ex
}

// exactMetrics are the metrics whose exact values rules.ExactBattle may
// work out.
var exactMetrics = map[recKind]rules.BattleMetric{
	recCharge:         rules.BattleChargeSuccess,
	recImpactHits:     rules.BattleImpactHits,
	recImpactWounds:   rules.BattleImpactWounds,
	recFriendlyWounds: rules.BattleFriendlyWounds,
	recWounds:         rules.BattleWounds,
	recKilled:         rules.BattleKilled,
	recDestroyed:      rules.BattleDestroyed,
	recCombatResult:   rules.BattleCombatResult,
	recRounds:         rules.BattleRounds,
	recRoundCap:       rules.BattleRoundCap,
	recBroke:          rules.BattleBroke,
	recCaught:         rules.BattleCaught,
	recWon:            rules.BattleWon,
	recLostControl:    rules.BattleLostControl,
	recFled:           rules.BattleFled,
}

type recorder struct {
	kind recKind
	unit int
}

// battleModel runs a battle and records its metrics.
type battleModel struct {
	b    *rules.Battle
	recs []recorder
}

func newBattleModel(b *rules.Battle) *battleModel {
	m := &battleModel{b: b}
	a := b.Units[0]
	has := func(p rules.Phase) bool { return slices.Contains(b.Phases, p) }
	if has(rules.PhaseCharge) {
		m.recs = append(m.recs, recorder{kind: recCharge})
	}
	if has(rules.PhaseCombat) && (!a.Impact.IsZero() || a.GrindAttack) {
		m.recs = append(m.recs, recorder{kind: recImpactHits}, recorder{kind: recImpactWounds})
	}
	if has(rules.PhaseCombat) {
		m.recs = append(m.recs, recorder{kind: recCombatResult}, recorder{kind: recRounds})
		if b.Options.Rounds == 0 {
			m.recs = append(m.recs, recorder{kind: recRoundCap})
		}
	}
	if a.Zzzzap && has(rules.PhaseShooting) {
		m.recs = append(m.recs, recorder{kind: recFriendlyWounds}, recorder{kind: recMishap})
	}
	if a.LossOfControl {
		m.recs = append(m.recs, recorder{kind: recLostControl})
	}
	for i := range b.Units {
		m.recs = append(m.recs, recorder{recWounds, i}, recorder{recKilled, i}, recorder{recDestroyed, i})
		switch {
		case i < 2 && has(rules.PhaseCombat) || b.MayMeet(i) && has(rules.PhaseCombat):
			m.recs = append(m.recs, recorder{recBroke, i}, recorder{recCaught, i}, recorder{recWon, i})
		case b.MayMeet(i):
			// No combat: a unit the acting unit's move runs into cannot
			// break or win, but it may be caught if it was fleeing.
			m.recs = append(m.recs, recorder{recCaught, i})
		case i == 0 && (b.TargetMayBeCaught() || mayMeetOther(b)):
			// No combat, but a charge or an Out of Control move may catch
			// the target, or another enemy, fleeing, and destroy it: a win.
			m.recs = append(m.recs, recorder{recWon, i})
		case i == 1 && b.TargetMayBeCaught():
			m.recs = append(m.recs, recorder{recCaught, i})
		}
		if i > 0 || b.ActingMayFlee() {
			// The acting unit flees from Panic too (heavy casualties from
			// its own Disaster, a friend lost nearby), where it may.
			m.recs = append(m.recs, recorder{recFled, i})
		}
	}
	return m
}

func (m *battleModel) Slots() []sim.Slot {
	out := make([]sim.Slot, len(m.recs))
	for i, rc := range m.recs {
		out[i] = sim.Slot{Name: recNames[rc.kind], Lo: 0, Hi: 1}
		switch rc.kind {
		case recWounds, recKilled:
			u := m.b.Units[rc.unit]
			out[i].Hi = u.Models * u.W
		case recCombatResult:
			out[i].Lo, out[i].Hi = -10, 10
		case recMishap:
			out[i].Hi = 7 // the results rolled, a bit each
		case recImpactHits, recImpactWounds, recFriendlyWounds:
			out[i].Hi = 20
		case recRounds:
			out[i].Hi = rules.MaxRounds
		}
	}
	return out
}

func (m *battleModel) NewTrial() sim.Trial { return &battleTrial{m: m, s: m.b.NewState()} }

type battleTrial struct {
	m *battleModel
	s *rules.State
}

func flag01(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (t *battleTrial) Run(r *dice.Rand, n int, tally *sim.Tally) {
	b, s := t.m.b, t.s
	for range n {
		b.Run(r, s)
		for i, rc := range t.m.recs {
			var v int
			switch rc.kind {
			case recCharge:
				v = flag01(s.Out.ChargeSuccess)
			case recImpactHits:
				v = s.Out.ImpactHits
			case recImpactWounds:
				v = s.Out.ImpactWounds
			case recCombatResult:
				if !s.Out.Fought {
					continue // the result is only defined when a combat was fought
				}
				v = s.Out.CombatResult
			case recRounds:
				v = s.Out.Rounds
			case recRoundCap:
				v = flag01(s.Out.RoundCap)
			case recWon:
				v = flag01(s.Won(rc.unit))
			case recFriendlyWounds:
				v = s.Out.FriendlyWounds
			case recMishap:
				v = int(s.Out.Mishaps)
			case recLostControl:
				v = flag01(s.Out.LostControl)
			case recWounds:
				v = s.Units[rc.unit].Wounds
			case recKilled:
				v = b.Units[rc.unit].Models - s.Units[rc.unit].Alive
			case recDestroyed:
				v = flag01(s.Units[rc.unit].Destroyed())
			case recBroke:
				v = flag01(s.Units[rc.unit].Broke)
			case recCaught:
				v = flag01(s.Units[rc.unit].Caught)
			case recFled:
				v = flag01(s.Out.Panicked[rc.unit])
			}
			tally.H[i].Add(v)
		}
	}
}

// estimates reads one point's metrics from its tally.
func (m *battleModel) estimates(ps []sim.Param, t *sim.Tally, trials int64, ex rules.BattleExact) []sim.Estimate {
	var out []sim.Estimate
	withUnit := func(i int) []sim.Param {
		return append(slices.Clone(ps), sim.Param{Name: "unit", Value: m.b.Units[i].Name})
	}
	for i, rc := range m.recs {
		h := &t.H[i]
		name := recNames[rc.kind]
		var e sim.Estimate
		switch rc.kind {
		case recCharge, recLostControl, recRoundCap:
			e = sim.ProbabilityOf(name, ps, h.Count(1), trials)
			if rc.kind == recRoundCap {
				// "round cap" alone reads as a thing, not an event.
				e.Title = fmt.Sprintf("combat stopped at the %d-round cap", rules.MaxRounds)
			}
		case recDestroyed, recBroke, recCaught, recWon, recFled:
			e = sim.ProbabilityOf(name, withUnit(rc.unit), h.Count(1), trials)
		case recMishap:
			// The slot holds the results the chart gave, bit k for the
			// result k+1: the trials that rolled result k+1 at least once.
			for k, result := range rules.MishapNames() {
				n := int64(0)
				for v := 1; v < 8; v++ {
					if v&(1<<k) != 0 {
						n += h.Count(v)
					}
				}
				e := sim.ProbabilityOf(name, append(slices.Clone(ps), sim.Param{Name: "result", Value: result}), n, trials)
				if p, has := ex.Mishap(k); has {
					e = e.WithExact(p)
				}
				out = append(out, e)
			}
			continue
		case recWounds, recKilled:
			e = sim.MeanOf(name, withUnit(rc.unit), h).AtLeast(0)
			e.Title = sufferedTitles[name]
		default:
			e = sim.MeanOf(name, ps, h)
			if rc.kind == recCombatResult {
				e.Title = "combat result, attacker's less target's"
			} else {
				e = e.AtLeast(0) // the other averages are counts
			}
		}
		if metric, known := exactMetrics[rc.kind]; known {
			if d, has := ex.Dist(metric, rc.unit); has && e.Kind == sim.Mean {
				e = e.WithExactPMF(sim.PMF{Min: d.Min, P: d.P})
			}
			// The closed-form mean stands as the exact value, rather than
			// its distribution's mean, which rounding may part from it.
			if v, has := ex.Value(metric, rc.unit); has {
				e = e.WithExact(v)
			}
		}
		out = append(out, e)
		// Points efficiency: the damage the acting unit does to its target,
		// per 100 of its points.
		if pts := m.b.Units[0].Points; pts > 0 && rc.unit == 1 && (rc.kind == recWounds || rc.kind == recKilled) {
			per := per100Points(e, name+"_per_100_points", ps, pts)
			per.Title = per100Titles[name]
			out = append(out, per)
		}
	}
	return out
}

// sufferedTitles are the readers' names of the per-unit metrics, which
// count what befell the unit: beside a unit's name, "wounds" and
// "models_killed" would read as what the unit did.
var sufferedTitles = map[string]string{
	"wounds":        "wounds suffered",
	"models_killed": "models lost",
}

// per100Titles are the readers' names of the points metrics: the
// damage the target took, per 100 of the acting unit's points.
var per100Titles = map[string]string{
	"wounds":        "target's wounds per 100 attacker points",
	"models_killed": "target's models lost per 100 attacker points",
}

// per100Points scales a damage estimate to 100 of the attacker's points.
func per100Points(e sim.Estimate, metric string, ps []sim.Param, points float64) sim.Estimate {
	return e.Scaled(metric, ps, 100, points)
}

// balanceGrid lays out models killed per 100 points as attackers by
// targets, when a battle sweeps both and some attacker has points (one
// without has no such metric, and its row stays empty).
func balanceGrid(axes scenarios.Axes, pointed bool) *sim.Grid {
	var att, tgt bool
	for _, a := range axes {
		att = att || a.Name == "attacker"
		tgt = tgt || a.Name == "target"
	}
	if !att || !tgt || !pointed {
		return nil
	}
	return &sim.Grid{Metric: "models_killed_per_100_points", Rows: "attacker", Cols: "target"}
}
