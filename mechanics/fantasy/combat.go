package fantasy

import "hammersim/mechanics/dice"

// blows are hits ready to roll to wound.
type blows struct {
	S        int
	killing  bool       // Killing Blow
	multiple *dice.Expr // Multiple Wounds, nil when none
	parry    bool       // a Parry save may be taken (never against Impact Hits)
	noSaves  bool       // no saves of any kind
}

// resolveHit rolls one hit through wound, armour and ward (or parry) and
// applies what gets through. It returns the wounds the target took.
//
// Killing Blow (RULES-FACTS.md): a natural 6 to wound slays an infantry,
// cavalry or war beast model outright with no armour save (a ward may still
// save it); against other troop types it is one wound that ignores armour.
// Ward and Parry saves are both unmodified saves taken after armour; a model
// takes the better one, never both.
func resolveHit(r *dice.Rand, b blows, tu *Unit, ts *UnitState) int {
	if ts.Alive == 0 {
		return 0
	}
	ok, natural := ToWound(b.S, tu.T).Succeeds(r)
	if !ok {
		return 0
	}
	if b.noSaves {
		return ts.woundOne(tu, 1)
	}
	killing := b.killing && natural == 6
	if !killing {
		if saved, _ := ArmourRoll(tu.Armour, b.S).Succeeds(r); saved {
			return 0
		}
	}
	w := tu.Ward
	if b.parry {
		w = min(w, tu.Parry)
	}
	if saved, _ := WardRoll(w).Succeeds(r); saved {
		return 0
	}
	if killing && tu.Troop.KillingBlowSlays() {
		return ts.slay(tu)
	}
	x := 1
	if b.multiple != nil {
		x = b.multiple.Roll(r)
	}
	return ts.woundOne(tu, x)
}

// HitWounds is the exact chance that one hit of strength s (no Killing Blow
// or Multiple Wounds) wounds target u: to wound, then failing armour
// (modified by s) and the ward (or parry, when allowed, if better).
func HitWounds(s int, u *Unit, parry bool) float64 {
	w := u.Ward
	if parry {
		w = min(w, u.Parry)
	}
	return ToWound(s, u.T).P() * (1 - ArmourRoll(u.Armour, s).P()) * (1 - WardRoll(w).P())
}

// Strike bands: Always Strikes First, then Initiative order, then Always
// Strikes Last (RULES-FACTS.md).
const (
	bandFirst = iota
	bandNormal
	bandLast
)

// strikeGroup is one profile's blows in a round of combat.
type strikeGroup struct {
	side     int // 0: the acting unit, 1: its opponent
	attacker int // index into Unit.Attackers; -1 for Stomps
	band     int
	init     int
	reroll   rerollRule
	attacks  int // fixed at the start of the group's step
}

type rerollRule uint8

const (
	noReroll rerollRule = iota
	rerollFailed
	rerollSuccessful
)

// maxGroups bounds the strike groups of a round: two units, each with at
// most maxAttackers profiles and a Stomp.
const (
	maxAttackers = 7
	maxGroups    = 2 * (maxAttackers + 1)
)

// MaxAttackers is the most attack profiles a unit may have.
const MaxAttackers = maxAttackers

// fighting returns how many of u's bodies strike at e: those in base
// contact, and (with supporting attacks, for rank-and-file types) as many
// from the rank behind.
func fighting(u *Unit, us *UnitState, e *Unit, es *UnitState, support bool) (front, behind int) {
	if us.Alive == 0 || es.Alive == 0 || us.Fled {
		return 0, 0
	}
	contact := u.Contact(e, es.Alive)
	front = min(us.Alive, contact)
	if support && u.Troop.FightsInRanks() && us.Alive > u.Width {
		behind = min(us.Alive-u.Width, contact)
	}
	return front, behind
}

// countAttacks rolls how many attacks an attack profile makes this step:
// each model in contact makes its A (rolled per model for Random Attacks);
// each supporting model one attack (none for a profile with A 0). A
// champion takes one front place.
func countAttacks(r *dice.Rand, u *Unit, a *Attacker, front, behind int, hasChampion bool) int {
	if front == 0 {
		return 0
	}
	models := front * a.PerBody
	support := behind * a.PerBody
	switch {
	case a.Champion:
		models, support = 1, 0
	case hasChampion:
		models -= a.PerBody
	}
	if a.A.IsConst() {
		per := a.A.Roll(r)
		if per == 0 {
			return 0 // no attacks, so no supporting attack either
		}
		return models*per + support
	}
	n := support
	for range models {
		n += a.A.Roll(r)
	}
	return n
}

func hasChampion(u *Unit) bool {
	for i := range u.Attackers {
		if u.Attackers[i].Champion {
			return true
		}
	}
	return false
}

// roundResult is what one round of combat did.
type roundResult struct {
	wounds       [2]int // wounds each side inflicted
	impact       int    // Impact Hits the acting unit inflicted
	impactWounds int    // the wounds they caused
}

// fightRound fights one round between units a (index ai) and d, after which
// the caller works out the result. first marks the round after a charge.
func (b *Battle) fightRound(r *dice.Rand, s *State, ai, di int, first bool) roundResult {
	units := [2]*Unit{b.Units[ai], b.Units[di]}
	states := [2]*UnitState{&s.Units[ai], &s.Units[di]}
	var res roundResult
	opt := &b.Options

	// Impact Hits come first, at the very start of the round, and only on
	// the turn of a successful charge, against the charged unit. Each model
	// rolls its own. A Grind Attack inflicts D3+1 Impact Hits at the start
	// of every round in which the machine did not charge.
	for side := range 2 {
		u, us := units[side], states[side]
		e, es := units[1-side], states[1-side]
		if us.Alive == 0 || us.Fled {
			continue
		}
		var hits int
		switch {
		case first && us.Charged && !u.Impact.IsZero():
			for range us.Alive {
				hits += u.Impact.Roll(r)
			}
		case u.GrindAttack && !(first && us.Charged):
			for range us.Alive {
				hits += grindHits.Roll(r)
			}
		}
		w := 0
		for range hits {
			w += resolveHit(r, blows{S: u.S}, e, es)
		}
		res.wounds[side] += w
		if side == 0 {
			res.impact += hits
			res.impactWounds += w
		}
	}

	// Strike groups, ordered by band then Initiative; groups that share
	// both strike at the same time.
	var groups [maxGroups]strikeGroup
	n := 0
	for side := range 2 {
		u, us, e := units[side], states[side], units[1-side]
		bonus := 0
		if first && us.Charged {
			bonus = opt.ChargerInitiative
		}
		for i := range u.Attackers {
			a := &u.Attackers[i]
			g := strikeGroup{side: side, attacker: i, band: bandNormal, init: a.I + bonus}
			asf := a.ASF || (u.DreadMaw && first && us.Charged)
			switch {
			case asf && !a.ASL:
				g.band = bandFirst
				if g.init > e.I {
					g.reroll = rerollFailed
				}
			case a.ASL && !asf:
				g.band = bandLast
				if g.init < e.I {
					g.reroll = rerollSuccessful
				}
			}
			n = insertGroup(&groups, n, g)
		}
		if u.Stomp && e.Troop.Stompable() {
			n = insertGroup(&groups, n, strikeGroup{side: side, attacker: -1, band: bandLast, init: u.I})
		}
	}

	for start := 0; start < n; {
		end := start + 1
		for end < n && groups[end].band == groups[start].band && groups[end].init == groups[start].init {
			end++
		}
		// Count every group's blows before any of them lands: blows struck
		// at the same Initiative are simultaneous.
		for i := start; i < end; i++ {
			g := &groups[i]
			u, us, e, es := units[g.side], states[g.side], units[1-g.side], states[1-g.side]
			front, behind := fighting(u, us, e, es, opt.SupportingAttacks)
			if g.attacker < 0 {
				g.attacks = 0
				if front > 0 {
					stomps := stompHits
					if e.Troop == Infantry && es.Alive == 1 {
						stomps = stompHitsLone
					}
					for range us.Alive {
						g.attacks += stomps.Roll(r)
					}
				}
				continue
			}
			g.attacks = countAttacks(r, u, &u.Attackers[g.attacker], front, behind, hasChampion(u))
		}
		for i := start; i < end; i++ {
			g := &groups[i]
			res.wounds[g.side] += strike(r, g, units[g.side], units[1-g.side], states[1-g.side])
		}
		start = end
	}
	return res
}

// grindHits, stompHits: the Doomwheel's Grind Attack (D3+1) and a Stomp
// (D6, or D3 against a lone infantry model), from the seeds.
var (
	grindHits     = dice.MustParse("D3+1")
	stompHits     = dice.MustParse("D6")
	stompHitsLone = dice.MustParse("D3")
)

// insertGroup keeps groups sorted by band, then Initiative from highest.
func insertGroup(groups *[maxGroups]strikeGroup, n int, g strikeGroup) int {
	i := n
	for i > 0 && (groups[i-1].band > g.band || groups[i-1].band == g.band && groups[i-1].init < g.init) {
		groups[i] = groups[i-1]
		i--
	}
	groups[i] = g
	return n + 1
}

// strike resolves a group's blows on e and returns the wounds e took.
func strike(r *dice.Rand, g *strikeGroup, u, e *Unit, es *UnitState) int {
	wounds := 0
	if g.attacker < 0 { // Stomps: automatic hits at the model's S
		for range g.attacks {
			wounds += resolveHit(r, blows{S: u.S}, e, es)
		}
		return wounds
	}
	a := &u.Attackers[g.attacker]
	need := MeleeToHit(a.WS, e.WS)
	b := blows{S: a.S, killing: a.Killing, parry: true}
	if !a.Multiple.IsZero() {
		b.multiple = &a.Multiple
	}
	for range g.attacks {
		if es.Alive == 0 {
			break
		}
		hit, _ := need.Succeeds(r)
		switch {
		case !hit && g.reroll == rerollFailed:
			hit, _ = need.Succeeds(r)
		case hit && g.reroll == rerollSuccessful:
			hit, _ = need.Succeeds(r)
		}
		if hit {
			wounds += resolveHit(r, b, e, es)
		}
	}
	return wounds
}

// rankBonus is +1 for each rank after the first of at least five models,
// at most +3, for units that fight in ranks and stand at least five wide.
func rankBonus(u *Unit, alive int) int {
	if !u.Troop.FightsInRanks() || u.Width < 5 || alive == 0 {
		return 0
	}
	ranks := alive / u.Width
	if alive%u.Width >= 5 {
		ranks++
	}
	return min(max(ranks-1, 0), 3)
}

// steadfast reports whether a losing unit tests on its unmodified
// Leadership (WAP, RULES-FACTS.md): it has the higher Unit Strength, at
// least 10, a rank of five or more, and fights in ranks; a Stubborn unit is
// always Steadfast (seeds).
func steadfast(u *Unit, us *UnitState, enemyUS int) bool {
	if u.Stubborn {
		return true
	}
	total := u.TotalUS(us.Alive)
	return u.Troop.FightsInRanks() && total > enemyUS && total >= 10 && min(us.Alive, u.Width) >= 5
}
