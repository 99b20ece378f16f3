package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
	"unicode"

	"hammersim/reports"
)

func main() {
	ctx, stop := notifyContext()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// twinSignal is how soon after the first a signal is taken for the same
// one sent twice: timeout(1) sends its signal to the command and then to
// the command's process group, which holds the command again.
const twinSignal = 500 * time.Millisecond

// notifyContext returns a context that an interrupt or SIGTERM ends.
// After the first signal a second one ends the program at once, as it
// would without the handler (the first may find it blocked where no
// cancellation reaches, such as opening a FIFO that nobody writes), but
// for one within twinSignal of the first, which is dropped.
func notifyContext() (context.Context, func()) {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-sigs:
		case <-ctx.Done():
			return
		}
		cancel()
		time.Sleep(twinSignal)
		signal.Stop(sigs)
	}()
	return ctx, func() { signal.Stop(sigs); cancel() }
}

// Exit codes.
const (
	exitOK          = 0
	exitError       = 1   // bad scenario, unwritable file, ...
	exitUsage       = 2   // bad command line
	exitInterrupted = 130 // stopped by a signal; partial results were written
)

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, "simulate:", visible(err.Error()))
	var u *usageError
	switch {
	case errors.As(err, &u):
		fmt.Fprintln(stderr, u.hint())
		return exitUsage
	case errors.Is(err, errInterrupted), errors.Is(err, errCancelled), errors.Is(err, reports.ErrStopped):
		return exitInterrupted
	}
	return exitError
}

// visible escapes the control characters of a message for the terminal
// (a file name may hold an escape sequence that would recolour or rewrite
// the screen), keeping line breaks and tabs: ESC prints as \x1b.
func visible(s string) string {
	if !strings.ContainsFunc(s, hidden) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !hidden(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}

// hidden reports whether r is a control character other than a line break
// or a tab.
func hidden(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }
