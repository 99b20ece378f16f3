package fantasy

import (
	"fmt"

	"hammersim/mechanics"
	"hammersim/mechanics/dice"
	rules "hammersim/mechanics/fantasy"
	"hammersim/scenarios"
)

// cardCheck collects the problems found while building a unit for a
// battle: each is reported where it was written, and any one fails it.
type cardCheck struct {
	d  *scenarios.Decoder
	ok bool
}

func (c *cardCheck) fail(n *scenarios.Node, format string, args ...any) {
	c.d.Errorf(n, format, args...)
	c.ok = false
}

// battleUnit builds the mechanics' unit from a unit card at one point,
// checking what a battle needs: a profile that can be hit and can strike,
// and rules that suit the troop type.
func battleUnit(d *scenarios.Decoder, u *unit) (*rules.Unit, bool) {
	c := &cardCheck{d: d, ok: true}
	mover, movable := moverOf(d, u)
	c.ok = c.ok && movable
	need := []string{"T", "Ld"}
	switch {
	case len(u.spec.crew) == 0:
		need = append(need, "WS", "S", "I")
	case !ridesMount(u):
		need = append(need, "S") // the machine's own Strength: Impact Hits, Stomps
	}
	for _, k := range need {
		if !u.has[k] {
			c.fail(u.spec.node, "unit %q needs %s for a battle", u.Name, k)
		}
	}
	fu := profileOf(u, mover)
	attackersOf(c, u, fu)
	if ridesMount(u) && !u.has["S"] {
		// Without the unit's S each profile strikes at its own, and the
		// mount's, the last crew profile's, strikes the Impact Hits (WAP
		// gives them to the mount).
		for _, cr := range u.spec.crew {
			if _, has := cr.stats["S"]; !has {
				c.fail(cr.node, "crew %q needs S: unit %q gives none of its own", cr.name, u.Name)
			}
		}
		fu.S = fu.Attackers[len(u.spec.crew)-1].S
	}
	if ch := u.spec.champion; ch != nil {
		addChampion(c, u, fu, ch)
	}
	if n := flag01(u.spec.champion != nil) + flag01(fu.Standard) + flag01(fu.Musician); n > fu.Models {
		// Each command model is one of the unit's models, an upgrade of a
		// rank-and-file one (WAP/command-groups/fielding-command-groups).
		c.fail(u.keyNode("musician"), "unit %q: %d command models (champion, standard bearer, musician) in a unit of %d; each is one of its models", u.Name, n, fu.Models)
	}
	applyRules(u, fu)
	if fu.Parry < rules.NoSave && fu.Mounted() {
		what := fu.Troop.String()
		if fu.Troop != rules.Chariot {
			what += " with a rider and a mount"
		}
		c.fail(u.keyNode("parry"), "unit %q is %s: mounted models may not take a Parry save (docs/fantasy.md, Parry)", u.Name, what)
	}
	if len(fu.Attackers) > rules.MaxAttackers {
		c.fail(u.spec.node, "unit %q has %d attack profiles; at most %d", u.Name, len(fu.Attackers), rules.MaxAttackers)
	}
	if m := u.spec.missile; m != nil {
		if !u.has["BS"] {
			c.fail(m.node, "unit %q has a missile weapon but no BS", u.Name)
		}
		fu.Missile = u.missile
	}
	for i, r := range u.Rules {
		if why := misplacedRule(r.Spec.Name, u.Name, fu.Troop); why != "" {
			c.fail(u.ruleNodes[i], "%s", why)
		}
	}
	return fu, c.ok
}

// flyingUnread says why a unit's flying key decides nothing, with where it
// is written: a unit that moves by Random Movement (its roll is the whole
// of every move), or one with no Fly or Tunneller (it charges on the
// ground whatever the key says). It returns "" where the key is read, or
// not written.
func flyingUnread(u *unit, mover rules.Mover) (*scenarios.Node, string) {
	n, set := u.spec.nodes["flying"]
	switch {
	case !set:
		return nil, ""
	case !mover.Random.IsZero():
		return n, fmt.Sprintf("flying on unit %q, which moves by Random Movement: its roll is the whole of every move, so flying decides nothing; remove it", u.Name)
	case mover.Fly == 0:
		return n, fmt.Sprintf("flying on unit %q, which has no Fly or Tunneller: it charges on the ground, so flying decides nothing; remove it", u.Name)
	}
	return nil, ""
}

// stat returns the card's value of key k, or def when it has none.
func (u *unit) stat(k string, def int) int {
	if u.has[k] {
		return u.stats[k]
	}
	return def
}

// profileOf is the unit's profile, formation and flags, as the card gives
// them or as its troop type implies.
func profileOf(u *unit, mover rules.Mover) *rules.Unit {
	fu := &rules.Unit{
		Name: u.Name, Troop: u.troop, Models: u.stat("models", 1),
		WS: u.stat("WS", 0), S: u.stat("S", 0), T: u.stat("T", 1), W: u.stat("W", 1), I: u.stat("I", 0),
		Ld: u.stat("Ld", 0), BS: u.stat("BS", 0),
		Ward: u.saves["ward"], Parry: u.saves["parry"],
		Mover:          mover,
		Standard:       u.flags["standard"],
		Musician:       u.flags["musician"],
		BattleStandard: u.flags["battle_standard"],
		Flank:          u.flags["flank"],
		Rear:           u.flags["rear"],
		HigherGround:   u.flags["higher_ground"],
		Points:         u.points,
	}
	fu.Flying = mover.Fly > 0
	if f, set := u.flags["flying"]; set {
		fu.Flying = f && mover.Fly > 0
	}
	// Five wide, or as wide as the unit is, whatever its troop type: a unit
	// of several chariots, monsters or swarm bases stands in a line as
	// rank-and-file do (only its ranks count for nothing).
	fu.Width = u.stat("width", min(fu.Models, 5))
	fu.FrontMM = u.stat("base", defaultBase[fu.Troop])
	fu.DepthMM = u.stat("base_depth", fu.FrontMM*baseDepthRatio(fu.Troop))
	fu.US = u.stat("unit_strength", defaultUS(u, fu))
	fu.Armour = u.saves["armour"]
	if r, has := u.rule(rules.RuleNaturalArmour); has {
		fu.Armour = rules.CombineArmour(fu.Armour, r.Int)
	}
	return fu
}

// ridesMount reports whether the card's models are riders on a mount:
// Cavalry or Monstrous Cavalry with a crew of more than one profile, the
// mount last.
func ridesMount(u *unit) bool {
	return (u.troop == rules.Cavalry || u.troop == rules.MonstrousCavalry) && len(u.spec.crew) > 1
}

// defaultUS is a model's Unit Strength when the card gives none: its
// troop type's (TroopType.UnitStrength), with a ridden Monster's riders
// added; a War Machine with a crew has one for each crewman (WAP, troop
// types, War Machines: its crew, who are not wounded apart from the
// machine here, so they count while it stands).
func defaultUS(u *unit, fu *rules.Unit) int {
	if u.troop == rules.WarMachine && len(u.spec.crew) > 0 {
		return crewModels(u.spec.crew)
	}
	return fu.Troop.UnitStrength(fu.W) + riders(u)
}

// crewModels counts the models of crew profiles.
func crewModels(crew []*profileSpec) int {
	n := 0
	for _, cr := range crew {
		n += cr.count
	}
	return n
}

// riders is what a ridden Monster's riders add to its Unit Strength, one
// each (WAP, troop types, Monsters): the models of every crew profile but
// the last, which is the monster's own (a rider before his mount). Other
// troop types' crews add nothing.
func riders(u *unit) int {
	if u.troop != rules.Monster || len(u.spec.crew) < 2 {
		return 0
	}
	return crewModels(u.spec.crew[:len(u.spec.crew)-1])
}

// attackersOf adds the body's own attacks, or its crew's.
func attackersOf(c *cardCheck, u *unit, fu *rules.Unit) {
	randomAttacks, hasRandom := u.rule(rules.RuleRandomAttacks)
	if len(u.spec.crew) == 0 {
		a := u.A
		switch {
		case hasRandom && u.HasA && a.String() != randomAttacks.Dice.String():
			c.fail(u.keyNode("A"), "unit %q has A %s and Random Attacks (%s); give one", u.Name, a, randomAttacks.Dice)
		case hasRandom:
			a = randomAttacks.Dice
		case !u.HasA:
			c.fail(u.spec.node, "unit %q needs A for a battle", u.Name)
		}
		fu.Attackers = append(fu.Attackers, rules.Attacker{Name: u.Name, WS: fu.WS, S: fu.S, I: fu.I, A: a, PerBody: 1})
		return
	}
	if u.HasA {
		c.fail(u.keyNode("A"), "unit %q has a crew: give A to each crew profile instead", u.Name)
	}
	for _, cr := range u.spec.crew {
		a := cr.A
		if !cr.hasA {
			if !hasRandom {
				c.fail(cr.node, "crew %q needs A", cr.name)
			}
			a = randomAttacks.Dice
		}
		stat := func(k string, def int) int {
			if v, has := cr.stats[k]; has {
				return v
			}
			return def
		}
		fu.Attackers = append(fu.Attackers, rules.Attacker{Name: cr.name, WS: stat("WS", fu.WS), S: stat("S", fu.S), I: stat("I", fu.I), A: a, PerBody: cr.count})
	}
	if fu.WS == 0 {
		fu.WS = hitWS(fu)
	}
	if fu.I == 0 {
		fu.I = fu.Attackers[0].I
		// The stomping model is the last profile, the monster or mount
		// its riders sit on, as it is the mount's S that strikes the
		// Impact Hits of riders.
		fu.StompI = fu.Attackers[len(u.spec.crew)-1].I
	}
}

// hitWS is the WS enemies roll to hit against for a unit that gives none
// of its own but strikes with a crew: the highest of its profiles for
// riders (Cavalry and Monstrous Cavalry, and ridden Monsters, which follow
// Cavalry's split profile; WAP, troop types, Cavalry and Monsters), the
// crew's, its first profile, for a machine (a Chariot or War Machine is hit
// as its crew would be; W9E, troop types, Chariots).
func hitWS(fu *rules.Unit) int {
	switch fu.Troop {
	case rules.Cavalry, rules.MonstrousCavalry, rules.Monster:
		ws := 0
		for _, a := range fu.Attackers {
			ws = max(ws, a.WS)
		}
		return ws
	}
	return fu.Attackers[0].WS
}

// addChampion adds the champion's attacks: the first profile's, with the
// champion's own values where it has them.
func addChampion(c *cardCheck, u *unit, fu *rules.Unit, ch *profileSpec) {
	if fu.Models < 2 {
		c.fail(ch.node, "unit %q has one model; a champion needs a unit to lead", u.Name)
	}
	a := fu.Attackers[0]
	a.Name, a.Champion = ch.name, true
	if v, has := ch.stats["WS"]; has {
		a.WS = v
	}
	if v, has := ch.stats["S"]; has {
		a.S = v
	}
	if v, has := ch.stats["I"]; has {
		a.I = v
	}
	if ch.hasA {
		a.A = ch.A
	}
	fu.Attackers = append(fu.Attackers, a)
}

// applyRules sets what the unit's special rules change: its attacks, its
// Impact Hits and its psychology. Skirmishers: a flying unit of more than
// one model has them (Fly unit card), as does a unit with the rule itself.
func applyRules(u *unit, fu *rules.Unit) {
	for i := range fu.Attackers {
		a := &fu.Attackers[i]
		// The unit's rules, and the profile's own: a crew profile's, or
		// for a champion the first profile's, whose place it takes.
		var own []mechanics.Rule
		switch {
		case a.Champion && len(u.spec.crew) > 0:
			own = u.spec.crew[0].rules
		case i < len(u.spec.crew):
			own = u.spec.crew[i].rules
		}
		has := func(name string) (mechanics.Rule, bool) {
			if r, ok := u.rule(name); ok {
				return r, true
			}
			for _, r := range own {
				if r.Spec.Name == name {
					return r, true
				}
			}
			return mechanics.Rule{}, false
		}
		_, a.Killing = has(rules.RuleKillingBlow)
		if r, ok := has(rules.RuleMultipleWounds); ok {
			a.Multiple = r.Dice
		}
		_, a.ASF = has(rules.RuleStrikesFirst)
		_, a.ASL = has(rules.RuleStrikesLast)
	}
	if _, has := u.rule(rules.RuleDreadMaw); has {
		fu.DreadMaw = true
		fu.Attackers = append(fu.Attackers, rules.ChompAttacks(fu.WS, fu.S, fu.I))
	}
	var impacts []dice.Expr
	for _, r := range u.rulesNamed(rules.RuleImpactHits) {
		impacts = append(impacts, r.Dice)
	}
	fu.Impact = rules.HighestImpact(impacts)
	if _, has := u.rule(rules.RuleScythes); has {
		fu.Impact = fu.Impact.Plus(1)
		fu.Scythes = true
	}
	_, fu.Stomp = u.rule(rules.RuleStomp)
	_, fu.GrindAttack = u.rule(rules.RuleGrindAttack)
	_, fu.Zzzzap = u.rule(rules.RuleZzzzap)
	_, fu.LossOfControl = u.rule(rules.RuleLossOfControl)
	_, fu.Terror = u.rule(rules.RuleTerror)
	_, fu.Fear = u.rule(rules.RuleFear)
	_, fu.Stubborn = u.rule(rules.RuleStubborn)
	_, fu.Unbreakable = u.rule(rules.RuleUnbreakable)
	// Unbreakable models have Immunity (Psychology) (WAP/special-rules/unbreakable).
	fu.ImmunePsychology = fu.Unbreakable
	_, fu.Skirmishers = u.rule(rules.RuleSkirmishers)
	fu.Skirmishers = fu.Skirmishers || (fu.Mover.Fly > 0 && !fu.Mover.Tunneller && fu.Models > 1)
	for _, r := range u.rulesNamed(rules.RuleImmunity) {
		switch r.Words {
		case "psychology":
			fu.ImmunePsychology = true
		case "fear":
			fu.ImmuneFear = true
		case "terror":
			fu.ImmuneTerror = true
		case "panic":
			fu.ImmunePanic = true
		case "fear/terror":
			fu.ImmuneFear, fu.ImmuneTerror = true, true
		}
	}
	// Immune to all three of Fear, Terror and Panic is Immunity
	// (Psychology), however the immunities come (WAP, Immunity
	// (Psychology)): every psychology test passed, and no Flee! reaction.
	// A Terror-causer has Immunity (Fear/Terror) (unit card, Terror). A
	// Fear-causer is not immune to Fear in full: it treats a
	// Terror-causer as causing Fear (the exception the Terror card makes
	// to its immunity), so its own Fear does not count here.
	immuneFear := fu.ImmuneFear || fu.Terror
	immuneTerror := fu.ImmuneTerror || fu.Terror
	if immuneFear && immuneTerror && fu.ImmunePanic {
		fu.ImmunePsychology = true
	}
}

// baseDepthRatio is how many times its width a model's base is deep, by
// troop type, when the card does not say: twice for Cavalry, War Beasts
// and Chariots (25 by 50 mm, 50 by 100 mm), square for the rest.
func baseDepthRatio(t rules.TroopType) int {
	switch t {
	case rules.Cavalry, rules.WarBeasts, rules.Chariot:
		return 2
	}
	return 1
}

// defaultBase is a model's base width in millimetres by troop type, when
// the card does not say: the usual sizes of the range.
var defaultBase = map[rules.TroopType]int{
	rules.Infantry: 20, rules.LargeInfantry: 25, rules.Cavalry: 25, rules.WarBeasts: 25, rules.Swarm: 40,
	rules.MonstrousInfantry: 40, rules.MonstrousCavalry: 50, rules.MonstrousBeast: 40,
	rules.Monster: 50, rules.Chariot: 50, rules.WarMachine: 50,
}
