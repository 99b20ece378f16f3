package fantasy

import (
	"fmt"
	"math"
	"slices"

	"hammersim/mechanics/dice"
)

// Phase is one step of a battle's sequence.
type Phase uint8

const (
	// PhaseCharge is the Movement phase: the acting unit charges its target
	// (or makes its Random Movement towards it).
	PhaseCharge Phase = iota
	// PhaseShooting is the Shooting phase: Zzzzap!, and the acting unit's
	// missile weapon at its target.
	PhaseShooting
	// PhaseCombat is one round of close combat, with the combat result,
	// the break test, the flight and the pursuit.
	PhaseCombat
)

var phaseNames = [...]string{"charge", "shooting", "combat"}

func (p Phase) String() string { return phaseNames[p] }

// ParsePhase reads a phase name.
func ParsePhase(s string) (Phase, bool) {
	for i, n := range phaseNames {
		if n == s {
			return Phase(i), true
		}
	}
	return 0, false
}

// PhaseNames lists the phase names.
func PhaseNames() []string {
	return phaseNames[:]
}

// CaughtRule says what happens to a fleeing unit that is caught.
type CaughtRule uint8

const (
	// CaughtWounds (WAP): the caught unit takes two wounds for each point
	// of its pursuers' Unit Strength, and no save of any kind is allowed
	// against them; what is left of it flees on.
	CaughtWounds CaughtRule = iota
	// CaughtDestroyed (8th edition): the fleeing unit is destroyed.
	CaughtDestroyed
)

// LossOfControlRule is when a Doomwheel's wounds make it take a Loss of
// Control test (unit card, Loss of Control: at the end of a phase in which
// the Doomwheel, not in close combat or fleeing, took a wound, a D6 for
// each wound it suffered in that phase).
type LossOfControlRule uint8

const (
	// LossOfControlWhenWounded: the Doomwheel must have been neither in
	// close combat nor fleeing when it took a wound of the phase; wounds
	// taken in close combat alone never make it test.
	LossOfControlWhenWounded LossOfControlRule = iota
	// LossOfControlEndOfPhase: it is judged at the end of the phase: a
	// Doomwheel wounded in the phase and neither in close combat nor
	// fleeing then tests, so one whose enemy broke or died in the combat
	// phase tests for the wounds of that combat.
	LossOfControlEndOfPhase
)

// PursuitPath is where the other units of a battle stand relative to the
// path of a flight from close combat away from the acting unit, and of
// the acting unit's pursuit after it. A battle keeps each unit's distance
// from the acting unit, not where it stands, so whether another unit is in
// that path is not in its state: it is this option.
type PursuitPath uint8

const (
	// PathClear: no other unit stands in the path; the flight and the
	// pursuit change the fleeing unit's distance alone.
	PathClear PursuitPath = iota
	// PathLine: every other unit stands on the line of the flight and the
	// pursuit, beyond the combat, at its distance from the acting unit.
	// The fleeing unit flees through those its flight reaches (WAP, Move
	// Fleeing Units): one wound for each point of Unit Strength of a
	// non-fleeing enemy, and a Panic test for a friend when its Unit
	// Strength is PanicFriendUS or more; ending on one, it goes on to 1"
	// beyond it. The pursuer stops 1" short of a friend and charges an
	// enemy it reaches (WAP, Move Pursuers).
	PathLine
)

// OutOfControlMove is where a Doomwheel's Out of Control move takes it. The
// Mishap chart sends it in a random direction (the scatter dice), which
// the battle's distances cannot hold; the value says which way it goes.
type OutOfControlMove uint8

const (
	// OutOfControlInPlace: it stays where it is, the mean place of a move
	// in a uniformly random direction; it reaches no unit.
	OutOfControlInPlace OutOfControlMove = iota
	// OutOfControlTowards: it moves its Random Movement roll along the line
	// of the distances, towards the other units, and runs into the first
	// it reaches: a friend takes its Impact Hits at once and it stops 1"
	// short; an enemy it charges.
	OutOfControlTowards
	// OutOfControlAway: it moves its roll directly away from every other
	// unit, reaching none.
	OutOfControlAway
)

// ChargePath is where the other units of a battle stand relative to the
// acting unit's charge at its target, declared or a Random Movement move.
// A battle keeps distances, not places, so whether another unit stands in
// the way is not in its state: it is this option.
type ChargePath uint8

const (
	// ChargeClear: no other unit stands in the way of the charge; it
	// changes the target's distance alone.
	ChargeClear ChargePath = iota
	// ChargeLine: every other unit stands on the line from the acting unit
	// through its target, at its distance. A charging unit cannot move
	// through other units, so a declared charge at a target with another
	// unit nearer on the line fails, its failed-charge move stopping 1"
	// short of that unit. A Random Movement move runs into the first unit
	// it reaches (advance): it stops 1" short of a friend and charges an
	// enemy, which need not be its target. The acting unit's move shrinks
	// every distance by as much.
	ChargeLine
)

// HoldFire is when the Warlock Engineer tries to stop Zzzzap! (a Leadership
// test on the crew's Ld; passing stops the bolts this turn).
type HoldFire uint8

const (
	// HoldFireNever: the Doomwheel always fires.
	HoldFireNever HoldFire = iota
	// HoldFireFriends: test when the nearest unit in range is a friend.
	HoldFireFriends
	// HoldFireAlways: always test.
	HoldFireAlways
)

// KillingBlowRule is what a Killing Blow does to a model it cannot slay
// (one not Infantry, Cavalry or War Beasts).
type KillingBlowRule uint8

const (
	// KillingBlowOneWound (WAP, special rules, Killing Blow): one wound that
	// ignores armour; Multiple Wounds does not multiply it.
	KillingBlowOneWound KillingBlowRule = iota
	// KillingBlowMultiple: the wound ignores armour, and Multiple Wounds
	// applies to it as to any unsaved wound.
	KillingBlowMultiple
	// KillingBlowNone (8th edition): no effect; the hit is an ordinary one.
	KillingBlowNone
)

// WardRule is how a model's ward saves join, a Parry save included.
type WardRule uint8

const (
	// WardsCombine (WAP, Ward Saves and Parry): wards combine as armour
	// does, never better than 4+ by combining; Parry is a ward in close
	// combat.
	WardsCombine WardRule = iota
	// WardsBest (8th edition): the best ward alone.
	WardsBest
)

// MaxRounds caps a combat fought until it ends (Options.Rounds 0): a
// combat still going after this many rounds stops, and Outcome.RoundCap
// says so. Two units that cannot hurt each other and never break would
// otherwise fight for ever.
const MaxRounds = 50

// Options are the points the rules texts leave open, and the player
// choices a scenario fixes. DefaultOptions gives the defaults, each with
// its source in docs/fantasy.md.
type Options struct {
	// Rounds is how many rounds of combat a combat phase fights; 0 fights
	// until one side breaks, flees or is destroyed, at most MaxRounds.
	Rounds int
	// KillingBlow is what Killing Blow does to models it cannot slay.
	KillingBlow KillingBlowRule
	// Wards is how wards (and Parry) join.
	Wards WardRule
	// DisruptRanks is how many ranks that count (five models, three for the
	// monstrous types; TroopType.RankSize) a unit needs in its enemy's
	// flank or rear to disrupt it (open for WAP; 8th
	// edition: 2). 0: nothing disrupts.
	DisruptRanks int
	// SkirmishersDisrupt: Skirmishers in a flank or rear disrupt as other
	// units do (open for WAP; 7th edition: they cannot, the default).
	SkirmishersDisrupt bool
	// SkirmishersRanks: Skirmishers get a rank bonus as other units of
	// their troop type do (open for WAP; 7th edition: they get none, the
	// default). They are never Steadfast either way (WAP).
	SkirmishersRanks bool
	// TerrorVsImmuneFear: a unit with Immunity (Fear) facing a
	// Terror-causer gives it the Fear combat result bonus, reading the
	// Terror text's exception to Fear immunity as covering Immunity (Fear)
	// too. Off by default: the exception names Fear-causers' immunity, and
	// Immunity (Fear) ignores the Fear it treats Terror as.
	TerrorVsImmuneFear bool
	// PanicFriendUS is the least Unit Strength of a friend whose break or
	// destruction within 6" makes a unit take a Panic test (WAP for a
	// break: 10; open for destruction, 10 too).
	PanicFriendUS int
	// InsaneCourage: a double 1 always passes a Leadership test (8th
	// edition; open for WAP, on by default).
	InsaneCourage bool
	// Caught is the fate of a caught fleeing unit.
	Caught CaughtRule
	// ZzzzapBolts is how many bolts Zzzzap! fires in a Shooting phase
	// (open; 8th-edition FAQ: 3).
	ZzzzapBolts int
	// ZzzzapRange is the range of the bolts in inches (18, the 8th-edition
	// Doomwheel's; the WAP unit card gives none).
	ZzzzapRange int
	// ZzzzapD6Wounds: each unsaved wound from a bolt becomes D6 wounds
	// (8th edition; open, off by default).
	ZzzzapD6Wounds bool
	// ZzzzapHoldFire is when the Warlock Engineer tests to hold fire.
	ZzzzapHoldFire HoldFire
	// ZzzzapPreferFriends breaks ties of distance towards friends; by
	// default the owning player sends an equidistant bolt at the enemy.
	ZzzzapPreferFriends bool
	// ChargerInitiative is added to a charging unit's Initiative in the
	// first round (WAP: +1).
	ChargerInitiative int
	// SupportingAttacks: models in the rank behind those in contact make
	// one attack each (W9E/close-combat/supporting-attacks), or up to
	// MonstrousSupport for the monstrous types.
	SupportingAttacks bool
	// MonstrousSupport is how many of its Attacks a supporting Monstrous
	// Infantry or Monstrous Beast model, or a Monstrous Cavalry mount,
	// makes at most (the WAP troop-type pages and 8th edition: 3; the WAP
	// reference chart: 2); a Monstrous Cavalry model of one profile makes
	// one more (supportCap).
	MonstrousSupport int
	// Pursue is what the winner of a combat does when its enemy breaks.
	Pursue PursuitChoice
	// TargetFlees: the target flees as its charge reaction even when it
	// passes (or need not take) a Terror test. Units that cannot flee
	// (Immunity (Psychology)) hold.
	TargetFlees bool
	// LossOfControl is when a Doomwheel's wounds make it test.
	LossOfControl LossOfControlRule
	// FiringRanks is how many ranks of a unit shoot its missile weapons
	// (open for WAP; 8th edition's Fire in Two Ranks: 2). 0: every model.
	// Units that stand in no ranks (Skirmishers, Monsters, Chariots, War
	// Machines, Swarms) all shoot.
	FiringRanks int
	// PursuitPath is where the other units stand relative to a flight from
	// combat and its pursuit (open: the battle keeps no directions).
	PursuitPath PursuitPath
	// OutOfControl is where an Out of Control move takes the acting unit
	// (open: the battle keeps no directions).
	OutOfControl OutOfControlMove
	// PursuerOutOfControl lets a Doomwheel that pursued in the phase make
	// its Out of Control move (open: the chart moves an unengaged
	// Doomwheel; false reads the pursuit as the last step of its close
	// combat, in which it does nothing).
	PursuerOutOfControl bool
	// ChargePath is where the other units stand relative to the acting
	// unit's charge (open: the battle keeps no directions).
	ChargePath ChargePath
	// GrindScythes adds Scythes' +1 to a Grind Attack's D3+1 Impact Hits
	// (open: the Grind Attack inflicts Impact Hits, and Scythes adds one
	// to Impact Hits; off by default, the Grind Attack read as a rule of
	// its own).
	GrindScythes bool
	// StandardFirst: of a unit's command models, which are removed only
	// once no rank-and-file model is left and then in the order its player
	// chooses (WAP/command-groups/command-groups-and-casualties), the
	// standard bearer goes before the musician. False, the default, takes
	// 8th edition's order: the musician first, then the standard bearer.
	// Either way the champion goes last.
	StandardFirst bool
}

// DefaultOptions are the defaults for the open points (docs/fantasy.md).
var DefaultOptions = Options{
	Rounds:            1,
	KillingBlow:       KillingBlowOneWound,
	Wards:             WardsCombine,
	DisruptRanks:      2,
	PanicFriendUS:     10,
	InsaneCourage:     true,
	Caught:            CaughtWounds,
	ZzzzapBolts:       3,
	ZzzzapRange:       18,
	ZzzzapHoldFire:    HoldFireFriends,
	ChargerInitiative: 1,
	SupportingAttacks: true,
	MonstrousSupport:  3,
	Pursue:            PursueAlways,
	LossOfControl:     LossOfControlWhenWounded,
	FiringRanks:       2,
}

// Battle is a short sequence of phases around one acting unit: it charges
// (or random-moves into) its target, shoots, and fights. Other units stand
// at given distances: friends and foes for Zzzzap! to strike.
type Battle struct {
	// Units[0] acts; Units[1] is its target; the rest stand by.
	Units []*Unit
	// Enemy[i] reports whether unit i is on the other side from unit 0.
	Enemy []bool
	// Distance[i] is unit i's distance in inches from unit 0 at the start
	// (unused for unit 0); a target at 0 starts in combat. Distances of units
	// other than the target change when a unit flees: the unit itself, or
	// every one of them by as much when unit 0 flees from combat
	// (placeFlights); and, with Options.ChargePath, Options.PursuitPath or
	// Options.OutOfControl placing them on the line of its move, when unit 0
	// charges, pursues or goes Out of Control.
	Distance []int
	Phases   []Phase
	Options  Options
}

// Validate reports a battle that cannot run.
func (b *Battle) Validate() error {
	if len(b.Units) < 2 || len(b.Enemy) != len(b.Units) || len(b.Distance) != len(b.Units) {
		return fmt.Errorf("fantasy: a battle needs an acting unit and a target, with a side and a distance for each unit")
	}
	if !b.Enemy[1] {
		return fmt.Errorf("fantasy: the target must be an enemy of the acting unit")
	}
	if charges := slices.Index(b.Phases, PhaseCharge); charges >= 0 && slices.Contains(b.Phases[charges+1:], PhaseCharge) {
		// A charge is the turn's one; a second would find the units
		// engaged and leave the first's Charged standing, so the round
		// after it would fight as a charge round again.
		return fmt.Errorf("fantasy: a battle has one charge phase at most")
	}
	if a := b.Units[0]; a.Zzzzap && !a.Mover.Random.IsZero() && slices.Contains(b.Phases, PhaseShooting) {
		if _, ok := a.Mover.Random.PlainD6(); !ok {
			// The Mishap chart's Disaster takes away one D6 of its movement.
			return fmt.Errorf("fantasy: unit %q: a Disaster takes one D6 from its Random Movement (%s); give it D6s alone, such as 3D6", a.Name, a.Mover.Random.String())
		}
	}
	for i, u := range b.Units {
		if u.Models < 1 || u.W < 1 || u.Width < 1 || u.FrontMM < 1 || u.DepthMM < 0 || len(u.Attackers) > maxAttackers {
			return fmt.Errorf("fantasy: unit %q: models, wounds, width and base must be positive, with at most %d attack profiles", u.Name, maxAttackers)
		}
		if u.Flank && u.Rear {
			// A unit fights one side of its enemy.
			return fmt.Errorf("fantasy: unit %q: flank and rear together; a unit fights one side of its enemy", u.Name)
		}
		if i > 1 && (u.Flank || u.Rear || u.HigherGround) {
			// They place a unit against the one it fights from the start;
			// another unit fights the acting unit only after it charged
			// that unit, from its front.
			return fmt.Errorf("fantasy: unit %q: flank, rear and higher ground are for the acting unit and its target", u.Name)
		}
	}
	if a, t := b.Units[0], b.Units[1]; (a.Flank || a.Rear) && (t.Flank || t.Rear) {
		// Whichever side of the target the acting unit fights, its front
		// meets it, so the target fights its front.
		return fmt.Errorf("fantasy: units %q and %q: each in the other's flank or rear; only one of them can be", a.Name, t.Name)
	} else if (t.Flank || t.Rear) && b.Distance[1] > 0 && b.ChargesFromAfar() {
		// A charger is moved into contact front first (WAP, Move
		// Chargers).
		return fmt.Errorf("fantasy: unit %q: in the flank or rear of %q, which charges it; a charger meets its target with its front", t.Name, a.Name)
	}
	return nil
}

// ChargesFromAfar reports whether the acting unit may come into contact
// with a unit it stands apart from by charging it: in a charge phase, or
// by an Out of Control move towards the others (OutOfControlTowards), an
// enemy it runs into being charged. It needs only the acting unit, the
// phases and the options.
func (b *Battle) ChargesFromAfar() bool {
	return slices.Contains(b.Phases, PhaseCharge) || b.outOfControlMeets()
}

// Mishap is a result of the Doomwheel Mishap chart.
type Mishap uint8

const (
	NoMishap Mishap = iota
	// Disaster (1-2): the Doomwheel takes D6 hits at Strength 6 and moves
	// with a die less for the rest of the battle.
	Disaster
	// OutOfControl (3-5): an unengaged Doomwheel moves in a random
	// direction, with Impact Hits on whatever it meets. Where it goes is
	// Options.OutOfControl.
	OutOfControl
	// BurstOfSpeed (6): its Random Movement becomes 4D6.
	BurstOfSpeed
)

var mishapNames = [...]string{"none", "disaster", "out of control", "burst of speed"}

// mishapTop is the Mishap chart: a D6 of at most mishapTop[k] (and above
// the one before) gives result k+1, Disaster on 1-2, Out of Control on 3-5,
// a Burst of Speed on 6.
var mishapTop = [3]int{2, 5, 6}

// mishapShare is the chance of result k+1 of the Mishap chart.
func mishapShare(k int) float64 {
	lo := 0
	if k > 0 {
		lo = mishapTop[k-1]
	}
	return float64(mishapTop[k]-lo) / 6
}

func (m Mishap) String() string { return mishapNames[m] }

// MishapNames lists the Mishap chart's results after "none".
func MishapNames() []string { return mishapNames[1:] }

// Outcome is what one trial of a battle did, beyond the units' states.
type Outcome struct {
	ChargeDeclared bool
	ChargeSuccess  bool
	// ImpactHits are the Impact Hits (and Grind Attack hits) the acting
	// unit inflicted in close combat; ImpactWounds the wounds they caused.
	ImpactHits   int
	ImpactWounds int
	// Fought is set when a round of combat was fought; CombatResult is the
	// first round's result, the acting unit's total minus its target's.
	Fought       bool
	CombatResult int
	// Rounds is how many rounds of combat were fought; RoundCap is set when
	// a combat fought until it ends was stopped by MaxRounds in the last
	// combat phase, and still goes on at the battle's end (a later combat
	// phase fights on; a later phase may end it).
	Rounds   int
	RoundCap bool
	// FriendlyWounds are wounds Zzzzap! caused on the acting unit's side.
	FriendlyWounds int
	// Mishap is the last result the Mishap chart gave in the battle;
	// Mishaps holds every result it gave, bit k-1 for result k (a battle
	// of several Shooting phases may roll on the chart more than once).
	Mishap  Mishap
	Mishaps uint8
	// LostControl is set when a Loss of Control test sent the machine Out
	// of Control.
	LostControl bool
	// Panicked[i] is set when unit i failed a Panic test and fled.
	Panicked []bool
}

// State is one trial's scratch: the units' states and the outcome. Make it
// with NewState and reuse it: Run resets it. Do not copy a State: a unit's
// state may point into it (mishapMover).
type State struct {
	Units []UnitState
	Out   Outcome
	// plans are the kinds of round of combat against the target, by which
	// sides charged (roundPlan), each worked out the first time it is
	// fought; others[o] those against unit o, another enemy.
	plans  [4]roundPlan
	others [][4]roundPlan
	// opp is the unit the acting unit fights: its target, or another enemy
	// that its pursuit or its Out of Control move charged.
	opp int
	// first: the next round of combat is the first after a charge.
	first bool
	// aside is the acting unit as it fights a unit other than its target:
	// its flank, rear and higher ground place it against its target alone.
	aside *Unit
	// mishapMover is the acting unit's movement once the Mishap chart has
	// changed it; its UnitState points here from then on.
	mishapMover Mover
	// catches counts the catches of fleeing units (Battle.caught) made
	// in the trial so far.
	catches int
	// declared: the acting unit declared a charge (a Random Movement move
	// declares none). turnOfCharge: the phase being played is the one
	// right after the charge phase, so in its turn (a turn's phases come
	// Movement, Shooting, Close Combat).
	declared, turnOfCharge bool
	// moved: the acting unit has moved in this turn, before or in the
	// phase being played (a Random Movement move, a charge, an Out of
	// Control move), so that it shoots at -1 to hit
	// (WAP/shooting/moving-and-shooting).
	moved bool
}

// NewState returns scratch for running b. The State keeps what the units'
// profiles and the options fix about a round of combat once it has fought
// one, so b must not change while its States are in use.
func (b *Battle) NewState() *State {
	s := &State{Units: make([]UnitState, len(b.Units)), Out: Outcome{Panicked: make([]bool, len(b.Units))}, opp: 1}
	if len(b.Units) > 2 {
		a := *b.Units[0]
		a.Flank, a.Rear, a.HigherGround = false, false, false
		s.aside, s.others = &a, make([][4]roundPlan, len(b.Units))
	}
	return s
}

// plansVs returns the kinds of round of combat against unit o.
func (s *State) plansVs(o int) *[4]roundPlan {
	if o == 1 {
		return &s.plans
	}
	return &s.others[o]
}

// bout is the acting unit and the unit it fights, as a combat phase takes
// them: the unit it fights changes only after the phase (placeFlights).
type bout struct {
	opp    int   // the unit the acting unit fights
	acting *Unit // the acting unit as it fights that unit
	plans  *[4]roundPlan
}

func (b *Battle) bout(s *State) bout {
	o := s.opp
	a := b.Units[0]
	if o != 1 {
		a = s.aside
	}
	return bout{opp: o, acting: a, plans: s.plansVs(o)}
}

// Run plays one trial of the battle into s.
func (b *Battle) Run(r *dice.Rand, s *State) {
	for i, u := range b.Units {
		s.Units[i].reset(u, b.Distance[i])
	}
	if b.Distance[1] == 0 { // the battle starts in combat
		s.Units[0].Engaged, s.Units[1].Engaged = true, true
	}
	panicked := s.Out.Panicked
	clear(panicked)
	s.Out = Outcome{Panicked: panicked}
	s.opp, s.first, s.catches, s.declared = 1, false, 0, false
	for i, p := range b.Phases {
		s.turnOfCharge = i > 0 && b.Phases[i-1] == PhaseCharge
		// A phase that does not come after the one before in a turn's
		// order (Movement, Shooting, Close Combat) begins a turn.
		if i == 0 || p <= b.Phases[i-1] {
			s.moved = false
		}
		b.phase(r, s, p)
	}
}

// phase plays one phase of the battle, and closes it in the order the
// rules give. A friend that broke from close combat makes the units within
// 6" of it test for Panic at once, measured from where it stood before any
// flee move (WAP, Panic: Nearby Friend Breaks), and a unit destroyed so far
// makes them test from where it fell (WAP, Panic: Nearby Friend
// Annihilated). Then the broken unit flees and its enemy pursues
// (placeFlights), which ends the close combat. Only then is the phase
// over, and the tests of its end are taken (afterPhase): Loss of Control,
// which is set at the end of the phase, and the heavy casualties and
// destroyed friends still untested.
func (b *Battle) phase(r *dice.Rand, s *State, p Phase) {
	for i := range s.Units {
		us := &s.Units[i]
		us.PhaseWound, us.phaseAlive = 0, us.Alive
		us.phaseBroke, us.passedPanic, us.woundedFree, us.freeLost = false, false, false, 0
		us.told, us.pursued = false, false
	}
	switch p {
	case PhaseCharge:
		b.charge(r, s)
	case PhaseShooting:
		b.shoot(r, s)
	case PhaseCombat:
		b.combat(r, s, s.first)
		s.first = false
	}
	// A close combat ends when either side is destroyed, whatever destroyed
	// it (Zzzzap! bolts, a Disaster): the other is then no longer in close
	// combat, and may be tested, move and go Out of Control as any unit.
	if as, os := &s.Units[0], &s.Units[s.opp]; as.Engaged && (as.Alive == 0 || os.Alive == 0) {
		as.Engaged, os.Engaged = false, false
	}
	if len(b.Units) > 2 { // the acting unit and its target are not friends
		b.friendPanic(r, s)
	}
	b.placeFlights(r, s)
	b.afterPhase(r, s)
	// A combat stopped at the cap that this phase ended (bolts destroyed a
	// side, a move took the acting unit out) was not stopped by the cap.
	if !s.Units[0].Engaged {
		s.Out.RoundCap = false
	}
}

// charge plays the Movement phase of the acting unit.
func (b *Battle) charge(r *dice.Rand, s *State) {
	a, as := b.Units[0], &s.Units[0]
	t, ts := b.Units[1], &s.Units[1]
	if as.Alive == 0 || as.Fled || as.Engaged || ts.Alive == 0 {
		return
	}
	opt := &b.Options
	if !as.Mover.Random.IsZero() {
		// Random Movement: no charge is declared, so the target neither
		// reacts nor tests for Terror; reaching it counts as charging, with
		// the roll as the charge range (unit card, Random Movement). The
		// move is compulsory, at a fleeing target too, which it catches
		// when it reaches it, as a charge does (WAP, Charging a Fleeing
		// Enemy).
		roll := as.Mover.Random.Roll(r)
		s.Out.ChargeDeclared, s.moved = true, true
		catches := s.catches
		if opt.ChargePath == ChargeLine {
			b.advance(r, s, roll, 0, false)
		} else {
			b.reachOrFall(s, as, ts, roll)
		}
		s.Out.ChargeSuccess = as.Engaged || s.catches > catches
		return
	}
	// Along the line, a unit nearer than the target stands in the way, and
	// nothing in the battle moves it aside before the charge: the charge is
	// impossible, and an impossible charge is not declared (W9E, Can I
	// Charge?). The target's own flight may still take it past a unit
	// (blocked, below). A flying charge goes over the units in its way
	// (WAP, Fly; a Dread Maw moves as a flyer does).
	if opt.ChargePath == ChargeLine && !a.Flying {
		if j := b.nextOnLine(s, -1, -1, ts.Distance, 0); j >= 0 && j != 1 {
			return
		}
	}
	// A charge that cannot be completed, the target beyond the longest
	// charge the unit can roll, cannot be declared (W9E, Can I Charge?):
	// no test to charge, no reaction, no Terror, no failed-charge move.
	if ts.Distance > as.Mover.LongestCharge(a.Flying) {
		return
	}
	// A unit that wants to charge a Terror-causing enemy must pass a
	// Psychology (Leadership) test first (unit card, Terror).
	if testsToCharge(a, t) && !LdTest(r, a.Ld, opt.InsaneCourage) {
		return
	}
	s.Out.ChargeDeclared, s.declared, s.moved = true, true, true
	flee := opt.TargetFlees && !t.ImmunePsychology
	// Run for Your Lives!: a Terror-causer's charge makes the target take a
	// Panic test; failing it, the target must flee. A target already
	// fleeing (from a Panic test or Zzzzap! in an earlier phase) must
	// flee again, and takes no test (WAP, Flee!).
	if ts.Fled {
		flee = true
	} else if a.terrifies(t) {
		if b.holdTest(r, s, 1, t.Ld) {
			ts.passedPanic = true
		} else {
			flee = true
			s.Out.Panicked[1] = true
		}
	}
	if flee {
		b.chargeFleeing(r, s)
		return
	}
	// A target that holds has not moved: nothing can stand in the way
	// now that did not at the declaration.
	reach, fail := as.Mover.RollCharge(r, a.Flying)
	d := ts.Distance
	b.reachOrFall(s, as, ts, reach)
	if !as.Engaged {
		// The failed charge moves the unit its failed-charge roll, read
		// from the charge's own dice, closer, never into contact.
		as.Charged = false
		ts.Distance = max(1, ts.Distance-fail)
	}
	if opt.ChargePath == ChargeLine {
		// Along the line the charger's move brings every other unit
		// nearer by as much: the target's distance on a success, the
		// failed-charge roll (never into contact) on a failure.
		ts.Distance = d - b.moveOnLine(s, a, d-ts.Distance, !as.Engaged)
	}
	s.Out.ChargeSuccess = as.Engaged
}

// chargeFleeing plays the declared charge at a target that flees as its
// reaction. It flees directly away from the charger, as any fleeing unit
// moves (WAP, Flee!): along the line it meets the units behind it
// (fleeThrough). Then the charger rolls: a unit now in its way stops it
// (blocked); reaching the fleeing unit catches it, and the charger stops
// 1" behind what is left of it (WAP/movement/charging-a-fleeing-enemy);
// falling short is a failed charge.
func (b *Battle) chargeFleeing(r *dice.Rand, s *State) {
	a, as, ts := b.Units[0], &s.Units[0], &s.Units[1]
	line := b.Options.ChargePath == ChargeLine
	f := ts.Mover.Roll(r, Flee, false)
	ts.Fled = true
	if line {
		b.fleeThrough(r, s, 1, f)
	} else {
		s.moveTo(1, ts.Distance+f)
	}
	reach, fail := as.Mover.RollCharge(r, a.Flying)
	if b.blocked(s, fail) {
		return
	}
	d := ts.Distance
	if reach < ts.Distance {
		ts.Distance = max(1, ts.Distance-fail)
	} else {
		s.Out.ChargeSuccess = true
		b.caught(1, 0, s)
		ts.Distance = min(ts.Alive, 1)
	}
	if line {
		// Whether it catches the target or falls short, the charger ends
		// in contact with nothing: a flyer lands as a failed charge does.
		ts.Distance = d - b.moveOnLine(s, a, d-ts.Distance, true)
	}
}

// blocked reports whether, with Options.ChargePath ChargeLine, another unit
// stands nearer on the line than the target once the target has reacted
// (nextOnLine; a friend at the target's distance too, as the line orders
// it): a target that fled past another unit, since a charge with a unit in
// its way from the start is not declared. A charging unit cannot move
// through other units, so the declared charge cannot reach the target. The
// same holds for a target destroyed in its flight: it fell at the unit
// that destroyed it, a friend of the acting unit, which now stands in the
// way; a charge whose target is gone before the charger moves fails
// (W9E/movement/unusual-situations-movement). The charge then fails, and
// the failed-charge move fail brings the acting unit towards the target
// no nearer than 1" short of the unit in the way, every distance
// shrinking by the move.
//
// A flying charge goes over the units in its way, and only a target
// destroyed in its flight stops it: the failed-charge move then flies
// towards the place where the target fell, 1" short of the unit there at
// the most (moveOnLine).
func (b *Battle) blocked(s *State, fail int) bool {
	if b.Options.ChargePath != ChargeLine {
		return false
	}
	a, ts := b.Units[0], &s.Units[1]
	if a.Flying {
		if ts.Alive > 0 {
			return false
		}
		s.Units[0].Charged = false
		b.moveOnLine(s, a, min(fail, max(ts.Distance-1, 0)), true)
		return true
	}
	j := b.nextOnLine(s, -1, -1, ts.Distance, 0)
	if j < 0 || j == 1 {
		return false
	}
	s.Units[0].Charged = false
	b.shrink(s, min(fail, max(s.Units[j].Distance-1, 0)), 0)
	return true
}

// moveOnLine moves the acting unit a, charging along the line, m inches
// towards its target (unit 1) and returns how far it went. On the ground,
// the units in its way were judged before (charge, blocked): every other
// unit's distance shrinks by m (shrink). A flying charge goes over the
// units in its way (WAP, Fly: a flyer may move over other units but may
// not end its move on one), so a move that ends off its target (landing:
// a failed charge, or the catch of a fleeing target) stops 1" short of a
// unit it would end on (distances are whole inches, so ending at a unit's
// distance is ending on it), which may put it on the unit before, and so
// on. Every unit nearer than its landing place it has flown over: that
// unit now stands behind it, the difference of the two distances away
// (UnitState.behind); the others shrink by the move.
func (b *Battle) moveOnLine(s *State, a *Unit, m int, landing bool) int {
	if !a.Flying {
		b.shrink(s, m, 1)
		return m
	}
	for on := landing; on && m > 0; {
		on = false
		for j := 2; j < len(s.Units); j++ {
			if js := &s.Units[j]; js.Alive > 0 && !js.behind && js.Distance == m {
				m, on = m-1, true
			}
		}
	}
	for j := 2; j < len(s.Units); j++ {
		switch js := &s.Units[j]; {
		case js.behind:
		case js.Distance < m:
			js.behind, js.Distance = true, m-js.Distance
		default:
			js.Distance -= m
		}
	}
	return m
}

// shrink brings every unit but the acting unit and skip nearer by d
// inches, as the acting unit moves d along the line on which they stand.
func (b *Battle) shrink(s *State, d, skip int) {
	for j := 1; j < len(s.Units); j++ {
		if j != skip && !s.Units[j].behind {
			s.Units[j].Distance = max(s.Units[j].Distance-d, 0)
		}
	}
}

// reachOrFall compares a charge range with the target's distance: reaching
// engages both units; a Random Movement unit that falls short has still
// moved its whole roll towards the target.
func (b *Battle) reachOrFall(s *State, as, ts *UnitState, reach int) {
	if reach >= ts.Distance && ts.Fled {
		// A fleeing target is caught, and the charger stops 1" behind
		// what is left of it (WAP, Charging a Fleeing Enemy).
		b.caught(1, 0, s)
		ts.Distance = min(ts.Alive, 1)
		return
	}
	if reach >= ts.Distance {
		as.Engaged, ts.Engaged, as.Charged = true, true, true
		ts.Distance = 0
		s.first = true
		return
	}
	if !as.Mover.Random.IsZero() {
		ts.Distance -= reach
	}
}

// shoot plays the Shooting phase: Zzzzap! if the acting unit has it, and
// its missile weapon at its target when it is not in combat, fired by the
// models of its front ranks (Shooters).
func (b *Battle) shoot(r *dice.Rand, s *State) {
	a, as := b.Units[0], &s.Units[0]
	if as.Alive == 0 {
		return
	}
	if a.Zzzzap {
		b.zzzzap(r, s)
	}
	t, ts := b.Units[1], &s.Units[1]
	// A unit that declared a charge this turn does not shoot in its
	// Shooting phase, whether the charge fell short or caught a unit that
	// fled (WAP/shooting/who-can-shoot). Zzzzap! fires all the same.
	charged := s.declared && s.turnOfCharge
	if m := a.Missile; !m.Shots.IsZero() && !charged && !as.Engaged && !as.Fled && ts.Alive > 0 && ts.Distance <= m.Range {
		mod := m.HitMod
		if 2*ts.Distance > m.Range {
			mod-- // long range
		}
		if s.moved {
			mod-- // moved this turn (WAP/shooting/moving-and-shooting)
		}
		need := ShootingToHit(a.BS, mod)
		bl := hitsOn(m.S, t)
		for range a.Shooters(as.Alive, b.Options.FiringRanks) {
			for range m.Shots.Roll(r) {
				if hit, _ := need.Succeeds(r); hit {
					resolveHit(r, &bl, t, ts)
				}
			}
		}
	}
}

// MissileMayFire reports whether the acting unit's missile weapon may be
// fired in some Shooting phase of the battle: one that does not follow the
// charge phase, or one that does where the charge may go undeclared (a
// Random Movement move declares none; a Terror test may stop it; a target
// beyond the longest charge cannot be charged; along the line another
// unit may stand in the way), since a unit that declared
// a charge does not shoot that turn. A battle that starts in combat is
// left to its other checks.
func (b *Battle) MissileMayFire() bool {
	for i, p := range b.Phases {
		if p == PhaseShooting && (i == 0 || b.Phases[i-1] != PhaseCharge) {
			return true
		}
	}
	a, t := b.Units[0], b.Units[1]
	return !a.Mover.Random.IsZero() || testsToCharge(a, t) || b.Distance[1] == 0 ||
		b.Distance[1] > a.Mover.LongestCharge(a.Flying) || b.Options.ChargePath == ChargeLine && len(b.Units) > 2
}

// Shooters is how many of u's alive models shoot when ranks of them
// may (Options.FiringRanks; 0 for every model): the models of that many
// ranks of u's width; every model of a unit that stands in no ranks
// (Skirmishers, and the troop types that do not fight in ranks: Monsters,
// Chariots, War Machines, Swarms).
func (u *Unit) Shooters(alive, ranks int) int {
	if ranks <= 0 || u.Skirmishers || !u.Troop.FightsInRanks() {
		return alive
	}
	return min(alive, ranks*max(u.Width, 1))
}

// zzzzap fires the Doomwheel's warp lightning (unit card, Zzzzap!): one
// Artillery dice sets the Strength of every bolt this phase; a Misfire
// fires nothing and rolls on the Mishap chart. Each bolt hits the nearest
// unit in range, friend or foe, engaged or not; when that unit is destroyed
// the next bolt goes to the next nearest.
func (b *Battle) zzzzap(r *dice.Rand, s *State) {
	opt := &b.Options
	a := b.Units[0]
	// The bolts are unleashed, and the Artillery dice rolled, in every
	// Shooting phase (unit card): with no unit within range they strike
	// nothing, but a Misfire still rolls on the Mishap chart.
	nearest := b.nearest(s, 0)
	test := opt.ZzzzapHoldFire == HoldFireAlways || (opt.ZzzzapHoldFire == HoldFireFriends && nearest >= 0 && !b.Enemy[nearest])
	if test && LdTest(r, a.Ld, opt.InsaneCourage) {
		return
	}
	strength := artillery.Roll(r)
	if strength == dice.Misfire {
		b.mishap(r, s)
		return
	}
	for range opt.ZzzzapBolts {
		i := b.nearest(s, 0)
		if i < 0 {
			return
		}
		bl := hitsOn(strength, b.Units[i])
		if opt.ZzzzapD6Wounds {
			bl.multiple = &d6
		}
		wounds := resolveHit(r, &bl, b.Units[i], &s.Units[i])
		if !b.Enemy[i] {
			s.Out.FriendlyWounds += wounds
		}
	}
}

var (
	artillery = dice.MustParse("artillery")
	d6        = dice.MustParse("D6")
)

// nearest returns the living unit nearest to unit from within Zzzzap!
// range, or -1. Ties go to the enemy unless the options prefer friends.
func (b *Battle) nearest(s *State, from int) int {
	best := -1
	for i := range b.Units {
		if i == from || s.Units[i].Alive == 0 || s.Units[i].Distance > b.Options.ZzzzapRange {
			continue
		}
		if best < 0 || s.Units[i].Distance < s.Units[best].Distance {
			best = i
			continue
		}
		if s.Units[i].Distance == s.Units[best].Distance && b.Enemy[i] != b.Enemy[best] {
			if b.Enemy[i] != b.Options.ZzzzapPreferFriends {
				best = i
			}
		}
	}
	return best
}

// Terrifies reports whether a's Terror makes e take a Panic test when a
// declares a charge on it.
func Terrifies(a, e *Unit) bool { return a.terrifies(e) }

// TestsToCharge reports whether c must pass a Psychology test to declare a
// charge on t, a Terror-causer.
func TestsToCharge(c, t *Unit) bool { return testsToCharge(c, t) }

// mishap rolls on the Doomwheel Mishap chart (WAP, Doomwheel). A Burst of
// Speed lasts for the rest of the battle: the chart gives no end to it, and
// it makes every later move (a flight or a pursuit) 4D6. A Disaster's hits
// land at once, and from then on the Doomwheel rolls one D6 fewer for its
// movement; one left with no die is removed as a casualty, the whole unit,
// since its movement dice are the unit's (Battle.Validate keeps its
// Random Movement to plain D6s).
func (b *Battle) mishap(r *dice.Rand, s *State) {
	a, as := b.Units[0], &s.Units[0]
	switch roll := r.D6(); {
	case roll <= mishapTop[0]:
		s.Out.rolled(Disaster)
		bl := hitsOn(6, a)
		landHits(r, &bl, r.D6(), a, as) // D6 hits
		switch n, ok := as.Mover.Random.PlainD6(); {
		case ok && n > 1:
			s.changeMover(as).Random = plainD6[n-1]
		case ok:
			as.wound(a, as.remaining(a)) // its last die lost
		}
	case roll <= mishapTop[1]:
		s.Out.rolled(OutOfControl)
		b.outOfControl(r, s)
	default:
		s.Out.rolled(BurstOfSpeed)
		if !as.Mover.Random.IsZero() {
			s.changeMover(as).Random = fourD6
		}
	}
}

// rolled records a result of the Mishap chart.
func (o *Outcome) rolled(m Mishap) {
	o.Mishap = m
	o.Mishaps |= 1 << (m - 1)
}

// changeMover gives us (the acting unit's state) a movement of its own to
// change, a copy of what it has now, and returns it.
func (s *State) changeMover(us *UnitState) *Mover {
	if us.Mover != &s.mishapMover {
		s.mishapMover = *us.Mover
		us.Mover = &s.mishapMover
	}
	return us.Mover
}

// fourD6 is the Random Movement after a Burst of Speed; plainD6[n] is nD6,
// for a Disaster's "one fewer movement die".
var (
	fourD6  = dice.Dice(4, 6)
	plainD6 = func() (t [dice.MaxDice + 1]dice.Expr) {
		for n := 1; n <= dice.MaxDice; n++ {
			t[n] = dice.Dice(n, 6)
		}
		return t
	}()
)

// afterPhase takes the tests due at the end of a phase, once the flights
// and pursuits of its close combat are made (phase): Loss of Control
// for a Doomwheel wounded out of combat (Options.LossOfControl says how
// that is judged), Panic for a unit that lost a quarter of its Unit
// Strength in the phase while not in close combat, whatever the phase (a
// friend an Out of Control move ran into at the end of a combat phase
// too), and Panic for the friends within 6" of a unit that broke or was
// destroyed in the phase and whose friends have not yet tested for it. A
// unit destroyed or fleeing at the end of the phase takes neither of its
// own tests.
func (b *Battle) afterPhase(r *dice.Rand, s *State) {
	for i, u := range b.Units {
		us := &s.Units[i]
		if us.PhaseWound == 0 || us.Alive == 0 || us.Fled {
			continue
		}
		if u.LossOfControl && b.testsLossOfControl(us) {
			// Roll a D6 per wound this phase; any 1 sends it Out of Control,
			// at once. Only the acting unit's move is placed: the battle
			// keeps distances from it alone.
			for range us.PhaseWound {
				if r.D6() == 1 {
					s.Out.LostControl = true
					if i == 0 {
						b.outOfControl(r, s)
					}
					break
				}
			}
		}
		// Heavy casualties (WAP, Panic): a quarter of the Unit Strength the
		// unit had at the start of the phase, lost to anything (bolts, a
		// Disaster, an Out of Control Doomwheel running into it). A unit in
		// close combat takes no Panic test, so its losses there count for
		// nothing, in whatever phase; the close combat's break test stands
		// for them.
		if !us.Engaged && us.woundedFree && 4*u.TotalUS(us.freeLost) >= u.TotalUS(us.phaseAlive) {
			b.panicTest(r, s, i)
		}
	}
	if len(b.Units) > 2 { // the acting unit and its target are not friends
		b.friendPanic(r, s)
	}
}

// testsLossOfControl reports whether a Doomwheel wounded this phase takes
// its Loss of Control test at the end of it.
func (b *Battle) testsLossOfControl(us *UnitState) bool {
	if b.Options.LossOfControl == LossOfControlEndOfPhase {
		return !us.Engaged
	}
	return us.woundedFree
}

// friendPanic makes the friends of a unit that broke or was destroyed in
// this phase take a Panic test when they stand within 6" of it (WAP,
// Panic: a friend breaks nearby; a friend is annihilated), unless they
// have tested for it already (told). The unit must have started the phase
// with PanicFriendUS or more, whatever it lost in the phase before it
// broke or died.
func (b *Battle) friendPanic(r *dice.Rand, s *State) {
	for j, u := range b.Units {
		sj := &s.Units[j]
		destroyed := sj.phaseAlive > 0 && sj.Alive == 0
		if sj.told || !(sj.phaseBroke || destroyed) {
			continue
		}
		sj.told = true
		if u.TotalUS(sj.phaseAlive) >= b.Options.PanicFriendUS {
			b.panicAround(r, s, j)
		}
	}
}

// annihilated makes the friends within 6" of unit j, destroyed just now
// where it stands, test for Panic at once (WAP, Panic: a friend is
// annihilated, for any reason), when it had PanicFriendUS or more at the
// start of the phase. Its break, if it broke in the phase, was told
// before its flight; its destruction is told here, whatever the break did.
func (b *Battle) annihilated(r *dice.Rand, s *State, j int) {
	sj := &s.Units[j]
	sj.told = true
	if b.Units[j].TotalUS(sj.phaseAlive) >= b.Options.PanicFriendUS {
		b.panicAround(r, s, j)
	}
}

// panicAround makes the friends of unit j within 6" of it take a Panic
// test (friendPanic).
func (b *Battle) panicAround(r *dice.Rand, s *State, j int) {
	for i := range b.Units {
		if i != j && b.Enemy[i] == b.Enemy[j] && b.apart(s, i, j) <= 6 {
			b.panicTest(r, s, i)
		}
	}
}

// apart is the distance between units i and j: from the acting unit, the
// other's distance; between two others, the distance between their places
// on the line (UnitState.at), which the acting unit's own moves leave as
// they were.
func (b *Battle) apart(s *State, i, j int) int {
	switch {
	case i == 0:
		return s.Units[j].Distance
	case j == 0:
		return s.Units[i].Distance
	}
	d := s.Units[i].at - s.Units[j].at
	return max(d, -d)
}

// moveTo moves unit j, other than the acting unit, by a move of its own
// (a flight, a pursuit of the acting unit) to d inches from the acting
// unit. Its place on the line (UnitState.at) moves with it: away from the
// acting unit as its distance grows, which for a unit the acting unit flew
// over (UnitState.behind) is back along the line.
func (s *State) moveTo(j, d int) {
	js := &s.Units[j]
	if js.behind {
		js.at -= d - js.Distance
	} else {
		js.at += d - js.Distance
	}
	js.Distance = d
}

// heartened reports whether unit i re-rolls a failed Panic or Break test:
// it, or a friend within 12" of it that stands and is not fleeing, carries
// the battle standard (WAP, Hold Your Ground!).
func (b *Battle) heartened(s *State, i int) bool {
	for j, u := range b.Units {
		if u.BattleStandard && b.Enemy[j] == b.Enemy[i] && s.Units[j].Alive > 0 && !s.Units[j].Fled && (j == i || b.apart(s, i, j) <= 12) {
			return true
		}
	}
	return false
}

// holdTest is unit i's Panic or Break test on ld, taken again once when it
// fails and the battle standard heartens the unit.
func (b *Battle) holdTest(r *dice.Rand, s *State, i, ld int) bool {
	return LdTest(r, ld, b.Options.InsaneCourage) || b.heartened(s, i) && LdTest(r, ld, b.Options.InsaneCourage)
}

// holdPass is the chance that unit i passes holdTest on ld, as s stands.
func (b *Battle) holdPass(s *State, i, ld int) float64 {
	p := Ld2D6Pass(ld, b.Options.InsaneCourage)
	if b.heartened(s, i) {
		return 1 - (1-p)*(1-p)
	}
	return p
}

// panicTest makes unit i take a Panic test, unless it is exempt: destroyed,
// fleeing, in combat, without Leadership, immune to Panic or Psychology, or
// having passed one this phase (WAP, Panic). Failing, it flees.
func (b *Battle) panicTest(r *dice.Rand, s *State, i int) {
	u, us := b.Units[i], &s.Units[i]
	if us.Alive == 0 || us.Fled || us.Engaged || us.passedPanic || !u.TroopPanics() || u.ImmunePsychology || u.ImmunePanic {
		return
	}
	if b.holdTest(r, s, i, u.Ld) {
		us.passedPanic = true
		return
	}
	us.Fled = true
	s.Out.Panicked[i] = true
	f := us.Mover.Roll(r, Flee, false)
	if i > 0 {
		s.moveTo(i, us.Distance+f)
		return
	}
	s.awayFromAll(f)
}

// awayFromAll moves the acting unit, from which distances are kept, f
// inches away from every other unit: its flight from its cause along the
// line on which the others stand (a Panic test; from combat, placeFlights).
func (s *State) awayFromAll(f int) {
	for j := 1; j < len(s.Units); j++ {
		if !s.Units[j].behind {
			s.Units[j].Distance += f
		}
	}
}

// TroopPanics reports whether the unit takes Panic tests at all: machines
// without Leadership (Ld 0) do not.
func (u *Unit) TroopPanics() bool { return u.Ld > 0 }

// Won reports whether unit i beat an enemy in the battle: an enemy it
// fought broke from that combat, or was destroyed by the blows of one of
// its rounds while unit i stood (round), or a fleeing enemy was destroyed
// by unit i's catch (caught: a pursuit, or a charge, a pursuit or an Out
// of Control move that ran into it fleeing). An enemy destroyed by
// shooting or by its own Disaster, one caught and left standing, and a
// combat still undecided give no win. The acting unit may meet several
// enemies in turn; beating any of them counts, whatever a later combat
// does.
func (s *State) Won(i int) bool { return s.Units[i].won }

// combat fights the combat phase between the acting unit and the unit it
// fights (its target, or another its pursuit or Out of Control move
// charged):
// Options.Rounds rounds, or until the combat ends (one side breaks, flees
// or is destroyed) when that is 0, at most MaxRounds. first marks the phase
// right after a successful charge: its first round is the charge's.
func (b *Battle) combat(r *dice.Rand, s *State, first bool) {
	limit := b.Options.Rounds
	if limit <= 0 || limit > MaxRounds {
		limit = MaxRounds
	}
	// A combat an earlier phase left at the cap is fought on here, so the
	// cap is judged again at this phase's end.
	s.Out.RoundCap = false
	bt := b.bout(s)
	for k := range limit {
		if !b.round(r, s, &bt, first && k == 0) {
			return
		}
	}
	as, ts := &s.Units[0], &s.Units[bt.opp]
	if b.Options.Rounds <= 0 && as.Engaged && ts.Engaged {
		s.Out.RoundCap = true
	}
}

// round fights one round of combat, works out its result, the loser's
// break test, flight and pursuit, and reports whether the combat goes on.
// Each round takes the units as casualties left them: models in base
// contact, ranks, Unit Strength and Steadfast are judged afresh. Charge
// bonuses (+1 combat result, Initiative, Impact Hits) belong to the first
// round after the charge only.
func (b *Battle) round(r *dice.Rand, s *State, bt *bout, first bool) bool {
	as, ts := &s.Units[0], &s.Units[bt.opp]
	units := [2]*Unit{bt.acting, b.Units[bt.opp]}
	states := [2]*UnitState{as, ts}
	if !as.Engaged || !ts.Engaged || as.Alive == 0 || ts.Alive == 0 || as.Fled || ts.Fled {
		return false
	}
	s.Out.Rounds++
	plan := b.planIn(bt.plans, units, states, first)
	res := b.fight(r, units, states, plan, first)
	s.Out.ImpactHits += res.impact
	s.Out.ImpactWounds += res.impactWounds
	cr, us, disrupted := combatResult(plan, units, states, res.wounds)
	if !s.Out.Fought {
		s.Out.Fought = true
		s.Out.CombatResult = cr[0] - cr[1]
	}
	if as.Alive == 0 || ts.Alive == 0 {
		// A side the round's blows destroyed lost the combat; the other
		// won it, if it still stands.
		as.Engaged, ts.Engaged = false, false
		as.won = as.won || as.Alive > 0
		ts.won = ts.won || ts.Alive > 0
		return false
	}
	if cr[0] == cr[1] {
		return true
	}
	loser := 1
	if cr[0] < cr[1] {
		loser = 0
	}
	winner := 1 - loser
	lu, ls := units[loser], states[loser]
	if lu.Unbreakable {
		return true
	}
	ld := lu.Ld
	if !steadfast(lu, ls, us[winner], disrupted[loser], plan.score[loser].denied) {
		ld -= cr[winner] - cr[loser]
	}
	index := [2]int{0, bt.opp}
	if b.holdTest(r, s, index[loser], ld) {
		return true
	}
	// The loser breaks and flees; the winner pursues and catches it if its
	// roll equals or beats the flee roll, and the Caught wounds fall at
	// once, where the loser stands (WAP, Caught!). Both move once the
	// Panic tests for the break are taken (phase, placeFlights).
	ls.Broke, ls.Fled, ls.phaseBroke = true, true, true
	states[winner].won = true
	as.Engaged, ts.Engaged = false, false
	flee := ls.Mover.Roll(r, Flee, false)
	ls.flight = flee
	if b.pursues(r, units[winner]) {
		ws := states[winner]
		ws.pursuit = ws.Mover.Roll(r, Pursue, false)
		if ws.pursuit >= flee {
			b.caught(index[loser], index[winner], s)
		}
	}
	return false
}

// PursuitChoice is what the winner of a combat does when its enemy
// breaks.
type PursuitChoice uint8

const (
	// PursueAlways: it pursues (its player's wish; the default).
	PursueAlways PursuitChoice = iota
	// PursueRestrain: its player would restrain it, and it takes a
	// Leadership test to hold; failed, it pursues all the same (WAP,
	// Restrain or Pursue).
	PursueRestrain
	// PursueNever: it never pursues, which no rule offers; it keeps a
	// combat's pursuit out of a question.
	PursueNever
)

// pursues reports whether winner pursues the enemy it broke
// (Options.Pursue), taking the Leadership test to restrain it when its
// player would.
func (b *Battle) pursues(r *dice.Rand, winner *Unit) bool {
	switch b.Options.Pursue {
	case PursueAlways:
		return true
	case PursueRestrain:
		return !LdTest(r, winner.Ld, b.Options.InsaneCourage)
	}
	return false
}

// pursuesChance is the chance that winner pursues the enemy it broke.
func (b *Battle) pursuesChance(winner *Unit) float64 {
	switch b.Options.Pursue {
	case PursueAlways:
		return 1
	case PursueRestrain:
		return 1 - Ld2D6Pass(winner.Ld, b.Options.InsaneCourage)
	}
	return 0
}

// scoring is what one kind of round of combat (roundPlan) fixes about one
// side's combat result; combatResult adds what casualties change.
type scoring struct {
	// fixed is +1 for the charge (first round only), flank +1, rear +2 and
	// higher ground +1; banners the battle standard, which counts while the
	// unit stands.
	fixed, banners int
	// standardFrom and musicianFrom: the unit's standard bearer and
	// musician stand while it has more models than these (commandFrom;
	// never, for one it has not).
	standardFrom, musicianFrom int
	// denied: the unit gets no benefit from its ranks (ranksDenied).
	denied bool
	// disruptRanks is how many ranks that count the enemy needs to disrupt
	// the unit (Battle.disruptRanks), 0 when it cannot.
	disruptRanks int
	// fear: the unit causes Fear in the enemy (Unit.causesFearOf).
	fear bool
	// ranks: the unit's ranks can give it a rank bonus (ranksCount) and
	// are not denied it; a Disrupted unit still loses it.
	ranks bool
}

// scoring works out side's scoring for the kind of round that first and
// which units charged make.
func (b *Battle) scoring(units [2]*Unit, states [2]*UnitState, side int, first bool) scoring {
	u, e := units[side], units[1-side]
	denied := ranksDenied(units, states, side, first)
	standardFrom, musicianFrom := commandFrom(u, b.Options.StandardFirst)
	return scoring{
		fixed:        flag(first && states[side].Charged) + flag(u.Flank) + 2*flag(u.Rear) + flag(u.HigherGround),
		banners:      flag(u.BattleStandard),
		standardFrom: standardFrom,
		musicianFrom: musicianFrom,
		denied:       denied,
		disruptRanks: b.disruptRanks(e),
		fear:         u.causesFearOf(e, b.Options.TerrorVsImmuneFear),
		ranks:        ranksCount(u, b.Options.SkirmishersRanks) && !denied,
	}
}

// commandFrom returns how many models u must have for its standard bearer
// and its musician to stand: more than standard and musician, or
// math.MaxInt for one it has not. Command models are removed only once no
// rank-and-file model is left, the champion last
// (WAP/command-groups/command-groups-and-casualties: the owner's choice;
// 8th edition: the musician, the standard bearer, the champion), and the
// standard bearer before the musician with standardFirst
// (Options.StandardFirst).
func commandFrom(u *Unit, standardFirst bool) (standard, musician int) {
	champion := flag(hasChampion(u))
	standard, musician = champion, champion+flag(u.Standard)
	if standardFirst {
		standard, musician = champion+flag(u.Musician), champion
	}
	if !u.Standard {
		standard = math.MaxInt
	}
	if !u.Musician {
		musician = math.MaxInt
	}
	return standard, musician
}

// combatResult adds up each side's combat result (WAP, combat resolution):
// wounds inflicted, +1 for the charge (first round only), ranks (none when
// Disrupted or denied by a Dread Maw), +1 for the higher Unit Strength,
// standard, battle standard, flank +1, rear +2, higher ground +1, Fear +1
// (+2 at double the enemy's Unit Strength), and a musician's +1 in a draw.
// plan is the kind of round fought. It returns the results, the Unit
// Strengths and which sides are Disrupted.
func combatResult(plan *roundPlan, units [2]*Unit, states [2]*UnitState, wounds [2]int) (cr, us [2]int, disrupted [2]bool) {
	us = [2]int{units[0].TotalUS(states[0].Alive), units[1].TotalUS(states[1].Alive)}
	var music [2]bool // a musician stands
	for side := range 2 {
		u, st, sc := units[side], states[side], &plan.score[side]
		disrupted[side] = disruptedBy(sc.disruptRanks, units[1-side], states[1-side].Alive)
		cr[side] = wounds[side] + sc.fixed
		if sc.ranks && !disrupted[side] {
			cr[side] += rankBonus(u, st.Alive)
		}
		if us[side] > us[1-side] {
			cr[side]++
		}
		if st.Alive > 0 {
			cr[side] += sc.banners
		}
		if st.Alive > sc.standardFrom {
			cr[side]++
		}
		music[side] = st.Alive > sc.musicianFrom
		if sc.fear {
			cr[side]++
			if us[side] >= 2*us[1-side] {
				cr[side]++
			}
		}
	}
	if cr[0] == cr[1] && music[0] != music[1] {
		// A musician wins a drawn combat by one.
		if music[0] {
			cr[0]++
		} else {
			cr[1]++
		}
	}
	return cr, us, disrupted
}

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

// disruptedBy reports whether enemy e, with alive models, disrupts the
// unit it fights when it needs ranks ranks that count (fullRanks) to (its
// Battle.disruptRanks; 0: it cannot).
func disruptedBy(ranks int, e *Unit, alive int) bool {
	return ranks > 0 && fullRanks(e, alive) >= ranks
}

// disruptRanks is how many ranks that count (fullRanks) e needs to disrupt
// the unit it fights (Options.DisruptRanks), 0 when it cannot: it must be
// in that unit's flank or rear, of a troop type whose ranks count for the
// rank bonus (a unit of chariots or monsters has none), and not
// Skirmishers, unless Options.SkirmishersDisrupt (open for WAP; the
// 8th-edition condition, and 7th edition's for Skirmishers, by default).
func (b *Battle) disruptRanks(e *Unit) int {
	if !(e.Flank || e.Rear) || !e.Troop.FightsInRanks() || e.Skirmishers && !b.Options.SkirmishersDisrupt {
		return 0
	}
	return max(b.Options.DisruptRanks, 0)
}

// placeFlights moves the unit that broke from combat this phase by its
// flee roll, directly away from the enemy it fought, once the Panic tests
// for its break have measured from where it broke (phase); then its
// pursuer straight after it (WAP, Move Fleeing Unit and Move Pursuers).
// A caught unit took its Caught wounds before this, where it stood as it
// turned to run (WAP, Caught!, which comes before Move Fleeing Unit): what
// is left of it flees, and a unit the catch destroyed does not flee at all.
// The pursuer moves either way.
//
// The acting unit flees away from the unit it fought, and so, as every
// distance is kept from it along one line on which the others stand, away
// from every other unit by as much; its pursuer comes after it, away from
// the others. The unit the acting unit fought flees away from it along
// that line; the acting unit pursues it. A pursuer moves its pursuit roll,
// but stops 1" behind the unit it pursued while that lives on (WAP, Caught!:
// one it caught; one that escaped is beyond its roll). With
// Options.PursuitPath PathClear, that changes the distance between the two
// alone: as for a charge, the acting unit's own move leaves the other
// units' distances as they were. With PathLine, the flight and the pursuit
// meet the units on the line (fleeThrough, advance).
func (b *Battle) placeFlights(r *dice.Rand, s *State) {
	o := s.opp
	as, os := &s.Units[0], &s.Units[o]
	if f := as.flight; f > 0 {
		as.flight = 0
		if as.Alive > 0 {
			s.awayFromAll(f)
		}
		if m := os.pursuit; m > 0 {
			os.pursuit, os.pursued = 0, true
			if as.Alive > 0 {
				m = min(m, os.Distance-1)
			}
			s.moveTo(o, max(os.Distance-m, 0))
		}
	}
	if f := os.flight; f > 0 {
		os.flight = 0
		switch {
		case os.Alive == 0:
		case b.Options.PursuitPath == PathLine:
			b.fleeThrough(r, s, o, f)
		default:
			s.moveTo(o, os.Distance+f)
		}
		if m := as.pursuit; m > 0 {
			as.pursuit, as.pursued = 0, true
			if os.Alive > 0 {
				m = min(m, os.Distance-1)
			}
			if b.Options.PursuitPath == PathLine {
				b.advance(r, s, m, o, false)
			} else {
				os.Distance = max(os.Distance-m, 0)
			}
		}
	}
}

// fleeThrough moves unit i, which flees from the acting unit (it broke from
// combat with it, PathLine, or it is the target fleeing from its charge,
// ChargeLine), its flee roll f directly away from it, along the line on
// which the other units stand, through the units it reaches, nearest
// first (WAP, Move Fleeing Units, which a flight from combat follows: WAP,
// Move Fleeing Unit; and a Flee! reaction too: WAP, Flee!). Each
// non-fleeing enemy it passes through inflicts one wound on it for each
// point of its Unit Strength, with no save of any kind; each friend it
// passes through, while its own Unit Strength is Options.PanicFriendUS or
// more, takes a Panic test once the move is made (WAP, Panic: fleeing
// friends). Ending on a unit (distances are whole
// inches, so within 1" of it is on it), it goes on to 1" beyond it, which
// may take it through the next. Destroyed by an enemy it passes through,
// it stops there, and its friends within 6" of that place test for Panic
// at once (annihilated), before those it fled through.
func (b *Battle) fleeThrough(r *dice.Rand, s *State, i, f int) {
	u, us := b.Units[i], &s.Units[i]
	start := us.Distance
	end := start + f
	// The units behind it: those beyond it on the line, at its distance
	// too when the line orders them after it (lineKey), as blocked does.
	for last := b.lineKey(s, i); us.Alive > 0; {
		j := b.nextOnLine(s, last, start-1, end, i)
		if j < 0 {
			break
		}
		last = b.lineKey(s, j)
		js := &s.Units[j]
		switch {
		case b.Enemy[j] != b.Enemy[i]:
			if !js.Fled {
				us.wound(u, b.Units[j].TotalUS(js.Alive))
			}
		case u.TotalUS(us.Alive) >= b.Options.PanicFriendUS:
			js.fledThrough = true
		}
		if us.Alive == 0 {
			end = js.Distance
			break
		}
		end = max(end, js.Distance+1)
	}
	s.moveTo(i, end)
	if us.Alive == 0 {
		b.annihilated(r, s, i)
	}
	for j := range s.Units {
		if s.Units[j].fledThrough {
			s.Units[j].fledThrough = false
			b.panicTest(r, s, j)
		}
	}
}

// advance moves the acting unit up to reach inches along the line on which
// the other units stand at their distances (PathLine for a pursuit,
// OutOfControlTowards), and plays out what it runs into, nearest first. It
// stops 1" short of a friend, striking it first with its Impact Hits when
// smash is set (Doomwheel Mishap chart, Out of Control). It charges a
// standing enemy: a charge that allows no reaction, so no Terror test
// either (unit card, Terror), after which the acting unit fights that unit,
// the next round of combat being the charge's. A fleeing enemy it reaches
// is caught, as by a charge (WAP, Charging a Fleeing Enemy; it can make no
// reaction), and the acting unit stops 1" behind what is left of it, or
// goes on past one the catch destroyed, whose friends within 6" test for
// its loss at once (annihilated). Unit skip (the unit it pursues) is no
// obstacle; a unit it charged stands at 0. Every other distance then
// shrinks by the move.
func (b *Battle) advance(r *dice.Rand, s *State, reach, skip int, smash bool) {
	as := &s.Units[0]
	stop := max(reach, 0)
	for last := -1; ; {
		j := b.nextOnLine(s, last, -1, stop, skip)
		if j < 0 {
			break
		}
		last = b.lineKey(s, j)
		js := &s.Units[j]
		if !b.Enemy[j] {
			if smash {
				b.smash(r, s, j)
			}
			stop = max(js.Distance-1, 0)
			break
		}
		if !js.Fled {
			stop = js.Distance
			as.Engaged, js.Engaged, as.Charged = true, true, true
			s.opp, s.first = j, true
			break
		}
		b.caught(j, 0, s)
		if js.Alive > 0 {
			stop = max(js.Distance-1, 0)
			break
		}
		b.annihilated(r, s, j)
	}
	b.shrink(s, stop, 0)
}

// lineKey orders the units on the line: by distance, a friend of the acting
// unit before an enemy at the same distance (it stops short of the friend),
// then in the battle's order.
func (b *Battle) lineKey(s *State, j int) int {
	n := len(b.Units)
	return (s.Units[j].Distance*2+flag(b.Enemy[j]))*n + j
}

// nextOnLine returns the living unit, other than the acting unit and skip,
// that comes next on the line after key last (lineKey; -1 for the start),
// beyond from inches and no further than within; -1 when none does. A unit
// whose flight from combat is yet to be made (placeFlights) is not on the
// line: its distance is where it broke, not where it will stand, and its
// pursuer alone may catch it.
func (b *Battle) nextOnLine(s *State, last, from, within, skip int) int {
	next, best := -1, 0
	for j := 1; j < len(s.Units); j++ {
		if d := s.Units[j].Distance; j == skip || s.Units[j].Alive == 0 || s.Units[j].flight > 0 || s.Units[j].behind || d <= from || d > within {
			continue
		}
		if k := b.lineKey(s, j); k > last && (next < 0 || k < best) {
			next, best = j, k
		}
	}
	return next
}

// smash strikes friend j with the acting unit's Impact Hits, resolved at
// once (Doomwheel Mishap chart, Out of Control): each of its models in
// base contact rolls them, a chariot behind one adding D3 as on a charge.
func (b *Battle) smash(r *dice.Rand, s *State, j int) {
	a, as := b.Units[0], &s.Units[0]
	f, fs := b.Units[j], &s.Units[j]
	if a.Impact.IsZero() {
		return
	}
	models := Contact(a, FaceFront, as.Alive, f, FaceFront, fs.Alive)
	hits := 0
	for range models {
		hits += a.Impact.Roll(r)
	}
	for range chariotsBehind(a, FaceFront, as.Alive, models) {
		hits += r.D3()
	}
	bl := hitsOn(a.S, f)
	landHits(r, &bl, hits, f, fs)
}

// outOfControl moves the acting unit Out of Control (Doomwheel Mishap
// chart): an unengaged Doomwheel moves in a random direction, its Random
// Movement roll (a unit without one, its M), and runs into what it meets.
// The battle keeps no directions, so Options.OutOfControl says where it
// goes: nowhere (in place), towards the other units along the line of the
// distances (advance), or directly away from all of them. A fleeing unit
// makes no move but its flight, so it is not moved; nor is one that
// pursued in this phase: its pursuit is the last step of its close combat
// (WAP, close combat: break tests, flight, pursuit), and a Doomwheel in
// close combat does nothing when it goes Out of Control (Mishap chart).
func (b *Battle) outOfControl(r *dice.Rand, s *State) {
	as := &s.Units[0]
	if as.Alive == 0 || as.Engaged || as.Fled || as.pursued && !b.Options.PursuerOutOfControl {
		return
	}
	s.moved = true // wherever the option puts it, it moved
	if b.Options.OutOfControl == OutOfControlInPlace {
		return
	}
	roll := as.Mover.M
	if !as.Mover.Random.IsZero() {
		roll = as.Mover.Random.Roll(r)
	}
	if b.Options.OutOfControl == OutOfControlAway {
		for j := 1; j < len(s.Units); j++ {
			if !s.Units[j].behind {
				s.Units[j].Distance += roll
			}
		}
		return
	}
	b.advance(r, s, roll, 0, true)
}

// caught applies the Caught rule to fleeing unit i caught by unit by. A
// catch that destroys the unit is a win for its catcher (Won), whether it
// broke from a combat with it or fled from its charge.
func (b *Battle) caught(i, by int, s *State) {
	st := &s.Units[i]
	st.Caught = true
	s.catches++
	switch b.Options.Caught {
	case CaughtDestroyed:
		st.wound(b.Units[i], st.remaining(b.Units[i]))
	default:
		st.wound(b.Units[i], 2*b.Units[by].TotalUS(s.Units[by].Alive))
	}
	if st.Alive == 0 && s.Units[by].Alive > 0 {
		s.Units[by].won = true
	}
}
