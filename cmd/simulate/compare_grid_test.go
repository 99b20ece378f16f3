package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hammersim/reports"
	"hammersim/sim"
)

// TestCompareGridFits: five candidates, whose estimates with intervals
// (about 22 characters a cell) would not fit the terminal side by side,
// are printed as one grid of points by candidates, estimates alone, with
// a line saying where the intervals are; every line fits.
func TestCompareGridFits(t *testing.T) {
	dir := t.TempDir()
	var args []string
	for i, name := range []string{"s1", "s2", "s3", "s4", "s5"} {
		p := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(p, []byte(swordsmen(name, 3+i%2)), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	out, _, err := runCLI(t, append([]string{"compare", "--trials", "2000"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "intervals in the JSON and CSV outputs") {
		t.Errorf("no note on where the intervals are:\n%s", out)
	}
	grid := false
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "reproduce: ") {
			continue // a command line is not wrapped
		}
		if n := len([]rune(l)); n > reports.TerminalWidth {
			t.Errorf("line of %d columns: %q", n, l)
		}
		if strings.Contains(l, "s1") && strings.Contains(l, "s5") && strings.HasPrefix(l, "|") {
			grid = true
		}
	}
	if !grid {
		t.Errorf("the candidates are not side by side in one table:\n%s", out)
	}
}

// TestCompareLongNames: candidates named at length, three scenarios of 60
// characters and two units of 60 compared by attacker, are called by
// letter in the tables, under a legend with their full names; every line
// but the reproduce line fits the terminal.
func TestCompareLongNames(t *testing.T) {
	dir := t.TempDir()
	var args, names []string
	for i := range 3 {
		name := fmt.Sprintf("swordsmen-with-great-weapons-and-full-command-charging-rats-%d", i)
		p := filepath.Join(dir, fmt.Sprintf("s%d.yaml", i))
		if err := os.WriteFile(p, []byte(swordsmen(name, 3+i%2)), 0o644); err != nil {
			t.Fatal(err)
		}
		args, names = append(args, p), append(names, name)
	}
	units := []string{"Swordsmen of the Reikland with great weapons and full command",
		"Spearmen of the Reikland with shields and a banner of the east"}
	attacker := "{name: %q, models: 20, width: 5, M: 4, WS: 4, S: %d, T: 3, I: 4, A: 1, Ld: 7, armour: 5+}"
	src := strings.Replace(swordsmen("by-attacker", 3), "  attacker: {name: Swordsmen, models: 20, width: 5, M: 4, WS: 4, S: 3, T: 3, I: 4, A: 1, Ld: 7, armour: 5+, points: 120}\n",
		"  attacker:\n    - "+fmt.Sprintf(attacker, units[0], 3)+"\n    - "+fmt.Sprintf(attacker, units[1], 4)+"\n", 1)
	byAttacker := filepath.Join(dir, "by.yaml")
	if err := os.WriteFile(byAttacker, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, run := range []struct {
		args, names []string
	}{{args, names}, {[]string{byAttacker, "--by", "attacker"}, units}} {
		out, _, err := runCLI(t, append([]string{"compare", "--trials", "2000"}, run.args...)...)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "reproduce: ") {
				continue // a command line is not wrapped
			}
			if n := len([]rune(l)); n > reports.TerminalWidth {
				t.Errorf("line of %d columns: %q", n, l)
			}
		}
		for i, n := range run.names {
			if want := fmt.Sprintf("  %c = %s\n", 'A'+i, n); !strings.Contains(out, want) {
				t.Errorf("no legend line %q in:\n%s", want, out)
			}
		}
		if !strings.Contains(out, "| A - B ") {
			t.Errorf("the pair table does not call the candidates by letter:\n%s", out)
		}
	}
}

// TestCompareByNamesTheParameter: candidates that are values of a number,
// a switch or a word of a rule say which parameter they set; swept units'
// names stand alone, and the scenario marks which axes sweep units.
func TestCompareByNamesTheParameter(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.yaml")
	src := strings.Replace(swordsmen("by-strength", 3), "S: 3,", "S: [3, 4],", 1)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "compare", p, "--by", "S", "--trials", "2000")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "S=3") || !strings.Contains(out, "S=4") {
		t.Errorf("candidates not named S=3 and S=4:\n%s", out)
	}
	// A save is written as a word ("4+"), which alone would not say what
	// it is.
	src = strings.Replace(swordsmen("by-armour", 3), "armour: 5+, points", "armour: [5+, 4+], points", 1)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err = runCLI(t, "compare", p, "--by", "armour", "--trials", "2000")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "armour=5+") || !strings.Contains(out, "armour=4+") {
		t.Errorf("candidates not named armour=5+ and armour=4+:\n%s", out)
	}
	units := sim.Axis{Name: "attacker", Names: true}
	for _, tc := range []struct {
		axis sim.Axis
		v    any
		want string
	}{
		{units, "Doomwheel", "Doomwheel"},
		{sim.Axis{Name: "M"}, 5, "M=5"},
		{sim.Axis{Name: "M"}, true, "M=true"},
		{sim.Axis{Name: "save"}, "3+", "save=3+"},
		{sim.Axis{Name: "A"}, "-", "A=-"},
		{sim.Axis{Name: "table"}, "8th", "table=8th"},
	} {
		if got := candidateName(tc.axis, tc.v); got != tc.want {
			t.Errorf("candidateName(%s, %v) = %q, want %q", tc.axis.Name, tc.v, got, tc.want)
		}
	}
}

// TestCompareByPartResults: the values of one scenario's attackers ask
// one question, so each may report part of the metrics asked for: the
// Doomwheel at 0 points only its Impact Hits, Rat Ogres without their
// troop rules (no Impact Hits) only their kills per 100 points, Knights
// both. The comparison shows "-" where a candidate has no figure.
func TestCompareByPartResults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mix.yaml")
	src := "name: mix\nruleset: fantasy\nbattle:\n  attacker:\n    - {use: Doomwheel, points: 0}\n    - {use: Rat Ogres, troop_rules: false}\n    - {use: Knights}\n" +
		"  target: {use: Halberdiers}\n  distance: 6\n  phases: [charge, combat]\n  options: {rounds: 1}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := runCLI(t, "compare", path, "--metrics", "impact_hits,models_killed_per_100_points", "--trials", "960", "--progress", "never")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"not reported for Rat Ogres", "not reported for Doomwheel", "Doomwheel - Knights", "Rat Ogres - Knights"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the comparison lacks %q:\n%s", want, stdout)
		}
	}
}

// TestCompareByDefaultsToTheActingUnit: without --by, one scenario's
// candidates are the units that act in its question, under that
// question's key: a shooting's firers, a charge's units. The shooting
// once looked for an attacker, which it has not.
func TestCompareByDefaultsToTheActingUnit(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, src string }{
		{"shooting", "name: s\nruleset: heresy\nshooting:\n  firer: [{use: Plasma Support Squad}, {use: Volkite Squad}]\n  target: {use: Legionaries}\n  distance: 12\n"},
		{"charge", "name: c\nruleset: fantasy\ncharge:\n  unit: [{name: Slow, M: 4}, {name: Fast, M: 8}]\n  distance: 10\n"},
	} {
		p := filepath.Join(dir, tc.name+".yaml")
		if err := os.WriteFile(p, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _, err := runCLI(t, "compare", p, "--trials", "2000")
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		names := []string{"Plasma Support Squad", "Volkite Squad"}
		if tc.name == "charge" {
			names = []string{"Slow", "Fast"}
		}
		for _, n := range names {
			if !strings.Contains(out, n) {
				t.Errorf("%s: no candidate %s:\n%s", tc.name, n, out)
			}
		}
	}
}

// TestCompareAxisErrors: a parameter the scenario lacks gets the nearest
// it sweeps; one it gives a single value is said to have one, not
// suggested back; a scenario that sweeps nothing is told to compare files.
func TestCompareAxisErrors(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.yaml")
	if err := os.WriteFile(one, []byte("name: one\nruleset: heresy\nshooting:\n  firer: [{use: Bolter fire}]\n  target: {use: Legionaries}\n  distance: [12]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"doomwheel-balance", "--by", "targt"}, `doomwheel-balance has no swept parameter "targt" (did you mean "target"?); it sweeps attacker, target`},
		{[]string{"plasma-gets-hot"}, `plasma-gets-hot has no swept parameter "firer"; it sweeps twin_linked, distance: name one with --by`},
		{[]string{one}, `one gives "firer" one value, and a comparison of its values needs two or more; it sweeps nothing: give two or more scenario files to compare them`},
	} {
		_, _, err := runCLI(t, append(append([]string{"compare"}, tc.args...), "--trials", "1000")...)
		if err == nil || err.Error() != tc.want {
			t.Errorf("compare %v: %v, want %q", tc.args, err, tc.want)
		}
	}
}
