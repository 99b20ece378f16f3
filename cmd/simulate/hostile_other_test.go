//go:build !unix

package main

import (
	"errors"
	"testing"
	"time"
)

func readFIFO(t *testing.T, path string) { t.Skip("no FIFOs on this system") }

// cpuTime is 0 where the processor time is not known: no case can then
// exceed its budget.
func cpuTime() time.Duration { return 0 }

func writeFIFO(t *testing.T, path string, n int) { t.Skip("no FIFOs on this system") }

// mkfifo fails where there are no FIFOs: the cases that need one are
// left out.
func mkfifo(path string) error { return errors.ErrUnsupported }
