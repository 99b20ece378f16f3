package dice

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SyntaxError reports a dice expression that could not be parsed. Col is the
// 1-based column, counted in bytes, where the problem was found.
type SyntaxError struct {
	Expr string
	Col  int
	Msg  string
	// QueryOnly is set where Expr is something only a dice question
	// (ParseQuery) reads: a condition, a re-roll, exploding dice, a count
	// of successes, D66, a leading minus, or (from ParseSum) the Artillery
	// and Scatter dice. Col is then where that part starts.
	QueryOnly bool
}

func (e *SyntaxError) Error() string {
	expr := e.Expr
	if len(expr) > maxQuoted {
		// A long expression is shown around the column, so that an error
		// never echoes a whole file.
		from := max(0, min(e.Col-1-maxQuoted/2, len(expr)-maxQuoted))
		for from > 0 && !utf8.RuneStart(expr[from]) {
			from--
		}
		to := from + maxQuoted
		for to < len(expr) && !utf8.RuneStart(expr[to]) {
			to++
		}
		return fmt.Sprintf("dice expression of %d bytes, at column %d (%q): %s", len(expr), e.Col, expr[from:to], e.Msg)
	}
	return fmt.Sprintf("dice expression %q, column %d: %s", expr, e.Col, e.Msg)
}

// maxQuoted is how much of an expression an error quotes.
const maxQuoted = 40

// Parse reads a dice expression. The grammar, case-insensitive, with spaces
// allowed between tokens:
//
//	expr    = term { ("+" | "-") term } | special
//	term    = number | dice [discard] | ("highest" | "lowest") "of" dice
//	dice    = [number] "D" number [("kh" | "kl") number]
//	discard = ["("] "discard" ["the"] ("lowest" | "highest") [")"]
//	special = "artillery" ["dice"] | "scatter" ["dice"] ["(" number ")"]
//
// "kh2" keeps the two highest dice, "kl1" the lowest; "3D6 discard lowest"
// is 3D6kh2 and "highest of 2D6" is 2D6kh1. The Artillery and Scatter dice
// stand alone: their faces are not numbers to add to. "scatter(1)" is a
// Scatter dice with one Hit! face (DefaultScatterHits otherwise).
//
// A whole dice question that Parse cannot read (a condition, a re-roll,
// exploding dice, a count of successes, a leading minus, D66) is refused
// by name, at the column where the first such part starts, with
// SyntaxError.QueryOnly set; anything else is refused at the first token
// the grammar above cannot read.
func Parse(s string) (Expr, error) {
	e, err := parse(s)
	if err == nil {
		e.memo = &distMemo{}
		return e, nil
	}
	var se *SyntaxError
	if errors.As(err, &se) && !se.QueryOnly {
		// What a dice question reads is named as such, rather than by the
		// first token this grammar cannot read.
		if f, ok := queryFormOf(s); ok {
			return Expr{}, &SyntaxError{Expr: s, Col: f.col, Msg: f.what + onlyQueries, QueryOnly: true}
		}
	}
	return Expr{}, err
}

// onlyQueries ends the message for what only a dice question reads.
const onlyQueries = ", which only simulate dice reads; a profile's or a rule's dice are added up, such as D6, 2D6, D3+1 or 3D6kh2"

func parse(s string) (Expr, error) {
	p := parser{src: s}
	p.toks, p.err = lex(s)
	if p.err != nil {
		return Expr{}, p.err
	}
	if t, ok := d66At(p.toks); ok {
		if t.kind == tokNum && t.num != 1 {
			// simulate dice refuses it too: several D66s are a sum there.
			return Expr{}, &SyntaxError{Expr: s, Col: t.col, Msg: fmt.Sprintf("%dD66: D66 is a tens die and a units die (11 to 66), not a die of 66 sides, so it is not rolled as dice added up; a profile's or a rule's dice are such as D6, 2D6, D3+1 or 3D6kh2", t.num), QueryOnly: true}
		}
		return Expr{}, &SyntaxError{Expr: s, Col: t.col, Msg: "D66 is a tens die and a units die (11 to 66)" + onlyQueries, QueryOnly: true}
	}
	e, err := p.expr()
	if err != nil {
		return Expr{}, err
	}
	return e.build(), nil
}

// ParseSum is Parse for dice whose roll is a number, as a profile's or a
// rule's dice are: it refuses the Artillery and Scatter dice, whose faces
// are not numbers, as what only a dice question reads.
func ParseSum(s string) (Expr, error) {
	e, err := Parse(s)
	if err == nil && (e.IsArtillery() || e.IsScatter()) {
		name := "Artillery"
		if e.IsScatter() {
			name = "Scatter"
		}
		text := strings.Trim(s, " \t")
		return Expr{}, &SyntaxError{Expr: s, Col: strings.Index(s, text) + 1, Msg: fmt.Sprintf("%q is the %s dice", text, name) + onlyQueries, QueryOnly: true}
	}
	return e, err
}

// d66At finds dice of 66 among toks ("D66", "1D66", "2D66"): the wargames'
// D66 is a tens die and a units die, which the query language reads
// (ParseQuery) and an Expr cannot roll. Read as dice of 66 sides they
// would mean another thing in a scenario than in simulate dice, so they
// are refused, as simulate dice refuses more than one.
func d66At(toks []token) (token, bool) {
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].kind != tokWord || toks[i].text != "d" || toks[i+1].kind != tokNum || toks[i+1].num != 66 {
			continue
		}
		if i > 0 && toks[i-1].kind == tokNum {
			return toks[i-1], true
		}
		return toks[i], true
	}
	return token{}, false
}

// MustParse is Parse for expressions known to be valid, such as those
// written in the rules tables of this module. It panics on error.
func MustParse(s string) Expr {
	e, err := Parse(s)
	if err != nil {
		panic("dice: " + err.Error())
	}
	return e
}

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokNum
	tokWord
	tokPlus
	tokMinus
	tokOpen
	tokClose
)

type token struct {
	kind tokKind
	text string // lower-cased for words
	num  int
	col  int
}

func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		if t.text != "" {
			return t.text // a query's word or sign, where a dice term ends
		}
		return "end of expression"
	case tokNum:
		return fmt.Sprintf("number %d", t.num)
	}
	return fmt.Sprintf("%q", t.text)
}

// lex splits s into numbers, words, signs and brackets. A word ends where a
// digit starts, so "3D6kh2" is 3, "d", 6, "kh", 2.
func lex(s string) ([]token, error) {
	var toks []token
	for i := 0; i < len(s); {
		c := s[i]
		col := i + 1
		switch {
		case c == ' ' || c == '\t':
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			n, err := strconv.Atoi(s[i:j])
			if err != nil || n > 1_000_000 {
				return nil, &SyntaxError{Expr: s, Col: col, Msg: fmt.Sprintf("number %s is too large; expected at most %d dice of at most %d sides, or a constant of at most %d", s[i:j], MaxDice, MaxSides, MaxConst)}
			}
			toks = append(toks, token{kind: tokNum, text: s[i:j], num: n, col: col})
			i = j
		case isLetter(c):
			j := i
			for j < len(s) && isLetter(s[j]) {
				j++
			}
			toks = append(toks, token{kind: tokWord, text: strings.ToLower(s[i:j]), col: col})
			i = j
		case c == '+':
			toks = append(toks, token{kind: tokPlus, text: "+", col: col})
			i++
		case c == '-':
			toks = append(toks, token{kind: tokMinus, text: "-", col: col})
			i++
		case c == '(':
			toks = append(toks, token{kind: tokOpen, text: "(", col: col})
			i++
		case c == ')':
			toks = append(toks, token{kind: tokClose, text: ")", col: col})
			i++
		default:
			// The character as written, even where it takes several bytes.
			r, _ := utf8.DecodeRuneInString(s[i:])
			return nil, &SyntaxError{Expr: s, Col: col, Msg: fmt.Sprintf("unexpected character %q; expected a number, D, +, - or a word such as \"discard\"", r)}
		}
	}
	return append(toks, token{kind: tokEOF, col: len(s) + 1}), nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

type parser struct {
	src  string
	toks []token
	pos  int
	err  error
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tokEOF {
		p.pos++
	}
	return t
}

func (p *parser) errorf(t token, format string, args ...any) error {
	return &SyntaxError{Expr: p.src, Col: t.col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) isWord(w string) bool {
	t := p.peek()
	return t.kind == tokWord && t.text == w
}

func (p *parser) expr() (Expr, error) {
	if t := p.peek(); t.kind == tokEOF {
		return Expr{}, p.errorf(t, "empty expression; expected dice such as D6, 2D6 or D3+1")
	}
	if p.isWord("artillery") || p.isWord("scatter") {
		return p.special()
	}
	var e Expr
	neg := false
	for {
		start := p.peek()
		t, err := p.term()
		if err != nil {
			return Expr{}, err
		}
		t.neg = neg
		if len(e.terms) == MaxTerms {
			return Expr{}, p.errorf(start, "too many terms; at most %d", MaxTerms)
		}
		e.terms = append(e.terms, t)
		switch op := p.next(); op.kind {
		case tokEOF:
			return e, nil
		case tokPlus:
			neg = false
		case tokMinus:
			neg = true
		default:
			return Expr{}, p.errorf(op, "unexpected %s; expected +, - or the end of the expression", op.describe())
		}
		if p.isWord("artillery") || p.isWord("scatter") {
			return Expr{}, p.errorf(p.peek(), "the %s dice must stand alone; its faces are not numbers to add", p.peek().text)
		}
	}
}

func (p *parser) special() (Expr, error) {
	w := p.next()
	if p.isWord("dice") || p.isWord("die") {
		p.next()
	}
	t := term{kind: artilleryTerm}
	if w.text == "scatter" {
		t = term{kind: scatterTerm, value: DefaultScatterHits}
		if p.peek().kind == tokOpen {
			p.next()
			n := p.next()
			if n.kind != tokNum || n.num < 1 || n.num > 5 {
				return Expr{}, p.errorf(n, "expected the number of Hit! faces, 1 to 5, found %s", n.describe())
			}
			t.value = n.num
			if c := p.next(); c.kind != tokClose {
				return Expr{}, p.errorf(c, "expected \")\", found %s", c.describe())
			}
		}
	}
	if t := p.peek(); t.kind != tokEOF {
		return Expr{}, p.errorf(t, "the %s dice must stand alone; found %s after it", w.text, t.describe())
	}
	return Expr{terms: []term{t}}.build(), nil
}

// term parses a constant, a dice term with an optional discard phrase, or
// "highest of"/"lowest of" a dice term.
func (p *parser) term() (term, error) {
	t := p.peek()
	if t.kind == tokWord && (t.text == "highest" || t.text == "lowest") {
		p.next()
		if of := p.next(); of.kind != tokWord || of.text != "of" {
			return term{}, p.errorf(of, "expected \"of\" after %q, found %s", t.text, of.describe())
		}
		start := p.peek()
		d, err := p.dice()
		if err != nil {
			return term{}, err
		}
		if d.keep != 0 || d.n < 2 {
			return term{}, p.errorf(start, "%q needs plain dice such as 2D6", t.text+" of")
		}
		d.keep, d.high = 1, t.text == "highest"
		return d, p.checkKeep(start, d)
	}
	if t.kind == tokNum && !p.startsDice(1) {
		p.next()
		if t.num > MaxConst {
			return term{}, p.errorf(t, "constant %d is too large; at most %d", t.num, MaxConst)
		}
		return term{kind: constTerm, value: t.num}, nil
	}
	d, err := p.dice()
	if err != nil {
		return term{}, err
	}
	open := p.peek()
	if open.kind == tokOpen && p.pos+1 < len(p.toks) && p.toks[p.pos+1].kind == tokWord && p.toks[p.pos+1].text == "discard" {
		p.next()
	} else {
		open = token{}
	}
	if p.isWord("discard") {
		disc := p.next()
		if p.isWord("the") {
			p.next()
		}
		which := p.next()
		if which.kind != tokWord || (which.text != "lowest" && which.text != "highest") {
			return term{}, p.errorf(which, "expected \"lowest\" or \"highest\" after \"discard\", found %s", which.describe())
		}
		if d.keep != 0 || d.n < 2 {
			return term{}, p.errorf(disc, "\"discard\" needs two or more plain dice, such as 3D6")
		}
		d.keep, d.high = d.n-1, which.text == "lowest"
		if open.kind == tokOpen {
			if c := p.next(); c.kind != tokClose {
				return term{}, p.errorf(c, "expected \")\" to close %q, found %s", "(discard", c.describe())
			}
		}
		if err := p.checkKeep(disc, d); err != nil {
			return term{}, err
		}
	}
	return d, nil
}

// startsDice reports whether the token at offset k from the current one is a
// "d" followed by a number, i.e. whether a count in front of it is a dice count.
func (p *parser) startsDice(k int) bool {
	i := p.pos + k
	return i < len(p.toks) && p.toks[i].kind == tokWord && p.toks[i].text == "d"
}

// dice parses [number] "D" number [("kh"|"kl") number].
func (p *parser) dice() (term, error) {
	t := term{kind: diceTerm, n: 1}
	start := p.peek()
	if start.kind == tokNum {
		p.next()
		t.n = start.num
	}
	d := p.next()
	if d.kind != tokWord || d.text != "d" {
		if d.kind == tokWord && strings.HasPrefix(d.text, "d") {
			return term{}, p.errorf(d, "unknown word %q; expected D followed by the number of sides, such as D6", d.text)
		}
		return term{}, p.errorf(d, "expected dice such as D6, 2D6 or a number, found %s", d.describe())
	}
	sides := p.next()
	if sides.kind != tokNum {
		return term{}, p.errorf(sides, "expected the number of sides after \"D\", found %s", sides.describe())
	}
	t.sides = sides.num
	if t.n < 1 || t.n > MaxDice {
		return term{}, p.errorf(start, "dice count %d out of range; expected 1 to %d", t.n, MaxDice)
	}
	if t.sides < 2 || t.sides > MaxSides {
		return term{}, p.errorf(sides, "D%d has no meaning; expected 2 to %d sides", t.sides, MaxSides)
	}
	if k := p.peek(); k.kind == tokWord && (k.text == "kh" || k.text == "kl") {
		p.next()
		num := p.next()
		if num.kind != tokNum {
			return term{}, p.errorf(num, "expected how many dice to keep after %q, found %s", k.text, num.describe())
		}
		if num.num < 1 || num.num > t.n {
			return term{}, p.errorf(num, "cannot keep %d of %d dice; expected 1 to %d", num.num, t.n, t.n)
		}
		t.keep, t.high = num.num, k.text == "kh"
		if err := p.checkKeep(k, t); err != nil {
			return term{}, err
		}
		if t.keep == t.n {
			t.keep = 0
		}
	} else if k.kind == tokWord && k.text != "discard" {
		return term{}, p.errorf(k, "unknown word %q; expected kh, kl, discard, + or -", k.text)
	}
	return t, nil
}

func (p *parser) checkKeep(at token, t term) error {
	if t.n > MaxKeep {
		return p.errorf(at, "keeping dice out of %d is too many; at most %d dice", t.n, MaxKeep)
	}
	return nil
}
