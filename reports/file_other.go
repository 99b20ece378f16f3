//go:build !unix

package reports

import "io/fs"

// notReplaceable has nothing to add where files have no owners and
// folders no sticky bit: a file's read-only attribute, which readOnly
// checks, is what refuses a write there.
func notReplaceable(path, target string, fi fs.FileInfo) error { return nil }

// descriptor finds no descriptor in a path where there is no /dev/fd.
func descriptor(path string) (fd int, ok bool) { return 0, false }

func checkDescriptor(path string, fd int) error { return nil }

func writeDescriptor(fd int, b []byte) error { return nil }

// standardStream is "" where a file open as a standard stream may not be
// renamed over anyway.
func standardStream(target string) (name, dev string) { return "", "" }
