package dice

import (
	"strconv"
	"strings"
)

// A Query is a question about dice, as `simulate dice` answers it: either a
// number to roll ("2D6", "10D6 count 4+ reroll failures", "D66"), whose
// exact distribution Dist gives, or a condition ("2D6 >= 9 and 3D6kh2 >=
// 10"), whose exact probability Prob gives. Every comparison in a condition
// rolls its own dice: "and", "or" and "not" combine independent rolls, so
// their probabilities multiply. ParseQuery documents the syntax.
//
// A query whose exact answer would cost more than MaxExactWork steps has
// none (HasExact is false) and can only be rolled.
//
// A Query is immutable after ParseQuery and safe to share; Roll and Holds
// take the generator and allocate nothing.
type Query struct {
	text    string
	cond    *cond
	num     *sum
	noExact bool
}

// ExplodeDepth is how many extra dice one exploding die may add: a die that
// shows its highest face is rolled again and added, up to this many times.
// AnyDice's "explode" stops at the same depth by default, so answers agree
// with it, and the distribution stays finite and exact.
const ExplodeDepth = 2

// maxExactWork caps the multiply-adds spent on one query's exact
// distributions (a fraction of a second of work), so that no input runs
// unbounded: the budget of one expression's.
const maxExactWork = MaxExactWork

type cmpOp uint8

const (
	opGE cmpOp = iota
	opGT
	opLE
	opLT
	opEQ
	opNE
)

var opText = [...]string{">=", ">", "<=", "<", "=", "!="}

type condKind uint8

const (
	cmpCond condKind = iota
	andCond
	orCond
	notCond
)

// cond is a condition: a comparison of two sums, or a combination of
// conditions. p is its exact probability, worked out when parsed, and q
// the chance it fails, worked out alongside rather than as 1 - p, so that
// "not" keeps the digits of a chance close to 0.
type cond struct {
	kind condKind
	op   cmpOp
	l, r *sum
	a, b *cond
	p, q float64
}

// sum is a number rolled: parts added or subtracted, with its exact
// distribution.
type sum struct {
	parts []part
	dist  Dist
}

type partKind uint8

const (
	constPart partKind = iota
	exprPart           // dice as Expr reads them: NdS, keep or discard, Artillery, Scatter
	poolPart           // NdS with re-rolls or exploding dice, summed
	countPart          // NdS counting the dice that show target or more
	d66Part            // D66: a tens die and a units die
)

// part is one summand of a sum.
type part struct {
	kind     partKind
	neg      bool
	value    int
	expr     Expr
	n, sides int
	// reroll re-rolls, once, a die whose first roll is rerollLo..rerollHi
	// (a pool), or, for a count, a failed die (rerollFail) or a 1
	// (rerollOnes). A re-rolled die keeps its second result.
	reroll             bool
	rerollLo, rerollHi int
	rerollFail         bool
	rerollOnes         bool
	explode            bool
	target             int
}

// IsCondition reports whether q asks for a probability rather than a
// distribution.
func (q *Query) IsCondition() bool { return q.cond != nil }

// HasExact reports whether the exact answer was worked out: false when it
// would cost more than MaxExactWork steps, and then Prob and Dist mean
// nothing.
func (q *Query) HasExact() bool { return !q.noExact }

// Prob returns the exact probability of a condition (0 for a number, or
// without HasExact).
func (q *Query) Prob() float64 {
	if q.cond == nil || q.noExact {
		return 0
	}
	return q.cond.p
}

// Dist returns the exact distribution of a number (a point at 0 for a
// condition, or without HasExact).
func (q *Query) Dist() Dist {
	if q.num == nil || q.noExact {
		return Point(0)
	}
	return q.num.dist
}

// String returns the query in canonical form, as reports title it.
func (q *Query) String() string { return q.text }

// Expr returns the query as a plain dice expression, when it is one: a
// number made of constants and dice as Parse reads them, with no D66,
// re-roll, exploding die or count (so that labels such as Misfire apply,
// and ExactWork estimates its cost).
func (q *Query) Expr() (Expr, bool) {
	if q.num == nil {
		return Expr{}, false
	}
	var e Expr
	for _, pt := range q.num.parts {
		switch pt.kind {
		case constPart:
			e.terms = append(e.terms, term{kind: constTerm, value: pt.value, neg: pt.neg})
		case exprPart:
			for _, t := range pt.expr.terms {
				t.neg = t.neg != pt.neg
				e.terms = append(e.terms, t)
			}
		default:
			return Expr{}, false
		}
	}
	return e.build(), true
}

// Roll rolls a number query once (0 for a condition).
func (q *Query) Roll(r *Rand) int {
	if q.num == nil {
		return 0
	}
	return q.num.roll(r)
}

// Holds rolls a condition once and reports whether it held (false for a
// number).
func (q *Query) Holds(r *Rand) bool {
	if q.cond == nil {
		return false
	}
	return q.cond.holds(r)
}

func (c *cond) holds(r *Rand) bool {
	switch c.kind {
	case andCond:
		a, b := c.a.holds(r), c.b.holds(r)
		return a && b
	case orCond:
		a, b := c.a.holds(r), c.b.holds(r)
		return a || b
	case notCond:
		return !c.a.holds(r)
	}
	return compare(c.op, c.l.roll(r)-c.r.roll(r))
}

// compare applies op to the difference of two rolls.
func compare(op cmpOp, d int) bool {
	switch op {
	case opGE:
		return d >= 0
	case opGT:
		return d > 0
	case opLE:
		return d <= 0
	case opLT:
		return d < 0
	case opEQ:
		return d == 0
	}
	return d != 0
}

func (s *sum) roll(r *Rand) int {
	total := 0
	for i := range s.parts {
		v := s.parts[i].roll(r)
		if s.parts[i].neg {
			v = -v
		}
		total += v
	}
	return total
}

func (p *part) roll(r *Rand) int {
	switch p.kind {
	case constPart:
		return p.value
	case exprPart:
		return p.expr.Roll(r)
	case d66Part:
		return 10*r.D6() + r.D6()
	case countPart:
		n := 0
		for range p.n {
			v := r.Die(p.sides)
			if v < p.target && (p.rerollFail || p.rerollOnes && v == 1) {
				v = r.Die(p.sides)
			}
			if v >= p.target {
				n++
			}
		}
		return n
	}
	total := 0
	for range p.n {
		v := r.Die(p.sides)
		if p.reroll && v >= p.rerollLo && v <= p.rerollHi {
			v = r.Die(p.sides)
		}
		total += v
		if p.explode {
			// A die showing its highest face is rolled again and added;
			// so is the new die, up to ExplodeDepth extra dice.
			for depth := 0; depth < ExplodeDepth && v == p.sides; depth++ {
				v = r.Die(p.sides)
				total += v
			}
		}
	}
	return total
}

func (s *sum) String() string {
	var b strings.Builder
	for i, p := range s.parts {
		switch {
		case p.neg && i == 0:
			b.WriteString("-")
		case p.neg:
			b.WriteString(" - ")
		case i > 0:
			b.WriteString(" + ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

func (p part) String() string {
	switch p.kind {
	case constPart:
		return strconv.Itoa(p.value)
	case exprPart:
		return p.expr.String()
	case d66Part:
		return "D66"
	}
	s := "D" + strconv.Itoa(p.sides)
	if p.n != 1 {
		s = strconv.Itoa(p.n) + s
	}
	if p.kind == countPart {
		s += " count " + strconv.Itoa(p.target) + "+"
		switch {
		case p.rerollFail:
			s += " reroll failures"
		case p.rerollOnes:
			s += " reroll 1s"
		}
		return s
	}
	if p.reroll {
		if p.rerollLo == p.rerollHi {
			s += "r" + strconv.Itoa(p.rerollLo)
		} else {
			s += "r<" + strconv.Itoa(p.rerollHi+1)
		}
	}
	if p.explode {
		s += "!"
	}
	return s
}

func (c *cond) String() string {
	switch c.kind {
	case andCond, orCond:
		word := " and "
		if c.kind == orCond {
			word = " or "
		}
		return c.a.group(c.kind) + word + c.b.group(c.kind)
	case notCond:
		return "not " + c.a.group(notCond)
	}
	return c.l.String() + " " + opText[c.op] + " " + c.r.String()
}

// group brackets a condition written inside one of another kind.
func (c *cond) group(outer condKind) string {
	if c.kind == cmpCond || c.kind == notCond || c.kind == outer && outer != notCond {
		return c.String()
	}
	return "(" + c.String() + ")"
}
