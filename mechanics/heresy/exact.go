package heresy

import "hammersim/mechanics/dice"

// ShootingExchange is one Shooting Attack and what surrounds it: the
// Return Fire Reaction before it, the tests it forces on the target, and
// the target's own next Shooting Attack.
type ShootingExchange struct {
	// Firer and Target are the units as the attack begins, the target
	// Stupefied or not as it chose, Shrouded if it Evades.
	Firer, Target Unit
	// Weapons are the firer's; Back the target's.
	Weapons, Back []Weapon
	Options       Options
	// Situation is how the firer fires: distance, movement.
	Situation Situation
	// MoraleCheck: losing a quarter or more of its models forces a Morale
	// check on the target (when a Shooting Attack forces one is not in the
	// rules texts; a quarter is the usual trigger).
	MoraleCheck bool
	// Pinning: the attack forces a Pinning test on a target it wounded.
	Pinning bool
	// PinningSuffered: only a wound the target suffered, one no Damage
	// Mitigation roll ignored, forces the Pinning test; otherwise every
	// unsaved wound does (rulebook p.244 speaks of unsaved wounds, and
	// Damage Mitigation comes after the save). OPEN.
	PinningSuffered bool
	// BrokenSnapShots: a target that Fell Back or is Pinned still makes
	// its next Shooting Attack, with Snap Shots; otherwise it makes none.
	BrokenSnapShots bool
	// ReturnFire: the target makes the Return Fire Reaction (the caller
	// has checked that it may: Unit.CanReact).
	ReturnFire bool
	// Fear is the Leadership penalty the firer's Fear (X) gives the
	// target's Morale check and Pinning test (Unit.FearOf, within 12").
	Fear int
}

// PinningStage is the stage whose wounds force the Pinning test: those
// suffered with PinningSuffered, else the unsaved ones.
func (x *ShootingExchange) PinningStage() Stage {
	if x.PinningSuffered {
		return StageSuffered
	}
	return StageUnsaved
}

// ReturnFireSituation is how Return Fire is made: at the firer, counting
// as stationary, Templates firing Wall of Death (AoD errata; Goonhammer's
// shooting Reactions guide).
func (x *ShootingExchange) ReturnFireSituation() Situation {
	return Situation{Distance: x.Situation.Distance, Stationary: true, Reaction: true}
}

// NextSituation is how the target makes its own next Shooting Attack: at
// the same distance, not having moved, with Snap Shots when snap.
func (x *ShootingExchange) NextSituation(snap bool) Situation {
	return Situation{Distance: x.Situation.Distance, SnapShots: snap}
}

// ConcussionCounts reports whether a Concussive test the target fails
// affects it: a Stupefied unit ignores Concussive gained after it became
// Stupefied only with Options.StupefiedIgnoresLater.
func (x *ShootingExchange) ConcussionCounts() bool {
	return !(x.Target.IsStupefied() && x.Options.StupefiedIgnoresLater)
}

// ShootingExact is the exact value of every quantity of a shooting
// exchange: means of counts, and chances of outcomes.
type ShootingExact struct {
	Hits, Wounds, Unsaved, Mitigated, Casualties float64
	// Destroyed, Morale (failed and Fell Back), Pinned, Concussed (failed
	// the Concussive test), Stupefied: chances.
	Destroyed, Morale, Pinned, Concussed, Stupefied float64
	// ReturnFire is the mean models Return Fire removes from the firer;
	// Next the mean models the target's next attack removes, at the firer
	// as Return Fire and its own Gets Hot wounds left it; Hot the mean Gets
	// Hot wounds the firer suffers; ReturnFireHot and NextHot the mean Gets
	// Hot wounds the target suffers firing Return Fire and its next attack.
	ReturnFire, Next, Hot, ReturnFireHot, NextHot float64
	// Mitigated2, Next2, Hot2, ReturnFireHot2 and NextHot2 are the means
	// of the squares of those counts: with the means, their exact spread.
	Mitigated2, Next2, Hot2, ReturnFireHot2, NextHot2 float64
	// MaxCount bounds any count of hits, wounds or unsaved wounds.
	MaxCount int
	// OverBudget is set when the exact values would cost more than
	// MaxExactWork (ShootingExactWork): then only MaxCount is set.
	OverBudget bool
	// HitsDist, WoundsDist, UnsavedDist and CasualtiesDist are the exact
	// distributions behind Hits, Wounds, Unsaved and Casualties, mixed
	// over Return Fire's losses like the means.
	HitsDist, WoundsDist, UnsavedDist, CasualtiesDist dice.Dist
	// ReturnFireDist is the exact distribution behind ReturnFire.
	ReturnFireDist dice.Dist
}

// ExactShooting computes every quantity of x in closed form. Return
// Fire's effect is an exact joint distribution of the firer's state after
// it (models lost, wounds on the wounded model) and the Gets Hot wounds
// the target deals itself firing it (the two come from the same To Hit
// rolls); for each outcome the firer's attack, with the models left (all
// of them with Options.ReturnFireAfterCasualties), at the target with the
// models left, has exact counts and an exact casualty distribution, and
// the tests are summed over that distribution, since each depends on the
// attack only through the models it removed (and, for a Pinning test,
// whether any wound went unsaved, which removing a model implies). A
// target its own Gets Hot wounds destroyed is not shot at. The target's
// next attack is summed over the joint law of the models the attack left
// it, the firer's own Gets Hot wounds (from the same To Hit rolls again)
// and the tests, at the firer as Return Fire and those wounds left it
// (nextStates).
func ExactShooting(x *ShootingExchange) ShootingExact {
	return ExactShootingWithin(x, MaxExactWork)
}

// ExactShootingWithin is ExactShooting within budget steps rather than
// MaxExactWork: past it (ShootingExactWork) the result is OverBudget.
func ExactShootingWithin(x *ShootingExchange, budget float64) ShootingExact {
	ex, _ := exactShooting(x, budget)
	return ex
}

// exactShooting is ExactShootingWithin, also returning the steps it took
// (see ShootingExactWork).
func exactShooting(x *ShootingExchange, budget float64) (ShootingExact, float64) {
	var full Attack
	full.PrepareAt(&x.Firer, x.Weapons, &x.Target, x.Situation, x.Options)
	ex := ShootingExact{MaxCount: MaxCount(&full), ReturnFireDist: dice.Point(0)}
	if ShootingExactWork(x) > budget {
		ex.OverBudget = true
		return ex, 0
	}
	if x.Target.IsStupefied() {
		ex.Stupefied = 1
	}
	steps := 0.0
	// rf[g*nf + s]: Return Fire leaves the firer in state s (lost*W +
	// hurt) and the target suffers g Gets Hot wounds (hotCap or more in
	// the last row).
	models, wf := max(x.Firer.Models, 0), max(x.Firer.W, 1)
	nf := (models + 1) * wf
	rf := make([]float64, nf)
	if models > 0 {
		rf[min(max(x.Firer.Hurt, 0), wf-1)] = 1
	} else {
		rf[0] = 1
	}
	hotCap := 0
	if x.ReturnFire && len(x.Back) > 0 {
		var a Attack
		a.PrepareAt(&x.Target, x.Back, &x.Firer, x.ReturnFireSituation(), x.Options)
		var st []float64
		if a.GetsHot() {
			hotCap = hotCapOf(&a, &x.Target)
			st, _ = a.HotStates(&x.Firer, hotCap)
			ex.ReturnFireHot = a.ExpectedHot()
			ex.ReturnFireHot2 = hotSquare(&a)
		} else {
			st, _ = a.FinalStates(&x.Firer)
		}
		rf = append(rf[:0], st...)
		lost := make([]float64, models+1)
		for i, v := range rf {
			lost[i%nf/wf] += v
		}
		ex.ReturnFireDist = dice.Dist{P: lost}
		ex.ReturnFire = ex.ReturnFireDist.Mean()
		steps += a.steps
	}
	next := nextStates{x: x}
	var a Attack
	tg := x.Target
	for g := 0; g <= hotCap; g++ {
		if g > 0 {
			tg.TakeWound(false)
		}
		for cf := 0; cf <= models; cf++ {
			hurt := rf[g*nf+cf*wf : g*nf+(cf+1)*wf]
			w := 0.0
			for _, v := range hurt {
				w += v
			}
			if w == 0 {
				continue
			}
			if tg.Destroyed() {
				x.addUnshot(&ex, w)
				continue
			}
			f := x.Firer
			if !x.Options.ReturnFireAfterCasualties {
				f.Models -= cf
			}
			a.PrepareAt(&f, x.Weapons, &x.Target, x.Situation, x.Options)
			a.Retarget(tg.Models, x.Options)
			x.addAttack(&ex, &a, w, &tg)
			if len(x.Back) > 0 {
				next.add(&a, hurt, cf, &tg)
			}
			steps += a.steps
			a.steps = 0
		}
	}
	if len(x.Back) > 0 {
		ex.Next, ex.Next2, ex.NextHot, ex.NextHot2 = next.expected()
		steps += next.steps
	}
	return ex, steps
}

// nextStates gathers the law of what the target's own next Shooting
// Attack depends on: the models the firer's attack left it, whether it
// Fell Back or is Pinned (and so fires Snap Shots or none), and the
// firer's state as it stands then, after Return Fire and its own Gets Hot
// wounds. Given those, the next attack's dice are independent of what
// came before, so its exact expectations are summed over them.
type nextStates struct {
	x *ShootingExchange
	// d[k][left][s]: P(the target has left models, is broken (k = 1: Fell
	// Back or Pinned) or not (k = 0), and the firer is in state s, lost*W
	// + hurt).
	d     [2][][]float64
	joint []float64
	steps float64
}

// add adds the outcomes of the firer's attack a, prepared at tg (the
// target with the models it has when shot at), made after Return Fire
// left the firer with cf models lost and the wounded model's wounds
// distributed as hurt (unnormalised: their chance is Return Fire's). The
// attack's casualties and the firer's own Gets Hot wounds have one joint
// law (Attack.HotStates); each Gets Hot wound goes onto the firer as every
// wound does.
func (ns *nextStates) add(a *Attack, hurt []float64, cf int, tg *Unit) {
	x := ns.x
	models, wf := max(x.Firer.Models, 0), max(x.Firer.W, 1)
	dead := models * wf
	tm, wt := max(tg.Models, 0), max(tg.W, 1)
	hc := 0
	var none []float64 // P(no unsaved wound and g Gets Hot wounds)
	var joint []float64
	if a.GetsHot() {
		left := x.Firer
		left.Models, left.Hurt = models-cf, 0
		hc = hotCapOf(a, &left)
		if x.Pinning {
			none = a.noneHot(x.PinningStage(), hc)
		}
		joint, _ = a.HotStates(tg, hc)
	} else {
		if x.Pinning {
			none = []float64{a.Dist(x.PinningStage()).At(0)}
		}
		joint, _ = a.FinalStates(tg)
	}
	ns.joint = append(ns.joint[:0], joint...)
	joint = ns.joint
	nt := len(joint) / (hc + 1)
	if ns.d[0] == nil {
		for k := range ns.d {
			ns.d[k] = make([][]float64, x.Target.Models+1)
		}
	}
	for g := 0; g <= hc; g++ {
		for c := range tm {
			pc := 0.0
			for _, v := range joint[g*nt+c*wt : g*nt+(c+1)*wt] {
				pc += v
			}
			ns.steps += float64(wt)
			if pc == 0 {
				continue
			}
			// P(an unsaved wound | c casualties and g Gets Hot wounds):
			// certain when a model was removed.
			wounded := 1.0
			if c == 0 && none != nil {
				wounded = max(pc-none[g], 0) / pc
			}
			fell, pinned := x.breaks(tm-c, wounded)
			broken := 1 - (1-fell)*(1-pinned)
			left := tm - c
			for k, pk := range [2]float64{1 - broken, broken} {
				if pk == 0 {
					continue
				}
				if ns.d[k][left] == nil {
					ns.d[k][left] = make([]float64, (models+1)*wf)
				}
				dk := ns.d[k][left]
				for h, ph := range hurt {
					if ph != 0 {
						dk[min(cf*wf+h+g, dead)] += ph * pc * pk
					}
				}
				ns.steps += float64(len(hurt))
			}
		}
	}
	ns.steps += a.steps
	a.steps = 0
}

// expected returns the exact expected models the target's next attack
// removes from the firer and Gets Hot wounds it deals the target, each
// with its mean square. A firer
// with no models left is not shot at. A Blast or Template marker hits no
// more models than the firer has left, so where that changes the hits the
// firer's states are taken apart by its models left.
func (ns *nextStates) expected() (casualties, casualties2, hot, hot2 float64) {
	x := ns.x
	models, wf := max(x.Firer.Models, 0), max(x.Firer.W, 1)
	dead := models * wf
	var b Attack
	part := make([]float64, (models+1)*wf)
	for k, snap := range []bool{false, true} {
		if snap && !x.BrokenSnapShots {
			continue
		}
		for left, d := range ns.d[k] {
			if d == nil {
				continue
			}
			u := x.Target
			u.Models = left
			b.PrepareAt(&u, x.Back, &x.Firer, x.NextSituation(snap), x.Options)
			alive := 0.0
			for _, v := range d[:dead] {
				alive += v
			}
			hot += alive * b.ExpectedHot()
			hot2 += alive * hotSquare(&b)
			for lo := 0; lo < models; {
				// Firer states with lo to hi-1 models lost take the same
				// markers.
				b.Retarget(models-lo, x.Options)
				hi := lo + 1
				for ; hi < models && b.sameMarkers(models-hi, x.Options); hi++ {
				}
				clear(part)
				copy(part[lo*wf:hi*wf], d[lo*wf:hi*wf])
				m, m2 := b.casualtiesFrom(&x.Firer, part)
				casualties += m
				casualties2 += m2
				ns.steps += float64(len(part))
				lo = hi
			}
		}
	}
	ns.steps += b.steps
	return casualties, casualties2, hot, hot2
}

// hotSquare is the mean square of the Gets Hot wounds a's firer suffers.
func hotSquare(a *Attack) float64 {
	m, v := a.hotMoments()
	return v + m*m
}

// woundsLeft is the Wounds a unit has left to lose.
func woundsLeft(u *Unit) int {
	if u.Models <= 0 {
		return 0
	}
	return u.Models*max(u.W, 1) - min(max(u.Hurt, 0), max(u.W, 1)-1)
}

// MaxShots bounds the shots the models of u fire in one attack with any
// of weapons: every weapon's most shots, twice for Rapid Fire, for every
// model; the Gets Hot wounds it can suffer are no more.
func MaxShots(u *Unit, weapons []Weapon) int {
	per := 0
	for i := range weapons {
		per += 2 * max(weapons[i].shots().Max(), 0)
	}
	return max(u.Models, 0) * per
}

// MaxCount bounds any count of hits, wounds or unsaved wounds an attack
// can reach: shots times the hits a shot can score (Blast, Wall of Death),
// times Brutal's wounds per hit, with Deflagrate's hits on top.
func MaxCount(a *Attack) int {
	total := 0
	for _, v := range a.Volleys {
		c := &v.Chain
		perShot := 1
		switch {
		case c.WallOfDeath:
			perShot = 3
		case c.AutoHits > 0:
			perShot = c.AutoHits
		}
		b := max(c.Brutal, 1)
		hits := v.Models * v.rolls() * v.Weapon.shots().Max() * perShot
		if c.Deflagrate {
			hits += hits * b
		}
		total += hits * b
	}
	return total
}

// addAttack adds, with weight w, the exact quantities of the firer's
// attack a (prepared with the models that fire) at tg, the target with the
// models it has left when the attack is made, to ex.
func (x *ShootingExchange) addAttack(ex *ShootingExact, a *Attack, w float64, tg *Unit) {
	ex.Hits += w * a.Expected(StageHits)
	ex.Wounds += w * a.Expected(StageWounds)
	ex.HitsDist = mixDist(ex.HitsDist, a.Dist(StageHits), w)
	ex.WoundsDist = mixDist(ex.WoundsDist, a.Dist(StageWounds), w)
	ex.UnsavedDist = mixDist(ex.UnsavedDist, a.Dist(StageUnsaved), w)
	unsaved := a.Expected(StageUnsaved)
	ex.Unsaved += w * unsaved
	ex.Mitigated += w * (unsaved - a.Expected(StageSuffered))
	_, mit2 := a.mitigatedMoments()
	ex.Mitigated2 += w * mit2
	ex.Hot += w * a.ExpectedHot()
	ex.Hot2 += w * hotSquare(a)
	cas := a.Casualties(tg)
	ex.Casualties += w * cas.Mean()
	ex.CasualtiesDist = mixDist(ex.CasualtiesDist, cas, w)
	n := tg.Models
	ex.Destroyed += w * cas.At(n)
	if x.ConcussionCounts() {
		ex.Concussed += w * a.PConcussedAlive(tg) * (1 - PassProbability(x.Target.Ld, false))
	}
	noUnsaved := a.Dist(x.PinningStage()).At(0)
	for c := range n {
		pc := cas.At(c)
		if pc == 0 {
			continue
		}
		// P(an unsaved wound | c casualties): certain when a model was
		// removed; with none removed, every trial but those with no
		// unsaved wound at all.
		wounded := 1.0
		if c == 0 {
			wounded = max(pc-noUnsaved, 0) / pc
		}
		fell, pinned := x.breaks(n-c, wounded)
		ex.Morale += w * pc * fell
		ex.Pinned += w * pc * pinned
	}
}

// breaks returns the chances that the target, left with left models after
// the attack, fails its Morale check (Falling Back) and its Pinning test,
// given that the attack left an unsaved wound on it with chance wounded.
// The Morale check counts every model the target lost in the phase, its
// own Gets Hot wounds' too. The Pinning test comes as the attack ends, the
// Morale check at the end of the phase, so a Pinned unit still takes its
// Morale check: the two rolls are independent.
func (x *ShootingExchange) breaks(left int, wounded float64) (fell, pinned float64) {
	n := x.Target.Models
	if x.MoraleCheck && 4*(n-left) >= n {
		fell = 1 - x.Target.PassProbability(MoraleCheck, PhaseShooting, -x.Fear, x.Options)
	}
	if x.Pinning {
		pinned = wounded * (1 - x.Target.PassProbability(PinningTest, PhaseShooting, -x.Fear, x.Options))
	}
	return fell, pinned
}

// addUnshot adds, with weight w, a target its own Gets Hot wounds
// destroyed before the firer's attack: it is not shot at, so every count
// is 0.
func (x *ShootingExchange) addUnshot(ex *ShootingExact, w float64) {
	zero := dice.Point(0)
	ex.HitsDist = mixDist(ex.HitsDist, zero, w)
	ex.WoundsDist = mixDist(ex.WoundsDist, zero, w)
	ex.UnsavedDist = mixDist(ex.UnsavedDist, zero, w)
	ex.CasualtiesDist = mixDist(ex.CasualtiesDist, zero, w)
	ex.Destroyed += w
}

// mixDist returns acc plus d weighted by w, over counts from 0 (acc's
// zero value is the empty distribution).
func mixDist(acc, d dice.Dist, w float64) dice.Dist {
	acc.Min = 0
	for i, p := range d.P {
		v := d.Min + i
		if v < 0 {
			panic("heresy: a count distribution below zero")
		}
		for len(acc.P) <= v {
			acc.P = append(acc.P, 0)
		}
		acc.P[v] += w * p
	}
	return acc
}

// AssaultExchange is a charge and the round of close combat it starts, or
// a round fought without a charge, as Charge and Fight resolve them:
// Units[0] attacks, Units[1] defends.
type AssaultExchange struct {
	Units   [2]Unit
	Weapons [2]Weapon
	// Charged: the attacker charged; DifficultTerrain: through Difficult
	// Terrain; Disordered: a trigger other than Stupefied made its charge
	// Disordered (see ChargeDisordered).
	Charged, DifficultTerrain, Disordered bool
	// StupefyAfterOverwatch: the attacker becomes Stupefied, if it may,
	// once the Overwatch fired at it is resolved (Side.StupefyAfterOverwatch).
	StupefyAfterOverwatch bool
	// Distance is how far the charge must go, in inches; 0 when it is not
	// rolled (the combat is fought). Bonus is the Movement bonus to the
	// charge roll.
	Distance, Bonus int
	// OverwatchWeapons are the defender's weapons for the Overwatch
	// Reaction, fired when Options.Overwatch allows and the defender may
	// react.
	OverwatchWeapons []Weapon
	Options          Options
}

// Sides returns the two sides of the combat for units a and b (copies of
// Units, which Fight changes).
func (x *AssaultExchange) Sides(a, b *Unit) (Side, Side) {
	return Side{Unit: a, Weapon: x.Weapons[0], Charged: x.Charged, DifficultTerrain: x.DifficultTerrain, Disordered: x.Disordered,
			StupefyAfterOverwatch: x.StupefyAfterOverwatch},
		Side{Unit: b, Weapon: x.Weapons[1]}
}

// Overwatches reports whether the defender fires Overwatch at the charger:
// only at a charge that may be declared (CanDeclareCharge).
func (x *AssaultExchange) Overwatches() bool {
	return x.Charged && CanDeclareCharge(x.Distance, x.Options) && x.Options.Overwatch && len(x.OverwatchWeapons) > 0 &&
		x.Units[1].CanReact(Overwatch)
}

// OverwatchSituation is how Overwatch is fired: Snap Shots at a charging
// unit, Templates firing Wall of Death, at the charge's distance for range
// and half range. Without one, the charger is taken to stand as far as a
// charge may come from (Options.MaxCharge), so that Overwatch at a charge
// always counts what is sure to be in range; with no such cap either,
// every weapon is in range and beyond half range, as a shooting question
// without a distance has it.
func (x *AssaultExchange) OverwatchSituation() Situation {
	d := x.Distance
	if d == 0 {
		d = max(x.Options.MaxCharge, 0)
	}
	return Situation{Distance: d, SnapShots: true, Reaction: true, Charging: true}
}

// AssaultExact is the exact value of every quantity of an assault for one
// unit: means of the blows it suffered, chances of its outcomes, and for
// the attacker, the charge's.
type AssaultExact struct {
	Hits, Wounds, Unsaved, Mitigated, Casualties float64
	// Hits2, Wounds2, Unsaved2, Mitigated2 and Casualties2 are the means
	// of the squares of those counts: with the means, their exact spread.
	Hits2, Wounds2, Unsaved2, Mitigated2, Casualties2 float64
	// Won, Morale (failed and Fell Back), Swept, Destroyed: chances.
	Won, Morale, Swept, Destroyed float64
	// Reached: the charge reached its target; Disordered: it reached and
	// was Disordered; Overwatch: mean models Overwatch removed (attacker
	// only); OverwatchHot: mean Gets Hot wounds the defender suffered
	// firing it (defender only).
	Reached, Disordered, Overwatch, OverwatchHot float64
	// OverwatchHot2 is the mean square of OverwatchHot's count.
	OverwatchHot2 float64
	// OverwatchDist is the exact distribution behind Overwatch.
	OverwatchDist dice.Dist
	// MaxBlows is the most blows it can suffer.
	MaxBlows int
	// MaxHot bounds the Gets Hot wounds it can suffer firing Overwatch
	// (defender only; MaxShots).
	MaxHot int
	// OverBudget is set when the exact values would cost more than
	// MaxExactWork (AssaultExactWork): then only MaxBlows is set.
	OverBudget bool
}

// ExactAssault computes every quantity of x in closed form. Overwatch's
// effect is an exact joint distribution of the charger's state (models
// lost, wounds on the wounded model; Stupefied after it with
// StupefyAfterOverwatch) and the Gets Hot wounds the defender deals itself
// firing it; for each outcome the charge reaches with its exact chance
// (ChargeSuccess, independent of the outcome) and the combat is then
// enumerated exactly (see exactCombat). A charge that fails fights no
// combat, and neither does one whose target its own Overwatch destroyed.
func ExactAssault(x *AssaultExchange) [2]AssaultExact {
	return ExactAssaultWithin(x, MaxExactWork)
}

// ExactAssaultWithin is ExactAssault within budget steps rather than
// MaxExactWork: past it (AssaultExactWork) the result is OverBudget.
func ExactAssaultWithin(x *AssaultExchange, budget float64) [2]AssaultExact {
	ex, _ := exactAssault(x, budget)
	return ex
}

// exactAssault is ExactAssaultWithin, also returning the steps it took
// (see AssaultExactWork).
func exactAssault(x *AssaultExchange, budget float64) ([2]AssaultExact, float64) {
	maxHot := 0
	if x.Overwatches() {
		maxHot = MaxShots(&x.Units[1], x.OverwatchWeapons)
	}
	if AssaultExactWork(x) > budget {
		e := newCombatEnum(x)
		var ex [2]AssaultExact
		for i := range 2 {
			ex[1-i] = AssaultExact{MaxBlows: e.blows(i, x.Units[i].Models), OverBudget: true}
		}
		ex[1].MaxHot = maxHot
		return ex, 0
	}
	steps := 0.0
	att := x.Units[0]
	w := max(att.W, 1)
	states := []float64{1}
	if att.Models > 0 {
		states = make([]float64, (att.Models+1)*w)
		states[min(max(att.Hurt, 0), w-1)] = 1
	}
	n := len(states)
	var ex [2]AssaultExact
	ex[0].OverwatchDist = dice.Point(0)
	overwatch := x.Overwatches()
	fired := false // a weapon was fired in Overwatch: a Shooting Attack against the charger
	if overwatch {
		var a Attack
		a.PrepareAt(&x.Units[1], x.OverwatchWeapons, &att, x.OverwatchSituation(), x.Options)
		var st []float64
		if a.GetsHot() {
			st, n = a.HotStates(&att, hotCapOf(&a, &x.Units[1]))
			ex[1].OverwatchHot = a.ExpectedHot()
			ex[1].OverwatchHot2 = hotSquare(&a)
		} else {
			st, _ = a.FinalStates(&att)
			n = len(st)
		}
		states = append(states[:0], st...)
		ex[0].OverwatchDist = a.Casualties(&att)
		ex[0].Overwatch = ex[0].OverwatchDist.Mean()
		fired = len(a.Volleys) > 0
		steps += a.steps
	}
	reach := 1.0
	if x.Distance > 0 {
		reach = ChargeSuccess(x.Distance, x.Bonus, x.Options)
	}
	def := x.Units[1] // the defender after the Gets Hot wounds of the slab
	for i, ps := range states {
		if i > 0 && i%n == 0 {
			def.TakeWound(false)
		}
		if ps == 0 {
			continue
		}
		s := i % n
		u := att
		u.Models, u.Hurt = att.Models-s/w, s%w
		if u.Destroyed() || def.Destroyed() {
			if u.Destroyed() {
				ex[0].Destroyed += ps
			}
			if def.Destroyed() {
				ex[1].Destroyed += ps
			}
			continue
		}
		if fired && x.StupefyAfterOverwatch {
			u.Stupefy(true, x.Options)
		}
		p := ps * reach
		ex[0].Reached += p
		sub := *x
		sub.Units[0], sub.Units[1] = u, def
		if a, _ := sub.Sides(&sub.Units[0], &sub.Units[1]); a.Disorderly() {
			ex[0].Disordered += p
		}
		c, cs := exactCombat(&sub)
		steps += cs
		for i := range 2 {
			ex[i].add(&c[i], p)
		}
	}
	if !x.Charged {
		ex[0].Reached, ex[0].Disordered = 0, 0
	}
	e := newCombatEnum(x)
	for i := range 2 {
		ex[1-i].MaxBlows = e.blows(i, x.Units[i].Models)
	}
	ex[1].MaxHot = maxHot
	return ex, steps
}

// outcomeSteps is what one joint outcome of a combat costs, in steps:
// settling the scores, the winner, the loser's Morale check and the
// Sweeping Advance takes about as long as that many loop steps of a
// programme.
const outcomeSteps = 100

// add adds c, weighted by p, to e.
func (e *AssaultExact) add(c *AssaultExact, p float64) {
	e.Hits += p * c.Hits
	e.Wounds += p * c.Wounds
	e.Unsaved += p * c.Unsaved
	e.Mitigated += p * c.Mitigated
	e.Casualties += p * c.Casualties
	e.Hits2 += p * c.Hits2
	e.Wounds2 += p * c.Wounds2
	e.Unsaved2 += p * c.Unsaved2
	e.Mitigated2 += p * c.Mitigated2
	e.Casualties2 += p * c.Casualties2
	e.Won += p * c.Won
	e.Morale += p * c.Morale
	e.Swept += p * c.Swept
	e.Destroyed += p * c.Destroyed
}

// exactCombat enumerates one round of close combat between x's units as
// they stand, following the steps of Fight. Each side's strikes have an
// exact joint distribution of the wounds the combat result counts
// (Options.CombatScore) and the state the enemy ends in
// (Chain.StrikeJoint). The side
// striking second strikes with the models left, so its distribution is
// taken for each state the first leaves it in; sides striking together are
// independent. Each joint outcome then settles the scores, the winner and,
// with the loser's exact pass chance and SweepProbability, the rest. It
// also returns the steps it took (see AssaultExactWork).
func exactCombat(x *AssaultExchange) ([2]AssaultExact, float64) {
	e := newCombatEnum(x)
	u := x.Units
	if e.init[0] == e.init[1] {
		j0 := e.joint(0, u[0].Models)
		j1 := e.joint(1, u[1].Models)
		for _, o0 := range j0 {
			for _, o1 := range j1 {
				e.outcome(o0.p*o1.p, [2]int{u[0].Models, u[1].Models}, [2]strike{o0, o1})
			}
		}
		return e.ex, e.steps
	}
	first := 0
	if e.init[1] > e.init[0] {
		first = 1
	}
	second := 1 - first
	for _, of := range e.joint(first, u[first].Models) {
		left := e.end(second, of.s)
		for _, os := range e.joint(second, left.Models) {
			var models [2]int
			var k [2]strike
			models[first], models[second] = u[first].Models, left.Models
			k[first], k[second] = of, os
			e.outcome(of.p*os.p, models, k)
		}
	}
	return e.ex, e.steps
}

// strike is one outcome of a side's strikes: probability p, k wounds
// scored (as Options.CombatScore counts them) against the enemy, which
// ends in state s.
type strike struct {
	p    float64
	k, s int
}

// combatEnum enumerates the joint outcomes of a combat, adding each into
// ex.
type combatEnum struct {
	x             *AssaultExchange
	sides         [2]Side
	units         [2]Unit
	init, attacks [2]int
	chains        [2]Chain
	joints        map[[2]int][]strike
	expect        map[[2]int]strikeMeans
	ex            [2]AssaultExact
	// steps counts the steps taken (see AssaultExactWork); strikes holds
	// strikeWork's estimates.
	steps   float64
	strikes map[[3]int][2]float64
}

func newCombatEnum(x *AssaultExchange) *combatEnum {
	o := x.Options
	e := &combatEnum{x: x, units: x.Units, joints: map[[2]int][]strike{}, expect: map[[2]int]strikeMeans{}}
	e.sides[0], e.sides[1] = x.Sides(&e.units[0], &e.units[1])
	for i := range e.sides {
		e.sides[i].Ready()
	}
	for i := range e.sides {
		s := &e.sides[i]
		e.init[i] = s.Initiative(&e.sides[1-i], o)
		e.attacks[i] = s.Attacks(o)
		e.chains[i] = MeleeChain(s.Unit, &s.Weapon, e.sides[1-i].Unit, o)
	}
	return e
}

// blows is the blows side i strikes with models models.
func (e *combatEnum) blows(i, models int) int { return max(models, 0) * e.attacks[i] }

// end is side i's unit, as the combat readied it, in state s (lost*W +
// hurt).
func (e *combatEnum) end(i, s int) Unit {
	u := e.units[i]
	w := max(u.W, 1)
	u.Models, u.Hurt = u.Models-s/w, s%w
	return u
}

// joint is the non-zero outcomes of side i's strikes with models models,
// computed once for each.
func (e *combatEnum) joint(i, models int) []strike {
	key := [2]int{i, models}
	if j, ok := e.joints[key]; ok {
		return j
	}
	foe := e.x.Units[1-i]
	p, n, steps := e.chains[i].strikeJoint(max(models, 0), e.attacks[i], &foe, e.x.Options.CombatScore)
	e.steps += steps + float64(len(p))
	var out []strike
	for idx, v := range p {
		if v > 0 {
			out = append(out, strike{p: v, k: idx / n, s: idx % n})
		}
	}
	e.joints[key] = out
	return out
}

// strikeMeans are the mean hits, wounds, unsaved wounds and wounds
// suffered of a side's strikes, and the means of the squares of the first
// three and of the wounds mitigated (mitigated2).
type strikeMeans struct {
	mean, square [4]float64
	mitigated2   float64
}

// expected is strikeMeans of side i's strikes with models models.
func (e *combatEnum) expected(i, models int) strikeMeans {
	key := [2]int{i, models}
	if v, ok := e.expect[key]; ok {
		return v
	}
	a := e.chains[i].volleyOf(dice.Const(e.attacks[i]), max(models, 0))
	var v strikeMeans
	for j, st := range []Stage{StageHits, StageWounds, StageUnsaved, StageSuffered} {
		v.mean[j] = a.Expected(st)
		if st != StageSuffered {
			v.square[j] = meanSquare(a.Dist(st))
		}
	}
	_, v.mitigated2 = a.mitigatedMoments()
	e.steps += a.steps
	e.expect[key] = v
	return v
}

// meanSquare is the mean of the square of a value of law d.
func meanSquare(d dice.Dist) float64 {
	m := 0.0
	for k, p := range d.P {
		v := float64(d.Min + k)
		m += p * v * v
	}
	return m
}

// outcome adds the joint outcome where side i struck with models[i]
// models, with strikes k[i], with probability p.
func (e *combatEnum) outcome(p float64, models [2]int, k [2]strike) {
	e.steps += outcomeSteps
	o := e.x.Options
	ex := &e.ex
	var end [2]Unit
	for i := range 2 {
		m := e.expected(i, models[i])
		ex[1-i].Hits += p * m.mean[0]
		ex[1-i].Wounds += p * m.mean[1]
		ex[1-i].Unsaved += p * m.mean[2]
		ex[1-i].Mitigated += p * (m.mean[2] - m.mean[3])
		ex[1-i].Hits2 += p * m.square[0]
		ex[1-i].Wounds2 += p * m.square[1]
		ex[1-i].Unsaved2 += p * m.square[2]
		ex[1-i].Mitigated2 += p * m.mitigated2
		end[1-i] = e.end(1-i, k[i].s)
		lost := float64(e.x.Units[1-i].Models - end[1-i].Models)
		ex[1-i].Casualties += p * lost
		ex[1-i].Casualties2 += p * lost * lost
	}
	var score [2]int
	for i := range 2 {
		score[i] = k[i].k
		if end[i].Outnumbers(&end[1-i]) {
			score[i] += o.OutnumberBonus
		}
	}
	winner := -1
	switch dead0, dead1 := end[0].Destroyed(), end[1].Destroyed(); {
	case dead0 && dead1:
	case dead0:
		winner = 1
	case dead1:
		winner = 0
	case score[0] > score[1]:
		winner = 0
	case score[1] > score[0]:
		winner = 1
	}
	for i := range 2 {
		if end[i].Destroyed() {
			ex[i].Destroyed += p
		}
	}
	if winner < 0 {
		return
	}
	ex[winner].Won += p
	win, lose := &end[winner], &end[1-winner]
	if lose.Destroyed() {
		return
	}
	pass := lose.PassProbability(MoraleCheck, PhaseAssault, -o.LoserLdPenalty*(score[winner]-score[1-winner])-lose.FearOf(win), o)
	if ChoosesToFail(lose, &e.sides[1-winner].Weapon, win, o) {
		pass = 0
	}
	fail := p * (1 - pass)
	ex[1-winner].Morale += fail
	lose.FallBack()
	swept := fail * SweepProbability(win, lose, o)
	ex[1-winner].Swept += swept
	ex[1-winner].Destroyed += swept
}
