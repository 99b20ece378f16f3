package heresy

import (
	"fmt"
	"strconv"
	"strings"

	"hammersim/mechanics"
)

// Rule names, as printed on unit cards and weapon profiles.
const (
	RuleAutomatedArtillery = "Automated Artillery"
	RuleBulky              = "Bulky"
	RuleSentryProtocols    = "Sentry Protocols"
	RuleFiringProtocols    = "Firing Protocols"
	RuleLordsOfProfligacy  = "Lords of Profligacy"
	RuleFearless           = "Fearless"
	RuleFeelNoPain         = "Feel No Pain"
	RuleEternalWarrior     = "Eternal Warrior"
	RuleInstantDeath       = "Instant Death"
	RuleIgnoresCover       = "Ignores Cover"
	RuleFear               = "Fear"
	RuleFuriousCharge      = "Furious Charge"
	RuleRending            = "Rending"
	RuleBreaching          = "Breaching"
	RuleShred              = "Shred"
	RuleArmourbane         = "Armourbane"
	RuleTwinLinked         = "Twin-linked"
	RuleMasterCrafted      = "Master-crafted"
	RuleGetsHot            = "Gets Hot"
	RulePoisoned           = "Poisoned"
	RuleFleshbane          = "Fleshbane"
	RuleMurderousStrike    = "Murderous Strike"
	RuleBrutal             = "Brutal"
	RuleDeflagrate         = "Deflagrate"
	RuleConcussive         = "Concussive"
	RuleRadPhage           = "Rad-phage"
	RuleSniper             = "Sniper"
	RulePrecisionShots     = "Precision Shots"
	RuleBlast              = "Blast"
	RuleTemplate           = "Template"
)

// blastWords are the Blast (X) marker sizes, with or without the inch mark.
var blastWords = []string{"3\"", "5\"", "7\"", "10\"", "3", "5", "7", "10"}

// armourbaneWords are the variants of Armourbane (X), and "any", the
// bare rule's, which limits it to no kind of attack and is not written in
// brackets (mechanics.RuleSpec.Bare).
var armourbaneWords = []string{"melta", "melee", "ranged", "any"}

// feelNoPainWords are the values Feel No Pain (X) takes: a D6 score, with or
// without its "+".
var feelNoPainWords = []string{"2+", "3+", "4+", "5+", "6+", "2", "3", "4", "5", "6"}

// Catalogue lists the Horus Heresy special rules this package implements,
// with the value each takes in brackets and what it is written on: a
// model or a weapon, which Profile.Apply and Weapon.Apply take exactly
// (TestCatalogueHolders). Summaries paraphrase the rule text and the
// rulebook pages docs/heresy.md cites. Stupefied and Snap Shots are states
// a unit is in, not rules printed on a card: see Status and
// Unit.ShootingBS.
var Catalogue = mechanics.Catalogue{
	{Name: RuleAutomatedArtillery, On: mechanics.OnModel, Aliases: []string{"Automated Artillery Sub-type", "Automated Artillery Subtype"},
		Summary: "Unit sub-type: no Running, no Charges, no Sweeping Advances, only the Interceptor Advanced Reaction; " +
			"destroyed without dice by a Sweeping Advance; never holds or denies an Objective."},
	{Name: RuleBulky, On: mechanics.OnModel, Arg: mechanics.IntArg, Min: 1, Max: 50,
		Summary: "Each model counts as X models for Transport Capacity and for outnumbering in combat."},
	{Name: RuleSentryProtocols, On: mechanics.OnModel,
		Summary: "Must shoot the enemy unit whose closest model in line of sight is nearest, in its own Shooting phase."},
	{Name: RuleFiringProtocols, On: mechanics.OnModel, Arg: mechanics.IntArg, Min: 1, Max: 10,
		Summary: "In one Shooting Attack each model may fire up to X different weapons, never one weapon twice."},
	{Name: RuleLordsOfProfligacy, On: mechanics.OnModel,
		Summary: "After a Shooting Attack against the unit, if every model has it and it is not Falling Back, it may become " +
			"Stupefied: Snap Shots only, no Reactions, Disordered charges, +1 Strength, a 6+ Damage Mitigation roll " +
			"(5+ if Fearless, never against Instant Death), no Morale checks in the Movement and Shooting phases, no " +
			"Pinning; ends at the end of its player's following turn or when forced to move."},
	{Name: RuleFearless, On: mechanics.OnModel,
		Summary: "Passes every Pinning, Regroup and Morale test without rolling and ignores Fear, but may not use " +
			"Reactions that grant a Cover, Armour or Invulnerable Save; gaining it ends being Pinned."},
	{Name: RuleFeelNoPain, On: mechanics.OnModel, Aliases: []string{"FNP"}, Arg: mechanics.WordsArg, Words: feelNoPainWords,
		Summary: "A Damage Mitigation roll of X+ ignores an unsaved wound; one such roll per wound at most; not against " +
			"Instant Death by default."},
	{Name: RuleEternalWarrior, On: mechanics.OnModel,
		Summary: "Instant Death costs the model one wound instead of killing it outright."},
	{Name: RuleInstantDeath, On: mechanics.OnWeapon,
		Summary: "Weapon rule: each unsaved wound removes the model whatever its wounds left (as Strength double its " +
			"Toughness does); no Stupefied roll against it."},
	{Name: RuleIgnoresCover, On: mechanics.OnWeapon,
		Summary: "Weapon rule: no cover save may be taken against it."},
	{Name: RuleFear, On: mechanics.OnModel, Arg: mechanics.IntArg, Min: 1, Max: 5,
		Summary: "Enemy units take -X Leadership on Morale checks, Regroup tests and Pinning tests (in close combat, only its opponent); Fearless units ignore it (rulebook p.238)."},
	{Name: RuleFuriousCharge, On: mechanics.OnModel, Arg: mechanics.IntArg, Min: 1, Max: 5,
		Summary: "+X Strength in a turn the model charged, unless the charge was Disordered (rulebook p.239)."},
	{Name: RuleRending, On: mechanics.OnWeapon, Arg: mechanics.SaveArg,
		Summary: "Weapon rule: a To Wound roll of X+ wounds whatever the Toughness and is AP2 (rulebook p.246)."},
	{Name: RuleBreaching, On: mechanics.OnWeapon, Arg: mechanics.SaveArg,
		Summary: "Weapon rule: a successful To Wound roll of X+ is AP2 (Liber p.117)."},
	{Name: RuleShred, On: mechanics.OnWeapon, Summary: "Weapon rule: failed To Wound rolls are re-rolled (rulebook p.246)."},
	{Name: RuleArmourbane, On: mechanics.OnWeapon, Arg: mechanics.WordsArg, Words: armourbaneWords, Bare: "any",
		Summary: "Weapon rule: failed To Wound rolls are re-rolled against Dreadnoughts and Automata (the unit's type); (Melta) only at half range or less, " +
			"(Melee) only in close combat, (Ranged) only in Shooting Attacks; its extra penetration die against Vehicles is not modelled (rulebook p.231)."},
	{Name: RuleTwinLinked, On: mechanics.OnWeapon, Aliases: []string{"Twin linked"},
		Summary: "Weapon rule: failed To Hit rolls are re-rolled; a Template re-rolls its failed To Wound rolls instead (rulebook p.249); " +
			"a Blast's scatter is not modelled, so it gains nothing here."},
	{Name: RuleMasterCrafted, On: mechanics.OnWeapon, Aliases: []string{"Master crafted"},
		Summary: "Weapon rule: each bearer re-rolls one failed To Hit roll per attack (rulebook p.243); nothing for Blast and Template, which roll none."},
	{Name: RuleGetsHot, On: mechanics.OnWeapon, Summary: "Weapon rule: each To Hit roll that ends on a 1 (a D6 per shot for Blast and Template, whose 1 loses the shot) " +
		"wounds the firer at the weapon's AP; armour, invulnerable saves and Feel No Pain allowed, no cover or Shrouded roll (rulebook p.239); " +
		"the Stupefied roll allowed too, hammersim's reading (the rule neither grants nor bars it)."},
	{Name: RulePoisoned, On: mechanics.OnWeapon, Arg: mechanics.SaveArg, Bare: "4+",
		Summary: "Weapon rule: wounds on X+ (the chart's score when lower, by default), a bare Poisoned on 4+; in close combat re-rolls failed wounds when the wielder's or the weapon's S is above T (rulebook p.244)."},
	{Name: RuleFleshbane, On: mechanics.OnWeapon, Summary: "Weapon rule: wounds on 2+ (rulebook p.238)."},
	{Name: RuleMurderousStrike, On: mechanics.OnWeapon, Arg: mechanics.SaveArg,
		Summary: "Weapon rule: a To Wound roll of X+ has Instant Death (rulebook p.243)."},
	{Name: RuleBrutal, On: mechanics.OnWeapon, Arg: mechanics.IntArg, Min: 2, Max: maxBrutal,
		Summary: "Weapon rule: each wound becomes X wounds at the same AP, saved one by one, all on the same model (Liber p.117)."},
	{Name: RuleDeflagrate, On: mechanics.OnWeapon, Summary: "Weapon rule: after the weapon's wounds, one more automatic hit per unsaved wound, at its S and AP with no other " +
		"special rule; these hits score none themselves (rulebook p.237)."},
	{Name: RuleConcussive, On: mechanics.OnWeapon, Arg: mechanics.IntArg, Min: 1, Max: 5,
		Summary: "Weapon rule: a unit it wounds, saved or not, takes a Leadership test at the end of the phase; on a failure -X WS until its next Assault phase ends (rulebook p.236)."},
	{Name: RuleRadPhage, On: mechanics.OnWeapon, Summary: "Weapon rule: a model it wounds that survives is at -1 Toughness for the rest of the game (rulebook p.245); " +
		"accepted, but no question makes a later attack that would read it."},
	{Name: RuleSniper, On: mechanics.OnWeapon, Summary: "Weapon rule: every wound is a Precision Shot (rulebook p.247); against a unit of identical models it changes nothing."},
	{Name: RulePrecisionShots, On: mechanics.OnWeapon, Aliases: []string{"Precision Strikes"}, Arg: mechanics.SaveArg,
		Summary: "Weapon rule: a To Hit roll of X+ lets the attacker allocate the wound (rulebook p.244-245); against a unit of identical models it changes nothing."},
	{Name: RuleBlast, On: mechanics.OnWeapon, Arg: mechanics.WordsArg, Words: blastWords,
		Summary: "Weapon rule: no To Hit roll; each shot hits as many models as the marker covers, an OPEN number (3\", 5\", 7\", 10\" markers: 3, 6, 10, 15 by default); no Snap Shots (rulebook p.234)."},
	{Name: RuleTemplate, On: mechanics.OnWeapon, Summary: "Weapon rule: no To Hit roll, reaches 8\"; hits an OPEN number of models (5 by default); ignores cover; " +
		"in a Reaction fires Wall of Death, D3 hits (rulebook p.248)."},
}

// Apply sets the field of p that rule r, read from Catalogue, stands for.
// Weapon rules are refused with an error naming them.
func (p *Profile) Apply(r mechanics.Rule) error {
	if r.Spec == nil {
		return fmt.Errorf("heresy: rule %q was not read from the catalogue", r.Text)
	}
	switch r.Spec.Name {
	case RuleAutomatedArtillery:
		p.AutomatedArtillery = true
	case RuleBulky:
		p.Bulky = r.Int
	case RuleSentryProtocols:
		p.SentryProtocols = true
	case RuleFiringProtocols:
		p.FiringProtocols = r.Int
	case RuleLordsOfProfligacy:
		p.LordsOfProfligacy = true
	case RuleFearless:
		p.Fearless = true
	case RuleFeelNoPain:
		v, err := strconv.Atoi(strings.TrimSuffix(r.Words, "+"))
		if err != nil {
			return fmt.Errorf("%s: %v", r.Text, err)
		}
		p.FeelNoPain = v
	case RuleEternalWarrior:
		p.EternalWarrior = true
	case RuleFear:
		p.Fear = r.Int
	case RuleFuriousCharge:
		p.FuriousCharge = r.Int
	default:
		return fmt.Errorf("%s is a weapon rule, not a model's", r.Spec.Name)
	}
	return nil
}

// Apply sets the field of w that rule r, read from Catalogue, stands for.
// Model rules are refused with an error naming them.
func (w *Weapon) Apply(r mechanics.Rule) error {
	if r.Spec == nil {
		return fmt.Errorf("heresy: rule %q was not read from the catalogue", r.Text)
	}
	switch r.Spec.Name {
	case RuleInstantDeath:
		w.InstantDeath = true
	case RuleIgnoresCover:
		w.IgnoresCover = true
	default:
		return w.applyChainRule(r)
	}
	return nil
}

// applyChainRule sets the weapon rules that change the attack chain.
func (w *Weapon) applyChainRule(r mechanics.Rule) error {
	switch r.Spec.Name {
	case RuleRending:
		w.Rending = r.Int
	case RuleBreaching:
		w.Breaching = r.Int
	case RuleShred:
		w.Shred = true
	case RuleArmourbane:
		w.Armourbane = ArmourbaneAny
		switch r.Words {
		case "melta":
			w.Armourbane = ArmourbaneMelta
		case "melee":
			w.Armourbane = ArmourbaneMelee
		case "ranged":
			w.Armourbane = ArmourbaneRanged
		}
	case RuleTwinLinked:
		w.TwinLinked = true
	case RuleMasterCrafted:
		w.MasterCrafted = true
	case RuleGetsHot:
		w.GetsHot = true
	case RulePoisoned:
		w.Poisoned = r.Int
	case RuleFleshbane:
		w.Fleshbane = true
	case RuleMurderousStrike:
		w.MurderousStrike = r.Int
	case RuleBrutal:
		w.Brutal = r.Int
	case RuleDeflagrate:
		w.Deflagrate = true
	case RuleConcussive:
		w.Concussive = r.Int
	case RuleRadPhage:
		w.RadPhage = true
	case RuleSniper:
		w.Sniper = true
	case RulePrecisionShots:
		w.PrecisionShots = r.Int
	case RuleBlast:
		v, err := strconv.Atoi(strings.TrimSuffix(r.Words, "\""))
		if err != nil {
			return fmt.Errorf("%s: %v", r.Text, err)
		}
		w.Blast = v
	case RuleTemplate:
		w.Template = true
	default:
		return fmt.Errorf("%s is a model's rule, not a weapon's", r.Spec.Name)
	}
	return nil
}
