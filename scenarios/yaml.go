package scenarios

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// NodeKind says what a Node holds.
type NodeKind uint8

// The kinds of YAML value a scenario is made of.
const (
	NullNode NodeKind = iota
	ScalarNode
	SeqNode
	MapNode
)

func (k NodeKind) String() string {
	return [...]string{"nothing", "a value", "a list", "a mapping"}[k]
}

// Node is a YAML value with the position it was written at. The scenario
// decoder works on nodes rather than on goccy's AST so that every value,
// however deep, can be reported by file, line and column.
type Node struct {
	Kind      NodeKind
	Text      string // scalar text as written (unquoted)
	Line, Col int
	Items     []*Node // sequence
	Keys      []*Node // mapping keys, in order
	Vals      []*Node // mapping values
	// File, when set, is the file the node was read from, when that is
	// not the scenario's own (a unit card from a catalogue).
	File string
	// cardless marks a mapping that uses a card that does not exist (its
	// use key, reported, taken out): Decoder.Object reads and checks its
	// other keys, but reports none as missing, since the card would have
	// given them.
	cardless bool
	// noMissing marks a mapping whose profile line could not be read,
	// which would have given its characteristics: Decoder.Object reports
	// none of those as missing (it still reports a missing name).
	noMissing bool
	// card, for a mapping that uses a unit card, is the card as its
	// catalogue writes it (its profile spread), and changed the keys the
	// use writes beside it (Node.CardKey).
	card    *Node
	changed []string
	// via, on a node of a unit card's text that a use copied, is the
	// use's mapping, and viaCard the card's name. The user has no file of
	// the built-in cards, so a problem found in a built-in card's text is
	// placed at the use, which is what made it; one in a card of the
	// user's is placed in the card, naming the use (Decoder.add).
	via     *Node
	viaCard string
	// textOff is how many columns after Col a scalar's Text starts (1
	// past a quote), or -1 where Text is not the file's bytes on one line
	// (a block scalar, a quoted escape, a value folded over lines).
	textOff int
}

// at returns n placed at byte col (from 1) of its text, where the text
// stands in the file as written, and n itself elsewhere. Columns count
// characters, as the YAML parser's do, so the bytes before col are counted
// as the characters they make.
func (n *Node) at(col int) Node {
	at := *n
	if n.textOff >= 0 {
		at.Col += n.textOff + utf8.RuneCountInString(n.Text[:min(max(col-1, 0), len(n.Text))])
	}
	at.textOff = 0
	return at
}

// textOffset says where a scalar token's value starts in the file, as
// Node.textOff does.
func textOffset(tk *token.Token) int {
	raw := strings.TrimSpace(tk.Origin)
	switch {
	case raw == tk.Value && !strings.Contains(raw, "\n"):
		return 0
	case (tk.Type == token.SingleQuoteType && raw == "'"+tk.Value+"'") || (tk.Type == token.DoubleQuoteType && raw == `"`+tk.Value+`"`):
		return 1
	}
	return -1
}

// Describe names the node for an error message: a scalar's quoted text, or
// its kind.
func (n *Node) Describe() string {
	switch {
	case n.Kind == ScalarNode:
		return Excerpt(n.Text)
	case n.Kind == SeqNode && len(n.Items) == 0:
		return "an empty list"
	case n.Kind == MapNode && len(n.Keys) == 0:
		return "an empty mapping"
	}
	return n.Kind.String()
}

// checkUTF8 refuses text that is not UTF-8, at its first bad byte. YAML
// is UTF-8 text, and a file's text travels whole in a run's parts as JSON,
// which cannot carry other bytes unchanged.
func checkUTF8(file string, src []byte) error {
	if utf8.Valid(src) {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			return &Error{File: file, Line: line, Col: col,
				Msg: fmt.Sprintf("byte 0x%02X is not UTF-8 text; save the file as UTF-8", src[i])}
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return nil
}

// yamlFile is what a YAML file holds, for the problems of the file as a
// whole: what it is called, and what its one document is expected to be.
type yamlFile struct {
	called string
	expect string
	// one is what the file is, for the limits it may pass: "a scenario
	// needs far fewer".
	one string
}

var (
	scenarioYAML  = yamlFile{"a scenario file", "a scenario mapping with name, ruleset and a question such as charge", "a scenario"}
	catalogueYAML = yamlFile{"a unit catalogue", "a unit catalogue mapping with ruleset and units", "a unit catalogue"}
)

// parseYAML reads one YAML document, a scenario or a catalogue as kind
// says, into a node tree. Its size, nesting and number of values are
// checked before the YAML library reads it (see MaxFileSize); a
// byte-order mark at its start is skipped.
func parseYAML(file string, src []byte, kind yamlFile) (*Node, error) {
	if len(src) > MaxFileSize {
		return nil, tooLarge(file, kind)
	}
	src = bytes.TrimPrefix(src, bom)
	if err := checkUTF8(file, src); err != nil {
		return nil, err
	}
	// Windows line ends read as Unix ones: the YAML parser keeps a line
	// break inside a quoted value folded over CRLF lines, where it folds an
	// LF one into a space. Lines and columns do not move (the CR ends its
	// line).
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	// A lone CR ends a line for the YAML library too; read as a Unix line
	// end, it ends one for the scan before it as well.
	src = bytes.ReplaceAll(src, []byte("\r"), []byte("\n"))
	if err := scanLimits(file, src, kind); err != nil {
		return nil, err
	}
	tokens := lexer.Tokenize(string(src))
	if err := tokenLimits(file, tokens, kind); err != nil {
		return nil, err
	}
	f, err := parser.Parse(tokens, 0)
	if err != nil {
		e := yamlError(file, err)
		// The YAML library misreads a double-quoted value that holds a
		// tab as it is (it runs on into the next line), and reports
		// whatever it then finds: a tab before that place, on its line or
		// the one above, is the problem.
		if line, col, found := quotedTab(src); found {
			if ye, ok := e.(*Error); ok && (line == ye.Line-1 || line == ye.Line && col <= ye.Col) {
				return nil, &Error{File: file, Line: line, Col: col, Msg: `a tab inside a double-quoted value, which the YAML reader cannot read; write \t for a tab, or a space`}
			}
		}
		return nil, e
	}
	docs := f.Docs
	// The library reads a directive before the document (%YAML 1.2, %TAG)
	// as a document of its own. It changes nothing a scenario reads: every
	// value is read as text, and a tag is refused where it is used.
	for len(docs) > 0 && docs[0] != nil && isDirective(docs[0].Body) {
		docs = docs[1:]
	}
	if len(docs) == 0 || docs[0] == nil || docs[0].Body == nil {
		// The YAML library reads "---", "---", content as one empty
		// document and drops the rest: the file is not empty, it has a
		// document marker too many.
		if line := secondDocAfterEmpty(src); line > 0 {
			return nil, &Error{File: file, Line: line, Col: 1, Msg: "a second YAML document begins here, after an empty first one; " + kind.called + " holds one: remove a --- line"}
		}
		return nil, &Error{File: file, Line: 1, Col: 1, Msg: "the file is empty; expected " + kind.expect}
	}
	for _, doc := range docs[1:] {
		if doc != nil && doc.Body != nil { // an empty trailing "---" is harmless
			line, _ := pos(doc.Body)
			return nil, &Error{File: file, Line: line, Col: 1, Msg: "a second YAML document; " + kind.called + " holds one"}
		}
	}
	c := converter{file: file, kind: kind, anchors: map[string]anchor{}}
	n := c.convert(docs[0].Body, 0)
	switch len(c.errs) {
	case 0:
	case 1:
		return nil, c.errs[0]
	default:
		return nil, ErrorList(c.errs)
	}
	return n, nil
}

// quotedTab finds the first tab character written as it is inside a
// double-quoted value: its line and column (in characters, from 1). A
// quote opens a value only where a value may begin: at a line's start,
// after a key's colon, a list's dash at such a place, a bracket or brace
// that opens a flow collection, or a comma inside one; so a quote inside a
// plain value (Ork's, or Knights, "the best) opens nothing. A comment runs
// to its line's end, and the lines of a block scalar (| or >), more
// indented than the line that opens it, are its text.
func quotedTab(src []byte) (line, col int, found bool) {
	const (
		plain = iota
		double
		single
	)
	state, flow := plain, 0
	block := -1 // the indentation a block scalar's lines exceed; -1 outside one
	for i, text := range strings.Split(string(src), "\n") {
		line = i + 1
		indent := len(text) - len(strings.TrimLeft(text, " "))
		if block >= 0 {
			if strings.TrimSpace(text) == "" || indent > block {
				continue
			}
			block = -1
		}
		start, prev, skip := true, ' ', false
		col = 0
		runes := []rune(text)
		spaceAfter := func(i int) bool { return i+1 >= len(runes) || runes[i+1] == ' ' }
	chars:
		for i, r := range runes {
			col++
			switch {
			case state == double:
				switch {
				case prev == '\\':
					r = 0 // an escaped character (a tab too) escapes nothing after it
				case r == '\t':
					return line, col, true
				case r == '"':
					state = plain
				}
			case state == single:
				if r == '\'' {
					state = plain // a doubled quote closes and opens again
				}
			case skip:
				// An anchor's or a tag's name: the value begins after the
				// space that ends it.
				skip = r != ' '
			case r == '#' && (prev == ' ' || prev == '\t'):
				break chars
			case r == '"' && start:
				state = double
			case r == '\'' && start:
				state = single
			case (r == '|' || r == '>') && start && flow == 0:
				block = indent
				break chars
			case r == ' ' || r == '\t':
			case r == '[' || r == '{':
				if start {
					flow++
				}
			case r == ']' || r == '}':
				flow = max(flow-1, 0)
				start = false
			case r == ',':
				start = flow > 0
			case (r == ':' || r == '-' && start) && spaceAfter(i):
				// A key's colon, or a list's dash where a value may begin.
				start = true
			case (r == '&' || r == '!') && start:
				skip = true
			default:
				start = false
			}
			prev = r
		}
	}
	return 0, 0, false
}

// secondDocAfterEmpty returns the line of the "---" that begins a second
// document when the lines before it hold no content and some follows it
// (blank lines, comments and directives are not content); 0 otherwise.
func secondDocAfterEmpty(src []byte) int {
	second := 0
	markers := 0
	for i, text := range strings.Split(string(src), "\n") {
		t := strings.TrimRight(text, " \t\r")
		switch {
		case strings.TrimSpace(t) == "", strings.HasPrefix(strings.TrimSpace(t), "#"), strings.HasPrefix(t, "%"):
		case t == "---" || strings.HasPrefix(t, "--- #"):
			if markers++; markers == 2 {
				second = i + 1
			}
		default:
			return second
		}
	}
	return 0
}

func isDirective(n ast.Node) bool {
	_, ok := n.(*ast.DirectiveNode)
	return ok
}

func yamlError(file string, err error) error {
	var ye yaml.Error
	if errors.As(err, &ye) {
		tk := ye.GetToken()
		if glued := gluedKey(ye.GetMessage(), tk); glued != nil {
			tk = glued // the key at fault, above the one reported
		}
		line, col := 1, 1
		if tk != nil && tk.Position != nil {
			line, col = tk.Position.Line, tk.Position.Column
		}
		return &Error{File: file, Line: line, Col: col, Msg: yamlMessage(ye.GetMessage(), ye.GetToken())}
	}
	return &Error{File: file, Line: 1, Col: 1, Msg: "YAML syntax: " + err.Error()}
}

// yamlMessage says what the YAML library found, and what is expected
// there where its own message does not say; tk is the token it points at.
// The library's messages are matched as version 1.19 words them; one
// worded otherwise passes as it is.
func yamlMessage(msg string, tk *token.Token) string {
	switch {
	case msg == "unexpected directive value. document not started":
		// The library takes one directive, followed at once by the
		// document's "---".
		return "expected --- after the directive; a file may open with one directive, such as %YAML 1.2, then ---"
	case strings.HasPrefix(msg, `mapping key "?" already defined`):
		// A second complex key in one mapping: the library names the
		// indicator, not the key. The first alone is refused as here.
		return "complex keys (? key) are not supported; write key: value"
	case strings.HasPrefix(msg, "tab character cannot use as a map key"):
		// The library points at the key after the tab.
		return "a tab stands before this key; use spaces"
	case strings.HasPrefix(msg, "found character '\t'"):
		// Found in a line's leading spaces; the library points at the tab.
		return "a tab indents this line; indent with spaces"
	case strings.HasPrefix(msg, "invalid header option: "):
		// The rest is what follows | or >, quoted.
		return "after | or > may come only an indentation indicator (1 to 9) and a chomping indicator (- or +), " +
			"then the text on the lines below; found " + strings.TrimPrefix(msg, "invalid header option: ")
	case msg == "block sequence entries are not allowed in this context" && tk != nil && tk.Value == "-":
		// A - after a key, on the key's line: a list's first item, which
		// must go on the lines below, or a bare - meant as "none".
		if next := tk.Next; next == nil || next.Position == nil || tk.Position == nil || next.Position.Line != tk.Position.Line || next.Type == token.CommentType {
			return `a bare - after a key reads as the start of a list; for none, write "-" in quotes`
		}
		return "a list cannot begin on its key's line; write its items on the lines below (- item), or in brackets ([a, b])"
	case msg == "non-map value is specified" && tk != nil:
		// A line among a mapping's keys that is no key: its text.
		return "expected key: value, with a colon and a space after the key; found " + Excerpt(tk.Value)
	case gluedKey(msg, tk) != nil:
		// The same as the first key of a mapping. Its text runs on over
		// the next line's key ("name:x ruleset"): its source's first
		// line is the one at fault.
		line, _, _ := strings.Cut(strings.TrimLeft(gluedKey(msg, tk).Origin, " \t\r\n"), "\n")
		return "expected key: value, with a colon and a space after the key; found " + Excerpt(strings.TrimRight(line, " \t\r"))
	}
	return "YAML syntax: " + msg
}

// gluedKey returns the token at fault when a mapping's first key has no
// space after its colon ("name:x"), where the library reports the keys
// that follow: "unexpected key name" at the text itself, or, when a
// comment ends its line, "value is not allowed in this context" at the
// next key. It returns nil for every other error.
func gluedKey(msg string, tk *token.Token) *token.Token {
	if tk == nil {
		return nil
	}
	glued := func(t *token.Token) bool {
		return t != nil && t.Type == token.StringType && strings.Contains(t.Value, ":")
	}
	switch msg {
	case "unexpected key name":
		if glued(tk) {
			return tk
		}
	case "value is not allowed in this context":
		p := tk.Prev
		for p != nil && p.Type == token.CommentType {
			p = p.Prev
		}
		if glued(p) && p.Position != nil && tk.Position != nil && p.Position.Line < tk.Position.Line {
			return p
		}
	}
	return nil
}

type converter struct {
	file    string
	kind    yamlFile
	anchors map[string]anchor
	// open are the anchors whose values are being converted, by name,
	// at their lines: an alias to one is inside its own value.
	open map[string]int
	// errs are the constructs found that a file may not use; stop is set
	// once reading goes no further (fatal).
	errs []*Error
	stop bool
	// nodes counts the values converted, an alias counting as many as its
	// anchor holds: the decoder walks an alias's values at each use.
	nodes int
	// keys are each mapping's keys read so far, by their text.
	keys map[*Node]map[string]*Node
	// bytes counts the text of the values converted, as nodes counts
	// them.
	bytes int
}

// anchor is a value an alias may repeat, and how many values it holds.
type anchor struct {
	node  *Node
	nodes int
	bytes int // of its text
}

// maxTextBytes bounds the text of a file's values, an alias's counted at
// each use: what reads a value works on its text, so that a megabyte
// repeated by thousands of aliases would cost as many megabytes' work.
const maxTextBytes = 4 * MaxFileSize

// maxDepth bounds nesting, so that a hostile file cannot exhaust the stack.
const maxDepth = MaxDepth

// fail records a construct the file may not use and goes on, so that each
// one is reported; the scenario's own checks wait until none is left.
func (c *converter) fail(n ast.Node, format string, args ...any) *Node {
	line, col := pos(n)
	c.errs = append(c.errs, &Error{File: c.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
	return &Node{Kind: NullNode}
}

// fatal records a problem after which nothing more is read: a file nested
// or aliased past the bounds that keep its reading cheap.
func (c *converter) fatal(n ast.Node, format string, args ...any) *Node {
	c.stop = true
	return c.fail(n, format, args...)
}

func pos(n ast.Node) (line, col int) {
	if n == nil {
		return 1, 1
	}
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return 1, 1
	}
	return tk.Position.Line, tk.Position.Column
}

func (c *converter) convert(n ast.Node, depth int) *Node {
	if c.stop {
		return &Node{Kind: NullNode}
	}
	if depth > maxDepth {
		return c.fatal(n, "nested more than %d levels deep", maxDepth)
	}
	if c.nodes++; c.nodes > MaxNodes {
		return c.fatal(n, "more than %d values in one file, aliases counted at each use; %s needs far fewer", MaxNodes, c.kind.one)
	}
	line, col := pos(n)
	out := &Node{Line: line, Col: col}
	switch v := n.(type) {
	case nil:
		out.Kind = NullNode
	case *ast.NullNode:
		out.Kind = NullNode
	case *ast.StringNode:
		out.Kind, out.Text, out.textOff = ScalarNode, v.Value, textOffset(v.GetToken())
	case *ast.LiteralNode:
		out.Kind, out.Text, out.textOff = ScalarNode, v.Value.Value, -1
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		out.Kind, out.Text, out.textOff = ScalarNode, n.GetToken().Value, textOffset(n.GetToken())
	case *ast.MappingNode:
		out.Kind = MapNode
		for _, mv := range v.Values {
			c.addPair(out, mv, depth)
		}
		if len(out.Keys) > 0 && !v.IsFlowStyle {
			// A block mapping is where its first key is; goccy places it
			// at the first colon.
			out.Line, out.Col = out.Keys[0].Line, out.Keys[0].Col
		}
	case *ast.MappingValueNode:
		out.Kind = MapNode
		c.addPair(out, v, depth)
		if len(out.Keys) > 0 {
			out.Line, out.Col = out.Keys[0].Line, out.Keys[0].Col
		}
	case *ast.SequenceNode:
		out.Kind = SeqNode
		for _, item := range v.Values {
			out.Items = append(out.Items, c.convert(item, depth+1))
		}
	case *ast.AnchorNode:
		before, bytesBefore := c.nodes, c.bytes
		name := v.Name.GetToken().Value
		if c.open == nil {
			c.open = map[string]int{}
		}
		prev, reopened := c.open[name]
		c.open[name] = line
		inner := c.convert(v.Value, depth+1)
		if reopened {
			c.open[name] = prev
		} else {
			delete(c.open, name)
		}
		c.anchors[name] = anchor{node: inner, nodes: c.nodes - before, bytes: c.bytes - bytesBefore}
		return inner
	case *ast.AliasNode:
		name := v.Value.GetToken().Value
		target, ok := c.anchors[name]
		if at, inside := c.open[name]; inside && !ok {
			return c.fail(n, "alias *%s stands inside the value of its own anchor &%s (line %d), which would then hold itself; write the value out", Excerpt(name), Excerpt(name), at)
		}
		if !ok {
			return c.fail(n, "alias *%s names no anchor defined before it", Excerpt(name))
		}
		if c.nodes += target.nodes; c.nodes > MaxNodes {
			return c.fatal(n, "more than %d values in one file, aliases counted at each use; %s needs far fewer", MaxNodes, c.kind.one)
		}
		if c.bytes += target.bytes; c.bytes > maxTextBytes {
			return c.fatal(n, "more than %d bytes of text in one file's values, aliases counted at each use; %s needs far fewer", maxTextBytes, c.kind.one)
		}
		if target.node.Kind == ScalarNode {
			// A value is placed where it is used: a problem with the
			// alias (an unknown key, a value out of range there) is
			// found at *NAME, not at the anchor, whose text it is not.
			at := *target.node
			at.Line, at.Col, at.textOff = line, col, -1
			return &at
		}
		return target.node
	case *ast.TagNode:
		return c.fail(n, "YAML tags such as %s are not used in scenarios; remove it", v.Start.Value)
	case *ast.MergeKeyNode:
		return c.fail(n, "merge keys (<<) are not supported; write the keys out")
	case *ast.MappingKeyNode:
		return c.fail(n, "complex keys (? key) are not supported; write key: value")
	default:
		return c.fail(n, "unsupported YAML construct (%s)", n.Type())
	}
	c.bytes += len(out.Text)
	return out
}

func (c *converter) addPair(m *Node, mv *ast.MappingValueNode, depth int) {
	if _, ok := mv.Key.(*ast.MergeKeyNode); ok {
		c.fail(mv.Key, "merge keys (<<) are not supported; write the keys out")
		c.convert(mv.Value, depth+1) // for what it holds that is refused too
		return
	}
	before := len(c.errs)
	k := c.convert(mv.Key, depth+1)
	if c.stop || len(c.errs) > before {
		return // the key is reported already (a tag, an alias, a bound)
	}
	if k.Kind != ScalarNode {
		c.fail(mv.Key, "a mapping key must be a plain name, found %s", k.Kind)
		return
	}
	keys := c.keys[m]
	if keys == nil {
		// A set a mapping: comparing each key with every earlier one
		// took time in the square of a large mapping's keys.
		if c.keys == nil {
			c.keys = map[*Node]map[string]*Node{}
		}
		keys = map[string]*Node{}
		c.keys[m] = keys
	}
	if prev, ok := keys[k.Text]; ok {
		c.fail(mv.Key, "key %s appears twice in this mapping (first at line %d)", Excerpt(k.Text), prev.Line)
		return
	}
	keys[k.Text] = k
	m.Keys = append(m.Keys, k)
	m.Vals = append(m.Vals, c.convert(mv.Value, depth+1))
}
