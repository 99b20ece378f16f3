package heresy

import "hammersim/mechanics/dice"

// Volley is one weapon fired by every firing model of a unit in a Shooting
// Attack.
type Volley struct {
	Weapon Weapon
	// Index is the weapon's place in the list given to Attack.Prepare.
	Index int
	// Models is how many models fire it.
	Models int
	Chain  Chain
}

// Roll rolls the volley's shots, one roll of Weapon.Shots per model (a
// negative roll fires none), and resolves them against target.
func (v *Volley) Roll(r *dice.Rand, target *Unit) Tally {
	shots := v.Weapon.shots()
	n := 0
	for range v.Models {
		n += max(shots.Roll(r), 0)
	}
	return v.Chain.Roll(r, n, target)
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
	score  []float64
	chains []Chain
	memo   []shotsMemo
	// shotA and shotB hold a volley's shot distribution; cur, nxt and acc
	// the casualty programme's states.
	shotA, shotB  []float64
	cur, nxt, acc []float64
}

// shotsMemo is the distribution of one dice expression of shots, kept so
// that exact expectations need not rebuild it.
type shotsMemo struct {
	text string
	min  int
	p    []float64
	mean float64
}

// perModel returns the memo of the shots one model fires with expression e.
func (a *Attack) perModel(e dice.Expr) int {
	text := e.String()
	for i := range a.memo {
		if a.memo[i].text == text {
			return i
		}
	}
	d := nonNegative(e.Dist())
	a.memo = append(a.memo, shotsMemo{text: text, min: d.Min, p: d.P, mean: d.Mean()})
	return len(a.memo) - 1
}

// Select picks the weapons each model of firer fires at target and returns
// their indices in weapons, best first; the slice is reused by the next
// call.
//
// A model fires one weapon, or with Firing Protocols (X) up to X different
// weapons, never one weapon twice (seed text). The choice is the weapons
// with the highest exact expected unsaved wounds against target (mean shots
// times P(unsaved) per shot), ties going to the earlier weapon. A weapon
// that cannot cause an unsaved wound is not fired.
func (a *Attack) Select(firer *Unit, weapons []Weapon, target *Unit, o Options) []int {
	a.score = a.score[:0]
	a.chains = a.chains[:0]
	for i := range weapons {
		c := ShootingChain(firer, &weapons[i], target, o)
		m := a.perModel(weapons[i].shots())
		a.chains = append(a.chains, c)
		a.score = append(a.score, a.memo[m].mean*c.P(StageUnsaved))
	}
	a.picks = a.picks[:0]
	for range max(firer.FiringProtocols, 1) {
		best := -1
		for i, s := range a.score {
			if s > 0 && (best < 0 || s > a.score[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		a.picks = append(a.picks, best)
		a.score[best] = -1 // fired once already
	}
	return a.picks
}

// Prepare sets the attack up: firer shoots at target with the weapons Select
// picks from weapons, every model firing them. It keeps no pointer to firer
// or target.
func (a *Attack) Prepare(firer *Unit, weapons []Weapon, target *Unit, o Options) {
	a.Select(firer, weapons, target, o)
	a.Volleys = a.Volleys[:0]
	for _, i := range a.picks {
		a.Volleys = append(a.Volleys, Volley{Weapon: weapons[i], Index: i, Models: max(firer.Models, 0), Chain: a.chains[i]})
	}
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
		e += float64(v.Models) * a.memo[a.perModel(v.Weapon.shots())].mean * v.Chain.P(s)
	}
	return e
}

// Dist is the exact distribution of the attack's count at stage s: the sum
// of the volleys' counts, each a mixture of binomials over its shots.
func (a *Attack) Dist(s Stage) dice.Dist {
	out := dice.Point(0)
	for i := range a.Volleys {
		v := &a.Volleys[i]
		lo, p := a.totalShots(v)
		out = out.Add(binomialMixture(lo, p, v.Chain.P(s)))
	}
	return out
}

// Casualties is the exact distribution of models the attack removes from
// target, the unit it was prepared against in its state before the attack, by a dynamic programme
// over (models lost, wounds on the wounded model) shot by shot; a slaying
// wound removes the model it lands on, the wounded one first.
func (a *Attack) Casualties(target *Unit) dice.Dist {
	st, w := a.casualtyStates(target)
	p := make([]float64, max(target.Models, 0)+1)
	for i, v := range st {
		p[i/w] += v
	}
	return trim(p)
}

// ExpectedCasualties is the exact expected number of models the attack
// removes from target, the unit it was prepared against. It does not allocate once the Attack's scratch space
// has grown to the size of the problem.
func (a *Attack) ExpectedCasualties(target *Unit) float64 {
	st, w := a.casualtyStates(target)
	e := 0.0
	for i, v := range st {
		e += float64(i/w) * v
	}
	return e
}

// totalShots returns the distribution of the shots of a volley, the sum of
// one roll per model, as a lowest value and probabilities from it; the
// slice is scratch space.
func (a *Attack) totalShots(v *Volley) (int, []float64) {
	m := &a.memo[a.perModel(v.Weapon.shots())]
	cur := grow(a.shotA, 1)
	cur[0] = 1
	nxt := a.shotB
	for range v.Models {
		nxt = grow(nxt, len(cur)+len(m.p)-1)
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

// casualtyStates runs the casualty programme for target and returns the
// probabilities of the final states, indexed lost*w + hurt, and w.
func (a *Attack) casualtyStates(target *Unit) ([]float64, int) {
	models, w := max(target.Models, 0), max(target.W, 1)
	n := (models + 1) * w
	cur := grow(a.cur, n)
	nxt := grow(a.nxt, n)
	acc := grow(a.acc, n)
	if models > 0 {
		cur[min(max(target.Hurt, 0), w-1)] = 1
	} else {
		cur[0] = 1
	}
	for i := range a.Volleys {
		v := &a.Volleys[i]
		q := v.Chain.P(StageSuffered)
		if q == 0 {
			continue
		}
		lo, ps := a.totalShots(v)
		hi := lo + len(ps) - 1
		clear(acc)
		for k := 0; ; k++ {
			if k >= lo {
				if wk := ps[k-lo]; wk != 0 {
					for j, x := range cur {
						acc[j] += wk * x
					}
				}
			}
			if k >= hi {
				break
			}
			woundStep(cur, nxt, q, v.Chain.Slays, models, w)
			cur, nxt = nxt, cur
		}
		cur, acc = acc, cur
	}
	a.cur, a.nxt, a.acc = cur, nxt, acc
	return cur, w
}

// woundStep advances the casualty states by one shot that inflicts a wound
// with probability q. A wound goes onto the wounded model; it is removed when
// its wounds run out, or at once by a slaying wound. Once every model is
// lost the state stays put.
func woundStep(cur, nxt []float64, q float64, slays bool, models, w int) {
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
// nearest (seed text). Equal distances are tied and settled by o.Ties; r is
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
