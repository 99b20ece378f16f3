//go:build unix

package reports

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReplacementRefusal: who may replace an existing file by a rename,
// as Files does. A file a redirect could not write (access(2) fails) is
// refused whoever asks; in a folder with the sticky bit, a file is
// replaced only by its owner, the folder's owner or root, as rename(2)
// allows (EPERM otherwise); without the bit, a writable file in a
// writable folder is anyone's to replace.
func TestReplacementRefusal(t *testing.T) {
	const (
		root   = 0
		user   = 1000
		other  = 1001
		sticky = fs.ModeDir | fs.ModeSticky | 0o777 // /tmp's mode, 1777
		open   = fs.ModeDir | 0o777
	)
	stickyWhy := "it is another user's (uid 0), in /t, a folder with the sticky bit set (mode 1777), where only the file's owner, the folder's owner (uid 0) or root may replace it"
	for _, tc := range []struct {
		name string
		r    replacement
		want string
	}{
		{"own file, sticky folder", replacement{euid: user, mode: 0o644, owner: user, dirMode: sticky, dirOwner: root}, ""},
		{"root's file, sticky folder", replacement{euid: user, mode: 0o666, owner: root, dirMode: sticky, dirOwner: root}, stickyWhy},
		{"another user's file, sticky folder of one's own", replacement{euid: user, mode: 0o666, owner: other, dirMode: sticky, dirOwner: user}, ""},
		{"root replaces a user's file, sticky folder", replacement{euid: root, mode: 0o644, owner: user, dirMode: sticky, dirOwner: other}, ""},
		{"root's writable file, folder without the bit", replacement{euid: user, mode: 0o666, owner: root, dirMode: open, dirOwner: root}, ""},
		{"root's 0644 file, world-writable folder", replacement{euid: user, access: syscall.EACCES, mode: 0o644, owner: root, dirMode: open, dirOwner: root},
			"permission denied (mode 0644, owner uid 0): a shell's redirect could not write it either"},
		{"not writable, sticky folder too", replacement{euid: user, access: syscall.EACCES, mode: 0o640, owner: other, dirMode: sticky, dirOwner: root},
			"permission denied (mode 0640, owner uid 1001): a shell's redirect could not write it either"},
		{"read-only file system", replacement{euid: root, access: syscall.EROFS, mode: 0o644, owner: root, dirMode: open, dirOwner: root},
			"read-only file system (mode 0644, owner uid 0): a shell's redirect could not write it either"},
	} {
		tc.r.dir = "/t"
		if got := tc.r.refusal(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestDescriptorPaths: the paths that name an open descriptor, directly
// or through links, and those that only look alike.
func TestDescriptorPaths(t *testing.T) {
	dir := t.TempDir()
	link, chain := filepath.Join(dir, "out"), filepath.Join(dir, "chain")
	if err := os.Symlink("/dev/stdout", link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("out", chain); err != nil {
		t.Fatal(err)
	}
	pid := fmt.Sprint(os.Getpid())
	for path, want := range map[string]int{
		"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2, "/dev/fd/3": 3, "/dev//fd/12": 12,
		"/proc/self/fd/1": 1, "/proc/thread-self/fd/2": 2, "/proc/" + pid + "/fd/5": 5,
		link: 1, chain: 1,
		"/dev/fd": -1, "/dev/fd/x": -1, "/dev/fd/-1": -1, "/dev/fd/01": -1, "/dev/fd/+1": -1,
		"/proc/1/fd/1": -1, "/dev/null": -1, "stdout": -1, filepath.Join(dir, "new"): -1,
	} {
		fd, ok := descriptor(path)
		if !ok {
			fd = -1
		}
		if fd != want {
			t.Errorf("descriptor(%q) = %d, %v; want %d", path, fd, ok, want)
		}
	}
}

// TestFilesWriteThroughDescriptors: a path naming an open descriptor is
// written through it, so that a file opened for appending (a shell's >>)
// keeps what it held and gets the output after it, and the file is not
// replaced (it keeps its inode); a descriptor that is not open is refused
// before anything is written; a regular file that is the standard output
// too is refused.
func TestFilesWriteThroughDescriptors(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log.txt")
	if err := os.WriteFile(log, []byte("earlier\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(log)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	path := fmt.Sprintf("/dev/fd/%d", f.Fd())
	if err := CheckFile(path); err != nil {
		t.Fatalf("CheckFile(%s): %v", path, err)
	}
	files := &Files{}
	if err := files.Add(path, func(w io.Writer) error { _, err := io.WriteString(w, "results\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if err := files.Commit(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(log)
	if string(got) != "earlier\nresults\n" {
		t.Errorf("log.txt holds %q, want the results after what it held", got)
	}
	if after, err := os.Stat(log); err != nil || !os.SameFile(before, after) {
		t.Errorf("log.txt was replaced (%v)", err)
	}
	// The descriptor is still open and usable: only a copy was closed.
	if _, err := f.WriteString("later\n"); err != nil {
		t.Errorf("the descriptor was closed: %v", err)
	}
	// A descriptor that leads to one of the command's inputs is refused,
	// as the input's own path is.
	if err := (&Files{Inputs: []string{log}}).Add(path, func(io.Writer) error { return nil }); err == nil || !strings.Contains(err.Error(), "names the input "+log) {
		t.Errorf("%s onto the input %s: %v, want it refused", path, log, err)
	}
	// Refused before any work: a descriptor that is not open, one open
	// for reading only (a shell's 3<FILE), and one on a folder.
	readOnly, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer readOnly.Close()
	folder, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer folder.Close()
	for path, want := range map[string]string{
		"/dev/fd/1000":                           "descriptor 1000 is not open",
		fmt.Sprintf("/dev/fd/%d", readOnly.Fd()): fmt.Sprintf("descriptor %d is open for reading only", readOnly.Fd()),
		fmt.Sprintf("/dev/fd/%d", folder.Fd()):   fmt.Sprintf("descriptor %d is a folder", folder.Fd()),
	} {
		for _, check := range []func() error{
			func() error { return CheckFile(path) },
			func() error { return (&Files{}).Add(path, func(io.Writer) error { return nil }) },
		} {
			if err := check(); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want %q", path, err, want)
			}
		}
	}
	// A file that is also the standard error is refused; one that is
	// also the standard output is written only where standard output
	// takes nothing else (StdoutFree: the command was given -o FILE).
	for _, tc := range []struct {
		stream     **os.File
		stdoutFree bool
		refused    string
	}{
		{&os.Stderr, true, "standard error too"},
		{&os.Stdout, false, "standard output too"},
		{&os.Stdout, true, ""},
	} {
		out := filepath.Join(dir, "out.txt")
		saved := *tc.stream
		f, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		*tc.stream = f
		files := &Files{StdoutFree: tc.stdoutFree}
		errs := []error{files.Check(out), files.Add(out, func(io.Writer) error { return nil })}
		*tc.stream = saved
		f.Close()
		files.Discard()
		for _, err := range errs {
			switch {
			case tc.refused == "" && err != nil:
				t.Errorf("%s as standard output, StdoutFree: %v, want it written", out, err)
			case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)):
				t.Errorf("%s, StdoutFree %v: %v, want %q", out, tc.stdoutFree, err, tc.refused)
			}
		}
	}
}

// TestCheckDirLinkToNothing: a plot folder that is a link to a folder
// that does not exist passed the check, as not there yet, and the run
// then failed to make it ("mkdir p2: file exists"); it is refused before
// the run, naming the link and where it leads. A link to a folder that
// exists is written into.
func TestCheckDirLinkToNothing(t *testing.T) {
	dir := t.TempDir()
	dangling := filepath.Join(dir, "p2")
	if err := os.Symlink("newdir", dangling); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dangling, filepath.Join(dangling, "inner")} {
		if err := CheckDir(d); err == nil || !strings.Contains(err.Error(), dangling+" is a link to newdir, which does not exist") {
			t.Errorf("CheckDir(%s): %v, want the link named", d, err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "newdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := CheckDir(dangling); err != nil {
		t.Errorf("a link to a folder: %v", err)
	}
}

// TestCheckFileInAFolderNoFileCanBeMadeIn: /proc holds files, but no new
// one can be made there (creating one fails with ENOENT, not EACCES, even
// for root). The refusal names the folder, where the bare error read as if
// the file named were missing.
func TestCheckFileInAFolderNoFileCanBeMadeIn(t *testing.T) {
	if _, err := os.Stat("/proc/version"); err != nil {
		t.Skip("no /proc/version here")
	}
	want := "cannot write /proc/version: no file can be made in /proc: no such file or directory"
	if err := CheckFile("/proc/version"); err == nil || err.Error() != want {
		t.Errorf("CheckFile(/proc/version): %v, want %q", err, want)
	}
}
