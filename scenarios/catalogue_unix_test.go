//go:build unix

package scenarios_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestListedCatalogueMustBeRegular: a FIFO found among the catalogue files
// of a scenario's folder or of a units folder is refused without being
// opened, which would wait for a writer for ever; so is a folder named
// like a catalogue. The error names the file.
func TestListedCatalogueMustBeRegular(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"scen/s.yaml":   "name: t\nruleset: fantasy\ncharge: {unit: {use: Clanrats}, distance: 3}\n",
		"cards/a.yaml":  "ruleset: fantasy\nunits: [{name: A, troop: Infantry, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}]\n",
		"folder/a.yaml": "ruleset: fantasy\nunits: [{name: A, troop: Infantry, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}]\n",
	})
	if err := os.Mkdir(filepath.Join(dir, "folder", "old.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"scen/x.units.yaml", "cards/fifo.yaml"} {
		mkfifo(t, filepath.Join(dir, p))
	}
	// Each call gets two seconds: without the check it blocks in open.
	within := func(name string, f func() error) error {
		t.Helper()
		done := make(chan error, 1)
		go func() { done <- f() }()
		select {
		case err := <-done:
			return err
		case <-time.After(2 * time.Second):
			t.Fatalf("%s: still reading after 2s", name)
			return nil
		}
	}
	scen := filepath.Join(dir, "scen", "s.yaml")
	err := within("a scenario beside a FIFO", func() error { _, err := both.Load(scen); return err })
	if want := scen + ":1:1: unit catalogue " + filepath.Join(dir, "scen", "x.units.yaml") + " is not a regular file (a FIFO); a unit catalogue is a YAML file"; err == nil || err.Error() != want {
		t.Errorf("a scenario beside a FIFO:\n got: %v\nwant: %s", err, want)
	}
	cards := filepath.Join(dir, "cards")
	err = within("--units with a FIFO", func() error { _, err := both.UserCards([]string{cards}, ""); return err })
	if want := cards + ":1:1: unit catalogue " + filepath.Join(cards, "fifo.yaml") + " is not a regular file (a FIFO); a unit catalogue is a YAML file"; err == nil || err.Error() != want {
		t.Errorf("--units with a FIFO:\n got: %v\nwant: %s", err, want)
	}
	folder := filepath.Join(dir, "folder")
	err = within("--units with a folder named old.yaml", func() error { _, err := both.UserCards([]string{folder}, ""); return err })
	if want := folder + ":1:1: unit catalogue " + filepath.Join(folder, "old.yaml") + " is not a regular file (a folder); a unit catalogue is a YAML file"; err == nil || err.Error() != want {
		t.Errorf("--units with a folder named old.yaml:\n got: %v\nwant: %s", err, want)
	}
}

// mkfifo makes a FIFO at path that nobody writes, and on cleanup opens it
// for writing once, so that a reader blocked in open is let go.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	t.Cleanup(func() {
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	})
}

// TestCatalogueLinkNamedTwice: a units list that names a catalogue and a
// link to it names one file twice, and is refused at the link, as a list
// naming the same path twice is (TestCatalogueNamedTwice).
func TestCatalogueLinkNamedTwice(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"units.yaml": "ruleset: fantasy\nunits: [{name: A, troop: Infantry, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}]\n",
		"my.yaml":    "name: t\nruleset: fantasy\nunits: [units.yaml, link.yaml]\ncharge: {unit: {use: A}, distance: 3}\n",
	})
	if err := os.Symlink("units.yaml", filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(dir, "my.yaml")
	_, err := both.Load(scen)
	// link.yaml starts at column 21 of "units: [units.yaml, link.yaml]".
	if want := scen + `:3:21: "link.yaml" names the same unit catalogue file as "units.yaml" at line 3, column 9; name each catalogue once`; err == nil || err.Error() != want {
		t.Errorf("got: %v\nwant: %s", err, want)
	}
}
