package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestUnitsReportsEveryProblem: simulate units reports every problem of a
// catalogue at once, each at its line and column, then exits 1: a card
// without a name does not hide the misspelt key and the bad profile token
// of the cards beside it.
func TestUnitsReportsEveryProblem(t *testing.T) {
	cat := filepath.Join(t.TempDir(), "cat.yaml")
	src := "ruleset: fantasy\nunits:\n" +
		"  - {name: Rats, modls: 10, M: 5}\n" + // modls at column 18
		"  - {name: Odd, profile: M5 Foo7}\n" + // the profile at 26, Foo 3 bytes in
		"  - {troop: Infantry, M: 5}\n" // the card at column 5
	if err := os.WriteFile(cat, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	const keys = "name, troop, A, rules, champion, crew, missile, M, WS, BS, S, T, W, I, Ld, models, width, base, base_depth, unit_strength, points, armour, ward, parry, standard, musician, battle_standard, flank, rear, higher_ground, flying, troop_rules, profile"
	want := "simulate: " + cat + `:3:18: unknown key "modls" in a unit (did you mean "models"?); expected one of: ` + keys + "\n" +
		cat + `:4:29: unknown key "Foo" in a unit; expected one of: ` + keys + "\n" +
		cat + ":5:5: a unit card needs a name\n"
	stdout, _, err := runCLI(t, "units", "--units", cat)
	var stderr bytes.Buffer
	if code := exitCode(err, &stderr); code != exitError || stderr.String() != want || stdout != "" {
		t.Errorf("exit %d, stderr\n%s\nwant exit %d, stderr\n%s\nstdout %q", code, stderr.String(), exitError, want, stdout)
	}
}
