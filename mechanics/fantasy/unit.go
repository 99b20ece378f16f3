package fantasy

import (
	"strings"

	"hammersim/mechanics/dice"
)

// TroopType is a unit's troop type, which decides its Unit Strength and
// which rules may affect it.
type TroopType uint8

const (
	Infantry TroopType = iota
	Cavalry
	WarBeasts
	Swarm
	MonstrousInfantry
	MonstrousCavalry
	MonstrousBeast
	Monster
	Chariot
	WarMachine
	// LargeInfantry is the WAP reference chart's Large Infantry, which has
	// no page of its own: ranks of four, two supporting attacks, Unit
	// Strength 1. Otherwise it is read as Infantry (Killing Blow, Stomp).
	LargeInfantry
)

var troopNames = [...]string{"Infantry", "Cavalry", "War Beasts", "Swarm", "Monstrous Infantry",
	"Monstrous Cavalry", "Monstrous Beast", "Monster", "Chariot", "War Machine", "Large Infantry"}

func (t TroopType) String() string { return troopNames[t] }

// TroopTypes lists every troop type's name.
func TroopTypes() []string { return troopNames[:] }

// ParseTroopType reads a troop type's name, ignoring case.
func ParseTroopType(s string) (TroopType, bool) {
	for i, n := range troopNames {
		if strings.EqualFold(n, strings.TrimSpace(s)) {
			return TroopType(i), true
		}
	}
	return 0, false
}

// UnitStrength is one model's Unit Strength, from WAP where it gives one
// (the reference chart on its troop-types page for Infantry and Cavalry,
// the type's own page for the others): Infantry, Large Infantry and War
// Beasts 1, Cavalry 2, Monstrous Infantry, Monstrous Beasts and Swarms 3,
// Monstrous Cavalry
// 4, Monsters their Wounds. Chariots take their Wounds, as in 8th
// edition, and so do War Machines here; WAP counts a War Machine's crew,
// which the unit card knows (scenarios/fantasy). A unit may override it
// (docs/fantasy.md).
func (t TroopType) UnitStrength(wounds int) int {
	switch t {
	case Infantry, LargeInfantry, WarBeasts:
		return 1
	case Cavalry:
		return 2
	case MonstrousInfantry, MonstrousBeast:
		return 3
	case MonstrousCavalry:
		return 4
	case Swarm:
		return 3
	}
	return wounds
}

// Rules are the special rules every model of the troop type has, as
// printed, among those this package implements: the rules each WAP
// troop-type page makes its models subject to (WAP/troop-types/cavalry,
// .../monstrous-infantry, .../monstrous-cavalry, .../monstrous-beasts,
// .../war-beasts, .../swarms, .../monsters). Expendable, Vanguard and
// Unstable are not simulated. Infantry give none (their page lists none);
// Chariots and War Machines none, as no such list was found for them. The
// slice is shared: do not change it.
func (t TroopType) Rules() []string {
	if int(t) < len(troopRules) {
		return troopRules[t]
	}
	return nil
}

var troopRules = [...][]string{
	Cavalry:           {"Impact Hits (1)", RuleSwiftstride},
	WarBeasts:         {RuleSwiftstride},
	Swarm:             {RuleSkirmishers},
	MonstrousInfantry: {RuleFear, RuleSwiftstride},
	MonstrousCavalry:  {RuleFear, "Impact Hits (1)", RuleSwiftstride},
	MonstrousBeast:    {RuleFear, RuleSwiftstride},
	Monster:           {RuleStomp, RuleSwiftstride, RuleTerror},
}

// RankSize is how many models a rank of this type must hold to count as a
// rank: for the rank bonus, for Steadfast and for disrupting an enemy. The
// monstrous rank-and-file types need three, as their WAP troop-type pages
// and 8th edition's Monstrous Ranks say; Large Infantry four (the WAP
// reference chart); the others five.
func (t TroopType) RankSize() int {
	switch t {
	case MonstrousInfantry, MonstrousCavalry, MonstrousBeast:
		return 3
	case LargeInfantry:
		return 4
	}
	return 5
}

// infantry reports whether the rules that name Infantry (Killing Blow,
// Stomp) take the type as such: Infantry, and Large Infantry, infantry on
// larger bases, which WAP's chart alone names (a reading).
func (t TroopType) infantry() bool { return t == Infantry || t == LargeInfantry }

// KillingBlowSlays reports whether Killing Blow slays a model of this type
// outright: Infantry (Large Infantry too), Cavalry and War Beasts (WAP,
// special rules, Killing Blow). What it does to the other types is
// Options.KillingBlow.
func (t TroopType) KillingBlowSlays() bool {
	return t.infantry() || t == Cavalry || t == WarBeasts
}

// StompInitiative is the Initiative the unit's Stomps strike at: the
// stomping model's (StompI), else the unit's.
func (u *Unit) StompInitiative() int {
	if u.StompI > 0 {
		return u.StompI
	}
	return u.I
}

// Stompable reports whether Stomps can hit this type: the Stomp unit card
// allows Infantry (Large Infantry too), War Beasts and Swarms.
func (t TroopType) Stompable() bool {
	return t.infantry() || t == WarBeasts || t == Swarm
}

// Mounted reports whether u's models ride, so may not take a Parry save
// (8th edition and WAP, Parry): a Chariot always; a
// Cavalry or Monstrous Cavalry model, or a ridden Monster, only with a
// split profile (riders and their mount), since one without counts as a
// model on foot for Parry (WAP, troop types, Cavalry; Monstrous Cavalry
// follow its rules, and ridden Monsters its split profile: WAP, troop
// types, Monsters).
func (u *Unit) Mounted() bool {
	switch u.Troop {
	case Chariot:
		return true
	case Cavalry, MonstrousCavalry, Monster:
		return mountOf(u) >= 0
	}
	return false
}

// FightsInRanks reports whether the type gains rank bonuses and supporting
// attacks: the rank-and-file types.
func (t TroopType) FightsInRanks() bool {
	switch t {
	case Infantry, LargeInfantry, Cavalry, WarBeasts, MonstrousInfantry, MonstrousCavalry, MonstrousBeast:
		return true
	}
	return false
}

// supportCap is how many attacks a supporting model makes at most with
// u's attack profile i; monstrous is Options.MonstrousSupport. Most types
// support with one attack a profile (a cavalry rider and his mount one
// each); Cavalry of a single profile, rider and mount together, with up to
// two (WAP, troop types, Cavalry). Monstrous Infantry and Monstrous Beasts
// support with as many of their Attacks as monstrous allows (WAP, troop
// types, Monstrous Infantry and Monstrous Beasts: 3; the WAP reference
// chart: 2). Monstrous Cavalry (WAP, troop types, Monstrous Cavalry)
// support with one attack from each rider and up to monstrous from the
// mount (mountOf); with a single profile for rider and mount together, up
// to monstrous + 1 (the page's 4 beside its mount's 3; the chart's 3
// beside its 2). Large Infantry support with up to two (the WAP
// reference chart).
func supportCap(u *Unit, i, monstrous int) int {
	monstrous = max(monstrous, 1)
	switch u.Troop {
	case LargeInfantry:
		return 2
	case MonstrousInfantry, MonstrousBeast:
		return monstrous
	case MonstrousCavalry:
		switch m := mountOf(u); {
		case m < 0:
			return monstrous + 1
		case i == m:
			return monstrous
		}
		return 1
	case Cavalry:
		if mountOf(u) < 0 {
			return 2
		}
	}
	return 1
}

// mountOf is the index among u's attack profiles of the mount, when its
// models ride one: the last profile that is not its champion's, as a
// rider comes before his mount; every profile before it is a rider. It is
// -1 when u's models strike with a single profile (besides a champion and
// the attacks a rule adds).
func mountOf(u *Unit) int {
	m, n := -1, 0
	for i := range u.Attackers {
		if a := &u.Attackers[i]; !a.Champion && !a.Extra {
			m, n = i, n+1
		}
	}
	if n < 2 {
		return -1
	}
	return m
}

// Attacker is a profile that strikes blows: a unit's own models, a
// champion, or the crew of a machine.
type Attacker struct {
	Name     string
	WS, S, I int
	A        dice.Expr // attacks per model; a roll for Random Attacks
	PerBody  int       // models of this profile per body (crew per machine); 1 for rank and file
	Champion bool      // a single model in the front rank, in place of one model of the unit's first profile
	Extra    bool      // attacks a rule adds to the unit's models (the Dread Maw's Chomp), not a profile of its own
	Killing  bool      // Killing Blow
	Multiple dice.Expr // Multiple Wounds (X); zero when none
	ASF, ASL bool      // Always Strikes First / Last
}

// Unit is a unit's profile and rules, fixed for a whole run.
type Unit struct {
	Name   string
	Troop  TroopType
	Models int // bodies: models that carry wounds
	Width  int // models per rank
	// FrontMM is the width of one model's base in millimetres, DepthMM its
	// depth; they decide how many models touch an enemy (see Contact):
	// along a rank, bases meet the enemy by their widths, along a flank by
	// their depths. A DepthMM of 0 is a square base, as deep as wide.
	FrontMM, DepthMM int
	// Body: what is hit and wounded.
	WS, S, T, W, I, Ld, BS int
	Armour, Ward, Parry    int // saves, NoSave when none
	US                     int // Unit Strength per body
	Attackers              []Attacker
	Mover                  Mover
	Flying                 bool // charges by flying when it can
	Impact                 dice.Expr
	Stomp                  bool
	// Scythes: the unit's Impact Hits carry Scythes' +1, already in Impact;
	// its Grind Attack's too with Options.GrindScythes (grindExtra). Beside
	// Stomp, in the room its alignment leaves.
	Scythes bool
	// StompI is the Initiative its Stomps strike at, the stomping model's
	// (a ridden monster's own, not its rider's); 0 for the unit's I.
	StompI           int
	GrindAttack      bool
	Zzzzap           bool
	LossOfControl    bool
	Terror, Fear     bool
	ImmunePsychology bool
	ImmuneFear       bool
	ImmuneTerror     bool
	ImmunePanic      bool
	Stubborn         bool
	Unbreakable      bool
	// Skirmishers (every flying unit of more than one model, unit card, Fly):
	// never Steadfast unless Stubborn, and Stomps on them inflict D3 hits;
	// by default no rank bonus and they cannot disrupt
	// (Options.SkirmishersRanks, Options.SkirmishersDisrupt).
	Skirmishers bool
	// DreadMaw: Always Strikes First on the turn it charges, and the unit it
	// charges gets no benefit from ranks in the first round (unit card).
	DreadMaw           bool
	Standard, Musician bool
	BattleStandard     bool
	// Points is the unit's points cost, which the scenario reads (points
	// efficiency); a card's cost priced per model need not be whole.
	Points float64
	// Missile is the unit's shooting weapon; Shots is zero when it has none.
	Missile Missile
	// Flank, Rear and HigherGround give their combat result bonuses.
	Flank, Rear, HigherGround bool
}

// Missile is a shooting weapon: each model fires Shots shots at strength S
// up to Range inches, at -1 to hit beyond half range (long range), with
// HitMod added for everything else (cover, moving).
type Missile struct {
	S, Range int
	Shots    dice.Expr
	HitMod   int
}

// TotalUS is the unit's Unit Strength with alive bodies.
func (u *Unit) TotalUS(alive int) int { return alive * u.US }

// Facing is the side of a unit that its enemy in close combat fights.
type Facing uint8

// The sides of a unit: its first rank, a flank (one model of each rank),
// its rear (as wide as a full rank: Side).
const (
	FaceFront Facing = iota
	FaceFlank
	FaceRear
)

// FacedBy returns the side of the unit that e fights: its rear or flank
// when e fights there (e.Rear, e.Flank), else its front.
func FacedBy(e *Unit) Facing {
	switch {
	case e.Rear:
		return FaceRear
	case e.Flank:
		return FaceFlank
	}
	return FaceFront
}

// Side returns how many of u's models, alive of them left, line its side
// f, and the length in millimetres of each one's edge along it: the front
// is its first rank (the narrower of its width and what is left), by base
// widths; a flank is one model of each rank, by base depths; the rear is
// as wide as the front. Casualties come from the back, so the last rank is
// the part-filled one, but an enemy behind its gaps fights across them,
// as in base contact with the models of the rank ahead
// (WAP/close-combat/incomplete-ranks), and those models, in contact with
// it, fight it back.
func (u *Unit) Side(f Facing, alive int) (n, mm int) {
	if alive <= 0 {
		return 0, u.FrontMM
	}
	switch f {
	case FaceFlank:
		if u.DepthMM > 0 {
			return (alive + u.Width - 1) / u.Width, u.DepthMM
		}
		return (alive + u.Width - 1) / u.Width, u.FrontMM
	}
	return min(u.Width, alive), u.FrontMM
}

// touching returns how many of n bases in a line, each mm long along it,
// touch a side of k bases, each emm long, set against them. Models touching
// only at a corner fight (WAP/close-combat/who-can-strike), and a charge
// brings as many models into contact as it can
// (WAP/movement/move-chargers), which the line does with a base's edge at
// each end of the side where it can: a line no longer than the side
// touches it with every base; a longer one with the bases along it, a
// part-base counting, and one more beyond each end, touching its corner:
// at most k*emm/mm + 2, rounded down (a 50 mm Doomwheel touches four 20 mm
// Clanrats, two along its edge, a third across its far corner's line and a
// fourth at its near corner).
func touching(n, mm, k, emm int) int {
	if side := k * emm; n*mm > side {
		return min(n, side/mm+2)
	}
	return n
}

// Contact returns how many of u's models touch enemy e, when u has uAlive
// models and shows e its side uf, and e has eAlive and shows u its side
// ef: the models along u's side that touch e's (touching).
func Contact(u *Unit, uf Facing, uAlive int, e *Unit, ef Facing, eAlive int) int {
	n, mm := u.Side(uf, uAlive)
	k, emm := e.Side(ef, eAlive)
	if n == 0 || k == 0 {
		return 0
	}
	return touching(n, mm, k, emm)
}

// causesFearOf reports whether u's Fear (or Terror, which includes Fear)
// affects e, for the Fear combat result bonus. Immunity (Psychology) and
// Terror-causers (Immunity (Fear/Terror)) ignore both. A Fear-causer is
// immune to Fear, except that it treats a Terror-causer as causing Fear
// (unit card, Terror: the exception to that immunity), so Terror keeps its
// Fear bonus against it, whether or not it also lists Immunity (Fear). A
// unit with Immunity (Fear) treats Terror as Fear too, and ignores Fear;
// immuneFearFeels (Options.TerrorVsImmuneFear) reads
// the exception as covering it as well, but never for a unit immune to
// Terror as well (Immunity (Fear/Terror)), which ignores both.
func (u *Unit) causesFearOf(e *Unit, immuneFearFeels bool) bool {
	switch {
	case !u.Fear && !u.Terror:
		return false
	case e.ImmunePsychology || e.Terror:
		return false
	case e.ImmuneFear:
		// A Fear-causer is immune to Fear anyway: listing the immunity
		// leaves it a Fear-causer, to whom the exception applies.
		return u.Terror && (e.Fear || immuneFearFeels) && !e.ImmuneTerror
	}
	return u.Terror || !e.Fear
}

// terrifies reports whether u's Terror makes e take the Panic test of Run
// for Your Lives! when u declares a charge on it (unit card, Terror). Exempt:
// units that ignore Terror (Immunity (Terror), (Fear/Terror), (Psychology),
// Terror-causers), units that ignore Panic tests (Immunity (Panic)), units
// that treat Terror as Fear (Fear-causers, Immunity (Fear)), and units
// without Leadership, which take no Panic tests (TroopPanics).
func (u *Unit) terrifies(e *Unit) bool {
	return u.Terror && e.TroopPanics() && !(e.ImmunePsychology || e.ImmuneTerror || e.ImmunePanic || e.ImmuneFear || e.Fear || e.Terror)
}

// testsToCharge reports whether c must pass a Psychology test to declare a
// charge on t (unit card, Terror). Exempt are units immune to Terror (Immunity
// (Terror), (Fear/Terror), (Psychology), Terror-causers), units that
// treat Terror as Fear (Fear-causers, Immunity (Fear)), and units without
// Leadership, which take no Leadership tests; Immunity (Panic) alone
// exempts nothing, since the test is not a Panic test.
func testsToCharge(c, t *Unit) bool {
	return t.Terror && c.Ld > 0 && !(c.ImmunePsychology || c.ImmuneTerror || c.ImmuneFear || c.Fear || c.Terror)
}

// UnitState is a unit's condition during one trial.
type UnitState struct {
	Alive  int // bodies left
	Damage int // wounds on the body that dies next
	// Mover is the unit's movement now: its own, or after a Doomwheel's
	// Mishap chart changed it, the State's copy (State.mishapMover).
	Mover    *Mover
	Distance int // inches from the acting unit
	// at is the unit's place on the line through the acting unit's start
	// on which every unit stands, in inches from that start (the acting
	// unit's own is not kept). The acting unit's moves change the other
	// units' distances but not their places; a unit's own moves change
	// both (State.moveTo). Units other than the acting unit are apart by
	// the difference of their places (Battle.apart).
	at         int
	Engaged    bool
	Fled       bool
	Charged    bool // charged this turn
	Wounds     int  // wounds suffered this trial
	PhaseWound int  // wounds suffered this phase
	phaseAlive int  // bodies at the start of this phase
	// phaseBroke marks a break this phase; passedPanic a Panic test passed
	// this phase (no second one is taken).
	phaseBroke, passedPanic bool
	// woundedFree: the unit took a wound this phase while neither in
	// close combat nor fleeing (Options.LossOfControl); freeLost counts
	// the models it lost so (the heavy casualties of afterPhase).
	woundedFree bool
	freeLost    int
	Broke       bool
	Caught      bool
	// won: the unit beat an enemy in this battle (State.Won).
	won bool
	// told: the unit's friends have taken the Panic test that its break or
	// destruction in this phase called for (friendPanic, annihilated).
	told bool
	// pursued: the unit made a pursuit move in this phase.
	pursued bool
	// fledThrough: a friend with Unit Strength enough fled through the
	// unit this phase, and it is yet to take its Panic test (fleeThrough).
	fledThrough bool
	// behind: the acting unit flew over the unit along the line
	// (Battle.flyOver). It stands Distance behind the acting unit, off
	// the line ahead that the acting unit's later moves take, and those
	// moves leave its distance as it is.
	behind bool
	// flight is the flee roll of a break from combat this phase, not yet
	// placed (Battle.placeFlights); pursuit the pursuit roll of the unit
	// that pursued it, not yet moved.
	flight, pursuit int
}

func (s *UnitState) reset(u *Unit, distance int) {
	*s = UnitState{Alive: u.Models, Mover: &u.Mover, Distance: distance, at: distance}
}

// Destroyed reports whether no body is left.
func (s *UnitState) Destroyed() bool { return s.Alive == 0 }

// remaining returns the wounds the unit has left.
func (s *UnitState) remaining(u *Unit) int {
	if s.Alive == 0 {
		return 0
	}
	return s.Alive*u.W - s.Damage
}

// wound applies n wounds, carried over from body to body as the rules allow
// for ordinary wounds, and returns the wounds actually taken.
func (s *UnitState) wound(u *Unit, n int) int {
	n = min(n, s.remaining(u))
	alive := s.Alive
	if u.W == 1 { // one wound a model: no division
		s.Alive -= n
	} else {
		total := s.Damage + n
		s.Alive -= total / u.W
		s.Damage = total % u.W
	}
	s.Wounds += n
	s.PhaseWound += n
	if n > 0 && !s.Engaged && !s.Fled {
		s.woundedFree = true
		s.freeLost += alive - s.Alive
	}
	return n
}

// woundOne applies the wounds of one unsaved wound that does x wounds
// (Multiple Wounds), capped at the wounds left on the body it strikes.
func (s *UnitState) woundOne(u *Unit, x int) int {
	if s.Alive == 0 {
		return 0
	}
	return s.wound(u, min(x, u.W-s.Damage))
}

// slay removes the body that dies next (Killing Blow) and returns the
// wounds it had left.
func (s *UnitState) slay(u *Unit) int {
	if s.Alive == 0 {
		return 0
	}
	return s.wound(u, u.W-s.Damage)
}
