package heresy

import (
	"math"
	"slices"

	"hammersim/mechanics"
	"hammersim/mechanics/dice"
)

// Volley is one weapon fired by every firing model of a unit in a Shooting
// Attack.
type Volley struct {
	Weapon Weapon
	// Index is the weapon's place in the list given to Attack.Prepare.
	Index int
	// Models is how many models fire it.
	Models int
	// Rolls is how many times each model rolls the weapon's shots (2 for
	// Rapid Fire within half range); 0 counts as 1.
	Rolls int
	Chain Chain
}

func (v *Volley) rolls() int { return max(v.Rolls, 1) }

// Roll rolls the volley's shots, Rolls rolls of Weapon.Shots per model (a
// negative roll fires none), and resolves them against target.
func (v *Volley) Roll(r *dice.Rand, target *Unit) Tally {
	shots := v.Weapon.shots()
	var t Tally
	if v.Chain.MasterCrafted {
		for range v.Models {
			n := 0
			for range v.rolls() {
				n += max(shots.Roll(r), 0)
			}
			v.Chain.rollHits(r, n, &t)
		}
	} else {
		n := 0
		for range v.Models * v.rolls() {
			n += max(shots.Roll(r), 0)
		}
		v.Chain.rollHits(r, n, &t)
	}
	v.Chain.Resolve(r, &t, target)
	return t
}

// Attack is one Shooting Attack by a unit against a target: the weapons its
// models fire, in the order they are resolved, and the scratch space that
// keeps rolling and the exact expectations allocation-free once it has
// grown. An Attack is reused: Prepare it for each new firer, target or
// state. The zero Attack is ready to use; it must not be shared between
// goroutines.
type Attack struct {
	// Volleys are the weapons fired, best first (see Select).
	Volleys []Volley

	picks  []int
	pair   []int // picks with a pair of Pistols, weighed against picks
	score  []float64
	chains []Chain
	fire   []Firing
	memo   []shotsMemo
	// shotA, shotB and hitA hold a volley's shot and hit distributions;
	// cur, nxt and acc the casualty programme's states, st and st2 those
	// casualtiesFrom starts from; law the outcomes of one hit.
	shotA, shotB, hitA, hitB []float64
	cur, nxt, acc, st, st2   []float64
	law                      []packet
	// hotJ, hotPw, hotOut, hotAcc and hotTmp are HotStates' scratch space.
	hotJ, hotPw, hotOut, hotAcc, hotTmp []float64
	// lawM and lawR split a shot's packets for Murderous Strike, pM the
	// chance of lawM's; ring holds the states murderousFirst keeps.
	lawM, lawR []packet
	pM         float64
	ring       []float64
	// countSuffered makes the programme count the wounds suffered in its
	// slabs instead of Deflagrate's unsaved wounds, leaving the joint
	// distribution in joint (see Chain.strikeJoint); with countLost it
	// counts the Wounds the target's models lost instead (Tally.Lost).
	countSuffered, countLost bool
	joint                    []float64
	// steps counts the loop steps its exact computations have taken (see
	// ShootingExactWork): one for each state or value a loop visits, and
	// one for each packet applied to a state.
	steps float64
}

// shotsMemo is the distribution of the shots one model fires with one
// weapon, rolls rolls of one dice expression, kept so that exact
// expectations need not rebuild it.
type shotsMemo struct {
	text  string
	rolls int
	min   int
	p     []float64
	mean  float64
}

// allHit is the chance that every shot of one model hits when each hits
// with chance p: E[p^N] over its shots N.
func (m *shotsMemo) allHit(p float64) float64 {
	sum := 0.0
	for i, q := range m.p {
		sum += q * math.Pow(p, float64(m.min+i))
	}
	return sum
}

// perModel returns the memo of the shots one model fires with rolls rolls
// of expression e.
func (a *Attack) perModel(e dice.Expr, rolls int) int {
	text := e.String()
	for i := range a.memo {
		if a.memo[i].text == text && a.memo[i].rolls == rolls {
			return i
		}
	}
	d := nonNegative(e.Dist())
	sum := dice.Point(0)
	for range rolls {
		sum = sum.Add(d)
	}
	a.memo = append(a.memo, shotsMemo{text: text, rolls: rolls, min: sum.Min, p: sum.P, mean: sum.Mean()})
	return len(a.memo) - 1
}

// Select picks the weapons each model of firer fires at target and returns
// their indices in weapons, best first; the slice is reused by the next
// call. The firer fires as Prepare's situation says (range, movement,
// Snap Shots).
//
// A model fires one weapon, or with Firing Protocols (X) up to X different
// weapons, never one weapon twice (rule text), nor two profiles of one
// weapon (Weapon.Group). A model firing a Pistol may
// fire a second Pistol with it [EMP]. By default the Pistols count as two
// of a model's X weapons, and a model without Firing Protocols still fires
// both (Options.PistolPairWithinProtocols); without that option the pair
// takes one of the model's weapon choices, so a model with Firing
// Protocols (X) fires two Pistols and X-1 other weapons. Which weapons is the player's choice, which the rules
// leave to them; the choice made here is the set with the highest exact
// score against target, ties going to the earlier weapons. The score is
// the mean shots times what one shot is worth by Options.WeaponChoice (a
// Master-crafted weapon's re-roll of one miss adds a shot's worth times
// the chance that the model misses at all, 1 - E[p^N]): by
// default the models' worth of damage it does (see Chain.ModelsPerShot),
// else its expected unsaved wounds; scores add up across weapons. A weapon
// that is not fired in the situation (out of range, Ordnance after
// moving, no Snap Shots) is not fired, nor is one that scores nothing
// (its Strength cannot wound the target, say) unless no weapon scores:
// then the models fire the first weapon listed that they can, so that the
// Shooting Attack is still made, its hits and Gets Hot rolled and what
// follows a Shooting Attack (Lords of Profligacy's choice, Pinning) set
// off, as the scenario asked. Ordnance
// fires alone (rulebook p.177): it is fired when it scores more alone than
// the weapons it would stop together (on a tie, when it is listed before
// the best of them), else it is left out and takes no weapon's place. A
// pair of Pistols is fired in place of what the model would fire without
// the pair only when the pair's set scores more.
func (a *Attack) Select(firer *Unit, weapons []Weapon, target *Unit, o Options) []int {
	return a.selectAt(firer, weapons, target, Situation{}, o)
}

func (a *Attack) selectAt(firer *Unit, weapons []Weapon, target *Unit, s Situation, o Options) []int {
	a.score = a.score[:0]
	a.chains = a.chains[:0]
	a.fire = a.fire[:0]
	for i := range weapons {
		w := &weapons[i]
		f := w.Fire(firer, s)
		c := FiringChain(firer, w, target, f, o)
		m := a.perModel(w.shots(), f.Rolls)
		a.chains = append(a.chains, c)
		a.fire = append(a.fire, f)
		score := 0.0
		if f.Fires() {
			s := c.choiceScore(target, o)
			score = a.memo[m].mean * s
			if c.MasterCrafted {
				// Each bearer re-rolls one miss, when it has one: 1 -
				// E[p^N] more rolls, each worth a shot.
				score += (1 - a.memo[m].allHit(c.Hit.P())) * s
			}
		}
		a.score = append(a.score, score)
	}
	// The X best weapons other than Ordnance; then, where a pair of
	// Pistols fires beyond them, the two best Pistols and the X-1 best
	// others; then what Ordnance alone would do instead.
	n := max(firer.FiringProtocols, 1)
	a.picks = a.picks[:0]
	sum := a.pickBest(weapons, &a.picks, n, notOrdnance)
	a.unpick()
	if n == 1 || !o.PistolPairWithinProtocols {
		a.pair = a.pair[:0]
		if ps := a.pickBest(weapons, &a.pair, 2, isPistol); len(a.pair) == 2 {
			ps += a.pickBest(weapons, &a.pair, n-1, notOrdnance)
			if mechanics.Exceeds(ps, sum) {
				a.picks, a.pair = a.pair, a.picks
				sum = ps
			}
		}
		a.unpick()
	}
	a.sortPicks()
	if o := a.best(weapons, func(t WeaponType) bool { return t == Ordnance }); o >= 0 {
		if mechanics.Exceeds(a.score[o], sum) || (!mechanics.Exceeds(sum, a.score[o]) && (len(a.picks) == 0 || o < a.picks[0])) {
			a.picks = append(a.picks[:0], o)
		}
	}
	if len(a.picks) == 0 {
		for i := range weapons {
			if a.fire[i].Fires() {
				a.picks = append(a.picks, i)
				break
			}
		}
	}
	return a.picks
}

// pickBest appends to *picks up to k of the weapons with the highest
// positive scores among those whose type ok accepts and that are not
// picked already, best first, ties going to the earlier, and returns the
// sum of their scores. A picked weapon is marked by its score negated,
// until unpick, and so are the other profiles of its weapon
// (Weapon.Group), which a model that fires it cannot fire too.
func (a *Attack) pickBest(weapons []Weapon, picks *[]int, k int, ok func(WeaponType) bool) float64 {
	sum := 0.0
	for range k {
		best := a.best(weapons, ok)
		if best < 0 {
			break
		}
		*picks = append(*picks, best)
		sum += a.score[best]
		a.score[best] = -a.score[best]
		if g := weapons[best].Group; g != 0 {
			for i := range weapons {
				if weapons[i].Group == g && a.score[i] > 0 {
					a.score[i] = -a.score[i]
				}
			}
		}
	}
	return sum
}

// unpick clears the marks pickBest left.
func (a *Attack) unpick() {
	for i, sc := range a.score {
		a.score[i] = max(sc, -sc)
	}
}

// sortPicks puts the picks best first, ties going to the earlier weapon.
func (a *Attack) sortPicks() {
	p := a.picks
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && (mechanics.Exceeds(a.score[p[j]], a.score[p[j-1]]) || (!mechanics.Exceeds(a.score[p[j-1]], a.score[p[j]]) && p[j] < p[j-1])); j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
}

// best returns the index of the highest positive score among the weapons
// whose type ok accepts, ties going to the earlier; -1 when none.
func (a *Attack) best(weapons []Weapon, ok func(WeaponType) bool) int {
	best := -1
	for i, s := range a.score {
		if !ok(weapons[i].Type) {
			continue
		}
		if s > 0 && (best < 0 || mechanics.Exceeds(s, a.score[best])) {
			best = i
		}
	}
	return best
}

func isPistol(t WeaponType) bool    { return t == Pistol }
func notOrdnance(t WeaponType) bool { return t != Ordnance }

// Prepare sets the attack up: firer shoots at target with the weapons Select
// picks from weapons, every model firing them. It keeps no pointer to firer
// or target.
func (a *Attack) Prepare(firer *Unit, weapons []Weapon, target *Unit, o Options) {
	a.PrepareAt(firer, weapons, target, Situation{}, o)
}

// PrepareAt is Prepare for an attack made in situation s: the distance to
// the target, whether the firer moved, Snap Shots, a Reaction.
func (a *Attack) PrepareAt(firer *Unit, weapons []Weapon, target *Unit, s Situation, o Options) {
	a.selectAt(firer, weapons, target, s, o)
	a.Volleys = a.Volleys[:0]
	for _, i := range a.picks {
		a.Volleys = append(a.Volleys, Volley{Weapon: weapons[i], Index: i, Models: max(firer.Models, 0), Rolls: a.fire[i].Rolls, Chain: a.chains[i]})
	}
}

// BlocksCharge reports whether the attack stops the firing unit charging
// this turn: it fired a Heavy, Rapid Fire or Ordnance weapon.
func (a *Attack) BlocksCharge() bool {
	for i := range a.Volleys {
		if a.Volleys[i].Weapon.Type.BlocksCharge() {
			return true
		}
	}
	return false
}

// Roll resolves the attack against target, volley by volley, and applies
// the wounds to it. It does not allocate.
func (a *Attack) Roll(r *dice.Rand, target *Unit) Tally {
	var t Tally
	for i := range a.Volleys {
		t.Add(a.Volleys[i].Roll(r, target))
	}
	return t
}

// Expected is the exact expected count at stage s over the whole attack.
func (a *Attack) Expected(s Stage) float64 {
	e := 0.0
	for i := range a.Volleys {
		v := &a.Volleys[i]
		if s == StageShots {
			e += float64(v.Models) * a.memo[a.perModel(v.Weapon.shots(), v.rolls())].mean
			continue
		}
		_, hits := a.totalHits(v)
		mean := 0.0
		for h, p := range hits {
			mean += float64(h) * p
		}
		e += mean * v.Chain.perHit(s)
	}
	return e
}

// ExpectedHot is the exact expected number of Gets Hot wounds the firing
// unit suffers in the attack.
func (a *Attack) ExpectedHot() float64 {
	e, _ := a.hotMoments()
	return e
}

// hotMoments is the mean and the variance of the Gets Hot wounds the
// firing unit suffers in the attack, summed over its bearers, whose To Hit
// rolls are independent. Without
// Master-crafted each of a bearer's N rolls (its shots) gives a wound with
// chance q = PHot, so the bearer's count has variance E[N]q(1-q) +
// q^2 Var N.
func (a *Attack) hotMoments() (mean, variance float64) {
	for i := range a.Volleys {
		v := &a.Volleys[i]
		c := &v.Chain
		if !c.GetsHot || (c.AutoHits == 0 && !c.WallOfDeath && c.Hit.Need >= Impossible) {
			continue // no Gets Hot, or no shot rolled
		}
		m := &a.memo[a.perModel(v.Weapon.shots(), v.rolls())]
		models := float64(v.Models)
		if !c.MasterCrafted {
			q := c.PHot()
			mean += models * m.mean * q
			shots2 := 0.0 // E[N^2]
			for j, ps := range m.p {
				n := float64(m.min + j)
				shots2 += ps * n * n
			}
			variance += models * (m.mean*q*(1-q) + q*q*(shots2-m.mean*m.mean))
			continue
		}
		ones, ones2 := masterCraftedOnes(m, c.Hit.P())
		h := c.hotThrough()
		mean += models * ones * h
		// Each 1 it ends with is a wound with chance h: given K ones, a
		// Binomial(K, h).
		variance += models * (h*(1-h)*ones + h*h*(ones2-ones*ones))
	}
	return mean, variance
}

// mitigatedMoments is the mean and the mean square of the wounds the
// attack's Damage Mitigation rolls ignore (unsaved wounds not suffered),
// Deflagrate's included. Each hit's wounds are rolled apart from every
// other hit's, so a volley's count is a sum of like terms M over its hits
// H, of variance E[H] Var M + Var H E[M]^2, and volleys roll apart.
func (a *Attack) mitigatedMoments() (mean, square float64) {
	variance := 0.0
	for i := range a.Volleys {
		v := &a.Volleys[i]
		m1, m2 := v.Chain.mitigatedPerHit()
		_, hits := a.totalHits(v)
		h1, h2 := 0.0, 0.0
		for h, p := range hits {
			h1 += float64(h) * p
			h2 += float64(h*h) * p
		}
		mean += h1 * m1
		variance += h1*(m2-m1*m1) + (h2-h1*h1)*m1*m1
	}
	return mean, variance + mean*mean
}

// masterCraftedOnes is the mean and the mean square of the 1s a
// Master-crafted bearer's To Hit rolls end with, its shots of law m and
// each hitting with chance p. Its re-roll takes one miss, a 1 when there is
// one: with O 1s among s shots (Binomial(s, 1/6)) it ends with O - 1 + B
// when O > 0, B when O = 0 and some shot missed (chance (5/6)^s - p^s),
// and none otherwise, B being the re-roll's own 1 (chance 1/6). So the
// mean is s/6 - P(O > 0) + P(a miss)/6, as its square's follows.
func masterCraftedOnes(m *shotsMemo, p float64) (mean, square float64) {
	for j, ps := range m.p {
		s := m.min + j
		n := float64(s)
		mean += ps * (n/6 - (1 - pow(5.0/6, s)) + (1-pow(p, s))/6)
		// E[(O-1+B)^2; O > 0] = E[(O-1)^2 + (O-1)/3 + 1/6; O > 0], and
		// the O = 0 case adds P(O = 0, a miss)/6.
		sq := (pow(5.0/6, s) - pow(p, s)) / 6
		for o := 1; o <= s; o++ {
			po := binomialPMF(s, o, 1.0/6)
			k := float64(o - 1)
			sq += po * (k*k + k/3 + 1.0/6)
		}
		square += ps * sq
	}
	return mean, square
}

func pow(x float64, n int) float64 {
	p := 1.0
	for range n {
		p *= x
	}
	return p
}

// PConcussed is the exact probability that a Concussive (X) weapon of the
// attack wounds the target at least once, saved or not.
func (a *Attack) PConcussed() float64 {
	none := 1.0
	for i := range a.Volleys {
		v := &a.Volleys[i]
		if v.Chain.Concussive == 0 {
			continue
		}
		none *= a.volleyDist(v, StageWounds).At(0)
	}
	return 1 - none
}

// PConcussedAlive is the exact probability that a Concussive (X) weapon of
// the attack wounds target (saved or not) and the target has models left
// after the attack, the case in which it takes the Concussive test. A
// volley that wounds nothing changes nothing, so P(no Concussive wound and
// models left) is P(no Concussive wound) times P(models left) under the
// other volleys alone. It allocates.
func (a *Attack) PConcussedAlive(target *Unit) float64 {
	none := 1.0
	rest := &Attack{}
	for i := range a.Volleys {
		v := &a.Volleys[i]
		if v.Chain.Concussive == 0 {
			rest.Volleys = append(rest.Volleys, *v)
			continue
		}
		none *= a.volleyDist(v, StageWounds).At(0)
	}
	if none == 1 {
		return 0
	}
	alive := 1 - a.Casualties(target).At(max(target.Models, 0))
	aliveRest := 1 - rest.Casualties(target).At(max(target.Models, 0))
	a.steps += rest.steps
	return max(alive-none*aliveRest, 0)
}

// Dist is the exact distribution of the attack's count at stage s: the sum
// of the volleys' counts, each a compound of the hits it scores and what
// each hit leads to.
func (a *Attack) Dist(s Stage) dice.Dist {
	out := dice.Point(0)
	for i := range a.Volleys {
		out = out.Add(a.volleyDist(&a.Volleys[i], s))
	}
	return out
}

func (a *Attack) volleyDist(v *Volley, s Stage) dice.Dist {
	if s == StageShots {
		lo, p := a.totalShots(v)
		return trim(append([]float64(nil), shift(lo, p)...))
	}
	lo, hits := a.totalHits(v)
	g := v.Chain.hitCount(s)
	acc := []float64{}
	// g convolved h times, in two buffers of the largest power's length
	// taken in turn: a volley of thousands of hits would otherwise make
	// as many slices, each longer than the last.
	most := (lo+len(hits))*(len(g)-1) + 1
	pow, next := make([]float64, 1, most), make([]float64, 0, most)
	pow[0] = 1
	for h := 0; h < lo+len(hits); h++ {
		if h >= lo && hits[h-lo] != 0 {
			acc = addScaled(acc, pow, hits[h-lo])
			a.steps += float64(len(pow))
		}
		a.steps += float64(len(pow) * len(g))
		if h+1 < lo+len(hits) {
			next = convolveInto(next, pow, g)
			pow, next = next, pow
		}
	}
	if len(acc) == 0 {
		return dice.Point(0)
	}
	return trim(acc)
}

// shift returns p padded with lo zeros in front.
func shift(lo int, p []float64) []float64 {
	out := make([]float64, lo+len(p))
	copy(out[lo:], p)
	return out
}

func addScaled(acc, d []float64, w float64) []float64 {
	for len(acc) < len(d) {
		acc = append(acc, 0)
	}
	for i, x := range d {
		acc[i] += w * x
	}
	return acc
}

func convolve(a, b []float64) []float64 {
	return convolveInto(nil, a, b)
}

// convolveInto is convolve written into dst's memory where it has room.
func convolveInto(dst, a, b []float64) []float64 {
	out := slices.Grow(dst[:0], len(a)+len(b)-1)[:len(a)+len(b)-1]
	clear(out)
	for i, x := range a {
		if x == 0 {
			continue
		}
		for j, y := range b {
			out[i+j] += x * y
		}
	}
	return out
}

// hitCount is the distribution of the count at stage s that one hit leads
// to, Deflagrate's hits and what they lead to included.
func (c *Chain) hitCount(s Stage) []float64 {
	// joint[u][k]: the hit's own count k with u unsaved wounds.
	joint := map[[2]int]float64{}
	c.eachOutcome(func(o hitOutcome) {
		k := 1
		switch s {
		case StageWounds:
			k = o.wounds
		case StageUnsaved:
			k = o.unsaved
		case StageSuffered:
			k = o.suffered
		}
		joint[[2]int{o.unsaved, k}] += o.p
	})
	var q float64
	dw, du, dk := c.deflagrateSteps()
	switch s {
	case StageHits:
		q = 1
	case StageWounds:
		q = dw
	case StageUnsaved:
		q = du
	case StageSuffered:
		q = dk
	}
	var out []float64
	for key, p := range joint {
		u, k := key[0], key[1]
		d := make([]float64, k+1)
		d[k] = 1
		if c.Deflagrate {
			for range u {
				d = convolve(d, []float64{1 - q, q})
			}
		}
		out = addScaled(out, d, p)
	}
	return out
}

// Casualties is the exact distribution of models the attack removes from
// target, the unit it was prepared against in its state before the attack,
// by a dynamic programme over (models lost, wounds on the wounded model)
// hit by hit; see casualtyStates.
func (a *Attack) Casualties(target *Unit) dice.Dist {
	st, w := a.casualtyStates(target)
	p := make([]float64, max(target.Models, 0)+1)
	for i, v := range st {
		p[i/w] += v
	}
	return trim(p)
}

// ExpectedCasualties is the exact expected number of models the attack
// removes from target, the unit it was prepared against. It does not
// allocate once the Attack's scratch space has grown to the size of the
// problem.
func (a *Attack) ExpectedCasualties(target *Unit) float64 {
	st, w := a.casualtyStates(target)
	e := 0.0
	for i, v := range st {
		e += float64(i/w) * v
	}
	return e
}

// casualtiesFrom is the exact mean and mean square of the number of
// models the attack removes from target, the unit it was prepared
// against, starting from the states in from rather than from target's
// own: from, indexed lost*W + hurt over target's models and not
// normalised, weighs each state the target may be in; the models lost
// before the attack are not counted. The programme is linear in the states
// it starts from, so the mean of the product of the models lost before
// (L) and after (L') is the programme run from the states weighed by L:
// with it E[(L'-L)^2] = E[L'^2] - 2 E[L L'] + E[L^2].
func (a *Attack) casualtiesFrom(target *Unit, from []float64) (mean, square float64) {
	models, w := max(target.Models, 0), max(target.W, 1)
	n := (models + 1) * w
	state := grow(a.st, n)
	copy(state, from)
	weighed := grow(a.st2, n)
	before, before2 := 0.0, 0.0
	for i, v := range state {
		l := float64(i / w)
		before += l * v
		before2 += l * l * v
		weighed[i] = l * v
	}
	for i := range a.Volleys {
		state = a.applyVolley(&a.Volleys[i], state, models, w)
		weighed = a.applyVolley(&a.Volleys[i], weighed, models, w)
	}
	a.st, a.st2 = state, weighed
	after, after2, cross := 0.0, 0.0, 0.0
	for i, v := range state {
		l := float64(i / w)
		after += l * v
		after2 += l * l * v
		cross += l * weighed[i]
	}
	a.steps += float64(4 * len(state))
	return after - before, after2 - 2*cross + before2
}

// FinalStates returns the exact distribution of the target's state after
// the attack, indexed lost*W + hurt (models lost, wounds on the wounded
// model), and W. The slice is scratch space, valid until the next call.
func (a *Attack) FinalStates(target *Unit) ([]float64, int) {
	return a.casualtyStates(target)
}

// totalShots returns the distribution of the shots of a volley, the sum of
// one roll per model, as a lowest value and probabilities from it; the
// slice is scratch space.
func (a *Attack) totalShots(v *Volley) (int, []float64) {
	m := &a.memo[a.perModel(v.Weapon.shots(), v.rolls())]
	cur := grow(a.shotA, 1)
	cur[0] = 1
	nxt := a.shotB
	for range v.Models {
		nxt = grow(nxt, len(cur)+len(m.p)-1)
		a.steps += float64(len(cur) * len(m.p))
		for i, x := range cur {
			if x == 0 {
				continue
			}
			for j, y := range m.p {
				nxt[i+j] += x * y
			}
		}
		cur, nxt = nxt, cur
	}
	a.shotA, a.shotB = cur, nxt
	return v.Models * m.min, cur
}

// totalHits returns the distribution of the hits of a volley, as a lowest
// value and probabilities from it; the slice is scratch space. Each model's
// hits are a mixture over its shots; Master-crafted re-rolls one miss per
// model, so the models are summed one by one.
func (a *Attack) totalHits(v *Volley) (int, []float64) {
	c := &v.Chain
	if !c.MasterCrafted {
		lo, shots := a.totalShots(v)
		a.hitB = c.shotHits(a.hitB)
		return 0, a.compound(lo, shots, a.hitB)
	}
	// One model's hits, from its shots: Bin(n, p), then a re-roll of one
	// miss when there is one.
	m := &a.memo[a.perModel(v.Weapon.shots(), v.rolls())]
	p := c.Hit.P()
	hi := m.min + len(m.p) - 1
	one := grow(a.hitB, hi+1)
	b := grow(a.acc, hi+2) // binomial(n, p), built up one shot at a time
	b[0] = 1
	for n := 0; n <= hi; n++ {
		if n >= m.min {
			if w := m.p[n-m.min]; w != 0 {
				for h := 0; h <= n; h++ {
					q := b[h]
					if h < n {
						q *= 1 - p
					}
					if h > 0 {
						q += b[h-1] * p
					}
					one[h] += w * q
				}
			}
		}
		for h := n + 1; h > 0; h-- {
			b[h] = b[h]*(1-p) + b[h-1]*p
		}
		b[0] *= 1 - p
	}
	a.hitB, a.acc = one, b
	cur := grow(a.shotA, 1)
	cur[0] = 1
	nxt := a.shotB
	for range v.Models {
		nxt = grow(nxt, len(cur)+len(one)-1)
		a.steps += float64(len(cur) * len(one))
		for i, x := range cur {
			if x == 0 {
				continue
			}
			for j, y := range one {
				nxt[i+j] += x * y
			}
		}
		cur, nxt = nxt, cur
	}
	a.shotA, a.shotB = cur, nxt
	return 0, cur
}

// compound returns the distribution of the sum of N draws from per, N
// distributed as P(N = lo+i) = pn[i], in scratch space.
func (a *Attack) compound(lo int, pn, per []float64) []float64 {
	hi := lo + len(pn) - 1
	out := grow(a.hitA, hi*(len(per)-1)+1)
	pw := grow(a.cur, len(out)) // per convolved n times
	tmp := grow(a.nxt, len(out))
	pw[0] = 1
	top := 0
	for n := 0; n <= hi; n++ {
		if n >= lo {
			if w := pn[n-lo]; w != 0 {
				for i := 0; i <= top; i++ {
					out[i] += w * pw[i]
				}
				a.steps += float64(top + 1)
			}
		}
		if n == hi {
			break
		}
		a.steps += float64((top + 1) * len(per))
		top = convolveOnce(tmp, pw, per, top)
		pw, tmp = tmp, pw
	}
	a.hitA, a.cur, a.nxt = out, pw, tmp
	return out
}

// convolveOnce sets out to the law pw (over 0..top) convolved with the law
// per, and returns the new top, top + len(per) - 1. out must hold that
// many entries and more; it may not be pw.
func convolveOnce(out, pw, per []float64, top int) int {
	clear(out[:top+len(per)])
	for i := 0; i <= top; i++ {
		if pw[i] == 0 {
			continue
		}
		for j, y := range per {
			out[i+j] += pw[i] * y
		}
	}
	return top + len(per) - 1
}

// packet is one way a hit ends, as the casualty programme sees it: the
// damage one model takes, and the unsaved wounds that score Deflagrate
// hits.
type packet struct {
	p     float64
	dmg   int
	slays bool
	u     int
}

// buildLaw returns the packets of one shot or hit of chain c in the
// Attack's scratch space, merging outcomes alike: a hit's outcomes, each
// weighted by ph, and no damage with 1-ph (ph = 1 for a hit, P(hit) for a
// shot).
func (a *Attack) buildLaw(c *Chain, ph float64) []packet {
	a.law = a.buildLawOf(c, ph, allOutcomes, a.law)
	return a.law
}

// buildLawOf is buildLaw for the outcomes of part only (a miss is among
// the others), into buf; the probabilities are not rescaled, so they sum
// to the chance of part.
func (a *Attack) buildLawOf(c *Chain, ph float64, part outcomePart, buf []packet) []packet {
	law := buf[:0]
	add := func(pk packet) {
		for i := range law {
			if l := &law[i]; l.dmg == pk.dmg && l.slays == pk.slays && l.u == pk.u {
				l.p += pk.p
				return
			}
		}
		law = append(law, pk)
	}
	if ph < 1 && part != murderousOutcomes {
		add(packet{p: 1 - ph})
	}
	c.eachOutcomeOf(part, func(o hitOutcome) {
		pk := packet{p: o.p * ph, dmg: o.dmg, slays: o.slays}
		switch {
		case a.countLost:
			// The Wounds lost depend on the state the hit lands on:
			// hitStep counts them.
		case a.countSuffered:
			pk.u = o.suffered
		case c.Deflagrate:
			pk.u = o.unsaved
		}
		if pk.slays {
			pk.dmg = 1
		}
		add(pk)
	})
	return law
}

// singleWound reports whether law is at most "no damage" and "one wound
// (or a slaying one)", and returns the probability of the wound: the
// packets the programme's fast step handles.
func singleWound(law []packet) (q float64, slays, ok bool) {
	for _, pk := range law {
		switch {
		case pk.u != 0:
			return 0, false, false
		case pk.dmg == 0 && !pk.slays:
		case pk.dmg == 1 && q == 0:
			q, slays = pk.p, pk.slays
		default:
			return 0, false, false
		}
	}
	return q, slays, true
}

// casualtyStates runs the casualty programme for target and returns the
// probabilities of the final states, indexed lost*w + hurt, and w.
//
// Volley by volley, the programme takes the exact distribution of the
// volley's hits and applies them one at a time, each hit ending as one of
// its packets (no damage; d wounds on the wounded model, the rest lost when
// it is removed; or the model slain). With Deflagrate it also counts the
// unsaved wounds so far, and once the volley's hits are done applies that
// many Deflagrate hits.
func (a *Attack) casualtyStates(target *Unit) ([]float64, int) {
	models, w := max(target.Models, 0), max(target.W, 1)
	n := (models + 1) * w
	state := grow(a.st, n)
	if models > 0 {
		state[min(max(target.Hurt, 0), w-1)] = 1
	} else {
		state[0] = 1
	}
	for i := range a.Volleys {
		state = a.applyVolley(&a.Volleys[i], state, models, w)
	}
	a.st = state
	return state, w
}

// applyVolley applies volley v's hits to the states in state (size n) and
// returns the new states, reusing state's storage.
func (a *Attack) applyVolley(v *Volley, state []float64, models, w int) []float64 {
	n := len(state)
	c := &v.Chain
	// Shot by shot where each shot is at most one hit, rolled alone (no
	// Master-crafted): the hit's chance folds into the shot's packets.
	// Otherwise hit by hit, over the exact distribution of the hits.
	var lo int
	var hits []float64
	var law []packet
	ph := 1.0
	if !c.MasterCrafted && c.AutoHits == 0 && !c.WallOfDeath {
		lo, hits = a.totalShots(v)
		ph = c.meanShotHits()
	} else {
		lo, hits = a.totalHits(v)
	}
	law = a.buildLaw(c, ph)
	q, slays, single := singleWound(law)
	hiHits := lo + len(hits) - 1
	slabs := 1
	switch {
	case a.countLost:
		slabs = min(hiHits*c.maxLostPerHit(w), models*w) + 1
		single = false
	case c.Deflagrate || a.countSuffered:
		slabs = hiHits*max(c.Brutal, 1) + 1
		single = false
	}
	cur := grow(a.cur, n*slabs)
	nxt := grow(a.nxt, n*slabs)
	acc := grow(a.acc, n*slabs)
	copy(cur, state)
	if c.Murderous > 0 && w > 1 && a.splitMurderous(c, ph, 0) {
		// Murderous Strike's wounds land first; against one-Wound models
		// the order changes nothing (see Chain.murderousFirst).
		acc, cur, nxt = a.murderousFirst(lo, hits, cur, nxt, acc, n, models, w)
	} else {
		for k := 0; ; k++ {
			if k >= lo {
				if wk := hits[k-lo]; wk != 0 {
					for j, x := range cur {
						acc[j] += wk * x
					}
					a.steps += float64(len(cur))
				}
			}
			if k >= hiHits {
				break
			}
			if single {
				a.steps += float64(woundStep(cur, nxt, q, slays, models, w))
			} else {
				a.steps += float64(hitStep(cur, nxt, law, n, models, w, a.countLost))
			}
			cur, nxt = nxt, cur
		}
	}
	if a.countSuffered {
		a.joint = append(a.joint[:0], acc...)
		a.cur, a.nxt, a.acc = cur, nxt, acc
		return state
	}
	if slabs > 1 {
		a.steps += float64(deflagrateSlabs(c, acc, nxt[:n], n, models, w))
	}
	copy(state, acc[:n])
	a.cur, a.nxt, a.acc = cur, nxt, acc
	return state
}

// deflagrateSlabs applies the Deflagrate hits of chain c to the states in
// acc, slab u of n states having u of them to come, leaving the result in
// its first slab; tmp (n states) is scratch. From the top down, one hit is
// applied to slab u and the result moved to slab u-1. It returns its
// steps.
func deflagrateSlabs(c *Chain, acc, tmp []float64, n, models, w int) (steps int) {
	_, _, dq := c.deflagrateSteps()
	one := [2]packet{{p: 1 - dq}, {p: dq, dmg: 1, slays: c.Defl.Slays}}
	for u := len(acc)/n - 1; u > 0; u-- {
		steps += hitStep(acc[u*n:(u+1)*n], tmp, one[:], n, models, w, false) + n
		for j := range n {
			acc[(u-1)*n+j] += tmp[j]
		}
	}
	return steps
}

// splitMurderous builds the packets of one shot (or hit, ph = 1) of chain
// c in two laws, those of Murderous Strike's wounds (a.lawM) and the others
// (a.lawR), each rescaled to sum to 1, and their chances (a.pM, 1 - a.pM).
// It reports false when either is impossible, and with it the order of
// the two. lessMiss is taken off the chance of a shot doing nothing first
// (a shot whose Gets Hot wound is counted apart; see hotSteps).
func (a *Attack) splitMurderous(c *Chain, ph, lessMiss float64) bool {
	a.lawM = a.buildLawOf(c, ph, murderousOutcomes, a.lawM)
	a.lawR = a.buildLawOf(c, ph, otherOutcomes, a.lawR)
	if lessMiss > 0 {
		lessNoDamage(a.lawR, lessMiss)
	}
	pM, pR := 0.0, 0.0
	for _, pk := range a.lawM {
		pM += pk.p
	}
	for _, pk := range a.lawR {
		pR += pk.p
	}
	if pM == 0 || pR == 0 {
		return false
	}
	for i := range a.lawM {
		a.lawM[i].p /= pM
	}
	for i := range a.lawR {
		a.lawR[i].p /= pR
	}
	a.pM = pM / (pM + pR)
	return true
}

// murderousFirst applies a volley's shots (or hits), P(H = lo+i) =
// hits[i], to the states in s0 with Murderous Strike's wounds saved and
// applied before the others (rulebook p.243), and returns the final
// states and two spare buffers; s0, tmp and acc (each of len(s0)) are its
// storage.
//
// Each shot is Murderous with chance pM, independently, so of H shots m
// are with chance Bin(m; H, pM); they land first, then the r = H - m
// others. With TM and TR one step of a.lawM and of a.lawR, the result is
// the sum over r of TR^r Q_r, where Q_r is the sum over m of P(H = m+r)
// Bin(m; m+r, pM) TM^m s0. Horner's scheme in r, from the highest down
// (acc = TR acc + Q_r), needs TM^m s0 for the m of one r at a time, a
// window of len(hits) of them, the next computed as r falls: with a fixed
// number of shots, one.
func (a *Attack) murderousFirst(lo int, hits, s0, tmp, acc []float64, n, models, w int) (out, spare1, spare2 []float64) {
	size := len(s0)
	width := len(hits)
	hi := lo + width - 1
	ring := grow(a.ring, width*size)
	a.ring = ring
	slot := func(m int) []float64 { i := m % width; return ring[i*size : (i+1)*size] }
	copy(slot(0), s0)
	next := s0 // free once copied: the buffer for TM's step
	top := 0   // the highest m with TM^m s0 in the ring
	clear(acc)
	for r := hi; r >= 0; r-- {
		if r < hi {
			a.steps += float64(hitStep(acc, tmp, a.lawR, n, models, w, a.countLost))
			acc, tmp = tmp, acc
		}
		for ; top < hi-r; top++ {
			a.steps += float64(hitStep(slot(top), next, a.lawM, n, models, w, a.countLost) + size)
			copy(slot(top+1), next)
		}
		for m := max(0, lo-r); m <= hi-r; m++ {
			wt := hits[m+r-lo] * binomialPMF(m+r, m, a.pM)
			if wt == 0 {
				continue
			}
			for j, x := range slot(m) {
				acc[j] += wt * x
			}
			a.steps += float64(size)
		}
	}
	return acc, tmp, next
}

// hitStep advances the states in cur by one hit ending as one of law's
// packets, into nxt. cur and nxt hold slabs of n states, slab u for u
// unsaved wounds so far; a packet's unsaved wounds move it up that many
// slabs, or with lost the Wounds it takes off the model it lands on (all
// the model had left when it removes it; none once every model is lost).
// Once every model is lost the state stays put. It returns its steps:
// the states visited and the packets applied.
func hitStep(cur, nxt []float64, law []packet, n, models, w int, lost bool) (steps int) {
	clear(nxt)
	dead := models * w
	slabs := len(cur) / n
	steps = len(cur)
	for i, x := range cur {
		if x == 0 {
			continue
		}
		steps += len(law)
		s, u := i%n, i/n
		for _, pk := range law {
			j, up := s, pk.u
			if lost {
				up = 0
			}
			if s < dead && (pk.dmg > 0 || pk.slays) {
				if left := w - s%w; pk.slays || pk.dmg >= left {
					j = (s/w + 1) * w
					if lost {
						up = left
					}
				} else {
					j = s + pk.dmg
					if lost {
						up = pk.dmg
					}
				}
			}
			nxt[min(u+up, slabs-1)*n+j] += x * pk.p
		}
	}
	return steps
}

// woundStep advances the casualty states by one shot that inflicts a wound
// with probability q. A wound goes onto the wounded model; it is removed when
// its wounds run out, or at once by a slaying wound. Once every model is
// lost the state stays put. It returns its steps, the states visited.
func woundStep(cur, nxt []float64, q float64, slays bool, models, w int) int {
	clear(nxt)
	dead := models * w
	for i, x := range cur {
		if x == 0 {
			continue
		}
		if i >= dead {
			nxt[i] += x
			continue
		}
		nxt[i] += x * (1 - q)
		j := i + 1
		if slays || i%w == w-1 {
			j = (i/w + 1) * w
		}
		nxt[j] += x * q
	}
	return len(cur)
}

// grow returns buf resized to n and cleared, reusing its storage.
func grow(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// Candidate is an enemy unit a unit may shoot, as the Sentry Protocols
// rule sees it.
type Candidate struct {
	// Distance is from the closest of its models in line of sight to any
	// model of the attacking unit.
	Distance float64
	// Visible: at least one of its models is in line of sight.
	Visible bool
}

// ClosestTarget returns the index of the enemy unit a unit with Sentry
// Protocols must shoot: the one whose closest model in line of sight is
// nearest (rule text). Equal distances are tied and settled by o.Ties; r is
// used only by TieRandom and may be nil otherwise. It returns -1 when no
// candidate is visible. It does not allocate.
func ClosestTarget(r *dice.Rand, cands []Candidate, o Options) int {
	best, ties := -1, 0
	for i, c := range cands {
		switch {
		case !c.Visible:
		case best < 0 || c.Distance < cands[best].Distance:
			best, ties = i, 1
		case c.Distance == cands[best].Distance:
			ties++
		}
	}
	if ties <= 1 || o.Ties != TieRandom {
		return best
	}
	pick := r.IntN(ties)
	for i := best; i < len(cands); i++ {
		if cands[i].Visible && cands[i].Distance == cands[best].Distance {
			if pick == 0 {
				return i
			}
			pick--
		}
	}
	return best
}
