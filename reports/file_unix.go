//go:build unix

package reports

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
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

// descriptor reports whether path names one of this process's open file
// descriptors, fd: /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N or
// /proc/self/fd/N (or /proc/PID/fd/N with this process's PID), directly or
// through symlinks. Such a path is written through the descriptor itself:
// opened anew, it would lead to the file a shell's redirect opened and
// write it from its start where the shell appends (>>), or, being a
// regular file, it would be replaced by a rename, which leaves the
// shell's redirect writing into a deleted file and needs a folder the
// user may write.
func descriptor(path string) (fd int, ok bool) {
	p := path
	for range maxLinks {
		if fd, ok := descriptorName(filepath.Clean(p)); ok {
			return fd, true
		}
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return 0, false
		}
		link, err := os.Readlink(p)
		if err != nil {
			return 0, false
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return 0, false
}

// descriptorName reads the descriptor a clean path names by its form.
func descriptorName(p string) (fd int, ok bool) {
	switch p {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	dir, base := filepath.Split(p)
	switch dir {
	case "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/":
	default:
		return 0, false
	}
	n, err := strconv.Atoi(base)
	if err != nil || n < 0 || strconv.Itoa(n) != base {
		return 0, false
	}
	return n, true
}

// checkDescriptor reports whether fd can take an output, naming path when
// it cannot: it must be open, for writing, and on something that takes
// bytes (a file, a device, a pipe, a socket), not a folder nor one of the
// kernel's own objects (an event counter of the Go runtime's, say, which
// a path such as /dev/fd/7 can name in any Go program).
func checkDescriptor(path string, fd int) error {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return fmt.Errorf("cannot write %s: descriptor %d is not open (%v)", shortPath(path), fd, err)
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		return fmt.Errorf("cannot write %s: descriptor %d is a folder", shortPath(path), fd)
	case syscall.S_IFREG, syscall.S_IFCHR, syscall.S_IFBLK, syscall.S_IFIFO, syscall.S_IFSOCK:
	default:
		return fmt.Errorf("cannot write %s: descriptor %d is not a file, a device, a pipe or a socket", shortPath(path), fd)
	}
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	if errno == 0 && flags&syscall.O_ACCMODE == syscall.O_RDONLY {
		return fmt.Errorf("cannot write %s: descriptor %d is open for reading only (give it to the command for writing, as a shell's 3>FILE or 3>>FILE does)", shortPath(path), fd)
	}
	return nil
}

// writeDescriptor writes b to fd through a copy of it, which it closes,
// leaving fd itself as it was.
func writeDescriptor(fd int, b []byte) error {
	dup, err := syscall.Dup(fd)
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(dup), fmt.Sprintf("descriptor %d", fd))
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// standardStream names the standard stream, output or error, that
// target, a regular file, is opened as, and the path that names it; both
// are "" when it is neither.
func standardStream(target string) (name, dev string) {
	fi, err := os.Stat(target)
	if err != nil || !fi.Mode().IsRegular() {
		return "", ""
	}
	for _, s := range []struct {
		f         *os.File
		name, dev string
	}{{os.Stdout, "standard output", "/dev/stdout"}, {os.Stderr, "standard error", "/dev/stderr"}} {
		if si, err := s.f.Stat(); err == nil && os.SameFile(fi, si) {
			return s.name, s.dev
		}
	}
	return "", ""
}
