//go:build unix

package reports

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// wOK asks access(2) about writing; POSIX gives it the value 2 everywhere.
const wOK = 2

// notReplaceable refuses target, an existing regular file (fi), that the
// user could not write through a shell's redirect, or could not replace
// by a rename in its folder (see replacement).
func notReplaceable(path, target string, fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	dir := filepath.Dir(target)
	di, err := os.Stat(dir)
	if err != nil {
		return nil // the folder's own check names the problem
	}
	dst, ok := di.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	r := replacement{euid: os.Geteuid(), access: syscall.Access(target, wOK), mode: fi.Mode(), owner: int(st.Uid),
		dir: dir, dirMode: di.Mode(), dirOwner: int(dst.Uid)}
	if why := r.refusal(); why != "" {
		return fmt.Errorf("cannot write %s: %s; choose another file", shortPath(path), why)
	}
	return nil
}

// replacement is what decides whether a user may replace an existing
// regular file by renaming a new one over it, as Files does.
type replacement struct {
	euid     int         // the user, 0 for root
	access   error       // access(2) asked about writing the file: nil when a redirect could
	mode     fs.FileMode // the file's
	owner    int         // the file's owner
	dir      string      // the folder the file is in
	dirMode  fs.FileMode // the folder's, fs.ModeSticky included
	dirOwner int         // the folder's owner
}

// refusal says why the file may not be replaced, or "" when it may.
//
// A file the user may not write (its mode, owner, group or access list,
// or a read-only file system, as access(2) says) is not replaced: a
// shell's redirect would not write it, while a rename needs only a
// writable folder. In a folder with the sticky bit set (as /tmp), a file
// may be renamed over only by its owner, by the folder's owner, or by
// root (who may do so anywhere): anyone else's rename fails (EPERM), and
// would fail only once the run is done.
func (r replacement) refusal() string {
	switch {
	case r.access != nil:
		return fmt.Sprintf("%v (mode %04o, owner uid %d): a shell's redirect could not write it either", r.access, r.mode.Perm(), r.owner)
	case r.dirMode&fs.ModeSticky != 0 && r.euid != 0 && r.owner != r.euid && r.dirOwner != r.euid:
		return fmt.Sprintf("it is another user's (uid %d), in %s, a folder with the sticky bit set (mode %04o), where only the file's owner, the folder's owner (uid %d) or root may replace it",
			r.owner, shortPath(r.dir), r.dirMode.Perm()|0o1000, r.dirOwner)
	}
	return ""
}
