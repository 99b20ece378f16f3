package dice

import (
	"fmt"
	"strings"
	"unicode"
)

// ParseQuery reads a dice question. The grammar, case-insensitive, with
// spaces allowed between tokens:
//
//	query   = or
//	or      = and { "or" and }
//	and     = not { "and" not }
//	not     = "not" not | "(" query ")" | compare
//	compare = sum [ ( ">=" | ">" | "<=" | "<" | "=" | "==" | "!=" ) sum ]
//	sum     = [ "-" ] part { ( "+" | "-" ) part }
//	part    = number | "D66" | dice [ reroll ] [ "!" ] [ count ]
//	reroll  = "r" number | "r" "<" number
//	        | "reroll" ( number | "1s" | "ones" | "failures" )
//	count   = "count" number "+" [ "reroll" ( "failures" | "1s" | "ones" ) ]
//
// dice is what [Parse] reads: "2D6", "3D6kh2", "3D6 discard lowest",
// "highest of 2D6"; the Artillery and Scatter dice stand alone. A query
// without a comparison is a number; with one it is a condition, and only
// conditions combine with and, or and not. Each comparison rolls its own
// dice, independently of every other.
//
//   - "D6r1" re-rolls a 1 once; "D6r<3" re-rolls a 1 or a 2 once. A
//     re-rolled die keeps its second result, as the games rule.
//   - "D6!" explodes: a die showing its highest face is rolled again and
//     added, up to [ExplodeDepth] extra dice.
//   - "10D6 count 4+" is the number of the ten dice showing 4 or more; "reroll
//     failures" re-rolls each die that failed, once, "reroll 1s" each 1.
//   - "D66" is two D6 read as tens and units, 11 to 66, as wargames read it.
//     Other dice of 66 ("2D66", "highest of 2D66") are refused: several
//     D66s are written as a sum.
func ParseQuery(s string) (*Query, error) {
	q, _, err := parseQuery(s, false)
	return q, err
}

// queryForm is a part of a dice question that Parse does not read.
type queryForm struct {
	col  int    // where it starts in the question, 1-based
	what string // what it is, as written: "\"r1\" re-rolls dice"
}

// queryFormOf reports whether s is a whole dice question, and if so the
// first of its parts, by column, that Parse does not read. The question
// is only read, not answered: no distribution is worked out.
func queryFormOf(s string) (queryForm, bool) {
	_, p, err := parseQuery(s, true)
	if err != nil || p.form.what == "" {
		return queryForm{}, false
	}
	return p.form, true
}

// parseQuery reads s as ParseQuery does, and returns its parser too;
// readOnly (for queryFormOf) leaves the exact answer unworked, as past
// the budget.
func parseQuery(s string, readOnly bool) (*Query, *qparser, error) {
	toks, err := qlex(s)
	if err != nil {
		return nil, nil, err
	}
	p := &qparser{parser: parser{src: s, toks: toks}, noExact: readOnly}
	if t := p.peek(); t.kind == tokWord && (t.text == "artillery" || t.text == "scatter") {
		e, err := p.special() // from the query's tokens, so that "artillery > 4" is told it stands alone
		if err != nil {
			return nil, nil, err
		}
		n := &sum{parts: []part{{kind: exprPart, expr: e}}, dist: e.Dist()}
		return &Query{text: e.String(), num: n}, p, nil
	}
	if p.peek().kind == tokEOF {
		return nil, nil, p.errorf(p.peek(), "empty query; expected dice such as 2D6, or a condition such as \"2D6 >= 9\"")
	}
	c, n, err := p.or()
	if err != nil {
		return nil, nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, nil, p.unexpected(t, c != nil)
	}
	if c != nil {
		return &Query{text: c.String(), cond: c, noExact: p.noExact}, p, nil
	}
	return &Query{text: n.String(), num: n, noExact: p.noExact}, p, nil
}

// unexpected is the error for a token left over after a whole query: a
// condition (cond) or a number. It lists what could have come there.
func (p *qparser) unexpected(t token, cond bool) error {
	switch {
	case t.kind == tokClose:
		return p.errorf(t, "unexpected \")\"; no bracket is open")
	case t.kind == tokCmp && cond:
		return p.errorf(t, "unexpected %q; a comparison has two sides: join another with and or or, such as D6 >= 2 and D6 <= 5", t.text)
	case !cond:
		return p.errorf(t, "unexpected %s; expected +, -, a comparison or the end", t.describe())
	case p.pos > 0 && p.toks[p.pos-1].kind == tokClose:
		return p.errorf(t, "unexpected %s; expected and, or, or the end", t.describe())
	}
	return p.errorf(t, "unexpected %s; expected +, -, and, or, or the end", t.describe())
}

// Token kinds the query language adds to the expression lexer's.
const (
	tokCmp tokKind = iota + 100
	tokBang
)

// qlex splits a query into tokens: the expression lexer's, comparisons, and
// "!" for exploding dice.
func qlex(s string) ([]token, error) {
	var toks []token
	for i := 0; i < len(s); {
		c := s[i]
		col := i + 1
		two := ""
		if i+1 < len(s) {
			two = s[i : i+2]
		}
		switch {
		case two == ">=" || two == "<=" || two == "==" || two == "!=":
			text := two
			if two == "==" {
				text = "="
			}
			toks = append(toks, token{kind: tokCmp, text: text, col: col})
			i += 2
		case c == '>' || c == '<' || c == '=':
			toks = append(toks, token{kind: tokCmp, text: string(c), col: col})
			i++
		case c == '!':
			toks = append(toks, token{kind: tokBang, text: "!", col: col})
			i++
		default:
			j := i + 1
			for j < len(s) && !strings.ContainsRune("<>=!", rune(s[j])) {
				j++
			}
			part, err := lex(s[i:j])
			if err != nil {
				se := err.(*SyntaxError)
				return nil, &SyntaxError{Expr: s, Col: se.Col + i, Msg: strings.Replace(se.Msg, "expected a number, D, +, - or a word", "expected a number, D, +, -, a comparison or a word", 1)}
			}
			for _, t := range part[:len(part)-1] {
				t.col += i
				toks = append(toks, t)
			}
			i = j
		}
		if len(toks) > maxQueryTokens {
			// At the first token past the limit, wherever its stretch
			// between comparisons began.
			return nil, &SyntaxError{Expr: s, Col: toks[maxQueryTokens].col,
				Msg: fmt.Sprintf("query too long; expected at most %d tokens (numbers, words and signs) and %d terms", maxQueryTokens, 4*MaxTerms)}
		}
	}
	return append(toks, token{kind: tokEOF, col: len(s) + 1}), nil
}

// maxQueryTokens bounds the tokens a query is read into, well past what
// its 4*MaxTerms terms need, so that a huge text is refused early.
const maxQueryTokens = 10_000

type qparser struct {
	parser
	work int64 // multiply-adds spent on exact distributions
	// noExact is set once the exact answer would cost more than the
	// budget: from then on no distribution is worked out, and the query
	// can only be rolled.
	noExact bool
	terms   int
	depth   int
	// form is the first part read, by column, that Parse does not read.
	form queryForm
}

// saw notes a part that Parse does not read, starting at column col;
// from is the index of its first token and what says what it is, with a
// %q for the part as written, from that token to the current one.
func (p *qparser) saw(col, from int, what string) {
	if p.form.what != "" && p.form.col <= col {
		return
	}
	text := strings.TrimRight(p.src[p.toks[from].col-1:p.toks[p.pos].col-1], " \t")
	p.form = queryForm{col: col, what: fmt.Sprintf(what, text)}
}

// maxQueryDepth bounds nesting of brackets and "not".
const maxQueryDepth = 64

// or parses a condition or a number: exactly one of c and n is set.
func (p *qparser) or() (c *cond, n *sum, err error) {
	c, n, err = p.and()
	for err == nil && p.isWord("or") {
		at := p.next()
		if c == nil {
			return nil, nil, p.errorf(at, "%q joins conditions, such as 2D6 >= 9; %s is a number", "or", n.String())
		}
		var b *cond
		if b, err = p.condition("or", p.and); err == nil {
			c = balanced(&cond{kind: orCond, a: c, b: b, p: c.p + b.p - c.p*b.p, q: c.q * b.q})
		}
	}
	return c, n, err
}

func (p *qparser) and() (c *cond, n *sum, err error) {
	c, n, err = p.not()
	for err == nil && p.isWord("and") {
		at := p.next()
		if c == nil {
			return nil, nil, p.errorf(at, "%q joins conditions, such as 2D6 >= 9; %s is a number", "and", n.String())
		}
		var b *cond
		if b, err = p.condition("and", p.not); err == nil {
			c = balanced(&cond{kind: andCond, a: c, b: b, p: c.p * b.p, q: c.q + b.q - c.q*b.q})
		}
	}
	return c, n, err
}

// condition parses the operand of and, or or not, which must be one, with
// operand: "and" binds tighter than "or", so the right side of an "or" is
// a whole chain of "and"s.
func (p *qparser) condition(after string, operand func() (*cond, *sum, error)) (*cond, error) {
	at := p.peek()
	c, n, err := operand()
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, p.errorf(at, "expected a condition after %q, such as D6 >= 4; %s is a number", after, n.String())
	}
	return c, nil
}

func (p *qparser) not() (*cond, *sum, error) {
	p.depth++
	defer func() { p.depth-- }()
	// depth-1 brackets and nots enclose this point, so one opening here is
	// the depth-th: past the limit, the error points at it.
	if at := p.peek(); p.depth > maxQueryDepth && (at.kind == tokOpen || p.isWord("not")) {
		return nil, nil, p.errorf(at, "too deeply nested; at most %d brackets and nots", maxQueryDepth)
	}
	if p.isWord("not") {
		p.next()
		p.saw(p.toks[p.pos-1].col, p.pos-1, "%q negates a condition")
		a, err := p.condition("not", p.not)
		if err != nil {
			return nil, nil, err
		}
		return &cond{kind: notCond, a: a, p: a.q, q: a.p}, nil, nil
	}
	if open := p.peek(); open.kind == tokOpen {
		p.next()
		p.saw(open.col, p.pos-1, "%q groups conditions")
		c, n, err := p.or()
		if err != nil {
			return nil, nil, err
		}
		if cl := p.next(); cl.kind != tokClose {
			return nil, nil, p.errorf(cl, "expected \")\" to close the bracket at column %d, found %s", open.col, cl.describe())
		}
		if n != nil {
			return nil, nil, p.errorf(open, "brackets group conditions, such as (2D6 >= 9 or D6 = 6); write numbers without them")
		}
		return c, nil, nil
	}
	return p.compare()
}

func (p *qparser) compare() (*cond, *sum, error) {
	from := p.pos
	l, err := p.sum()
	if err != nil {
		return nil, nil, err
	}
	op := p.peek()
	if op.kind != tokCmp {
		return nil, l, nil
	}
	p.next()
	r, err := p.sum()
	if err != nil {
		return nil, nil, err
	}
	p.saw(op.col, from, "%q is a condition")
	c := &cond{kind: cmpCond, l: l, r: r}
	for i, t := range opText {
		if t == op.text {
			c.op = cmpOp(i)
		}
	}
	c.p, c.q = probOf(c.op, p.add(l.dist, r.dist.Neg()))
	return balanced(c), nil, nil
}

// balanced sets the larger of c's chances of holding and failing to 1
// less the smaller, which carries less rounding than a long sum or
// product: 2D6 >= 3 is then 35/36 to the last digit.
func balanced(c *cond) *cond {
	if c.p > c.q {
		c.p = 1 - c.q
	} else {
		c.q = 1 - c.p
	}
	return c
}

// probOf returns P(D op 0) and its complement, each summed from its own
// values rather than taken from 1, so that a small one keeps its digits.
func probOf(op cmpOp, d Dist) (p, q float64) {
	switch op {
	case opGE:
		return d.AtLeast(0), d.AtMost(-1)
	case opGT:
		return d.AtLeast(1), d.AtMost(0)
	case opLE:
		return d.AtMost(0), d.AtLeast(1)
	case opLT:
		return d.AtMost(-1), d.AtLeast(0)
	case opEQ:
		return d.At(0), d.AtMost(-1) + d.AtLeast(1)
	}
	return d.AtMost(-1) + d.AtLeast(1), d.At(0)
}

// add convolves two distributions within the query's work budget; past
// it, the query has no exact answer and add returns an empty Dist.
func (p *qparser) add(a, b Dist) Dist {
	if p.spend(int64(len(a.P)) * int64(len(b.P))) {
		return Dist{}
	}
	return a.Add(b)
}

// spend counts work multiply-adds against the budget and reports whether
// the query is past it, and so has no exact answer.
func (p *qparser) spend(work int64) bool {
	p.work += work
	if p.work > maxExactWork {
		p.noExact = true
	}
	return p.noExact
}

func (p *qparser) sum() (*sum, error) {
	s := &sum{dist: Point(0)}
	neg, lead := false, -1
	if p.peek().kind == tokMinus { // a leading minus: "D6 >= -1", "-D3 + 4"
		neg, lead = true, p.pos
		p.next()
	}
	for {
		start := p.peek()
		pt, err := p.part()
		if err != nil {
			return nil, err
		}
		if lead >= 0 {
			p.saw(p.toks[lead].col, lead, "%q starts with a minus")
			lead = -1
		}
		if p.terms++; p.terms > 4*MaxTerms {
			return nil, p.errorf(start, "too many terms; at most %d in a query", 4*MaxTerms)
		}
		pt.neg = neg
		d := p.partDist(pt)
		if neg {
			d = d.Neg()
		}
		s.dist = p.add(s.dist, d)
		s.parts = append(s.parts, pt)
		switch t := p.peek(); t.kind {
		case tokPlus:
			neg = false
		case tokMinus:
			neg = true
		default:
			return s, nil
		}
		p.next()
	}
}

// part parses one summand.
func (p *qparser) part() (part, error) {
	t := p.peek()
	if t.kind == tokWord && (t.text == "artillery" || t.text == "scatter") {
		return part{}, p.errorf(t, "the %s dice must stand alone; its faces are not numbers to compare or add", t.text)
	}
	// D66: "D66" alone, or "1D66".
	if d := p.at(0); d.kind == tokWord && d.text == "d" && p.at(1).kind == tokNum && p.at(1).num == 66 {
		p.pos += 2
		return part{kind: d66Part}, nil
	}
	if t.kind == tokNum && t.num == 1 && p.at(1).kind == tokWord && p.at(1).text == "d" && p.at(2).kind == tokNum && p.at(2).num == 66 {
		p.pos += 3
		return part{kind: d66Part}, nil
	}
	tm, err := p.exprTerm()
	if err != nil {
		return part{}, err
	}
	if tm.kind != constTerm && tm.sides == 66 {
		// D66 is a tens and a units die here, so several "dice of 66"
		// would be read either way: as dice of 66 sides, or as D66s.
		return part{}, p.errorf(t, "%dD66: D66 is a tens die and a units die (11 to 66), and two or more are written as a sum, such as D66 + D66", tm.n)
	}
	if tm.kind == constTerm {
		return part{kind: constPart, value: tm.value}, nil
	}
	pt := part{kind: exprPart, expr: Expr{terms: []term{tm}}.build(), n: tm.n, sides: tm.sides}
	return p.modifiers(pt, tm)
}

// queryWords end a dice term: the words the query language adds.
var queryWords = map[string]bool{"r": true, "reroll": true, "count": true, "explode": true, "exploding": true, "and": true, "or": true, "not": true}

// exprTerm parses a term as Parse does, stopping at the words, comparisons
// and "!" the query language adds.
func (p *qparser) exprTerm() (term, error) {
	end := p.pos
	for ; end < len(p.toks)-1; end++ {
		t := p.toks[end]
		if t.kind == tokCmp || t.kind == tokBang || t.kind == tokWord && queryWords[t.text] {
			break
		}
	}
	// The term ends at the query's own token, which an error names.
	toks := append(p.toks[p.pos:end:end], token{kind: tokEOF, col: p.toks[end].col, text: p.toks[end].describe()})
	sub := parser{src: p.src, toks: toks}
	t, err := sub.term()
	p.pos += sub.pos
	return t, err
}

// at returns the token k places ahead.
func (p *qparser) at(k int) token {
	if i := p.pos + k; i < len(p.toks) {
		return p.toks[i]
	}
	return p.toks[len(p.toks)-1]
}

// modifiers parses what may follow dice: a re-roll, "!", and "count".
func (p *qparser) modifiers(pt part, tm term) (part, error) {
	plain := func(at token, what string) error {
		if tm.keep != 0 {
			return p.errorf(at, "%s does not combine with keeping or discarding dice", what)
		}
		return nil
	}
	if at := p.peek(); p.isWord("r") || p.isWord("reroll") {
		if err := plain(at, "a re-roll"); err != nil {
			return part{}, err
		}
		if p.at(1).kind == tokWord && (p.at(1).text == "failures" || p.at(1).text == "failure") {
			return part{}, p.errorf(p.at(1), "re-rolling failures needs a target: write it after count, such as 10D6 count 4+ reroll failures")
		}
		from := p.pos
		lo, hi, err := p.rerollRange(tm.sides)
		if err != nil {
			return part{}, err
		}
		p.saw(at.col, from, "%q re-rolls dice")
		pt.kind, pt.reroll, pt.rerollLo, pt.rerollHi = poolPart, true, lo, hi
	}
	if at := p.peek(); at.kind == tokCmp && at.text == "!=" && at.col >= 2 && !unicode.IsSpace(rune(p.src[at.col-2])) && plain(at, "") == nil {
		// D6!=7 may be D6 != 7 or D6! = 7: spaces being optional, the
		// query does not say which.
		return part{}, p.errorf(at, "\"!=\" straight after dice reads two ways; write \" != \" for not equal, or \"! =\" for exploding dice equal to a number")
	}
	if at := p.peek(); at.kind == tokBang || p.isWord("explode") || p.isWord("exploding") {
		if err := plain(at, "exploding"); err != nil {
			return part{}, err
		}
		p.next()
		p.saw(at.col, p.pos-1, "%q makes exploding dice")
		pt.kind, pt.explode = poolPart, true
	}
	if at := p.peek(); p.isWord("count") {
		if err := plain(at, "count"); err != nil {
			return part{}, err
		}
		if pt.explode {
			return part{}, p.errorf(at, "count does not combine with exploding dice; it counts each die once")
		}
		if pt.kind == poolPart {
			return part{}, p.errorf(at, "write re-rolls after the target when counting, such as 10D6 count 4+ reroll 1s")
		}
		from := p.pos
		p.next()
		pt, err := p.count(pt)
		if err == nil {
			p.saw(at.col, from, "%q counts successes")
		}
		return pt, err
	}
	return pt, nil
}

// rerollRange parses "r N", "r < N" or "reroll N|1s|ones" into the faces
// re-rolled.
func (p *qparser) rerollRange(sides int) (lo, hi int, err error) {
	p.next()
	below := false
	if t := p.peek(); t.kind == tokCmp && t.text == "<" {
		p.next()
		below = true
	}
	n := p.next()
	switch {
	case n.kind == tokWord && n.text == "ones" && below:
		return 0, 0, p.errorf(n, "cannot re-roll below ones: no face is; expected r<N with N from 2 to %d, or reroll ones", sides)
	case n.kind == tokWord && n.text == "ones":
		return 1, 1, nil
	case n.kind != tokNum:
		return 0, 0, p.errorf(n, "expected the face to re-roll, such as r1, r<3 or reroll 1s, found %s", n.describe())
	}
	if p.isWord("s") {
		p.next()
	}
	if below {
		if n.num < 2 || n.num > sides {
			return 0, 0, p.errorf(n, "cannot re-roll below %d on a D%d; expected 2 to %d", n.num, sides, sides)
		}
		return 1, n.num - 1, nil
	}
	if n.num < 1 || n.num > sides {
		return 0, 0, p.errorf(n, "a D%d has no face %d to re-roll", sides, n.num)
	}
	return n.num, n.num, nil
}

// count parses "N+" and an optional re-roll after "count".
func (p *qparser) count(pt part) (part, error) {
	n := p.next()
	if n.kind != tokNum {
		return part{}, p.errorf(n, "expected the target after count, such as count 4+, found %s", n.describe())
	}
	if n.num < 1 || n.num > pt.sides {
		return part{}, p.errorf(n, "a D%d cannot show %d or more; expected a target from 1 to %d", pt.sides, n.num, pt.sides)
	}
	if plus := p.next(); plus.kind != tokPlus {
		return part{}, p.errorf(plus, "expected \"+\" after the target, as in count %d+, found %s", n.num, plus.describe())
	}
	pt.kind, pt.target = countPart, n.num
	if p.isWord("reroll") || p.isWord("r") {
		p.next()
		w := p.next()
		switch {
		case w.kind == tokWord && (w.text == "failures" || w.text == "failure" || w.text == "fails"):
			pt.rerollFail = true
		case w.kind == tokWord && w.text == "ones", w.kind == tokNum && w.num == 1:
			if p.isWord("s") {
				p.next()
			}
			pt.rerollOnes = true
		default:
			return part{}, p.errorf(w, "expected what to re-roll: failures or 1s, found %s", w.describe())
		}
	}
	return pt, nil
}

// partDist returns a part's exact distribution, or an empty Dist once the
// query is past its work budget.
func (p *qparser) partDist(pt part) Dist {
	if p.noExact {
		return Dist{}
	}
	switch pt.kind {
	case constPart:
		return Point(pt.value)
	case d66Part:
		return d66Dist()
	case countPart:
		if p.spend(int64(pt.n) * int64(pt.n)) { // binomial's steps
			return Dist{}
		}
		return binomial(pt.n, successChance(pt))
	case exprPart:
		// What the expression's exact distribution costs (ExactWork).
		if p.spend(int64(min(pt.expr.ExactWork(), 2*MaxExactWork))) {
			return Dist{}
		}
		return pt.expr.Dist()
	}
	one := poolDie(pt)
	d := Point(0)
	for range pt.n {
		d = p.add(d, one)
	}
	return d
}
