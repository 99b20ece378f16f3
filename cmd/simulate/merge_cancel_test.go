package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hammersim/sim"
)

// TestMergeStopsAtASignal: a signal while merge reads its parts stops it
// before the next part: it writes nothing (no -o file, no temporary file
// beside it, nothing on standard output) and exits with 130, saying so.
// The signal comes, as a cancelled context, once 5 of the 12 parts are
// read, so the hook must never see a sixth. A signal once every part is
// read, as the scenario they carry is read again, writes nothing either.
func TestMergeStopsAtASignal(t *testing.T) {
	// 12 chunks of 16,384 trials, one per shard.
	parts := writeShards(t, t.TempDir(), []string{"run", "charge-benchmark", "--trials", "196608"}, 12)
	t.Cleanup(func() { testHookPartRead = nil })
	for _, tc := range []struct {
		name     string
		args     []string
		stopAt   int
		wantRead int
		want     string
	}{
		{"partial to a file", []string{"--format", "partial", "-o", "OUT"}, 5, 5,
			"simulate: interrupted before any result was ready; nothing was written: the merge was stopped while it read the parts"},
		{"partial to stdout", []string{"--format", "partial"}, 5, 5, "the merge was stopped while it read the parts"},
		{"json to a file", []string{"--format", "json", "-o", "OUT"}, 5, 5, "the merge was stopped while it read the parts"},
		{"check", []string{"--format", "json", "--check"}, 5, 5, "the merge was stopped while it read the parts"},
		// The scenario the parts carry is read again before the outputs,
		// a partial sum's too, whose output may not be a file it would
		// read as a unit catalogue (a large sweep takes seconds): a
		// signal stops that.
		{"partial sum after the parts", []string{"--format", "partial", "-o", "OUT"}, 12, 12,
			"simulate: interrupted before any result was ready; nothing was written: the merge was stopped while it read the scenario the parts carry"},
		{"json being written", []string{"--format", "json", "-o", "OUT"}, 12, 12,
			"the merge was stopped while it read the scenario the parts carry"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "sum")
			args := []string{"merge"}
			for _, a := range tc.args {
				args = append(args, strings.ReplaceAll(a, "OUT", out))
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			read := 0
			testHookPartRead = func(n int) {
				read = n
				if n == tc.stopAt {
					cancel()
				}
			}
			var stdout, stderr bytes.Buffer
			err := run(ctx, append(args, parts...), &stdout, &stderr)
			testHookPartRead = nil
			if code := exitCode(err, &stderr); code != exitInterrupted || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want 130 and %q", code, stderr.String(), tc.want)
			}
			if read != tc.wantRead {
				t.Errorf("read %d parts, want %d", read, tc.wantRead)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout %.100q, want nothing", stdout.String())
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("left %v in the output folder, want nothing", entries)
			}
		})
	}
	// Not stopped, the same merge writes its sum: the hook saw all 12.
	out := filepath.Join(t.TempDir(), "sum")
	if _, _, err := runCLI(t, append([]string{"merge", "--format", "partial", "-o", out}, parts...)...); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
}

// piecesReader hands out its bytes 4096 at a time, and calls after once
// the first piece is read.
type piecesReader struct {
	data  []byte
	reads int
	after func()
}

func (r *piecesReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 4096)], r.data)
	r.data = r.data[n:]
	r.reads++
	if r.reads == 1 {
		r.after()
	}
	return n, nil
}

// TestReadPartStopsWithinAPart: a signal while a long part is read stops
// the reading at the next piece: of a part of 2 MiB (512 pieces of 4096
// bytes), the piece read before the signal is the last.
func TestReadPartStopsWithinAPart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &piecesReader{data: bytes.Repeat([]byte("x"), 2<<20), after: cancel}
	if _, err := sim.ReadPart("p", ctxReader{ctx, r}); err == nil || !strings.Contains(err.Error(), context.Canceled.Error()) {
		t.Errorf("got %v, want the cancellation", err)
	}
	if r.reads != 1 {
		t.Errorf("%d reads, want 1", r.reads)
	}
}
