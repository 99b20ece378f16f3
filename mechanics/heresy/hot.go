package heresy

import "hammersim/mechanics/dice"

// Gets Hot on the unit that fires (rulebook p.239, as newrecruit.eu's
// Horus Heresy (2022) wiki prints the rule): each To Hit roll that ends on
// a 1, or for a weapon that rolls none each D6 of 1 rolled before a shot
// (the shot is lost), gives the firing model a wound at the weapon's AP.
// The rule makes no exception for Reactions: the target's Return Fire and
// a charged unit's Overwatch hurt the unit that fires them, which then
// faces the attack or the charge with what is left.

// Fire rolls the attack against target, as Roll does, and then gives the
// firing unit, firer, the Gets Hot wounds it suffered (Tally.Hot), one
// wound each placed as every wound is (Unit.TakeWound). The rule puts each
// on the model that fired, which no other model may take; a Unit keeps at
// most one wounded model, so against a unit of several multi-Wound models
// a second Gets Hot wound goes onto the model already wounded. Every model
// that began the attack fires all its weapons: the wounds land once the
// attack is resolved. It does not allocate.
func (a *Attack) Fire(r *dice.Rand, firer, target *Unit) Tally {
	t := a.Roll(r, target)
	for range t.Hot {
		firer.TakeWound(false)
	}
	return t
}

// Retarget settles again what the volleys take from the number of models
// their target has, models: how many models a Blast or Template marker
// hits, never more than there are (Options.BlastHits, TemplateHits). The
// weapons were chosen against the target as it stood when the attack was
// prepared; one that has lost models since (to its own Gets Hot wounds in
// Return Fire) offers the markers fewer. A target with no models left
// counts as one: no attack is made at it. It does not allocate.
func (a *Attack) Retarget(models int, o Options) {
	for i := range a.Volleys {
		v := &a.Volleys[i]
		if hits, marker := markerHits(v, models, o); marker {
			v.Chain.AutoHits = hits
		}
	}
}

// sameMarkers reports whether Retarget(models, o) would leave every
// volley's hits per shot as they are.
func (a *Attack) sameMarkers(models int, o Options) bool {
	for i := range a.Volleys {
		v := &a.Volleys[i]
		if hits, marker := markerHits(v, models, o); marker && v.Chain.AutoHits != hits {
			return false
		}
	}
	return true
}

// markerHits returns the hits a Blast or Template marker of volley v
// scores against a target of models models (at least one), and whether v
// fires one (a Wall of Death keeps its own).
func markerHits(v *Volley, models int, o Options) (int, bool) {
	models = max(models, 1)
	switch {
	case v.Chain.WallOfDeath:
	case v.Weapon.Blast > 0:
		return o.blastHits(v.Weapon.Blast, models), true
	case v.Weapon.Template:
		return o.templateHits(models), true
	}
	return 0, false
}

// GetsHot reports whether a weapon of the attack Gets Hot.
func (a *Attack) GetsHot() bool {
	for i := range a.Volleys {
		if a.Volleys[i].Chain.GetsHot {
			return true
		}
	}
	return false
}

// hotCapOf is the most Gets Hot wounds that matter when attack a is fired by
// u: no more than the Wounds u has left (after those it is destroyed) and
// no more than a's shots (one wound a shot at most).
func hotCapOf(a *Attack, u *Unit) int {
	shots := 0
	for i := range a.Volleys {
		v := &a.Volleys[i]
		shots += max(v.Models, 0) * v.rolls() * max(v.Weapon.shots().Max(), 0)
	}
	return min(woundsLeft(u), shots)
}

// HotStates is the exact joint distribution of the Gets Hot wounds the
// firing unit suffers in the attack and the state it leaves target in, the
// unit it was prepared against: P(g wounds and state s) at index g*n + s,
// where s = lost*W + hurt as in FinalStates and n = (models+1)*W, for g
// from 0 to hotCap, the last counting hotCap or more (a firing unit with
// hotCap Wounds to lose has none left after them). Hits and Gets Hot wounds
// come from the same To Hit rolls, a 1 missing, so the two are not
// independent. The slice is scratch space, valid until the next call.
func (a *Attack) HotStates(target *Unit, hotCap int) ([]float64, int) {
	models, w := max(target.Models, 0), max(target.W, 1)
	n := (models + 1) * w
	hotCap = max(hotCap, 0)
	state := grow(a.st, (hotCap+1)*n)
	if models > 0 {
		state[min(max(target.Hurt, 0), w-1)] = 1
	} else {
		state[0] = 1
	}
	for i := range a.Volleys {
		state = a.applyVolleyHot(&a.Volleys[i], state, models, w, hotCap)
	}
	a.st = state
	return state, n
}

// applyVolleyHot is applyVolley with the firing unit's Gets Hot wounds
// counted: state holds hotCap+1 slabs of n states, slab g for g wounds so
// far (the last for hotCap or more). Each slab goes through the volley's
// programme on its own, weighted by the joint law of the volley's steps and
// Gets Hot wounds (hotSteps), and lands g slabs up. It returns the new
// states; state's storage is kept for the next volley.
func (a *Attack) applyVolleyHot(v *Volley, state []float64, models, w, hotCap int) []float64 {
	n := (models + 1) * w
	c := &v.Chain
	j, width, law, ph, lessMiss := a.hotSteps(v, hotCap)
	q, slays, single := singleWound(law)
	hi := width - 1
	slabs := 1
	if c.Deflagrate {
		slabs = hi*max(c.Brutal, 1) + 1
		single = false
	}
	size, rows := n*slabs, hotCap+1
	murderous := c.Murderous > 0 && w > 1 && a.splitMurderous(c, ph, lessMiss)
	out := grow(a.hotOut, rows*n)
	acc := grow(a.hotAcc, rows*size)
	tmp := grow(a.hotTmp, n)
	for g0 := range rows {
		from := state[g0*n : (g0+1)*n]
		if allZero(from) {
			continue
		}
		clear(acc)
		if murderous {
			for g := range rows {
				jg := j[g*width : (g+1)*width]
				if allZero(jg) {
					continue
				}
				s0, t1, t2 := grow(a.cur, size), grow(a.nxt, size), grow(a.acc, size)
				copy(s0, from)
				res, sp1, sp2 := a.murderousFirst(0, jg, s0, t1, t2, n, models, w)
				copy(acc[g*size:(g+1)*size], res)
				a.cur, a.nxt, a.acc = res, sp1, sp2
			}
		} else {
			cur, nxt := grow(a.cur, size), grow(a.nxt, size)
			copy(cur, from)
			for k := 0; ; k++ {
				for g := range rows {
					if wk := j[g*width+k]; wk != 0 {
						ag := acc[g*size : (g+1)*size]
						for i, x := range cur {
							ag[i] += wk * x
						}
						a.steps += float64(size)
					}
				}
				if k >= hi {
					break
				}
				if single {
					a.steps += float64(woundStep(cur, nxt, q, slays, models, w))
				} else {
					a.steps += float64(hitStep(cur, nxt, law, n, models, w, false))
				}
				cur, nxt = nxt, cur
			}
			a.cur, a.nxt = cur, nxt
		}
		for g := range rows {
			ag := acc[g*size : (g+1)*size]
			if slabs > 1 {
				a.steps += float64(deflagrateSlabs(c, ag, tmp, n, models, w))
			}
			dst := out[min(g0+g, hotCap)*n:]
			for i := range n {
				dst[i] += ag[i]
			}
			a.steps += float64(n)
		}
	}
	a.hotOut, a.hotAcc, a.hotTmp = state, acc, tmp
	return out
}

// hotSteps returns what the casualty programme needs to apply volley v
// with the firing unit's Gets Hot wounds counted: the joint law of the
// programme's steps and the Gets Hot wounds suffered, P(g wounds and k
// steps) at j[g*width + k] (g up to hotCap, which counts hotCap or more),
// and the packets of one step; ph and lessMiss are what splitMurderous
// needs. A step is a shot, its chance to hit folded into the packets,
// where each shot is at most one hit rolled alone (no Master-crafted);
// else a hit. The slices are scratch space.
//
// A shot that gives a Gets Hot wound is a miss (a natural 1 misses, and a
// weapon that rolls no To Hit loses the shot), with chance h; so of N
// shots Bin(g; N, h) give g wounds, and the others are shots conditioned
// on giving none: a shot's packets less h of doing nothing, over 1 - h.
// Master-crafted re-rolls one miss per bearer, a 1 when it has one, so its
// hits and 1s are enumerated bearer by bearer.
func (a *Attack) hotSteps(v *Volley, hotCap int) (j []float64, width int, law []packet, ph, lessMiss float64) {
	c := &v.Chain
	rows := hotCap + 1
	switch {
	case c.MasterCrafted:
		j, width = a.hotMasterCrafted(v, hotCap)
		return j, width, a.buildLaw(c, 1), 1, 0
	case c.AutoHits > 0 || c.WallOfDeath:
		j, width = a.hotAutoHits(v, hotCap)
		return j, width, a.buildLaw(c, 1), 1, 0
	}
	lo, shots := a.totalShots(v)
	width = lo + len(shots)
	h := c.PHot()
	j = grow(a.hotJ, rows*width)
	for i, pn := range shots {
		if pn == 0 {
			continue
		}
		ns := lo + i
		a.steps += float64(ns + 1)
		for g := 0; g <= ns; g++ {
			if b := binomialPMF(ns, g, h); b != 0 {
				j[min(g, hotCap)*width+ns-g] += pn * b
			}
		}
	}
	a.hotJ = j
	ph = c.meanShotHits()
	law = a.buildLaw(c, ph)
	if h > 0 {
		lessNoDamage(law, h)
		for i := range law {
			law[i].p /= 1 - h
		}
	}
	return j, width, law, ph, h
}

// hotAutoHits is hotSteps' law for a volley of weapons that roll no To
// Hit (Blast, Template, Wall of Death): per shot, a Gets Hot wound with
// chance h (a D6 of 1 loses the shot, then the firer's save and mitigation
// roll fail); else the shot's hits, conditioned on no wound. The steps are
// hits: of N shots, Bin(g; N, h) give g wounds and the other N - g score
// hits by the conditioned law, convolved.
func (a *Attack) hotAutoHits(v *Volley, hotCap int) ([]float64, int) {
	c := &v.Chain
	rows := hotCap + 1
	lo, shots := a.totalShots(v)
	hi := lo + len(shots) - 1
	per := c.shotHits(a.hitB)
	a.hitB = per
	h := 0.0
	if c.GetsHot {
		h = c.pLost() * c.hotThrough()
	}
	width := hi*(len(per)-1) + 1
	j := grow(a.hotJ, rows*width)
	if h == 0 {
		copy(j, a.compound(lo, shots, per))
		a.hotJ = j
		return j, width
	}
	cond := grow(a.hotTmp, len(per))
	for k, p := range per {
		cond[k] = p / (1 - h)
	}
	cond[0] = (per[0] - h) / (1 - h)
	pw := grow(a.hotPw, width) // cond convolved m times
	nx := grow(a.hotOut, width)
	pw[0] = 1
	top := 0
	for m := 0; m <= hi; m++ {
		for g := 0; m+g <= hi; g++ {
			ns := m + g
			if ns < lo || shots[ns-lo] == 0 {
				continue
			}
			wt := shots[ns-lo] * binomialPMF(ns, g, h)
			row := j[min(g, hotCap)*width:]
			for k := 0; k <= top; k++ {
				row[k] += wt * pw[k]
			}
			a.steps += float64(top + 1)
		}
		if m == hi {
			break
		}
		a.steps += float64((top + 1) * len(cond))
		top = convolveOnce(nx, pw, cond, top)
		pw, nx = nx, pw
	}
	a.hotJ, a.hotTmp, a.hotPw, a.hotOut = j, cond, pw, nx
	return j, width
}

// hotMasterCrafted is hotSteps' law for a Master-crafted volley, which
// rolls To Hit with no other re-roll: each bearer's shots hit on p, end on
// a natural 1 (a miss) with 1/6, otherwise miss; the bearer re-rolls one
// miss, a 1 when it has one (the 1 then no longer counts); each 1 it ends
// with gives a Gets Hot wound when the firer's save and mitigation roll
// fail. The bearers' joint laws of hits and wounds are convolved. The
// steps are hits.
func (a *Attack) hotMasterCrafted(v *Volley, hotCap int) ([]float64, int) {
	c := &v.Chain
	rows := hotCap + 1
	m := &a.memo[a.perModel(v.Weapon.shots(), v.rolls())]
	p := c.Hit.P()
	ht := 0.0
	if c.GetsHot && c.Hit.Need < Impossible {
		ht = c.hotThrough()
	}
	hiShots := m.min + len(m.p) - 1
	d := hiShots + 2 // hits up to hiShots, 1s up to hiShots+1 before capping
	one := grow(a.hotTmp, d*d)
	add := func(x, o int, pr float64) {
		for g := 0; g <= o; g++ {
			one[x*d+g] += pr * binomialP(o, g, ht)
		}
	}
	for i, ps := range m.p {
		ns := m.min + i
		if ps == 0 {
			continue
		}
		for x := 0; x <= ns; x++ {
			px := ps * binomialPMF(ns, x, p)
			miss := ns - x
			if px == 0 {
				continue
			}
			if miss == 0 {
				add(x, 0, px)
				continue
			}
			q1 := (1.0 / 6) / (1 - p) // P(a miss is a 1)
			for o := 0; o <= miss; o++ {
				pr := px * binomialPMF(miss, o, q1)
				if pr == 0 {
					continue
				}
				ob := max(o-1, 0) // the 1 re-rolled, when there is one
				add(x+1, ob, pr*p)
				add(x, ob+1, pr/6)
				add(x, ob, pr*(1-p-1.0/6))
			}
		}
	}
	width := max(v.Models, 0)*hiShots + 1
	cur := grow(a.hotJ, rows*width)
	nx := grow(a.hotOut, rows*width)
	cur[0] = 1
	top := 0 // the highest hit count reached
	for range max(v.Models, 0) {
		clear(nx)
		a.steps += float64(rows * (top + 1) * (hiShots + 1) * d)
		for g0 := range rows {
			for h0 := 0; h0 <= top; h0++ {
				x := cur[g0*width+h0]
				if x == 0 {
					continue
				}
				for h1 := 0; h1 <= hiShots; h1++ {
					for g1 := 0; g1 < d; g1++ {
						if y := one[h1*d+g1]; y != 0 {
							nx[min(g0+g1, hotCap)*width+h0+h1] += x * y
						}
					}
				}
			}
		}
		top += hiShots
		cur, nx = nx, cur
	}
	a.hotJ, a.hotOut, a.hotTmp = cur, nx, one
	return cur, width
}

// noneHot returns, for g from 0 to hotCap (the last for hotCap or more),
// the exact chance that the attack leaves no wound of stage s (unsaved, or
// suffered) on the target it was prepared against and the firing unit
// suffers g Gets Hot wounds. The two come from the same To Hit rolls: of a
// volley's steps (hotSteps' joint law with the wounds), each leaves none
// independently, a hit with the chance its wound roll, saves, Damage
// Mitigation and Deflagrate leave none, a shot that gave no Gets Hot wound
// with 1 - ph(1 - that)/(1 - h), a Gets Hot wound being a miss. Volleys
// are convolved. It allocates.
func (a *Attack) noneHot(s Stage, hotCap int) []float64 {
	rows := max(hotCap, 0) + 1
	out := make([]float64, rows)
	out[0] = 1
	for i := range a.Volleys {
		v := &a.Volleys[i]
		c := &v.Chain
		j, width, _, ph, h := a.hotSteps(v, hotCap)
		clean := c.hitCount(s)[0] // P(a hit leaves no wound of stage s)
		step := clean
		if !c.MasterCrafted && c.AutoHits == 0 && !c.WallOfDeath && h < 1 {
			step = 1 - ph*(1-clean)/(1-h)
		}
		per := make([]float64, rows)
		for g := range rows {
			pw := 1.0
			for k := range width {
				per[g] += j[g*width+k] * pw
				pw *= step
			}
		}
		a.steps += float64(rows * width)
		next := make([]float64, rows)
		for g0, x := range out {
			for g1, y := range per {
				next[min(g0+g1, hotCap)] += x * y
			}
		}
		a.steps += float64(rows * rows)
		out = next
	}
	return out
}

// lessNoDamage takes x off the chance of law's packet that does nothing.
func lessNoDamage(law []packet, x float64) {
	for i := range law {
		if pk := &law[i]; pk.dmg == 0 && !pk.slays && pk.u == 0 {
			pk.p -= x
			return
		}
	}
}

func allZero(p []float64) bool {
	for _, x := range p {
		if x != 0 {
			return false
		}
	}
	return true
}
