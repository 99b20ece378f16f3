package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
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
