package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnitsCommand(t *testing.T) {
	out, _, err := runCLI(t, "units")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fantasy  Clanrats", "M5 WS3 BS3 S3 T3 W1 I4 A1 Ld5", "heresy   Legionaries"} {
		if !strings.Contains(out, want) {
			t.Errorf("simulate units lacks %q:\n%s", want, out)
		}
	}
	card, _, err := runCLI(t, "units", "show", "clanrats")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(card, "{use: Clanrats}") || !strings.Contains(card, "\nname: Clanrats\n") {
		t.Errorf("units show:\n%s", card)
	}
	// The card printed is one to copy: as a catalogue of its own, a
	// scenario in that folder uses it.
	dir := t.TempDir()
	lines := strings.Split(strings.TrimSpace(card), "\n")
	var body []string
	for i, l := range lines[2:] {
		prefix := "    "
		if i == 0 {
			prefix = "  - "
		}
		body = append(body, prefix+l)
	}
	catalogue := "ruleset: fantasy\nunits:\n" + strings.Join(body, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "units.yaml"), []byte(strings.Replace(catalogue, "Clanrats", "My Rats", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(scen, []byte("name: t\nruleset: fantasy\ncharge: {unit: {use: My Rats}, distance: 12}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "run", scen, "--trials", "1000"); err != nil {
		t.Errorf("a scenario using the shown card: %v\n%s", err, catalogue)
	}
	if _, _, err := runCLI(t, "units", "show", "Nobody"); err == nil {
		t.Error("an unknown card is an error")
	}
}
