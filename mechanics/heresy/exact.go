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
	// wounds the firer suffers.
	ReturnFire, Next, Hot float64
	// MaxCount bounds any count of hits, wounds or unsaved wounds.
	MaxCount int
}

// ExactShooting computes every quantity of x in closed form. Return
// Fire's losses on the firer are an exact distribution; for each outcome
// the firer's attack with the models left (all of them with
// Options.ReturnFireAfterCasualties) has exact counts and an exact
// casualty distribution, and the tests and the target's next attack are
// summed over that distribution, since each depends on the attack only
// through the models it removed (and, for a Pinning test, whether any
// wound went unsaved, which removing a model implies).
func ExactShooting(x *ShootingExchange) ShootingExact {
	var ex ShootingExact
	if x.Target.IsStupefied() {
		ex.Stupefied = 1
	}
	rf := dice.Point(0)
	if x.ReturnFire && len(x.Back) > 0 {
		var a Attack
		a.PrepareAt(&x.Target, x.Back, &x.Firer, x.ReturnFireSituation(), x.Options)
		rf = a.Casualties(&x.Firer)
		ex.ReturnFire = rf.Mean()
	}
	next := x.nextAttack()
	var a Attack
	for cf := rf.Min; cf <= rf.Max(); cf++ {
		w := rf.At(cf)
		if w == 0 {
			continue
		}
		f := x.Firer
		if !x.Options.ReturnFireAfterCasualties {
			f.Models -= cf
		}
		a.PrepareAt(&f, x.Weapons, &x.Target, x.Situation, x.Options)
		if cf == 0 {
			ex.MaxCount = MaxCount(&a)
		}
		x.addAttack(&ex, &a, w, next)
	}
	return ex
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
// attack a (prepared with the models that fire) to ex.
func (x *ShootingExchange) addAttack(ex *ShootingExact, a *Attack, w float64, next [2][]float64) {
	ex.Hits += w * a.Expected(StageHits)
	ex.Wounds += w * a.Expected(StageWounds)
	unsaved := a.Expected(StageUnsaved)
	ex.Unsaved += w * unsaved
	ex.Mitigated += w * (unsaved - a.Expected(StageSuffered))
	ex.Hot += w * a.ExpectedHot()
	cas := a.Casualties(&x.Target)
	ex.Casualties += w * cas.Mean()
	n := x.Target.Models
	ex.Destroyed += w * cas.At(n)
	if x.ConcussionCounts() {
		ex.Concussed += w * a.PConcussedAlive(&x.Target) * (1 - PassProbability(x.Target.Ld))
	}
	noUnsaved := a.Dist(StageUnsaved).At(0)
	for c := range n {
		if pc := cas.At(c); pc > 0 {
			x.addAftermath(ex, c, w*pc, w*noUnsaved, next)
		}
	}
}

// addAftermath adds to ex the tests and the next attack after an attack
// that removed c models, which it does with probability pc.
func (x *ShootingExchange) addAftermath(ex *ShootingExact, c int, pc, noUnsaved float64, next [2][]float64) {
	n := x.Target.Models
	fell := 0.0
	if x.MoraleCheck && 4*c >= n {
		fell = 1 - x.Target.PassProbability(MoraleCheck, PhaseShooting, -x.Fear)
	}
	// P(an unsaved wound | c casualties): certain when a model was removed;
	// with none removed, every trial but those with no unsaved wound at all.
	wounded := 1.0
	if c == 0 {
		wounded = max(pc-noUnsaved, 0) / pc
	}
	pinned := 0.0
	if x.Pinning {
		pinned = (1 - fell) * wounded * (1 - x.Target.PassProbability(PinningTest, PhaseShooting, -x.Fear))
	}
	ex.Morale += pc * fell
	ex.Pinned += pc * pinned
	if len(x.Back) == 0 {
		return
	}
	e := (1 - fell - pinned) * next[0][n-c]
	if x.BrokenSnapShots {
		e += (fell + pinned) * next[1][n-c]
	}
	ex.Next += pc * e
}

// AssaultExchange is one round of close combat and its aftermath, as Fight
// resolves it: Units[0] attacks, Units[1] defends.
type AssaultExchange struct {
	Units   [2]Unit
	Weapons [2]Weapon
	// Charged: the attacker charged; DifficultTerrain: through Difficult
	// Terrain.
	Charged, DifficultTerrain bool
	Options                   Options
}

// Sides returns the two sides of the combat for units a and b (copies of
// Units, which Fight changes).
func (x *AssaultExchange) Sides(a, b *Unit) (Side, Side) {
	return Side{Unit: a, Weapon: x.Weapons[0], Charged: x.Charged, DifficultTerrain: x.DifficultTerrain},
		Side{Unit: b, Weapon: x.Weapons[1]}
}

// AssaultExact is the exact value of every quantity of an assault for one
// unit: means of the blows it suffered, chances of its outcomes.
type AssaultExact struct {
	Hits, Wounds, Unsaved, Mitigated, Casualties float64
	// Won, Morale (failed and Fell Back), Swept, Destroyed: chances.
	Won, Morale, Swept, Destroyed float64
	// MaxBlows is the most blows it can suffer.
	MaxBlows int
}

// ExactAssault computes every quantity of x in closed form, following the
// steps of Fight. A side's blows are a fixed number (models times
// Attacks), so the wounds it inflicts, k, have the exact distribution
// Chain.Dist(StageSuffered, k blows), and the casualties are a function of
// k. The side striking second strikes with the models left, so its
// distribution is taken for each outcome of the first; sides striking
// together are independent. Each joint outcome (k0, k1) then settles the
// scores, the winner and, with the loser's exact pass chance and
// SweepProbability, the rest.
func ExactAssault(x *AssaultExchange) [2]AssaultExact {
	e := newAssaultEnum(x)
	u := x.Units
	if e.init[0] == e.init[1] {
		n0, n1 := e.blows(0, u[0].Models), e.blows(1, u[1].Models)
		d0, d1 := e.inflicted(0, n0), e.inflicted(1, n1)
		for k0 := d0.Min; k0 <= d0.Max(); k0++ {
			for k1 := d1.Min; k1 <= d1.Max(); k1++ {
				if p := d0.At(k0) * d1.At(k1); p > 0 {
					e.outcome(p, [2]int{n0, n1}, [2]int{k0, k1})
				}
			}
		}
		return e.ex
	}
	first := 0
	if e.init[1] > e.init[0] {
		first = 1
	}
	second := 1 - first
	nf := e.blows(first, u[first].Models)
	df := e.inflicted(first, nf)
	for kf := df.Min; kf <= df.Max(); kf++ {
		pf := df.At(kf)
		if pf == 0 {
			continue
		}
		left := u[second]
		applyWounds(&left, kf, e.chains[first].Slays)
		ns := e.blows(second, left.Models)
		ds := e.inflicted(second, ns)
		for ks := ds.Min; ks <= ds.Max(); ks++ {
			if p := pf * ds.At(ks); p > 0 {
				var nb, k [2]int
				nb[first], nb[second] = nf, ns
				k[first], k[second] = kf, ks
				e.outcome(p, nb, k)
			}
		}
	}
	return e.ex
}

// assaultEnum enumerates the joint outcomes of an assault, adding each
// into ex.
type assaultEnum struct {
	x             *AssaultExchange
	init, attacks [2]int
	chains        [2]Chain
	dists         map[[2]int]dice.Dist
	ex            [2]AssaultExact
}

func newAssaultEnum(x *AssaultExchange) *assaultEnum {
	o := x.Options
	u := x.Units
	a, b := x.Sides(&u[0], &u[1])
	sides := [2]*Side{&a, &b}
	e := &assaultEnum{x: x, dists: map[[2]int]dice.Dist{}}
	for i, s := range sides {
		e.init[i] = s.Unit.I
		if s.Charged && s.DifficultTerrain && o.TerrainChargeInitiative > 0 && !sides[1-i].Unit.IsStupefied() {
			e.init[i] = min(e.init[i], o.TerrainChargeInitiative)
		}
		e.attacks[i] = s.Unit.A
		if s.Charged && !s.Unit.ChargeDisordered() {
			e.attacks[i] += o.ChargeBonusAttacks
		}
		e.attacks[i] = max(e.attacks[i], 0)
		e.chains[i] = MeleeChain(s.Unit, &s.Weapon, sides[1-i].Unit, o)
	}
	for i := range 2 {
		e.ex[1-i].MaxBlows = e.blows(i, u[i].Models)
	}
	return e
}

// blows is the blows side i strikes with models models.
func (e *assaultEnum) blows(i, models int) int { return max(models, 0) * e.attacks[i] }

// inflicted is the distribution of the wounds side i inflicts with blows
// blows, computed once for each.
func (e *assaultEnum) inflicted(i, blows int) dice.Dist {
	key := [2]int{i, blows}
	if d, ok := e.dists[key]; ok {
		return d
	}
	d := e.chains[i].Dist(StageSuffered, dice.Const(blows))
	e.dists[key] = d
	return d
}

// outcome adds the joint outcome where side i struck blows[i] blows and
// inflicted k[i] wounds, with probability p.
func (e *assaultEnum) outcome(p float64, blows, k [2]int) {
	o := e.x.Options
	ex := &e.ex
	var end [2]Unit
	for i := range 2 {
		c := e.chains[i]
		ex[1-i].Hits += p * float64(blows[i]) * c.P(StageHits)
		ex[1-i].Wounds += p * float64(blows[i]) * c.P(StageWounds)
		ex[1-i].Unsaved += p * float64(blows[i]) * c.P(StageUnsaved)
		ex[1-i].Mitigated += p * float64(blows[i]) * (c.P(StageUnsaved) - c.P(StageSuffered))
		end[1-i] = e.x.Units[1-i]
		ex[1-i].Casualties += p * float64(applyWounds(&end[1-i], k[i], c.Slays))
	}
	var score [2]int
	for i := range 2 {
		score[i] = k[i]
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
	fail := p * (1 - lose.PassProbability(MoraleCheck, PhaseAssault, -(score[winner]-score[1-winner])))
	ex[1-winner].Morale += fail
	lose.FallBack()
	swept := fail * SweepProbability(win, lose)
	ex[1-winner].Swept += swept
	ex[1-winner].Destroyed += swept
}

// applyWounds applies k wounds suffered to u, as Chain.Roll does, and
// returns the models removed.
func applyWounds(u *Unit, k int, slays bool) int {
	lost := 0
	for range k {
		if u.Destroyed() {
			break
		}
		if u.TakeWound(slays) {
			lost++
		}
	}
	return lost
}
