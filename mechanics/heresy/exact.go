package heresy

import "hammersim/mechanics/dice"

// ShootingExchange is one Shooting Attack and what follows it: the tests
// it forces on the target, and the target's answering fire.
type ShootingExchange struct {
	// Firer and Target are the units as the attack begins, the target
	// Stupefied or not as it chose.
	Firer, Target Unit
	// Weapons are the firer's; Back the target's, for its answering fire.
	Weapons, Back []Weapon
	Options       Options
	// MoraleCheck: losing a quarter or more of its models forces a Morale
	// check on the target (when a Shooting Attack forces one is not in the
	// rules texts; a quarter is the usual trigger).
	MoraleCheck bool
	// Pinning: the attack forces a Pinning test on a target it wounded.
	Pinning bool
	// BrokenSnapShots: a target that Fell Back or is Pinned still shoots
	// back, with Snap Shots; otherwise it does not.
	BrokenSnapShots bool
}

// SnapTarget is the target shooting back after it Fell Back or was
// Pinned: Snap Shots only, so BS 1.
func (x *ShootingExchange) SnapTarget() Unit {
	u := x.Target
	u.BS = min(u.BS, SnapShotBS)
	return u
}

// ShootingExact is the exact value of every quantity of a shooting
// exchange: means of the attack's counts, and chances of its outcomes.
type ShootingExact struct {
	Hits, Wounds, Unsaved, Mitigated, Casualties float64
	// Destroyed, Morale (failed and Fell Back), Pinned, Stupefied: chances.
	Destroyed, Morale, Pinned, Stupefied float64
	// Back is the mean casualties of the answering fire.
	Back float64
	// MaxShots is the most shots the attack can make.
	MaxShots int
}

// ExactShooting computes every quantity of x in closed form. The attack's
// counts and casualties come from the exact distributions of Attack; the
// tests and the answering fire are summed over the casualty distribution,
// since each depends on the attack only through the models it removed
// (and, for a Pinning test, whether any wound went unsaved, which removing
// a model implies).
func ExactShooting(x *ShootingExchange) ShootingExact {
	var a Attack
	a.Prepare(&x.Firer, x.Weapons, &x.Target, x.Options)
	var ex ShootingExact
	ex.Hits = a.Expected(StageHits)
	ex.Wounds = a.Expected(StageWounds)
	ex.Unsaved = a.Expected(StageUnsaved)
	ex.Mitigated = ex.Unsaved - a.Expected(StageSuffered)
	cas := a.Casualties(&x.Target)
	ex.Casualties = cas.Mean()
	n := x.Target.Models
	ex.Destroyed = cas.At(n)
	if x.Target.IsStupefied() {
		ex.Stupefied = 1
	}
	for _, v := range a.Volleys {
		ex.MaxShots += v.Models * v.Weapon.shots().Max()
	}
	noUnsaved := a.Dist(StageUnsaved).At(0)
	for c := range n {
		if pc := cas.At(c); pc > 0 {
			x.addAftermath(&ex, c, pc, noUnsaved)
		}
	}
	return ex
}

// addAftermath adds to ex the tests and answering fire after an attack
// that removed c models, which it does with probability pc.
func (x *ShootingExchange) addAftermath(ex *ShootingExact, c int, pc, noUnsaved float64) {
	n := x.Target.Models
	fell := 0.0
	if x.MoraleCheck && 4*c >= n {
		fell = 1 - x.Target.PassProbability(MoraleCheck, PhaseShooting, 0)
	}
	// P(an unsaved wound | c casualties): certain when a model was removed;
	// with none removed, every trial but those with no unsaved wound at all.
	wounded := 1.0
	if c == 0 {
		wounded = max(pc-noUnsaved, 0) / pc
	}
	pinned := 0.0
	if x.Pinning {
		pinned = (1 - fell) * wounded * (1 - x.Target.PassProbability(PinningTest, PhaseShooting, 0))
	}
	ex.Morale += pc * fell
	ex.Pinned += pc * pinned
	if len(x.Back) == 0 {
		return
	}
	e := (1 - fell - pinned) * x.expectBack(x.Target, n-c)
	if x.BrokenSnapShots && fell+pinned > 0 {
		e += (fell + pinned) * x.expectBack(x.SnapTarget(), n-c)
	}
	ex.Back += pc * e
}

// expectBack is the mean casualties of u's answering fire with models
// models left.
func (x *ShootingExchange) expectBack(u Unit, models int) float64 {
	var att Attack
	u.Models = models
	att.Prepare(&u, x.Back, &x.Firer, x.Options)
	return att.ExpectedCasualties(&x.Firer)
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
