package reports

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Files is a set of output files written together, whole or not at all.
// Add prepares each file: a regular file (or a new one) is written into a
// temporary file in its target's own directory; anything else that exists,
// such as /dev/null, a terminal or a FIFO, is rendered into memory, since it
// must be written into rather than replaced, and so is a path that names
// an open descriptor (/dev/stdout, /dev/fd/3), which is written through
// the descriptor. Commit then moves every
// prepared file into place, so nothing is replaced until all are ready;
// Discard removes what Add prepared. A symlink is followed: the file it
// points to is replaced and the link stays a link. A replaced file keeps its
// permission bits; a new one gets 0666 less the umask, as the shell's
// redirections do.
//
// Commit renames file by file: two runs writing the same files leave each
// file whole, with the content of whichever renamed it last.
//
// MkdirAll makes a directory for files to come; Discard removes the
// directories it made when they are left empty, so that a set of files
// that fails leaves no trace.
//
// Add (and CheckFile, before the work is done) refuses an existing file
// the user could not replace: one a shell's redirect could not write, or
// another user's in a folder with the sticky bit (see readOnly).
//
// Add refuses a file that one of Inputs names, and a regular file that an
// earlier Add already prepared with other contents: a plot whose name is
// that of the scenario beside it, or of the -o file, would otherwise
// replace it unsaid. The same contents added twice are written once.
type Files struct {
	// Inputs are the files the command read, which no output may replace.
	Inputs []string
	// StdoutFree says that nothing but what the set writes into it goes to
	// standard output (the command was given -o FILE): a file of the set
	// may then be the one a shell's redirect sends standard output to
	// (-o log.txt > log.txt), and is replaced whole. Otherwise such a file
	// is refused, as one that is also standard error always is: what
	// the command writes there after the rename would go into the file it
	// replaced, deleted, and be lost.
	StdoutFree bool
	// Stop, when not nil, stops the set once it is done: Add and Commit
	// then return ErrStopped, and nothing of the set is left (Discard).
	// A set it stops while Commit moves files into place is moved whole.
	Stop    context.Context
	pending []pendingFile
	made    []string // directories MkdirAll made, in the order it made them
}

type pendingFile struct {
	name   string // as the caller wrote it, for errors
	target string // the path replaced or written into
	temp   string // the prepared temporary file; "" for a direct target
	data   []byte // a direct target's bytes
	fd     int    // the descriptor a direct target names (/dev/stdout), or -1
}

// ErrStopped is what Add and Commit return once Files.Stop is done.
var ErrStopped = errors.New("interrupted while the outputs were written; none was written")

// stopped reports whether the set's Stop is done.
func (files *Files) stopped() bool { return files.Stop != nil && files.Stop.Err() != nil }

// stopWriter refuses every write once its set's Stop is done, so that one
// long output (a large sweep's table: tens of seconds) stops within it,
// not only before the next.
type stopWriter struct {
	files *Files
	w     io.Writer
}

func (s stopWriter) Write(p []byte) (int, error) {
	if s.files.stopped() {
		return 0, ErrStopped
	}
	return s.w.Write(p)
}

// StopWriter is w, refusing every write with ErrStopped once ctx is done:
// a report written into it stops within its long pieces of work (a large
// sweep's figures and tables), as one written into a Files set does.
func StopWriter(ctx context.Context, w io.Writer) io.Writer {
	return stopWriter{files: &Files{Stop: ctx}, w: w}
}

// check is ErrStopped once the set's Stop is done, else nil: what a long
// piece of work for the set (the plots of a large sweep) consults between
// its steps.
func (files *Files) check() error {
	if files.stopped() {
		return ErrStopped
	}
	return nil
}

// stopOf is the stop check of the set that w writes into, for a writer
// that works long before it writes (a report's plots and tables): the
// set's check when w is its stopWriter, else a check that never stops.
func stopOf(w io.Writer) func() error {
	if s, ok := w.(stopWriter); ok {
		return s.files.check
	}
	return func() error { return nil }
}

// spillSize is how much of a document built in memory a writer holds
// before it writes it out (spill).
const spillSize = 64 << 10

// spill writes b to w and empties it once it holds spillSize bytes or
// more, so that a long document reaches w as it is built, and a stop
// (stopWriter) is seen within it, not only at its end.
func spill(w io.Writer, b *bytes.Buffer) error {
	if b.Len() < spillSize {
		return nil
	}
	_, err := w.Write(b.Bytes())
	b.Reset()
	return err
}

// WriteFile writes one file whole or not at all (a Files of one).
func WriteFile(path string, write func(io.Writer) error) error {
	var files Files
	if err := files.Add(path, write); err != nil {
		files.Discard()
		return err
	}
	return files.Commit()
}

// Add prepares the file path with the bytes write writes. On error nothing
// of it is left behind.
func (files *Files) Add(path string, write func(io.Writer) error) (err error) {
	if files.stopped() {
		return ErrStopped
	}
	// A descriptor a path names (/dev/stdout) is written into, as
	// anything else that is not a regular file is; a regular file is
	// replaced, and must be one the user may replace.
	target, direct, fd := path, true, -1
	if n, ok := descriptor(path); ok {
		if err := checkDescriptor(path, n); err != nil {
			return err
		}
		fd = n
	} else {
		if target, direct, err = destination(path); err != nil {
			return err
		}
		if err := readOnly(path, target); err != nil {
			return err // before any file of the set is written
		}
		if err := notStandard(path, target, files.StdoutFree); err != nil {
			return err
		}
	}
	for _, in := range files.Inputs {
		if SameFile(target, in) {
			return fmt.Errorf("%s names the input %s; choose another file or folder", path, in)
		}
	}
	for _, p := range files.pending {
		if !direct && p.temp != "" && SameFile(target, p.target) {
			// The same file twice (the plots of --plot DIR and of a
			// Markdown report whose plot folder is DIR) is written once;
			// two different contents for one file are refused.
			var b bytes.Buffer
			if err := write(stopWriter{files, &b}); err != nil {
				return fmt.Errorf("writing %s: %w", path, err)
			}
			if prepared, err := os.ReadFile(p.temp); err == nil && bytes.Equal(prepared, b.Bytes()) {
				return nil
			}
			return fmt.Errorf("two outputs would both be written to %s with different contents; give them different names", path)
		}
	}
	if direct {
		var b bytes.Buffer
		if err := write(stopWriter{files, &b}); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		files.pending = append(files.pending, pendingFile{name: path, target: target, data: b.Bytes(), fd: fd})
		return nil
	}
	f, err := createTemp(target)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			err = fmt.Errorf("writing %s: %w", path, err)
		}
	}()
	if err = write(stopWriter{files, f}); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if fi, statErr := os.Stat(target); statErr == nil {
		if err = os.Chmod(f.Name(), fi.Mode().Perm()); err != nil {
			return err
		}
	}
	files.pending = append(files.pending, pendingFile{name: path, target: target, temp: f.Name(), fd: -1})
	return nil
}

// Commit moves every prepared file into place, in the order they were
// added, after writing into the targets that are not regular files (a
// device, a pipe): those writes are the ones that can fail for want of
// room (/dev/full, a full disk behind a device) or a reader, and a failure
// among them then leaves every regular file as it was, where a rename
// before them would already have replaced one. It stops at the first
// error, removing the temporary files not yet moved (and the directories
// MkdirAll made, where they are left empty).
func (files *Files) Commit() error {
	defer files.Discard()
	if files.stopped() {
		return ErrStopped
	}
	var renames []pendingFile
	for len(files.pending) > 0 {
		p := files.pending[0]
		if p.temp != "" {
			renames = append(renames, p)
		} else if err := p.commit(); err != nil {
			files.pending = append(renames, files.pending...)
			return fmt.Errorf("writing %s: %w", p.name, err)
		}
		files.pending = files.pending[1:]
	}
	files.pending = renames
	for len(files.pending) > 0 {
		p := files.pending[0]
		if err := p.commit(); err != nil {
			return fmt.Errorf("writing %s: %w", p.name, err)
		}
		files.pending = files.pending[1:]
	}
	files.made = nil
	return nil
}

func (p pendingFile) commit() error {
	if p.temp != "" {
		return os.Rename(p.temp, p.target)
	}
	if p.fd >= 0 {
		return writeDescriptor(p.fd, p.data)
	}
	f, err := os.OpenFile(p.target, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(p.data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Discard removes every prepared file that Commit has not moved, then
// the directories MkdirAll made that are left empty, innermost first.
func (files *Files) Discard() {
	for _, p := range files.pending {
		if p.temp != "" {
			os.Remove(p.temp)
		}
	}
	files.pending = nil
	for i := len(files.made) - 1; i >= 0; i-- {
		os.Remove(files.made[i]) // fails, as it should, on a directory in use
	}
	files.made = nil
}

// MkdirAll makes dir and its missing parents, as os.MkdirAll does, and
// keeps the names of those it made for Discard.
func (files *Files) MkdirAll(dir string) error {
	var missing []string // innermost first
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	err := os.MkdirAll(dir, 0o777)
	// Outermost first, those that now exist (a failed MkdirAll may have
	// made some).
	for i := len(missing) - 1; i >= 0; i-- {
		if _, serr := os.Lstat(missing[i]); serr == nil {
			files.made = append(files.made, missing[i])
		}
	}
	return err
}

// SameFile reports whether two paths name one file: the same file when
// both exist, the same absolute path when neither does.
func SameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	if errors.Is(errA, fs.ErrNotExist) && errors.Is(errB, fs.ErrNotExist) {
		absA, errA := filepath.Abs(a)
		absB, errB := filepath.Abs(b)
		return errA == nil && errB == nil && absA == absB
	}
	return false
}

// maxLinks bounds how many symlinks destination follows, as the kernel's
// ELOOP does.
const maxLinks = 40

// destination resolves an output path: the regular file to replace (its
// symlinks followed), or, when direct, something that exists and is not a
// regular file, to be written into. A directory is an error. A path that
// names an open descriptor is not resolved but written through it (see
// descriptor).
func destination(path string) (target string, direct bool, err error) {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return "", false, fmt.Errorf("%s is a directory; expected a file name", path)
	case err == nil && !fi.Mode().IsRegular():
		return path, true, nil
	case err == nil:
		target, err = filepath.EvalSymlinks(path)
		return target, false, err
	case !errors.Is(err, fs.ErrNotExist):
		return "", false, pathError(path, err)
	}
	// A new file, or a symlink to one: the name the links end at.
	target = path
	for range maxLinks {
		fi, err := os.Lstat(target)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return target, false, nil
		}
		link, err := os.Readlink(target)
		if err != nil {
			return "", false, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(target), link)
		}
		target = link
	}
	return "", false, fmt.Errorf("%s: too many levels of symbolic links", path)
}

// createTemp creates an empty temporary file beside target, readable and
// writable as the umask allows (os.CreateTemp would make it 0600). Its name
// starts with a dot and a bounded part of the target's name, so it fits
// wherever the target's name fits.
func createTemp(target string) (*os.File, error) {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	if len(base) > 64 {
		base = base[:64]
	}
	for {
		name := filepath.Join(dir, "."+base+"."+strconv.FormatUint(rand.Uint64()%1e12, 36)+".tmp")
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
}

// CheckFile reports whether path can be written as an output before the
// work that fills it is done: it must not be a directory, and a file to
// create or replace needs a directory it can be created in under its name.
// It leaves nothing behind. It is Check for a set that writes to standard
// output besides its files.
func CheckFile(path string) error { return (&Files{}).Check(path) }

// Check is CheckFile for a file of the set, which knows whether standard
// output takes anything but the set's files (StdoutFree).
func (files *Files) Check(path string) error {
	if fd, ok := descriptor(path); ok {
		return checkDescriptor(path, fd)
	}
	target, direct, err := destination(path)
	if err != nil || direct {
		return err
	}
	if err := notStandard(path, target, files.StdoutFree); err != nil {
		return err
	}
	dir := filepath.Dir(target)
	if fi, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot write %s: the directory %s does not exist", shortPath(path), shortPath(dir))
	} else if err != nil {
		return pathError(path, err)
	} else if !fi.IsDir() {
		return fmt.Errorf("cannot write %s: %s is not a directory", path, dir)
	}
	if err := probe(target); err != nil {
		// The probe's own name says nothing the user gave: name the
		// folder no file can be made in (/proc, for -o /proc/version).
		return pathError(path, noFileIn(dir, err))
	}
	if err := readOnly(path, target); err != nil {
		return err
	}
	if _, err := os.Lstat(target); errors.Is(err, fs.ErrNotExist) {
		// The name itself must be one the file system takes.
		f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err != nil {
			return pathError(path, err)
		}
		f.Close()
		os.Remove(target)
	}
	return nil
}

// notStandard refuses a regular file that is also this command's standard
// error (simulate run x -o log.txt 2>> log.txt), or its standard output
// unless that takes nothing but the set's files (stdoutFree: -o log.txt >
// log.txt writes the results there whole): the rename that writes it whole
// would leave what the command writes to the stream after it (what it
// wrote, a table beside a --report) going into the file it replaced,
// deleted, and lost.
func notStandard(path, target string, stdoutFree bool) error {
	name, dev := standardStream(target)
	if name == "" || dev == "/dev/stdout" && stdoutFree {
		return nil
	}
	return fmt.Errorf("cannot write %s: it is this command's %s too, which replacing it would leave writing into a deleted file; write to %s, or to another file", shortPath(path), name, dev)
}

// readOnly refuses target, the existing file path names, when a shell's
// redirect could not write it, or when the rename that writes a file
// whole could not replace it. Its owner made it read-only (for root too);
// or, where the system says so (see notReplaceable), the user may not
// write it, or may not replace it in its folder. The rename would
// otherwise pass over the protection a redirect respects, or fail only
// once the run is done.
func readOnly(path, target string) error {
	fi, err := os.Stat(target)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	if fi.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("cannot write %s: it is read-only (mode %04o); make it writable or choose another file", shortPath(path), fi.Mode().Perm())
	}
	return notReplaceable(path, target, fi)
}

// CheckDir reports whether files can be written into the directory dir,
// made (with its parents) if missing; a link to nothing on the way is
// refused, as making the folder would fail on it. It leaves nothing
// behind.
func CheckDir(dir string) error {
	d := dir
	for {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("cannot write into %s: %s is not a directory", dir, d)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot write into %s: %w", dir, err)
		}
		if target, lerr := os.Readlink(d); lerr == nil {
			// A link to nothing, which making the folder would not
			// follow: its mkdir fails on the link, after the run.
			return fmt.Errorf("cannot write into %s: %s is a link to %s, which does not exist; make that folder, or choose another", dir, d, target)
		}
		if len(filepath.Base(d)) > 255 {
			return fmt.Errorf("cannot write into %s: the name %.20s... is too long", dir, filepath.Base(d))
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if err := probe(filepath.Join(d, "probe")); err != nil {
		return fmt.Errorf("cannot write into %s: %w", dir, noFileIn(d, err))
	}
	return nil
}

// noFileIn says that no file can be made in dir, for the error of a probe
// there, whose own file name says nothing the user gave.
func noFileIn(dir string, err error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("no file can be made in %s: %w", shortPath(dir), pe.Err)
}

// probe creates and removes a temporary file beside target.
func probe(target string) error {
	f, err := createTemp(target)
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// pathError says that path cannot be written and why, naming at most the
// start of a long path.
func pathError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot write %s: %w", shortPath(path), err)
}

// shortPath is path, or its start and end when it is too long to read in
// an error.
func shortPath(path string) string {
	if len(path) <= 80 {
		return path
	}
	return path[:40] + "..." + path[len(path)-37:]
}
