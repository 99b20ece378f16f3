package fantasy

import "hammersim/mechanics/dice"

// blows are hits on one target, ready to roll to wound: the D6 score each
// step needs, worked out once for a group of hits (7: it cannot succeed).
type blows struct {
	hit, wound, armour, ward int // hit: for blows that roll to hit
	// killing: a natural 6 to wound is a Killing Blow with an effect on
	// this target; slays: it slays outright; oneWound: it is one wound,
	// never multiplied (KillingBlowOneWound).
	killing, slays, oneWound bool
	multiple                 *dice.Expr // Multiple Wounds, nil when none
}

// newBlows readies hits at strength s on u, which takes ward after armour.
func newBlows(s int, u *Unit, ward int) blows {
	return blows{wound: ToWound(s, u.T).Need, armour: ArmourRoll(u.Armour, s).Need, ward: WardRoll(ward).Need}
}

// hitsOn is the blows of automatic hits (Impact Hits, Grind Attack, Stomp,
// bolts, shots) at strength s on u: no Parry (unit card, Impact Hits; WAP, Parry).
func hitsOn(s int, u *Unit) blows { return newBlows(s, u, u.Ward) }

// withKillingBlow gives the blows Killing Blow on u (WAP, special rules,
// Killing Blow): a natural 6 to wound slays an Infantry, Cavalry or War
// Beasts model outright with no armour save (a ward may still save it) and
// scores the wounds it had left; what it does to other types is kb.
func (b *blows) withKillingBlow(kb KillingBlowRule, u *Unit) {
	b.slays = u.Troop.KillingBlowSlays()
	b.killing = b.slays || kb != KillingBlowNone
	b.oneWound = !b.slays && kb == KillingBlowOneWound
}

// landHits rolls n hits through wound, armour and ward, a stage at a time
// (all the wound rolls, then the armour saves of the wounds, then their
// wards, as players roll them), and applies the unsaved wounds. The blows
// must be plain: no Killing Blow and no Multiple Wounds, so that every
// unsaved wound is one wound, whatever the order. Each stage is one
// dice.Rand.Count over the same dice rolling them one by one would draw;
// wounds beyond what the unit has left are lost, as they are when it dies
// before the last of them is rolled. It returns the wounds taken.
func landHits(r *dice.Rand, b *blows, n int, tu *Unit, ts *UnitState) int {
	if ts.Alive == 0 || n == 0 {
		return 0
	}
	w := r.Count(n, b.wound)
	if w > 0 && b.armour <= 6 {
		w -= r.Count(w, b.armour)
	}
	if w > 0 && b.ward <= 6 {
		w -= r.Count(w, b.ward)
	}
	return ts.wound(tu, w)
}

// plain reports whether every unsaved wound of b is exactly one wound.
func (b *blows) plain() bool { return !b.killing && b.multiple == nil }

// resolveHit rolls one hit through wound, armour and ward and applies what
// gets through. It returns the wounds the target took. A save that cannot
// succeed is not rolled.
func resolveHit(r *dice.Rand, b *blows, tu *Unit, ts *UnitState) int {
	if ts.Alive == 0 {
		return 0
	}
	natural := r.D6()
	if natural < b.wound {
		return 0
	}
	return resolveWound(r, b, natural, tu, ts)
}

// resolveWound goes on from a to-wound roll natural that wounded: armour,
// ward, and the wounds taken. Callers that roll to wound in their own loop
// call it only for the dice that wound, so a failed wound costs no call.
func resolveWound(r *dice.Rand, b *blows, natural int, tu *Unit, ts *UnitState) int {
	killing := b.killing && natural == 6
	if !killing && b.armour <= 6 && r.D6() >= b.armour {
		return 0
	}
	if b.ward <= 6 && r.D6() >= b.ward {
		return 0
	}
	switch {
	case killing && b.slays:
		return ts.slay(tu)
	case killing && b.oneWound:
		return ts.woundOne(tu, 1)
	}
	x := 1
	if b.multiple != nil {
		x = b.multiple.Roll(r)
	}
	return ts.woundOne(tu, x)
}

// wardAgainst is the ward save u takes against a close combat blow at
// strength s from attacker unit a: its own ward, with its Parry save when
// one may be taken. Parry (WAP, Parry; 8th edition, Parry Save) is a ward
// in close combat, not against blows from the flank or rear, not by
// mounted models (Unit.Mounted), and (WAP) not against blows at 3 or more
// Strength above the model's own. How it joins the other ward is rule.
func wardAgainst(u *Unit, s int, a *Unit, rule WardRule) int {
	if u.Parry >= NoSave || a.Flank || a.Rear || u.Mounted() || s >= u.S+3 {
		return u.Ward
	}
	return combineWards(rule, u.Ward, u.Parry)
}

// CombineWards is the ward save of a model with the wards ws (NoSave for
// none) under rule. WardsBest takes the best. WardsCombine (WAP, Ward Saves)
// combines them as armour combines (5+ and 6+ make 4+), but a combination
// is never better than MinWard; a single ward keeps its value (a listed 3+
// stays 3+).
func CombineWards(rule WardRule, ws []int) int {
	best := NoSave
	for _, w := range ws {
		best = combineWards(rule, best, w)
	}
	return best
}

func combineWards(rule WardRule, a, b int) int {
	best := min(a, b)
	if rule == WardsBest || a >= NoSave || b >= NoSave {
		return best
	}
	return min(best, max(MinWard, CombineArmour(a, b)))
}

// HitWounds is the exact chance that one hit of strength s (no Killing Blow
// or Multiple Wounds) wounds target u: to wound, then failing armour
// (modified by s) and the ward; with parry, the ward joined with u's Parry
// save by the default WardsCombine.
func HitWounds(s int, u *Unit, parry bool) float64 {
	w := u.Ward
	if parry {
		w = combineWards(WardsCombine, u.Ward, u.Parry)
	}
	return ToWound(s, u.T).P() * (1 - ArmourRoll(u.Armour, s).P()) * (1 - WardRoll(w).P())
}

// Strike bands: Always Strikes First, then Initiative order, then Always
// Strikes Last (WAP, special rules; docs/fantasy.md).
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
	// standsIn: the unit's champion takes the place of one model of this
	// profile (its first), so one fewer strikes (countAttacks).
	standsIn bool
	// rearChampion: the unit is fought in its rear and this profile is its
	// champion's or the one he stands in for, so it changes while the
	// unit has ranks behind its first (fight).
	rearChampion bool
	// capacity is how many attacks a supporting model of this profile
	// makes at most (supportCap).
	capacity int
	attacks  int // fixed at the start of the group's step, each round
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
// from the rank behind, when e fights u's front: supporting attacks are
// not made to the side or rear (WAP/close-combat/supporting-attacks).
func fighting(u *Unit, us *UnitState, e *Unit, es *UnitState, support bool, plan *roundPlan, side int) (front, behind int) {
	if us.Alive == 0 || es.Alive == 0 || us.Fled {
		return 0, 0
	}
	front = plan.contact(side, u, us.Alive, e, es.Alive)
	if support && plan.face[side] == FaceFront && u.Troop.FightsInRanks() && us.Alive > u.Width {
		behind = min(us.Alive-u.Width, front)
	}
	return front, behind
}

// countAttacks rolls how many attacks an attack profile makes this step:
// each model in contact makes its A (rolled per model for Random Attacks);
// each supporting model as many as it has up to capacity, the profile's
// supportCap (none for a profile with A 0; with a cap of one, one whatever
// its roll). A champion takes one front place: standsIn reports that this
// profile is the one the champion takes the place of, so one model of it
// fewer strikes. The champion's other profiles (his mount) strike in full.
func countAttacks(r *dice.Rand, u *Unit, a *Attacker, front, behind int, standsIn bool, capacity int) int {
	if front == 0 {
		return 0
	}
	models := front * a.PerBody
	support := behind * a.PerBody
	switch {
	case a.Champion:
		models, support = 1, 0
	case standsIn:
		models--
	}
	if a.A.IsConst() {
		per := a.A.Roll(r)
		if per == 0 {
			return 0 // no attacks, so no supporting attack either
		}
		return models*per + support*min(per, capacity)
	}
	n := 0
	for range models {
		n += a.A.Roll(r)
	}
	if capacity <= 1 {
		return n + support
	}
	for range support {
		n += min(a.A.Roll(r), capacity)
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

// grindExtra is what a Grind Attack adds to its D3 Impact Hits: 1, and
// Scythes' 1 more with Options.GrindScythes.
func grindExtra(u *Unit, opt *Options) int {
	if u.Scythes && opt.GrindScythes {
		return 2
	}
	return 1
}

// ranksDenied reports whether the unit on side gets no benefit from its
// ranks this round: it was charged by a Dread Maw and this is the first
// round (unit card, Dread Maw). It loses its rank bonus, its supporting attacks
// and Steadfast.
func ranksDenied(units [2]*Unit, states [2]*UnitState, side int, first bool) bool {
	return first && units[1-side].DreadMaw && states[1-side].Charged
}

// fight fights one round of the kind plan between units, as their states
// stand.
func (b *Battle) fight(r *dice.Rand, units [2]*Unit, states [2]*UnitState, plan *roundPlan, first bool) roundResult {
	var res roundResult
	opt := &b.Options
	impactHits(r, units, states, first, plan, opt, &res)

	groups := &plan.groups // their attacks are this round's, set below
	n := plan.n
	var support [2]bool
	for side := range 2 {
		support[side] = opt.SupportingAttacks && !plan.score[side].denied
	}
	for start := 0; start < n; {
		// roundPlan.stepEnd, written out: as a call, even inlined, it cost
		// a full-combat trial about 2% (bench/RESULTS.md).
		end := start + 1
		for end < n && groups[end].band == groups[start].band && groups[end].init == groups[start].init {
			end++
		}
		// Count every group's blows before any of them lands: blows struck
		// at the same Initiative are simultaneous.
		for i := start; i < end; i++ {
			g := &groups[i]
			u, us, e, es := units[g.side], states[g.side], units[1-g.side], states[1-g.side]
			front, behind := fighting(u, us, e, es, support[g.side], plan, g.side)
			if g.attacker < 0 {
				g.attacks = stompCount(r, front, e, es)
				continue
			}
			standsIn := g.standsIn
			if g.rearChampion && us.Alive > u.Width {
				// Fought in its rear, a unit of several ranks meets the
				// enemy with its back ranks; its champion stands in the
				// front rank (W9E, Position within a Unit), read as out of
				// contact.
				if u.Attackers[g.attacker].Champion {
					g.attacks = 0
					continue
				}
				standsIn = false
			}
			g.attacks = countAttacks(r, u, &u.Attackers[g.attacker], front, behind, standsIn, g.capacity)
		}
		for i := start; i < end; i++ {
			g := &groups[i]
			res.wounds[g.side] += strike(r, g, &plan.blows[i], units[1-g.side], states[1-g.side])
		}
		start = end
	}
	return res
}

// impactHits resolves the hits that open a round. Impact Hits come only on
// the turn of a successful charge, against the charged unit; a Grind
// Attack's D3+1 Impact Hits come in every round in which the machine did
// not charge. Each model rolls its own, and only the models in base contact
// with the enemy make them (unit card, Impact Hits: a model not in base contact
// inflicts none); a chariot in the second rank adds D3 to the one in front
// of it (chariotsBehind). Both sides' opening hits come at the very start
// of the round, one step, so they are simultaneous as blows at one
// Initiative step are: both are counted, from the models as the round
// starts, before either lands. plan holds each side's automatic hits on
// the other.
func impactHits(r *dice.Rand, units [2]*Unit, states [2]*UnitState, first bool, plan *roundPlan, opt *Options, res *roundResult) {
	var hits [2]int
	for side := range 2 {
		u, us := units[side], states[side]
		e, es := units[1-side], states[1-side]
		if us.Alive == 0 || us.Fled || es.Alive == 0 {
			continue
		}
		models := plan.contact(side, u, us.Alive, e, es.Alive)
		switch {
		case first && us.Charged && !u.Impact.IsZero():
			for range models {
				hits[side] += u.Impact.Roll(r)
			}
			for range chariotsBehind(u, plan.face[side], us.Alive, models) {
				hits[side] += r.D3()
			}
		case u.GrindAttack && !(first && us.Charged):
			extra := grindExtra(u, opt)
			for range models {
				hits[side] += r.D3() + extra // D3+1 (or +2), the D3 read from a D6
			}
		}
	}
	for side := range 2 {
		if hits[side] == 0 {
			continue
		}
		w := landHits(r, &plan.hits[side], hits[side], units[1-side], states[1-side])
		res.wounds[side] += w
		if side == 0 {
			res.impact += hits[side]
			res.impactWounds += w
		}
	}
}

// chariotsBehind is how many chariots of u, with alive models of which
// front touch the enemy, stand in its second rank behind those: each adds
// D3 to the Impact Hits of the chariot in front of it (W9E, troop types,
// Chariots). Other troop types add none.
func chariotsBehind(u *Unit, f Facing, alive, front int) int {
	if u.Troop != Chariot || f != FaceFront || alive <= u.Width {
		return 0
	}
	return min(alive-u.Width, u.Width, front)
}

// strikeOrder puts the round's strike groups in order: Always Strikes
// First, then Initiative order (a charger adds chargerI in the first round),
// then Always Strikes Last and Stomps, in Initiative order among themselves
// (a Stomp at its model's Initiative, the charger's bonus included). A Dread Maw gets Always Strikes
// First only for the turn of its charge, so from the second round it
// strikes in Initiative order. The re-rolls of Always Strikes First and
// Last compare Initiatives as they stand this round, the charger's bonus
// included on either side.
func strikeOrder(groups *[maxGroups]strikeGroup, units [2]*Unit, states [2]*UnitState, first bool, chargerI int) int {
	var bonus [2]int
	for side := range 2 {
		if first && states[side].Charged {
			bonus[side] = chargerI
		}
	}
	n := 0
	for side := range 2 {
		u, us, e := units[side], states[side], units[1-side]
		eI := e.I + bonus[1-side]
		for i := range u.Attackers {
			a := &u.Attackers[i]
			g := strikeGroup{side: side, attacker: i, band: bandNormal, init: a.I + bonus[side]}
			asf := a.ASF || (u.DreadMaw && first && us.Charged)
			switch {
			case asf && !a.ASL:
				g.band = bandFirst
				if g.init > eI {
					g.reroll = rerollFailed
				}
			case a.ASL && !asf:
				g.band = bandLast
				if g.init < eI {
					g.reroll = rerollSuccessful
				}
			}
			n = insertGroup(groups, n, g)
		}
		if u.Stomp && e.Troop.Stompable() {
			n = insertGroup(groups, n, strikeGroup{side: side, attacker: -1, band: bandLast, init: u.StompInitiative() + bonus[side]})
		}
	}
	return n
}

// stompCount rolls the Stomp hits of the front models in base contact
// with e (unit card, Stomp): D6 each, D3 against a lone infantry model or
// skirmishers.
func stompCount(r *dice.Rand, front int, e *Unit, es *UnitState) int {
	n := 0
	if e.Skirmishers || (e.Troop.infantry() && es.Alive == 1) {
		for range front {
			n += r.D3()
		}
		return n
	}
	for range front {
		n += r.D6()
	}
	return n
}

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

// strike resolves a group's blows on e and returns the wounds e took; b
// is the group's blows, with the score it needs to hit.
func strike(r *dice.Rand, g *strikeGroup, b *blows, e *Unit, es *UnitState) int {
	if es.Alive == 0 || g.attacks == 0 {
		return 0
	}
	if g.attacker < 0 { // Stomps: automatic hits at the model's S
		return landHits(r, b, g.attacks, e, es)
	}
	need := b.hit
	if b.plain() {
		// A bucket of to-hit dice, then the hits go on as a bucket.
		hits := r.Count(g.attacks, need)
		switch g.reroll {
		case rerollFailed:
			hits += r.Count(g.attacks-hits, need)
		case rerollSuccessful:
			hits = r.Count(hits, need)
		}
		return landHits(r, b, hits, e, es)
	}
	// Killing Blow or Multiple Wounds: blow by blow, since what a wound
	// does to a model of several wounds depends on the wounds before it.
	wounds := 0
	for range g.attacks {
		if es.Alive == 0 {
			break
		}
		hit := r.D6() >= need
		switch {
		case g.reroll == noReroll:
		case !hit && g.reroll == rerollFailed:
			hit = r.D6() >= need
		case hit && g.reroll == rerollSuccessful:
			hit = r.D6() >= need
		}
		if !hit {
			continue
		}
		// The wound roll, inline: most blows stop here.
		if natural := r.D6(); natural >= b.wound {
			wounds += resolveWound(r, b, natural, e, es)
		}
	}
	return wounds
}

// groupBlows readies the blows of group g of u on e: for an attack
// profile, the score to hit, its Strength against e's saves (with Parry
// where it may be taken), Killing Blow and Multiple Wounds; for Stomps,
// automatic hits at u's S.
func groupBlows(g *strikeGroup, u, e *Unit, opt *Options) blows {
	if g.attacker < 0 {
		return hitsOn(u.S, e)
	}
	a := &u.Attackers[g.attacker]
	b := newBlows(a.S, e, wardAgainst(e, a.S, u, opt.Wards))
	b.hit = MeleeToHit(a.WS, e.WS).Need // never beyond 6+: no second die
	if a.Killing {
		b.withKillingBlow(opt.KillingBlow, e)
	}
	if !a.Multiple.IsZero() {
		b.multiple = &a.Multiple
	}
	return b
}

// roundPlan is what the units' profiles and the options fix about one kind
// of round of combat (which sides charged this turn): the strike groups in
// order, the blows of each group, and each side's automatic hits on the
// other. A State works each kind out the first time it is fought.
type roundPlan struct {
	built  bool
	n      int
	groups [maxGroups]strikeGroup
	blows  [maxGroups]blows
	hits   [2]blows
	// score is what this kind of round fixes about each side's combat result.
	score [2]scoring
	// face[side] is the side of that unit the other fights (FacedBy);
	// aside: contacts are worked out each time, not read from contacts,
	// since a side other than the front is fought or a front is wider
	// than maxPlannedFront.
	face  [2]Facing
	aside bool
	// contacts[side][k] is how many of side's bodies touch the other's
	// front when k bodies stand in it and side has a full rank (touching),
	// for fronts up to maxPlannedFront; with fewer, as many as it has.
	contacts [2][maxPlannedFront + 1]int
}

// maxPlannedFront is the widest front whose contacts a plan keeps; a wider
// one, or a flank or rear, is worked out each time.
const maxPlannedFront = 32

// contact is Contact(u, p.face[side], alive, e, p.face[1-side], eAlive),
// from the plan where it can be.
func (p *roundPlan) contact(side int, u *Unit, alive int, e *Unit, eAlive int) int {
	// Front to front, the common case, from the plan (contacts[side][0] is
	// 0, for an enemy gone); anything else worked out.
	if p.aside {
		return p.contactAside(side, u, alive, e, eAlive)
	}
	return min(alive, p.contacts[side][min(e.Width, eAlive)])
}

// contactAside is contact's way for a flank, a rear or a wide front, kept
// out of line so that contact's common case stays small enough to inline.
//
//go:noinline
func (p *roundPlan) contactAside(side int, u *Unit, alive int, e *Unit, eAlive int) int {
	return Contact(u, p.face[side], alive, e, p.face[1-side], eAlive)
}

// plan returns s's plan for this kind of round against the unit the acting
// unit fights (State.opp), worked out on first use.
func (b *Battle) plan(s *State, units [2]*Unit, states [2]*UnitState, first bool) *roundPlan {
	return b.planIn(s.plansVs(s.opp), units, states, first)
}

// planIn returns the plan for this kind of round from plans, the kinds of
// round against one unit, worked out on first use.
func (b *Battle) planIn(plans *[4]roundPlan, units [2]*Unit, states [2]*UnitState, first bool) *roundPlan {
	k := 0
	if first && states[0].Charged {
		k |= 1
	}
	if first && states[1].Charged {
		k |= 2
	}
	p := &plans[k]
	if p.built {
		return p
	}
	for side := range 2 {
		p.face[side] = FacedBy(units[1-side])
	}
	p.aside = p.face != [2]Facing{} || units[0].Width > maxPlannedFront || units[1].Width > maxPlannedFront
	p.n = strikeOrder(&p.groups, units, states, first, b.Options.ChargerInitiative)
	for i := range p.n {
		g := &p.groups[i]
		p.blows[i] = groupBlows(g, units[g.side], units[1-g.side], &b.Options)
		// A champion takes the place of a model of the first profile.
		g.standsIn = g.attacker == 0 && hasChampion(units[g.side])
		if g.attacker >= 0 {
			g.capacity = supportCap(units[g.side], g.attacker, b.Options.MonstrousSupport)
			g.rearChampion = p.face[g.side] == FaceRear && (g.standsIn || units[g.side].Attackers[g.attacker].Champion)
		}
	}
	for side := range 2 {
		u, e := units[side], units[1-side]
		p.hits[side] = hitsOn(u.S, e)
		p.score[side] = b.scoring(units, states, side, first)
		for k := 1; k <= maxPlannedFront; k++ {
			p.contacts[side][k] = touching(u.Width, u.FrontMM, k, e.FrontMM)
		}
	}
	p.built = true
	return p
}

// fullRanks counts u's ranks that count as ranks: its full ranks, and its
// last rank when that holds a rank's worth, when ranks of its troop type
// need that many (TroopType.RankSize: five, three for the monstrous types).
func fullRanks(u *Unit, alive int) int {
	k := u.Troop.RankSize()
	if u.Width < k {
		return 0
	}
	ranks := alive / u.Width
	if alive%u.Width >= k {
		ranks++
	}
	return ranks
}

// ranksCount reports whether u's ranks can give it a rank bonus: it fights
// in ranks, and is not Skirmishers, unless skirmishersRanks
// (Options.SkirmishersRanks, open for WAP).
func ranksCount(u *Unit, skirmishersRanks bool) bool {
	return u.Troop.FightsInRanks() && (!u.Skirmishers || skirmishersRanks)
}

// rankBonus is +1 for each rank after the first that counts (fullRanks),
// at most +3, for a unit whose ranks count (ranksCount).
func rankBonus(u *Unit, alive int) int {
	return min(max(fullRanks(u, alive)-1, 0), 3)
}

// steadfast reports whether a losing unit tests on its unmodified
// Leadership (WAP, Steadfast): it has the higher Unit Strength, at least 10,
// a rank that counts (five models, three for the monstrous types), and
// fights in ranks; a Disrupted unit, Skirmishers,
// and a unit denied its ranks (charged by a Dread Maw, first round) are not.
// A Stubborn unit is always Steadfast, disrupted or not (unit card, Stubborn).
func steadfast(u *Unit, us *UnitState, enemyUS int, disrupted, noRanks bool) bool {
	if u.Stubborn {
		return true
	}
	if disrupted || noRanks || u.Skirmishers {
		return false
	}
	total := u.TotalUS(us.Alive)
	return u.Troop.FightsInRanks() && total > enemyUS && total >= 10 && min(us.Alive, u.Width) >= u.Troop.RankSize()
}
