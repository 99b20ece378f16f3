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
)

// feelNoPainWords are the values Feel No Pain (X) takes: a D6 score, with or
// without its "+".
var feelNoPainWords = []string{"2+", "3+", "4+", "5+", "6+", "2", "3", "4", "5", "6"}

// Catalogue lists the Horus Heresy special rules this package implements,
// with the value each takes in brackets. Summaries paraphrase the seed text
// and RULES-FACTS.md. Stupefied and Snap Shots are states a unit is in, not
// rules printed on a card: see Status and Unit.ShootingBS.
var Catalogue = mechanics.Catalogue{
	{Name: RuleAutomatedArtillery, Aliases: []string{"Automated Artillery Sub-type", "Automated Artillery Subtype"},
		Summary: "Unit sub-type: no Running, no Charges, no Sweeping Advances, only the Interceptor Advanced Reaction; " +
			"destroyed without dice by a Sweeping Advance; never holds or denies an Objective."},
	{Name: RuleBulky, Arg: mechanics.IntArg, Min: 1, Max: 50,
		Summary: "Each model counts as X models for Transport Capacity and for outnumbering in combat."},
	{Name: RuleSentryProtocols,
		Summary: "Must shoot the enemy unit whose closest model in line of sight is nearest, in its own Shooting phase."},
	{Name: RuleFiringProtocols, Arg: mechanics.IntArg, Min: 1, Max: 10,
		Summary: "In one Shooting Attack each model may fire up to X different weapons, never one weapon twice."},
	{Name: RuleLordsOfProfligacy,
		Summary: "After a Shooting Attack against the unit, if every model has it and it is not Falling Back, it may become " +
			"Stupefied: Snap Shots only, no Reactions, Disordered charges, +1 Strength, a 6+ Damage Mitigation roll " +
			"(5+ if Fearless, never against Instant Death), no Morale checks in the Movement and Shooting phases, no " +
			"Pinning; ends at the end of its player's following turn or when forced to move."},
	{Name: RuleFearless,
		Summary: "Passes Pinning tests, Regroup tests and Morale checks without rolling and ignores Fear, but may not use " +
			"Reactions that grant a Cover, Armour or Invulnerable Save; gaining it ends being Pinned."},
	{Name: RuleFeelNoPain, Aliases: []string{"FNP"}, Arg: mechanics.WordsArg, Words: feelNoPainWords,
		Summary: "A Damage Mitigation roll of X+ ignores an unsaved wound; one such roll per wound at most; not against " +
			"Instant Death by default."},
	{Name: RuleEternalWarrior,
		Summary: "Instant Death costs the model one wound instead of killing it outright."},
	{Name: RuleInstantDeath,
		Summary: "Weapon rule: each unsaved wound removes the model whatever its wounds left (as Strength double its " +
			"Toughness does); no Stupefied roll against it."},
	{Name: RuleIgnoresCover,
		Summary: "Weapon rule: no cover save may be taken against it."},
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
		return fmt.Errorf("%s is a model's rule, not a weapon's", r.Spec.Name)
	}
	return nil
}
