package heresy

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"hammersim/mechanics/dice"
)

// WeaponType is the type printed in a weapon profile's Type column. HH2
// datasheets use only Assault X, Heavy X, Rapid Fire, Pistol X, Ordnance X
// and Destroyer X for ranged weapons (a scan of every HH2 data file:
// docs/heresy.md), and Melee for close-combat weapons.
type WeaponType uint8

const (
	// Untyped: no type given; the weapon fires its shots whatever the unit
	// did, and does not stop a charge.
	Untyped WeaponType = iota
	Assault
	Heavy
	RapidFire
	Pistol
	Ordnance
	Destroyer
	Melee
)

var weaponTypeNames = [...]string{
	Untyped: "", Assault: "Assault", Heavy: "Heavy", RapidFire: "Rapid Fire", Pistol: "Pistol",
	Ordnance: "Ordnance", Destroyer: "Destroyer", Melee: "Melee",
}

func (t WeaponType) String() string {
	if int(t) < len(weaponTypeNames) {
		if t == Untyped {
			return "untyped"
		}
		return weaponTypeNames[t]
	}
	return "WeaponType(?)"
}

// BlocksCharge reports whether firing a weapon of this type stops the unit
// charging in the same turn: Heavy, Rapid Fire and Ordnance do (rulebook
// p.245/247: Relentless and Slow and Purposeful are what allow a charge
// after firing them; p.177 for Ordnance). Assault, Pistol and Destroyer do
// not (p.178 for Destroyer).
func (t WeaponType) BlocksCharge() bool { return t == Heavy || t == RapidFire || t == Ordnance }

// Weapon is a weapon profile, ranged or close combat, with the special
// rules it carries.
type Weapon struct {
	Name string
	// Type is the weapon's type; Untyped when none was given.
	Type WeaponType
	// Shots is the number of shots each model fires with it (the X of its
	// type); the zero Expr means one. Close combat ignores it (models strike
	// their Attacks). Rapid Fire doubles it within half range.
	Shots dice.Expr
	// Range is the weapon's range in inches; 0 when not given. A Template
	// weapon's reach is TemplateReach.
	Range int
	// S is the weapon's Strength; 0 means it uses the wielder's Strength
	// ("User"), plus StrengthBonus.
	S int
	// StrengthBonus is added to the wielder's Strength when S is 0 ("+1").
	StrengthBonus int
	// StrengthMultiplier, when 2 or more and S is 0, multiplies the
	// wielder's Strength ("x2", a power fist's); see
	// Options.MultiplyModifiedStrength for the order of its modifiers.
	StrengthMultiplier int
	// AP is the armour penetration, APNone for "-".
	AP int
	// InstantDeath: the weapon has the Instant Death special rule.
	InstantDeath bool
	// IgnoresCover: no cover save may be taken against it.
	IgnoresCover bool

	// Rules read along the attack chain (see Chain): each X is a D6 score,
	// 0 when the weapon does not have the rule.
	Rending         int // Rending (X): a To Wound roll of X+ wounds and is AP2
	Breaching       int // Breaching (X): a To Wound roll of X+ is AP2
	MurderousStrike int // Murderous Strike (X): a To Wound roll of X+ is Instant Death
	Poisoned        int // Poisoned (X): wounds on X+
	PrecisionShots  int // Precision Shots/Strikes (X): a To Hit roll of X+ lets the firer allocate
	Brutal          int // Brutal (X): each wound becomes X wounds, saved one by one; 0 or 1: none
	Concussive      int // Concussive (X): -X WS to a unit that fails its test
	Blast           int // Blast (X): the marker's size in inches, 3, 5, 7 or 10
	Shred           bool
	// Armourbane is which Armourbane the weapon has, if any: against a
	// Dreadnought or Automata target it re-rolls failed To Wound rolls.
	Armourbane    Armourbane
	TwinLinked    bool
	MasterCrafted bool
	GetsHot       bool
	Fleshbane     bool
	Deflagrate    bool
	RadPhage      bool
	Sniper        bool
	Template      bool

	// Group, when not 0, makes the weapons of one unit that share it
	// profiles of one weapon (a missile launcher's krak and frag
	// missiles): a model fires one of them at most, Firing Protocols or
	// not (Firing Protocols' rule text: it never lets one weapon attack
	// twice).
	Group int
}

// Armourbane is a weapon's Armourbane rule: the bare rule, or one of its
// variants, which limit it to attacks at half range or less (Melta), in
// close combat (Melee) or in Shooting Attacks (Ranged). Its extra
// penetration die against Vehicles is not modelled: hammersim has none.
type Armourbane uint8

const (
	NoArmourbane Armourbane = iota
	ArmourbaneAny
	ArmourbaneMelta
	ArmourbaneMelee
	ArmourbaneRanged
)

// armourbaneRerolls reports whether w's Armourbane re-rolls its failed To
// Wound rolls against target: a target of the Dreadnought or Automata type,
// within what the variant allows (newrecruit.eu's Horus Heresy (2022)
// wiki, Armourbane (X); rulebook p.231). halfRange: a Shooting Attack at
// half the weapon's range or less.
func (w *Weapon) armourbaneRerolls(target *Unit, melee, halfRange bool) bool {
	if target.Type != Dreadnought && target.Type != Automata {
		return false
	}
	switch w.Armourbane {
	case ArmourbaneAny:
		return true
	case ArmourbaneMelta:
		return !melee && halfRange
	case ArmourbaneMelee:
		return melee
	case ArmourbaneRanged:
		return !melee
	}
	return false
}

// TemplateReach is how far from the firer a Template weapon reaches, in
// inches: the template's length, and the distance Wall of Death reaches
// (rulebook p.248).
const TemplateReach = 8

// oneShot is what the zero Weapon.Shots means.
var oneShot = dice.Const(1)

func (w *Weapon) shots() dice.Expr {
	if w.Shots.IsZero() {
		return oneShot
	}
	return w.Shots
}

// reach is how far the weapon fires; 0 for no limit given.
func (w *Weapon) reach() int {
	if w.Template {
		return TemplateReach
	}
	return w.Range
}

// Strength is the weapon's Strength in the hands of user. Stupefied raises
// the user's Strength characteristic by 1, which weapons using it carry;
// fixed-Strength weapons gain it only with Options.StupefiedFixedStrength.
func (w *Weapon) Strength(user *Unit, o Options) int {
	if w.S == 0 && w.StrengthMultiplier > 1 {
		if o.MultiplyModifiedStrength {
			return user.Strength() * w.StrengthMultiplier
		}
		return user.S*w.StrengthMultiplier + user.Strength() - user.S
	}
	if w.S == 0 {
		return user.Strength() + w.StrengthBonus
	}
	if o.StupefiedFixedStrength && user.IsStupefied() {
		return w.S + 1
	}
	return w.S
}

// Situation is how a unit fires: how far the target is, whether the unit
// moved, and what kind of attack it is making.
type Situation struct {
	// Distance to the target in inches; 0 when not given, which counts as in
	// range of every weapon and beyond half range.
	Distance int
	// Moved: the firing unit moved this turn.
	Moved bool
	// Stationary: the attack counts as made by a unit that did not move,
	// whatever it did (the Return Fire Reaction).
	Stationary bool
	// SnapShots: the attack is made with Snap Shots only, whatever the
	// unit's state (Overwatch, a Pinned or Falling Back unit).
	SnapShots bool
	// Reaction: the attack is a Reaction (Return Fire, Overwatch), where
	// Template weapons fire Wall of Death.
	Reaction bool
	// Charging: the target is charging the firer (Overwatch); Wall of Death
	// then reaches it wherever it is.
	Charging bool
}

// NoFire says why a weapon is not fired; FiresNormally when it is.
type NoFire uint8

const (
	FiresNormally NoFire = iota
	OutOfRange
	// MovedOrdnance: an Ordnance weapon is not fired by a unit that moved
	// (non-Vehicles; rulebook p.177).
	MovedOrdnance
	// NoSnapShots: the attack is Snap Shots only and the weapon cannot make
	// them (Ordnance p.177, Blast p.234, Template outside Wall of Death).
	NoSnapShots
)

func (n NoFire) String() string {
	switch n {
	case FiresNormally:
		return "fires"
	case OutOfRange:
		return "out of range"
	case MovedOrdnance:
		return "Ordnance after moving"
	case NoSnapShots:
		return "cannot make Snap Shots"
	}
	return "NoFire(?)"
}

// Firing is how a weapon fires in a Situation.
type Firing struct {
	Why NoFire
	// Rolls is how many times each model rolls the weapon's Shots: 2 for
	// Rapid Fire within half range, else 1.
	Rolls int
	// Snap: the shots are Snap Shots (BS 1).
	Snap bool
	// WallOfDeath: a Template weapon fires Wall of Death: D3 automatic hits
	// instead of the template (rulebook p.248).
	WallOfDeath bool
	// HalfRange: the target is at half the weapon's reach or less, as the
	// Situation's distance gives it (never without one).
	HalfRange bool
}

// Fires reports whether the weapon is fired.
func (f Firing) Fires() bool { return f.Why == FiresNormally }

// Fire decides how weapon w is fired by firer in situation s. The rules:
//   - beyond the weapon's range it is not fired (zero shots); Template
//     weapons reach TemplateReach inches, and in a Reaction against a
//     charging unit Wall of Death reaches it wherever it is;
//   - Snap Shots when the firer may fire only them (Stupefied), when s says
//     so, and for a Heavy weapon fired by a unit that moved unless the attack
//     counts as stationary (the Return Fire Reaction) [EMP; rulebook p.177];
//   - Ordnance is not fired after moving and never as Snap Shots (p.177);
//     Blast weapons make no Snap Shots (p.234); Template weapons fire Wall of
//     Death in a Reaction, and otherwise make no Snap Shots;
//   - Rapid Fire doubles the shots within half range [EMP].
func (w *Weapon) Fire(firer *Unit, s Situation) Firing {
	f := Firing{Rolls: 1}
	moved := s.Moved && !s.Stationary
	if r := w.reach(); s.Distance > 0 && r > 0 && s.Distance > r && !(w.Template && s.Reaction && s.Charging) {
		f.Why = OutOfRange
		return f
	}
	if w.Type == Ordnance && moved {
		f.Why = MovedOrdnance
		return f
	}
	f.Snap = firer.SnapShotsOnly() || s.SnapShots || (w.Type == Heavy && moved)
	switch {
	case w.Template && s.Reaction:
		f.WallOfDeath, f.Snap = true, true
	case f.Snap && (w.Type == Ordnance || w.Blast > 0 || w.Template):
		f.Why = NoSnapShots
		return f
	}
	r := w.reach()
	f.HalfRange = s.Distance > 0 && r > 0 && 2*s.Distance <= r
	if w.Type == RapidFire && f.HalfRange && !w.Template {
		f.Rolls = 2 // a Template's hits come from its template, not its shots
	}
	return f
}

// TypeText is a weapon's Type column as printed, read by ParseType.
type TypeText struct {
	Type WeaponType
	// Shots is the X after the type, when printed, and ShotsCol its 1-based
	// byte column in the text.
	Shots    dice.Expr
	ShotsCol int
	// Rules are the special rules that follow the type, each with its
	// 1-based byte column in the text.
	Rules []RuleAt
}

// RuleAt is a special rule's text and where it starts.
type RuleAt struct {
	Text string
	Col  int
}

// TypeError reports a Type column that could not be read; Col is the
// 1-based byte column of the problem.
type TypeError struct {
	Col int
	Msg string
}

func (e *TypeError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

// ParseType reads a weapon's Type column as printed on a datasheet:
// "Rapid Fire", "Heavy 2", "Assault 1, Rending (6+)", "Melee, Brutal (2)".
// The first item is the type, with the shots after it where the type takes
// them; the items after it are special rules, returned as text for the
// catalogue to read. A comma inside brackets does not split.
func ParseType(s string) (TypeText, error) {
	var tt TypeText
	items := splitTopLevel(s)
	first := items[0]
	head := strings.TrimSpace(first.Text)
	if head == "" {
		return tt, &TypeError{Col: 1, Msg: "expected a weapon type: Assault X, Heavy X, Rapid Fire, Pistol X, Ordnance X, Destroyer X or Melee"}
	}
	var x string
	for t := Assault; t <= Melee; t++ {
		name := weaponTypeNames[t]
		if len(head) >= len(name) && strings.EqualFold(head[:len(name)], name) &&
			(len(head) == len(name) || head[len(name)] == ' ') {
			tt.Type = t
			x = strings.TrimSpace(head[len(name):])
			break
		}
	}
	col := first.Col + len(first.Text) - len(strings.TrimLeftFunc(first.Text, unicode.IsSpace))
	if tt.Type == Untyped {
		msg := fmt.Sprintf("unknown weapon type %q; expected Assault X, Heavy X, Rapid Fire, Pistol X, Ordnance X, Destroyer X or Melee", head)
		if strings.HasPrefix(strings.ToLower(head), "salvo") {
			msg = "Salvo is not a Horus Heresy 2nd edition weapon type; HH2 profiles use Assault, Heavy, Rapid Fire, Pistol, Ordnance, Destroyer"
		}
		return tt, &TypeError{Col: col, Msg: msg}
	}
	xCol := col + len(head) - len(x)
	switch {
	case x == "" && (tt.Type == RapidFire || tt.Type == Melee):
	case x == "":
		return tt, &TypeError{Col: col + len(head), Msg: fmt.Sprintf("%s needs its number of shots, such as %s 1", tt.Type, tt.Type)}
	case tt.Type == Melee:
		return tt, &TypeError{Col: xCol, Msg: "Melee takes no number of shots (models strike their Attacks)"}
	default:
		e, err := dice.ParseSum(x)
		var se *dice.SyntaxError
		if errors.As(err, &se) && se.QueryOnly {
			return tt, &TypeError{Col: xCol + se.Col - 1, Msg: fmt.Sprintf("%s %s: %s", tt.Type, x, se.Msg)}
		}
		if err != nil || e.Min() < 1 {
			return tt, &TypeError{Col: xCol, Msg: fmt.Sprintf("%s %s: expected a number of shots of at least 1, or dice such as D3", tt.Type, x)}
		}
		tt.Shots, tt.ShotsCol = e, xCol
	}
	for _, it := range items[1:] {
		text := strings.TrimSpace(it.Text)
		if text == "" {
			return tt, &TypeError{Col: it.Col, Msg: "empty item between commas; expected a special rule"}
		}
		tt.Rules = append(tt.Rules, RuleAt{Text: text, Col: it.Col + len(it.Text) - len(strings.TrimLeftFunc(it.Text, unicode.IsSpace))})
	}
	return tt, nil
}

// splitTopLevel splits s at commas outside brackets, keeping each item's
// 1-based column.
func splitTopLevel(s string) []RuleAt {
	var out []RuleAt
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth = max(depth-1, 0)
		case ',':
			if depth == 0 {
				out = append(out, RuleAt{Text: s[start:i], Col: start + 1})
				start = i + 1
			}
		}
	}
	return append(out, RuleAt{Text: s[start:], Col: start + 1})
}
