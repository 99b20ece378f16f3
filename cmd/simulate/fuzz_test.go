package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzFlags runs the command line with fuzzed flag values. Whatever they
// are, the command must end, without a panic, in a result or an error; a
// usage error is one line, with nothing on standard output; "interrupted"
// is said only when the run was cancelled. Each run is cancelled after a
// fraction of a second, as Ctrl-C would, so that huge but valid counts
// end quickly too.
func FuzzFlags(f *testing.F) {
	f.Add(uint8(0), "1000", "2", "", "", "json", "auto", "out.json")
	f.Add(uint8(0), "1e6", "0", "0.01", "100000", "table", "never", "")
	f.Add(uint8(0), "9223372036854775807", "1000000000", "NaN", "0", "csv", "always", "")
	f.Add(uint8(0), "-1", "-5", "0.5", "-3", "markdown", "sometimes", "r.md")
	f.Add(uint8(1), "2000", "3", "", "", "json", "auto", "c.html")
	f.Add(uint8(2), "1_000", "-5", "", "", "table", "", "")
	f.Add(uint8(2), "1,000,000", "1", "", "", "xml", "", "d.csv")
	f.Fuzz(func(t *testing.T, cmd uint8, trials, workers, precision, maxTrials, format, progress, output string) {
		var args []string
		switch cmd % 3 {
		case 0:
			args = []string{"run", "random-movement"}
			if precision != "" {
				args = append(args, "--precision", precision)
			}
			if maxTrials != "" {
				args = append(args, "--max-trials", maxTrials)
			}
			args = append(args, "--progress", progress)
		case 1:
			args = []string{"compare", "doomwheel-balance", "--progress", progress}
		default:
			args = []string{"dice", "3D6", "discard", "lowest"}
		}
		args = append(args, "--trials", trials, "--workers", workers, "--format", format)
		if output != "" {
			// Only ever inside the test's directory.
			args = append(args, "-o", filepath.Join(t.TempDir(), filepath.Base(output)))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		defer cancel()
		var stdout, stderr bytes.Buffer
		err := run(ctx, args, &stdout, &stderr)
		var u *usageError
		if errors.As(err, &u) {
			if strings.Contains(u.Error(), "\n") {
				t.Errorf("%q: a usage error of several lines: %q", args, u.Error())
			}
			if stdout.Len() > 0 {
				t.Errorf("%q: a usage error wrote to standard output", args)
			}
		}
		if err != nil && strings.Contains(err.Error(), "interrupted") && ctx.Err() == nil {
			t.Errorf("%q: says interrupted without a cancellation: %v", args, err)
		}
	})
}
