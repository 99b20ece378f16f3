package scenarios

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/token"
)

// Limits on a scenario file. Scenario files are a few kilobytes; the
// limits are far above that and low enough that a hostile file is refused
// in a fraction of a second and a few megabytes: the YAML library spends
// about 20 µs and 1 KB on each value it reads, so the file's size, nesting
// and number of values are checked before it reads any.
const (
	// MaxFileSize is the largest scenario file read, in bytes (1 MiB).
	MaxFileSize = 1 << 20
	// MaxDepth is how deeply collections may nest.
	MaxDepth = 64
	// MaxNodes is how many values (keys, scalars, lists, mappings, and the
	// values an alias repeats) a file may hold: twice the longest sweep
	// written as a list.
	MaxNodes = 2 * maxSweepValues
)

// readLimited reads a scenario file of at most MaxFileSize bytes; a larger
// one, or an endless one such as /dev/zero, is refused once the limit is
// passed.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxFileSize {
		return nil, tooLarge(path, scenarioYAML)
	}
	return src, nil
}

// tooLarge refuses a file of more than MaxFileSize bytes, as the kind of
// file it was read as.
func tooLarge(file string, kind yamlFile) error {
	return &Error{File: file, Line: 1, Col: 1, Msg: fmt.Sprintf("the file is larger than %d bytes (1 MiB), the most %s may be; is it %s?", MaxFileSize, kind.one, kind.called)}
}

// bom is the UTF-8 byte-order mark some editors put at the start of a file.
var bom = []byte("\xEF\xBB\xBF")

// yamlScan follows the structure of a YAML file line by line, as far as
// nesting and the number of values go, without building anything: flow
// brackets, block indentation, sequence dashes, keys, commas and aliases,
// skipping comments, quoted text and block scalars. It over-counts rather
// than under-counts.
type yamlScan struct {
	file    string
	kind    yamlFile
	nodes   int
	flow    int   // flow collections open
	indents []int // block indentation levels open
	// block is the indentation of the line that opened a block scalar
	// (| or >), or -1; blockText is that of its first line of text, or -1
	// before it: lines indented as far are its text.
	block, blockText int
	blockBytes       int  // the bytes of the open block scalar's text so far
	quote            byte // the quote of a quoted scalar open across lines, or 0
	blanks           int  // blank lines in a row
}

// maxBlankRun is how many blank lines may follow each other. The YAML
// library strips a block scalar's trailing line breaks one at a time,
// working its whole text again at each: 20,000 blank lines after one take
// seconds, a megabyte of them hours.
const maxBlankRun = 1000

// maxBlankWork bounds the blank lines in a row after a block scalar's
// text times the bytes of that text: the YAML library works the text again
// for each trailing line break (1,000 blank lines after a megabyte of
// text took 14 s).
const maxBlankWork = 2e7

// maxTabs is the most tabs a line may hold: the YAML library looks for the
// end of the line at each tab inside a double-quoted value.
const maxTabs = 100

// maxAngleRun is the longest run of "<" a line may hold: the YAML library
// counts the rest of the run at each, to tell a merge key "<<" (40,000 in
// a row took a second, a megabyte of them minutes).
const maxAngleRun = 100

var angleRun = bytes.Repeat([]byte{'<'}, maxAngleRun+1)

// scanLimits checks the nesting depth and number of values of src, a file
// of the kind given, before the YAML library reads it.
func scanLimits(file string, src []byte, kind yamlFile) error {
	s := yamlScan{file: file, kind: kind, block: -1, blockText: -1}
	for n := 1; len(src) > 0; n++ {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		if err := s.line(n, line); err != nil {
			return err
		}
	}
	return nil
}

// fail reports a problem at byte p of line n's text; its column counts
// the characters before p, as the YAML parser's columns do.
func (s *yamlScan) fail(n int, text []byte, p int, format string, args ...any) error {
	col := utf8.RuneCount(text[:min(p, len(text))]) + 1
	return &Error{File: s.file, Line: n, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func indentOf(line []byte) int {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	return i
}

func blank(line []byte) bool {
	t := bytes.TrimSpace(line)
	return len(t) == 0 || t[0] == '#'
}

func (s *yamlScan) line(n int, line []byte) error {
	indent := indentOf(line)
	if len(bytes.TrimSpace(line)) == 0 {
		if s.blanks++; s.blanks > maxBlankRun {
			return s.fail(n, line, 0, "more than %d blank lines in a row; %s needs far fewer", maxBlankRun, s.kind.one)
		}
		if s.block >= 0 && float64(s.blanks)*float64(s.blockBytes) > maxBlankWork {
			return s.fail(n, line, 0, "%d blank lines in a row after %d bytes of a block scalar's text (| or >), more than the YAML reader can take; remove blank lines or shorten the text", s.blanks, s.blockBytes)
		}
	} else {
		s.blanks = 0
	}
	if t := bytes.Count(line, []byte{'\t'}); t > maxTabs {
		return s.fail(n, line, bytes.IndexByte(line, '\t'), "%d tabs on one line, more than the %d the YAML reader can take; write spaces", t, maxTabs)
	}
	if i := bytes.Index(line, angleRun); i >= 0 {
		return s.fail(n, line, i, "more than %d \"<\" in a row, more than the YAML reader can take", maxAngleRun)
	}
	if s.block >= 0 {
		switch {
		case len(bytes.TrimSpace(line)) == 0:
			return nil
		case s.blockText < 0 && indent > s.block:
			// The first line of text sets the indentation of the rest:
			// a line indented less ends it, though it may be indented
			// more than the line of the header ("- a: |" then "  b:").
			s.blockText = indent
			s.blockBytes += len(line) + 1
			return nil
		case s.blockText >= 0 && indent >= s.blockText:
			s.blockBytes += len(line) + 1
			return nil // text of the block scalar
		}
		s.block, s.blockText, s.blockBytes = -1, -1, 0
	}
	p := 0
	depth := 0
	if s.quote == 0 && s.flow == 0 && !blank(line) {
		for len(s.indents) > 0 && s.indents[len(s.indents)-1] > indent {
			s.indents = s.indents[:len(s.indents)-1]
		}
		if len(s.indents) == 0 || s.indents[len(s.indents)-1] < indent {
			s.indents = append(s.indents, indent)
		}
		depth = len(s.indents)
		// "- - - x" opens a sequence at each dash.
		for p = indent; p < len(line) && line[p] == '-' && (p+1 == len(line) || line[p+1] == ' '); {
			depth++
			s.nodes++
			p++
			for p < len(line) && line[p] == ' ' {
				p++
			}
		}
		if depth > MaxDepth {
			return s.fail(n, line, indent, "nested more than %d levels deep", MaxDepth)
		}
	}
	return s.rest(n, line, p, depth, indent)
}

// rest scans a line from p for flow brackets, keys, commas, aliases,
// quotes, comments and block scalar headers.
//
// As the YAML library reads it, a quote, a bracket in block context, an
// alias and a block scalar header start something only where no plain
// value has begun: at the line's start, after a key's colon and space,
// after a flow collection's bracket or comma. Inside a plain value
// (b:"x, or x "y after a key) they are its text. Where the scanner cannot
// tell, it reads on as if no quote had opened, which counts more, never
// less; tokenLimits then checks what the library itself reads.
func (s *yamlScan) rest(n int, line []byte, p, depth, indent int) error {
	tokenStart := true
	plain := false  // a plain value has begun
	quoted := false // a quoted value has just closed
	for ; p < len(line); p++ {
		c := line[p]
		if s.quote != 0 {
			p = s.closeQuote(line, p)
			tokenStart, plain, quoted = false, false, s.quote == 0
			continue
		}
		free := tokenStart && !plain // where a value may begin
		// A quoted key's colon in a flow collection needs no space after
		// it, as JSON writes {"a":"b"}.
		jsonColon := c == ':' && quoted && s.flow > 0
		quoted = false
		switch {
		case (c == '&' || c == '!') && free:
			// An anchor or a tag: its name, then the value it marks.
			for p+1 < len(line) && line[p+1] != ' ' && line[p+1] != '\t' && (s.flow == 0 || strings.IndexByte(",[]{}", line[p+1]) < 0) {
				p++
			}
			tokenStart = false
			continue
		case jsonColon:
			s.nodes += 2
			plain, tokenStart = false, true
			continue
		case c == '#' && (p == 0 || line[p-1] == ' ' || line[p-1] == '\t'):
			return s.count(n, line, p)
		case (c == '"' || c == '\'') && free:
			s.quote = c
			p = s.closeQuote(line, p+1)
			quoted = s.quote == 0
		case (c == '[' || c == '{') && (free || s.flow > 0):
			s.flow++
			s.nodes++
			plain = false
			if depth+s.flow > MaxDepth {
				return s.fail(n, line, p, "nested more than %d levels deep", MaxDepth)
			}
		case (c == ']' || c == '}') && s.flow > 0:
			s.flow--
			plain = false
		case c == ',' && s.flow > 0:
			s.nodes++
			plain = false
		case c == ':' && (p+1 == len(line) || strings.IndexByte(" \t\r,]}", line[p+1]) >= 0):
			s.nodes += 2
			plain = false
		case c == '*' && free:
			s.nodes++
			plain = true
		case (c == '|' || c == '>') && free && s.flow == 0 && blockHeader(line[p+1:]):
			s.block = indent
			return s.count(n, line, p)
		case c != ' ' && c != '\t' && !(c == '-' || c == '?') || !free && c != ' ' && c != '\t':
			plain = true
		}
		tokenStart = c == ' ' || c == '\t' || s.flow > 0 && (c == '[' || c == '{' || c == ',')
	}
	return s.count(n, line, len(line))
}

// closeQuote returns the index of the quote that closes the open quoted
// scalar, at or after p, or the line's last index when it stays open.
func (s *yamlScan) closeQuote(line []byte, p int) int {
	for ; p < len(line); p++ {
		switch {
		case s.quote == '"' && line[p] == '\\':
			p++
		case line[p] == s.quote && s.quote == '\'' && p+1 < len(line) && line[p+1] == '\'':
			p++ // '' is a quote inside single quotes
		case line[p] == s.quote:
			s.quote = 0
			return p
		}
	}
	return len(line) - 1
}

// blockHeader reports whether what follows | or > makes it a block scalar
// header: indentation and chomping indicators, then nothing or a comment.
func blockHeader(rest []byte) bool {
	rest = bytes.TrimLeft(rest, "+-0123456789")
	t := bytes.TrimSpace(rest)
	return len(t) == 0 || (t[0] == '#' && len(rest) > len(bytes.TrimLeft(rest, " \t")))
}

func (s *yamlScan) count(n int, line []byte, p int) error {
	if s.nodes > MaxNodes {
		return s.fail(n, line, p, "more than %d values in one file; %s needs far fewer", MaxNodes, s.kind.one)
	}
	return nil
}

// tokenLimits checks the nesting and number of values of a file's YAML
// tokens, which are what the YAML library's parser reads, before it reads
// them. scanLimits refuses most hostile files before they are even
// tokenized, but it follows YAML's structure only as far as a line scanner
// can; this check follows the library's own reading, so that no quoting
// the scanner reads otherwise can hide nesting or values from the limits
// (the parser's time and memory grow with the square of the nesting).
//
// Block nesting is counted by the columns of sequence dashes and mapping
// keys, each further right than the one it is in opening a level: "- - -"
// on one line nests as deeply as three indented lines. A sequence written
// at its key's own column counts as that key's level, so that block
// nesting may be undercounted by half; what matters here is that tens of
// thousands of levels cannot pass, and the reading after the parse
// counts every level.
func tokenLimits(file string, tokens token.Tokens, kind yamlFile) error {
	flow, nodes := 0, 0
	var block []int // the columns of the block collections open
	docs := 0
	for i, tk := range tokens {
		switch tk.Type {
		case token.SequenceEntryType, token.MappingKeyType:
			if flow > 0 {
				// Invalid YAML, which the library reads as a block
				// collection opened inside brackets, one a dash.
				return tokenFail(file, tk, "%q inside brackets: a flow collection's values are separated by commas, such as [a, b]", tk.Value)
			}
		case token.SequenceEndType, token.MappingEndType:
			if flow == 0 {
				return tokenFail(file, tk, "%q closes nothing: no [ or { is open", tk.Value)
			}
		case token.DocumentHeaderType, token.DocumentEndType:
			// The library works out each document again at every marker.
			if docs++; docs > maxDocMarkers {
				return tokenFail(file, tk, "more than %d document markers (--- or ...); %s is one YAML document", maxDocMarkers, kind.one)
			}
		}
		if tk.Type == token.MappingValueType && i > 0 && utf8.RuneCountInString(tokens[i-1].Value) > maxKeyLen {
			// The library gives every value under a key a path that
			// spells the key out.
			return tokenFail(file, tokens[i-1], "a key of %d characters; at most %d", utf8.RuneCountInString(tokens[i-1].Value), maxKeyLen)
		}
		if tk.Type == token.SequenceEntryType && (i+1 == len(tokens) || tokens[i+1].Position == nil || tk.Position == nil || tokens[i+1].Position.Line != tk.Position.Line) {
			// An entry with nothing after it on its line: a null the
			// library adds, which costs as much as a value.
			if nodes++; nodes > MaxNodes {
				return tokenFail(file, tk, "more than %d values in one file; %s needs far fewer", MaxNodes, kind.one)
			}
		}
		if flow == 0 && tk.Position != nil && (tk.Type == token.SequenceEntryType || tk.Type == token.MappingKeyType ||
			i+1 < len(tokens) && tokens[i+1].Type == token.MappingValueType) {
			c := tk.Position.Column
			for len(block) > 0 && block[len(block)-1] > c {
				block = block[:len(block)-1]
			}
			if len(block) == 0 || block[len(block)-1] < c {
				block = append(block, c)
			}
			if len(block) > MaxDepth {
				return tokenFail(file, tk, "nested more than %d levels deep", MaxDepth)
			}
		}
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType:
			flow++
			nodes++
			if len(block)+flow > MaxDepth {
				return tokenFail(file, tk, "nested more than %d levels deep", MaxDepth)
			}
		case token.SequenceEndType, token.MappingEndType:
			flow--
		case token.DocumentHeaderType, token.DocumentEndType, token.SequenceEntryType,
			token.MappingKeyType, token.MappingValueType, token.CollectEntryType,
			token.CommentType, token.AnchorType, token.TagType, token.DirectiveType,
			token.SpaceType, token.LiteralType, token.FoldedType:
			// Indicators and headers: the values they mark are counted.
		default:
			nodes++
			if nodes > MaxNodes {
				return tokenFail(file, tk, "more than %d values in one file; %s needs far fewer", MaxNodes, kind.one)
			}
		}
	}
	return nil
}

// maxDocMarkers is how many document markers (--- and ...) a file may
// hold: one document, begun and ended, and a stray one.
const maxDocMarkers = 3

// maxKeyLen is the longest key, in characters. A scenario's keys are names of
// a few words; the YAML library spells every key above a value out in the
// value's path, so that long keys nested deep cost their length times the
// depth for every value (60 keys of 1,024 bytes above 19,800 values took
// 1.3 GB; 64 of 128 above 20,000 take about 160 MB at the most).
const maxKeyLen = 128

// maxNameLen is the longest name, in characters, of a scenario, a unit, a
// profile or a weapon: every table, plot and comparison prints the names
// of the units beside each of their rows, so that two names of 300 KB
// made a table of 123 MB out of a scenario of 600 KB.
const maxNameLen = 200

// tokenFail reports a problem at a YAML token.
func tokenFail(file string, tk *token.Token, format string, args ...any) error {
	line, col := 1, 1
	if tk.Position != nil {
		line, col = tk.Position.Line, tk.Position.Column
	}
	return &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// excerptLen is how much of the input an error message quotes.
const excerptLen = 40

// Excerpt returns s quoted, shortened to its first few dozen characters
// when it is long, so that an error never echoes a whole file.
func Excerpt(s string) string {
	if len(s) <= excerptLen {
		return fmt.Sprintf("%q", s)
	}
	cut := excerptLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q... (%d bytes)", s[:cut], len(s))
}
