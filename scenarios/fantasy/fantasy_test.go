package fantasy

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hammersim/mechanics/dice"
	rules "hammersim/mechanics/fantasy"
	"hammersim/scenarios"
	"hammersim/scenarios/scenariotest"
	"hammersim/sim"
)

// registry reads the scenarios of these tests: the fantasy ruleset alone.
var registry = scenarios.NewRegistry(Ruleset())

func TestBuiltinsLoad(t *testing.T) {
	names := scenarios.BuiltinsOf("fantasy")
	for _, want := range []string{"swiftstride-charge", "flee-pursuit", "random-movement"} {
		if _, ok := scenarios.Builtin(want); !ok {
			t.Errorf("built-in %s is missing (have %v)", want, names)
		}
	}
	for _, name := range names {
		s, err := registry.Load(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if s.Name != name {
			t.Errorf("built-in file %s calls itself %q", name, s.Name)
		}
		if s.Description == "" {
			t.Errorf("%s has no description", name)
		}
	}
	if _, err := registry.Load("no-such-scenario"); err == nil {
		t.Error("loading an unknown name succeeded")
	}
}

// TestBuiltinsMatchExact runs every fantasy built-in and checks each
// estimate that has an exact value within 5 standard errors of it; every
// built-in has some. 50,000 trials per model keep it fast.
func TestBuiltinsMatchExact(t *testing.T) {
	for _, name := range scenarios.BuiltinsOf("fantasy") {
		s, err := registry.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		checked := scenariotest.MatchExact(t, s, 50_000, 11)
		if checked == 0 {
			t.Errorf("%s: no estimate has an exact value", name)
		}
	}
}

func TestChargeSweep(t *testing.T) {
	s, err := registry.Load("swiftstride-charge")
	if err != nil {
		t.Fatal(err)
	}
	// 7 values of M x with and without Swiftstride; distance is read from
	// each model's distribution, so it adds no models.
	if len(s.Models) != 14 {
		t.Errorf("%d models, want 14", len(s.Models))
	}
	want := []string{"M", "swiftstride", "distance"}
	if len(s.Axes) != len(want) {
		t.Fatalf("axes %v, want %v", s.Axes, want)
	}
	for i, a := range s.Axes {
		if a.Name != want[i] {
			t.Errorf("axis %d is %s, want %s", i, a.Name, want[i])
		}
	}
	if len(s.Axes[2].Values) != 30 || s.Axes[2].Values[29] != 30 {
		t.Errorf("distance values %v, want 1..30", s.Axes[2].Values)
	}
	if s.Grid == nil || s.Grid.Rows != "distance" || s.Grid.Cols != "M" {
		t.Errorf("grid %+v, want distance by M", s.Grid)
	}
}

func TestPointAndParams(t *testing.T) {
	src := `
name: t
ruleset: fantasy
charge:
  unit:
    name: Knights
    M: [7, 8]
    rules: [Swiftstride, {Fly: [9, 10]}]
  distance: 12
  flying: [false, true]
`
	s, err := registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, a := range s.Axes {
		names = append(names, a.Name)
	}
	if got := strings.Join(names, ","); got != "M,fly,flying" {
		t.Fatalf("axes %s, want M,fly,flying", got)
	}
	run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	res := s.Results(run)
	// 2 x 2 x 2 charge_success points, then one charge_reach per model.
	if len(res) != 16 {
		t.Fatalf("%d results, want 16", len(res))
	}
	// M 7, Fly 9, flying: a flying charge uses 9 as M with Swiftstride
	// (9 + 3D6 discard lowest), so 12" needs 3+ on 3D6kh2: all but three 1s.
	e := res[1]
	if e.Param("M") != 7 || e.Param("fly") != 9 || e.Param("flying") != true || math.Abs(e.Exact-(1-1.0/216)) > 1e-12 {
		t.Errorf("point 1 = %v exact %v", e.Params, e.Exact)
	}
	// M 7 on the ground with Swiftstride: 7 + 3D6kh2 >= 12 needs 5+: 1 - P(3D6kh2 <= 4).
	// P(3D6kh2 <= 4) = 11/216 by enumeration: 1 outcome makes 2 (1,1,1), 3 make
	// 3 (orders of 1,1,2) and 7 make 4 (orders of 1,1,3 and 1,2,2, and 2,2,2).
	e = res[0]
	if e.Param("flying") != false || math.Abs(e.Exact-(1-11.0/216)) > 1e-12 {
		t.Errorf("point 0 = %v exact %v, want 1 - 11/216", e.Params, e.Exact)
	}
}

func TestAxisNamesCollide(t *testing.T) {
	src := `
name: t
ruleset: fantasy
pursuit:
  fleeing: {name: A, M: [4, 5]}
  pursuing: {name: B, M: [6, 7]}
`
	s, err := registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if s.Axes[0].Name != "fleeing.M" || s.Axes[1].Name != "pursuing.M" {
		t.Errorf("colliding axes named %s and %s", s.Axes[0].Name, s.Axes[1].Name)
	}
}

func TestErrors(t *testing.T) {
	head := "name: t\nruleset: fantasy\n"
	tests := []struct {
		name string
		src  string
		want string // file:line:col: message (a prefix of the message is enough)
	}{
		{"yaml syntax", "name: [t\n", "t.yaml:1:"},
		{"empty file", "", "t.yaml:1:1: the file is empty"},
		{"not a mapping", "- a\n", "t.yaml:1:1: expected the scenario as a mapping of keys, found a list"},
		{"missing name", "ruleset: fantasy\ncharge: {unit: {name: A, M: 5}, distance: 3}\n", `t.yaml:1:1: the scenario is missing the key "name"`},
		{"bad name", "name: My Charge\nruleset: fantasy\ncharge: {unit: {name: A, M: 5}, distance: 3}\n", `t.yaml:1:7: name "My Charge": expected lower-case`},
		{"unknown ruleset", "name: t\nruleset: 40k\n", `t.yaml:2:10: unknown ruleset "40k"; expected one of: fantasy`},
		{"unknown top key", head + "chrage: {}\n", `t.yaml:3:1: unknown key "chrage" in the scenario (did you mean "charge"?); expected one of: name,`},
		{"no question", head, "t.yaml:1:1: the scenario asks no question; add one of: battle, charge, pursuit"},
		{"two questions", head + "charge: {unit: {name: A, M: 5}, distance: 3}\npursuit: {fleeing: {name: A, M: 5}, pursuing: {name: B, M: 5}}\n", `t.yaml:4:1: "pursuit": a scenario asks one question; "charge" already asks one at line 3`},
		{"case hint", head + "charge: {unit: {name: A, m: 5}, distance: 3}\n", `t.yaml:3:26: unknown key "m" in a unit; did you mean "M"?`},
		// The unit that repeats a name is the one named, not the attacker.
		{"units named twice", head + "battle:\n  attacker: {name: A, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7}\n  target: {name: Tgt, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7}\n  distance: 5\n  others:\n    - {name: Tgt, side: friend, distance: 4, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7}\n  phases: [charge, combat]\n",
			`t.yaml:8:7: two units of the battle are named "Tgt"`},
		{"too many shots", head + "charge: {unit: {name: A, M: 5, BS: 3, missile: {S: 3, range: 24, shots: 101}}, distance: 3}\n", "t.yaml:3:73: shots 101: expected 0 to 100 shots"},
		{"too many attacks", head + "charge: {unit: {name: A, M: 5, A: 2D100}, distance: 3}\n", "t.yaml:3:35: A 2D100: expected 0 to 100 attacks"},
		// A number below 0 is out of range, not dice that start with a minus.
		{"attacks below 0", head + "charge: {unit: {name: A, M: 5, A: -1}, distance: 3}\n", "t.yaml:3:35: A -1: expected 0 to 100 attacks"},
		{"M out of range", head + "charge: {unit: {name: A, M: 0}, distance: 3}\n", "t.yaml:3:29: M 0 is out of range; expected 1 to 20"},
		{"M not a number", head + "charge: {unit: {name: A, M: fast}, distance: 3}\n", `t.yaml:3:29: expected M as a whole number from 1 to 20, found "fast"`},
		{"missing M", head + "charge: {unit: {name: A}, distance: 3}\n", `t.yaml:3:16: unit "A" needs M (its Movement), unless it has Random Movement`},
		{"missing distance", head + "charge: {unit: {name: A, M: 5}}\n", `t.yaml:3:9: the charge is missing the key "distance"`},
		{"unknown rule", head + "charge: {unit: {name: A, M: 5, rules: [Swiftstrde]}, distance: 3}\n", `t.yaml:3:40: unknown rule "Swiftstrde"; did you mean "Swiftstride"?`},
		// A Multiple Wounds that can roll 0 would turn a wound into none.
		{"multiple wounds of none", head + "battle: {attacker: {name: A, M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, rules: [Multiple Wounds (D3-1)]}, target: {name: B, M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7}, distance: 0, phases: [combat]}\n",
			`t.yaml:3:99: Multiple Wounds (D3-1) can roll 0; it must roll at least 1`},
		{"bad rule value", head + "charge:\n  unit:\n    name: A\n    rules: [Random Movement (3D)]\n  distance: 3\n", `t.yaml:6:32: Random Movement: expected the number of sides after "D"`},
		{"rule twice", head + "charge: {unit: {name: A, M: 5, rules: [Swiftstride, Swiftstride]}, distance: 3}\n", "t.yaml:3:53: Swiftstride is listed twice"},
		{"bad toggle", head + "charge: {unit: {name: A, M: 5, rules: [{Swiftstride: maybe}]}, distance: 3}\n", `t.yaml:3:54: expected Swiftstride as true or false, found "maybe"`},
		{"empty sweep", head + "charge: {unit: {name: A, M: []}, distance: 3}\n", "t.yaml:3:29: empty list for M"},
		{"backwards range", head + "charge: {unit: {name: A, M: 5}, distance: 9..3}\n", `t.yaml:3:43: range "9..3" for distance`},
		{"repeated value", head + "charge: {unit: {name: A, M: [5, 5]}, distance: 3}\n", "t.yaml:3:33: M lists 5 twice"},
		// After a value that cannot be read, the repeat is still the one
		// named: 99 at column 30, its repeated 6 at 40.
		{"repeated value after a bad one", head + "charge: {unit: {name: A, M: [99, 5, 6, 6]}, distance: 3}\n", "t.yaml:3:30: M 99 is out of range; expected 1 to 20\nt.yaml:3:40: M lists 6 twice"},
		{"nested sweep", head + "pursuit:\n  fleeing: [{name: A, M: [4, 5]}, {name: B, M: 6}]\n  pursuing: {name: C, M: 5}\n", "t.yaml:4:26: M sweeps inside a swept list"},
		{"same unit names", head + "pursuit:\n  fleeing: [{name: A, M: 4}, {name: A, M: 6}]\n  pursuing: {name: C, M: 5}\n", `t.yaml:4:30: two units named "A" in one list`},
		{"fly and tunneller", head + "charge: {unit: {name: A, M: 5, troop: Monster, rules: [Fly (9), Tunneller (9)]}, distance: 3}\n", "t.yaml:3:65: A has both Fly and Tunneller"},
		{"duplicate key", head + "charge: {unit: {name: A, M: 5, M: 6}, distance: 3}\n", "t.yaml:3:"},
		{"tag", head + "charge: !!map {unit: {name: A, M: 5}, distance: 3}\n", "t.yaml:3:"},
		{"seed", head + "seed: -1\ncharge: {unit: {name: A, M: 5}, distance: 3}\n", "t.yaml:3:7: expected seed as a whole number from 0 to 18446744073709551615, found \"-1\""},
		{"seed not a number", head + "seed: .nan\ncharge: {unit: {name: A, M: 5}, distance: 3}\n", "t.yaml:3:7: expected seed as a whole number from 0 to 18446744073709551615, found \".nan\""},
		{"trials", head + "trials: 0\ncharge: {unit: {name: A, M: 5}, distance: 3}\n", "t.yaml:3:9: trials 0 is out of range"},
		{"too many points", head + "charge: {unit: {name: A, M: 1..20, rules: [{Random Movement: [D6, 2D6, 3D6, 4D6, 5D6, 6D6, 7D6, 8D6, 9D6, 10D6]}, {Fly: 1..30}]}, distance: 1..100}\n", "t.yaml:1:1: the sweeps make 600,000 points (M 20 × random_movement 10 × fly 30 × distance 100); at most 100,000"},
		{"two documents", head + "charge: {unit: {name: A, M: 5}, distance: 3}\n---\nname: u\n", "t.yaml:5:1: a second YAML document"},
		{"alias", head + "charge: {unit: *u, distance: 3}\n", "t.yaml:3:"},
	}
	for _, tt := range tests {
		wantError(t, tt.name, tt.src, tt.want)
	}
}

// TestQueryOnlyDice: dice that only simulate dice reads, in a rule's
// argument or as Random Attacks, are refused by name, with the file, line
// and column where the part that only it reads starts.
func TestQueryOnlyDice(t *testing.T) {
	const tail = ", which only simulate dice reads; a profile's or a rule's dice are added up, such as D6, 2D6, D3+1 or 3D6kh2"
	tests := []struct {
		arg  string
		col  int // of the part, in line 3, whose argument starts at column 51
		want string
	}{
		{"2D6r1", 54, `"r1" re-rolls dice` + tail},
		{"D6 reroll 1s", 54, `"reroll 1s" re-rolls dice` + tail},
		{"2D6 explode", 55, `"explode" makes exploding dice` + tail},
		{"10D6 count 4+", 56, `"count 4+" counts successes` + tail},
		{"D6!", 53, `"!" makes exploding dice` + tail},
		{"2D6 >= 5", 55, `"2D6 >= 5" is a condition` + tail},
		{"D6r<3", 53, `"r<3" re-rolls dice` + tail},
		{"artillery", 51, `"artillery" is the Artillery dice` + tail},
		{"scatter", 51, `"scatter" is the Scatter dice` + tail},
		// A typo that simulate dice does not read either keeps its message.
		{"2D6r7", 54, `unknown word "r"; expected kh, kl, discard, + or -`},
	}
	for _, tt := range tests {
		src := "name: t\nruleset: fantasy\ncharge: {unit: {name: A, rules: [Random Movement (" + tt.arg + ")]}, distance: 3}\n"
		wantError(t, tt.arg, src, fmt.Sprintf("t.yaml:3:%d: Random Movement: %s", tt.col, tt.want))
	}
	// Random Attacks: the value "2D6r1" starts at column 58 of line 7 (its
	// quote at 57), so its "r1" at 61.
	battle := "name: t\nruleset: fantasy\nbattle:\n  target: {name: Rats, models: 10, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5}\n  distance: 4\n  phases: [charge, combat]\n"
	wantError(t, "A: 2D6r1", battle+`  attacker: {name: A, M: 5, WS: 3, S: 3, T: 3, I: 3, A: "2D6r1", Ld: 7}`+"\n",
		`t.yaml:7:61: A: "r1" re-rolls dice`+tail)
}

func wantError(t *testing.T, name, src, want string) {
	t.Helper()
	scenariotest.WantError(t, registry, name, src, want)
}

// TestManyErrors checks that one load reports every independent problem.
func TestManyErrors(t *testing.T) {
	src := "name: t\nruleset: fantasy\ncharge:\n  unit: {name: A, M: 0, rules: [Teleport]}\n  distance: 500\n"
	_, err := registry.Parse("t.yaml", []byte(src))
	var list scenarios.ErrorList
	if !errors.As(err, &list) || len(list) != 3 {
		t.Fatalf("got %v, want 3 errors", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range scenarios.BuiltinsOf("fantasy") {
		src, _ := scenarios.Builtin(name)
		f.Add(src)
	}
	f.Add([]byte("name: t\nruleset: fantasy\ncharge: {unit: {name: A, M: [1, 2]}, distance: 1..3}\n"))
	f.Add([]byte("a: &x [1, *x]\n"))
	f.Add([]byte("name: t\nruleset: fantasy\npursuit: {fleeing: [{name: A, M: 4}], pursuing: {name: B, M: 5, rules: [{Swiftstride: [true, false]}]}}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := registry.Parse("fuzz.yaml", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml:") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		if len(s.Models) == 0 || len(s.Models) > scenarios.MaxPoints {
			t.Fatalf("%d models", len(s.Models))
		}
		// A scenario that loads must also run: a few trials of each model.
		r := dice.New(1, 0)
		for i, m := range s.Models {
			if i == 20 {
				break
			}
			m.NewTrial().Run(r, 5, sim.NewTally(m.Slots()))
		}
	})
}

// TestTrialsAllocateNothing checks the hot path of every fantasy built-in.
func TestTrialsAllocateNothing(t *testing.T) {
	for _, name := range scenarios.BuiltinsOf("fantasy") {
		s, err := registry.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		scenariotest.AllocateNothing(t, s)
	}
}

// TestBattleRoundsOption: rounds takes a number, all, or a sweep of both,
// and sets the battle's rounds (0 for all); wards and killing_blow, here
// with a ward and a Parry save to join and Killing Blow against a type it
// cannot slay, reach the battle too.
func TestBattleRoundsOption(t *testing.T) {
	ogres := "{name: Ogres, troop: Monstrous Infantry, models: 6, M: 6, WS: 3, S: 4, T: 4, W: 3, I: 2, A: 3, Ld: 7, ward: 5+, parry: 6+}"
	src := "name: t\nruleset: fantasy\nbattle:\n  target: " + ogres + "\n  attacker: {name: B, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5, rules: [Killing Blow]}" +
		"\n  distance: 0\n  phases: [combat]\n  options: {rounds: [1, 3, all], wards: best, killing_blow: none}\n"
	s, err := registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, m := range s.Models {
		b := m.(*battleModel).b
		got = append(got, b.Options.Rounds)
		if b.Options.Wards != rules.WardsBest || b.Options.KillingBlow != rules.KillingBlowNone {
			t.Errorf("options %+v", b.Options)
		}
	}
	if !slices.Equal(got, []int{1, 3, 0}) {
		t.Errorf("rounds %v, want [1 3 0] (all is 0)", got)
	}
}

// TestBattleSupportAndSkirmishOptions: monstrous_support sweeps 1 to 3 and
// defaults to 3, skirmishers_ranks defaults to false, and both reach the
// battle's options; a monstrous_support of 4 is refused at its value. The
// attacker is Monstrous Infantry and the target flies, ten models, so
// Skirmishers: each option has a unit it changes.
func TestBattleSupportAndSkirmishOptions(t *testing.T) {
	rat := "{name: Rats, models: 10, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5, rules: [Fly (10)]}"
	head := "name: t\nruleset: fantasy\nbattle:\n  target: " + rat + "\n  attacker: {name: B, troop: Monstrous Infantry, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5}" +
		"\n  distance: 0\n  phases: [combat]\n"
	for _, tt := range []struct {
		options   string
		monstrous []int
		ranks     bool
	}{
		{"", []int{3}, false},
		{"  options: {monstrous_support: [1, 2, 3], skirmishers_ranks: true}\n", []int{1, 2, 3}, true},
	} {
		s, err := registry.Parse("t.yaml", []byte(head+tt.options))
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, m := range s.Models {
			o := m.(*battleModel).b.Options
			got = append(got, o.MonstrousSupport)
			if o.SkirmishersRanks != tt.ranks {
				t.Errorf("%q: skirmishers_ranks %v, want %v", tt.options, o.SkirmishersRanks, tt.ranks)
			}
		}
		if !slices.Equal(got, tt.monstrous) {
			t.Errorf("%q: monstrous_support %v, want %v", tt.options, got, tt.monstrous)
		}
	}
	_, err := registry.Parse("t.yaml", []byte(head+"  options: {monstrous_support: 4}\n"))
	if err == nil || !strings.Contains(err.Error(), "t.yaml:8:32: monstrous_support 4 is out of range") {
		t.Errorf("monstrous_support 4: %v", err)
	}
}

func TestBattleErrors(t *testing.T) {
	rat := "{name: Rats, models: 10, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5}"
	head := "name: t\nruleset: fantasy\nbattle:\n  target: " + rat + "\n  distance: 4\n  phases: [charge, combat]\n"
	tests := []struct {
		name, attacker, want string
	}{
		{"stomp on infantry", "{name: A, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, rules: [Stomp]}",
			"t.yaml:7:75: Stomp on A (Infantry): it belongs to Monster, Monstrous Infantry, Monstrous Cavalry, Monstrous Beast"},
		{"no models", "{name: A, models: 0, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7}", "t.yaml:7:31: models 0 is out of range; expected 1 to 1000"},
		{"toughness 0", "{name: A, M: 5, WS: 3, S: 3, T: 0, I: 3, A: 1, Ld: 7}", "t.yaml:7:45: T 0 is out of range; expected 1 to 10"},
		{"WS 11", "{name: A, M: 5, WS: 11, S: 3, T: 3, I: 3, A: 1, Ld: 7}", "t.yaml:7:33: WS 11 is out of range; expected 0 to 10"},
		{"T dash", "{name: A, M: 5, WS: 3, S: 3, T: -, I: 3, A: 1, Ld: 7}", `t.yaml:7:45: T cannot be "-"; expected 1 to 10`},
		{"missing T", "{name: A, M: 5, WS: 3, S: 3, I: 3, A: 1, Ld: 7}", `t.yaml:7:13: unit "A" needs T for a battle`},
		{"bad save", "{name: A, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, armour: 8+}", `t.yaml:7:75: expected armour as a save from 1+ to 6+, or 7+ or none for no save; found "8+"`},
		{"bad troop", "{name: A, troop: Dragon, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7}", `t.yaml:7:30: unknown troop type "Dragon"`},
		{"champion alone", "{name: A, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, champion: {name: C, A: 2}}", "t.yaml:7:77: unit \"A\" has one model; a champion needs a unit to lead"},
		{"crew and A", "{name: A, M: 5, S: 3, T: 3, A: 1, Ld: 7, crew: [{name: C, WS: 3, S: 2, I: 3, A: 1}]}", `t.yaml:7:44: unit "A" has a crew: give A to each crew profile instead`},
		{"bad attacks", "{name: A, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 2D, Ld: 7}", "t.yaml:7:59: A: expected the number of sides"},
		{"parry on cavalry", "{name: A, troop: Cavalry, M: 8, S: 3, T: 3, Ld: 7, crew: [{name: R, WS: 3, S: 3, I: 3, A: 1}, {name: H, WS: 3, S: 3, I: 3, A: 1}], parry: 6+}",
			`t.yaml:7:151: unit "A" is Cavalry with a rider and a mount: mounted models may not take a Parry save`},
		{"parry on a chariot", "{name: A, troop: Chariot, M: 8, S: 5, T: 5, W: 4, Ld: 7, crew: [{name: C, WS: 3, S: 3, I: 3, A: 1}], parry: 6+}",
			`t.yaml:7:121: unit "A" is Chariot: mounted models may not take a Parry save`},
		{"flank and rear", "{name: A, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, flank: true, rear: true}",
			`t.yaml:7:86: rear: true on "A", which has flank: true too: a unit fights one side of its enemy, its flank or its rear`},
		{"shallow base", "{name: A, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, base_depth: 5}",
			"t.yaml:7:79: base_depth 5 is out of range; expected 10 to 600"},
	}
	for _, tt := range tests {
		wantError(t, tt.name, head+"  attacker: "+tt.attacker+"\n", tt.want)
	}
	// Whichever side of the target the attacker is in, its front meets the
	// target, which cannot be in the attacker's flank or rear as well.
	wantError(t, "target in the charger's flank",
		"name: t\nruleset: fantasy\nbattle:\n  attacker: {name: A, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7}\n"+
			"  target: {name: B, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, flank: true}\n  distance: 4\n  phases: [charge, combat]\n",
		`t.yaml:5:72: flank: true on the target "B", which the attacker may charge from 4" (a charge phase, or an Out of Control move towards it): a charger meets its target with its front, so the target cannot be in its flank or rear`)
	// A Doomwheel's Out of Control move towards the others charges an
	// enemy it runs into: the same holds without a charge phase.
	wantError(t, "target in an Out of Control move's way",
		"name: t\nruleset: fantasy\nbattle:\n  attacker: {use: Doomwheel}\n"+
			"  target: {name: B, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, rear: true}\n  distance: 6\n  phases: [shooting, combat]\n  options: {out_of_control: towards}\n",
		`t.yaml:5:71: rear: true on the target "B", which the attacker may charge from 6" (a charge phase, or an Out of Control move towards it)`)
	wantError(t, "each in the other's flank",
		"name: t\nruleset: fantasy\nbattle:\n  attacker: {name: A, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, rear: true}\n"+
			"  target: {name: B, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, flank: true}\n  distance: 4\n  phases: [charge, combat]\n",
		`t.yaml:5:72: flank: true on the target "B", whose attacker "A" is in its flank or rear already: the attacker's front then meets the target, which fights it in its front`)
	// A side written as a list is not a word: said once, not a second time
	// as neither friend nor enemy.
	side := "name: t\nruleset: fantasy\nbattle:\n  target: " + rat + "\n  distance: 4\n  attacker: " + rat +
		"\n  others: [{name: B, side: [friend, enemy], distance: 3, M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7}]\n  phases: [combat]\n"
	if _, err := registry.Parse("t.yaml", []byte(side)); err == nil || err.Error() != "t.yaml:7:28: expected side (friend or enemy), found a list (this value takes one: it cannot be swept)" {
		t.Errorf("side as a list: %v", err)
	}
	for _, tt := range []struct{ name, extra, want string }{
		{"unknown phase", "  attacker: " + rat + "\n  phases: [charge, melee]\n", `unknown phase "melee"`},
		{"bad option", "  attacker: " + rat + "\n  options: {caught: eaten}\n", `unknown caught "eaten"; expected one of: wounds, destroyed`},
		{"bad side", "  attacker: " + rat + "\n  others: [{name: B, side: neutral, distance: 3, M: 4}]\n", "expected side as friend or enemy"},
		{"rounds word", "  attacker: " + rat + "\n  options: {rounds: many}\n", `expected rounds as a whole number from 1 to 50, or all; found "many"`},
		{"rounds 0", "  attacker: " + rat + "\n  options: {rounds: 0}\n", "rounds 0 is out of range; expected 1 to 50, or all"},
		{"rounds past the cap", "  attacker: " + rat + "\n  options: {rounds: 51}\n", "rounds 51 is out of range; expected 1 to 50, or all"},
		{"rounds past an int", "  attacker: " + rat + "\n  options: {rounds: 99999999999999999999}\n", `rounds "99999999999999999999" is out of range; expected 1 to 50, or all`},
		{"bad killing blow", "  attacker: " + rat + "\n  options: {killing_blow: twice}\n", "expected one of: one_wound, multiple_wounds, none"},
		{"bad loss of control", "  attacker: " + rat + "\n  options: {loss_of_control: never}\n", `unknown loss_of_control "never"; expected one of: when_wounded, end_of_phase`},
		{"bad pursuit path", "  attacker: " + rat + "\n  options: {pursuit_path: sideways}\n",
			`t.yaml:7:27: unknown pursuit_path "sideways"; expected one of: clear, line`},
		{"bad out of control", "  attacker: " + rat + "\n  options: {out_of_control: [in_place, off]}\n",
			`t.yaml:7:40: unknown out_of_control "off"; expected one of: in_place, towards, away`},
		// A long value is quoted short, and what the option takes is still
		// said whole.
		{"long option value", "  attacker: " + rat + "\n  options: {pursuit_path: " + strings.Repeat("x", 420) + "}\n",
			`... (420 bytes); expected one of: clear, line`},
		// The value starts after "  options: {charge_path: ", 25 bytes.
		{"bad charge path", "  attacker: " + rat + "\n  options: {charge_path: around}\n",
			`t.yaml:7:26: unknown charge_path "around"; expected one of: clear, line`},
		// The value starts after "  options: {pursuer_out_of_control: ", 36 bytes.
		{"bad pursuer out of control", "  attacker: " + rat + "\n  options: {pursuer_out_of_control: always}\n",
			`t.yaml:7:37: unknown pursuer_out_of_control "always"; expected one of: stays, moves`},
		{"flank in others", "  attacker: " + rat + "\n  others: [{name: B, side: enemy, distance: 3, M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, flank: true}]\n",
			`t.yaml:7:99: flank: true on "B" in others: only the attacker and the target take flank, rear and higher_ground`},
		{"higher ground in others", "  attacker: " + rat + "\n  others: [{name: B, side: friend, distance: 3, M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, higher_ground: [false, true]}]\n",
			`t.yaml:7:108: higher_ground: true on "B" in others`},
	} {
		src := "name: t\nruleset: fantasy\nbattle:\n  target: " + rat + "\n  distance: 4\n" + tt.extra
		if !strings.Contains(tt.extra, "phases") {
			src += "  phases: [combat]\n"
		}
		_, err := registry.Parse("t.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to mention %q", tt.name, err, tt.want)
		}
	}
}

// TestStaticCombatAtLeast: in a combat where no blow can be struck, the
// rounds fought and the wounds of a caught loser have exact distributions
// (rules.ExactBattle), and every simulated "at least N" share lies within
// 5 SEs of them (scenariotest.MatchAtLeast).
func TestStaticCombatAtLeast(t *testing.T) {
	body := "models: 10, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 0, Ld: 6"
	src := "name: t\nruleset: fantasy\nbattle:\n  attacker: {name: Banner, standard: true, " + body + "}" +
		"\n  target: {name: Rats, " + body + "}\n  distance: 0\n  phases: [combat]\n  options: {rounds: [3, all]}\n"
	s, err := registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: 50_000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	dists := map[string]int{}
	for _, e := range s.Results(run) {
		if e.ExactPMF != nil {
			dists[e.Metric]++
			scenariotest.MatchAtLeast(t, s.Name, e)
		}
	}
	t.Logf("exact distributions: %v", dists)
	for _, m := range []string{"rounds", "combat_result", "wounds"} {
		if dists[m] == 0 {
			t.Errorf("%s has no exact distribution (have %v)", m, dists)
		}
	}
}

// TestScenarioCombatBudget: the closed forms of a scenario's combats
// share one budget (scenarioCombatWork, rules.MaxScenarioCombatWork in
// use), spent in the scenario's order. Lowered here to four and a half
// times what one point's combat costs (rules.ExactBattleWithin counts its
// steps; the points differ only in the knights' Leadership, so they cost
// about the same), it covers four of eight points: the fifth is cut short
// and spends the rest, and the points after it have no budget left. Each
// point without a closed form keeps its estimates (and the charge's
// closed form, outside the budget).
func TestScenarioCombatBudget(t *testing.T) {
	src := "name: t\nruleset: fantasy\nbattle:\n" +
		"  attacker: {name: Knights, troop: Cavalry, models: 5, width: 5, M: 7, WS: 4, S: 4, T: 3, I: 3, A: 1, Ld: 3..10, armour: 2+}\n" +
		"  target: {name: Spearmen, models: 15, width: 5, M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, armour: 5+}\n" +
		"  distance: 6\n  phases: [charge, combat]\n  options: {rounds: all}\n"
	s, err := registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, cost := rules.ExactBattleWithin(s.Models[0].(*battleModel).b, rules.MaxCombatWork)
	defer func(w float64) { scenarioCombatWork = w }(scenarioCombatWork)
	scenarioCombatWork = 4.5 * cost
	s, err = registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: 100, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var exact, charge []int
	for _, e := range s.Results(run) {
		switch {
		case e.Metric == "combat_result" && e.HasExact:
			exact = append(exact, e.Param("Ld").(int))
		case e.Metric == "charge_success" && e.HasExact:
			charge = append(charge, e.Param("Ld").(int))
		}
	}
	left := scenarioCombatWork
	var want []int
	for _, m := range s.Models {
		b := m.(*battleModel).b
		_, w := rules.ExactBattleWithin(b, rules.MaxCombatWork)
		if w > left {
			break
		}
		left -= w
		want = append(want, b.Units[0].Ld)
	}
	if !slices.Equal(exact, want) || len(want) != 4 {
		t.Errorf("exact combat results at Ld %v, want %v (four points)", exact, want)
	}
	if len(charge) != len(s.Models) {
		t.Errorf("exact charges at Ld %v, want all %d points", charge, len(s.Models))
	}
}

// TestFledIdleOnlyWithoutFlight holds the static rule that leaves fled out
// (rules.Battle.MayPanic) to trials: in every fantasy built-in that leaves
// it out, 200,000 trials per model (seed 5) show no flight from Panic at
// any point, for any unit. A built-in where a Terror-causer declares its
// charge keeps fled, and its units do flee.
func TestFledIdleOnlyWithoutFlight(t *testing.T) {
	idle, kept := 0, 0
	for _, name := range scenarios.BuiltinsOf("fantasy") {
		s, err := registry.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(s.Metrics(), "fled") {
			continue // not a battle
		}
		run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: 200_000, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		shown := slices.ContainsFunc(s.Results(run), func(e sim.Estimate) bool { return e.Metric == "fled" })
		if err := s.SelectMetrics([]string{"fled"}); err != nil {
			t.Fatal(err)
		}
		flights := 0.0
		for _, e := range s.Results(run) {
			flights += e.Value
			if !shown && e.Value != 0 {
				t.Errorf("%s leaves fled out, yet %v fled in %.4f%% of trials", name, e.Params, 100*e.Value)
			}
		}
		if shown {
			kept++
			if flights == 0 {
				t.Logf("%s keeps fled, and no unit fled in these trials", name)
			}
		} else {
			idle++
		}
		if name == "dread-maw-vs-knights" && (!shown || flights == 0) {
			t.Errorf("%s: the Knights test for Terror on the declared charge; fled shown %v, flights %v", name, shown, flights)
		}
	}
	t.Logf("fled left out in %d built-ins, kept in %d", idle, kept)
	for _, name := range []string{"doomwheel-vs-clanrats", "doomwheel-full-combat", "doomwheel-zzzzap"} {
		s, err := registry.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		run := sim.Run{}
		for _, m := range s.Models {
			run.Tallies, run.Completed = append(run.Tallies, sim.NewTally(m.Slots())), append(run.Completed, 0)
		}
		if slices.ContainsFunc(s.Results(run), func(e sim.Estimate) bool { return e.Metric == "fled" }) {
			t.Errorf("%s shows fled: no unit of it can take a Panic test it could fail", name)
		}
	}
}

// TestSaves: a save is written as printed, 1+ to 6+, with 7+, none or "-"
// for no save (a save worsened past 6+ is none, docs/fantasy.md); a bare
// number is refused with the save it likely means, as in every ruleset
// (docs/scenarios.md). Columns count from the line "  attacker: {...}":
// the value of the save key starts at column 75.
func TestSaves(t *testing.T) {
	rat := "{name: Rats, models: 10, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5}"
	head := "name: t\nruleset: fantasy\nbattle:\n  target: " + rat + "\n  distance: 4\n  phases: [charge, combat]\n"
	unit := "  attacker: {name: A, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, "
	for _, tc := range []struct {
		save string
		want string // "" for no error
	}{
		{"armour: 1+", ""},
		{"armour: 6+", ""},
		{"armour: 7+", ""},
		{"armour: none", ""},
		{"ward: 5+", ""},
		{"armour: 6", `t.yaml:7:75: expected armour as a save with its +, such as 6+; found "6"`},
		{"armour: 7", `t.yaml:7:75: expected armour as a save with its +, such as 7+; found "7"`},
		{"ward: 4", `t.yaml:7:73: expected ward as a save with its +, such as 4+; found "4"`},
		{"armour: 8+", `t.yaml:7:75: expected armour as a save from 1+ to 6+, or 7+ or none for no save; found "8+"`},
		{"armour: 9+", `t.yaml:7:75: expected armour as a save from 1+ to 6+, or 7+ or none for no save; found "9+"`},
		{"armour: 0", `t.yaml:7:75: expected armour as a save from 1+ to 6+, or 7+ or none for no save; found "0"`},
		{"armour: 4++", `t.yaml:7:75: expected armour as a save from 1+ to 6+, or 7+ or none for no save; found "4++"`},
	} {
		_, err := registry.Parse("t.yaml", []byte(head+unit+tc.save+"}\n"))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s:\n got: %s\nwant: %s", tc.save, got, tc.want)
		}
	}
}

// TestCrewWeaponSkill: a unit with a crew and no WS of its own is hit as
// WAP says: a cavalry model (and a Monstrous Cavalry one, and a ridden
// Monster) at the highest WS of rider and mount, here the mount's 5; a
// chariot at its crew's, the first profile's 3.
func TestCrewWeaponSkill(t *testing.T) {
	for _, tt := range []struct {
		troop string
		want  int
	}{
		{"Cavalry", 5}, {"Monstrous Cavalry", 5}, {"Monster", 5}, {"Chariot", 3},
	} {
		u := attackers(t, "troop: "+tt.troop+", M: 7, S: 4, T: 4, W: 3, Ld: 7, "+
			"crew: [{name: Rider, WS: 3, S: 4, I: 3, A: 1}, {name: Beast, WS: 5, S: 5, I: 2, A: 2}]")[0]
		if u.WS != tt.want {
			t.Errorf("%s: hit as WS %d, want %d", tt.troop, u.WS, tt.want)
		}
	}
}

// TestStompAtTheMonstersInitiative: a Stomp is the stomping model's, so a
// ridden Monster that gives no I of its own stomps at its last crew
// profile's, the monster's (here 1), while enemies weigh their re-rolls
// against the unit's, its first profile's (the rider's 6); a card's own I
// is both.
func TestStompAtTheMonstersInitiative(t *testing.T) {
	crew := "crew: [{name: Rider, WS: 5, S: 4, I: 6, A: 1}, {name: Wyvern, WS: 5, S: 6, I: 1, A: 3}]"
	for _, tt := range []struct {
		card          string
		unitI, stompI int
	}{
		{"troop: Monster, " + crew, 6, 1},
		{"troop: Monster, I: 4, " + crew, 4, 4},
		{"troop: Monster, WS: 5, I: 2, A: 3", 2, 2},
	} {
		u := attackers(t, "M: 6, S: 6, T: 5, W: 6, Ld: 8, "+tt.card)[0]
		if u.I != tt.unitI || u.StompInitiative() != tt.stompI {
			t.Errorf("%s: I %d, Stomp at %d; want %d and %d", tt.card, u.I, u.StompInitiative(), tt.unitI, tt.stompI)
		}
	}
}

// TestTroopRules: a unit has its troop type's rules (WAP troop-type
// pages) unless its card names the rule itself, fixed or swept, or turns
// them off with troop_rules: false.
func TestTroopRules(t *testing.T) {
	type flags struct {
		fear, terror, stomp, swift, skirmish bool
		impact                               string
	}
	for _, tt := range []struct {
		card string
		want []flags // one a point
	}{
		{"troop: Infantry", []flags{{}}},
		{"troop: Monstrous Infantry", []flags{{fear: true, swift: true}}},
		{"troop: Monstrous Infantry, troop_rules: false", []flags{{}}},
		{"troop: Monstrous Infantry, troop_rules: [true, false]", []flags{{fear: true, swift: true}, {}}},
		{"troop: Cavalry", []flags{{swift: true, impact: "1"}}},
		{"troop: Cavalry, rules: [Impact Hits (D3)]", []flags{{swift: true, impact: "D3"}}},
		{"troop: Cavalry, rules: [{Swiftstride: [false, true]}]", []flags{{impact: "1"}, {swift: true, impact: "1"}}},
		{"troop: Monstrous Cavalry", []flags{{fear: true, swift: true, impact: "1"}}},
		{"troop: Monstrous Beast", []flags{{fear: true, swift: true}}},
		{"troop: War Beasts", []flags{{swift: true}}},
		{"troop: Swarm, W: 5", []flags{{skirmish: true}}},
		{"troop: Monster, W: 6", []flags{{terror: true, stomp: true, swift: true}}},
		{"troop: [Infantry, Monster], W: 6", []flags{{}, {terror: true, stomp: true, swift: true}}},
	} {
		units := attackers(t, "M: 6, WS: 3, S: 4, T: 4, I: 3, A: 1, Ld: 7, "+tt.card)
		if len(units) != len(tt.want) {
			t.Fatalf("%s: %d points, want %d", tt.card, len(units), len(tt.want))
		}
		for i, u := range units {
			impact := ""
			if !u.Impact.IsZero() {
				impact = u.Impact.String()
			}
			got := flags{fear: u.Fear, terror: u.Terror, stomp: u.Stomp, swift: u.Mover.Swiftstride, skirmish: u.Skirmishers, impact: impact}
			if got != tt.want[i] {
				t.Errorf("%s, point %d: %+v, want %+v", tt.card, i, got, tt.want[i])
			}
		}
	}
}

// TestRiddenMonsterUnitStrength: a ridden Monster adds its riders to its
// Unit Strength (WAP, troop types, Monsters): W 6 with a crew of two riders
// on the monster (its own profile last) is 6 + 2 = 8; without riders, 6;
// a chariot's crew adds nothing (W 4); unit_strength still overrides.
func TestRiddenMonsterUnitStrength(t *testing.T) {
	for _, tt := range []struct {
		card string
		want int
	}{
		{"troop: Monster, W: 6, crew: [{name: Rider, count: 2, WS: 5, S: 4, I: 5, A: 1}, {name: Wyvern, WS: 5, S: 6, I: 3, A: 3}]", 8},
		{"troop: Monster, W: 6, crew: [{name: Wyvern, WS: 5, S: 6, I: 3, A: 3}]", 6},
		{"troop: Chariot, W: 4, crew: [{name: Crew, count: 2, WS: 3, S: 3, I: 3, A: 1}, {name: Steed, WS: 3, S: 3, I: 3, A: 1}]", 4},
		// A War Machine counts its crew (WAP, troop types, War Machines):
		// three crewmen, not its 4 wounds; without a crew, its wounds.
		{"troop: War Machine, W: 4, crew: [{name: Crew, count: 3, WS: 3, S: 3, I: 3, A: 1}]", 3},
		{"troop: War Machine, W: 4, WS: 3, I: 2, A: 0", 4},
		{"troop: Monster, W: 6, unit_strength: 5, crew: [{name: Rider, WS: 5, S: 4, I: 5, A: 1}, {name: Wyvern, WS: 5, S: 6, I: 3, A: 3}]", 5},
	} {
		if us := attackers(t, "M: 6, S: 6, T: 5, Ld: 8, "+tt.card)[0].US; us != tt.want {
			t.Errorf("%s: Unit Strength %d, want %d", tt.card, us, tt.want)
		}
	}
}

// TestParryOnSingleProfileCavalry: Cavalry without a split profile count
// as on foot for Parry (WAP, troop types, Cavalry), so the card may give
// them one.
func TestParryOnSingleProfileCavalry(t *testing.T) {
	if p := attackers(t, "troop: Cavalry, M: 8, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, parry: 6+")[0].Parry; p != 6 {
		t.Errorf("parry %d+, want 6+", p)
	}
}

// TestCardNotes: the note names the troop type's rules the card does not
// list, fixed or swept, for each value of a swept troop type, and nothing
// with troop_rules: false or swept, or a troop type that gives none.
func TestCardNotes(t *testing.T) {
	for _, tt := range []struct{ card, want string }{
		{"{name: A, troop: Monster}", "Its troop type, Monster, also gives it Stomp, Swiftstride, Terror (troop_rules: false turns them off)."},
		{"{name: A, troop: Monster, rules: [Terror, {Swiftstride: [true, false]}]}", "Its troop type, Monster, also gives it Stomp (troop_rules: false turns them off)."},
		{"{name: A, troop: Cavalry, rules: [Impact Hits (D3)]}", "Its troop type, Cavalry, also gives it Swiftstride (troop_rules: false turns them off)."},
		// A Tunneller never benefits from Swiftstride (the Dread Maw).
		{"{name: A, troop: Monster, rules: [Tunneller (9)]}", "Its troop type, Monster, also gives it Stomp, Terror (troop_rules: false turns them off)."},
		{"{name: A, troop: Monster, rules: [Tunneller (9), Stomp, Terror]}", ""},
		{"{name: A, troop: Monster, troop_rules: false}", ""},
		{"{name: A, troop: Monster, troop_rules: [true, false]}", "Where troop_rules is true, its troop type, Monster, also gives it Stomp, Swiftstride, Terror."},
		{"{name: A, troop: [Infantry, Monster], troop_rules: [false, true]}", "Where troop_rules is true and its troop type is Monster, that also gives it Stomp, Swiftstride, Terror."},
		{"{name: A, troop: Monster, troop_rules: true}", "Its troop type, Monster, also gives it Stomp, Swiftstride, Terror (troop_rules: false turns them off)."},
		{"{name: A, troop: [Infantry, Monster]}", "Where its troop type is Monster, that also gives it Stomp, Swiftstride, Terror (troop_rules: false turns them off)."},
		{"{name: A, troop: [Swarm, Monster], rules: [Terror]}", "Where its troop type is Swarm, that also gives it Skirmishers (troop_rules: false turns them off).\n" +
			"Where its troop type is Monster, that also gives it Stomp, Swiftstride (troop_rules: false turns them off)."},
		{"{name: A, troop: Infantry}", ""},
		{"{name: A}", ""},
		{"{name: A, troop: Monster, rules: [Stomp, Swiftstride, Terror]}", ""},
	} {
		file := filepath.Join(t.TempDir(), "units.yaml")
		if err := os.WriteFile(file, []byte("ruleset: fantasy\nunits:\n  - "+tt.card+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cards, err := registry.UserCards([]string{file}, "")
		if err != nil || len(cards) != 1 {
			t.Fatalf("%s: %d cards, %v", tt.card, len(cards), err)
		}
		got := strings.Join(registry.CardNotes(cards[0]), "\n")
		if got != tt.want {
			t.Errorf("%s:\n got: %q\nwant: %q", tt.card, got, tt.want)
		}
	}
}

// TestMountStrength: a rider's unit without an S of its own strikes its
// Impact Hits at its mount's S, the last crew profile's (here 3, the
// Warhorse's, not the Knight's 4); an S on the card wins; a chariot needs
// its own.
func TestMountStrength(t *testing.T) {
	rat := "{name: Rats, models: 10, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5}"
	head := "name: t\nruleset: fantasy\nbattle:\n  target: " + rat + "\n  distance: 6\n  phases: [charge, combat]\n"
	crew := "crew: [{name: Knight, WS: 4, S: 4, I: 3, A: 1}, {name: Warhorse, WS: 3, S: 3, I: 3, A: 1}]"
	for _, tt := range []struct {
		card string
		want int
	}{
		{"troop: Cavalry, " + crew, 3},
		{"troop: Monstrous Cavalry, " + crew, 3},
		{"troop: Cavalry, S: 5, " + crew, 5},
	} {
		if got := attackers(t, "M: 8, T: 3, Ld: 8, "+tt.card)[0].S; got != tt.want {
			t.Errorf("%s: S %d, want %d", tt.card, got, tt.want)
		}
	}
	wantError(t, "chariot without S", head+"  attacker: {name: A, troop: Chariot, M: 8, T: 5, W: 4, Ld: 7, crew: [{name: C, WS: 3, S: 3, I: 3, A: 1}]}\n",
		`t.yaml:7:13: unit "A" needs S for a battle`)
	// Neither the unit nor a profile gives S: that profile is refused,
	// rather than striking at S 0.
	wantError(t, "rider without S", head+"  attacker: {name: A, troop: Cavalry, M: 8, T: 3, Ld: 8, crew: [{name: Knight, WS: 4, I: 3, A: 1}, {name: Warhorse, WS: 3, S: 3, I: 3, A: 1}]}\n",
		`t.yaml:7:65: crew "Knight" needs S: unit "A" gives none of its own`)
}

// attackers reads a battle whose attacker is the unit card {name: A,
// card}, against ten rats, fought from the start, and returns the
// attacker's unit at each point of the scenario.
func attackers(t *testing.T, card string) []*rules.Unit {
	t.Helper()
	rat := "{name: Rats, models: 10, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5}"
	src := "name: t\nruleset: fantasy\nbattle:\n  target: " + rat + "\n  distance: 0\n  phases: [combat]\n" +
		"  attacker: {name: A, " + card + "}\n"
	s, err := registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", card, err)
	}
	var units []*rules.Unit
	for _, m := range s.Models {
		units = append(units, m.(*battleModel).b.Units[0])
	}
	return units
}

// TestDefaultWidth: a unit stands five wide, or as wide as it is, whatever
// its troop type, so that six chariots three wide are written as such and
// three chariots make three sets of Impact Hits without a width.
func TestDefaultWidth(t *testing.T) {
	for _, tt := range []struct {
		card string
		want int
	}{
		{"troop: Infantry, models: 20, WS: 3, S: 3, I: 3, A: 1", 5},
		{"troop: Infantry, models: 3, WS: 3, S: 3, I: 3, A: 1", 3},
		{"troop: Chariot, models: 3, W: 4, WS: 3, S: 4, I: 3, A: 1", 3},
		{"troop: Chariot, models: 6, W: 4, WS: 3, S: 4, I: 3, A: 1", 5},
		{"troop: Chariot, models: 6, width: 3, W: 4, WS: 3, S: 4, I: 3, A: 1", 3},
		{"troop: Swarm, models: 6, W: 5, WS: 3, S: 2, I: 1, A: 5", 5},
		{"troop: Monster, W: 6, WS: 3, S: 6, I: 3, A: 3", 1},
	} {
		if w := attackers(t, "M: 6, T: 4, Ld: 8, "+tt.card)[0].Width; w != tt.want {
			t.Errorf("%s: width %d, want %d", tt.card, w, tt.want)
		}
	}
}

// TestUnbreakableIsImmuneToPsychology: Unbreakable models have Immunity
// (Psychology) (WAP/special-rules/unbreakable), so no Terror charge can
// make them flee, nor can they be made to flee as a reaction.
func TestUnbreakableIsImmuneToPsychology(t *testing.T) {
	u := attackers(t, "M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 5, models: 10, rules: [Unbreakable]")[0]
	if !u.Unbreakable || !u.ImmunePsychology {
		t.Errorf("Unbreakable card: unbreakable %v, immune to psychology %v; want both", u.Unbreakable, u.ImmunePsychology)
	}
}

// TestImmuneToAllThree: a card immune to Fear, Terror and Panic has
// Immunity (Psychology) however the three come (WAP, Immunity
// (Psychology)), written as immunities or by causing Terror (Immunity
// (Fear/Terror)), so it never flees as a charge reaction; two of the three
// are not enough.
func TestImmuneToAllThree(t *testing.T) {
	for _, tt := range []struct {
		rules string
		want  bool
	}{
		{"[Immunity (Fear), Immunity (Terror), Immunity (Panic)]", true},
		{"[Immunity (Fear/Terror), Immunity (Panic)]", true},
		{"[Immunity (Panic), Immunity (Fear/Terror)]", true},
		{"[Immunity (Fear), Immunity (Terror)]", false},
		{"[Immunity (Fear/Terror)]", false},
		{"[Immunity (Terror), Immunity (Panic)]", false},
		// A Terror-causer has Immunity (Fear/Terror). A Fear-causer
		// still feels a Terror-causer's Fear (the Terror card's exception
		// to its immunity), so it is not immune to Fear in full.
		{"[Terror, Immunity (Panic)]", true},
		{"[Fear, Immunity (Terror), Immunity (Panic)]", false},
		{"[Fear, Immunity (Fear), Immunity (Terror), Immunity (Panic)]", true},
		{"[Terror]", false},
	} {
		u := attackers(t, "M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 5, models: 10, rules: "+tt.rules)[0]
		if u.ImmunePsychology != tt.want {
			t.Errorf("rules %s: immune to psychology %v, want %v", tt.rules, u.ImmunePsychology, tt.want)
		}
	}
}

// TestCrewProfileRules: a crew profile may give its own attacks Killing
// Blow, Multiple Wounds, Always Strikes First or Always Strikes Last, which
// the other profiles lack (a knight's lance, not his warhorse's hooves); the
// unit's rules go to every profile; a champion strikes as the first
// profile, with its rules. Other rules, and sweeps, belong to the unit.
func TestCrewProfileRules(t *testing.T) {
	knight := "{name: Knight, WS: 4, S: 4, I: 3, A: 1, rules: [Killing Blow, Multiple Wounds (2)]}"
	horse := "{name: Warhorse, WS: 3, S: 3, I: 3, A: 1, rules: [Always Strikes Last]}"
	u := attackers(t, "troop: Cavalry, models: 5, M: 8, T: 3, Ld: 8, champion: {name: Champ, A: 2}, crew: ["+knight+", "+horse+"], rules: [Always Strikes First]")[0]
	if len(u.Attackers) != 3 {
		t.Fatalf("%d profiles strike, want knight, warhorse and champion", len(u.Attackers))
	}
	for _, tt := range []struct {
		name              string
		killing, asf, asl bool
		multiple          string
	}{
		{"Knight", true, true, false, "2"},
		{"Warhorse", false, true, true, ""},
		{"Champ", true, true, false, "2"},
	} {
		var a *rules.Attacker
		for i := range u.Attackers {
			if u.Attackers[i].Name == tt.name {
				a = &u.Attackers[i]
			}
		}
		if a == nil {
			t.Fatalf("no profile %s", tt.name)
		}
		multiple := ""
		if !a.Multiple.IsZero() {
			multiple = a.Multiple.String()
		}
		if a.Killing != tt.killing || a.ASF != tt.asf || a.ASL != tt.asl || multiple != tt.multiple {
			t.Errorf("%s: Killing Blow %v, ASF %v, ASL %v, Multiple Wounds %q; want %v, %v, %v, %q",
				tt.name, a.Killing, a.ASF, a.ASL, multiple, tt.killing, tt.asf, tt.asl, tt.multiple)
		}
	}
	head := "name: t\nruleset: fantasy\nbattle:\n  target: {name: Rats, models: 10, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5}\n  distance: 0\n  phases: [combat]\n"
	// "  attacker: {name: A, troop: Cavalry, M: 8, T: 3, Ld: 8, crew: [{name: K, WS: 4, S: 4, I: 3, A: 1, rules: [" is 107
	// columns: the rule stands at 108, its list at 107.
	wantError(t, "a unit's rule on a crew profile", head+"  attacker: {name: A, troop: Cavalry, M: 8, T: 3, Ld: 8, crew: [{name: K, WS: 4, S: 4, I: 3, A: 1, rules: [Fear]}, {name: H, WS: 3, S: 3, I: 3, A: 1}]}\n",
		`t.yaml:7:108: Fear belongs to the whole unit: give it in the unit's rules; a crew profile takes only rules of its own attacks (Killing Blow, Multiple Wounds, Always Strikes First, Always Strikes Last)`)
	wantError(t, "a swept crew rule", head+"  attacker: {name: A, troop: Cavalry, M: 8, T: 3, Ld: 8, crew: [{name: K, WS: 4, S: 4, I: 3, A: 1, rules: [{Killing Blow: [false, true]}]}, {name: H, WS: 3, S: 3, I: 3, A: 1}]}\n",
		`t.yaml:7:107: a crew profile's rules cannot be swept`)
	wantError(t, "rules on a champion", head+"  attacker: {name: A, models: 5, M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 8, champion: {name: C, rules: [Killing Blow]}}\n",
		`t.yaml:7:98: unknown key "rules" in the champion`)
}

// TestBattleFiringRanksOption: firing_ranks defaults to 2 (Fire in Two
// Ranks), sweeps, takes 0 for every model, and is refused above 10 at its
// value.
func TestBattleFiringRanksOption(t *testing.T) {
	rat := "{name: Rats, models: 10, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5}"
	head := "name: t\nruleset: fantasy\nbattle:\n  target: " + rat + "\n  attacker: {name: B, M: 5, WS: 3, BS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5, missile: {S: 3, range: 24}}" +
		"\n  distance: 0\n  phases: [shooting, combat]\n"
	for _, tt := range []struct {
		options string
		want    []int
	}{
		{"", []int{2}},
		{"  options: {firing_ranks: [0, 1, 3]}\n", []int{0, 1, 3}},
	} {
		s, err := registry.Parse("t.yaml", []byte(head+tt.options))
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, m := range s.Models {
			got = append(got, m.(*battleModel).b.Options.FiringRanks)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: firing ranks %v, want %v", tt.options, got, tt.want)
		}
	}
	_, err := registry.Parse("t.yaml", []byte(head+"  options: {firing_ranks: 11}\n"))
	if err == nil || !strings.Contains(err.Error(), "firing_ranks") {
		t.Errorf("firing_ranks 11: %v", err)
	}
}

// TestBattleMeetsOthers: with pursuit_path: line, the enemy standing 2"
// beyond the combat is in the way of every pursuit (a flee roll of 2D6 is
// 2 or more), so the battle reports its broke, caught and won beside the
// acting unit's and the target's; with clear it stands aside and has
// none. Its wounds are reported either way, and are 0 when it stands
// aside.
func TestBattleMeetsOthers(t *testing.T) {
	src := `name: t
ruleset: fantasy
battle:
  attacker: {name: A, models: 10, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, rear: true}
  target: {name: Rats, models: 10, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5}
  distance: 0
  others:
    - {name: Guard, side: enemy, distance: 2, models: 5, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 6}
  phases: [combat, combat]
  options: {pursuit_path: [clear, line]}
`
	s, err := registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: 2000, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	reported := map[string]bool{}
	for _, e := range s.Results(run) {
		var path, unit any
		for _, p := range e.Params {
			switch p.Name {
			case "pursuit_path":
				path = p.Value
			case "unit":
				unit = p.Value
			}
		}
		if unit != "Guard" {
			continue
		}
		reported[fmt.Sprint(path, " ", e.Metric)] = true
		if path == "clear" && e.Metric == "wounds" && e.Value != 0 {
			t.Errorf("the Guard stands aside, yet took %v wounds", e.Value)
		}
	}
	for _, m := range []string{"broke", "caught", "won", "wounds"} {
		if !reported["line "+m] {
			t.Errorf("pursuit_path line: no %s for the Guard (have %v)", m, reported)
		}
		if reported["clear "+m] != (m == "wounds") {
			t.Errorf("pursuit_path clear: %s for the Guard reported %v", m, reported["clear "+m])
		}
	}
}

// TestPursuerOutOfControlOption: the option reaches the battle. A
// Doomwheel (Terror, in the rear, no attacks) breaks two models of W 20 at
// Ld 1 and pursues; under loss_of_control: end_of_phase it then tests for
// the wounds their two S 10 attacks dealt it, and fails with 695/5184
// (mechanics/fantasy TestOutOfControlAfterAWin), at both settings.
// With moves, the failed test sends it on along the line, where it may
// catch the two again (2 x 5 more wounds a catch): their wounds must rise
// by more than 5 standard errors of the difference; with stays they
// cannot.
func TestPursuerOutOfControlOption(t *testing.T) {
	src := `name: t
ruleset: fantasy
battle:
  attacker: {name: DW, troop: Chariot, S: 6, T: 6, W: 20, I: 4, Ld: 7, armour: 4+, rear: true, crew: [{name: Crew, WS: 3, S: 2, I: 4, A: 0}], rules: [Random Movement (2D6), Terror, Loss of Control]}
  target: {name: Two, models: 2, width: 2, M: 4, WS: 3, S: 10, T: 3, W: 20, I: 3, A: 1, Ld: 1}
  distance: 0
  phases: [combat]
  options: {insane_courage: false, loss_of_control: end_of_phase, out_of_control: towards, pursuer_out_of_control: [stays, moves]}
`
	s, err := registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	const n = 20_000
	run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: n, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	wounds := map[any]sim.Estimate{}
	for _, e := range s.Results(run) {
		setting, unit := e.Param("pursuer_out_of_control"), e.Param("unit")
		switch {
		case e.Metric == "lost_control":
			if z := (e.Value - 695.0/5184) / math.Sqrt(695.0/5184*(1-695.0/5184)/n); math.Abs(z) > 5 {
				t.Errorf("%v: lost_control %.4f, want 695/5184 (z %.1f)", setting, e.Value, z)
			}
		case e.Metric == "wounds" && unit == "Two":
			wounds[setting] = e
		}
	}
	stays, moves := wounds["stays"], wounds["moves"]
	if se := math.Hypot(stays.SE, moves.SE); moves.Value-stays.Value < 5*se {
		t.Errorf("the two took %.3f wounds with stays, %.3f with moves: no second catch (5 SE = %.3f)", stays.Value, moves.Value, 5*se)
	}
}

// TestGrindScythesOption: a Doomwheel (S6, Scythes) in combat from the
// start has not charged, so it grinds in the first round: D3+1 Impact
// Hits, 3 in the mean, or D3+2, 4, with grind_scythes. Against Clanrats
// (T3, armour 5+, which S6 takes away) a hit wounds on 2+ and is never
// saved: 3 x 5/6 = 2.5 wounds and 4 x 5/6 = 10/3, exactly and, over
// 100,000 trials, within 5 standard errors. The option is refused where
// no unit has both rules.
func TestGrindScythesOption(t *testing.T) {
	src := `name: t
ruleset: fantasy
battle:
  attacker: {use: Doomwheel}
  target: {use: Clanrats}
  distance: 0
  phases: [combat]
  options: {grind_scythes: [false, true]}
`
	s, err := registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	const n = 100_000
	run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: n, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[any]float64{
		"impact_hits":   {false: 3, true: 4},
		"impact_wounds": {false: 2.5, true: 10.0 / 3},
	}
	found := 0
	for _, e := range s.Results(run) {
		w, ok := want[e.Metric][e.Param("grind_scythes")]
		if !ok {
			continue
		}
		found++
		if !e.HasExact || math.Abs(e.Exact-w) > 1e-12 {
			t.Errorf("%s with grind_scythes %v: exact %v, want %v", e.Metric, e.Param("grind_scythes"), e.Exact, w)
		}
		if z := (e.Value - w) / e.SE; math.Abs(z) > 5 {
			t.Errorf("%s with grind_scythes %v: estimate %.4f, want %.4f (z %.1f)", e.Metric, e.Param("grind_scythes"), e.Value, w, z)
		}
	}
	if found != 4 {
		t.Errorf("found %d of the 4 estimates", found)
	}
	_, err = registry.Parse("t.yaml", []byte(strings.Replace(src, "{use: Doomwheel}", "{use: Stormvermin}", 1)))
	if err == nil || !strings.Contains(err.Error(), "grind_scythes: no unit that fights has both a Grind Attack and Scythes") {
		t.Errorf("grind_scythes without a Doomwheel: %v", err)
	}
}

// TestCommandLossesOption: the option reaches the combat result. One model
// (WS 3, S 3, A 1) fights two with no attacks, a standard bearer and a
// musician; its attack kills one with 1/4. The combat result is -2 when it
// kills none (the two's Unit Strength and standard); when it kills one,
// musician first (the default) leaves the standard, a draw (0), and
// standard first the musician, a win by one: -3/2 and -5/4 (by hand in
// TestCommandModelsFallLast in mechanics/fantasy). Refused where no unit
// has both, and a card with more command models than models is refused.
func TestCommandLossesOption(t *testing.T) {
	src := `name: t
ruleset: fantasy
battle:
  attacker: {name: One, models: 1, M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7}
  target: {name: Two, models: 2, M: 4, WS: 3, S: 3, T: 3, I: 3, A: 0, Ld: 7, standard: true, musician: true}
  distance: 0
  phases: [combat]
  metrics: [combat_result]
  options: {command_losses: [musician_first, standard_first], pursue: false}
`
	s, err := registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	const n = 40_000
	run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: n, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	want := map[any]float64{"musician_first": -1.5, "standard_first": -1.25}
	found := 0
	for _, e := range s.Results(run) {
		w, ok := want[e.Param("command_losses")]
		if e.Metric != "combat_result" || !ok {
			continue
		}
		found++
		if !e.HasExact || math.Abs(e.Exact-w) > 1e-12 {
			t.Errorf("command_losses %v: exact %v, want %v", e.Param("command_losses"), e.Exact, w)
		}
		if z := (e.Value - w) / e.SE; math.Abs(z) > 5 {
			t.Errorf("command_losses %v: estimate %.4f, want %.4f (z %.1f)", e.Param("command_losses"), e.Value, w, z)
		}
	}
	if found != 2 {
		t.Errorf("found %d of the 2 estimates", found)
	}
	_, err = registry.Parse("t.yaml", []byte(strings.Replace(src, "musician: true}", "musician: false}", 1)))
	if err == nil || !strings.Contains(err.Error(), "command_losses: no unit that fights has both a standard and a musician") {
		t.Errorf("command_losses without a musician: %v", err)
	}
	// An enemy among the others, which a pursuit may reach, is one the
	// acting unit may fight: the option is read.
	other := strings.Replace(src, "musician: true}", "musician: false}", 1)
	other = strings.Replace(other, "  distance: 0\n", "  distance: 0\n  others: [{name: Guard, side: enemy, distance: 4, models: 4, M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, standard: true, musician: true}]\n", 1)
	if _, err := registry.Parse("t.yaml", []byte(other)); err != nil {
		t.Errorf("command_losses with an enemy among the others that has both: %v", err)
	}
	_, err = registry.Parse("t.yaml", []byte(strings.Replace(src, "models: 2,", "models: 1,", 1)))
	if err == nil || !strings.Contains(err.Error(), `unit "Two": 2 command models (champion, standard bearer, musician) in a unit of 1`) {
		t.Errorf("one model with a standard and a musician: %v", err)
	}
}

// TestChargePathOption: the option reaches the battle. Ten foot (M 5, a
// charge of M plus the highest of 2D6) charge a target 9" away, reaching
// it when that die is 4 or more: 3/4. A friend stands 3" away. With
// charge_path: clear it stands aside, and charge_success keeps its exact
// 3/4; with line it is in the way, every charge fails, and no exact value
// is claimed, since the friend's place decides it.
func TestChargePathOption(t *testing.T) {
	src := `name: t
ruleset: fantasy
battle:
  attacker: {name: A, models: 10, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7}
  target: {name: Rats, models: 10, M: 5, WS: 3, S: 3, T: 3, I: 4, A: 1, Ld: 5}
  distance: 9
  others:
    - {name: Friend, side: friend, distance: 3, models: 5, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 6}
  phases: [charge]
  options: {charge_path: [clear, line]}
`
	s, err := registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	const n = 4000
	run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: n, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, e := range s.Results(run) {
		if e.Metric != "charge_success" {
			continue
		}
		seen++
		switch path := e.Param("charge_path"); path {
		case "clear":
			if !e.HasExact || math.Abs(e.Exact-0.75) > 1e-12 {
				t.Errorf("clear: exact %v (has %v), want 3/4", e.Exact, e.HasExact)
			}
			if z := (e.Value - 0.75) / math.Sqrt(0.75*0.25/n); math.Abs(z) > 5 {
				t.Errorf("clear: charge_success %.4f, want 3/4 (z %.1f)", e.Value, z)
			}
		case "line":
			if e.HasExact || e.Value != 0 {
				t.Errorf("line: charge_success %v (exact claimed %v), want 0 and no exact value", e.Value, e.HasExact)
			}
		default:
			t.Errorf("charge_path %v", path)
		}
	}
	if seen != 2 {
		t.Errorf("%d charge_success estimates, want 2", seen)
	}
}

// TestCaughtWithoutCombat: a battle with a charge phase and no combat
// reports its target's caught when the charge may catch it fleeing (with
// target_flees, or after it was shot at), and not when it cannot. Ten foot (M 5: 5 plus the
// highest of 2D6) charge ten 6" away that flee 2D6: caught when 5 + h >=
// 6 + f, 190 of the 6^4 rolls (95/648, by enumeration), and a catch by
// ten (2 wounds for each point of their Unit Strength, 20) destroys the
// ten. 20,000 trials, within 4 standard errors.
func TestCaughtWithoutCombat(t *testing.T) {
	head := "name: t\nruleset: fantasy\nbattle:\n  attacker: {name: A, models: 10, width: 5, profile: M5 WS3 S3 T3 W1 I3 A1 Ld7"
	target := "}\n  target: {name: T, models: 10, width: 5, profile: M5 WS3 S3 T3 W1 I3 A1 Ld7}\n"
	for i, tc := range []struct {
		attacker, rest string
		caught         bool
	}{
		{"", "  distance: 6\n  phases: [charge]\n  options: {target_flees: true}\n", true},
		// The target holds: nothing makes it flee.
		{"", "  distance: 6\n  phases: [charge]\n", false},
		// Bows at it: a quarter lost, it may flee from Panic, and the
		// charge may catch it.
		{", BS: 3, missile: {S: 3, range: 24}", "  distance: 6\n  phases: [shooting, charge]\n", true},
	} {
		s, err := registry.Parse("t.yaml", []byte(head+tc.attacker+target+tc.rest))
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(s.Metrics(), "caught"); got != tc.caught {
			t.Errorf("case %d: caught among the metrics %v, want %v", i, got, tc.caught)
			continue
		}
		// A catch may destroy the target, a win for the acting unit.
		if got := slices.Contains(s.Metrics(), "won"); got != tc.caught {
			t.Errorf("case %d: won among the metrics %v, want %v", i, got, tc.caught)
		}
		if i > 0 {
			continue
		}
		if err := s.SelectMetrics([]string{"caught"}); err != nil {
			t.Fatal(err)
		}
		run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: 20_000, Seed: 6})
		if err != nil {
			t.Fatal(err)
		}
		es := s.Results(run)
		const p = 95.0 / 648
		if se := math.Sqrt(p * (1 - p) / 20_000); len(es) != 1 || math.Abs(es[0].Value-p) > 4*se {
			t.Errorf("caught: %v, want %.4f within 4 standard errors (%.4f)", es, p, 4*se)
		}
	}
	// With no charge and no combat, a Doomwheel's Out of Control move
	// towards the others may still catch its target fleeing from Zzzzap!.
	s, err := registry.Parse("t.yaml", []byte("name: t\nruleset: fantasy\nbattle:\n  attacker: {use: Doomwheel}\n"+
		"  target: {name: Goblins, models: 8, width: 4, profile: M4 WS2 S3 T1 W1 I2 A1 Ld2}\n  distance: 6\n"+
		"  phases: [shooting, shooting]\n  options: {out_of_control: towards}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(s.Metrics(), "caught") || !slices.Contains(s.Metrics(), "won") {
		t.Errorf("an Out of Control move that may catch the target: metrics %v, want caught and won", s.Metrics())
	}
	// A Random Movement move along the line may catch another enemy, three
	// Goblins that Zzzzap! made flee, which its catch (2
	// wounds for each point of the Doomwheel's Unit Strength) destroys: a
	// win, in every trial in which they are caught, and only then.
	s, err = registry.Parse("t.yaml", []byte("name: t\nruleset: fantasy\nbattle:\n  attacker: {use: Doomwheel}\n"+
		"  target: {name: Skeletons, models: 20, width: 5, profile: M4 WS2 S3 T3 W1 I2 A1 Ld3, rules: [Immunity (Psychology)]}\n  distance: 24\n"+
		"  others:\n    - {name: Goblins, side: enemy, distance: 4, models: 3, width: 3, profile: M4 WS2 S3 T3 W1 I2 A1 Ld2}\n"+
		"  phases: [shooting, charge]\n  options: {charge_path: line}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SelectMetrics([]string{"won", "caught"}); err != nil {
		t.Fatal(err)
	}
	run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: 4000, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	var won, caught float64
	for _, e := range s.Results(run) {
		switch {
		case e.Metric == "won" && e.Param("unit") == "Doomwheel":
			won = e.Value
		case e.Metric == "caught" && e.Param("unit") == "Goblins":
			caught = e.Value
		}
	}
	if won == 0 || won != caught {
		t.Errorf("the Doomwheel won %v, the Goblins were caught %v; want the same, above 0", won, caught)
	}
}

// TestActingUnitFled: the acting unit flees from Panic too, and fled
// reports it where it may: four Zzzzap! war machines (Ld 7) lose a quarter
// of their models to their own Disasters in some trials and flee when they
// then fail the test, in about 1.4% of trials. Their fled row is offered
// and counts those flights; a Doomwheel, immune to psychology, has none,
// nor has a single war machine.
func TestActingUnitFled(t *testing.T) {
	src := `name: a1
ruleset: fantasy
battle:
  attacker: {name: Wheels, troop: War Machine, models: 4, width: 4, profile: M5 WS3 S3 T3 W1 I3 A1 Ld7, rules: ["Zzzzap!"]}
  target: {name: Tgt, models: 20, width: 5, profile: M4 WS2 S2 T3 I2 A1 Ld7}
  distance: 10
  phases: [shooting, charge]
  options: {zzzzap_hold_fire: never}
`
	fled := func(src, unit string) (sim.Estimate, bool) {
		s, err := registry.Parse("t.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: 20_000, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range s.Results(run) {
			if e.Metric == "fled" && e.Param("unit") == unit {
				return e, true
			}
		}
		return sim.Estimate{}, false
	}
	if e, ok := fled(src, "Wheels"); !ok || e.Successes == 0 {
		t.Errorf("the acting unit's fled: offered %v, %d flights", ok, e.Successes)
	}
	doomwheel := strings.Replace(src, `{name: Wheels, troop: War Machine, models: 4, width: 4, profile: M5 WS3 S3 T3 W1 I3 A1 Ld7, rules: ["Zzzzap!"]}`, "{use: Doomwheel}", 1)
	if _, ok := fled(doomwheel, "Doomwheel"); ok {
		t.Error("a Doomwheel, immune to psychology, has a fled row")
	}
	// One war machine: the quarter it loses is all of it, which takes no
	// test.
	one := strings.Replace(src, "models: 4, width: 4", "models: 1, width: 1", 1)
	if _, ok := fled(one, "Wheels"); ok {
		t.Error("a unit of one model, which dies where it would lose a quarter, has a fled row")
	}
	// But its charge along the line brings it within 6" of a friend 8"
	// away (the target 3" off, one model, which it reaches), whom its
	// bolts may then destroy: a Panic test, failed on Ld 7 with 15/36.
	near := strings.Replace(one, "  target: {name: Tgt, models: 20, width: 5, profile: M4 WS2 S2 T3 I2 A1 Ld7}\n  distance: 10\n",
		"  target: {name: Tgt, models: 1, width: 1, profile: M4 WS2 S2 T1 I2 A1 Ld7}\n  distance: 3\n  others:\n    - {name: Pal, side: friend, distance: 8, models: 1, width: 1, unit_strength: 10, profile: M4 WS2 S2 T1 I2 A1 Ld7}\n", 1)
	near = strings.Replace(near, "phases: [shooting, charge]", "phases: [charge, shooting]", 1)
	near = strings.Replace(near, "  options: {zzzzap_hold_fire: never}\n", "  options: {zzzzap_hold_fire: never, charge_path: line}\n", 1)
	if e, ok := fled(near, "Wheels"); !ok || e.Successes == 0 {
		t.Errorf("the acting unit near a friend its bolts destroy: fled offered %v, %d flights", ok, e.Successes)
	}
}

// TestOthersMetricsWhereTheyMayVary: an enemy the acting unit's move may
// run into is offered broke, caught and won only where they may be other
// than 0. A Random Movement chariot's move along the line may run into Far,
// but with no combat phase Far can neither break nor win, only be caught
// (were it fleeing); with pursue: false no pursuit runs into Far, so it is
// offered none of the three.
func TestOthersMetricsWhereTheyMayVary(t *testing.T) {
	far := "\n  others:\n    - {name: Far, side: enemy, distance: 8, models: 10, width: 5, profile: M4 WS3 S3 T3 I3 A1 Ld7}\n"
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"no combat", "name: m1\nruleset: fantasy\nbattle:\n  attacker: {name: Wheel, troop: Chariot, profile: WS3 S5 T5 W4 I3 A2 Ld7, rules: [Random Movement (3D6), Immunity (Psychology)]}\n" +
			"  target: {name: Tgt, models: 20, width: 5, profile: M4 WS2 S2 T3 I2 A1 Ld7}\n  distance: 12" + far + "  phases: [charge]\n  options: {charge_path: line}\n", []string{"caught"}},
		{"no pursuit", "name: p2\nruleset: fantasy\nbattle:\n  attacker: {name: Big, models: 30, width: 5, profile: M4 WS4 S4 T3 I3 A0 Ld8}\n" +
			"  target: {name: Tgt, models: 20, width: 20, profile: M4 WS2 S2 T3 I2 A0 Ld7}\n  distance: 0" + far + "  phases: [combat]\n  options: {pursue: false, pursuit_path: line}\n", nil},
		{"pursuit", "name: p3\nruleset: fantasy\nbattle:\n  attacker: {name: Big, models: 30, width: 5, profile: M4 WS4 S4 T3 I3 A0 Ld8}\n" +
			"  target: {name: Tgt, models: 20, width: 20, profile: M4 WS2 S2 T3 I2 A0 Ld7}\n  distance: 0" + far + "  phases: [combat]\n  options: {pursuit_path: line}\n", []string{"broke", "caught", "won"}},
	} {
		s, err := registry.Parse("t.yaml", []byte(tc.src))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: 100, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range s.Results(run) {
			if e.Param("unit") == "Far" && slices.Contains([]string{"broke", "caught", "won"}, e.Metric) {
				got = append(got, e.Metric)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: Far is offered %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestAxesOfListedUnitsApart: two units of a battle's others sweeping one
// key are two axes named after their units (Stormvermin.Ld, Slaves.Ld), so
// that each point's values are told apart, where both were named
// battle.others.Ld and one hid the other in every output. (Crew profiles
// are named alike, after their profiles.)
func TestAxesOfListedUnitsApart(t *testing.T) {
	src := `name: b1
ruleset: fantasy
battle:
  attacker: {use: Doomwheel}
  target: {use: Clanrats}
  distance: 8
  others:
    - {use: Stormvermin, side: friend, distance: 4, Ld: [7, 8]}
    - {name: Slaves, side: friend, distance: 5, models: 10, width: 5, profile: M5 WS2 S3 T3 I3 A1, Ld: [2, 3]}
  phases: [shooting]
`
	s, err := registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range s.Axes {
		names = append(names, a.Name)
	}
	if !slices.Equal(names, []string{"Stormvermin.Ld", "Slaves.Ld"}) {
		t.Errorf("axes %q", names)
	}
}

// TestMishapsOfEveryShootingPhase: mishap counts the trials in which the
// Mishap chart gave a result at least once. A Doomwheel fires Zzzzap! in
// four Shooting phases at Clanrats 30" away, beyond its bolts (the
// Artillery dice is rolled all the same, and nothing else harms or moves
// it): a Misfire (1/6) then a 1-2 on the chart (1/3) is a Disaster, 1/18
// a phase; each phase rolls again unless a Disaster destroyed it, which
// only a Disaster does, so a Disaster at least once is 1 - (17/18)^4 =
// 0.2043. Counting the last result alone gave about 0.13.
func TestMishapsOfEveryShootingPhase(t *testing.T) {
	src := `name: t
ruleset: fantasy
battle:
  attacker: {use: Doomwheel}
  target: {name: Clanrats, models: 30, width: 6, profile: M5 WS3 S3 T3 I4 A1 Ld5}
  distance: 30
  phases: [shooting, shooting, shooting, shooting]
  metrics: [mishap]
`
	const trials = 200_000
	for _, e := range runFantasy(t, src, trials, 3) {
		if e.Param("result") != "disaster" {
			continue
		}
		want := 1 - math.Pow(17.0/18, 4)
		se := math.Sqrt(want * (1 - want) / trials)
		if math.Abs(e.Value-want) > 4*se {
			t.Errorf("a Disaster in any phase: %.5f, want %.5f ± %.5f (4 SE)", e.Value, want, 4*se)
		}
		return
	}
	t.Fatal("no mishap estimate for a disaster")
}

// TestMissileSwept: a missile weapon's S, range, shots and hit_modifier
// may each be swept, named missile.S where the unit sweeps its own S.
// Ten BS3 archers (4+ to hit) shoot once at T3 rats 14" away: with range
// 24 that is long range (5+), with range 30 short. Each point's wounds,
// 10 x P(hit) x P(wound): S3 wounds T3 on 4+ (1/2), S4 on 3+ (2/3).
func TestMissileSwept(t *testing.T) {
	src := `name: t
ruleset: fantasy
battle:
  attacker: {name: Archers, models: 10, M: 4, WS: 3, BS: 3, S: [3, 4], T: 3, I: 3, A: 1, Ld: 7, missile: {S: [3, 4], range: [24, 30], hit_modifier: -1..0}}
  target: {name: Rats, models: 20, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 5}
  distance: 14
  phases: [shooting]
  metrics: [wounds]
`
	const trials = 20_000
	checked := 0
	for _, e := range runFantasy(t, src, trials, 9) {
		if e.Param("unit") != "Rats" || e.Param("attacker.S") != 3 {
			continue
		}
		// hit_modifier and long range take the 4+ to 5+ or 6+.
		need := 4 - e.Param("hit_modifier").(int)
		if e.Param("range") == 24 {
			need++
		}
		wound := 0.5
		if e.Param("missile.S") == 4 {
			wound = 2.0 / 3
		}
		want := 10 * float64(7-need) / 6 * wound
		// At most 10 wounds: variance at most want x (10 - want).
		if se := math.Sqrt(want * (10 - want) / trials); math.Abs(e.Value-want) > 5*se {
			t.Errorf("%v: %.4f wounds, want %.4f", e.Params, e.Value, want)
		}
		checked++
	}
	if checked != 8 {
		t.Errorf("%d points checked, want 8", checked)
	}
}

// TestTroopRulesInEveryQuestion: a rule that belongs to other troop types
// is refused in a charge or pursuit question as in a battle, and on a card
// of a catalogue: Tunneller (9) on Infantry would make it charge as a
// 9" flyer, and Stomp is a Monster's or a monstrous type's.
func TestTroopRulesInEveryQuestion(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"charge", `name: t
ruleset: fantasy
charge:
  unit: {name: R, M: 5, rules: [Tunneller (9)]}
  distance: 12
`, `Tunneller on R (Infantry): it belongs to Monster`},
		{"pursuit", `name: t
ruleset: fantasy
pursuit:
  fleeing: {name: F, M: 4}
  pursuing: {name: P, M: 5, troop: [Infantry, Monster], rules: [Stomp]}
`, `Stomp on P (Infantry): it belongs to`},
	} {
		_, err := registry.Parse("t.yaml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	path := filepath.Join(t.TempDir(), "units.yaml")
	if err := os.WriteFile(path, []byte(`ruleset: fantasy
units:
  - {name: R, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, rules: [Stomp]}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.UserCards([]string{path}, ""); err == nil || !strings.Contains(err.Error(), "Stomp on R (Infantry): it belongs to") {
		t.Errorf("a catalogue's Infantry card with Stomp: %v", err)
	}
}

// TestRoundsAllAndTheCap: rounds: all fights until a side breaks, flees or
// is destroyed, at most rules.MaxRounds (50) rounds, so it and rounds: 50
// are one battle; a sweep of both is refused, as a value listed twice is.
// A sweep of 49 and all is two battles.
func TestRoundsAllAndTheCap(t *testing.T) {
	src := "name: t\nruleset: fantasy\nbattle:\n  attacker: {use: Knights}\n  target: {use: Spearmen}\n  distance: 0\n  phases: [combat]\n  options: {rounds: [50, all]}\n"
	if _, err := registry.Parse("t.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), "t.yaml:8:21: rounds lists 50 and all, which fight alike") {
		t.Errorf("rounds: [50, all]: %v", err)
	}
	if _, err := registry.Parse("t.yaml", []byte(strings.Replace(src, "[50, all]", "[49, all]", 1))); err != nil {
		t.Errorf("rounds: [49, all]: %v", err)
	}
}

// TestChargeAfterCombatFromContact: from distance 0 a charge phase that
// follows a combat is kept, and charges: the combat's loser flees and the
// winner may charge it. Ten knights against twelve rats, one round then a
// charge; a charge is declared and reaches in some of 20,000 trials.
func TestChargeAfterCombatFromContact(t *testing.T) {
	src := "name: t\nruleset: fantasy\nbattle:\n" +
		"  attacker: {name: K, models: 10, width: 5, troop: Cavalry, profile: M7 WS4 S4 T3 W1 I3 A1 Ld8, armour: 2+}\n" +
		"  target: {name: R, models: 12, width: 4, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}\n" +
		"  distance: 0\n  phases: [combat, charge, combat]\n  options: {pursue: false}\n"
	for _, e := range runFantasy(t, src, 20_000, 3) {
		if e.Metric == "charge_success" && e.Value > 0 {
			return
		}
	}
	t.Error("no charge reached the fled target after the first combat")
}
