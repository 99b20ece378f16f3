package scenarios

import (
	"fmt"
	"strings"
)

// Error is a problem with a scenario file, at a place in it.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

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
