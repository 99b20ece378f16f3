package scenarios_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hammersim/scenarios"
	"hammersim/scenarios/scenariotest"
	"hammersim/sim"
)

// TestBuiltinCardsLoad uses every built-in card in a question of its
// ruleset: each must decode as a unit there.
func TestBuiltinCardsLoad(t *testing.T) {
	cards := scenarios.BuiltinUnits()
	if len(cards) == 0 {
		t.Fatal("no built-in unit cards")
	}
	for _, c := range cards {
		var src string
		switch c.Ruleset {
		case "fantasy":
			src = "name: t\nruleset: fantasy\ncharge: {unit: {use: " + c.Name + "}, distance: 5}\n"
		case "heresy":
			// A card with a melee weapon charges; the others are shot at.
			src = "name: t\nruleset: heresy\nshooting: {firer: {use: Bolter fire}, target: {use: \"" + c.Name + "\"}}\n"
			if strings.Contains(c.YAML(), "melee:") {
				src = "name: t\nruleset: heresy\nassault: {attacker: {use: \"" + c.Name + "\"}, defender: {use: Legionaries}}\n"
			}
		default:
			t.Errorf("card %s: unknown ruleset %q", c.Name, c.Ruleset)
			continue
		}
		if _, err := both.Parse("t.yaml", []byte(src)); err != nil {
			t.Errorf("card %s (%s): %v", c.Name, c.Ruleset, err)
		}
	}
}

// TestCheckCardsTakesBuiltins: every built-in card, read as if from a
// user's file, passes the check simulate units makes of a user's cards,
// so the check accepts what the rulesets' questions accept.
func TestCheckCardsTakesBuiltins(t *testing.T) {
	var cards []*scenarios.UnitCard
	for _, c := range scenarios.BuiltinUnits() {
		own := *c
		own.File = "mine.yaml"
		cards = append(cards, &own)
	}
	if err := both.CheckCards(cards); err != nil {
		t.Fatal(err)
	}
}

// TestCatalogueCoversBuiltins checks that every unit a built-in scenario
// writes out has a card of its name in the built-in catalogue.
func TestCatalogueCoversBuiltins(t *testing.T) {
	have := map[string]bool{}
	for _, c := range scenarios.BuiltinUnits() {
		have[c.Ruleset+"/"+c.Name] = true
	}
	for _, rs := range both.Names() {
		for _, name := range scenarios.BuiltinsOf(rs) {
			if name == "flee-pursuit" {
				continue // its named mappings are flee and pursuit rolls, not units
			}
			s, err := both.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range scenarios.UnitNames(s) {
				if !have[rs+"/"+u] {
					t.Errorf("%s uses %q, which the built-in %s catalogue lacks: add its card to scenarios/units/%s.yaml", name, u, rs, rs)
				}
			}
		}
	}
}

func TestUseAndProfile(t *testing.T) {
	// The card's keys, with models and Ld changed; the rest as the card.
	src := "name: t\nruleset: fantasy\nbattle:\n  attacker: {use: Stormvermin, models: 10, profile: Ld9}\n  target: {use: Clanrats}\n  distance: 0\n  phases: [combat]\n"
	s, err := both.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(scenarios.UnitNames(s), ","); got != "Stormvermin,Clanrats" {
		t.Errorf("units %q", got)
	}
	// A card used under another name is still the card used; a unit
	// written out is its own.
	src = "name: t\nruleset: fantasy\nbattle:\n  attacker: [{use: Knights, name: Knights in the flank, flank: true}, {name: Band, models: 5, M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7}]\n  target: {use: Clanrats}\n  distance: 0\n  phases: [combat]\n"
	if s, err = both.Parse("t.yaml", []byte(src)); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(scenarios.UnitNames(s), ","); got != "Knights,Band,Clanrats" {
		t.Errorf("units %q", got)
	}
	head := "name: t\nruleset: fantasy\n"
	for _, tc := range []struct{ name, src, want string }{
		{"bad token", head + "charge: {unit: {name: A, profile: M5 WSx}, distance: 3}\n",
			`t.yaml:3:38: expected a characteristic and its value, such as WS3 or Sv3+, found "WSx"`},
		{"no value", head + "charge: {unit: {name: A, profile: M5 T}, distance: 3}\n",
			`t.yaml:3:38: expected a characteristic and its value`},
		{"twice", head + "charge: {unit: {name: A, M: 4, profile: M5}, distance: 3}\n",
			`t.yaml:3:41: M is given twice`},
		{"bad value", head + "charge: {unit: {name: A, profile: M5x}, distance: 3}\n", `t.yaml:3:36: `},
		{"unknown card", head + "charge: {unit: {use: Clanrat}, distance: 3}\n",
			`t.yaml:3:22: no fantasy unit card named "Clanrat"; did you mean "Clanrats"?`},
		{"unknown card, nothing near", head + "charge: {unit: {use: Goblin Wolf Riders}, distance: 3}\n",
			`t.yaml:3:22: no fantasy unit card named "Goblin Wolf Riders"; the catalogue has: `},
		// The unit's own keys are still read and checked, and none is
		// missing: the card would have given it.
		{"other game's card", head + "charge: {unit: {use: Legionaries}, distance: 3}\n",
			`t.yaml:3:22: no fantasy unit card named "Legionaries"`},
		{"missing units path", head + "units: nowhere.yaml\ncharge: {unit: {use: A}, distance: 3}\n",
			`t.yaml:3:8: unit catalogue nowhere.yaml: no such file or folder`},
		// The key is checked even when no card is used, and so not read.
		{"missing units path, no card used", head + "units: [nowhere.yaml]\ncharge: {unit: {name: A, M: 5}, distance: 3}\n",
			`t.yaml:3:9: unit catalogue nowhere.yaml: no such file or folder`},
		// An empty path names nothing; passed over, it would hide a
		// path the writer meant to give. The value '' is at column 8.
		{"empty units path", head + "units: ''\ncharge: {unit: {name: A, M: 5}, distance: 3}\n",
			`t.yaml:3:8: an empty path; expected a unit catalogue file or folder`},
		{"empty units path in a list", head + "units: [\"\"]\ncharge: {unit: {name: A, M: 5}, distance: 3}\n",
			`t.yaml:3:9: an empty path; expected a unit catalogue file or folder`},
		// So does an empty list, whose bracket is at column 8.
		{"empty units list", head + "units: []\ncharge: {unit: {name: A, M: 5}, distance: 3}\n",
			`t.yaml:3:8: an empty list names no unit catalogue; give a file or folder, or a list of them, or leave the key out`},
		{"not UTF-8", head + "# caf\xe9\ncharge: {unit: {name: A, M: 5}, distance: 3}\n",
			`t.yaml:3:6: byte 0xE9 is not UTF-8 text; save the file as UTF-8`},
	} {
		scenariotest.WantError(t, both, tc.name, tc.src, tc.want)
	}
	// With a card that does not exist, the unit's own keys are still read
	// and checked, and none is missing: the card would have given it.
	_, err = both.Parse("t.yaml", []byte(head+"charge: {unit: {use: Clanrat, modls: 3, rules: [Swiftstrid]}, distance: 3}\n"))
	want := "t.yaml:3:22: no fantasy unit card named \"Clanrat\"; did you mean \"Clanrats\"? (simulate units lists them)\n" +
		"t.yaml:3:31: unknown key \"modls\" in a unit (did you mean \"models\"?); expected one of: name, troop, A, rules, champion, crew, missile, M, WS, BS, S, T, W, I, Ld, models, width, base, base_depth, unit_strength, points, armour, ward, parry, standard, musician, battle_standard, flank, rear, higher_ground, flying, troop_rules, use, profile\n" +
		"t.yaml:3:49: unknown rule \"Swiftstrid\"; did you mean \"Swiftstride\"?"
	if err == nil || err.Error() != want {
		t.Errorf("unknown card beside other problems:\n got: %v\nwant: %s", err, want)
	}
}

// TestProfileNotALine: a profile that is no line of characteristics
// (nothing, a list, a blank line) is one error, at the value, with an
// example of the ruleset's profiles; the key is not reported again as
// unknown, nor the keys it would have given as missing, in either ruleset.
func TestProfileNotALine(t *testing.T) {
	for _, tc := range []struct{ ruleset, value, found string }{
		{"fantasy", "~", "nothing"},
		{"fantasy", "[]", "an empty list"},
		{"fantasy", "[M5]", "a list"},
		{"fantasy", `"   "`, "a blank line"},
		{"heresy", "[]", "an empty list"},
		{"heresy", "{}", "an empty mapping"},
		{"heresy", `""`, "a blank line"},
	} {
		src := "name: t\nruleset: fantasy\ncharge: {unit: {name: A, M: 5, profile: " + tc.value + "}, distance: 3}\n"
		example := "M5 WS3 S3 T3 W1 I4 A1 Ld5"
		if tc.ruleset == "heresy" {
			src = "name: t\nruleset: heresy\nshooting:\n  firer: {name: AAA, models: 1, profile: " + tc.value + ", weapons: [{name: g, S: 4, AP: 5}]}\n  target: {name: B, models: 1, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+}\n"
			example = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
		}
		_, err := both.Parse("t.yaml", []byte(src))
		want := "expected profile as one line of characteristics, such as \"" + example + "\", found " + tc.found
		if err == nil || !strings.Contains(err.Error(), want) || strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("%s profile %s: %v", tc.ruleset, tc.value, err)
		}
	}
}

// TestLocalCatalogue reads cards from the scenario's folder and from a
// units path; a local card shadows a built-in of the same name, and an
// error inside a card names the catalogue file.
func TestLocalCatalogue(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("units.yaml", "ruleset: fantasy\nunits:\n  - {name: Clanrats, troop: Infantry, profile: M9 WS3 S3 T3 W1 I4 A1 Ld5}\n")
	write("lists/elves.yaml", "ruleset: fantasy\nunits:\n  - {name: Elves, troop: Infantry, profile: M5 WS4 S3 T3 W1 I5 A1 Ld8}\n  - {name: Bad, troop: Infantry, profile: M5 WSq}\n")
	scen := write("s.yaml", "name: t\nruleset: fantasy\nunits: lists\ncharge: {unit: [{use: Clanrats}, {use: Elves}, {use: Bad}], distance: 3}\n")
	if _, err := both.Load(scen); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "lists/elves.yaml")+":4:46: expected a characteristic") {
		t.Errorf("an error in a card should name its catalogue: %v", err)
	}
	scen = write("s.yaml", "name: t\nruleset: fantasy\nunits: lists\ncharge: {unit: [{use: Clanrats}, {use: Elves}], distance: 3}\n")
	s, err := both.Load(scen)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(scenarios.UnitNames(s), ","); got != "Clanrats,Elves" {
		t.Errorf("units %q", got)
	}
	// The folder's Clanrats (M9) shadow the built-in ones (M5): the
	// charge reach's least value is the card's M plus the least roll.
	if !strings.Contains(string(s.Source), "use: Clanrats") {
		t.Error("source")
	}
	// ScenarioUnits gives the scenario's own cards, its units key's first.
	cards, err := scenarios.ScenarioUnits(scen)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cards {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, ","); got != "Elves,Bad,Clanrats" {
		t.Errorf("ScenarioUnits: %q, want Elves,Bad,Clanrats", got)
	}
	// A folder with no catalogue in it is an error, not an empty catalogue.
	if err := os.MkdirAll(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	scen = write("s.yaml", "name: t\nruleset: fantasy\nunits: empty\ncharge: {unit: {use: Clanrats}, distance: 3}\n")
	if _, err := both.Load(scen); err == nil || !strings.Contains(err.Error(), "s.yaml:3:8: unit catalogue folder "+filepath.Join(dir, "empty")+" holds no catalogue file (*.yaml)") {
		t.Errorf("an empty catalogue folder: %v", err)
	}
	// A file the units key names itself holds the scenario's ruleset's
	// cards; a folder may hold catalogues of both, each taking its own.
	hh := write("mixed/hh.yaml", "ruleset: heresy\nunits:\n  - {name: HH, models: 5, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+}\n")
	write("mixed/rats.yaml", "ruleset: fantasy\nunits:\n  - {name: Rats, troop: Infantry, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}\n")
	scen = write("s.yaml", "name: t\nruleset: fantasy\nunits: [units.yaml, mixed/hh.yaml]\ncharge: {unit: {use: Clanrats}, distance: 3}\n")
	if _, err := both.Load(scen); err == nil || err.Error() != scen+":3:21: unit catalogue "+hh+" holds heresy cards, and this scenario is fantasy: name a fantasy catalogue here, or remove it" {
		t.Errorf("a heresy catalogue named by a fantasy scenario: %v", err)
	}
	scen = write("s.yaml", "name: t\nruleset: fantasy\nunits: mixed\ncharge: {unit: {use: Rats}, distance: 3}\n")
	if _, err := both.Load(scen); err != nil {
		t.Errorf("a folder of both rulesets' catalogues: %v", err)
	}
}

func FuzzProfile(f *testing.F) {
	for _, s := range []string{"M5 WS3 BS3 S3 T3 W1 I4 A1 Ld5", "WS4 BS4 Sv3+ Inv4+", "  M5\tWS3 ", "A- Ld", "5M", "ΩW3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r\"\\") {
			return
		}
		src := "name: t\nruleset: fantasy\ncharge: {unit: {name: A, profile: \"" + line + "\"}, distance: 3}\n"
		_, err := both.Parse("t.yaml", []byte(src))
		if err != nil && !strings.HasPrefix(err.Error(), "t.yaml:") {
			t.Errorf("%q: error without position: %v", line, err)
		}
	})
}

// TestUserCardsMisspeltBeforeMissing: in a listing of a catalogue's
// cards, as in a scenario, a misspelt key comes before the key it leaves
// missing, though the missing key is reported at the card, before it on
// the line; the problems of the file's reading keep their place by line,
// and so does a catalogue's own misspelt key.
func TestUserCardsMisspeltBeforeMissing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hc.yaml")
	src := "ruleset: heresy\nunits:\n  - {name: X, modles: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}\n  - {name: X, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := both.UserCards([]string{path}, "")
	var list scenarios.ErrorList
	if !errors.As(err, &list) || len(list) != 3 {
		t.Fatalf("%v", err)
	}
	want := []string{`3:15: unknown key "modles"`, `3:5: a unit is missing the key "models"`, "4:5: "}
	for i, w := range want {
		if !strings.Contains(list[i].Error(), w) {
			t.Errorf("problem %d: %v, want %q", i+1, list[i], w)
		}
	}
	// The catalogue's own keys, found as the file is read: its misspelt
	// units comes before the units it leaves missing, reported at 1:1.
	top := filepath.Join(dir, "top.yaml")
	if err := os.WriteFile(top, []byte("ruleset: heresy\nunit: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = both.UserCards([]string{top}, "")
	if !errors.As(err, &list) || len(list) != 2 ||
		!strings.Contains(list[0].Error(), `2:1: unknown key "unit" in a unit catalogue (did you mean "units"?)`) ||
		!strings.Contains(list[1].Error(), `1:1: a unit catalogue is missing the key "units"`) {
		t.Errorf("a misspelt units key: %v; want the unknown unit at 2:1, then the missing units at 1:1", err)
	}
}

// TestUserCardsFileByFile: the problems of several catalogues come file by
// file, in the order the files were named: a.yaml, which has a problem of
// its cards' check alone, before b.yaml, which has one of its reading (a
// card with no name, line 3) before one of its check (line 4).
func TestUserCardsFileByFile(t *testing.T) {
	dir := t.TempDir()
	card := "{name: X, modles: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}"
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	if err := os.WriteFile(a, []byte("ruleset: heresy\nunits:\n  - "+card+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("ruleset: heresy\nunits:\n  - {models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}\n  - "+card+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := both.UserCards([]string{a, b}, "")
	var list scenarios.ErrorList
	if !errors.As(err, &list) || len(list) != 5 {
		t.Fatalf("%v", err)
	}
	want := []string{a + ":3:15: unknown key", a + ":3:5: a unit is missing", b + ":3:5: a unit card needs a name", b + ":4:15: unknown key", b + ":4:5: a unit is missing"}
	for i, w := range want {
		if !strings.HasPrefix(list[i].Error(), w) {
			t.Errorf("problem %d: %v, want %q", i+1, list[i], w)
		}
	}
}

// TestProfileNotALineInACard: a card whose profile cannot be read is one
// error where it is used too, and a unit whose profile cannot be read is
// still told it lacks its name, which no profile gives.
func TestProfileNotALineInACard(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "units.yaml"), []byte("ruleset: heresy\nunits:\n  - {name: Q, models: 2, profile: ~, weapons: [{name: g, S: 4, AP: 5}]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(scen, []byte("name: t\nruleset: heresy\nshooting:\n  firer: {use: Q}\n  target: {name: B, models: 1, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := both.Load(scen)
	if err == nil || strings.Count(err.Error(), "\n") > 0 || !strings.Contains(err.Error(), "expected profile as one line") {
		t.Errorf("a card's unreadable profile, used: %v", err)
	}
	_, err = both.Parse("t.yaml", []byte("name: t\nruleset: fantasy\ncharge: {unit: {M: 5, profile: ~}, distance: 3}\n"))
	if err == nil || !strings.Contains(err.Error(), "expected profile as one line") || !strings.Contains(err.Error(), `missing the key "name"`) {
		t.Errorf("a unit with no name and an unreadable profile: %v", err)
	}
}

// TestUnknownKeyNamesUseAndProfile: a misspelt key in a unit a scenario
// writes names use and profile among the keys a unit takes, in either
// ruleset; one in a catalogue's card, which takes no use, names profile
// alone.
func TestUnknownKeyNamesUseAndProfile(t *testing.T) {
	for _, src := range []string{
		"name: t\nruleset: fantasy\ncharge: {unit: {name: A, M: 5, profil: M5}, distance: 3}\n",
		"name: t\nruleset: heresy\nshooting:\n  firer: {name: A, models: 1, profil: x, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+, weapons: [{name: g, S: 4, AP: 5}]}\n  target: {name: B, models: 1, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+}\n",
	} {
		if _, err := both.Parse("t.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), `unknown key "profil" in a unit (did you mean "profile"?); expected one of: `) || !strings.Contains(err.Error(), ", use, profile") {
			t.Errorf("%v", err)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "units.yaml"), []byte("ruleset: heresy\nunits:\n  - {name: Q, modles: 2, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+, weapons: [{name: g, S: 4, AP: 5}]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(scen, []byte("name: t\nruleset: heresy\nshooting:\n  firer: {use: Q}\n  target: {name: B, models: 1, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := both.Load(scen); err == nil || !strings.Contains(err.Error(), `unknown key "modles"`) || strings.Contains(err.Error(), "use, profile") || !strings.Contains(err.Error(), ", profile") {
		t.Errorf("a card's misspelt key: %v", err)
	}
}

// FuzzCatalogue feeds catalogue files to a scenario that uses a card from
// them: nothing may panic, and every error is positioned.
func FuzzCatalogue(f *testing.F) {
	f.Add("ruleset: fantasy\nunits:\n  - {name: A, troop: Infantry, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}\n")
	f.Add("ruleset: fantasy\nunits: [{name: A, use: B}]\n")
	f.Add("units: 3\n")
	f.Fuzz(func(t *testing.T, catalogue string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "units.yaml"), []byte(catalogue), 0o644); err != nil {
			t.Fatal(err)
		}
		scen := filepath.Join(dir, "s.yaml")
		if err := os.WriteFile(scen, []byte("name: t\nruleset: fantasy\ncharge: {unit: {use: A}, distance: 3}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := both.Load(scen)
		if err != nil && !strings.HasPrefix(err.Error(), dir) && !strings.HasPrefix(err.Error(), "builtin:") {
			t.Errorf("error without a file position: %v", err)
		}
	})
}

// TestUserCardsReportsEverything: every problem of a user's catalogues
// comes out at once, in file order, each at its line and column: a card
// that cannot be read (no name) does not hide the problems of the cards
// beside it, which are checked as a scenario would read them.
func TestUserCardsReportsEverything(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const fantasyKeys = "name, troop, A, rules, champion, crew, missile, M, WS, BS, S, T, W, I, Ld, models, width, base, base_depth, unit_strength, points, armour, ward, parry, standard, musician, battle_standard, flank, rear, higher_ground, flying, troop_rules, profile"
	three := write("three.yaml", "ruleset: fantasy\nunits:\n"+
		"  - name: Rats\n    modls: 10\n    profile: M5 WS3 BS3 S3 T3 W1 I4 A1 Ld5\n"+
		"  - name: Odd\n    profile: M5 Foo7 WS3\n"+
		"  - troop: Infantry\n    profile: M5 WS3\n")
	dup := write("dup.yaml", "ruleset: fantasy\nunits:\n  - {name: A, M: 5, armour: 5}\n  - {name: A, M: 6}\n  - {name: B, M: 5, use: A}\n")
	noRuleset := write("norules.yaml", "units:\n  - {name: A, M: 5}\n  - {M: 4}\n")
	folder := filepath.Join(dir, "scen")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	write("scen/units.yaml", "ruleset: heresy\nunits:\n  - {name: H, models: 5, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3}\n  - {models: 5}\n")
	scen := write("scen/s.yaml", "name: t\nruleset: heresy\n")
	for _, tc := range []struct {
		name     string
		paths    []string
		scenario string
		want     []string // each line of the error, in order
	}{
		{"nameless card hides nothing", []string{three}, "", []string{
			// modls is the key at line 4, column 5; Foo7 the second token
			// of the profile at line 7 (its text starts at column 14, the
			// token 3 bytes in); the nameless card the mapping at 8:5.
			three + `:4:5: unknown key "modls" in a unit (did you mean "models"?); expected one of: ` + fantasyKeys,
			three + `:7:17: unknown key "Foo" in a unit; expected one of: ` + fantasyKeys,
			three + `:8:5: a unit card needs a name`,
		}},
		// The armour value is at column 29 of its line; the second card
		// named A is left out, so its own keys are not checked.
		{"names taken and uses", []string{dup}, "", []string{
			dup + `:3:29: expected armour as a save with its +, such as 5+; found "5"`,
			dup + `:4:5: two cards named "A" in one catalogue (the first at line 3)`,
			dup + `:5:21: a catalogue's card is written out in full; use belongs in scenarios`,
		}},
		// Without its ruleset no card can be read: the one error says why.
		{"no ruleset", []string{noRuleset}, "", []string{
			noRuleset + `:1:1: a unit catalogue is missing the key "ruleset"`,
		}},
		// Files in the order given, then the scenario's folder.
		{"two files and a scenario", []string{dup, three}, scen, []string{
			dup + `:3:29: expected armour as a save with its +, such as 5+; found "5"`,
			dup + `:4:5: two cards named "A" in one catalogue (the first at line 3)`,
			dup + `:5:21: a catalogue's card is written out in full; use belongs in scenarios`,
			three + `:4:5: unknown key "modls" in a unit (did you mean "models"?); expected one of: ` + fantasyKeys,
			three + `:7:17: unknown key "Foo" in a unit; expected one of: ` + fantasyKeys,
			three + `:8:5: a unit card needs a name`,
			// Sv3 in the profile: the line's profile text starts at column
			// 35, "Sv" 27 bytes in, its value 2 bytes later.
			filepath.Join(folder, "units.yaml") + `:3:64: expected Sv as a save with its +, such as 3+; found "3"`,
			filepath.Join(folder, "units.yaml") + `:4:5: a unit card needs a name`,
		}},
	} {
		cards, err := both.UserCards(tc.paths, tc.scenario)
		want := strings.Join(tc.want, "\n")
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got: %v\nwant: %s", tc.name, err, want)
		}
		if cards != nil {
			t.Errorf("%s: cards beside errors", tc.name)
		}
	}
}

// TestCataloguesAreInputs: the catalogues a scenario reads are recorded
// with it and enter its SHA-256, and a registry given those records
// rebuilds the same scenario from another folder after the files changed.
func TestCataloguesAreInputs(t *testing.T) {
	dir := t.TempDir()
	units := filepath.Join(dir, "units.yaml")
	cardM5 := "ruleset: fantasy\nunits:\n  - {name: My Rats, troop: Infantry, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}\n"
	if err := os.WriteFile(units, []byte(cardM5), 0o644); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(dir, "rc.yaml")
	src := "name: rc\nruleset: fantasy\ncharge: {unit: {use: My Rats}, distance: 9}\n"
	if err := os.WriteFile(scen, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := both.Load(scen)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Catalogues) != 1 || s.Catalogues[0].Path != units || string(s.Catalogues[0].Source) != cardM5 {
		t.Fatalf("catalogues %+v, want %s alone", s.Catalogues, units)
	}
	// The documented sum: sha256sum rc.yaml units.yaml | cut -c1-64 | sha256sum.
	lines := fmt.Sprintf("%x\n%x\n", sha256.Sum256([]byte(src)), sha256.Sum256([]byte(cardM5)))
	if want := fmt.Sprintf("%x", sha256.Sum256([]byte(lines))); s.SHA256 != want {
		t.Errorf("SHA256 %s, want %s", s.SHA256, want)
	}
	// A scenario that reads no catalogue keeps the plain SHA-256 of its text.
	plain, err := both.Parse("p.yaml", []byte("name: p\nruleset: fantasy\ncharge: {unit: {use: Clanrats}, distance: 9}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%x", sha256.Sum256(plain.Source)); plain.SHA256 != want || len(plain.Catalogues) != 0 {
		t.Errorf("a scenario of built-in cards: SHA256 %s, catalogues %d; want %s and none", plain.SHA256, len(plain.Catalogues), want)
	}

	// The card changes on disk: read from the disk, the scenario changes;
	// rebuilt from its records, under a name whose folder holds nothing,
	// it does not.
	cardM7 := strings.Replace(cardM5, "M5", "M7", 1)
	if err := os.WriteFile(units, []byte(cardM7), 0o644); err != nil {
		t.Fatal(err)
	}
	changed, err := both.Load(scen)
	if err != nil {
		t.Fatal(err)
	}
	rebuilt, err := both.WithCatalogues(s.Catalogues).Parse(filepath.Join(t.TempDir(), "rc.yaml"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if changed.SHA256 == s.SHA256 || rebuilt.SHA256 != s.SHA256 {
		t.Errorf("SHA256: recorded %s, changed on disk %s, rebuilt %s", s.SHA256, changed.SHA256, rebuilt.SHA256)
	}
	// A charge without Swiftstride reaches M + the highest of 2D6 (the
	// Swiftstride unit card): 9" at M5 needs a highest die of 4 or more,
	// 1 - (3/6)^2 = 3/4; at M7 one of 2 or more, 1 - (1/6)^2 = 35/36. The
	// exact values tell the two cards apart.
	exact := func(s *scenarios.Scenario) float64 {
		run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: 1000, Seed: 1, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range s.Results(run) {
			if e.HasExact {
				return e.Exact
			}
		}
		t.Fatal("no exact value")
		return 0
	}
	if got := exact(rebuilt); math.Abs(got-3.0/4) > 1e-12 {
		t.Errorf("rebuilt from the records: exact %v, want 3/4 (the M5 card)", got)
	}
	if got := exact(changed); math.Abs(got-35.0/36) > 1e-12 {
		t.Errorf("read from the changed disk: exact %v, want 35/36 (the M7 card)", got)
	}
}

// TestWithoutFilesReadsNothing: a registry that reads no files refuses a
// units key wherever it points, quoting nothing of it, does not look
// beside the file name it is given, and finds built-in scenarios only.
func TestWithoutFilesReadsNothing(t *testing.T) {
	sealed := both.WithoutFiles()
	secret := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(secret, []byte("ruleset: fantasy\nunits:\n  - {name: Hidden, troop: Infantry, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, units := range []string{secret, "/etc/passwd", filepath.Dir(secret)} {
		src := "name: x\nruleset: fantasy\nunits: " + units + "\ncharge: {unit: {use: Hidden}, distance: 5}\n"
		_, err := sealed.Parse("x.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "x.yaml:3:8: this server reads no files") {
			t.Errorf("units: %s: %v", units, err)
			continue
		}
		if strings.Contains(err.Error(), "root:") || strings.Contains(err.Error(), "M5 WS3") {
			t.Errorf("units: %s: the error quotes the file: %v", units, err)
		}
	}
	// The file name only labels: the units.yaml beside it is not read.
	dir := filepath.Dir(secret)
	if err := os.Rename(secret, filepath.Join(dir, "units.yaml")); err != nil {
		t.Fatal(err)
	}
	src := []byte("name: x\nruleset: fantasy\ncharge: {unit: {use: Hidden}, distance: 5}\n")
	if _, err := both.Parse(filepath.Join(dir, "x.yaml"), src); err != nil {
		t.Fatalf("the command line reads the folder's catalogue: %v", err)
	}
	if _, err := sealed.Parse(filepath.Join(dir, "x.yaml"), src); err == nil || !strings.Contains(err.Error(), `no fantasy unit card named "Hidden"`) {
		t.Errorf("sealed, the folder's catalogue was read: %v", err)
	}
	if _, err := sealed.Parse("x.yaml", []byte("name: x\nruleset: fantasy\ncharge: {unit: {use: Clanrats}, distance: 5}\n")); err != nil {
		t.Errorf("built-in cards: %v", err)
	}
	if _, err := sealed.Load(filepath.Join(dir, "x.yaml")); err == nil || !strings.Contains(err.Error(), "no built-in scenario named") {
		t.Errorf("Load of a path: %v", err)
	}
	if _, err := sealed.Load(scenarios.DefaultScenario); err != nil {
		t.Errorf("Load of a built-in: %v", err)
	}
}

// TestMisspeltCardOneError: a use of a card that does not exist is one
// error, with the nearest name when one is close, and not a list of the
// keys the unit then lacks.
func TestMisspeltCardOneError(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"name: h\nruleset: heresy\nshooting:\n  firer: {use: Dreadnougt}\n  target: {use: Tactical Squad}\n",
			`h.yaml:4:16: no heresy unit card named "Dreadnougt"; did you mean "Dreadnought"?`},
		{"name: h\nruleset: fantasy\ncharge:\n  unit: {use: Clanratz, models: 20}\n  distance: 5\n",
			`h.yaml:4:15: no fantasy unit card named "Clanratz"; did you mean "Clanrats"?`},
		{"name: h\nruleset: fantasy\ncharge:\n  unit: {use: Zzzzzzzzzzzz}\n  distance: 5\n",
			`h.yaml:4:15: no fantasy unit card named "Zzzzzzzzzzzz"; the catalogue has: `},
	} {
		_, err := both.Parse("h.yaml", []byte(tc.src))
		var list scenarios.ErrorList
		if !errors.As(err, &list) || len(list) != 1 || !strings.HasPrefix(list[0].Error(), tc.want) {
			t.Errorf("got %v, want one error starting %s", err, tc.want)
		}
	}
}

// TestCatalogueReadOnce: a catalogue the units key names that also lies
// beside the scenario as units.yaml, or one --units names that the
// scenario reads too, is one file: read once, recorded once, and hashed once,
// so that the SHA-256 is the documented sha256sum my.yaml units.yaml |
// cut -c1-64 | sha256sum (it was that of my.yaml units.yaml units.yaml),
// and the listing of the cards a scenario may use shows its card once
// (the second copy was marked replaced by the first).
func TestCatalogueReadOnce(t *testing.T) {
	card := "ruleset: fantasy\nunits:\n  - {name: My Rats, troop: Infantry, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}\n"
	for _, tc := range []struct{ units, file string }{
		{"units.yaml", "units.yaml"},
		{"./cards", "cards/rats.yaml"},
	} {
		units := tc.units
		dir := t.TempDir()
		src := "name: my\nruleset: fantasy\nunits: " + units + "\ncharge: {unit: {use: My Rats}, distance: 9}\n"
		writeFiles(t, dir, map[string]string{tc.file: card, "my.yaml": src})
		scen := filepath.Join(dir, "my.yaml")
		s, err := both.Load(scen)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Catalogues) != 1 {
			t.Errorf("units: %s: %d catalogues recorded, want units.yaml once", units, len(s.Catalogues))
		}
		lines := fmt.Sprintf("%x\n%x\n", sha256.Sum256([]byte(src)), sha256.Sum256([]byte(card)))
		if want := fmt.Sprintf("%x", sha256.Sum256([]byte(lines))); s.SHA256 != want {
			t.Errorf("units: %s: SHA256 %s, want %s (my.yaml, units.yaml)", units, s.SHA256, want)
		}
		cards, err := scenarios.ScenarioUnits(scen)
		if err != nil || len(cards) != 1 {
			t.Errorf("units: %s: the scenario may use %d cards (%v), want My Rats once", units, len(cards), err)
		}
		// Named by --units too, under another path: still one card.
		cards, err = both.UserCards([]string{filepath.Join(dir, ".", tc.file)}, scen)
		if err != nil || len(cards) != 1 {
			t.Errorf("units: %s, and --units units.yaml: %d cards (%v), want My Rats once", units, len(cards), err)
		}
	}
}

// writeFiles writes each file of files under dir, making its folders, and
// returns dir.
func writeFiles(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestFolderNamesAreNotPatterns: a folder's name is taken as written when
// its catalogue files are listed, so that a scenario in g[1] reads its own
// *.units.yaml and not those of g1 (which the pattern g[1] matches), and
// a units folder named cards[x] is read, not taken for the pattern that
// matches cardsx.
func TestFolderNamesAreNotPatterns(t *testing.T) {
	card := func(name string) string {
		return "ruleset: fantasy\nunits:\n  - {name: " + name + ", troop: Infantry, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}\n"
	}
	// Each folder name beside the one its name matches as a pattern;
	// a backslash is a path separator on Windows, so that name is tried
	// elsewhere only.
	names := [][2]string{{"g[1]", "g1"}, {"a*", "ab"}, {"q?", "qx"}}
	if filepath.Separator != '\\' {
		names = append(names, [2]string{`b\c`, "bc"})
	}
	for _, n := range names {
		own, sibling := n[0], n[1]
		dir := writeFiles(t, t.TempDir(), map[string]string{
			own + "/own.units.yaml":       card("Own"),
			sibling + "/other.units.yaml": card("Other"),
			own + "/cards/own.yaml":       card("Own Card"),
			sibling + "/cards/other.yaml": card("Other Card"),
			own + "/s.yaml":               "name: t\nruleset: fantasy\ncharge: {unit: {use: Own}, distance: 3}\n",
			own + "/sibling.yaml":         "name: t\nruleset: fantasy\ncharge: {unit: {use: Other}, distance: 3}\n",
		})
		if _, err := both.Load(filepath.Join(dir, own, "s.yaml")); err != nil {
			t.Errorf("%s: the folder's own catalogue: %v", own, err)
		}
		if _, err := both.Load(filepath.Join(dir, own, "sibling.yaml")); err == nil || !strings.Contains(err.Error(), `no fantasy unit card named "Other"`) {
			t.Errorf("%s: the catalogue of %s was read: %v", own, sibling, err)
		}
		cards, err := both.UserCards([]string{filepath.Join(dir, own, "cards")}, "")
		var got []string
		for _, c := range cards {
			got = append(got, c.Name)
		}
		if err != nil || strings.Join(got, ",") != "Own Card" {
			t.Errorf("%s: --units %s/cards: cards %q, error %v; want Own Card alone", own, own, got, err)
		}
	}
}

// TestCatalogueFileProblems: problems of a catalogue file as a whole say
// what a catalogue expects, and an unknown ruleset is one error at its
// value, with or without cards.
func TestCatalogueFileProblems(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"empty", "", `:1:1: the file is empty; expected a unit catalogue mapping with ruleset and units`},
		{"comments only", "# my cards\n", `:1:1: the file is empty; expected a unit catalogue mapping with ruleset and units`},
		{"two documents", "ruleset: fantasy\nunits: []\n---\nruleset: heresy\nunits: []\n", `:4:1: a second YAML document; a unit catalogue holds one`},
		// The value 40k is at column 10 of line 1.
		{"unknown ruleset, no cards", "ruleset: 40k\nunits: []\n", `:1:10: unknown ruleset "40k"; expected one of: fantasy, heresy`},
		{"unknown ruleset, two cards", "ruleset: 40k\nunits:\n  - {name: A, M: 5}\n  - {name: B, M: 4}\n", `:1:10: unknown ruleset "40k"; expected one of: fantasy, heresy`},
		{"empty ruleset", "ruleset: ''\nunits: []\n", `:1:10: unknown ruleset ""; expected one of: fantasy, heresy`},
	} {
		p := filepath.Join(t.TempDir(), "cards.yaml")
		if err := os.WriteFile(p, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := both.UserCards([]string{p}, "")
		if want := p + tc.want; err == nil || err.Error() != want {
			t.Errorf("%s:\n got: %v\nwant: %s", tc.name, err, want)
		}
	}
	// A scenario that reads the catalogue beside it hears of it too.
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"units.yaml": "ruleset: 40k\nunits: [{name: Marines, M: 6}]\n",
		"s.yaml":     "name: t\nruleset: fantasy\ncharge: {unit: {use: Clanrats}, distance: 3}\n",
	})
	_, err := both.Load(filepath.Join(dir, "s.yaml"))
	if want := filepath.Join(dir, "units.yaml") + `:1:10: unknown ruleset "40k"; expected one of: fantasy, heresy`; err == nil || err.Error() != want {
		t.Errorf("a scenario beside it:\n got: %v\nwant: %s", err, want)
	}
}

// TestCatalogueNamedTwice: a units list that names one catalogue twice,
// by the same path or by two that lead to the same file or folder, or
// names a folder and a catalogue file in it, is
// refused at the second entry, as a list of metrics refuses a name given
// twice: the second reads nothing new. The columns are those of the
// entries in the line "units: [...]".
func TestCatalogueNamedTwice(t *testing.T) {
	card := "ruleset: fantasy\nunits:\n  - {name: My Rats, troop: Infantry, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}\n"
	for _, tc := range []struct{ units, want string }{
		{"[units.yaml, units.yaml]", `:3:21: "units.yaml" is named twice, here and at line 3, column 9; name each unit catalogue once`},
		{"[units.yaml, ./units.yaml]", `:3:21: "./units.yaml" names the same unit catalogue file as "units.yaml" at line 3, column 9; name each catalogue once`},
		{"[cards, cards/]", `:3:16: "cards/" names the same unit catalogue folder as "cards" at line 3, column 9; name each catalogue once`},
		{"[cards, ../" + "x/cards]", `:3:16: "../x/cards" names the same unit catalogue folder as "cards" at line 3, column 9; name each catalogue once`},
		// A file of a folder the list also names, named before the folder
		// or after it.
		{"[cards, cards/rats.yaml]", `:3:16: "cards/rats.yaml" is a catalogue of the folder "cards" at line 3, column 9, which reads it already; name each catalogue once`},
		{"[cards/rats.yaml, cards]", `:3:26: the folder "cards" holds "cards/rats.yaml", which "cards/rats.yaml" at line 3, column 9 names already; name each catalogue once`},
	} {
		for _, use := range []string{"{use: My Rats}", "{name: Own, troop: Infantry, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}"} {
			dir := filepath.Join(t.TempDir(), "x")
			src := "name: my\nruleset: fantasy\nunits: " + tc.units + "\ncharge: {unit: " + use + ", distance: 9}\n"
			writeFiles(t, dir, map[string]string{"units.yaml": card, "cards/rats.yaml": card, "my.yaml": src})
			scen := filepath.Join(dir, "my.yaml")
			_, err := both.Load(scen)
			if want := scen + tc.want; err == nil || err.Error() != want {
				t.Errorf("units: %s, unit %s:\n got: %v\nwant: %s", tc.units, use, err, want)
			}
		}
	}
}

// TestCatalogueBounds: the catalogues one scenario reads are bounded in
// number (MaxCatalogueFiles) and in bytes (MaxCatalogueBytes), its units
// key and its folder together; past either, the first catalogue over is
// named, and nothing more is read. A part's recorded catalogues are held
// to the same bounds.
func TestCatalogueBounds(t *testing.T) {
	card := func(i int, pad int) string {
		return fmt.Sprintf("ruleset: fantasy\ndescription: d%s\nunits:\n  - {name: R%d, troop: Infantry, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}\n", strings.Repeat("x", pad), i)
	}
	scen := "name: my\nruleset: fantasy\nunits: cards\ncharge: {unit: {use: R0}, distance: 9}\n"

	// One file more than the bound: the last, by name, is refused.
	files := map[string]string{"my.yaml": scen}
	for i := range scenarios.MaxCatalogueFiles + 1 {
		files[fmt.Sprintf("cards/c%04d.yaml", i)] = card(i, 0)
	}
	dir := writeFiles(t, t.TempDir(), files)
	_, err := both.Load(filepath.Join(dir, "my.yaml"))
	last := filepath.Join(dir, "cards", fmt.Sprintf("c%04d.yaml", scenarios.MaxCatalogueFiles))
	if want := fmt.Sprintf("%s:3:8: unit catalogue %s is one more than the 1000 catalogue files one scenario, or one simulate units, may read; name fewer", filepath.Join(dir, "my.yaml"), last); err == nil || err.Error() != want {
		t.Errorf("%d catalogues:\n got: %.500v\nwant: %s", scenarios.MaxCatalogueFiles+1, err, want)
	}
	if err := os.Remove(last); err != nil {
		t.Fatal(err)
	}
	if _, err := both.Load(filepath.Join(dir, "my.yaml")); err != nil {
		t.Errorf("%d catalogues: %.500v", scenarios.MaxCatalogueFiles, err)
	}

	// Five files of a million bytes: four come to 4,000,000 bytes, within
	// 4 MiB (4,194,304); the fifth passes it.
	const size = 1_000_000
	files = map[string]string{"my.yaml": scen}
	var recorded []scenarios.Catalogue
	for i := range 5 {
		text := card(i, 0)
		text = card(i, size-len(text))
		files[fmt.Sprintf("cards/c%d.yaml", i)] = text
		recorded = append(recorded, scenarios.Catalogue{Path: fmt.Sprintf("cards/c%d.yaml", i), Source: []byte(text)})
	}
	dir = writeFiles(t, t.TempDir(), files)
	_, err = both.Load(filepath.Join(dir, "my.yaml"))
	if want := fmt.Sprintf("%s:3:8: unit catalogue %s brings the catalogues read to more than 4194304 bytes (4 MiB), the most one scenario, or one simulate units, may read; name fewer or smaller catalogues", filepath.Join(dir, "my.yaml"), filepath.Join(dir, "cards", "c4.yaml")); err == nil || err.Error() != want {
		t.Errorf("5 MB of catalogues:\n got: %.500v\nwant: %s", err, want)
	}
	_, err = both.WithCatalogues(recorded).Parse("my.yaml", []byte(scen))
	if want := "my.yaml:1:1: unit catalogue cards/c4.yaml brings the catalogues read to more than 4194304 bytes"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("5 MB of recorded catalogues:\n got: %.500v\nwant: %s...", err, want)
	}
	if _, err := both.WithCatalogues(recorded[:4]).Parse("my.yaml", []byte(scen)); err != nil {
		t.Errorf("4 MB of recorded catalogues: %.500v", err)
	}
	// simulate units lists the cards of every file it is given within the
	// same bounds, the files of its --units and --scenario together.
	_, err = both.UserCards([]string{filepath.Join(dir, "cards", "c0.yaml")}, filepath.Join(dir, "my.yaml"))
	if want := "brings the catalogues read to more than 4194304 bytes"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("simulate units, 5 MB of catalogues: %.500v", err)
	}
}

// TestCatalogueValueLimit: a catalogue over the number of values a file
// may hold is told so as a catalogue, not as a scenario, whether the
// values are written out (counted before the YAML library reads the file)
// or repeated by aliases (counted as it is read).
func TestCatalogueValueLimit(t *testing.T) {
	written := "ruleset: fantasy\nunits: [" + strings.Repeat("{name: a}, ", scenarios.MaxNodes/4) + "]\n"
	aliased := "ruleset: fantasy\ndescription: &a [x, x, x, x, x, x, x, x, x, x]\nunits: [" + strings.Repeat("*a, ", scenarios.MaxNodes/10) + "]\n"
	for name, src := range map[string]string{"written out": written, "aliased": aliased} {
		p := filepath.Join(t.TempDir(), "cards.yaml")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := both.UserCards([]string{p}, "")
		if want := "more than 20000 values in one file"; err == nil || !strings.Contains(err.Error(), want) || !strings.HasSuffix(err.Error(), "; a unit catalogue needs far fewer") {
			t.Errorf("%s: got %.300v, want ...%s...; a unit catalogue needs far fewer", name, err, want)
		}
	}
}

// TestCatalogueProblemsCounted: 3 catalogues of 10 cards without a name
// make 30 problems, whether a scenario reads them or simulate units lists
// them: 20 lines are printed, then one that counts the other 10 (a
// scenario printed all 30, and a listing cut them at 20 without a word).
func TestCatalogueProblemsCounted(t *testing.T) {
	files := map[string]string{"s.yaml": "name: t\nruleset: fantasy\nunits: cards\ncharge: {unit: {use: Clanrats}, distance: 3}\n"}
	for i := range 3 {
		files[fmt.Sprintf("cards/c%d.yaml", i)] = "ruleset: fantasy\nunits:\n" + strings.Repeat("  - {M: 5}\n", 10)
	}
	dir := writeFiles(t, t.TempDir(), files)
	_, loadErr := both.Load(filepath.Join(dir, "s.yaml"))
	_, listErr := both.UserCards([]string{filepath.Join(dir, "cards")}, "")
	for name, err := range map[string]error{"a scenario": loadErr, "simulate units": listErr} {
		var list scenarios.ErrorList
		if !errors.As(err, &list) || len(list) != 30 {
			t.Errorf("%s: %d problems, want 30: %v", name, len(list), err)
			continue
		}
		lines := strings.Split(err.Error(), "\n")
		// The 20th is c1.yaml's 10th card, on line 12.
		if len(lines) != 21 || !strings.HasPrefix(lines[19], filepath.Join(dir, "cards", "c1.yaml")+":12:5: a unit card needs a name") || lines[20] != "... and 10 more problems" {
			t.Errorf("%s: %d lines, ending:\n%s", name, len(lines), strings.Join(lines[max(0, len(lines)-2):], "\n"))
		}
	}
}

// TestBuiltinCardProblemAtTheUse: a problem that a use makes in a built-in
// card's text (Clanrats made Chariots keep the card's Parry save, which
// mounted models may not take) is placed at the use in the scenario, which
// the user can edit, naming the card; the built-in catalogue is no file of
// the user's. The use stands at column 13 of line 4, after "  attacker: ".
func TestBuiltinCardProblemAtTheUse(t *testing.T) {
	src := "name: t\nruleset: fantasy\nbattle:\n  attacker: {use: Clanrats, troop: Chariot}\n  target: {use: Halberdiers}\n  distance: 6\n  phases: [charge, combat]\n"
	_, err := both.Parse("t.yaml", []byte(src))
	want := `t.yaml:4:13: unit "Clanrats" is Chariot: mounted models may not take a Parry save (docs/fantasy.md, Parry) (in the built-in card Clanrats as this use changes it; simulate units show Clanrats prints the card)`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	// A card of two words is quoted as the shell needs it.
	e := scenarios.Error{File: "t.yaml", Line: 4, Col: 13, Msg: "m", Card: "Rat Ogres"}
	if want := `t.yaml:4:13: m (in the built-in card Rat Ogres as this use changes it; simulate units show "Rat Ogres" prints the card)`; e.Error() != want {
		t.Errorf("got  %s\nwant %s", e.Error(), want)
	}
}

// TestUserCardProblemNamesTheUse: a problem in the text of a card of the
// user's catalogue is placed there, in the card, and names the use that
// found it, since the card may be right alone and wrong as a use changes
// it: Rats made Chariots by the use at line 5, column 13 (after
// "  attacker: ") keep the card's Parry save (line 5, column 12 of the
// catalogue), which mounted models may not take. A card wrong alone is
// placed and named alike.
func TestUserCardProblemNamesTheUse(t *testing.T) {
	dir := t.TempDir()
	units := filepath.Join(dir, "units.yaml")
	os.WriteFile(units, []byte("ruleset: fantasy\nunits:\n  - name: Rats\n    profile: M5 WS3 S3 T3 W1 I4 A1 Ld5\n    parry: 6+\n"+
		"  - name: Cart\n    troop: Chariot\n    profile: M5 WS3 S3 T3 W1 I4 A1 Ld5\n    parry: 6+\n"), 0o644)
	for attacker, want := range map[string]string{
		"{use: Rats, troop: Chariot}": units + `:5:12: unit "Rats" is Chariot: mounted models may not take a Parry save (docs/fantasy.md, Parry) (the card as used at %s:5:13)`,
		"{use: Cart}":                 units + `:9:12: unit "Cart" is Chariot: mounted models may not take a Parry save (docs/fantasy.md, Parry) (the card as used at %s:5:13)`,
	} {
		scen := filepath.Join(dir, "s.yaml")
		os.WriteFile(scen, []byte("name: t\nruleset: fantasy\nunits: units.yaml\nbattle:\n  attacker: "+attacker+"\n  target: {use: Halberdiers}\n  distance: 6\n  phases: [charge, combat]\n"), 0o644)
		_, err := both.Load(scen)
		if want := fmt.Sprintf(want, scen); err == nil || err.Error() != want {
			t.Errorf("%s:\ngot  %v\nwant %s", attacker, err, want)
		}
	}
}

// TestCatalogueCardsUseNothing: a catalogue's card is written out in full,
// its crews and champion too: a use anywhere in it is refused at that use
// (in "    crew: [{use: Rats}]", the key is at column 13). A card whose crew
// used itself twice was expanded again at each use, doubling without end.
func TestCatalogueCardsUseNothing(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, cards string }{
		{"a crew that uses another card", "  - {name: Rats, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}\n" +
			"  - name: Cart\n    troop: Chariot\n    crew: [{use: Rats}]\n"},
		{"a crew that uses its own card", "  - {name: Rats, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}\n" +
			"  - name: Cart\n    troop: Chariot\n    crew: [{use: Cart}, {use: Cart}]\n"},
	} {
		p := filepath.Join(dir, "units.yaml")
		if err := os.WriteFile(p, []byte("ruleset: fantasy\nunits:\n"+tc.cards), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := both.UserCards([]string{p}, "")
		if want := p + ":6:13: a catalogue's card is written out in full; use belongs in scenarios"; err == nil || err.Error() != want {
			t.Fatalf("%s:\n got: %v\nwant: %s", tc.name, err, want)
		}
	}
}

// TestQuoteScalarReadsBack: a name written by QuoteScalar, as units show
// prints a card and its use, reads back as the same name, in a block and
// on one line ({use: NAME}); YAML reads null, Null, NULL and ~ as nothing
// unless quoted.
func TestQuoteScalarReadsBack(t *testing.T) {
	dir := t.TempDir()
	for i, name := range []string{"null", "Null", "NULL", "~", "Knights: of #1", "a, b", "[x]", "4+", "Clanrats", "true"} {
		p := filepath.Join(dir, fmt.Sprintf("u%d.yaml", i))
		text := "ruleset: fantasy\nunits:\n  - name: " + scenarios.QuoteScalar(name) + "\n    profile: M5 WS3 BS3 S3 T3 W1 I4 A1 Ld5\n"
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		cards, err := both.UserCards([]string{p}, "")
		if err != nil || len(cards) != 1 || cards[0].Name != name {
			t.Errorf("%q written %s: %v", name, scenarios.QuoteScalar(name), err)
			continue
		}
		s := filepath.Join(dir, fmt.Sprintf("s%d.yaml", i))
		src := "name: t\nruleset: fantasy\nunits: " + filepath.Base(p) + "\ncharge: {unit: {use: " + scenarios.QuoteScalar(name) + "}, distance: 8}\n"
		if err := os.WriteFile(s, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := both.Load(s); err != nil {
			t.Errorf("{use: %s}: %v", scenarios.QuoteScalar(name), err)
		}
	}
}

// TestRefusedCardsUseIsNotReportedAgain: a scenario that uses a card its
// catalogue refused (a use inside it) gets the card's error alone, not a
// second one saying no card has that name.
func TestRefusedCardsUseIsNotReportedAgain(t *testing.T) {
	dir := t.TempDir()
	units := filepath.Join(dir, "units.yaml")
	// The crew's use is at line 4, column 56.
	if err := os.WriteFile(units, []byte("ruleset: fantasy\nunits:\n  - {name: Rats, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}\n  - {name: Rider, troop: Chariot, profile: M5, crew: [{use: Rats}]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(s, []byte("name: t\nruleset: fantasy\ncharge: {unit: {use: Rider}, distance: 8}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := both.Load(s)
	if want := units + ":4:56: a catalogue's card is written out in full; use belongs in scenarios"; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestUseOfAListOneError: use names one card; a list there is one
// problem, told once, not followed by a card named "" that nobody asked
// for.
func TestUseOfAListOneError(t *testing.T) {
	_, err := both.Parse("t.yaml", []byte("name: t\nruleset: fantasy\ncharge: {unit: {use: [Clanrats, Stormvermin]}, distance: 6}\n"))
	if want := "t.yaml:3:22: expected a unit card's name, found a list (this value takes one: it cannot be swept)"; err == nil || err.Error() != want {
		t.Errorf("got %v, want only %s", err, want)
	}
}

// TestUseOnlyWhereAUnitIs: use takes a card where a question expects a
// unit; written elsewhere (a battle's options) it is a key the place does
// not know, one error, not the card's keys refused one by one there.
func TestUseOnlyWhereAUnitIs(t *testing.T) {
	src := "name: t\nruleset: fantasy\nbattle:\n  attacker: {use: Doomwheel}\n  target: {use: Clanrats}\n  distance: 6\n  phases: [charge, combat]\n  options: {rounds: 1, use: Clanrats}\n"
	_, err := both.Parse("t.yaml", []byte(src))
	var list scenarios.ErrorList
	if !errors.As(err, &list) || len(list) != 1 || !strings.HasPrefix(list[0].Error(), `t.yaml:8:24: unknown key "use" in the battle's options; expected one of: rounds,`) {
		t.Errorf("got %v; want one error at the use", err)
	}
}

// TestManyMisspeltUsesOfABigCatalogue: a sweep of 100 uses of cards that
// do not exist, in a scenario beside a catalogue of 30,000 cards, reads in
// a few seconds at most: the names a misspelt use is set against are
// listed once, not once for each use and each card (which took about half
// a second a use at this size), and the nearest name is looked for only
// while the report still shows problems (the first 20). A name with no
// near card lists at most 20 of the catalogue's names. Reading stops when
// its context is cancelled, however many uses are left.
func TestManyMisspeltUsesOfABigCatalogue(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "cards"), 0o755); err != nil {
		t.Fatal(err)
	}
	for f := range 12 { // a file holds 20,000 values at most, 2,800 such cards
		var cards strings.Builder
		cards.WriteString("ruleset: fantasy\nunits:\n")
		for i := range 2_500 {
			fmt.Fprintf(&cards, "  - {name: Card%02d%04d, M: 4}\n", f, i)
		}
		if err := os.WriteFile(filepath.Join(dir, "cards", fmt.Sprintf("c%d.yaml", f)), []byte(cards.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var src strings.Builder
	src.WriteString("name: t\nruleset: fantasy\nunits: cards\npursuit:\n  pursuing: {name: P, M: 7}\n  fleeing:\n")
	for i := range 100 {
		fmt.Fprintf(&src, "    - {use: Card00%04dx}\n", i)
	}
	path := filepath.Join(dir, "t.yaml")
	if err := os.WriteFile(path, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := both.Load(path)
	var list scenarios.ErrorList
	if !errors.As(err, &list) || len(list) != 100 || !strings.HasSuffix(list[0].Error(), `no fantasy unit card named "Card000000x"; did you mean "Card000000"? (simulate units lists them)`) {
		t.Fatalf("got %v, want 100 errors, the first with a suggestion", err)
	}
	if !strings.HasSuffix(list[99].Error(), `no fantasy unit card named "Card000099x" (simulate units lists them)`) {
		t.Errorf("the last error %q: want no search for a suggestion past the 20 shown", list[99])
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("read in %v, want well under 10 s", d)
	}
	far := strings.Replace(src.String(), "Card000000x", "Zzzzzzzzzzzz", 1)
	if err := os.WriteFile(path, []byte(far), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = both.Load(path)
	// The 30,000 and the built-in cards, twenty of them listed.
	if !errors.As(err, &list) || !strings.Contains(list[0].Error(), `the catalogue has: Card000000, Card000001, Card000002, Card000003, Card000004, Card000005, Card000006, Card000007, Card000008, Card000009, Card000010, Card000011, Card000012, Card000013, Card000014, Card000015, Card000016, Card000017, Card000018, Card000019 and 29`) ||
		!strings.HasSuffix(list[0].Error(), ` more (simulate units lists them)`) {
		t.Errorf("a name near no card: %v", list[0])
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start = time.Now()
	if _, err := both.LoadContext(ctx, path); !errors.Is(err, scenarios.ErrStopped) {
		t.Errorf("cancelled: %v, want ErrStopped", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancelled, stopped in %v", d)
	}
}

// TestNamesWithoutInvisibleEnds: names that differ only by a space at an
// end or an invisible character print alike in every table and plot, so
// they are refused where written: "Knights " beside Knights, a name of a
// zero-width space alone (blank), one holding a zero-width space or a soft
// hyphen; and so is a name of more than 200 characters, which every
// table prints beside each of its unit's rows. A joiner inside a name
// (U+200D), which some scripts need, is kept.
func TestNamesWithoutInvisibleEnds(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{`"Knights "`, `begins or ends with a space or an invisible character`},
		{`" Knights"`, `begins or ends with a space or an invisible character`},
		{`"\u200b"`, `is empty; give it a name`},
		{`"Kni\u200bghts"`, `holds the invisible character U+200B`},
		{`"Kni\u00adghts"`, `holds the invisible character U+00AD`},
		{`"\ufeffKnights"`, `begins or ends with a space or an invisible character`},
		{strings.Repeat("K", 201), `is 201 characters long; at most 200`},
	} {
		src := "name: t\nruleset: fantasy\ncharge: {unit: {name: " + tc.name + ", M: 5}, distance: 5}\n"
		if _, err := both.Parse("t.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("name %s: %v, want %q", tc.name, err, tc.want)
		}
	}
	src := "name: t\nruleset: fantasy\ncharge: {unit: {name: \"A\u200dB\", M: 5}, distance: 5}\n"
	if _, err := both.Parse("t.yaml", []byte(src)); err != nil {
		t.Errorf("a joiner inside a name: %v", err)
	}
}

// TestUnitsKeyNamesTheScenario: a units key that names the scenario's own
// file, or a folder that holds it (units: .), is refused at the key, where
// the scenario was read as a catalogue and refused for each of its keys
// (unknown key "name" in a unit catalogue, and so on), used cards or not.
func TestUnitsKeyNamesTheScenario(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"self.yaml":        "name: t\nruleset: fantasy\nunits: self.yaml\ncharge: {unit: {use: Knights}, distance: 3}\n",
		"self-unused.yaml": "name: t\nruleset: fantasy\nunits: [./self-unused.yaml]\ncharge: {unit: {name: A, M: 5}, distance: 3}\n",
		"here/s.yaml":      "name: t\nruleset: fantasy\nunits: .\ncharge: {unit: {use: Knights}, distance: 3}\n",
		"here/c.yaml":      "ruleset: fantasy\nunits: []\n",
	})
	for _, tc := range []struct{ file, want string }{
		{"self.yaml", "self.yaml:3:8: unit catalogue " + filepath.Join(dir, "self.yaml") + " is this scenario's own file; a catalogue is a file of unit cards (ruleset: and units: [...])"},
		{"self-unused.yaml", "self-unused.yaml:3:9: unit catalogue " + filepath.Join(dir, "self-unused.yaml") + " is this scenario's own file"},
		{"here/s.yaml", "s.yaml:3:8: unit catalogue folder " + filepath.Join(dir, "here") + " holds this scenario, s.yaml, and every *.yaml file of a folder named here is read as a catalogue; keep catalogues in a folder of their own"},
	} {
		_, err := both.Load(filepath.Join(dir, tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("%s: %v\nwant one error containing %q", tc.file, err, tc.want)
		}
	}
}
