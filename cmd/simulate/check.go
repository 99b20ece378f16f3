package main

import (
	"flag"
	"fmt"
	"io"
)

// checkFlag is --check of run, compare and merge: the command checks what
// it can before doing any work (its arguments and flags, the scenarios it
// would read, every destination it would write, and for a shard what only
// a shard refuses) and stops there. A script that submits a long or
// sharded run calls it first, so that a mistake is refused where it was
// made, not by every task of a job array on the cluster.
func checkFlag(fs *flag.FlagSet, what string) *bool {
	return fs.Bool("check", false, "check the command ("+what+") and exit without running it, writing nothing: exit 0 when it would run, else its error and exit status")
}

// checked says that a --check passed.
func checked(stderr io.Writer, cmd string) error {
	fmt.Fprintf(stderr, "simulate: %s: check passed; nothing was run or written\n", cmd)
	return nil
}
