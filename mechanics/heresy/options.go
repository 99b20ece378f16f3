package heresy

import "hammersim/mechanics/dice"

// Options settles the points the rules texts leave open (docs/heresy.md
// lists them as OPEN, or the rule text does not say), and a few what-ifs
// and house rules. Every field names one such point; DefaultOptions holds
// the default docs/heresy.md gives with its source, or where no source
// settles it, the reading this package argues for in the field's comment.
//
// The zero Options is valid: a zero chart means the standard chart, a zero
// bonus or penalty means none. It is not DefaultOptions, which turns
// InsaneHeroism on, gives a charger its bonus Attack and the loser of an
// assault its Leadership penalty, and sets the other defaults its fields
// list.
type Options struct {
	// CapBSAt7 decides shooting above BS 7. BS 6 and above hits on 2+ with
	// a re-roll of 1s needing (12-BS)+, which the sources docs/heresy.md
	// names confirm for BS 6 (6+) and BS 7 (5+) only. OPEN. Default false: keep the formula, so BS 8
	// re-rolls on 4+, BS 9 on 3+ and BS 10 and above on 2+; true treats every
	// BS above 7 as BS 7.
	CapBSAt7 bool

	// WoundChart is the score to wound by S - T. OPEN
	// ("the standard 40k/HH chart", default that; SixAlwaysWoundChart is the
	// alternative a scenario can choose). The zero value means
	// StandardWoundChart.
	WoundChart WoundChart

	// WSChart is the close-combat to-hit chart by Weapon Skill. The sources
	// give a chart only for Fantasy; it is used here as the default. OPEN.
	// The zero value means StandardWSChart.
	WSChart WSChart

	// FNPVsInstantDeath lets Feel No Pain (and the Shrouded roll of the
	// Evade Reaction, treated as Feel No Pain is) be rolled against wounds
	// from an attack with Instant Death. The rulebook bars Feel No Pain
	// against Instant Death (p.238); the option is a what-if. Default false:
	// not allowed.
	FNPVsInstantDeath bool

	// MitigateBluntedInstantDeath lets Damage Mitigation rolls be taken
	// against an Instant Death attack that an Eternal Warrior turns into a
	// single wound. The texts are silent; the default is this package's
	// reading: the rule text bars the Stupefied roll against attacks that have
	// Instant Death, and Eternal Warrior (rulebook p.237) changes the effect,
	// not the attack. Default false: the attack still has Instant Death, so
	// no Stupefied roll (and no Feel No Pain unless FNPVsInstantDeath).
	MitigateBluntedInstantDeath bool

	// StupefiedRollVsDoubleStrength allows the Stupefied roll against an
	// attack whose Instant Death comes only from a Strength of double the
	// Toughness or more, not from a weapon's Instant Death rule (nor
	// Murderous Strike). The rule text bars the roll against an attack
	// carrying the Instant Death rule; the rulebook (p.242) makes such
	// a Strength Instant Death too without saying the attack then has the
	// rule. The default, false, is this package's reading that it does:
	// the roll is barred. Feel No Pain keeps its own bar
	// (FNPVsInstantDeath).
	StupefiedRollVsDoubleStrength bool

	// StupefiedFixedStrength adds the Stupefied +1 Strength to weapons with a
	// fixed Strength too. The rule text raises the models' Strength
	// characteristic, which only weapons using the wielder's Strength ("User",
	// "+1") and close combat read. The texts are silent on fixed-Strength
	// weapons; default false is this package's reading.
	StupefiedFixedStrength bool

	// MultiplyModifiedStrength multiplies the wielder's modified Strength
	// (Stupefied's +1, Furious Charge's +X included) by a weapon's
	// StrengthMultiplier: S4 charging with Furious Charge (1) and a power
	// fist (x2) strikes at (4 + 1) x 2 = 10, as Games Workshop's designer's
	// commentary for Warhammer 40,000's 8th edition reads it. OPEN for HH2.
	// Default false: the Strength characteristic is multiplied and the
	// modifiers added after, 4 x 2 + 1 = 9, the order (multipliers before
	// additions) of the 7th-edition rules HH2's descend from; this
	// package's reading.
	MultiplyModifiedStrength bool

	// RestupefyRefreshes lets a unit that is already Stupefied choose again
	// after a later Shooting Attack, restarting the duration. The rule text lets a
	// unit "become" Stupefied and says nothing of a unit that already is.
	// OPEN. Default false: the first duration stands.
	RestupefyRefreshes bool

	// StupefiedIgnoresLater makes a Stupefied unit ignore Pinned, Blind and
	// Concussive gained after it became Stupefied as well. The rule text names
	// only those it had when it became Stupefied (and it cannot be Pinned
	// while Stupefied). OPEN. Default false: only the earlier ones.
	StupefiedIgnoresLater bool

	// Ties decides between enemy units equally close when a unit with
	// Sentry Protocols must shoot the closest (the rule text does not say). OPEN.
	// Default TieFirstListed: the controlling player picks, which the caller
	// expresses by the order of the candidates.
	Ties TiePolicy

	// OutnumberBonus is added to the combat result of the side that
	// outnumbers the other, models counted with Bulky (X). The Bulky rule text
	// says what counts when deciding whether a unit outnumbers another, not
	// what outnumbering gives; the HH2 sources use it for rules such as
	// Rampage and give no combat-result bonus. Default 0: none, wounds alone
	// decide. A positive value is a house rule.
	OutnumberBonus int

	// CombatScore is what a side's combat result counts of the wounds it
	// inflicted. HH2 decides an assault by the Wounds each side caused
	// (the BSData horus-heresy data's vexilla rules add to that score); the
	// texts found do not say whether wounds a model had no Wounds left to
	// take count: Brutal's past a model's last, which its rule says are
	// lost and do not pass to another model (Liber p.117), and any that
	// find the unit already gone. OPEN. Default ScoreWoundsLost, this
	// package's reading: the Wounds the enemy's models lost, so a wound with
	// no Wounds left to take scores nothing, and Instant Death scores the
	// Wounds the model had left (it reduces the model to 0 Wounds, rulebook
	// p.242). ScoreUnsavedWounds counts every wound suffered, one each,
	// wherever it went: unsaved, and not ignored by a Damage Mitigation
	// roll.
	CombatScore CombatScore

	// LoserLdPenalty is the Leadership the loser of a combat loses on its
	// Morale check for each point of the difference in combat results. HH2
	// lowers the loser's Leadership for losing (a Warlord trait in the
	// BSData horus-heresy data speaks of it) but the size was not found.
	// OPEN. Default 1, 7th edition Warhammer 40,000's rule; 0 tests at the
	// plain Leadership.
	LoserLdPenalty int

	// SweepingAdvance is how the winner of a combat catches a loser that
	// Falls Back. HH2 has Sweeping Advances, made by a roll (rulebook
	// p.236, Crusader), but the roll was not found. OPEN. Default
	// SweepByInitiative, 7th edition's.
	SweepingAdvance SweepRule

	// ChargeBonusAttacks is the extra Attacks each model gets when its unit
	// charged (lost when the charge is Disordered). The rulebook's text was
	// not found; the "standard +1" Attack for charging is implied by rules
	// that grant +1 Attack even after a Disordered charge and by a Blood
	// Angels Warlord trait that gives +2 instead of it (the BSData
	// horus-heresy data files). Default 1.
	ChargeBonusAttacks int

	// TerrainChargeInitiative is the Initiative step a unit fights at after
	// charging through Difficult Terrain, the penalty the Stupefied rule text
	// cancels for enemies of a Stupefied unit. Its size is not in the HH2
	// rules texts found. OPEN. Default 1, the step Goonhammer's HH2 fight
	// guide gives and the Warhammer 40,000 rulebook HH2 builds on has; 0
	// means no penalty. Wargear that cancels it (frag grenades) is the
	// caller's to weigh: such a charger is not marked DifficultTerrain.
	TerrainChargeInitiative int

	// InsaneHeroism: a Morale check rolled as a double 1 is passed whatever
	// the modified Leadership. OPEN for HH2; the default is 7th edition
	// Warhammer 40,000's rule, which HH2 builds on and which names Morale
	// checks only, so Pinning, Regroup and other Leadership tests do not get
	// it. It changes a result only when the modified Leadership is below 2:
	// a double 1 totals 2, which passes any Leadership of 2 or more anyway.
	// Default true.
	InsaneHeroism bool

	// ChargeDice is the roll added to the Movement bonus for a charge's
	// distance. HH2's charge roll was not confirmed (rulebook p.181 gives
	// Movement a "bonus to Charge Distance"). OPEN. Default 2D6, as
	// greypaints' HH2 assault phase guide reads it.
	ChargeDice dice.Expr

	// MaxCharge caps a charge's distance in inches; 0 for no cap. OPEN.
	// Default 12 (greypaints).
	MaxCharge int

	// PoisonedReplacesChart makes Poisoned (X) wound on exactly X+ even
	// where the S vs T chart needs less, a what-if: the HH2 rule (rulebook
	// p.244, as the 2022 army data print it) keeps the chart's score when it
	// is lower, as 7th edition did. Default false: the better of the two.
	PoisonedReplacesChart bool

	// BlastHits is the number of models one Blast marker hits, by marker
	// size: 3", 5", 7" and 10". The rules place the marker on the table
	// (rulebook p.234), which hammersim does not model. OPEN. Default 3, 6,
	// 10 and 15 (the 10" value extends the others; no source gives one), and
	// never more than the target's models.
	BlastHits [4]int

	// TemplateHits is the number of models a Template hits (p.248), the
	// same geometric point. OPEN. Default 5, never more than the target's
	// models.
	TemplateHits int

	// ReturnFireAfterCasualties decides whether models of the attacking unit
	// removed by a Return Fire Reaction still shoot. The Reaction is declared
	// before the attacker's To Hit rolls (AoD errata; Goonhammer's shooting
	// Reactions guide). OPEN: Goonhammer implies they do not; the Death
	// Dealers Advanced Reaction lets them. Default false: they do not.
	ReturnFireAfterCasualties bool

	// Overwatch lets a charged unit fire the Overwatch Reaction at the
	// charger: a Shooting Attack of Snap Shots, Template weapons firing Wall
	// of Death. Its full text was not found. OPEN. Default false: no
	// Overwatch.
	Overwatch bool

	// OurWeaponsAreUseless: a unit that loses a combat without being able
	// to wound its enemy chooses to fail its Morale check (and Fall Back)
	// when it may; Fearless units may not (rule text). The rule's text
	// (rulebook p.188) was not found; this is 7th edition's. OPEN, a
	// player's choice. Default false: never chosen.
	OurWeaponsAreUseless bool

	// EvadeSave is the Shrouded roll the Evade Reaction gives. OPEN.
	// Default 5 (5+; warpstoneflux's summary of HH2 Reactions).
	EvadeSave int

	// WeaponChoice is how a model picks the weapons it fires when it has
	// more than it may fire (Attack.Select): Return Fire, Overwatch and a
	// unit's next attack choose the same way. The rules leave the choice
	// to the player and give no criterion; the default, ChooseByCasualties,
	// is this package's reading of a player firing what removes most.
	// ChooseByUnsavedWounds is the criterion of earlier versions.
	WeaponChoice WeaponChoice

	// PistolPairWithinProtocols decides how a model with Firing Protocols
	// (X) fires two Pistols. A model firing a Pistol fires a second one with
	// it [EMP], which a model without Firing Protocols does although it
	// fires one weapon; Firing Protocols (X) lets a model fire X different
	// weapons (rule text). Neither text says how the two combine. OPEN.
	// Default true, the HH2 text's own limit: the Pistols count as two of
	// the X different weapons (a model without Firing Protocols still fires
	// both); false lets the pair take one of the X choices, as it takes a
	// model's one choice without Firing Protocols, so the second Pistol
	// fires beyond X (X-1 other weapons and two Pistols).
	PistolPairWithinProtocols bool

	// HotRerollNoToHit decides whether a weapon that rolls no To Hit
	// (Blast, Template, Wall of Death) re-rolls the D6 of 1 that Gets Hot
	// rolls for each of its shots when its firer may re-roll To Hit rolls
	// (Twin-linked, BS 6 and above). Gets Hot counts only the re-rolled
	// result of a To Hit roll (rulebook p.239), but these weapons make
	// none: Twin-linked re-rolls a Blast's scatter and a Template's To
	// Wound rolls instead (p.249), and BS 6 and above re-rolls a To Hit
	// roll. OPEN. Default false: that D6 is never re-rolled; true re-rolls
	// it, reading it as the To Hit roll it stands in for.
	HotRerollNoToHit bool

	// DisorderTriggers are the core triggers of a Disordered Charge
	// (rulebook p.182, not found; OPEN); a Stupefied charger's charge is
	// always Disordered whatever they say. Default DisorderedDefault.
	DisorderTriggers DisorderTriggers
}

// SweepRule is how a Sweeping Advance is settled.
type SweepRule uint8

const (
	// SweepByInitiative: each side rolls a D6 and adds its unmodified
	// Initiative; the loser is destroyed if the winner's total is equal
	// or higher (7th edition Warhammer 40,000). Automated Artillery is
	// destroyed with no roll and never sweeps (rule text).
	SweepByInitiative SweepRule = iota
	// NoSweep: a unit that Falls Back from a combat is never caught, a
	// what-if that measures what Sweeping Advances are worth.
	NoSweep
)

func (s SweepRule) String() string {
	switch s {
	case SweepByInitiative:
		return "initiative"
	case NoSweep:
		return "none"
	}
	return "SweepRule(?)"
}

// CombatScore is what a combat result counts of the wounds a side
// inflicted (Options.CombatScore).
type CombatScore uint8

const (
	// ScoreWoundsLost: the Wounds the enemy's models lost (Tally.Lost).
	ScoreWoundsLost CombatScore = iota
	// ScoreUnsavedWounds: every unsaved wound the enemy suffered, after
	// Damage Mitigation, one each (Tally.Suffered).
	ScoreUnsavedWounds
)

func (c CombatScore) String() string {
	switch c {
	case ScoreWoundsLost:
		return "wounds_lost"
	case ScoreUnsavedWounds:
		return "unsaved_wounds"
	}
	return "CombatScore(?)"
}

// of returns what tally t scores by c.
func (c CombatScore) of(t *Tally) int {
	if c == ScoreUnsavedWounds {
		return t.Suffered
	}
	return t.Lost
}

// WeaponChoice is the score by which a model picks the weapons it fires
// (Attack.Select); each is a mean per shot times the mean shots.
type WeaponChoice uint8

const (
	// ChooseByCasualties scores a weapon by the models' worth of damage
	// it does (Chain.ModelsPerShot): each wound suffered, after saves and
	// Damage Mitigation, as the share of the target's Wounds it removes,
	// a whole model when it slays.
	ChooseByCasualties WeaponChoice = iota
	// ChooseByUnsavedWounds scores a weapon by its expected unsaved
	// wounds, whatever they do.
	ChooseByUnsavedWounds
)

func (c WeaponChoice) String() string {
	switch c {
	case ChooseByCasualties:
		return "casualties"
	case ChooseByUnsavedWounds:
		return "unsaved_wounds"
	}
	return "WeaponChoice(?)"
}

// DisorderTriggers are the situations, besides Stupefied, that make a
// charge Disordered.
type DisorderTriggers struct {
	// HoldTheLine: the charged unit made the Hold the Line Reaction.
	HoldTheLine bool
	// MultipleTargets: the charge is against more than one unit.
	MultipleTargets bool
}

// DisorderedDefault is the default of the OPEN Disordered Charge triggers
// (warpstoneflux's summary of HH2 Reactions): Hold the Line, or a charge
// against more than one unit.
var DisorderedDefault = DisorderTriggers{HoldTheLine: true, MultipleTargets: true}

func (o Options) blastHits(size, models int) int {
	i := 0
	switch {
	case size >= 10:
		i = 3
	case size >= 7:
		i = 2
	case size >= 5:
		i = 1
	}
	return max(min(o.BlastHits[i], models), 0)
}

func (o Options) templateHits(models int) int {
	return max(min(o.TemplateHits, models), 0)
}

// DefaultOptions are the defaults docs/heresy.md gives for the open points,
// and the package's readings where it gives none (see each field).
var DefaultOptions = Options{
	WoundChart:              StandardWoundChart,
	WSChart:                 StandardWSChart,
	Ties:                    TieFirstListed,
	InsaneHeroism:           true,
	ChargeBonusAttacks:      1,
	LoserLdPenalty:          1,
	TerrainChargeInitiative: 1,
	BlastHits:               [4]int{3, 6, 10, 15},
	TemplateHits:            5,
	EvadeSave:               5,
	DisorderTriggers:        DisorderedDefault,
	ChargeDice:              dice.Dice(2, 6),
	MaxCharge:               12,

	PistolPairWithinProtocols: true,
}

// TiePolicy decides between candidates that are equally good by the rule
// that compares them.
type TiePolicy uint8

const (
	// TieFirstListed takes the first of the tied candidates in the order
	// given: the caller (the controlling player) decides by ordering them.
	TieFirstListed TiePolicy = iota
	// TieRandom picks one of the tied candidates uniformly at random.
	TieRandom
)

func (t TiePolicy) String() string {
	switch t {
	case TieFirstListed:
		return "first listed"
	case TieRandom:
		return "random"
	}
	return "TiePolicy(?)"
}
