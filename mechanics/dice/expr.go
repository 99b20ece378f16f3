package dice

import (
	"strconv"
	"strings"
	"sync"
)

// Limits on what an expression may ask for. They keep rolls allocation-free
// (kept dice are sorted in a fixed array) and exact distributions small.
const (
	MaxDice  = 100  // dice in one term, e.g. 100D6
	MaxSides = 1000 // sides of one die, e.g. D1000
	MaxKeep  = 32   // dice in a term that keeps some of them, e.g. 32D6kh3
	MaxTerms = 16   // terms in one expression, e.g. D6+D6+1
	MaxConst = 1000 // absolute value of a constant term
)

// Misfire is the value an Artillery dice roll returns for its Misfire face.
// The numbered faces are 2, 4, 6, 8 and 10.
const Misfire = 0

// Hit and Arrow are the values a Scatter dice roll returns.
const (
	Arrow = 0
	Hit   = 1
)

// DefaultScatterHits is how many of the Scatter dice's six faces show Hit!
// when an expression does not say: the common die has two Hit! faces and
// four arrows. Other dice exist, so "scatter(1)" names a die with one.
const DefaultScatterHits = 2

type termKind uint8

const (
	constTerm termKind = iota
	diceTerm
	artilleryTerm
	scatterTerm
)

// term is one summand of an expression: a constant, NdS (keeping some of
// the dice when keep > 0), an Artillery dice or a Scatter dice.
type term struct {
	kind  termKind
	neg   bool
	n     int  // dice rolled
	sides int  // sides per die
	keep  int  // dice kept, 0 for all
	high  bool // keep the highest (true) or the lowest (false)
	value int  // constant, or Hit! faces for scatterTerm
}

// Expr is a parsed dice expression. The zero Expr is the constant 0.
// Build one with Parse, Const or Dice.
type Expr struct {
	terms []term
	text  string
	// shape, n and add describe the common expressions, a constant, or
	// plain D6s summed, the highest of several, or all but the lowest, plus
	// a constant, so that Roll can throw them without walking the terms.
	shape shape
	n     int
	add   int
	// memo keeps the exact distribution of an expression read from text
	// (Parse), shared by its copies, so that a scenario that asks for it
	// at each of many points works it out once; nil for one built in code,
	// which may be built in a trial, where nothing may be allocated.
	memo *distMemo
}

// distMemo is an expression's exact distribution, once worked out.
type distMemo struct {
	mu   sync.Mutex
	done bool
	d    Dist
}

// shape is the fast path an expression rolls by.
type shape uint8

const (
	general      shape = iota // any expression: walk the terms
	constant                  // no dice: add
	sumD6                     // nD6 + add
	highestD6                 // highest of nD6 + add
	dropLowestD6              // nD6 discarding the lowest + add
)

// build fills in the canonical text and the fast-path shape of e.
func (e Expr) build() Expr {
	e.text = e.canonical()
	e.shape, e.n, e.add = general, 0, 0
	var dice *term
	add := 0
	for i := range e.terms {
		t := &e.terms[i]
		switch {
		case t.kind == constTerm && t.neg:
			add -= t.value
		case t.kind == constTerm:
			add += t.value
		case t.kind == diceTerm && !t.neg && t.sides == 6 && dice == nil:
			dice = t
		default:
			return e
		}
	}
	if dice == nil {
		e.shape, e.add = constant, add
		return e
	}
	switch {
	case dice.keep == 0:
		e.shape = sumD6
	case dice.keep == 1 && dice.high:
		e.shape = highestD6
	case dice.keep == dice.n-1 && dice.high:
		e.shape = dropLowestD6
	default:
		return e
	}
	e.n, e.add = dice.n, add
	return e
}

// Const returns the expression that always rolls v.
func Const(v int) Expr {
	return Expr{terms: []term{{kind: constTerm, value: v}}}.build()
}

// Dice returns the expression NdS (n dice with sides faces, summed).
// It panics if the counts are outside the package limits.
func Dice(n, sides int) Expr {
	if n < 1 || n > MaxDice || sides < 2 || sides > MaxSides {
		panic("dice: Dice count or sides out of range")
	}
	return Expr{terms: []term{{kind: diceTerm, n: n, sides: sides}}}.build()
}

// KeepHighest returns NdS keeping the k highest dice: KeepHighest(3, 6, 2)
// is "3D6 discard the lowest" and KeepHighest(2, 6, 1) "highest of 2D6".
func KeepHighest(n, sides, k int) Expr { return keep(n, sides, k, true) }

// KeepLowest returns NdS keeping the k lowest dice.
func KeepLowest(n, sides, k int) Expr { return keep(n, sides, k, false) }

func keep(n, sides, k int, high bool) Expr {
	if n < 1 || n > MaxKeep || sides < 2 || sides > MaxSides || k < 1 || k > n {
		panic("dice: keep count, dice or sides out of range")
	}
	t := term{kind: diceTerm, n: n, sides: sides, keep: k, high: high}
	if k == n {
		t.keep = 0
	}
	return Expr{terms: []term{t}}.build()
}

// Plus returns e + k.
func (e Expr) Plus(k int) Expr {
	if k == 0 {
		return e
	}
	t := term{kind: constTerm, value: k}
	if k < 0 {
		t = term{kind: constTerm, value: -k, neg: true}
	}
	terms := append(append([]term(nil), e.terms...), t)
	return Expr{terms: terms}.build()
}

// String returns the expression in canonical form, e.g. "3D6kh2+1".
func (e Expr) String() string {
	if e.text == "" {
		return "0"
	}
	return e.text
}

// IsZero reports whether e is the zero Expr (no terms).
func (e Expr) IsZero() bool { return len(e.terms) == 0 }

// PlainD6 reports whether e is n six-sided dice summed, nothing more, and n.
func (e *Expr) PlainD6() (n int, ok bool) {
	if e.shape == sumD6 && e.add == 0 {
		return e.n, true
	}
	return 0, false
}

// IsConst reports whether e involves no dice.
func (e *Expr) IsConst() bool { return e.shape == constant || len(e.terms) == 0 }

// IsArtillery reports whether e is the Artillery dice, whose Misfire face
// rolls as Misfire.
func (e Expr) IsArtillery() bool {
	return len(e.terms) == 1 && e.terms[0].kind == artilleryTerm
}

// IsScatter reports whether e is a Scatter dice, which rolls Hit or Arrow.
func (e Expr) IsScatter() bool {
	return len(e.terms) == 1 && e.terms[0].kind == scatterTerm
}

// Label returns how a result of e is written: "Misfire" for the Artillery
// dice's Misfire face, "Hit!" and "arrow" for the Scatter dice, the number
// otherwise.
func (e Expr) Label(v int) string {
	switch {
	case e.IsArtillery() && v == Misfire:
		return "Misfire"
	case e.IsScatter() && v == Hit:
		return "Hit!"
	case e.IsScatter() && v == Arrow:
		return "arrow"
	}
	return strconv.Itoa(v)
}

// Roll rolls e once.
func (e *Expr) Roll(r *Rand) int {
	switch e.shape {
	case constant:
		return e.add
	case sumD6:
		s := e.add
		for range e.n {
			s += r.D6()
		}
		return s
	case highestD6:
		best := r.D6()
		for range e.n - 1 {
			best = max(best, r.D6()) // branch-free: dice are unpredictable
		}
		return best + e.add
	case dropLowestD6:
		v := r.D6()
		sum, low := v, v
		for range e.n - 1 {
			v = r.D6()
			sum += v
			low = min(low, v)
		}
		return sum - low + e.add
	}
	return e.rollTerms(r)
}

// Count rolls e n times and counts each result v in counts[v-lo]. counts
// must span every result e can roll (lo <= e.Min(), lo+len(counts) > e.Max()).
// It is Roll in a loop with the choice of fast path made once, for the
// hottest loops (a charge sweep's trials).
func (e *Expr) Count(rp *Rand, n int, counts []int64, lo int) {
	// Work on local copies: stores into counts would otherwise make the
	// compiler reload the generator's state and e's fields every roll.
	r := *rp
	defer func() { *rp = r }()
	off, k := e.add-lo, e.n
	switch {
	case e.shape == sumD6 && k == 2: // 2D6
		for range n {
			counts[off+r.D6()+r.D6()]++
		}
	case e.shape == highestD6 && k == 2: // highest of 2D6
		for range n {
			counts[off+max(r.D6(), r.D6())]++
		}
	case e.shape == dropLowestD6 && k == 3: // 3D6 discard the lowest
		for range n {
			a, b, c := r.D6(), r.D6(), r.D6()
			counts[off+a+b+c-min(a, b, c)]++
		}
	case e.shape == sumD6:
		for range n {
			s := off
			for range k {
				s += r.D6()
			}
			counts[s]++
		}
	default:
		for range n {
			counts[e.Roll(&r)-lo]++
		}
	}
}

func (e *Expr) rollTerms(r *Rand) int {
	total := 0
	for i := range e.terms {
		v := e.terms[i].roll(r)
		if e.terms[i].neg {
			v = -v
		}
		total += v
	}
	return total
}

func (t *term) roll(r *Rand) int {
	switch t.kind {
	case constTerm:
		return t.value
	case artilleryTerm:
		f := r.D6()
		if f == 6 {
			return Misfire
		}
		return 2 * f
	case scatterTerm:
		if r.D6() <= t.value {
			return Hit
		}
		return Arrow
	}
	if t.keep == 0 {
		s := 0
		for range t.n {
			s += r.Die(t.sides)
		}
		return s
	}
	return t.rollKeep(r)
}

// rollKeep rolls a term that keeps some of its dice. The common cases, keep
// one (the highest or lowest of N) and drop one (discard the lowest), need no
// sorting; the rest sort at most MaxKeep dice in a fixed array.
func (t *term) rollKeep(r *Rand) int {
	switch {
	case t.keep == 1:
		best := r.Die(t.sides)
		for range t.n - 1 {
			if v := r.Die(t.sides); t.high {
				best = max(best, v)
			} else {
				best = min(best, v)
			}
		}
		return best
	case t.keep == t.n-1:
		v := r.Die(t.sides)
		sum, worst := v, v
		for range t.n - 1 {
			v = r.Die(t.sides)
			sum += v
			if t.high {
				worst = min(worst, v)
			} else {
				worst = max(worst, v)
			}
		}
		return sum - worst
	}
	var a [MaxKeep]int
	for i := range t.n {
		v := r.Die(t.sides)
		j := i
		for ; j > 0 && a[j-1] > v; j-- { // insertion sort, ascending
			a[j] = a[j-1]
		}
		a[j] = v
	}
	s := 0
	if t.high {
		for _, v := range a[t.n-t.keep : t.n] {
			s += v
		}
	} else {
		for _, v := range a[:t.keep] {
			s += v
		}
	}
	return s
}

// Min returns the smallest result e can roll, read from its terms without
// building its distribution.
func (e Expr) Min() int {
	lo, _ := e.bounds()
	return lo
}

// Max returns the largest result e can roll, read from its terms.
func (e Expr) Max() int {
	_, hi := e.bounds()
	return hi
}

func (e Expr) bounds() (lo, hi int) {
	for _, t := range e.terms {
		a, b := t.bounds()
		if t.neg {
			a, b = -b, -a
		}
		lo, hi = lo+a, hi+b
	}
	return lo, hi
}

// bounds returns the smallest and largest results of a term.
func (t term) bounds() (lo, hi int) {
	switch t.kind {
	case constTerm:
		return t.value, t.value
	case artilleryTerm:
		return Misfire, 10
	case scatterTerm:
		return Arrow, Hit
	}
	kept := t.n
	if t.keep > 0 {
		kept = t.keep
	}
	return kept, kept * t.sides
}

// DiceCount returns how many dice one roll of e throws, which is what it
// costs in random draws.
func (e Expr) DiceCount() int {
	n := 0
	for _, t := range e.terms {
		switch t.kind {
		case diceTerm:
			n += t.n
		case artilleryTerm, scatterTerm:
			n++
		}
	}
	return n
}

func (t term) String() string {
	switch t.kind {
	case constTerm:
		return strconv.Itoa(t.value)
	case artilleryTerm:
		return "artillery"
	case scatterTerm:
		if t.value == DefaultScatterHits {
			return "scatter"
		}
		return "scatter(" + strconv.Itoa(t.value) + ")"
	}
	var b strings.Builder
	if t.n != 1 {
		b.WriteString(strconv.Itoa(t.n))
	}
	b.WriteString("D")
	b.WriteString(strconv.Itoa(t.sides))
	if t.keep > 0 {
		if t.high {
			b.WriteString("kh")
		} else {
			b.WriteString("kl")
		}
		b.WriteString(strconv.Itoa(t.keep))
	}
	return b.String()
}

func (e Expr) canonical() string {
	var b strings.Builder
	for i, t := range e.terms {
		switch {
		case t.neg:
			b.WriteString("-")
		case i > 0:
			b.WriteString("+")
		}
		b.WriteString(t.String())
	}
	return b.String()
}
