package fantasy

import (
	"slices"

	"hammersim/mechanics/dice"
)

// MaxCombatWork bounds the steps the closed form of a combat may take
// (exactCombat, over all its rounds; a step: one term of one distribution
// passed on, one cell of one allocated), a quarter to half a second: a
// scenario's closed forms are worked out as it is read, before any trial,
// point by point. A combat past it has no closed form; the trials alone
// answer. MaxScenarioCombatWork bounds a scenario's points together, so
// that a sweep of heavy combats still reads in a second or two.
const (
	MaxCombatWork         = 8e7
	MaxScenarioCombatWork = 4 * MaxCombatWork
)

// maxGridCells bounds the distributions of the wounds both sides have
// taken that a combat's closed form keeps (a grid of the wounds each may
// take, 8 bytes a cell, a few grids at once): two units of 1,000 models of
// one Wound are within it, and units of 1,000 models of 20 Wounds, 20,000
// wounds each, far past it, have no closed form rather than gigabytes of
// grid.
const maxGridCells = 1 << 20

// roundEnds is a distribution of the wounds each side has taken: p[a][t]
// is the chance that the acting unit has taken a wounds and its opponent
// t (counted from a round's start, for a round's ends; from the combat's,
// for the combats going on). The wounds fix what they leave of each unit
// (UnitState.wound puts every wound on the body that dies next), and so
// the combat result, which counts the wounds each side caused. A row is
// made when first written, and hi bounds what was written, so that a
// distribution that covers a corner of the grid costs that corner alone.
type roundEnds struct {
	p    [][]float64 // nil rows hold nothing
	cols int         // the length of a row
	hi   [2]int      // p[a][t] is 0 where a > hi[0] or t > hi[1]
}

// newEnds is an empty distribution over rows by cols cells.
func newEnds(rows, cols int) roundEnds {
	return roundEnds{p: make([][]float64, rows), cols: cols, hi: [2]int{-1, -1}}
}

// add adds q to p[a][t], and returns the cells it had to make.
func (e *roundEnds) add(a, t int, q float64) int {
	made := 0
	if e.p[a] == nil {
		e.p[a] = make([]float64, e.cols)
		made = e.cols
	}
	e.p[a][t] += q
	e.hi[0], e.hi[1] = max(e.hi[0], a), max(e.hi[1], t)
	return made
}

// each calls f with every cell that has a chance, row by row, until f
// returns false; it returns the cells it read (those up to hi of every
// row made) and whether it went through them all.
func (e *roundEnds) each(f func(a, t int, q float64) bool) (read int, all bool) {
	for a, row := range e.p[:e.hi[0]+1] {
		if row == nil {
			continue
		}
		read += e.hi[1] + 1
		for t, q := range row[:e.hi[1]+1] {
			if q != 0 && !f(a, t, q) {
				return read, false
			}
		}
	}
	return read, true
}

// divide divides every chance by d.
func (e *roundEnds) divide(d float64) {
	for _, row := range e.p {
		for i := range row {
			row[i] /= d
		}
	}
}

// roundCalc works out a round's ends: the units as the round starts, its
// plan, and the steps spent so far.
type roundCalc struct {
	b     *Battle
	units [2]*Unit
	start [2]UnitState
	plan  *roundPlan
	first bool
	work  float64 // steps taken
	limit float64 // steps allowed
	// refused: the round is known to take more than limit before it is
	// worked out.
	refused bool
	memo    *roundMemo   // what the combat's rounds have worked out already
	states  [2]UnitState // scratch: a unit as some wounds leave it
	// opening: the acting unit's opening hits in the round (Impact Hits,
	// a Grind Attack) and the wounds they do, in the mean.
	opening [2]float64
}

// roundMemo keeps, for a combat's rounds, what a strike group's attacks
// come to where the units stand alike for it (the same plan, models in
// contact and behind them, and the same champion's or Stomp's case): the
// attacks' distribution, and for blows of one wound each, that of the
// wounds they do. Rounds from the many ends of the one before meet the
// same few cases again and again.
type roundMemo struct {
	m map[memoKey]*memoEntry
}

type memoKey struct {
	plan                 *roundPlan
	group, front, behind int
	flag                 bool
}

type memoEntry struct {
	counts, wounds dice.Dist
	woundsSet      bool
}

// exactRound is the distribution of the wounds the round of combat plan
// takes from each unit, from states as the round starts, as fight rolls
// them: both sides' opening hits, then the strike groups a step of
// Initiative at a time, each step's attacks counted before any of its
// blows land. It returns the acting unit's opening hits and the wounds
// they do, in the mean (what impact_hits and impact_wounds count), the
// steps it took, and false when the round would take more than limit.
func (b *Battle) exactRound(units [2]*Unit, states [2]*UnitState, plan *roundPlan, first bool, limit float64, memo *roundMemo) (ends roundEnds, opening [2]float64, work float64, ok bool) {
	c := roundCalc{b: b, units: units, start: [2]UnitState{*states[0], *states[1]}, plan: plan, first: first, limit: limit, memo: memo}
	ends = c.openingHits()
	if c.refused {
		return ends, c.opening, c.work, false
	}
	n := plan.n
	for start := 0; start < n && c.work <= limit; {
		end := plan.stepEnd(start)
		ends = c.step(ends, start, end)
		start = end
	}
	return ends, c.opening, c.work, c.work <= limit
}

// stepEnd is the end of the step of Initiative that starts with strike
// group start: the groups from it that share its band and Initiative
// strike at once. fight's loop (combat.go) groups them the same way.
func (p *roundPlan) stepEnd(start int) int {
	end := start + 1
	for end < p.n && p.groups[end].band == p.groups[start].band && p.groups[end].init == p.groups[start].init {
		end++
	}
	return end
}

// at sets the scratch states to the units as a and t wounds leave them.
func (c *roundCalc) at(a, t int) [2]*UnitState {
	for side, w := range [2]int{a, t} {
		c.states[side] = c.start[side]
		c.states[side].wound(c.units[side], w)
	}
	return [2]*UnitState{&c.states[0], &c.states[1]}
}

// openingHits: the opening hits of both sides (impactHits), counted from
// the units as the round starts and landing together; the round's ends
// after them.
func (c *roundCalc) openingHits() roundEnds {
	states := c.at(0, 0)
	var wounds [2]dice.Dist
	for side := range 2 {
		wounds[side] = dice.Point(0)
		u, us := c.units[side], states[side]
		e, es := c.units[1-side], states[1-side]
		if us.Alive == 0 || us.Fled || es.Alive == 0 {
			continue
		}
		models := c.plan.contact(side, u, us.Alive, e, es.Alive)
		impact := c.first && us.Charged && !u.Impact.IsZero()
		grind := u.GrindAttack && !(c.first && us.Charged)
		if most := openingMost(u, models, c.plan.face[side], us.Alive); (impact || grind) && float64(most)*float64(most) > c.limit {
			// Adding up and thinning hits that many takes longer than the
			// whole budget: known before it is spent.
			c.refused = true
			return newEnds(1, 1)
		}
		hits := dice.Point(0)
		switch {
		case impact:
			for range models {
				hits = hits.Add(u.Impact.Dist())
			}
			d3 := dice.Dice(1, 3).Dist()
			for range chariotsBehind(u, c.plan.face[side], us.Alive, models) {
				hits = hits.Add(d3)
			}
		case grind:
			d3plus := dice.Dice(1, 3).Dist().Shift(grindExtra(u, &c.b.Options))
			for range models {
				hits = hits.Add(d3plus)
			}
		}
		wounds[side] = thin(hits, unsaved(&c.plan.hits[side]))
		c.work += float64(len(hits.P) * len(hits.P))
		if side == 0 {
			c.opening[0] = hits.Mean()
		}
	}
	out := c.empty()
	for i, pa := range wounds[1].P { // the wounds the acting unit takes
		for j, pt := range wounds[0].P {
			a, t := min(wounds[1].Min+i, c.room(0)), min(wounds[0].Min+j, c.room(1))
			c.work += float64(out.add(a, t, pa*pt))
			c.opening[1] += pa * pt * float64(t)
		}
	}
	return out
}

// openingMost is the most opening hits (Impact Hits, or a Grind
// Attack's D3+1) the models of u in contact may make, with the chariots
// behind them.
func openingMost(u *Unit, models int, f Facing, alive int) int {
	per := max(u.Impact.Max(), 5) // a Grind Attack's D3+1, with Scythes' +1
	return models*per + 3*chariotsBehind(u, f, alive, models)
}

// unsaved is the chance that one hit of b that needs no roll to hit is an
// unsaved wound: it wounds, then fails the armour save and the ward.
func unsaved(b *blows) float64 {
	return pass(b.wound) * (1 - pass(b.armour)) * (1 - pass(b.ward))
}

// pass is the chance that a D6 scores need or more (none beyond 6).
func pass(need int) float64 {
	switch {
	case need > 6:
		return 0
	case need < 2:
		return 1
	}
	return float64(7-need) / 6
}

// empty is a distribution of the round's ends, all zero: the wounds each
// side may take, up to all it has left.
func (c *roundCalc) empty() roundEnds {
	c.work += float64(c.room(0) + 1)
	return newEnds(c.room(0)+1, c.room(1)+1)
}

// step plays the strike groups plan.groups[start:end], one step of
// Initiative, from each end so far: every group's attacks counted from the
// units as the step starts, then each group's blows landing in turn. Given
// the units at the step's start, the wounds the acting unit's groups add
// to its opponent and those the opponent's groups add to it are
// independent: each side's blows depend on its own count, fixed at the
// start, and on the enemy's wounds, which only its own blows change.
func (c *roundCalc) step(ends roundEnds, start, end int) roundEnds {
	out := c.empty()
	read, _ := ends.each(func(a, t int, p float64) bool {
		states := c.at(a, t)
		var counts [maxGroups]*memoEntry
		for i := start; i < end; i++ {
			counts[i] = c.attacks(i, states)
		}
		// taken[side]: the wounds side has taken, as the step's blows on it
		// land.
		var taken [2][]float64
		for side, w := range [2]int{a, t} {
			taken[side] = make([]float64, c.room(side)+1)
			taken[side][w] = 1
		}
		for i := start; i < end; i++ {
			g := &c.plan.groups[i]
			target := 1 - g.side
			taken[target] = c.land(taken[target], g, &c.plan.blows[i], counts[i], target)
		}
		c.work += float64(len(taken[0]) + len(taken[1]))
		for a2, pa := range taken[0] {
			if pa == 0 {
				continue
			}
			for t2, pt := range taken[1] {
				if pt != 0 {
					c.work += float64(out.add(a2, t2, p*pa*pt))
				}
			}
			c.work += float64(len(taken[1]))
		}
		return c.work <= c.limit
	})
	c.work += float64(read)
	return out
}

// room is the wounds side may take in the round: all it has left as the
// round starts.
func (c *roundCalc) room(side int) int { return c.start[side].remaining(c.units[side]) }

// attacks is the distribution of the attacks (or Stomp hits) strike
// group i makes this step, the units standing as states (fight's count,
// with countAttacks and stompCount), from the memo where it has it.
func (c *roundCalc) attacks(i int, states [2]*UnitState) *memoEntry {
	g := &c.plan.groups[i]
	u, us, e, es := c.units[g.side], states[g.side], c.units[1-g.side], states[1-g.side]
	support := c.b.Options.SupportingAttacks && !c.plan.score[g.side].denied
	front, behind := fighting(u, us, e, es, support, c.plan, g.side)
	key := memoKey{plan: c.plan, group: i, front: front, behind: behind}
	if g.attacker < 0 {
		key.flag = e.Skirmishers || (e.Troop.infantry() && es.Alive == 1)
	} else {
		key.flag = g.rearChampion && us.Alive > u.Width
	}
	if m, ok := c.memo.m[key]; ok {
		c.work += float64(len(m.counts.P))
		return m
	}
	m := &memoEntry{counts: c.count(g, key)}
	c.memo.m[key] = m
	return m
}

// count works out the attacks of group g where the units stand as key
// says.
func (c *roundCalc) count(g *strikeGroup, key memoKey) dice.Dist {
	front, behind := key.front, key.behind
	if g.attacker < 0 {
		die := dice.Dice(1, 6).Dist()
		if key.flag {
			die = dice.Dice(1, 3).Dist()
		}
		n := dice.Point(0)
		for range front {
			n = n.Add(die)
		}
		c.work += float64(front * len(n.P) * len(die.P))
		return n
	}
	u := c.units[g.side]
	standsIn := g.standsIn
	if key.flag {
		if u.Attackers[g.attacker].Champion {
			return dice.Point(0)
		}
		standsIn = false
	}
	a := &u.Attackers[g.attacker]
	if front == 0 {
		return dice.Point(0)
	}
	models, supporters := front*a.PerBody, behind*a.PerBody
	switch {
	case a.Champion:
		models, supporters = 1, 0
	case standsIn:
		models--
	}
	per := a.A.Dist()
	if a.A.IsConst() {
		if per.Min == 0 {
			return dice.Point(0) // no attacks, so no supporting attack either
		}
		return dice.Point(models*per.Min + supporters*min(per.Min, g.capacity))
	}
	n := dice.Point(0)
	for range models {
		n = n.Add(per)
	}
	if g.capacity <= 1 {
		n = n.Shift(supporters)
	} else {
		capped := per.Map(func(v int) int { return min(v, g.capacity) })
		for range supporters {
			n = n.Add(capped)
		}
	}
	c.work += float64((models + supporters) * len(n.P) * len(per.P))
	return n
}

// land is the distribution of the wounds the unit on side has taken once
// group g's blows b land on it, from taken, the group making a number of
// attacks distributed as m.counts (strike).
func (c *roundCalc) land(taken []float64, g *strikeGroup, b *blows, m *memoEntry, side int) []float64 {
	room := len(taken) - 1
	out := make([]float64, len(taken))
	counts := m.counts
	if counts.Max() == 0 {
		return taken
	}
	if g.attacker < 0 || b.plain() {
		// Each blow is an unsaved wound with one chance, and the wounds
		// carry from body to body: a mixture of binomials over the count,
		// capped at the room left.
		if !m.woundsSet {
			p := unsaved(b)
			if g.attacker >= 0 {
				p *= hitChance(b.hit, g.reroll)
			}
			m.wounds, m.woundsSet = thin(counts, p), true
			c.work += float64(len(m.wounds.P) * len(m.wounds.P))
		}
		w := m.wounds
		c.work += float64(len(w.P) * len(taken))
		for from, q := range taken {
			if q == 0 {
				continue
			}
			for j, pw := range w.P {
				out[min(from+w.Min+j, room)] += q * pw
			}
		}
		return out
	}
	// Killing Blow or Multiple Wounds: blow by blow, since what a wound
	// does depends on the wounds on the body it strikes. The wounds taken
	// only grow: lo stays where the first chance is, and hi moves up by at
	// most a blow's most wounds (its jump) a blow.
	law := newBlowLaw(b, c.units[side], g.reroll)
	lo, hi := 0, room
	for lo < room && taken[lo] == 0 {
		lo++
	}
	for hi > lo && taken[hi] == 0 {
		hi--
	}
	cur, nxt := slices.Clone(taken), make([]float64, len(taken))
	c.work += float64(2 * len(taken))
	for n := 0; n <= counts.Max(); n++ {
		if n > 0 {
			top := min(hi+law.jump, room)
			clear(nxt[lo : top+1])
			c.blow(cur, nxt, lo, hi, law, side)
			c.work += float64((hi-lo+1)*law.cost + top - lo + 1)
			cur, nxt, hi = nxt, cur, top
		}
		if pn := counts.At(n); pn > 0 {
			for w := lo; w <= hi; w++ {
				out[w] += pn * cur[w]
			}
			c.work += float64(hi - lo + 1)
		}
	}
	return out
}

// hitChance is the chance that one attack needing need to hit hits, with
// the re-roll rule of its group.
func hitChance(need int, reroll rerollRule) float64 {
	p := pass(need)
	switch reroll {
	case rerollFailed:
		return p + (1-p)*p
	case rerollSuccessful:
		return p * p
	}
	return p
}

// blowLaw is what one blow of a group with Killing Blow or Multiple
// Wounds does to a model it reaches (resolveHit's rolls): with chance kill
// a Killing Blow (no armour save), with chance through an ordinary
// unsaved wound of multiple wounds.
type blowLaw struct {
	kill, through   float64
	slays, oneWound bool
	multiple        dice.Dist
	jump, cost      int // the most wounds a blow does; the steps one takes a cell
}

func newBlowLaw(b *blows, e *Unit, reroll rerollRule) blowLaw {
	hit := hitChance(b.hit, reroll)
	wound := pass(b.wound)
	armourFails, wardFails := 1-pass(b.armour), 1-pass(b.ward)
	law := blowLaw{slays: b.slays, oneWound: b.oneWound, multiple: dice.Point(1)}
	if b.multiple != nil {
		law.multiple = b.multiple.Dist()
	}
	// A natural 6 to wound is a Killing Blow wherever the blow has one: it
	// wounds whatever the score needed, if any score can.
	killing := b.killing && wound > 0
	if killing {
		law.kill = hit / 6 * wardFails
	}
	// The other wounds take the armour save and the ward.
	law.through = (hit*wound - hit*pick(killing, 1.0/6)) * armourFails * wardFails
	law.jump = max(law.multiple.Max(), 1)
	if killing && law.slays {
		law.jump = max(law.jump, e.W)
	}
	law.cost = 2*len(law.multiple.P) + 4
	return law
}

// blow passes one blow of law over cur[lo..hi], the distribution of the
// wounds the unit on side has taken since the round's start, into nxt
// (zero where it may reach).
func (c *roundCalc) blow(cur, nxt []float64, lo, hi int, law blowLaw, side int) {
	e := c.units[side]
	room := len(cur) - 1
	for w := lo; w <= hi; w++ {
		p := cur[w]
		if p == 0 {
			continue
		}
		if w == room { // destroyed: no blow lands
			nxt[w] += p
			continue
		}
		// Wounds left on the body that dies next (UnitState.wound).
		onBody := e.W - (c.start[side].Damage+w)%e.W
		missed := p
		lands := func(chance float64, x int) {
			nxt[w+min(x, onBody, room-w)] += p * chance
			missed -= p * chance
		}
		switch {
		case law.kill == 0:
		case law.slays:
			lands(law.kill, onBody)
		case law.oneWound:
			lands(law.kill, 1)
		default:
			for i, px := range law.multiple.P {
				lands(law.kill*px, law.multiple.Min+i)
			}
		}
		for i, px := range law.multiple.P {
			lands(law.through*px, law.multiple.Min+i)
		}
		nxt[w] += missed
	}
}
