package heresy

// MaxExactWork bounds the work of one point's exact values, in the steps
// ShootingExactWork and AssaultExactWork estimate: about a quarter of a
// second on one core. The computations behind them grow with the square
// of the hits or blows and, in an assault, with the states of both units,
// so a hundred models firing a hundred shots each would take two seconds.
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

// The estimates below follow the exact computations loop by loop, in the
// steps those count (Attack.steps): one for each state or value a loop
// visits, and one for each packet applied to a state. A step takes one to
// three nanoseconds (about one and a half on heavy points), so
// MaxExactWork's steps take about a quarter of a second.
// TestExactWorkTracksSteps holds each estimate within a factor of two of
// the steps counted.

// ShootingExactWork estimates the steps ExactShooting takes, following
// what it does: Return Fire's programme (programmeWork); for each state it
// can leave the firer in and number of Gets Hot wounds it can cost the
// target, pairs no Return Fire can reach left out (each Gets Hot wound is
// a shot that did not hit, and each hit moves the firer's state a bounded
// way), the firer's attack (attackWork) and, when the target has weapons,
// the joint law of its casualties with the firer's own Gets Hot wounds
// (jointWork); and the target's next attack (nextWork).
func ShootingExactWork(x *ShootingExchange) float64 {
	var full Attack
	full.PrepareAt(&x.Firer, x.Weapons, &x.Target, x.Situation, x.Options)
	fc := costsOf(&full)
	models, wf := max(x.Firer.Models, 0), max(x.Firer.W, 1)
	s0 := 0
	if models > 0 {
		s0 = min(max(x.Firer.Hurt, 0), wf-1)
	}
	work := 0.0
	hotCap, shots, inc := 0, 0, 0
	if x.ReturnFire && len(x.Back) > 0 {
		var b Attack
		b.PrepareAt(&x.Target, x.Back, &x.Firer, x.ReturnFireSituation(), x.Options)
		hot := b.GetsHot()
		if hot {
			hotCap = hotCapOf(&b, &x.Target)
		}
		work += programmeWork(&b, costsOf(&b), &x.Firer, hot, hotCap+1)
		shots, inc = b.reach(wf)
	}
	// The firer's attack costs the same whatever the target's wounded
	// model has lost.
	attacks := map[[2]int]float64{}
	a := Attack{Volleys: append([]Volley(nil), full.Volleys...)}
	attack := func(cf int, tg *Unit) float64 {
		key := [2]int{cf, tg.Models}
		if v, ok := attacks[key]; ok {
			return v
		}
		firing := models - cf
		if x.Options.ReturnFireAfterCasualties {
			firing = models
		}
		for i := range a.Volleys {
			a.Volleys[i].Models = firing
		}
		a.Retarget(tg.Models, x.Options)
		v := attackWork(&a, fc, tg)
		if len(x.Back) > 0 {
			v += jointWork(&a, fc, x, cf, tg)
		}
		attacks[key] = v
		return v
	}
	tg := x.Target
	for g := 0; g <= hotCap; g++ {
		if g > 0 {
			tg.TakeWound(false)
		}
		if tg.Destroyed() {
			break
		}
		hi := min(s0+max(shots-g, 0)*inc, models*wf)
		for cf := s0 / wf; cf <= hi/wf; cf++ {
			work += attack(cf, &tg)
		}
	}
	if len(x.Back) > 0 {
		work += nextWork(x, &full)
	}
	return work
}

// reach returns the most shots the attack fires and how far one of them
// can move a target of w-Wound models along the casualty programme's
// states.
func (a *Attack) reach(w int) (shots, inc int) {
	for i := range a.Volleys {
		v := &a.Volleys[i]
		_, hi := volleyShots(v)
		shots += hi
		inc = max(inc, v.Chain.maxHitsPerShot()*v.Chain.maxStatesPerHit(w))
	}
	return shots, inc
}

// attackWork estimates the steps of the exact quantities of the firer's
// attack a at tg (ShootingExchange.addAttack): four expectations and four
// distributions (each a compound of the hits with what one hit leads
// to), the casualty programme and, with a Concussive weapon, its
// chance.
func attackWork(a *Attack, vc []volleyCosts, tg *Unit) float64 {
	work := programmeWork(a, vc, tg, false, 1)
	concussive := false
	for i := range a.Volleys {
		v := &a.Volleys[i]
		hits := hitsWork(v)
		_, hi := volleyShots(v)
		most := hi * v.Chain.maxHitsPerShot()
		work += 8*hits + convolveWork(most, vc[i].widths[0]) + convolveWork(most, vc[i].widths[1]) +
			2*convolveWork(most, vc[i].widths[2])
		if v.Chain.Concussive > 0 {
			concussive = true
			work += hits + convolveWork(most, vc[i].widths[1])
		}
	}
	if concussive {
		work += 2 * programmeWork(a, vc, tg, false, 1)
	}
	return work
}

// jointWork estimates the steps of nextStates.add for the firer's attack
// a, made after Return Fire cost the firer cf models, at tg: its joint law
// with the firer's Gets Hot wounds, with Pinning the chance of no unsaved
// wound with each number of them, and the firer's states gathered.
func jointWork(a *Attack, vc []volleyCosts, x *ShootingExchange, cf int, tg *Unit) float64 {
	hc := 0
	work := 0.0
	if a.GetsHot() {
		left := x.Firer
		left.Models, left.Hurt = max(x.Firer.Models, 0)-cf, 0
		hc = hotCapOf(a, &left)
	}
	work += programmeWork(a, vc, tg, hc > 0, hc+1)
	if x.Pinning {
		for i := range a.Volleys {
			v := &a.Volleys[i]
			_, hi := volleyShots(v)
			most := hi * v.Chain.maxHitsPerShot()
			if hc > 0 {
				work += float64((hc+1)*(most+1)+(hc+1)*(hc+1)) + hitsWork(v) + float64(hi+1)*float64(most+1)/2
				if v.Chain.MasterCrafted {
					work += hotMasterCraftedWork(v, hc+1)
				}
			} else {
				work += hitsWork(v) + convolveWork(most, vc[i].widths[2])
			}
		}
	}
	tm, wt := max(tg.Models, 0), max(tg.W, 1)
	return work + float64((hc+1)*tm*(wt+2*max(x.Firer.W, 1)))
}

// nextWork estimates the steps of nextStates.expected: two programmes
// from the firer's states (casualtiesFrom: the states, and the states
// weighed by the models lost) for each number of models the target can be left
// with by the firer's attack full, broken or not (when it can be), once
// for each run of the firer's models left that give its Blast and
// Template markers the same hits.
func nextWork(x *ShootingExchange, full *Attack) float64 {
	models, wf := max(x.Firer.Models, 0), max(x.Firer.W, 1)
	shots, inc := full.reach(max(x.Target.W, 1))
	tm := max(x.Target.Models, 0)
	lo := max(tm-(shots*inc)/max(x.Target.W, 1)-1, 1)
	snap := []bool{false}
	if x.BrokenSnapShots && (x.MoraleCheck && x.Target.PassProbability(MoraleCheck, PhaseShooting, -x.Fear, x.Options) < 1 ||
		x.Pinning && x.Target.PassProbability(PinningTest, PhaseShooting, -x.Fear, x.Options) < 1) {
		snap = append(snap, true)
	}
	work := 0.0
	var b Attack
	for _, sn := range snap {
		b.PrepareAt(&x.Target, x.Back, &x.Firer, x.NextSituation(sn), x.Options)
		vc := costsOf(&b)
		runs := 0
		for m := 0; m < models; {
			b.Retarget(models-m, x.Options)
			m++
			for ; m < models && b.sameMarkers(models-m, x.Options); m++ {
			}
			runs++
		}
		b.Retarget(models, x.Options)
		for left := lo; left <= tm; left++ {
			for i := range b.Volleys {
				b.Volleys[i].Models = left
			}
			work += float64(runs) * (2*programmeWork(&b, vc, &x.Firer, false, 1) + float64(5*(models+1)*wf))
		}
	}
	return work
}

// AssaultExactWork estimates the steps ExactAssault takes, following
// what it does: the Overwatch's programmes (programmeWork), then a combat
// (combatWork) for each state the Overwatch can leave the charger in and,
// when it Gets Hot, each number of Wounds it can cost the defender, pairs
// no Overwatch can reach left out (each Gets Hot wound is a shot that did
// not hit). Without Overwatch, one combat.
func AssaultExactWork(x *AssaultExchange) float64 {
	e := newCombatEnum(x)
	att, def := x.Units[0], x.Units[1]
	combats := map[[2]int]float64{}
	combat := func(m int, d *Unit) float64 {
		key := [2]int{m, d.Models}
		if v, ok := combats[key]; ok {
			return v
		}
		v := e.combatWork(m, d)
		combats[key] = v
		return v
	}
	if !x.Overwatches() {
		return combat(att.Models, &def)
	}
	var a Attack
	a.PrepareAt(&def, x.OverwatchWeapons, &att, x.OverwatchSituation(), x.Options)
	vc := costsOf(&a)
	hotCap := 0
	work := programmeWork(&a, vc, &att, false, 1) // the charger's casualties
	if a.GetsHot() {
		hotCap = hotCapOf(&a, &def)
		work += programmeWork(&a, vc, &att, true, hotCap+1)
	} else {
		work += programmeWork(&a, vc, &att, false, 1)
	}
	if att.Models <= 0 {
		return work
	}
	w := max(att.W, 1)
	s0 := min(max(att.Hurt, 0), w-1)
	shots, inc := a.reach(w)
	d := def
	for g := 0; g <= hotCap; g++ {
		if g > 0 {
			d.TakeWound(false)
		}
		if d.Destroyed() {
			break
		}
		hi := min(att.Models*w-1, s0+max(shots-g, 0)*inc)
		for s := s0; s <= hi; {
			lost := s / w
			end := min(hi, lost*w+w-1)
			work += float64(end-s+1) * combat(att.Models-lost, &d)
			s = end + 1
		}
	}
	return work
}

// maxHitsPerShot is the most hits one shot of c scores.
func (c *Chain) maxHitsPerShot() int {
	switch {
	case c.WallOfDeath:
		return 3
	case c.AutoHits > 0:
		return c.AutoHits
	}
	return 1
}

// maxStatesPerHit bounds how far one hit of c moves a target of w-Wound
// models along the casualty programme's states (lost*w + hurt):
// maxLostPerHit, and Deflagrate's hits after it.
func (c *Chain) maxStatesPerHit(w int) int {
	d := c.maxLostPerHit(w)
	if c.Deflagrate {
		per := 1
		if c.Defl.Slays {
			per = w
		}
		d += max(c.Brutal, 1) * per
	}
	return d
}

// volleyCosts is what the estimates read of one volley's chain, which
// does not change with the models firing or fired at: the packets of one
// step of its programme (a shot, or a hit) and the widths of the laws of
// the hits, wounds and unsaved wounds one hit leads to.
type volleyCosts struct {
	law    int
	widths [3]int
}

// costsOf returns the volleyCosts of a's volleys.
func costsOf(a *Attack) []volleyCosts {
	var scratch Attack
	out := make([]volleyCosts, len(a.Volleys))
	for i := range a.Volleys {
		c := &a.Volleys[i].Chain
		ph := c.meanShotHits()
		if c.MasterCrafted || c.AutoHits > 0 || c.WallOfDeath {
			ph = 1
		}
		out[i].law = len(scratch.buildLaw(c, ph))
		for j, st := range []Stage{StageHits, StageWounds, StageUnsaved} {
			out[i].widths[j] = len(c.hitCount(st))
		}
	}
	return out
}

// programmeWork estimates the steps of attack a's casualty programme
// against target (casualtyStates), or with hot of its joint law with the
// firer's Gets Hot wounds in rows slabs (HotStates): for each step (a
// shot, or a hit) every state is visited and every packet applied to
// those it can have reached; the steps' law, the slabs Deflagrate adds
// and Murderous Strike's second pass are counted as they are built.
func programmeWork(a *Attack, vc []volleyCosts, target *Unit, hot bool, rows int) float64 {
	models, w := max(target.Models, 0), max(target.W, 1)
	n := (models + 1) * w
	s0 := 0
	if models > 0 {
		s0 = min(max(target.Hurt, 0), w-1)
	}
	work := 0.0
	rowsIn := 1
	for i := range a.Volleys {
		v := &a.Volleys[i]
		c := &v.Chain
		lo, hi := volleyShots(v)
		byHits := c.MasterCrafted || c.AutoHits > 0 || c.WallOfDeath
		steps := hi
		if byHits {
			steps = hi * c.maxHitsPerShot()
			work += hitsWork(v)
		} else {
			work += shotsWork(v)
		}
		if hot {
			work += float64(hi+1) * float64(steps+1) / 2
		}
		slabs := 1
		if c.Deflagrate {
			slabs = steps*max(c.Brutal, 1) + 1
		}
		size := n * slabs
		inc := c.maxLostPerHit(w)
		var reached float64 // the states reached before each step, summed
		if c.Deflagrate {
			reached = sumReachPair(steps, inc, n-s0, max(c.Brutal, 1), slabs)
		} else {
			reached = sumReach(steps, inc, n-s0)
		}
		visits := float64(steps)*float64(size) + reached*float64(vc[i].law)
		if c.Murderous > 0 && w > 1 {
			visits *= 2
		}
		// Each count of steps the volley can take is added in, into each
		// slab of Gets Hot wounds it can come with.
		adds := hi - lo + 1
		if byHits {
			adds = steps + 1
		}
		if hot {
			adds *= min(rows, hi-lo+1+steps)
		}
		per := visits + float64(adds)*float64(size)
		if slabs > 1 {
			per += float64(min(adds, rows)) * float64(slabs) * float64(4*n)
		}
		if hot {
			per += float64(rows * n)
		}
		work += float64(rowsIn) * per
		if hot {
			rowsIn = rows
		}
	}
	return work
}

// sumReachPair is the sum over k from 0 to steps-1 of min(k*inc1 + 1,
// most1) * min(k*inc2 + 1, most2): sumReach for a programme whose states
// grow along two counts.
func sumReachPair(steps, inc1, most1, inc2, most2 int) float64 {
	if steps <= 0 || most1 <= 0 || most2 <= 0 {
		return 0
	}
	inc1, inc2 = max(inc1, 1), max(inc2, 1)
	t1 := min(steps, (most1-1)/inc1+1) // the steps before each count is capped
	t2 := min(steps, (most2-1)/inc2+1)
	// sum over k in [lo, hi) of (a1 k + b1)(a2 k + b2)
	span := func(lo, hi int, a1, b1, a2, b2 float64) float64 {
		if hi <= lo {
			return 0
		}
		s0 := func(n float64) float64 { return n }
		s1 := func(n float64) float64 { return n * (n - 1) / 2 }
		s2 := func(n float64) float64 { return (n - 1) * n * (2*n - 1) / 6 }
		l, h := float64(lo), float64(hi)
		return a1*a2*(s2(h)-s2(l)) + (a1*b2+a2*b1)*(s1(h)-s1(l)) + b1*b2*(s0(h)-s0(l))
	}
	lo1, lo2 := min(t1, t2), max(t1, t2)
	f1 := func(k1 bool) (float64, float64) { // the first factor, growing or capped
		if k1 {
			return float64(inc1), 1
		}
		return 0, float64(most1)
	}
	f2 := func(k2 bool) (float64, float64) {
		if k2 {
			return float64(inc2), 1
		}
		return 0, float64(most2)
	}
	sum := 0.0
	a1, b1 := f1(true)
	a2, b2 := f2(true)
	sum += span(0, lo1, a1, b1, a2, b2)
	a1, b1 = f1(t1 > lo1)
	a2, b2 = f2(t2 > lo1)
	sum += span(lo1, lo2, a1, b1, a2, b2)
	a1, b1 = f1(false)
	a2, b2 = f2(false)
	sum += span(lo2, steps, a1, b1, a2, b2)
	return sum
}

// combatWork estimates the steps exactCombat takes for the charger with
// m models against def: each side's strikeJoint (strikeWork) and
// expectations (expectedWork), for the side striking second once for
// each number of models the first can leave it, and outcomeSteps for each
// joint outcome.
func (e *combatEnum) combatWork(m int, def *Unit) float64 {
	units := [2]Unit{e.x.Units[0], *def}
	units[0].Models = m
	if e.init[0] == e.init[1] {
		w0, j0 := e.strikeWork(0, m, &units[1])
		w1, j1 := e.strikeWork(1, def.Models, &units[0])
		return w0 + w1 + e.expectedWork(0, m) + e.expectedWork(1, def.Models) + outcomeSteps*j0*j1
	}
	first := 0
	if e.init[1] > e.init[0] {
		first = 1
	}
	second := 1 - first
	foe := &units[second]
	wf, jf := e.strikeWork(first, units[first].Models, foe)
	work := wf + e.expectedWork(first, units[first].Models)
	fw := max(foe.W, 1)
	hurt := min(max(foe.Hurt, 0), fw-1)
	reach := (e.attacks[first]*max(units[first].Models, 0)*e.chains[first].maxLostPerHit(fw) + hurt) / fw
	lo := max(foe.Models-reach, 0)
	for left := lo; left <= foe.Models; left++ {
		ws, js := e.strikeWork(second, left, &units[first])
		work += ws + e.expectedWork(second, left) + outcomeSteps*jf/float64(foe.Models-lo+1)*js
	}
	return work
}

// strikeWork estimates the steps of side i's strikeJoint with bearers
// models against foe (a programme over the combat result's slabs), and
// the outcomes it has.
func (e *combatEnum) strikeWork(i, bearers int, foe *Unit) (steps, outcomes float64) {
	key := [3]int{i, bearers, foe.Models}
	if v, ok := e.strikes[key]; ok {
		return v[0], v[1]
	}
	if e.strikes == nil {
		e.strikes = map[[3]int][2]float64{}
	}
	steps, outcomes = e.strikeWorkOf(i, bearers, foe)
	e.strikes[key] = [2]float64{steps, outcomes}
	return steps, outcomes
}

func (e *combatEnum) strikeWorkOf(i, bearers int, foe *Unit) (steps, outcomes float64) {
	c := &e.chains[i]
	blows := max(bearers, 0) * e.attacks[i]
	models, w := max(foe.Models, 0), max(foe.W, 1)
	n := (models + 1) * w
	s0 := 0
	if models > 0 {
		s0 = min(max(foe.Hurt, 0), w-1)
	}
	lost := e.x.Options.CombatScore == ScoreWoundsLost
	inc := c.maxLostPerHit(w)
	slabs := blows*max(c.Brutal, 1) + 1
	if lost {
		slabs = min(blows*inc, models*w) + 1
	}
	size := n * slabs
	var scratch Attack
	scratch.countSuffered, scratch.countLost = true, lost
	ph := c.meanShotHits()
	if c.MasterCrafted {
		ph = 1
	}
	law := scratch.buildLaw(c, ph)
	// With the Wounds lost as the score, the score follows from the state;
	// with the wounds suffered it can run past it (wounds lost past a
	// model's last, or struck after the last model fell).
	reach := func(k int) int {
		r := min(k*inc+1, n-s0)
		if b := max(c.Brutal, 1); !lost {
			r = min(max(r, k*b+1)+k*(b-1), size)
		}
		return r
	}
	steps = float64(bearers + size) // the shots' law; the joint read back
	if lost {
		steps += float64(blows*size) + sumReach(blows, inc, n-s0)*float64(len(law))
	} else {
		for k := range blows {
			steps += float64(size + reach(k)*len(law))
		}
	}
	if c.Murderous > 0 && w > 1 {
		steps *= 2
	}
	adds := 1
	if c.MasterCrafted {
		adds = blows + 1
		steps += float64(bearers*(blows+1)) * float64(e.attacks[i]+1)
	}
	steps += float64(adds * size)
	return steps, float64(reach(blows))
}

// sumReach is the sum over k from 0 to steps-1 of min(k*inc + 1, most):
// the states a programme of steps steps, each moving up to inc states, can
// have reached before each step.
func sumReach(steps, inc, most int) float64 {
	if steps <= 0 || most <= 0 {
		return 0
	}
	inc = max(inc, 1)
	t := min(steps, (most-1)/inc+1) // the steps before the last state is in reach
	return float64(t) + float64(inc)*float64(t)*float64(t-1)/2 + float64(steps-t)*float64(most)
}

// expectedWork estimates the steps of side i's expectations with bearers
// models: four stages, each a compound of the blows' hits.
func (e *combatEnum) expectedWork(i, bearers int) float64 {
	blows := max(bearers, 0) * e.attacks[i]
	return 4 * float64(bearers+(blows+1)*(blows+1))
}

// volleyShots returns the fewest and most shots volley v fires.
func volleyShots(v *Volley) (lo, hi int) {
	shots := v.Weapon.shots()
	rolls := max(v.Models, 0) * v.rolls()
	return rolls * max(shots.Min(), 0), rolls * max(shots.Max(), 0)
}

// shotsWork estimates the steps of a volley's shots' law (totalShots):
// one model's shots convolved in per model.
func shotsWork(v *Volley) float64 {
	shots := v.Weapon.shots()
	per := float64(v.rolls()*(max(shots.Max(), 0)-max(shots.Min(), 0)) + 1) // one model's
	m := float64(max(v.Models, 0))
	return m*per + per*(per-1)*m*(m-1)/2
}

// hitsWork estimates the steps of a volley's hits' law (totalHits): a
// compound of one shot's hits over the shots, or for Master-crafted the
// models' laws convolved.
func hitsWork(v *Volley) float64 {
	c := &v.Chain
	lo, hi := volleyShots(v)
	if c.MasterCrafted {
		per := float64(v.rolls()*max(v.Weapon.shots().Max(), 0) + 1)
		m := float64(max(v.Models, 0))
		return per*per + m*per + per*(per-1)*m*(m-1)/2
	}
	k := float64(c.maxHitsPerShot())
	work := shotsWork(v)
	for n := 0; n <= hi; n++ {
		top := float64(n)*k + 1
		if n >= lo {
			work += top
		}
		if n < hi {
			work += top * (k + 1)
		}
	}
	return work
}

// hotMasterCraftedWork is the steps of hotMasterCrafted's joint law of a
// Master-crafted volley's hits and Gets Hot wounds in rows rows: each
// model's law, of d = h+2 Gets Hot counts for each of h+1 hit counts (h
// the most shots a model fires), convolved into the rows of the hits the
// models before it reached, k h + 1 for the k-th.
func hotMasterCraftedWork(v *Volley, rows int) float64 {
	h := float64(v.rolls() * max(v.Weapon.shots().Max(), 0))
	m := float64(max(v.Models, 0))
	return float64(rows) * (h + 1) * (h + 2) * (m + h*m*(m-1)/2)
}

// convolveWork estimates the steps of a compound of up to hits hits, each
// leading to a count with a law of width values (Attack.volleyDist).
func convolveWork(hits, width int) float64 {
	h, g := float64(hits+1), float64(max(width, 1))
	// The h-th power has (h-1)(g-1)+1 values; each is added in and
	// convolved once more.
	return h*(h-1)/2*(g-1)*(g+1) + h*(g+1)
}
