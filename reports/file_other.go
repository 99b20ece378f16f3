//go:build !unix

package reports

import "io/fs"

// notReplaceable has nothing to add where files have no owners and
// folders no sticky bit: a file's read-only attribute, which readOnly
// checks, is what refuses a write there.
func notReplaceable(path, target string, fi fs.FileInfo) error { return nil }
