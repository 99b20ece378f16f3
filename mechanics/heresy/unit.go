package heresy

import (
	"strings"

	"hammersim/mechanics"
	"hammersim/mechanics/dice"
)

// Profile is what the rules read from a model's characteristics and
// special rules. Every model of a Unit shares it.
type Profile struct {
	WS, BS, S, T, W, I, A, Ld int

	// Save is the armour save, 3 for 3+; 0 for none.
	Save int
	// Invuln is the best invulnerable save the model has (they do not
	// combine), 4 for 4+; 0 for none.
	Invuln int
	// FeelNoPain is X of Feel No Pain (X), 5 for 5+; 0 for none.
	FeelNoPain int

	EternalWarrior bool
	Fearless       bool
	// LordsOfProfligacy lets the unit become Stupefied (see Unit.Stupefy).
	LordsOfProfligacy bool
	// AutomatedArtillery is the Automated Artillery sub-type.
	AutomatedArtillery bool
	// SentryProtocols: the unit must shoot the closest visible enemy unit
	// (see ClosestTarget).
	SentryProtocols bool
	// Type is the unit type as printed; only Armourbane reads it (its
	// re-roll against Dreadnoughts and Automata). Beside the flags, where
	// it takes no room of its own: a trial copies units.
	Type UnitType

	// Bulky is X of Bulky (X); 0 or 1 for an ordinary model.
	Bulky int
	// FiringProtocols is X of Firing Protocols (X); 0 when the model fires
	// one weapon per Shooting Attack.
	FiringProtocols int

	// Fear is X of Fear (X): enemy units take -X Leadership on Morale
	// checks, Regroup tests and Pinning tests; 0 for none.
	Fear int
	// FuriousCharge is X of Furious Charge (X): +X Strength on a turn the
	// model charged, unless the charge was Disordered; 0 for none.
	FuriousCharge int
}

// UnitType is a unit's type as its datasheet prints it, among those a
// rule here reads: Infantry, the zero value, stands for every type no rule
// names.
type UnitType uint8

const (
	Infantry UnitType = iota
	Dreadnought
	Automata
)

// UnitTypes are the unit types in the order messages list them.
var UnitTypes = []UnitType{Infantry, Dreadnought, Automata}

func (t UnitType) String() string {
	switch t {
	case Infantry:
		return "Infantry"
	case Dreadnought:
		return "Dreadnought"
	case Automata:
		return "Automata"
	}
	return "UnitType(?)"
}

// ParseUnitType reads a unit type, ignoring case.
func ParseUnitType(s string) (UnitType, bool) {
	for _, t := range UnitTypes {
		if strings.EqualFold(s, t.String()) {
			return t, true
		}
	}
	return Infantry, false
}

// Condition is a set of lasting effects a unit can suffer.
type Condition uint8

const (
	Pinned Condition = 1 << iota
	// Blinded: the unit suffers the effects of a Blind weapon.
	Blinded
	// Concussed: the unit suffers the effects of a Concussive (X) weapon.
	Concussed
)

// Status is a unit's state during a battle.
type Status struct {
	// Conditions holds the effects the unit has been given.
	Conditions Condition
	// Ignored holds the conditions the unit ignores while Stupefied: the
	// ones it had when it became Stupefied.
	Ignored Condition
	// Stupefied counts the ends of the controlling player's turns still to
	// come before the unit stops being Stupefied; 0 when it is not.
	Stupefied int
	// FallingBack: the unit is Falling Back.
	FallingBack bool
	// Cover is the cover save the unit has against the attack being
	// resolved, 4 for 4+; 0 for none. The caller sets it per attack.
	Cover int
	// Shrouded is the Shrouded Damage Mitigation roll the unit takes
	// against the attack being resolved (from the Evade Reaction), 5 for
	// 5+; 0 for none. The caller sets it per attack.
	Shrouded int
	// ChargedInOrder: the unit charged this turn and its charge was not
	// Disordered (Furious Charge reads it; see Side.Ready).
	ChargedInOrder bool
}

// IsStupefied reports whether the unit is Stupefied.
func (s *Status) IsStupefied() bool { return s.Stupefied > 0 }

// Unit is a unit of identical models.
type Unit struct {
	Profile
	// Models is the number of models left.
	Models int
	// Hurt is the wounds already lost by the unit's one wounded model; 0
	// when no model is wounded. Wounds go onto that model first.
	Hurt int
	Status
}

// NewUnit returns a unit of n unhurt models with profile p.
func NewUnit(p Profile, n int) Unit { return Unit{Profile: p, Models: n} }

// Destroyed reports whether the unit has no models left.
func (u *Unit) Destroyed() bool { return u.Models <= 0 }

// TakeWound applies one wound that got through saves and mitigation, and
// reports whether it removed a model. Wounds go onto one model until it is
// removed, the wounded one first. A wound that slays (Instant Death without
// Eternal Warrior) removes the model whatever its wounds left.
func (u *Unit) TakeWound(slays bool) bool {
	removed, _ := u.takeWounds(1, slays)
	return removed
}

// takeWounds applies n wounds that got through together onto one model
// (Brutal, Destroyer), and reports whether it was removed; wounds beyond
// what it had left are lost, not carried to the next model. A slaying
// wound removes it whatever n is. It also returns the Wounds the model
// lost: n, or what it had left when n is more or the wound slays; 0 when
// the unit has no models left or n is not positive.
func (u *Unit) takeWounds(n int, slays bool) (removed bool, lost int) {
	if u.Models <= 0 || n <= 0 {
		return false, 0
	}
	left := max(u.W, 1) - u.Hurt
	u.Hurt += n
	if slays || u.Hurt >= u.W {
		u.Models--
		u.Hurt = 0
		return true, left
	}
	return false, n
}

// Strength is the models' Strength, +1 while Stupefied (Lords of Profligacy
// rule text).
func (u *Unit) Strength() int {
	s := u.S
	if u.IsStupefied() {
		s++
	}
	if u.ChargedInOrder {
		s += u.FuriousCharge
	}
	return s
}

// FearOf is the Leadership penalty enemy unit e's Fear (X) gives u: X, or
// 0 when u is Fearless, which ignores Fear (rule text). Only the highest X
// counts (rulebook p.238), and a unit has one profile.
func (u *Unit) FearOf(e *Unit) int {
	if u.IgnoresFear() || e == nil {
		return 0
	}
	return e.Fear
}

// SnapShotsOnly reports whether the unit may fire Snap Shots only: a
// Stupefied unit (rule text), and a Pinned one (rulebook p.244).
func (u *Unit) SnapShotsOnly() bool { return u.IsStupefied() || u.pinned() }

// pinned reports whether the unit suffers being Pinned now: Pinned, and not
// ignoring it while Stupefied (see Suffers; a Stupefied unit cannot be
// Pinned anew, so only the Pinned it had when it became Stupefied is
// ignored, whatever Options.StupefiedIgnoresLater says).
func (u *Unit) pinned() bool { return u.Suffers(Pinned, Options{}) }

// ShootingBS is the Ballistic Skill the unit shoots at: at most SnapShotBS
// when it may fire Snap Shots only (a unit of BS 0, "-", still cannot hit).
func (u *Unit) ShootingBS() int {
	if u.SnapShotsOnly() {
		return min(u.BS, SnapShotBS)
	}
	return u.BS
}

// Bulk is how many models the unit counts as for Transport Capacity and for
// outnumbering in combat: each Bulky (X) model counts as X (Bulky rule text:
// five Bulky (3) models count as 15).
func (u *Unit) Bulk() int {
	if u.Models <= 0 {
		return 0
	}
	return u.Models * max(u.Bulky, 1)
}

// Outnumbers reports whether u outnumbers other in combat, counting Bulky.
func (u *Unit) Outnumbers(other *Unit) bool { return u.Bulk() > other.Bulk() }

// CanRun: Automated Artillery may not Run (rule text), nor may a Pinned
// unit (rulebook p.244) unless it ignores being Pinned while Stupefied.
func (u *Unit) CanRun() bool { return !u.AutomatedArtillery && !u.pinned() }

// CanCharge: Automated Artillery may not declare or make Charges (rule
// text); a Falling Back unit does not charge either, nor a Pinned one
// (rulebook p.244) unless it ignores being Pinned while Stupefied (rule
// text).
func (u *Unit) CanCharge() bool { return !u.AutomatedArtillery && !u.FallingBack && !u.pinned() }

// ChargeDisordered reports whether a charge declared for the unit is
// Disordered: always while Stupefied (rule text), including a charge during
// which it becomes Stupefied.
func (u *Unit) ChargeDisordered() bool { return u.IsStupefied() }

// CanSweep: Automated Artillery may not make Sweeping Advances (rule text).
func (u *Unit) CanSweep() bool { return !u.AutomatedArtillery }

// SweptWithoutRoll reports whether a Sweeping Advance against the unit
// destroys it with no dice rolled: Automated Artillery (rule text).
func (u *Unit) SweptWithoutRoll() bool { return u.AutomatedArtillery }

// CanHoldObjective: Automated Artillery never holds an Objective (rule text).
func (u *Unit) CanHoldObjective() bool { return !u.AutomatedArtillery }

// CanDenyObjective: Automated Artillery never denies one either (rule text).
func (u *Unit) CanDenyObjective() bool { return !u.AutomatedArtillery }

// IgnoresFear: Fearless models ignore the Fear special rule (rule text).
func (u *Unit) IgnoresFear() bool { return u.Fearless }

// Reaction is a Reaction as the restrictions on it read it.
type Reaction struct {
	Name string
	// Advanced: an Advanced Reaction.
	Advanced bool
	// GrantsSave: it grants a Cover, Armour or Invulnerable Save.
	GrantsSave bool
}

// The Reactions hammersim resolves, and Interceptor, the one Automated
// Artillery may make. Evade grants a save in the sense of the Fearless rule
// (rulebook p.238/247: Fearless units may not Evade).
var (
	Interceptor = Reaction{Name: "Interceptor", Advanced: true}
	ReturnFire  = Reaction{Name: "Return Fire"}
	Overwatch   = Reaction{Name: "Overwatch"}
	HoldTheLine = Reaction{Name: "Hold the Line"}
	Evade       = Reaction{Name: "Evade", GrantsSave: true}
)

// CanReact reports whether the unit may make reaction re. The rules, each
// from the rule text:
//   - a Stupefied unit makes no Reactions in any phase;
//   - a Pinned or Falling Back unit makes none either (rulebook p.244;
//     Goonhammer's core Reactions guide), nor does a destroyed one;
//   - Automated Artillery may make only the Interceptor Advanced Reaction;
//   - a unit with Fearless may not use Reactions that grant a Cover, Armour
//     or Invulnerable Save.
func (u *Unit) CanReact(re Reaction) bool {
	switch {
	case u.Destroyed(), u.IsStupefied(), u.FallingBack, u.Conditions&Pinned != 0:
		return false
	case u.AutomatedArtillery && (!re.Advanced || mechanics.Canonical(re.Name) != mechanics.Canonical(Interceptor.Name)):
		return false
	case u.Fearless && re.GrantsSave:
		return false
	}
	return true
}

// Suffers reports whether the unit suffers the effects of condition c now.
// A Stupefied unit ignores Pinned, Blind and Concussive it had when it became
// Stupefied (rule text), and later ones too with Options.StupefiedIgnoresLater.
func (u *Unit) Suffers(c Condition, o Options) bool {
	if u.Conditions&c == 0 {
		return false
	}
	if u.IsStupefied() && (u.Ignored&c != 0 || o.StupefiedIgnoresLater) {
		return false
	}
	return true
}

// CanBePinned: a Stupefied unit cannot be Pinned (rule text).
func (u *Unit) CanBePinned() bool { return !u.IsStupefied() }

// Pin pins the unit after a failed Pinning test, and reports whether it is
// now Pinned; a unit that cannot be Pinned is not.
func (u *Unit) Pin() bool {
	if !u.CanBePinned() {
		return false
	}
	u.Conditions |= Pinned
	return true
}

// GainFearless gives the unit Fearless; a Pinned unit that gains it stops
// being Pinned at once (Fearless rule text).
func (u *Unit) GainFearless() {
	u.Fearless = true
	u.Conditions &^= Pinned
}

// CanStupefy reports whether the unit may now choose to become Stupefied:
// after a Shooting Attack against it is resolved, every model has Lords of
// Profligacy (a Unit's models share a Profile) and it is not Falling Back
// (rule text); it must have models left, and, unless
// Options.RestupefyRefreshes, not be Stupefied already.
func (u *Unit) CanStupefy(o Options) bool {
	return u.LordsOfProfligacy && !u.Destroyed() && !u.FallingBack &&
		(!u.IsStupefied() || o.RestupefyRefreshes)
}

// Stupefy makes the unit Stupefied if it may (see CanStupefy) and reports
// whether it did. ownTurn says whether it happens in its controlling
// player's turn: Stupefied lasts until the end of that player's following
// turn, so the end of the current turn does not count (rule text).
func (u *Unit) Stupefy(ownTurn bool, o Options) bool {
	if !u.CanStupefy(o) {
		return false
	}
	u.Stupefied = 1
	if ownTurn {
		u.Stupefied = 2
	}
	u.Ignored |= u.Conditions
	return true
}

// EndTurn is called at the end of each player turn; own says whether it was
// the turn of the unit's controlling player. Stupefied wears off at the end
// of that player's following turn.
func (u *Unit) EndTurn(own bool) {
	if own && u.Stupefied > 0 {
		u.Stupefied--
		if u.Stupefied == 0 {
			u.Ignored = 0
		}
	}
}

// ForcedMove records that the unit is forced to move; it stops being
// Stupefied (rule text).
func (u *Unit) ForcedMove() {
	u.Stupefied = 0
	u.Ignored = 0
}

// FallBack makes the unit Fall Back, a forced move, so it stops being
// Stupefied (rule text).
func (u *Unit) FallBack() {
	u.FallingBack = true
	u.ForcedMove()
}

// Test is a Leadership-based test.
type Test uint8

const (
	MoraleCheck Test = iota
	PinningTest
	RegroupTest
)

func (t Test) String() string {
	switch t {
	case MoraleCheck:
		return "Morale check"
	case PinningTest:
		return "Pinning test"
	case RegroupTest:
		return "Regroup test"
	}
	return "Test(?)"
}

// Phase is a phase of a player turn.
type Phase uint8

const (
	PhaseMovement Phase = iota
	PhaseShooting
	PhaseAssault
)

// AutoPasses reports whether the unit passes test t in phase ph without
// rolling. From the rule texts:
//   - Fearless passes every Pinning, Regroup and Morale test;
//   - a Stupefied unit is spared Morale checks in the Movement and Shooting
//     phases and is never Pinned; in the Assault phase it tests as usual.
func (u *Unit) AutoPasses(t Test, ph Phase) bool {
	if u.Fearless {
		return true
	}
	if u.IsStupefied() {
		switch t {
		case PinningTest:
			return true
		case MoraleCheck:
			return ph != PhaseAssault
		}
	}
	return false
}

// PassProbability is the exact chance the unit passes test t in phase ph
// with modifier mod to its Leadership (negative for a penalty); a Morale
// check passes on a double 1 with o.InsaneHeroism.
func (u *Unit) PassProbability(t Test, ph Phase, mod int, o Options) float64 {
	if u.AutoPasses(t, ph) {
		return 1
	}
	return PassProbability(u.Ld+mod, t.doubleOnePasses(o))
}

// TakeTest rolls test t in phase ph with modifier mod to Leadership and
// reports whether the unit passed; a Morale check passes on a double 1 with
// o.InsaneHeroism. No dice are rolled when it passes automatically.
func (u *Unit) TakeTest(r *dice.Rand, t Test, ph Phase, mod int, o Options) bool {
	if u.AutoPasses(t, ph) {
		return true
	}
	return RollTest(r, u.Ld+mod, t.doubleOnePasses(o))
}

// doubleOnePasses reports whether a double 1 passes test t: Insane Heroism
// names Morale checks only (see Options.InsaneHeroism).
func (t Test) doubleOnePasses(o Options) bool { return t == MoraleCheck && o.InsaneHeroism }
