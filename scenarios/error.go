package scenarios

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Error is a problem with a scenario file, at a place in it.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	msg := e.Msg
	if len(msg) > maxMsg {
		// Whatever a message quotes of the input, it stays short.
		cut := maxMsg
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "..."
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, msg)
}

// maxMsg is the longest message an Error prints, in bytes.
const maxMsg = 400

// ErrorList is every problem found in one scenario file, in file order.
type ErrorList []*Error

func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// maxErrors caps how many problems one load reports: past that, the rest
// are usually echoes of the first.
const maxErrors = 20
