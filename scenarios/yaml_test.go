package scenarios

import (
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
