package scenarios

import (
	"fmt"
	"strings"
	"testing"
)

// TestDirectives: a %YAML or %TAG directive before the one document, as
// YAML 1.2 allows (section 6.8), is taken; the document after it is still
// the file's only one.
func TestDirectives(t *testing.T) {
	doc := "name: t\nruleset: toy\nroll: {unit: {name: A, die: 6}}\n"
	for _, tc := range []struct{ name, src, err string }{
		{"%YAML", "%YAML 1.2\n---\n" + doc, ""},
		{"%YAML 1.1", "%YAML 1.1\n---\n" + doc, ""},
		{"%TAG", "%TAG ! tag:example.com,2000:\n---\n" + doc, ""},
		{"comments around it", "# my scenario\n%YAML 1.2 # the version\n\n--- # the document\n" + doc, ""},
		// The second document's body is at line 7: two lines of header,
		// three of doc, then "---".
		{"then two documents", "%YAML 1.2\n---\n" + doc + "---\nname: u\n", "t.yaml:7:1: a second YAML document; a scenario file holds one"},
		{"then nothing", "%YAML 1.2\n---\n", "t.yaml:1:1: the file is empty; expected a scenario mapping"},
		// The library reads "---", "---", a document as one empty
		// document; the second marker, at line 2 (line 4 after a comment
		// and a blank line), is a line too many.
		{"an empty first document", "---\n---\n" + doc, "t.yaml:2:1: a second YAML document begins here, after an empty first one; a scenario file holds one: remove a --- line"},
		{"an empty first document, commented", "# x\n---\n\n--- # again\n" + doc, "t.yaml:4:1: a second YAML document begins here"},
		{"two empty documents", "---\n---\n", "t.yaml:1:1: the file is empty"},
		// The YAML library takes one directive, then "---" at once; it
		// reports the first directive of those that break this.
		{"without ---", "%YAML 1.2\n" + doc, "t.yaml:1:1: expected --- after the directive; a file may open with one directive, such as %YAML 1.2, then ---"},
		{"two directives", "%YAML 1.2\n%TAG ! tag:example.com,2000:\n---\n" + doc, "t.yaml:1:1: expected --- after the directive"},
	} {
		_, err := toys.Parse("t.yaml", []byte(tc.src))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)):
			t.Errorf("%s:\n got: %v\nwant: %s...", tc.name, err, tc.err)
		}
	}
}

// TestYAMLMessages: where the YAML library's message says what it found
// but not what to write instead, the error says both, at the library's
// position; its other messages pass as they are.
func TestYAMLMessages(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		// The ? of the complex key is at line 4, column 3.
		{"complex key", "name: t\nruleset: toy\nroll:\n  ? unit\n  : {name: A, die: 6}\n",
			"t.yaml:4:3: complex keys (? key) are not supported; write key: value"},
		// The library points at the key after the tab: M, column 11.
		{"tab before a key", "{name: C,\tM: 5}\n",
			"t.yaml:1:11: a tab stands before this key; use spaces"},
		// At the |, column 14.
		{"text after |", "description: | b\n",
			`t.yaml:1:14: after | or > may come only an indentation indicator (1 to 9) and a chomping indicator (- or +), then the text on the lines below; found " b"`},
		{"text after >", "description: >x\n  y\n",
			`t.yaml:1:14: after | or > may come only an indentation indicator (1 to 9) and a chomping indicator (- or +), then the text on the lines below; found "x"`},
		// The line without a colon, from its start.
		{"no colon", "name: t\nruleset toy\n",
			`t.yaml:2:1: expected key: value, with a colon and a space after the key; found "ruleset toy"`},
		{"no colon, nested", "name: t\nruleset: toy\nroll:\n  bonus: 1\n  unit A\n",
			`t.yaml:5:3: expected key: value, with a colon and a space after the key; found "unit A"`},
		// No space after the colon of a mapping's first key: the library
		// reports the key below it ("unexpected key name" at the text,
		// or, with a comment between, "value is not allowed" at the next
		// key); the error names the first key's line and its text alone.
		{"first key glued", "name:t\nruleset: toy\n",
			`t.yaml:1:1: expected key: value, with a colon and a space after the key; found "name:t"`},
		{"first key glued, nested", "name: t\nruleset: toy\nroll:\n  unit:A b\n  bonus: 1\n",
			`t.yaml:4:3: expected key: value, with a colon and a space after the key; found "unit:A b"`},
		{"first key glued before a comment", "# c\n\nname:t # n\nruleset: toy\n",
			`t.yaml:3:1: expected key: value, with a colon and a space after the key; found "name:t"`},
		// The tab itself, the first character of line 3.
		{"tab indenting", "name: t\nroll:\n\tunit: 1\n",
			"t.yaml:3:1: a tab indents this line; indent with spaces"},
		// A bare - after a key, at the -: meant as none, it begins a list.
		{"bare dash", "name: t\nroll:\n  bonus: -\n  unit: 1\n",
			`t.yaml:3:10: a bare - after a key reads as the start of a list; for none, write "-" in quotes`},
		{"bare dash before a comment", "name: t\nroll:\n  bonus: -  # none\n  unit: 1\n",
			`t.yaml:3:10: a bare - after a key reads as the start of a list; for none, write "-" in quotes`},
		{"list on its key's line", "name: t\nroll:\n  rules: - Loud\n  unit: 1\n",
			"t.yaml:3:10: a list cannot begin on its key's line; write its items on the lines below (- item), or in brackets ([a, b])"},
		// A tab written as it is in a double-quoted value, at the tab: the
		// library runs the value on into the next line and reports what it
		// finds there (line 3 here, past the end of line 2).
		{"tab in a quoted value", "name: t\nroll:\n  unit: \"K\tX\"\n  bonus: 1\n",
			`t.yaml:3:11: a tab inside a double-quoted value, which the YAML reader cannot read; write \t for a tab, or a space`},
		{"tab in a quoted value in braces", "name: t\nroll: {unit: \"K\tX\", bonus: 1}\n",
			`t.yaml:2:16: a tab inside a double-quoted value`},
		// Quotes inside a plain value or a comment open nothing: the
		// library's own message stands.
		{"quotes in a plain value", "name: Ork's \"big\tone\" # a \"c\tx\"\nroll: {unit: 1\n",
			"t.yaml:2:7: YAML syntax: could not find flow mapping end token"},
		// A quote after a comma in a block's plain value opens nothing,
		// so the tab that indents line 4 is the problem.
		{"a comma and a quote in a plain value", "name: Knights, \"the best\nroll:\n  bonus: 1\n\tunit: 1\n",
			"t.yaml:4:1: a tab indents this line; indent with spaces"},
		// Nor does one in a block scalar's text.
		{"a quote in a block scalar", "description: |\n  \"a\tb\"\nroll: {unit: 1\n",
			"t.yaml:3:7: YAML syntax: could not find flow mapping end token"},
		// Nor a quote opening a plain value's continuation line, when the
		// error the library found is lines below it; nor an escaped tab.
		{"a quote on a continuation line", "name: Knights charge\n  \"the best\tones\nbonus: 1\nroll: {unit: 1\n",
			"t.yaml:4:7: YAML syntax: could not find flow mapping end token"},
		{"an escaped tab", "name: \"a\\\tb\"\nbonus: 1\nroll: {unit: 1\n",
			"t.yaml:3:7: YAML syntax: could not find flow mapping end token"},
		// A quoted value after an anchor is one.
		{"tab in a quoted value after an anchor", "name: &n \"a\tb\"\nroll:\n  unit: 1\n",
			`t.yaml:1:12: a tab inside a double-quoted value`},
		// In a list's item it does.
		{"tab in a quoted list item", "name: t\nroll:\n  unit:\n  - \"K\tX\"\n  bonus: 1\n",
			`t.yaml:4:7: a tab inside a double-quoted value`},
		// Every construct a scenario may not use is reported, each at its
		// place, in the order written.
		{"a tag, a merge key and an unknown alias", "name: !!str t\nbase: &b {die: 6}\nroll: {unit: {<<: *b, name: A, die: *nope}}\n",
			"t.yaml:1:7: YAML tags such as !!str are not used in scenarios; remove it\n" +
				"t.yaml:3:15: merge keys (<<) are not supported; write the keys out\n" +
				`t.yaml:3:37: alias *"nope" names no anchor defined before it`},
		// An alias inside its own anchor's value: the anchor is above
		// it, but its value is not whole yet (line 3's &r).
		{"alias inside its own anchor", "name: t\nruleset: toy\nroll: &r\n  unit: {name: A, die: 6}\n  again: *r\n",
			`t.yaml:5:10: alias *"r" stands inside the value of its own anchor &"r" (line 3), which would then hold itself; write the value out`},
		{"other syntax", "name: [t\n", "t.yaml:1:7: YAML syntax: "},
	} {
		_, err := toys.Parse("t.yaml", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n got: %v\nwant: %s...", tc.name, err, tc.want)
		}
	}
}

// TestAliasPlacedWhereUsed: a scalar repeated by an alias is placed at the
// alias, where the problem with it is (an unknown key, a value of the
// wrong kind), not at its anchor, whose use there is sound.
func TestAliasPlacedWhereUsed(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"an alias as an unknown key", "name: &n t\nruleset: toy\nroll:\n  unit: {name: A, die: 6}\n  *n : 3\n", "t.yaml:5:3: unknown key \"t\""},
		{"an alias as a wrong value", "name: t\nruleset: toy\nroll:\n  unit: {name: &a A, die: *a}\n", "t.yaml:4:27: expected die as a whole number"},
	} {
		_, err := toys.Parse("t.yaml", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n got: %v\nwant: %s...", tc.name, err, tc.want)
		}
	}
}

// TestRefusedConstructsOnce: a construct a scenario may not use is one
// error, not followed by another about what it left behind (a key read as
// "nothing"), nor are the keys after a file's value bound.
func TestRefusedConstructsOnce(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for i := 1; i < 10; i++ {
		name := fmt.Sprintf("a%d", i)
		bomb += name + ": &" + name + " [" + strings.Repeat("*"+prev+", ", 8) + "*" + prev + "]\n"
		prev = name
	}
	for _, tc := range []struct{ name, src, want string }{
		{"a tag on a key", "name: t\n!!str ruleset: toy\n", "t.yaml:2:1: YAML tags such as !!str are not used in scenarios; remove it"},
		{"an alias as a key", "name: t\n*nope : toy\n", `t.yaml:2:1: alias *"nope" names no anchor defined before it`},
		{"a complex key", "name: t\n? ruleset\n: toy\n", "t.yaml:2:1: complex keys (? key) are not supported; write key: value"},
		{"two complex keys", "name: t\n? ruleset\n: toy\n? trials\n: 5\n",
			"t.yaml:2:1: complex keys (? key) are not supported; write key: value\nt.yaml:4:1: complex keys (? key) are not supported; write key: value"},
		// A complex key that repeats a plain one: the library's
		// duplicate-key check comes first, and names the indicator.
		{"a complex key repeating a key", "name: t\nruleset: toy\n? ruleset\n: toy\n", "t.yaml:3:1: complex keys (? key) are not supported; write key: value"},
		{"a merge key's unknown alias", "name: t\nroll: {<<: *nope, bonus: 1}\n",
			"t.yaml:2:8: merge keys (<<) are not supported; write the keys out\nt.yaml:2:12: alias *\"nope\" names no anchor defined before it"},
		{"an alias bomb", bomb, "t.yaml:5:15: more than 20000 values in one file, aliases counted at each use; a scenario needs far fewer"},
	} {
		_, err := toys.Parse("t.yaml", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got: %v\nwant: %s", tc.name, err, tc.want)
		}
	}
}
