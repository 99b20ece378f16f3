package scenarios_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"hammersim/scenarios"
	"hammersim/scenarios/fantasy"
	"hammersim/scenarios/heresy"
	"hammersim/scenarios/scenariotest"
	"hammersim/sim"
)

// Profiles as flow mappings; the numbers are illustrative, not quoted from
// a datasheet.
const (
	marine   = `WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+`
	reveller = `name: Revellers, models: 10, ` + marine
	bolters  = `{name: Bolters, models: 10, ` + marine + `, weapons: [{name: bolter, S: 4, AP: 5, shots: 2}]}`
)

// both reads scenarios in the two rulesets, as the program does.
var both = scenarios.NewRegistry(fantasy.Ruleset(), heresy.Ruleset())

// TestOtherGame checks what a scenario in one ruleset gets for using
// another's rules or questions: an error that names the other game.
func TestOtherGame(t *testing.T) {
	shoot := func(target string) string {
		return "name: t\nruleset: heresy\nshooting:\n  firer: " + bolters + "\n  target: " + target + "\n"
	}
	tests := []struct{ name, src, want string }{
		{"fantasy rule", shoot("{" + reveller + ", rules: [Fearless, Swiftstride]}"),
			`t.yaml:5:118: "Swiftstride" is a Warhammer Fantasy rule (ruleset: fantasy); a heresy scenario takes Horus Heresy rules: Automated Artillery,`},
		{"fantasy rule swept", shoot("{" + reveller + ", rules: [{Random Movement: [3D6, 4D6]}]}"),
			`t.yaml:5:109: "Random Movement" is a Warhammer Fantasy rule`},
		{"heresy rule", "name: t\nruleset: fantasy\ncharge: {unit: {name: A, M: 5, rules: [Bulky (2)]}, distance: 3}\n",
			`t.yaml:3:40: "Bulky" is a Horus Heresy rule (ruleset: heresy); a fantasy scenario takes Warhammer Fantasy rules:`},
		{"unknown ruleset", "name: t\nruleset: 40k\n", `t.yaml:2:10: unknown ruleset "40k"; expected one of: fantasy, heresy`},
	}
	for _, tt := range tests {
		scenariotest.WantError(t, both, tt.name, tt.src, tt.want)
	}
	// A heresy file offers the heresy questions, not the fantasy ones.
	_, err := both.Parse("t.yaml", []byte("name: t\nruleset: heresy\ncharge: {}\n"))
	if err == nil || !strings.Contains(err.Error(), "assault, shooting") || strings.Contains(err.Error(), "pursuit") {
		t.Errorf("a fantasy question in a heresy file: %v", err)
	}
}

// TestBuiltinsOf checks that every built-in belongs to a registered
// ruleset, so that some ruleset's tests run it.
func TestBuiltinsOf(t *testing.T) {
	n := 0
	for _, rs := range both.Names() {
		n += len(scenarios.BuiltinsOf(rs))
	}
	if all := len(scenarios.BuiltinNames()); n != all || all == 0 {
		t.Errorf("the rulesets' built-ins number %d, the library %d", n, all)
	}
}

// TestUnreadQuestion: without a known ruleset a scenario's question cannot
// be read; the error about the ruleset is the one reported, and a key that
// is some ruleset's question is not called unknown as well. A key that is
// no ruleset's question still is.
func TestUnreadQuestion(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"unknown ruleset", "name: t\nruleset: fantasi\nbattle: {attacker: {name: A}}\n",
			`t.yaml:2:10: unknown ruleset "fantasi"; expected one of: fantasy, heresy`},
		{"no ruleset", "name: t\nshooting: {}\n",
			`t.yaml:1:1: the scenario is missing the key "ruleset"`},
		{"no question of any ruleset", "name: t\nruleset: fantasi\nbattel: {}\n",
			`t.yaml:2:10: unknown ruleset "fantasi"; expected one of: fantasy, heresy` + "\n" +
				`t.yaml:3:1: unknown key "battel" in the scenario (did you mean "battle"?); expected one of: name, description, ruleset, units, trials, precision, max_trials, seed, assault, battle, charge, pursuit, shooting`},
	} {
		_, err := both.Parse("t.yaml", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got: %v\nwant: %s", tc.name, err, tc.want)
		}
	}
}

// TestTrialsBounds: a scenario's trials and max_trials take what --trials
// and --max-trials take, 1 to sim.MaxTrials = 10^12, written as the flags
// are (1e6, 1_000_000, 1,000,000).
func TestTrialsBounds(t *testing.T) {
	const head = "name: t\nruleset: fantasy\ncharge: {unit: {name: A, M: 5}, distance: 3}\n"
	for _, tc := range []struct {
		key  string
		want string // "" for no error
	}{
		{"trials: 1", ""},
		{"trials: 1000000000000", ""},
		{"precision: 0.01\nmax_trials: 1000000000000", ""},
		{"trials: 0", "t.yaml:4:9: trials 0 is out of range; expected 1 to 1000000000000"},
		{"trials: 1000000000001", "t.yaml:4:9: trials 1000000000001 is out of range; expected 1 to 1000000000000"},
		// Past an int64 (9223372036854775807): refused as out of range too.
		{"trials: 99999999999999999999", `t.yaml:4:9: trials "99999999999999999999" is out of range; expected 1 to 1000000000000`},
		{"trials: many", `t.yaml:4:9: expected trials as a whole number from 1 to 1000000000000, written 1000000, 1_000_000, 1,000,000 or 1e6; found "many"`},
		{"trials: 1.5", `t.yaml:4:9: expected trials as a whole number from 1 to 1000000000000, written 1000000, 1_000_000, 1,000,000 or 1e6; found "1.5"`},
		{"trials: 1e6", ""},
		{"trials: 1_000_000", ""},
		{"trials: 1,000,000", ""},
		{"trials: 1e13", `t.yaml:4:9: trials 10000000000000 is out of range; expected 1 to 1000000000000`},
		{"precision: 0.01\nmax_trials: 2.5e5", ""},
		{"precision: 0.01\nmax_trials: 1000000000001", "t.yaml:5:13: max_trials 1000000000001 is out of range; expected 1 to 1000000000000"},
	} {
		s, err := both.Parse("t.yaml", []byte(head+tc.key+"\n"))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%q:\n got: %s\nwant: %s", tc.key, got, tc.want)
		}
		if tc.key == "trials: 1000000000000" && (s == nil || s.Trials != sim.MaxTrials) {
			t.Errorf("trials 10^12 read as %v", s)
		}
		if strings.HasSuffix(tc.key, "1e6") || strings.HasSuffix(tc.key, "1_000_000") || strings.HasSuffix(tc.key, "1,000,000") {
			if s == nil || s.Trials != 1_000_000 {
				t.Errorf("%q read as %v, want 1,000,000 trials", tc.key, s)
			}
		}
		if strings.HasSuffix(tc.key, "2.5e5") && (s == nil || s.MaxTrials != 250_000) {
			t.Errorf("%q read as %v, want 250,000 trials at most", tc.key, s)
		}
	}
}

// TestRangeErrorsOnce: the values of a range share its place in the file,
// so the out-of-range ones make one error that counts them: -3..5 holds
// -3, -2, -1 and 0 below distance's least value, 1.
func TestRangeErrorsOnce(t *testing.T) {
	_, err := both.Parse("d.yaml", []byte("name: d\nruleset: fantasy\ncharge:\n  unit: {use: Clanrats}\n  distance: -3..5\n"))
	var list scenarios.ErrorList
	want := "d.yaml:5:13: distance -3 is out of range; expected 1 to 100 (as are 3 more values of -3..5)"
	if !errors.As(err, &list) || len(list) != 1 || list[0].Error() != want {
		t.Errorf("got %v, want the one error %s", err, want)
	}
}

// TestOneQuestion: a second question is reported at its own key, naming
// the key that asked first and that key's line, whatever the questions'
// values hold (the lines and columns are those of the sources below).
func TestOneQuestion(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"block mappings",
			"name: two\nruleset: fantasy\ncharge:\n  unit: {name: A, M: 5}\n  distance: 3\npursuit:\n  fleeing: {name: B, M: 5}\n  pursuing: {name: C, M: 5}\n",
			`t.yaml:6:1: "pursuit": a scenario asks one question; "charge" already asks one at line 3`},
		{"flow mappings, heresy",
			"name: two\nruleset: heresy\nassault: {}\nshooting: {firer: " + bolters + ", target: {" + reveller + "}}\n",
			`t.yaml:4:1: "shooting": a scenario asks one question; "assault" already asks one at line 3`},
	} {
		_, err := both.Parse("t.yaml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got: %v\nwant: %s", tc.name, err, tc.want)
		}
	}
}

// TestActingUnits: every question of both rulesets names its acting unit
// (compare's default --by) among the keys that hold its units.
func TestActingUnits(t *testing.T) {
	for _, rs := range []*scenarios.Ruleset{fantasy.Ruleset(), heresy.Ruleset()} {
		for q := range rs.Questions {
			acting, ok := rs.Acting[q]
			if !ok || !slices.Contains(rs.UnitPlaces[q], acting) {
				t.Errorf("%s %s: acting unit %q, not one of its units %v", rs.Name, q, acting, rs.UnitPlaces[q])
			}
		}
	}
	s, err := both.Parse("t.yaml", []byte("name: t\nruleset: heresy\nshooting:\n  firer: "+bolters+"\n  target: {"+reveller+"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Acting != "firer" {
		t.Errorf("a shooting's acting unit: %q, want firer", s.Acting)
	}
}

// TestNearName: a guess at a misspelt name is offered within an edit for
// every three letters, and never for a name of fewer than four.
func TestNearName(t *testing.T) {
	names := []string{"hits", "wounds", "models", "charge", "target", "A", "M", "Cavalry"}
	for _, tc := range []struct{ name, want string }{
		{"modls", "models"},    // 1 edit in 5 letters
		{"chrage", "charge"},   // 2 in 6
		{"targt", "target"},    // 1 in 5
		{"Cavalri", "Cavalry"}, // 1 in 7
		{"kills", ""},          // 3 in 5 from hits: not a likely slip
		{"B", ""},              // 1 from A, too short to guess at
		{"hit", ""},            // under four letters
	} {
		if got := scenarios.NearName(tc.name, names); got != tc.want {
			t.Errorf("NearName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
