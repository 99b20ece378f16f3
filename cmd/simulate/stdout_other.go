//go:build !unix

package main

// stdoutClosed: Go's runtime stands /dev/null in for a closed standard
// output on Unix alone.
func stdoutClosed() bool { return false }
