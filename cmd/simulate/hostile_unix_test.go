//go:build unix

package main

import (
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the processor time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// readFIFO makes a FIFO at path and reads it whole in the background; the
// test fails if what it read is not a results table.
func readFIFO(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan string)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			done <- err.Error()
			return
		}
		data, _ := io.ReadAll(f)
		f.Close()
		done <- string(data)
	}()
	t.Cleanup(func() {
		if got := <-done; !strings.Contains(got, "random-movement") {
			t.Errorf("the FIFO's reader got %q, want the results", excerptOf(got))
		}
	})
}
