//go:build unix

package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRefusesWhatItCannotReplace: as another user than the owner of the
// files, simulate refuses, before the run, a destination it could not
// replace once the run is done, and writes nothing: root's 0644 file (a
// shell's redirect could not write it, though the folder is writable by
// all), and root's 0666 file in a folder with the sticky bit (rename(2)
// refuses to replace another user's file there). A file of the user's own
// in the same sticky folder is replaced. The files are root's and the
// command runs as nobody (uid 65534), so the test runs as root, which it
// leaves by setpriv or runuser; it skips, saying why, where it cannot.
func TestRefusesWhatItCannotReplace(t *testing.T) {
	if args := os.Getenv("SIMULATE_TEST_ARGS"); args != "" {
		os.Args = append([]string{"simulate"}, strings.Split(args, "\n")...)
		main()
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("SKIP: needs root, to make files another user cannot replace and run simulate as that user")
	}
	asNobody := asNobodyCommand(t)
	// A folder nobody can enter, holding a copy of this test binary that
	// nobody can run.
	top, err := os.MkdirTemp("", "replace")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(top) })
	bin := filepath.Join(top, "simulate.test")
	copyFile(t, os.Args[0], bin)
	mustDo(t, os.Chmod(top, 0o755), os.Chmod(bin, 0o755))
	sticky, open := filepath.Join(top, "sticky"), filepath.Join(top, "open")
	mustDo(t, os.Mkdir(sticky, 0o755), os.Mkdir(open, 0o755), os.Chmod(sticky, os.ModeSticky|0o777), os.Chmod(open, 0o777))
	files := map[string]os.FileMode{"sticky/root.json": 0o644, "sticky/shared.html": 0o666, "open/root.json": 0o644}
	for name, mode := range files {
		path := filepath.Join(top, name)
		mustDo(t, os.WriteFile(path, []byte("root's"), mode), os.Chmod(path, mode))
	}
	simulate := func(args ...string) (int, string) {
		cmd := exec.Command(asNobody[0], append(asNobody[1:], bin, "-test.run=^TestRefusesWhatItCannotReplace$")...)
		cmd.Dir = top
		cmd.Env = append(os.Environ(), "SIMULATE_TEST_ARGS="+strings.Join(args, "\n"))
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("%v: %v", args, err)
		}
		return cmd.ProcessState.ExitCode(), string(out)
	}
	run := []string{"run", "flee-pursuit", "--trials", "1000"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", "sticky/root.json", "--check"}, "simulate: cannot write sticky/root.json: permission denied (mode 0644, owner uid 0): a shell's redirect could not write it either; choose another file"},
		{[]string{"-o", "open/root.json", "--format", "json"}, "simulate: cannot write open/root.json: permission denied (mode 0644, owner uid 0)"},
		{[]string{"-o", "sticky/shared.html", "--check"}, "simulate: cannot write sticky/shared.html: it is another user's (uid 0), in sticky, a folder with the sticky bit set (mode 1777), where only the file's owner, the folder's owner (uid 0) or root may replace it; choose another file"},
		// Of several outputs, the one that cannot be replaced stops the
		// run before the others are written.
		{[]string{"-o", "sticky/mine.json", "--format", "json", "--plot", "sticky/plots", "--report", "sticky/shared.html"}, "simulate: cannot write sticky/shared.html: it is another user's (uid 0)"},
	} {
		code, out := simulate(append(run, tc.args...)...)
		if code != exitError || !strings.HasPrefix(out, tc.want) {
			t.Errorf("%v as nobody: exit %d, %q; want 1 and %q", tc.args, code, out, tc.want)
		}
	}
	for name, mode := range files {
		fi, err := os.Stat(filepath.Join(top, name))
		if data, _ := os.ReadFile(filepath.Join(top, name)); err != nil || string(data) != "root's" || fi.Mode().Perm() != mode || ownerOf(fi) != 0 {
			t.Errorf("%s is now %q, %v (err %v), want root's, untouched", name, data, fi.Mode(), err)
		}
	}
	for _, name := range []string{"sticky/mine.json", "sticky/plots"} {
		if _, err := os.Lstat(filepath.Join(top, name)); err == nil {
			t.Errorf("%s was written", name)
		}
	}
	// Nobody's own file in the sticky folder is nobody's to replace.
	if code, out := simulate(append(run, "-o", "sticky/mine.json")...); code != exitOK {
		t.Fatalf("a new file as nobody: exit %d, %s", code, out)
	}
	if code, out := simulate(append(run, "-o", "sticky/mine.json", "--format", "json")...); code != exitOK {
		t.Errorf("replacing its own file as nobody: exit %d, %s", code, out)
	}
}

// asNobodyCommand is the command that runs another as nobody (uid and
// gid 65534, no other groups), or skips the test, saying why.
func asNobodyCommand(t *testing.T) []string {
	t.Helper()
	for _, c := range [][]string{
		{"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"},
		{"runuser", "-u", "nobody", "--"},
	} {
		if _, err := exec.LookPath(c[0]); err != nil {
			continue
		}
		if out, err := exec.Command(c[0], append(c[1:], "id", "-u")...).Output(); err == nil && strings.TrimSpace(string(out)) == "65534" {
			return c
		}
	}
	t.Skip("SKIP: neither setpriv nor runuser can run a command as nobody (uid 65534) here")
	return nil
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func mustDo(t *testing.T, errs ...error) {
	t.Helper()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// ownerOf is the uid that owns a file, or -1 where the system does not say.
func ownerOf(fi os.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}
