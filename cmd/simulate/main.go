package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// After the first signal a second one ends the program at once, as it
	// would without the handler: the first may find it blocked where no
	// cancellation reaches, such as opening a FIFO that nobody writes.
	go func() { <-ctx.Done(); stop() }()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
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
	fmt.Fprintln(stderr, "simulate:", err)
	var u *usageError
	switch {
	case errors.As(err, &u):
		fmt.Fprintln(stderr, u.hint())
		return exitUsage
	case errors.Is(err, errInterrupted), errors.Is(err, errCancelled):
		return exitInterrupted
	}
	return exitError
}
