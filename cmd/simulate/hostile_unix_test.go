//go:build unix

package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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

// writeFIFO makes a FIFO at path and writes n bytes of comment lines into
// it in the background, until they are written or the reader closes it: a
// file whose size (0) says nothing of what it holds, as /dev/zero's does,
// but finite, so that a reader with no bound still ends.
func writeFIFO(t *testing.T, path string, n int) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		line := []byte("# a comment line of a file without end\n")
		for written := 0; written < n; written += len(line) {
			if _, err := f.Write(line); err != nil {
				return // the reader stopped reading
			}
		}
	}()
	t.Cleanup(func() {
		// Unblock a writer still waiting for a reader that never came.
		if r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			r.Close()
		}
		<-done
	})
}

// TestSecondSignalEnds: a command blocked where cancellation does not
// reach (opening a scenario FIFO that nobody writes) ends at the second
// Ctrl-C, as it would without the signal handler, instead of never. The
// test binary runs main itself, as simulate run FIFO.
func TestSecondSignalEnds(t *testing.T) {
	if fifo := os.Getenv("SIMULATE_TEST_FIFO"); fifo != "" {
		os.Args = []string{"simulate", "run", fifo}
		main()
		return
	}
	_, cmd, done := childOnAFIFO(t, "TestSecondSignalEnds", "SIMULATE_TEST_FIFO")
	// SIGTERM, not SIGINT: a job a shell starts in the background inherits
	// SIGINT ignored, and the default the handler gives back would ignore
	// the second one too.
	time.Sleep(time.Second) // the handler is set up by then, almost always
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
		// Killed before the handler was set up (a slow start on a loaded
		// machine): this run says nothing either way.
		t.Skip("the child ended at the first signal, before its handler was set up")
	case <-time.After(2 * twinSignal): // past the twin of the first
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-done:
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("child ended with %v, want a signal", err)
		}
		if ws, ok := exit.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
			t.Errorf("child ended with %v, want killed by the second SIGTERM", err)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Error("simulate run FIFO still running 10s after a second SIGTERM")
	}
}

// mkfifo makes a FIFO at path.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

// TestTwinSignalIsOne: a signal sent twice at once, as timeout(1) sends
// its signal to the command and then to its process group, is one
// interruption: the program stopped by the first (here blocked opening a
// FIFO, where no cancellation reaches) is still there after the twin, and
// a later signal ends it. The child says when its handler is set up (a
// file it writes), as main sets it up.
func TestTwinSignalIsOne(t *testing.T) {
	if fifo := os.Getenv("SIMULATE_TEST_TWIN_FIFO"); fifo != "" {
		ctx, stop := notifyContext()
		if err := os.WriteFile(fifo+".ready", nil, 0o644); err != nil {
			os.Exit(3)
		}
		err := run(ctx, []string{"run", fifo}, os.Stdout, os.Stderr)
		stop()
		os.Exit(exitCode(err, os.Stderr))
	}
	fifo, cmd, done := childOnAFIFO(t, "TestTwinSignalIsOne", "SIMULATE_TEST_TWIN_FIFO")
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(fifo + ".ready"); err == nil {
			break
		}
		if time.Now().After(end) {
			cmd.Process.Kill()
			<-done
			t.Fatal("the child did not set its handler up within 10s")
		}
	}
	// The twin comes a moment later, as the process group's does: long
	// enough for the first to have stopped the handler, were it the
	// handler's last.
	cmd.Process.Signal(syscall.SIGTERM)
	time.Sleep(twinSignal / 10)
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-done:
		t.Fatalf("the child ended at a twin signal: %v", err)
	case <-time.After(2 * twinSignal):
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Error("simulate run FIFO still running 10s after a signal past the twin")
	}
}

// childOnAFIFO starts the test binary again to run test, with env naming
// a FIFO that nobody writes, and returns the FIFO, the child and the
// channel its end comes on. It skips where there are no FIFOs.
func childOnAFIFO(t *testing.T, test, env string) (string, *exec.Cmd, chan error) {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "nobody-writes.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env+"="+fifo)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return fifo, cmd, done
}
