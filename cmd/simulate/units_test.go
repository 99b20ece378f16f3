package main

import (
	"bytes"
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
	if !strings.Contains(card, "{use: Clanrats}") || !strings.Contains(card, "\nname: Clanrats\n") || strings.Contains(card, "troop type") {
		t.Errorf("units show:\n%s", card)
	}
	// A card whose troop type gives it rules it does not list says which.
	ogres, _, err := runCLI(t, "units", "show", "Rat Ogres")
	if err != nil || !strings.Contains(ogres, "\n# Its troop type, Monstrous Infantry, also gives it Fear, Swiftstride (troop_rules: false turns them off).\n") {
		t.Errorf("units show Rat Ogres (%v):\n%s", err, ogres)
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

// myRats is a catalogue of two fantasy cards: one of a new name, one that
// replaces the built-in Clanrats.
const myRats = `ruleset: fantasy
units:
  - name: My Rats
    troop: Infantry
    profile: M5 WS3 BS3 S3 T3 W1 I4 A1 Ld6
  - name: Clanrats
    profile: M5 WS4 BS3 S3 T3 W1 I4 A1 Ld7
`

// TestUnitsUserCatalogue: --units reads a catalogue file or a folder of
// them, and --scenario the catalogues a scenario may use; their cards are
// listed under the file they come from, before the built-in ones, and a
// built-in card they replace says so; show prints a user card, and the
// replacing card before the built-in one.
func TestUnitsUserCatalogue(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "rats.yaml")
	if err := os.WriteFile(file, []byte(myRats), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{file, dir} {
		out, _, err := runCLI(t, "units", "--units", arg)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Cards of " + file + ":\nfantasy  My Rats                  Infantry: M5 WS3 BS3 S3 T3 W1 I4 A1 Ld6\n",
			"\nBuilt-in cards:\n", "fantasy  Clanrats                 Infantry, 30 models, 175 points: M5 WS3 BS3 S3 T3 W1 I4 A1 Ld5 (replaced by the card of that name above)\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("units --units %s lacks %q:\n%s", arg, want, out)
			}
		}
	}
	card, _, err := runCLI(t, "units", "show", "my rats", "--units", file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(card, `# The fantasy unit card "My Rats" of `+file) || !strings.Contains(card, "\nname: My Rats\n") ||
		!strings.Contains(card, "{use: My Rats}") {
		t.Errorf("units show of a user card:\n%s", card)
	}
	if card, _, _ = runCLI(t, "units", "--units", file, "show", "Clanrats"); !strings.Contains(card, "Ld7") || strings.Contains(card, "built-in") {
		t.Errorf("units show of a card replacing a built-in one:\n%s", card)
	}
	// A card whose name differs in case alone replaces nothing: {use:
	// Clanrats} reads the built-in card, and so does show Clanrats.
	lower := filepath.Join(dir, "lower.yaml")
	os.WriteFile(lower, []byte("ruleset: fantasy\nunits:\n  - name: clanrats\n    profile: M9 WS3 BS3 S3 T3 W1 I4 A1 Ld5\n"), 0o644)
	if card, _, err = runCLI(t, "units", "--units", lower, "show", "Clanrats"); err != nil || !strings.Contains(card, "built-in") || !strings.Contains(card, "\nname: Clanrats\n") {
		t.Errorf("units show Clanrats beside a card clanrats: %v\n%s", err, card)
	}
	if card, _, err = runCLI(t, "units", "--units", lower, "show", "CLANRATS"); err != nil || strings.Contains(card, "built-in") || !strings.Contains(card, "{use: clanrats}") {
		t.Errorf("units show CLANRATS: the first card in any case, named as it is written: %v\n%s", err, card)
	}
	// The use it suggests reads back as the card's name: quoted where
	// YAML would read the name otherwise (a colon and a # here).
	odd := filepath.Join(dir, "odd.yaml")
	os.WriteFile(odd, []byte("ruleset: fantasy\nunits:\n  - name: \"Knights: of #1\"\n    profile: M9 WS3 BS3 S3 T3 W1 I4 A1 Ld5\n"), 0o644)
	if card, _, err = runCLI(t, "units", "--units", odd, "show", "Knights: of #1"); err != nil || !strings.Contains(card, `{use: "Knights: of #1"}`) {
		t.Errorf("units show of a name YAML must quote: %v\n%s", err, card)
	}
	// A scenario's folder holds units.yaml; --scenario reads it.
	sub := filepath.Join(dir, "army")
	os.Mkdir(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "units.yaml"), []byte(strings.Replace(myRats, "My Rats", "Army Rats", 1)), 0o644)
	scen := filepath.Join(sub, "s.yaml")
	os.WriteFile(scen, []byte("name: t\nruleset: fantasy\ncharge: {unit: {use: Army Rats}, distance: 12}\n"), 0o644)
	if card, _, err = runCLI(t, "units", "--scenario", scen, "show", "Army Rats"); err != nil || !strings.Contains(card, "\nname: Army Rats\n") {
		t.Errorf("units --scenario show: %v\n%s", err, card)
	}
}

// TestUnitsErrors: an unknown name lists the cards there are, the user's
// included; a broken catalogue is reported at its file, line and column;
// a path that is not there, or a folder without catalogues, is named.
// TestUnitsCatalogueOnce: a catalogue the scenario's units key names
// that also lies beside it as units.yaml is one file: `units --scenario`
// lists its card once, not a second time "(replaced by the card of that
// name above)", and a shard's header records it once.
func TestUnitsCatalogueOnce(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "units.yaml"), []byte("ruleset: fantasy\nunits:\n  - {name: My Rats, troop: Infantry, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}\n"), 0o644)
	scen := filepath.Join(dir, "my.yaml")
	os.WriteFile(scen, []byte("name: my\nruleset: fantasy\ntrials: 100\nunits: units.yaml\ncharge: {unit: {use: My Rats}, distance: 9}\n"), 0o644)
	out, _, err := runCLI(t, "units", "--scenario", scen)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "My Rats"); n != 1 || strings.Contains(out, "replaced") {
		t.Errorf("My Rats listed %d times:\n%s", n, out)
	}
	part := filepath.Join(dir, "part")
	if _, _, err := runCLI(t, "run", scen, "--shard", "0/1", "-o", part); err != nil {
		t.Fatal(err)
	}
	header, err := os.ReadFile(part)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(header), `units.yaml","sha256"`); n != 1 {
		t.Errorf("the shard's header records units.yaml %d times", n)
	}
}

func TestUnitsErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	os.WriteFile(good, []byte(myRats), 0o644)
	_, _, err := runCLI(t, "units", "--units", good, "show", "Nobody")
	if err == nil || !strings.Contains(err.Error(), `no unit card named "Nobody"; the catalogues have: `) ||
		!strings.Contains(err.Error(), "My Rats") || !strings.Contains(err.Error(), "Stormvermin") {
		t.Errorf("an unknown name: %v", err)
	}
	// A near miss is pointed at the card, as a scenario's use: key is.
	_, _, err = runCLI(t, "units", "show", "Dreadnougth")
	if err == nil || err.Error() != `no unit card named "Dreadnougth"; did you mean "Dreadnought"? (simulate units lists them)` {
		t.Errorf("a near miss: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	// Line 4, column 5: the second card has no name (parseCatalogue).
	os.WriteFile(bad, []byte("ruleset: fantasy\nunits:\n  - {name: A, M: 5}\n  - {M: 4}\n"), 0o644)
	for _, args := range [][]string{{"units", "--units", bad}, {"units", "--units", filepath.Dir(bad), "show", "A"}} {
		_, _, err := runCLI(t, args...)
		if err == nil || !strings.HasPrefix(err.Error(), bad+":4:5: a unit card needs a name") {
			t.Errorf("%v: a broken catalogue: %v", args, err)
		}
	}
	os.WriteFile(bad, []byte("ruleset: fantasy\nunits: [\n"), 0o644)
	if _, _, err := runCLI(t, "units", "--units", bad); err == nil || !strings.HasPrefix(err.Error(), bad+":") {
		t.Errorf("a catalogue that is not YAML: %v", err)
	}
	// Every card is read as a scenario using it would read it: a misspelt
	// key (line 4, column 21), a bad value (line 5, column 23), a use
	// after the name (line 6, column 21), a bad weapon on a heresy card
	// (line 3, column 116), an unknown ruleset (its value, line 1, column
	// 10); a heresy card may hold weapons, melee and cover (the keys of any
	// role). The header
	// of the built-in cards comes once.
	for _, tc := range []struct{ src, want string }{
		{"ruleset: fantasy\nunits:\n  - {name: A, M: 5}\n  - {name: B, M: 5, modls: 4}\n", ":4:21: unknown key \"modls\" in a unit"},
		{"ruleset: fantasy\nunits:\n  - {name: A, M: 5}\n  - {name: B, M: 5}\n  - {name: C, armour: 9+}\n", `:5:23: expected armour as a save from 1+ to 6+`},
		{"ruleset: fantasy\nunits:\n  - {name: A, M: 5}\n  - {name: B, M: 5}\n  - {name: C, M: 5}\n  - {name: D, M: 4, use: A}\n", ":6:21: a catalogue's card is written out in full"},
		{"ruleset: heresy\nunits:\n  - {name: H, models: 5, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8, Sv: 3+, cover: 5+, melee: {name: sword, S: User, AP: 9}}\n", ":3:116: AP 9 is out of range"},
		{"ruleset: chess\nunits:\n  - {name: Rook, M: 5}\n", `:1:10: unknown ruleset "chess"; expected one of: fantasy, heresy`},
	} {
		os.WriteFile(bad, []byte(tc.src), 0o644)
		if _, _, err := runCLI(t, "units", "--units", bad); err == nil || !strings.HasPrefix(err.Error(), bad+tc.want) {
			t.Errorf("%q: %v, want %s%s", tc.src, err, bad, tc.want)
		}
	}
	os.WriteFile(bad, []byte("ruleset: heresy\nunits:\n  - {name: H, models: 5, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8, Sv: 3+, cover: 5+, melee: {name: sword, S: User, AP: 2},\n     weapons: [{name: bolter, range: 24, S: 4, AP: 5, type: Rapid Fire}]}\n"), 0o644)
	if out, _, err := runCLI(t, "units", "--units", bad); err != nil || strings.Count(out, "Built-in cards:") != 1 {
		t.Errorf("a heresy card with every role's keys: %v\n%s", err, out)
	}
	missing := filepath.Join(dir, "nope.yaml")
	if _, _, err := runCLI(t, "units", "--units", missing); err == nil || err.Error() != "unit catalogue "+missing+": no such file or folder" {
		t.Errorf("a missing catalogue: %v", err)
	}
	empty := t.TempDir()
	if _, _, err := runCLI(t, "units", "--units", empty); err == nil || !strings.Contains(err.Error(), "holds no catalogue file (*.yaml)") {
		t.Errorf("an empty folder: %v", err)
	}
	if _, _, err := runCLI(t, "units", "--scenario", missing); err == nil || !strings.Contains(err.Error(), "scenario "+missing+": no such file") {
		t.Errorf("a missing scenario: %v", err)
	}
	if _, _, err := runCLI(t, "units", "list"); err == nil || !strings.Contains(err.Error(), "units takes no arguments, or show") {
		t.Errorf("a bad argument: %v", err)
	}
}

// TestUnitsGivenTwice: --units naming one catalogue twice, by one path or
// two, or naming a folder and a catalogue in it, is a bad command line (exit status 2), as a scenario's units key
// naming it twice is a bad scenario: the second reads nothing new.
func TestUnitsGivenTwice(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	os.WriteFile(good, []byte(myRats), 0o644)
	other := dir + "/sub/../good.yaml" // unjoined: Join would clean it
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--units", good, "--units", good}, "--units " + good + " names the catalogue that --units " + good + " names (values 1 and 2); give each once"},
		{[]string{"--units", dir, "--units", filepath.Join(dir, "sub"), "--units", dir + "/"}, "--units " + dir + "/ names the catalogue that --units " + dir + " names (values 1 and 3); give each once"},
		// A file of a folder also given is read by the folder already,
		// given before it or after.
		{[]string{"--units", dir, "--units", good}, "--units " + good + " is a catalogue of the folder --units " + dir + " reads (values 1 and 2); give each once"},
		{[]string{"--units", good, "--units", dir}, "--units " + dir + " holds the catalogue --units " + good + " names (values 1 and 2); give each once"},
		{[]string{"--units", good, "--units", other}, "--units " + other + " names the catalogue that --units " + good + " names (values 1 and 2); give each once"},
	} {
		checkUnitsRefused(t, tc.args, tc.want)
	}
	// A link to a file of the folder is that file.
	link := filepath.Join(t.TempDir(), "link.yaml")
	if err := os.Symlink(good, link); err != nil {
		t.Skip("no links here:", err)
	}
	checkUnitsRefused(t, []string{"--units", dir, "--units", link}, "--units "+link+" is a catalogue of the folder --units "+dir+" reads (values 1 and 2); give each once")
	checkUnitsRefused(t, []string{"--units", link, "--units", dir}, "--units "+dir+" holds the catalogue --units "+link+" names (values 1 and 2); give each once")
}

// checkUnitsRefused runs simulate units with args, which must be refused
// as a bad command line (exit status 2) with the message want, and a hint
// to the command's help on stderr.
func checkUnitsRefused(t *testing.T, args []string, want string) {
	t.Helper()
	_, stderr, err := runCLI(t, append([]string{"units"}, args...)...)
	var errb bytes.Buffer
	if code := exitCode(err, &errb); code != 2 || err.Error() != want {
		t.Errorf("%v: exit %d, %v\nwant exit 2, %s", args, code, err, want)
	}
	if stderr != "" || !strings.HasSuffix(errb.String(), "Run 'simulate units -h' for its flags.\n") {
		t.Errorf("%v: stderr %q", args, errb.String())
	}
}

// TestCardSummary: a card's line says what tells cards apart, its troop
// type, models, points and weapons, before its profile; cards of several
// sizes list them. Heresy's Plasma Support Squad and Volkite Squad share a
// profile, and read alike where the line gave it alone.
func TestCardSummary(t *testing.T) {
	out, _, err := runCLI(t, "units")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"heresy   Plasma Support Squad     5 models, plasma gun: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+\n",
		"heresy   Volkite Squad            10 models, volkite charger: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+\n",
		"fantasy  Doomwheel                Chariot, 150 points: S6 T6 W5 Ld7\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("simulate units lacks %q:\n%s", want, out)
		}
	}
	// In that order whatever the card's: points, models and troop last.
	file := filepath.Join(t.TempDir(), "big.yaml")
	cat := "ruleset: fantasy\nunits:\n  - {name: Big Rats, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5, points: 100, models: [10, 20], troop: Infantry}\n"
	if err := os.WriteFile(file, []byte(cat), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err = runCLI(t, "units", "--units", file)
	if want := "fantasy  Big Rats                 Infantry, 10 or 20 models, 100 points: M5 WS3 S3 T3 W1 I4 A1 Ld5\n"; err != nil || !strings.Contains(out, want) {
		t.Errorf("a card of two sizes: %v, lacks %q:\n%s", err, want, out)
	}
}
