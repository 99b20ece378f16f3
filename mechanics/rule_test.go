package mechanics

import (
	"errors"
	"testing"
)

var testCatalogue = Catalogue{
	{Name: "Swiftstride"},
	{Name: "Fly", Arg: IntArg, Min: 1, Max: 30},
	{Name: "Random Movement", Arg: DiceArg},
	{Name: "Tunneller", Aliases: []string{"Tunneler"}, Arg: IntArg, Min: 1, Max: 30},
	{Name: "Immunity", Arg: WordsArg, Words: []string{"psychology", "fear"}},
	{Name: "Poisoned", Arg: SaveArg, Bare: "4+"},
	{Name: "Multiple Wounds", Arg: DiceArg, Min: 1},
}

func TestParseRule(t *testing.T) {
	tests := []struct {
		in   string
		name string
		int  int
		dice string
	}{
		{"Swiftstride", "Swiftstride", 0, "0"},
		{"swiftstride", "Swiftstride", 0, "0"},
		{"Fly (9)", "Fly", 9, "0"},
		{"Fly(10)", "Fly", 10, "0"},
		{"Random Movement (3D6)", "Random Movement", 0, "3D6"},
		{"random-movement ( 4d6 )", "Random Movement", 0, "4D6"},
		{"Tunneler (9)", "Tunneller", 9, "0"},
		{"Immunity (Psychology)", "Immunity", 0, "0"},
		{"Poisoned (3+)", "Poisoned", 3, "0"},
		{"Poisoned", "Poisoned", 4, "0"}, // its Bare value
		{"Random Movement (D6-1)", "Random Movement", 0, "D6-1"},
		{"Multiple Wounds (D3)", "Multiple Wounds", 0, "D3"},
	}
	for _, tt := range tests {
		r, err := testCatalogue.Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if r.Spec.Name != tt.name || r.Int != tt.int || r.Dice.String() != tt.dice {
			t.Errorf("Parse(%q) = %s %d %s", tt.in, r.Spec.Name, r.Int, r.Dice)
		}
	}
}

// onlyDice ends the message for dice that only simulate dice reads.
const onlyDice = ", which only simulate dice reads; a profile's or a rule's dice are added up, such as D6, 2D6, D3+1 or 3D6kh2"

func TestParseRuleErrors(t *testing.T) {
	tests := []struct {
		in  string
		col int
		msg string
	}{
		{"Swiftstrid", 1, `unknown rule "Swiftstrid"; did you mean "Swiftstride"?`},
		{"Teleport", 1, `unknown rule "Teleport"`},
		{"Fly", 4, "Fly needs a value in brackets, such as (1)"},
		{"Fly (x)", 6, `Fly needs a whole number in brackets, found "x"`},
		{"Fly (99)", 6, "Fly (99) is out of range; expected 1 to 30"},
		// Past an int: out of range too, not "not a whole number".
		{"Fly (99999999999999999999)", 6, "Fly (99999999999999999999) is out of range; expected 1 to 30"},
		{"Fly (-99999999999999999999)", 6, "Fly (-99999999999999999999) is out of range; expected 1 to 30"},
		{"Swiftstride (2)", 14, "Swiftstride takes no value in brackets"},
		{"Random Movement (3D)", 20, `Random Movement: expected the number of sides after "D", found end of expression`},
		// What only simulate dice reads is named, at the column where it
		// starts in the rule's text.
		{"Random Movement (artillery)", 18, `Random Movement: "artillery" is the Artillery dice` + onlyDice},
		{"Random Movement (scatter)", 18, `Random Movement: "scatter" is the Scatter dice` + onlyDice},
		{"Random Movement (2D6r1)", 21, `Random Movement: "r1" re-rolls dice` + onlyDice},
		{"Random Movement (D6 reroll 1s)", 21, `Random Movement: "reroll 1s" re-rolls dice` + onlyDice},
		{"Random Movement (D6r<3)", 20, `Random Movement: "r<3" re-rolls dice` + onlyDice},
		{"Random Movement (2D6 explode)", 22, `Random Movement: "explode" makes exploding dice` + onlyDice},
		{"Random Movement (D6!)", 20, `Random Movement: "!" makes exploding dice` + onlyDice},
		{"Random Movement (10D6 count 4+)", 23, `Random Movement: "count 4+" counts successes` + onlyDice},
		{"Random Movement (2D6 >= 5)", 22, `Random Movement: "2D6 >= 5" is a condition` + onlyDice},
		// A typo is told what was expected where it stands.
		{"Random Movement (2D6r7)", 21, `Random Movement: unknown word "r"; expected kh, kl, discard, + or -`},
		// No dice roll below zero; a DiceArg with a Min rolls no less.
		{"Random Movement (D6-3)", 18, "Random Movement (D6-3) can roll below zero"},
		{"Multiple Wounds (0)", 18, "Multiple Wounds (0) can roll 0; it must roll at least 1"},
		{"Multiple Wounds (D3-1)", 18, "Multiple Wounds (D3-1) can roll 0; it must roll at least 1"},
		{"Multiple Wounds (D3-3)", 18, "Multiple Wounds (D3-3) can roll -2; it must roll at least 1"},
		{"Fly (9", 7, `missing ")" after the rule's value`},
		{"Fly (9) x", 9, `unexpected "x" after ")"`},
		{"Fly ()", 5, "empty brackets; expected the rule's value, such as (3D6) or (9)"},
		{"Immunity (Poison)", 11, "Immunity (Poison) is not known; expected one of: psychology, fear"},
		// A score, which is a roll a rule needs as often as a save.
		{"Poisoned (7+)", 11, `Poisoned needs a score from 1+ to 6+ in brackets, found "7+"`},
		// A bare number is a modifier elsewhere: the message says how a
		// score is written.
		{"Poisoned (4)", 11, `Poisoned needs a score from 1+ to 6+ in brackets, found "4"; write 4+`},
		{"", 1, "expected a rule name"},
	}
	for _, tt := range tests {
		_, err := testCatalogue.Parse(tt.in)
		var te *TextError
		if !errors.As(err, &te) {
			t.Errorf("Parse(%q) = %v, want a *TextError", tt.in, err)
			continue
		}
		msg := te.Msg
		if te.Expected != "" {
			msg += "; " + te.Expected
		}
		if te.Col != tt.col || msg != tt.msg {
			t.Errorf("Parse(%q) = column %d %q, want column %d %q", tt.in, te.Col, msg, tt.col, tt.msg)
		}
	}
}

func TestID(t *testing.T) {
	if got := ID("Random  Movement"); got != "random_movement" {
		t.Errorf("ID = %q", got)
	}
}

// TestParseOnSuggests: a misspelt name is offered the rules its list may
// hold first, and rules for anything to any list; a rule of another list
// only when none of its own is near, marked as the other list's. "Bulst" is two edits from
// both Bulky and Blast; of names equally near the catalogue's first wins.
func TestParseOnSuggests(t *testing.T) {
	c := Catalogue{
		{Name: "Bulky", On: OnModel, Arg: IntArg, Min: 1, Max: 50},
		{Name: "Blast", On: OnWeapon},
		{Name: "Swiftstride"},
	}
	tests := []struct {
		in   string
		on   Holder
		want string
	}{
		{"Bulst", AnyHolder, `unknown rule "Bulst"; did you mean "Bulky"?`},
		{"Bulst", OnModel, `unknown rule "Bulst"; did you mean "Bulky"?`},
		{"Bulst", OnWeapon, `unknown rule "Bulst"; did you mean "Blast"?`},
		// Nothing near among the list's own rules: the near rule of
		// another list is offered, saying whose rule it is.
		{"Bulk", OnWeapon, `unknown rule "Bulk"; did you mean "Bulky"? (a model's rule)`},
		{"Blsat", OnModel, `unknown rule "Blsat"; did you mean "Blast"? (a weapon rule)`},
		{"Bulkhead", OnWeapon, `unknown rule "Bulkhead"`},
		{"Swiftstrid", OnWeapon, `unknown rule "Swiftstrid"; did you mean "Swiftstride"?`},
	}
	for _, tt := range tests {
		_, err := c.ParseOn(tt.in, tt.on)
		var te *TextError
		if !errors.As(err, &te) || te.Msg != tt.want {
			t.Errorf("ParseOn(%q, %d): %v, want %s", tt.in, tt.on, err, tt.want)
		}
	}
	// A known rule is read on any list; the ruleset that applies it says
	// where it does not belong.
	if r, err := c.ParseOn("Blast", OnModel); err != nil || r.Spec.Name != "Blast" {
		t.Errorf("ParseOn(Blast, OnModel) = %v, %v", r.Spec, err)
	}
}
