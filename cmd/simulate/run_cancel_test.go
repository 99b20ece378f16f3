package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"hammersim/reports"
)

// TestRunCancelledBeforeAnyTrial: a run cancelled before any point has
// completed a chunk of trials has no numbers to show: it writes nothing,
// not even the -o file, and says so with the interrupted status.
func TestRunCancelledBeforeAnyTrial(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(t.TempDir(), "r.json")
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"run", "doomwheel-vs-clanrats", "--trials", "1e9", "-o", out}, &stdout, &stderr)
	if !errors.Is(err, errCancelled) || stdout.Len() != 0 {
		t.Errorf("err %v, stdout %q; want errCancelled and nothing", err, stdout.String())
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Errorf("-o %s was written: %v", out, statErr)
	}
}

// signalAfterRun is a context whose signal comes once the trials are done:
// its Done channel never closes, so every trial runs, but Err, which the
// writing of the outputs consults, says it was cancelled.
type signalAfterRun struct{ context.Context }

func (signalAfterRun) Done() <-chan struct{} { return nil }
func (signalAfterRun) Err() error            { return context.Canceled }

// TestSignalWhileWriting: a signal that comes after the trials, while the
// outputs of a finished run are written (plots take long), stops the
// writing: no output is written, nothing is left behind, and the status is
// the interrupted one. The results of an interrupted run, partial, are
// written whatever the signal (TestHostileInput's interrupt cases).
func TestSignalWhileWriting(t *testing.T) {
	dir := t.TempDir()
	out, plots := filepath.Join(dir, "r.json"), filepath.Join(dir, "plots")
	var stdout, stderr bytes.Buffer
	err := run(signalAfterRun{context.Background()}, []string{"run", "swiftstride-charge", "--trials", "2000", "-o", out, "--plot", plots}, &stdout, &stderr)
	if !errors.Is(err, reports.ErrStopped) || exitCode(err, io.Discard) != exitInterrupted || stdout.Len() != 0 {
		t.Fatalf("err %v, stdout %q; want the outputs stopped, status %d", err, stdout.String(), exitInterrupted)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("the stopped outputs left %d entries behind, the first %s", len(entries), entries[0].Name())
	}
}
