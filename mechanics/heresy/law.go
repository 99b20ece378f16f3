package heresy

import (
	"math"

	"hammersim/mechanics/dice"
)

// The exact side of a Chain: what one shot and one hit can lead to, as
// probabilities, so that every count and casualty distribution is computed
// without sampling (see Attack for the programme that uses them).

// hitOutcome is one way a hit can end: the counts it adds to a Tally and
// the damage one model takes.
type hitOutcome struct {
	p                         float64
	wounds, unsaved, suffered int
	// dmg is the wounds one model loses; slays removes it whatever dmg is.
	dmg   int
	slays bool
}

// outcomePart selects some of the ways a hit can end.
type outcomePart uint8

const (
	allOutcomes outcomePart = iota
	// murderousOutcomes: those from a wound roll of Murderous Strike's
	// score, saved and applied before the others.
	murderousOutcomes
	// otherOutcomes: every other, failed wound rolls included.
	otherOutcomes
)

// eachOutcome calls f with every way one hit can end, before any
// Deflagrate hit it scores, with its probability.
func (c *Chain) eachOutcome(f func(hitOutcome)) { c.eachOutcomeOf(allOutcomes, f) }

// eachOutcomeOf is eachOutcome for the outcomes of part only.
func (c *Chain) eachOutcomeOf(part outcomePart, f func(hitOutcome)) {
	fail := 0
	for d := 1; d <= 6; d++ {
		if !c.wounds(d) {
			fail++
		}
	}
	miss := 0.0
	for d := 1; d <= 6; d++ {
		// The die a wound roll ends on: with a re-roll of failures, a
		// failing first roll is replaced by the second.
		pd := 1.0 / 6
		if c.RerollWounds {
			pd = float64(fail) / 36
			if c.wounds(d) {
				pd += 1.0 / 6
			}
		}
		if !c.wounds(d) {
			miss += pd
			continue
		}
		murderous := c.Murderous > 0 && d >= c.Murderous
		if (part == murderousOutcomes && !murderous) || (part == otherOutcomes && murderous) {
			continue
		}
		save, mit, slays := c.Save, c.Mitigate, c.Slays
		if (c.Rending > 0 && d >= c.Rending) || (c.Breaching > 0 && d >= c.Breaching) {
			save = c.SaveAP2
		}
		if murderous {
			mit, slays = c.MitigateID, c.SlaysMurderous
		}
		c.eachWound(pd, save, mit, slays, f)
	}
	if miss > 0 && part != murderousOutcomes {
		f(hitOutcome{p: miss})
	}
}

// eachWound calls f with the ways a successful wound roll of probability
// pd ends: Brutal's wounds, saved one by one on save, mitigated one by one
// on mit, and Destroyer's D3 per wound suffered.
func (c *Chain) eachWound(pd float64, save, mit int, slays bool, f func(hitOutcome)) {
	b := max(c.Brutal, 1)
	pUnsaved := 1 - pAtLeast(save)
	pSuffer := 1 - pAtLeast(mit)
	for u := 0; u <= b; u++ {
		pu := pd * binomialP(b, u, pUnsaved)
		for k := 0; k <= u; k++ {
			pk := pu * binomialP(u, k, pSuffer)
			if pk == 0 {
				continue
			}
			o := hitOutcome{p: pk, wounds: b, unsaved: u, suffered: k, dmg: k, slays: slays && k > 0}
			if !c.Destroyer || k == 0 || o.slays {
				f(o)
				continue
			}
			var sum [3*maxBrutal + 1]float64 // k D3s, summed
			d3Sum(k, sum[:])
			for v := k; v <= 3*k; v++ {
				o.p, o.dmg = pk*sum[v], v
				f(o)
			}
		}
	}
}

// maxBrutal bounds Brutal (X), as the catalogue does.
const maxBrutal = 5

// d3Sum writes the distribution of the sum of k D3s into out, indexed by
// the sum.
func d3Sum(k int, out []float64) {
	clear(out)
	out[0] = 1
	for n := range k {
		for v := 3 * (n + 1); v >= 0; v-- {
			p := 0.0
			for f := 1; f <= 3; f++ {
				if v-f >= 0 {
					p += out[v-f] / 3
				}
			}
			out[v] = p
		}
	}
}

// binomialP is P(k successes in n trials of probability q), for the small n
// of one hit's wounds.
func binomialP(n, k int, q float64) float64 {
	if k < 0 || k > n {
		return 0
	}
	p := 1.0
	for i := range k {
		p = p * float64(n-i) / float64(i+1)
	}
	for range k {
		p *= q
	}
	for range n - k {
		p *= 1 - q
	}
	return p
}

// binomialPMF is binomialP for any n: through logarithms where the
// binomial coefficient could overflow.
func binomialPMF(n, k int, q float64) float64 {
	switch {
	case k < 0 || k > n:
		return 0
	case n <= 500:
		return binomialP(n, k, q)
	case q == 0 || q == 1:
		if (q == 0 && k == 0) || (q == 1 && k == n) {
			return 1
		}
		return 0
	}
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	return math.Exp(lg(n) - lg(k) - lg(n-k) + float64(k)*math.Log(q) + float64(n-k)*math.Log1p(-q))
}

// deflagrateSteps are P(wound), P(unsaved) and P(suffered) for one
// Deflagrate hit.
func (c *Chain) deflagrateSteps() (w, u, s float64) {
	h := &c.Defl
	w = pAtLeast(h.ToWound)
	u = w * (1 - pAtLeast(h.Save))
	return w, u, u * (1 - pAtLeast(h.Mitigate))
}

// perHit is the exact expected count at stage s that one hit leads to,
// Deflagrate's hits included (StageHits counts the hit itself).
func (c *Chain) perHit(s Stage) float64 {
	var w, u, k float64
	c.eachOutcome(func(o hitOutcome) {
		w += o.p * float64(o.wounds)
		u += o.p * float64(o.unsaved)
		k += o.p * float64(o.suffered)
	})
	dh, dw, du, dk := 0.0, 0.0, 0.0, 0.0
	if c.Deflagrate {
		dh = u
		dw, du, dk = c.deflagrateSteps()
		dw, du, dk = dw*u, du*u, dk*u
	}
	switch s {
	case StageHits:
		return 1 + dh
	case StageWounds:
		return w + dw
	case StageUnsaved:
		return u + du
	case StageSuffered:
		return k + dk
	}
	return 1
}

// mitigatedPerHit is the mean and the mean square of the wounds one hit
// leads to that Damage Mitigation ignores, its Deflagrate hits' included:
// each of its u unsaved wounds makes a Deflagrate hit whose wound is
// ignored with chance d, apart from the others, so that given the hit's
// own x ignored wounds the count is x + Binomial(u, d), of mean square
// (x + u d)^2 + u d (1 - d).
func (c *Chain) mitigatedPerHit() (mean, square float64) {
	d := 0.0
	if c.Deflagrate {
		_, du, dk := c.deflagrateSteps()
		d = du - dk
	}
	c.eachOutcome(func(o hitOutcome) {
		x, u := float64(o.unsaved-o.suffered), float64(o.unsaved)
		m := x + u*d
		mean += o.p * m
		square += o.p * (m*m + u*d*(1-d))
	})
	return mean, square
}

// choiceScore is what one shot of the chain is worth to Attack.Select
// against target, by o.WeaponChoice.
func (c *Chain) choiceScore(target *Unit, o Options) float64 {
	if o.WeaponChoice == ChooseByUnsavedWounds {
		return c.P(StageUnsaved)
	}
	return c.ModelsPerShot(target.W)
}

// ModelsPerShot is the exact expected models' worth of damage one shot
// does to models of wounds Wounds, ignoring Master-crafted (see P) and the
// wounds already on the wounded model: each wound suffered, after saves
// and Damage Mitigation, counts as the share of a model it removes,
// min(damage, wounds)/wounds, and a whole model when it slays (Instant
// Death), Destroyer's D3 and Brutal's wounds included, and Deflagrate's
// hits likewise. Unlike the casualty distribution it is a sum over shots,
// so the worth of several weapons adds up.
func (c *Chain) ModelsPerShot(wounds int) float64 {
	w := max(wounds, 1)
	share := func(dmg int, slays bool) float64 {
		if slays {
			return 1
		}
		return float64(min(dmg, w)) / float64(w)
	}
	e, u := 0.0, 0.0
	c.eachOutcome(func(o hitOutcome) {
		e += o.p * share(o.dmg, o.slays)
		u += o.p * float64(o.unsaved)
	})
	if c.Deflagrate {
		_, _, dk := c.deflagrateSteps()
		e += u * dk * share(1, c.Defl.Slays)
	}
	return c.meanShotHits() * e
}

// shotHits writes into buf the distribution of the hits one shot scores,
// ignoring Master-crafted (a re-roll per bearer, not per shot): index i is
// P(i hits). It returns buf, grown as needed.
func (c *Chain) shotHits(buf []float64) []float64 {
	keep := 1 - c.pLost() // a 1 on the shot's D6 loses it
	switch {
	case c.WallOfDeath:
		buf = grow(buf, 4)
		buf[0] = 1 - keep
		buf[1], buf[2], buf[3] = keep/3, keep/3, keep/3
	case c.AutoHits > 0:
		buf = grow(buf, c.AutoHits+1)
		buf[0] = 1 - keep
		buf[c.AutoHits] += keep
	default:
		p := c.Hit.P()
		if c.Hit.Need >= Impossible {
			p = 0
		}
		buf = grow(buf, 2)
		buf[0], buf[1] = 1-p, p
	}
	return buf
}

// meanShotHits is the exact expected hits of one shot, ignoring
// Master-crafted.
func (c *Chain) meanShotHits() float64 {
	keep := 1 - c.pLost()
	switch {
	case c.WallOfDeath:
		return 2 * keep
	case c.AutoHits > 0:
		return float64(c.AutoHits) * keep
	case c.Hit.Need >= Impossible:
		return 0
	}
	return c.Hit.P()
}

// Step is the exact expected count at stage s per unit at the stage before
// it: P(hit), then P(wound | hit), P(unsaved | wound), P(suffered |
// unsaved) when every shot makes one hit and every hit one wound at most;
// 1 for StageShots. Master-crafted is ignored (see P).
func (c *Chain) Step(s Stage) float64 {
	if s == StageShots {
		return 1
	}
	prev := c.P(s - 1)
	if prev == 0 {
		return 0
	}
	return c.P(s) / prev
}

// P is the exact expected count at stage s that one shot leads to (a
// probability when a shot scores one hit and a hit one wound at most):
// the expected hits of a shot times what each hit leads to. It ignores
// Master-crafted, a re-roll per bearer rather than per shot; Attack's
// distributions include it.
func (c *Chain) P(s Stage) float64 {
	if s == StageShots {
		return 1
	}
	return c.meanShotHits() * c.perHit(s)
}

// PHot is the exact expected number of Gets Hot wounds the firer suffers
// per shot, ignoring Master-crafted: a To Hit roll ending on 1 (a D6 per
// shot for weapons that roll no To Hit), then the firer's save and Damage
// Mitigation roll.
func (c *Chain) PHot() float64 {
	if !c.GetsHot {
		return 0
	}
	one := c.pLost()
	if c.AutoHits == 0 && !c.WallOfDeath {
		if c.Hit.Need >= Impossible {
			return 0 // no shot is rolled
		}
		one = c.Hit.POne()
	}
	return one * c.hotThrough()
}

// pLost is the chance that a shot of a weapon that rolls no To Hit is lost
// to Gets Hot: its D6 before firing ends on a 1, after the re-roll of a 1
// when the firer has one (HotReroll).
func (c *Chain) pLost() float64 {
	switch {
	case !c.GetsHot:
		return 0
	case c.HotReroll:
		return 1.0 / 36
	}
	return 1.0 / 6
}

// hotThrough is P(a Gets Hot wound is suffered | a 1 was rolled).
func (c *Chain) hotThrough() float64 {
	return (1 - pAtLeast(c.HotSave)) * (1 - pAtLeast(c.HotMitigate))
}

// Dist is the exact distribution of the count at stage s for shots fired
// by one bearer, the number of shots rolled on shots (dice.Const(n) for a
// fixed number).
func (c *Chain) Dist(s Stage, shots dice.Expr) dice.Dist {
	return c.volleyOf(shots, 1).Dist(s)
}

// Casualties is the exact distribution of models removed from target by
// shots fired by one bearer, the number rolled on shots.
func (c *Chain) Casualties(shots dice.Expr, target *Unit) dice.Dist {
	a := c.volleyOf(shots, 1)
	return a.Casualties(target)
}

// BearersCasualties is Casualties for bearers models making n shots or
// blows each (close combat: the models striking, and their Attacks).
func (c *Chain) BearersCasualties(bearers, n int, target *Unit) dice.Dist {
	a := c.volleyOf(dice.Const(n), bearers)
	return a.Casualties(target)
}

// volleyOf returns an Attack of one volley with this chain.
func (c *Chain) volleyOf(shots dice.Expr, bearers int) *Attack {
	a := &Attack{}
	a.Volleys = append(a.Volleys, Volley{Weapon: Weapon{Shots: shots}, Models: bearers, Rolls: 1, Chain: *c})
	return a
}

// strikeJoint is the exact joint distribution of what bearers models
// striking blows blows each with chain c do to target: P(k and the target
// ends in state s) at index k*n + s, where s = lost*W + hurt (models lost,
// wounds on the wounded model), n = (models+1)*W, and k is the combat
// result's count as score says: the Wounds the target's models lost
// (ScoreWoundsLost) or the wounds suffered (ScoreUnsavedWounds). The
// casualties come from s. It allocates; Deflagrate's hits are not counted
// (no close-combat weapon has it). It also returns the steps it took (see
// Attack.steps).
func (c *Chain) strikeJoint(bearers, blows int, target *Unit, score CombatScore) (p []float64, n int, steps float64) {
	a := c.volleyOf(dice.Const(blows), bearers)
	a.countSuffered = true
	a.countLost = score == ScoreWoundsLost
	models, w := max(target.Models, 0), max(target.W, 1)
	n = (models + 1) * w
	state := make([]float64, n)
	if models > 0 {
		state[min(max(target.Hurt, 0), w-1)] = 1
	} else {
		state[0] = 1
	}
	a.applyVolley(&a.Volleys[0], state, models, w)
	return a.joint, n, a.steps
}

// maxLostPerHit bounds the Wounds one hit can take off models of w Wounds:
// Brutal's wounds, each D3 with Destroyer, or the whole model when it
// slays, never more than a model has.
func (c *Chain) maxLostPerHit(w int) int {
	if c.Slays || (c.Murderous > 0 && c.SlaysMurderous) {
		return w
	}
	d := max(c.Brutal, 1)
	if c.Destroyer {
		d *= 3
	}
	return min(d, w)
}
