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
	// Next the mean of the target's next attack; Hot the mean Gets Hot
	// wounds the firer suffers; ReturnFireHot the mean Gets Hot wounds the
	// target suffers firing Return Fire.
	ReturnFire, Next, Hot, ReturnFireHot float64
	// MaxCount bounds any count of hits, wounds or unsaved wounds.
	MaxCount int
	// OverBudget is set when the exact values would cost more than
	// MaxExactWork (ShootingExactWork): then only MaxCount is set.
	OverBudget bool
	// HitsDist, WoundsDist, UnsavedDist and CasualtiesDist are the exact
	// distributions behind Hits, Wounds, Unsaved and Casualties, mixed
	// over Return Fire's losses like the means.
	HitsDist, WoundsDist, UnsavedDist, CasualtiesDist dice.Dist
}

// ExactShooting computes every quantity of x in closed form. Return
// Fire's effect is an exact joint distribution of the firer's models it
// removes and the Gets Hot wounds the target deals itself firing it (the
// two come from the same To Hit rolls); for each outcome the firer's
// attack, with the models left (all of them with
// Options.ReturnFireAfterCasualties), at the target with the models left,
// has exact counts and an exact casualty distribution, and the tests and
// the target's next attack are summed over that distribution, since each
// depends on the attack only through the models it removed (and, for a
// Pinning test, whether any wound went unsaved, which removing a model
// implies). A target its own Gets Hot wounds destroyed is not shot at.
func ExactShooting(x *ShootingExchange) ShootingExact {
	return ExactShootingWithin(x, MaxExactWork)
}

// ExactShootingWithin is ExactShooting within budget steps rather than
// MaxExactWork: past it (ShootingExactWork) the result is OverBudget.
func ExactShootingWithin(x *ShootingExchange, budget float64) ShootingExact {
	var full Attack
	full.PrepareAt(&x.Firer, x.Weapons, &x.Target, x.Situation, x.Options)
	ex := ShootingExact{MaxCount: MaxCount(&full)}
	if ShootingExactWork(x) > budget {
		ex.OverBudget = true
		return ex
	}
	if x.Target.IsStupefied() {
		ex.Stupefied = 1
	}
	// rf[g*(models+1) + cf]: Return Fire removes cf of the firer's models
	// and the target suffers g Gets Hot wounds (hotCap or more in the last
	// row).
	models := max(x.Firer.Models, 0)
	rf := make([]float64, models+1)
	rf[0] = 1
	hotCap := 0
	if x.ReturnFire && len(x.Back) > 0 {
		var a Attack
		a.PrepareAt(&x.Target, x.Back, &x.Firer, x.ReturnFireSituation(), x.Options)
		var st []float64
		var n int
		if a.GetsHot() {
			hotCap = hotCapOf(&a, &x.Target)
			st, n = a.HotStates(&x.Firer, hotCap)
			ex.ReturnFireHot = a.ExpectedHot()
		} else {
			st, _ = a.FinalStates(&x.Firer)
			n = len(st)
		}
		w := max(x.Firer.W, 1)
		rf = make([]float64, (hotCap+1)*(models+1))
		lost := dice.Dist{P: make([]float64, models+1)}
		for i, v := range st {
			rf[i/n*(models+1)+i%n/w] += v
			lost.P[i%n/w] += v
		}
		ex.ReturnFire = lost.Mean()
	}
	next := x.nextAttack()
	var a Attack
	tg := x.Target
	for g := 0; g <= hotCap; g++ {
		if g > 0 {
			tg.TakeWound(false)
		}
		for cf := 0; cf <= models; cf++ {
			w := rf[g*(models+1)+cf]
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
			x.addAttack(&ex, &a, w, next, &tg)
		}
	}
	return ex
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

// MaxExactWork bounds the work of one point's exact values, in the steps
// ShootingExactWork and AssaultExactWork count: about a quarter of a
// second on one core. The convolutions behind them grow with the square of
// the hits or blows and, in an assault, with the states of both units, so
// a hundred models firing forty shots each would take seconds per point.
// A point past the budget gets no exact values; its estimates stand alone.
const MaxExactWork = 1.5e8

// MaxScenarioExactWork bounds the exact work of all a scenario's points
// together, about a second on one core (every built-in needs under a
// thousandth of it): points are worked out in the
// scenario's order while what is left covers them, and a point past what
// is left gets no exact values, as one past MaxExactWork does. A scenario
// is read before it runs, where no interruption reaches, and a sweep of
// many points each within MaxExactWork would otherwise make its reading
// take minutes.
const MaxScenarioExactWork = 4 * MaxExactWork

// ShootingExactWork estimates the steps ExactShooting takes: ten for each
// pair of counts an attack's distributions convolve (the square of its
// MaxCount), once for each number of models Return Fire can leave the
// firer and, when Return Fire Gets Hot, for each number of Wounds it can
// cost the target (whose joint law with the firer's losses costs as many
// of Return Fire's programmes), and the target's attacks back for each
// number of its models left. An attack with Deflagrate counts sixteen
// times: its casualties follow every count of unsaved wounds with the
// Deflagrate hits they score, which measured twelve to fourteen times the
// work of a plain attack's.
func ShootingExactWork(x *ShootingExchange) float64 {
	var a Attack
	a.PrepareAt(&x.Firer, x.Weapons, &x.Target, x.Situation, x.Options)
	outcomes, back := 1.0, 0.0
	if len(x.Back) > 0 {
		var b Attack
		b.PrepareAt(&x.Target, x.Back, &x.Firer, x.ReturnFireSituation(), x.Options)
		back = attackWork(&b) * float64(2*max(x.Target.Models, 0)+1)
		if x.ReturnFire {
			outcomes = float64(max(x.Firer.Models, 0) + 1)
			if b.GetsHot() {
				hot := float64(hotCapOf(&b, &x.Target) + 1)
				outcomes *= hot
				back += attackWork(&b) * hot
			}
		}
	}
	return attackWork(&a)*outcomes + back
}

// attackWork is ShootingExactWork's steps for one attack.
func attackWork(a *Attack) float64 {
	m := float64(MaxCount(a) + 1)
	w := 10 * m * m
	for _, v := range a.Volleys {
		if v.Chain.Deflagrate {
			return 16 * w
		}
	}
	return w
}

// AssaultExactWork estimates the steps ExactAssault takes: the square of
// the blows both sides can strike (Brutal's wounds counted), times the
// states the two units can end in (models lost and wounds on the next),
// once for each state Overwatch can leave the charger in; when the
// Overwatch Gets Hot, that is summed over each number of Wounds it can
// cost the defender, with the defender's models left.
func AssaultExactWork(x *AssaultExchange) float64 {
	e := newCombatEnum(x)
	hotCap := 0
	chargerStates := 1.0
	if x.Overwatches() {
		chargerStates = float64((max(x.Units[0].Models, 0) + 1) * max(x.Units[0].W, 1))
		var a Attack
		a.PrepareAt(&x.Units[1], x.OverwatchWeapons, &x.Units[0], x.OverwatchSituation(), x.Options)
		if a.GetsHot() {
			hotCap = hotCapOf(&a, &x.Units[1])
		}
	}
	work := 0.0
	def := x.Units[1]
	for g := 0; g <= hotCap; g++ {
		if g > 0 {
			def.TakeWound(false)
		}
		blows, states := 1.0, 2.0
		for i, u := range [2]*Unit{&x.Units[0], &def} {
			blows += float64(e.blows(i, u.Models) * max(x.Weapons[i].Brutal, 1))
			states += float64(max(u.Models, 0) * max(u.W, 1))
		}
		work += blows * blows * states
	}
	return work * chargerStates
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

// nextAttack returns the exact expected casualties of the target's own
// next Shooting Attack on the firer (as it stood before this attack) for
// each number of target models left: [0] as the target stands, [1] with
// Snap Shots after Falling Back or being Pinned.
func (x *ShootingExchange) nextAttack() [2][]float64 {
	var out [2][]float64
	if len(x.Back) == 0 {
		return out
	}
	var a Attack
	for k, snap := range []bool{false, true} {
		out[k] = make([]float64, x.Target.Models+1)
		for left := 1; left <= x.Target.Models; left++ {
			u := x.Target
			u.Models = left
			a.PrepareAt(&u, x.Back, &x.Firer, x.NextSituation(snap), x.Options)
			out[k][left] = a.ExpectedCasualties(&x.Firer)
		}
	}
	return out
}

// addAttack adds, with weight w, the exact quantities of the firer's
// attack a (prepared with the models that fire) at tg, the target with the
// models it has left when the attack is made, to ex.
func (x *ShootingExchange) addAttack(ex *ShootingExact, a *Attack, w float64, next [2][]float64, tg *Unit) {
	ex.Hits += w * a.Expected(StageHits)
	ex.Wounds += w * a.Expected(StageWounds)
	ex.HitsDist = mixDist(ex.HitsDist, a.Dist(StageHits), w)
	ex.WoundsDist = mixDist(ex.WoundsDist, a.Dist(StageWounds), w)
	ex.UnsavedDist = mixDist(ex.UnsavedDist, a.Dist(StageUnsaved), w)
	unsaved := a.Expected(StageUnsaved)
	ex.Unsaved += w * unsaved
	ex.Mitigated += w * (unsaved - a.Expected(StageSuffered))
	ex.Hot += w * a.ExpectedHot()
	cas := a.Casualties(tg)
	ex.Casualties += w * cas.Mean()
	ex.CasualtiesDist = mixDist(ex.CasualtiesDist, cas, w)
	n := tg.Models
	ex.Destroyed += w * cas.At(n)
	if x.ConcussionCounts() {
		ex.Concussed += w * a.PConcussedAlive(tg) * (1 - PassProbability(x.Target.Ld, false))
	}
	noUnsaved := a.Dist(StageUnsaved).At(0)
	for c := range n {
		if pc := cas.At(c); pc > 0 {
			x.addAftermath(ex, c, w*pc, w*noUnsaved, next, tg)
		}
	}
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

// addAftermath adds to ex the tests and the next attack after an attack
// that removed c models from tg (the target as the attack found it), which
// it does with probability pc. The Morale check counts every model the
// target lost in the phase, its own Gets Hot wounds' too.
func (x *ShootingExchange) addAftermath(ex *ShootingExact, c int, pc, noUnsaved float64, next [2][]float64, tg *Unit) {
	n := x.Target.Models
	left := tg.Models - c
	fell := 0.0
	if x.MoraleCheck && 4*(n-left) >= n {
		fell = 1 - x.Target.PassProbability(MoraleCheck, PhaseShooting, -x.Fear, x.Options)
	}
	// P(an unsaved wound | c casualties): certain when a model was removed;
	// with none removed, every trial but those with no unsaved wound at all.
	wounded := 1.0
	if c == 0 {
		wounded = max(pc-noUnsaved, 0) / pc
	}
	// The Pinning test comes as the attack ends, the Morale check at the
	// end of the phase, so a Pinned unit still takes its Morale check: the
	// two rolls are independent given c.
	pinned := 0.0
	if x.Pinning {
		pinned = wounded * (1 - x.Target.PassProbability(PinningTest, PhaseShooting, -x.Fear, x.Options))
	}
	ex.Morale += pc * fell
	ex.Pinned += pc * pinned
	if len(x.Back) == 0 {
		return
	}
	broken := 1 - (1-fell)*(1-pinned)
	e := (1 - broken) * next[0][left]
	if x.BrokenSnapShots {
		e += broken * next[1][left]
	}
	ex.Next += pc * e
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
	// Won, Morale (failed and Fell Back), Swept, Destroyed: chances.
	Won, Morale, Swept, Destroyed float64
	// Reached: the charge reached its target; Disordered: it reached and
	// was Disordered; Overwatch: mean models Overwatch removed (attacker
	// only); OverwatchHot: mean Gets Hot wounds the defender suffered
	// firing it (defender only).
	Reached, Disordered, Overwatch, OverwatchHot float64
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
		return ex
	}
	att := x.Units[0]
	w := max(att.W, 1)
	states := []float64{1}
	if att.Models > 0 {
		states = make([]float64, (att.Models+1)*w)
		states[min(max(att.Hurt, 0), w-1)] = 1
	}
	n := len(states)
	var ex [2]AssaultExact
	overwatch := x.Overwatches()
	fired := false // a weapon was fired in Overwatch: a Shooting Attack against the charger
	if overwatch {
		var a Attack
		a.PrepareAt(&x.Units[1], x.OverwatchWeapons, &att, x.OverwatchSituation(), x.Options)
		var st []float64
		if a.GetsHot() {
			st, n = a.HotStates(&att, hotCapOf(&a, &x.Units[1]))
			ex[1].OverwatchHot = a.ExpectedHot()
		} else {
			st, _ = a.FinalStates(&att)
			n = len(st)
		}
		states = append(states[:0], st...)
		ex[0].Overwatch = a.Casualties(&att).Mean()
		fired = len(a.Volleys) > 0
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
		c := exactCombat(&sub)
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
	return ex
}

// add adds c, weighted by p, to e.
func (e *AssaultExact) add(c *AssaultExact, p float64) {
	e.Hits += p * c.Hits
	e.Wounds += p * c.Wounds
	e.Unsaved += p * c.Unsaved
	e.Mitigated += p * c.Mitigated
	e.Casualties += p * c.Casualties
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
// with the loser's exact pass chance and SweepProbability, the rest.
func exactCombat(x *AssaultExchange) [2]AssaultExact {
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
		return e.ex
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
	return e.ex
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
	expect        map[[2]int][4]float64
	ex            [2]AssaultExact
}

func newCombatEnum(x *AssaultExchange) *combatEnum {
	o := x.Options
	e := &combatEnum{x: x, units: x.Units, joints: map[[2]int][]strike{}, expect: map[[2]int][4]float64{}}
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
	p, n := e.chains[i].StrikeJoint(max(models, 0), e.attacks[i], &foe, e.x.Options.CombatScore)
	var out []strike
	for idx, v := range p {
		if v > 0 {
			out = append(out, strike{p: v, k: idx / n, s: idx % n})
		}
	}
	e.joints[key] = out
	return out
}

// expected is the mean hits, wounds, unsaved wounds and wounds suffered
// of side i's strikes with models models.
func (e *combatEnum) expected(i, models int) [4]float64 {
	key := [2]int{i, models}
	if v, ok := e.expect[key]; ok {
		return v
	}
	a := e.chains[i].volleyOf(dice.Const(e.attacks[i]), max(models, 0))
	var v [4]float64
	for j, st := range []Stage{StageHits, StageWounds, StageUnsaved, StageSuffered} {
		v[j] = a.Expected(st)
	}
	e.expect[key] = v
	return v
}

// outcome adds the joint outcome where side i struck with models[i]
// models, with strikes k[i], with probability p.
func (e *combatEnum) outcome(p float64, models [2]int, k [2]strike) {
	o := e.x.Options
	ex := &e.ex
	var end [2]Unit
	for i := range 2 {
		m := e.expected(i, models[i])
		ex[1-i].Hits += p * m[0]
		ex[1-i].Wounds += p * m[1]
		ex[1-i].Unsaved += p * m[2]
		ex[1-i].Mitigated += p * (m[2] - m[3])
		end[1-i] = e.end(1-i, k[i].s)
		ex[1-i].Casualties += p * float64(e.x.Units[1-i].Models-end[1-i].Models)
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
