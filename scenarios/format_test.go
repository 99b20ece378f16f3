package scenarios

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"hammersim/mechanics"
	"hammersim/mechanics/dice"
	"hammersim/sim"
)

// The format is tested with toy rulesets of its own, so that these tests
// show it needs no real game. A toy question, "roll", names units with a
// die each and rolls it:
//
//	roll:
//	  unit: {name: A, die: [4, 6], rules: [Loud]}
//	  bonus: 0..2     # a readout: results read it, models do not change
type toyUnit struct {
	name  string
	die   Param[int]
	rules []Param[RuleChoice]
}

func decodeToyUnit(d *Decoder, n *Node) *toyUnit {
	u := &toyUnit{}
	d.Object(n, "a unit", []Field{
		{Key: "name", Required: true, Decode: func(n *Node) { u.name = d.Text(n, "the unit's name") }},
		{Key: "die", Required: true, Decode: func(n *Node) {
			u.die = Sweep(d, n, "die", true, func(n *Node) (int, bool) { return d.IntIn(n, "die", 2, 20) }, Identity)
		}},
		{Key: "rules", Decode: func(n *Node) { u.rules = d.Rules(n) }},
	})
	return u
}

func decodeToyRoll(d *Decoder, n *Node) Compile {
	var units Param[*toyUnit]
	bonus := Fixed(0)
	d.Object(n, "the roll", []Field{
		{Key: "unit", Required: true, Decode: func(n *Node) {
			units = SweepUnits(d, n, "unit", func(n *Node) *toyUnit { return decodeToyUnit(d, n) }, func(u *toyUnit) string { return u.name })
		}},
		{Key: "bonus", Decode: func(n *Node) {
			bonus = Sweep(d, n, "bonus", true, func(n *Node) (int, bool) { return d.IntIn(n, "bonus", 0, 5) }, Identity)
			Readout(d, bonus)
		}},
	})
	return func(d *Decoder, axes Axes) Compiled {
		models, group, _ := axes.Groups(func(pt Point) (sim.Model, bool) {
			return DiceModel(dice.MustParse(fmt.Sprintf("D%d", units.At(pt).die.At(pt)))), true
		})
		return Compiled{Models: models, Results: func(run sim.Run) []sim.Estimate {
			var out []sim.Estimate
			axes.Each(func(pt Point) {
				g := group(pt)
				out = append(out, sim.MeanOf("roll", axes.Params(pt), &run.Tallies[g].H[0]))
				_ = bonus.At(pt)
			})
			return out
		}}
	}
}

var (
	toy = &Ruleset{Name: "toy", Title: "Toy Game", Repeatable: []string{"Echo"},
		Catalogue: mechanics.Catalogue{{Name: "Loud"}, {Name: "Echo"}, {Name: "Far", Arg: mechanics.IntArg, Min: 1, Max: 9}},
		Questions: map[string]Question{"roll": decodeToyRoll}}
	other = &Ruleset{Name: "other", Title: "Other Game", Catalogue: mechanics.Catalogue{{Name: "Quiet"}},
		Questions: map[string]Question{"roll": decodeToyRoll}}
	toys = NewRegistry(toy, other)
)

func TestToyScenario(t *testing.T) {
	src := "name: t\nruleset: toy\nroll:\n  unit: [{name: A, die: 6, rules: [Loud, Echo, Echo]}, {name: B, die: 4}]\n  bonus: 0..2\n"
	s, err := toys.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	// Two units by three bonuses: the bonus is a readout, so two models.
	if len(s.Models) != 2 || len(s.Axes) != 2 || s.Axes[0].Name != "unit" || s.Axes[1].Name != "bonus" {
		t.Fatalf("%d models, axes %+v", len(s.Models), s.Axes)
	}
	run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	res := s.Results(run)
	if len(res) != 6 || res[0].Param("unit") != "A" || res[5].Param("bonus") != 2 {
		t.Errorf("results %v", res)
	}
}

func TestToyErrors(t *testing.T) {
	head := "name: t\nruleset: toy\n"
	tests := []struct{ name, src, want string }{
		{"yaml syntax", "name: [t\n", "t.yaml:1:7: YAML syntax: "},
		{"empty file", "", "t.yaml:1:1: the file is empty"},
		{"not a mapping", "- a\n", "t.yaml:1:1: expected the scenario as a mapping of keys, found a list"},
		{"unknown ruleset", "name: t\nruleset: chess\n", `t.yaml:2:10: unknown ruleset "chess"; expected one of: other, toy`},
		{"no question", head, "t.yaml:1:1: the scenario asks no question; add one of: roll"},
		{"rule twice", head + "roll: {unit: {name: A, die: 6, rules: [Loud, Loud]}}\n", "t.yaml:3:46: Loud is listed twice"},
		{"other game's rule", head + "roll: {unit: {name: A, die: 6, rules: [Quiet]}}\n",
			`t.yaml:3:40: "Quiet" is a Other Game rule (ruleset: other); a toy scenario takes Toy Game rules: Loud, Echo, Far`},
		{"unknown rule", head + "roll: {unit: {name: A, die: 6, rules: [Lod]}}\n", `t.yaml:3:40: unknown rule "Lod"; did you mean "Loud"?`},
		// A rule's value may be swept; each value is checked (Far takes 1 to 9).
		{"swept rule value", head + "roll: {unit: {name: A, die: 6, rules: [{Far: [3, 10]}]}}\n", "t.yaml:3:50: Far (10) is out of range; expected 1 to 9"},
		// A rule with a value cannot be swept off: say so, and how to
		// compare units with and without it.
		{"rule with a value swept off", head + "roll: {unit: {name: A, die: 6, rules: [{Far: [false, 3]}]}}\n",
			"t.yaml:3:47: Far takes a value, such as (1), and cannot be swept off and on; to compare units with and without it, sweep the units themselves (a list of units)"},
		{"rule with a value swept from none", head + "roll: {unit: {name: A, die: 6, rules: [{Far: [none, 3]}]}}\n",
			"t.yaml:3:47: Far takes a value, such as (1), and cannot be swept off and on; to compare units with and without it, sweep the units themselves (a list of units)"},
		{"same names", head + "roll: {unit: [{name: A, die: 6}, {name: A, die: 4}]}\n", `t.yaml:3:34: two units named "A" in one list`},
		// An end past the largest int is out of range as the value alone
		// would be, not a range with low above high.
		{"range past any int", head + "roll: {unit: {name: A, die: 6}, bonus: 9223372036854775808..9223372036854775808}\n", `t.yaml:3:40: bonus "9223372036854775808" is out of range`},
		{"range to past any int", head + "roll: {unit: {name: A, die: 6}, bonus: 1..99999999999999999999}\n", `t.yaml:3:40: bonus "99999999999999999999" is out of range`},
		{"sweep in a swept list", head + "roll: {unit: [{name: A, die: [4, 6]}, {name: B, die: 4}]}\n", "t.yaml:3:30: die sweeps inside a swept list"},
	}
	for _, tt := range tests {
		_, err := toys.Parse("t.yaml", []byte(tt.src))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s:\n got: %v\nwant: %s...", tt.name, err, tt.want)
		}
		var list ErrorList
		var one *Error
		if err != nil && !errors.As(err, &list) && !errors.As(err, &one) {
			t.Errorf("%s: error %T is not positioned", tt.name, err)
		}
	}
}

func TestRegistryPanicsOnTwins(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("two rulesets of one name were accepted")
		}
	}()
	NewRegistry(toy, toy)
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("name: t\nruleset: toy\nroll: {unit: {name: A, die: [4, 6], rules: [{Loud: [false, true]}]}, bonus: 0..3}\n"))
	f.Add([]byte("a: &x [1, *x]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := toys.Parse("fuzz.yaml", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml:") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		if len(s.Models) == 0 || len(s.Models) > MaxPoints {
			t.Fatalf("%d models", len(s.Models))
		}
	})
}

// TestLongKeyListsPrintedWhole: an unknown key's error lists every key
// the mapping takes, however many (here 40 keys of 20 bytes, 880 bytes
// of list, more than the 400 bytes a message's own text may take), while
// a long key quoted from the input is still cut short.
func TestLongKeyListsPrintedWhole(t *testing.T) {
	var fields []Field
	var keys []string
	for i := range 40 {
		k := fmt.Sprintf("a_rather_long_key_%02d", i)
		keys = append(keys, k)
		fields = append(fields, Field{Key: k, Decode: func(*Node) {}})
	}
	long := strings.Repeat("z", maxKeyLen) // the longest key read; the excerpt is 40
	n, err := parseYAML("t.yaml", []byte("zz: 1\n"+long+": 2\n"), scenarioYAML)
	if err != nil {
		t.Fatal(err)
	}
	d := &Decoder{file: "t.yaml"}
	d.Object(n, "the options", fields)
	if len(d.errs) != 2 {
		t.Fatalf("%d errors, want 2: %v", len(d.errs), d.errs)
	}
	want := `t.yaml:1:1: unknown key "zz" in the options; expected one of: ` + strings.Join(keys, ", ")
	if got := d.errs[0].Error(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	got := d.errs[1].Error()
	if !strings.HasSuffix(got, strings.Join(keys, ", ")) || strings.Count(got, "z") > excerptLen {
		t.Errorf("a long unknown key: %s", got)
	}
}

// TestProblemsCounted: a scenario with 30 unknown keys prints the first
// 20 problems, a line each, then a line counting the other 10; the list
// itself keeps all 30 (TestCatalogueProblemsCounted does the same for
// catalogues).
func TestProblemsCounted(t *testing.T) {
	var keys strings.Builder
	for i := range 30 {
		fmt.Fprintf(&keys, "bogus%d: 1\n", i)
	}
	_, err := toys.Parse("t.yaml", []byte("name: t\nruleset: toy\n"+keys.String()+"roll: {unit: {name: A, die: 6}}\n"))
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 30 {
		t.Fatalf("got %d problems (%v), want 30", len(list), err)
	}
	lines := strings.Split(err.Error(), "\n")
	// bogus19 is the 20th key, on line 22 (the keys start on line 3).
	if len(lines) != 21 || !strings.HasPrefix(lines[19], `t.yaml:22:1: unknown key "bogus19"`) || lines[20] != "... and 10 more problems" {
		t.Errorf("%d lines, ending:\n%s", len(lines), strings.Join(lines[max(0, len(lines)-2):], "\n"))
	}
	shown, more := list.Shown()
	if len(shown) != 20 || more != 10 {
		t.Errorf("Shown: %d and %d more, want 20 and 10 more", len(shown), more)
	}
	if got := (ErrorList{list[0]}).Error(); strings.Contains(got, "more") {
		t.Errorf("one problem: %q", got)
	}
	if got := list[:21].Error(); !strings.HasSuffix(got, "\n... and 1 more problem") {
		t.Errorf("21 problems end: %q", got[max(0, len(got)-40):])
	}
}
