package scenarios

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is a problem with a scenario file, at a place in it.
type Error struct {
	File      string
	Line, Col int
	Msg       string
	// Expected, when set, says what the place takes ("expected one of:
	// ..."). It holds the format's own words, never the input's, so it is
	// printed whole however long it is, after Msg.
	Expected string
	// Card, when set, is the built-in unit card whose text holds the
	// problem: the place is then the scenario's use of the card, which
	// made it, and the message says which card and how to see it.
	Card string
	// UsedAt, when set, is the place of the use of a card of the user's
	// catalogue whose text holds the problem ("s.yaml:5:13"): the place is
	// the card's text, and the message says which use found the problem
	// there (a card may be right alone and wrong as a use changes it).
	UsedAt string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Message())
}

// Message is the problem without its place: Msg, cut short if it is long
// (whatever a message quotes of the input, it stays short), then Expected
// whole.
func (e *Error) Message() string {
	msg := e.Msg
	if len(msg) > maxMsg {
		cut := maxMsg
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "..."
	}
	if e.Expected != "" {
		msg += "; " + e.Expected
	}
	if e.Card != "" {
		show := e.Card
		if strings.ContainsAny(show, " '\"") {
			show = strconv.Quote(show)
		}
		msg += fmt.Sprintf(" (in the built-in card %s as this use changes it; simulate units show %s prints the card)", e.Card, show)
	}
	if e.UsedAt != "" {
		msg += " (the card as used at " + e.UsedAt + ")"
	}
	return msg
}

// maxMsg is the longest message an Error prints, in bytes.
const maxMsg = 400

// ErrorList is every problem found in one scenario file, in the order the
// checks found them: a key's own problem (a misspelt key) before what it
// leaves missing in the mapping that holds it, which is its cause. Problems
// found by two passes over several files are put in file order, each
// pass's own order kept (inFileOrder).
type ErrorList []*Error

// Error is the problems shown, a line each, then a line that counts
// those left out, if any: "... and 11 more problems".
func (l ErrorList) Error() string {
	shown, more := l.Shown()
	lines := make([]string, len(shown), len(shown)+1)
	for i, e := range shown {
		lines[i] = e.Error()
	}
	if more > 0 {
		lines = append(lines, MoreProblems(more))
	}
	return strings.Join(lines, "\n")
}

// Shown returns the problems a report shows, the first maxErrors, and how
// many more there are: past that many, the rest are usually echoes of the
// first, and a screenful is enough to start fixing.
func (l ErrorList) Shown() (shown ErrorList, more int) {
	n := min(len(l), maxErrors)
	return l[:n:n], len(l) - n
}

// MoreProblems is the line that ends a list of problems cut short: how
// many more were found and not shown.
func MoreProblems(n int) string {
	if n == 1 {
		return "... and 1 more problem"
	}
	return fmt.Sprintf("... and %d more problems", n)
}

// inFileOrder returns the problems found by two passes over the files
// read, in order, reading them (read) and then checking what they hold
// (checked), as one list: each file's problems together, the files in the
// order they were read (any other file after them, as first met). Each
// pass keeps the order it found a file's problems in, which follows the
// file, except that within a mapping a misspelt key comes before the key
// it leaves missing, which is reported at the mapping, before the key: a
// sort by line and column would put the effect before its cause. The two
// passes' problems of a file are merged by position.
func inFileOrder(files []string, read, checked ErrorList) ErrorList {
	files = slices.Clone(files)
	for _, e := range slices.Concat(read, checked) {
		if !slices.Contains(files, e.File) {
			files = append(files, e.File)
		}
	}
	pos := func(a, b *Error) int { return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col)) }
	var out ErrorList
	for _, f := range files {
		elsewhere := func(e *Error) bool { return e.File != f }
		r := slices.DeleteFunc(slices.Clone(read), elsewhere)
		c := slices.DeleteFunc(slices.Clone(checked), elsewhere)
		for len(r) > 0 && len(c) > 0 {
			if pos(c[0], r[0]) < 0 {
				out, c = append(out, c[0]), c[1:]
			} else {
				out, r = append(out, r[0]), r[1:]
			}
		}
		out = slices.Concat(out, r, c)
	}
	return out
}

// maxErrors is how many problems an ErrorList shows (Shown).
const maxErrors = 20
