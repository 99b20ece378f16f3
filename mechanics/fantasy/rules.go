package fantasy

import (
	"hammersim/mechanics"
	"hammersim/mechanics/dice"
)

// Rule names, as printed on unit cards.
const (
	RuleSwiftstride    = "Swiftstride"
	RuleRandomMovement = "Random Movement"
	RuleFly            = "Fly"
	RuleTunneller      = "Tunneller"
	RuleImpactHits     = "Impact Hits"
	RuleScythes        = "Scythes"
	RuleStomp          = "Stomp"
	RuleGrindAttack    = "Grind Attack"
	RuleZzzzap         = "Zzzzap!"
	RuleLossOfControl  = "Loss of Control"
	RuleTerror         = "Terror"
	RuleFear           = "Fear"
	RuleImmunity       = "Immunity"
	RuleStubborn       = "Stubborn"
	RuleUnbreakable    = "Unbreakable"
	RuleKillingBlow    = "Killing Blow"
	RuleMultipleWounds = "Multiple Wounds"
	RuleRandomAttacks  = "Random Attacks"
	RuleStrikesFirst   = "Always Strikes First"
	RuleStrikesLast    = "Always Strikes Last"
	RuleLargeTarget    = "Large Target"
	RuleNaturalArmour  = "Natural Armour"
	RuleDreadMaw       = "Dread Maw"
	RuleSkirmishers    = "Skirmishers"
)

// Catalogue lists the special rules this package implements, with the
// value each takes in brackets. Summaries paraphrase the WAP unit cards (docs/fantasy.md).
var Catalogue = mechanics.Catalogue{
	{Name: RuleSwiftstride, Summary: "Charge, failed-charge, flee and pursuit rolls by the Swiftstride table; " +
		"no effect below M 4, with Random Movement or on a Tunneller."},
	{Name: RuleRandomMovement, Arg: mechanics.DiceArg, Summary: "The roll in brackets is the distance the unit moves, " +
		"charges, flees and pursues; Swiftstride is not used; reaching an enemy counts as charging, without charge reactions."},
	{Name: RuleFly, Arg: mechanics.IntArg, Min: 1, Max: 30, Summary: "Flying moves and charges use the value in brackets " +
		"as M; a flying charge uses Swiftstride; flees and pursuits are on the ground; a flying unit of several models is Skirmishers."},
	{Name: RuleTunneller, Aliases: []string{"Tunneler", "Tunnellers", "Tunnelers"}, Arg: mechanics.IntArg, Min: 1, Max: 30,
		Summary: "Moves and charges as Fly with the value in brackets, but never with Swiftstride (the Dread Maw)."},
	{Name: RuleImpactHits, Arg: mechanics.DiceArg, Summary: "On the turn of a successful charge, before any other blows, " +
		"each model in base contact inflicts the number in brackets of automatic hits at its S on the charged unit; no Parry; two sets: the highest."},
	{Name: RuleScythes, Summary: "Impact Hits (+1)."},
	{Name: RuleStomp, Summary: "Always Strikes Last: each model in base contact makes D6 automatic hits at its S (D3 against a lone infantry model or Skirmishers) on an Infantry, War Beasts or Swarm unit."},
	{Name: RuleGrindAttack, Summary: "Every round of combat the machine fights without having charged opens with D3+1 Impact Hits from each machine in base contact (Doomwheel)."},
	{Name: RuleZzzzap, Aliases: []string{"Zzzzap"}, Summary: "In its Shooting phase, even in combat or fleeing, bolts at one Artillery dice's S strike the closest unit on either side; a Misfire rolls the Mishap chart (Doomwheel)."},
	{Name: RuleLossOfControl, Summary: "After a phase in which it was wounded out of combat and not fleeing, a D6 per wound: any 1 and it goes Out of Control (Doomwheel)."},
	{Name: RuleTerror, Summary: "Causes Fear, also to Fear-causers; a charge it declares makes the target take a Panic test and flee on failure; " +
		"charging it needs a Psychology test unless immune to Terror or causing Fear; immune to Fear and Terror."},
	{Name: RuleFear, Summary: "+1 combat result (+2 with double the enemy's Unit Strength) against units not immune to Fear."},
	{Name: RuleImmunity, Arg: mechanics.WordsArg, Words: []string{"psychology", "fear", "terror", "panic", "fear/terror"},
		Summary: "Ignores the rules in brackets; Immunity (Psychology), or immunity to Fear, Terror and Panic all three, passes every psychology test and never flees as a charge reaction."},
	{Name: RuleStubborn, Summary: "Always Steadfast: takes break tests on its unmodified Leadership."},
	{Name: RuleUnbreakable, Summary: "Never takes break tests, and has Immunity (Psychology): no Fear, Terror or Panic, and never flees as a charge reaction."},
	{Name: RuleKillingBlow, Summary: "A natural 6 to wound slays an infantry, cavalry or war beast model outright, with no armour save; " +
		"against other types, by the killing_blow option: one wound ignoring armour (default), that wound multiplied, or nothing."},
	{Name: RuleMultipleWounds, Arg: mechanics.DiceArg, Min: 1, Summary: "Each unsaved wound becomes the number in brackets of wounds, no more than the model has left."},
	{Name: RuleRandomAttacks, Arg: mechanics.DiceArg, Summary: "The model's Attacks are the roll in brackets, rolled for each model each time it strikes."},
	{Name: RuleStrikesFirst, Summary: "Strikes before Initiative order; re-rolls failed hits when its Initiative is higher than the enemy's."},
	{Name: RuleStrikesLast, Summary: "Strikes after everything else; re-rolls successful hits when its Initiative is lower than the enemy's."},
	{Name: RuleLargeTarget, Arg: mechanics.IntArg, Min: 1, Max: 10, Summary: "Line of Sight value; no effect on the questions hammersim simulates."},
	{Name: RuleNaturalArmour, Arg: mechanics.SaveArg, Summary: "An armour save of the value in brackets, improved by other armour as normal."},
	{Name: RuleDreadMaw, Summary: "Always Strikes First on the turn it charges; the unit it charges gets no benefit from ranks in the first round " +
		"(no rank bonus, supporting attacks or Steadfast); two extra Chomp attacks with Killing Blow and Multiple Wounds (D6)."},
	{Name: RuleSkirmishers, Summary: "Never Steadfast; no rank bonus and cannot disrupt, unless the skirmishers_ranks and skirmishers_disrupt options say so; " +
		"Stomps on them make D3 hits. Every flying unit of more than one model has it."},
}

// ruleTroops restricts rules to the troop types that can carry them: a
// Stomp is a monster's, the Doomwheel's rules a machine's.
var ruleTroops = map[string][]TroopType{
	RuleStomp:         {Monster, MonstrousInfantry, MonstrousCavalry, MonstrousBeast},
	RuleGrindAttack:   {Chariot, WarMachine},
	RuleZzzzap:        {Chariot, WarMachine},
	RuleLossOfControl: {Chariot, WarMachine},
	RuleScythes:       {Chariot, WarMachine},
	RuleDreadMaw:      {Monster},
	RuleTunneller:     {Monster},
}

// AllowedOn reports whether the rule may be on a unit of troop type t, and
// if not, the types that may carry it.
func AllowedOn(rule string, t TroopType) (bool, []TroopType) {
	allowed, ok := ruleTroops[rule]
	if !ok {
		return true, nil
	}
	for _, a := range allowed {
		if a == t {
			return true, nil
		}
	}
	return false, allowed
}

// HighestImpact picks the set of Impact Hits a model uses when it has more
// than one: the highest set, not their total (unit card), judged by the mean
// roll and then the maximum.
func HighestImpact(sets []dice.Expr) dice.Expr {
	var best dice.Expr
	for _, s := range sets {
		if best.IsZero() || slower(best, s) {
			best = s
		}
	}
	return best
}

// slower reports whether roll a is below roll b: the lower mean, then the
// lower maximum. Means within a part in 10^9 are equal (D6+1 and 3D2 are
// both 4.5, whichever way a machine rounds their sums' last bits), so that
// the choice is the same on every machine.
func slower(a, b dice.Expr) bool {
	da, db := a.Dist(), b.Dist()
	if ma, mb := da.Mean(), db.Mean(); mechanics.Exceeds(ma, mb) || mechanics.Exceeds(mb, ma) {
		return ma < mb
	}
	return da.Max() < db.Max()
}

// ChompAttacks are the Dread Maw's two extra attacks: Killing Blow and
// Multiple Wounds (D6), at the model's own WS, S and I.
func ChompAttacks(ws, s, i int) Attacker {
	return Attacker{Name: "Chomp", WS: ws, S: s, I: i, A: dice.Const(2), PerBody: 1, Killing: true, Multiple: dice.Dice(1, 6), Extra: true}
}
