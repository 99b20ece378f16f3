//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// stdoutClosed reports whether the program was started with its standard
// output closed (simulate run x >&-). Go's runtime then opens /dev/null in
// its place, read-write, so that no file the program opens later takes
// its number: every write succeeds and the results would be lost without
// a word. A shell's redirect to /dev/null (> /dev/null) opens it write-only,
// and is taken as meant.
func stdoutClosed() bool {
	fi, err := os.Stdout.Stat()
	if err != nil {
		return false
	}
	null, err := os.Stat(os.DevNull)
	if err != nil || !os.SameFile(fi, null) {
		return false
	}
	flags, err := unix.FcntlInt(os.Stdout.Fd(), unix.F_GETFL, 0)
	return err == nil && flags&unix.O_ACCMODE == unix.O_RDWR
}
