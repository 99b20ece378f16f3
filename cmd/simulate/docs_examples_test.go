package main

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"hammersim/scenarios"
	"hammersim/scenarios/fantasy"
	"hammersim/scenarios/heresy"
)

// docFiles are the pages whose YAML examples must load: the README and
// every page under docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs/*.md found (%v)", err)
	}
	return append([]string{"../../README.md"}, files...)
}

// docExample is one ```yaml block of a page, and the line its text starts on.
type docExample struct {
	file string
	line int
	text string
}

// yamlBlocks returns the ```yaml blocks of a Markdown page, each with the
// indentation of its opening fence taken off (a block inside a list item).
func yamlBlocks(t *testing.T, file string) []docExample {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	var out []docExample
	for i := 0; i < len(lines); i++ {
		fence := strings.TrimLeft(lines[i], " ")
		if strings.TrimSpace(fence) != "```yaml" {
			continue
		}
		indent := len(lines[i]) - len(fence)
		var body []string
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			l := lines[j]
			if len(l) >= indent && strings.TrimSpace(l[:indent]) == "" {
				l = l[indent:]
			}
			body = append(body, l)
		}
		if j == len(lines) {
			t.Fatalf("%s:%d: a ```yaml block that never closes", file, i+1)
		}
		out = append(out, docExample{file: file, line: i + 2, text: strings.Join(body, "\n") + "\n"})
		i = j
	}
	return out
}

var topKeyRE = regexp.MustCompile(`(?m)^([A-Za-z_][A-Za-z0-9_]*):`)

// topKeys are the keys a block writes at its left margin.
func topKeys(text string) []string {
	var keys []string
	for _, m := range topKeyRE.FindAllStringSubmatch(text, -1) {
		keys = append(keys, m[1])
	}
	return keys
}

// questionRulesets maps each question key to the ruleset that asks it.
func questionRulesets() map[string]string {
	out := map[string]string{}
	for _, rs := range []*scenarios.Ruleset{fantasy.Ruleset(), heresy.Ruleset()} {
		for q := range rs.Questions {
			out[q] = rs.Name
		}
	}
	return out
}

// withoutComments is a scenario's text without its comments and blank
// lines, and without the spaces that end a line: what a reader copies.
func withoutComments(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if i := strings.Index(l, " #"); i >= 0 {
			l = l[:i]
		}
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			l = ""
		}
		if l = strings.TrimRight(l, " "); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestDocExamplesLoad runs every ```yaml example of the README and of
// docs/ as a reader who copies it would, so that the pages cannot drift
// from what the program reads. An example is one of:
//
//   - a whole scenario (it has a question key and name): run with 1,000
//     trials, in JSON, which must parse. When its name is a built-in's, it
//     must be that built-in, comments aside, as the page says;
//   - a question alone (charge:, battle:, ...): the same, under a name and
//     the ruleset that asks it;
//   - a unit catalogue (ruleset: and units:, no question): read with
//     `simulate units --units FILE`, which checks every card.
//
// A fragment (a few keys of a unit) belongs in a block that is not marked
// yaml; a yaml block that is none of the above fails here.
func TestDocExamplesLoad(t *testing.T) {
	asks := questionRulesets()
	n := 0
	for _, file := range docFiles(t) {
		for _, ex := range yamlBlocks(t, file) {
			n++
			where := filepath.Base(ex.file) + ":" + strconv.Itoa(ex.line)
			keys := topKeys(ex.text)
			var question string
			for _, k := range keys {
				if asks[k] != "" {
					question = k
				}
			}
			dir := t.TempDir()
			path := filepath.Join(dir, "example.yaml")
			text := ex.text
			switch {
			case question != "" && slices.Contains(keys, "name"):
			case question != "" && !slices.Contains(keys, "ruleset"):
				text = "name: docs-example\nruleset: " + asks[question] + "\n" + text
			case question == "" && slices.Contains(keys, "ruleset") && slices.Contains(keys, "units"):
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				if _, stderr, err := runCLI(t, "units", "--units", path); err != nil {
					t.Errorf("%s: the unit catalogue does not load: %v\n%s", where, err, stderr)
				}
				continue
			default:
				t.Errorf("%s: a yaml block that is neither a scenario, a question (%s) nor a unit catalogue; "+
					"show a fragment in a block not marked yaml", where, strings.Join(slices.Sorted(maps.Keys(asks)), ", "))
				continue
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			out, stderr, err := runCLI(t, "run", path, "--trials", "1000", "--format", "json", "--progress", "never")
			if err != nil {
				t.Errorf("%s: the example does not run: %v\n%s", where, err, stderr)
				continue
			}
			var got struct {
				Scenario string
				Results  []json.RawMessage
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Results) == 0 {
				t.Errorf("%s: the run's JSON has no results (%v)", where, err)
				continue
			}
			if src, ok := scenarios.Builtin(got.Scenario); ok && withoutComments(ex.text) != withoutComments(string(src)) {
				t.Errorf("%s: the example is named %s, a built-in, but differs from it (simulate show %s):\n%s",
					where, got.Scenario, got.Scenario, withoutComments(ex.text))
			}
		}
	}
	// README: one scenario; scenarios.md: the sweeps, a catalogue, cards in
	// use, the three questions; heresy.md: a shooting scenario. Fewer would
	// mean blocks went unseen (a changed fence).
	if n < 8 {
		t.Errorf("found %d yaml examples in the docs; expected at least 8", n)
	}
}

// keyPlaces are the mappings a scenario holds, each with a scenario whose
// mapping has the unknown key zz_unknown (the loader's error then lists
// every key the mapping takes), and the doc sections that must name each
// of those keys in code spans.
var keyPlaces = []struct {
	what     string // the mapping, as the loader's error names it
	scenario string
	doc      string
	sections []string
}{
	{"the scenario", "name: x\nruleset: fantasy\nzz_unknown: 1\ncharge: {unit: {name: A, M: 4}, distance: 5}\n",
		"scenarios.md", []string{"## Top level"}},
	{"the charge", "name: x\nruleset: fantasy\ncharge: {unit: {name: A, M: 4}, distance: 5, zz_unknown: 1}\n",
		"scenarios.md", []string{"### `charge`", "## Choosing metrics"}},
	{"the pursuit", "name: x\nruleset: fantasy\npursuit: {fleeing: {name: A, M: 4}, pursuing: {name: B, M: 4}, zz_unknown: 1}\n",
		"scenarios.md", []string{"### `pursuit`", "## Choosing metrics"}},
	{"the battle", "name: x\nruleset: fantasy\nbattle: {attacker: {name: A, M: 4}, target: {name: B, M: 4}, distance: 1, phases: [combat], zz_unknown: 1}\n",
		"scenarios.md", []string{"### `battle`", "## Choosing metrics"}},
	{"the battle's options", "name: x\nruleset: fantasy\nbattle: {attacker: {name: A, M: 4}, target: {name: B, M: 4}, distance: 1, phases: [combat], options: {zz_unknown: 1}}\n",
		"scenarios.md", []string{"### `battle`"}},
	{"a unit", "name: x\nruleset: fantasy\ncharge: {unit: {name: A, M: 4, zz_unknown: 1}, distance: 5}\n",
		"scenarios.md", []string{"## Units (fantasy)"}},
	{"a unit", "name: x\nruleset: fantasy\nbattle: {attacker: {name: A, M: 4}, target: {name: B, M: 4}, distance: 1, phases: [combat], others: [{name: C, side: friend, distance: 3, zz_unknown: 1}]}\n",
		"scenarios.md", []string{"## Units (fantasy)", "### `battle`"}},
	{"a crew profile", "name: x\nruleset: fantasy\ncharge: {unit: {name: A, M: 4, crew: [{name: c, zz_unknown: 1}]}, distance: 5}\n",
		"scenarios.md", []string{"## Units (fantasy)"}},
	{"the champion", "name: x\nruleset: fantasy\ncharge: {unit: {name: A, M: 4, champion: {name: c, zz_unknown: 1}}, distance: 5}\n",
		"scenarios.md", []string{"## Units (fantasy)"}},
	{"the shooting question", "name: x\nruleset: heresy\nshooting: {firer: {name: A, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+, weapons: [{name: b, range: 24, S: 4, AP: 5}]}, target: {name: B, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}, zz_unknown: 1}\n",
		"heresy.md", []string{"## Questions", "## Open points (`options`)"}},
	{"the assault", "name: x\nruleset: heresy\nassault: {attacker: {name: A, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}, defender: {name: B, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}, zz_unknown: 1}\n",
		"heresy.md", []string{"## Questions", "## Open points (`options`)"}},
	{"a unit", "name: x\nruleset: heresy\nshooting: {firer: {name: A, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+, weapons: [{name: b, range: 24, S: 4, AP: 5}]}, target: {name: B, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+, zz_unknown: 1}}\n",
		"heresy.md", []string{"## Units"}},
	{"a unit", "name: x\nruleset: heresy\nassault: {attacker: {name: A, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}, defender: {name: B, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+, zz_unknown: 1}}\n",
		"heresy.md", []string{"## Units"}},
	{"a weapon", "name: x\nruleset: heresy\nshooting: {firer: {name: A, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+, weapons: [{name: b, range: 24, S: 4, AP: 5, zz_unknown: 1}]}, target: {name: B, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}}\n",
		"heresy.md", []string{"## Units"}},
	{"the options", "name: x\nruleset: heresy\nshooting: {firer: {name: A, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+, weapons: [{name: b, range: 24, S: 4, AP: 5}]}, target: {name: B, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}, options: {zz_unknown: 1}}\n",
		"heresy.md", []string{"## Open points (`options`)"}},
	{"the options", "name: x\nruleset: heresy\nassault: {attacker: {name: A, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}, defender: {name: B, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}, options: {zz_unknown: 1}}\n",
		"heresy.md", []string{"## Open points (`options`)"}},
	{"the grid", "name: x\nruleset: heresy\nshooting: {firer: {name: A, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+, weapons: [{name: b, range: 24, S: 4, AP: 5}]}, target: {name: B, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}, grid: {zz_unknown: 1}}\n",
		"heresy.md", []string{"## Questions"}},
	{"a missile weapon", "name: x\nruleset: fantasy\ncharge: {unit: {name: A, M: 4, missile: {S: 3, range: 24, zz_unknown: 1}}, distance: 5}\n",
		"scenarios.md", []string{"## Units (fantasy)"}},
}

var codeSpanRE = regexp.MustCompile("`[^`\n]+`")
var wordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// sectionWords are the words written in code spans in the named sections
// of a doc, headings included (a section runs to the next heading of its
// level or above).
func sectionWords(t *testing.T, doc string, sections []string) map[string]bool {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("../../docs", doc))
	if err != nil {
		t.Fatal(err)
	}
	words := map[string]bool{}
	for _, heading := range sections {
		level := strings.Index(heading, " ")
		var in, found bool
		for _, l := range strings.Split(string(src), "\n") {
			if strings.HasPrefix(l, "#") {
				lv := strings.Index(l, " ")
				switch {
				case l == heading:
					in, found = true, true
				case lv > 0 && lv <= level:
					in = false
				}
			}
			if in {
				for _, span := range codeSpanRE.FindAllString(l, -1) {
					for _, w := range wordRE.FindAllString(span, -1) {
						words[w] = true
					}
				}
			}
		}
		if !found {
			t.Fatalf("docs/%s has no section %q", doc, heading)
		}
	}
	return words
}

// TestDocsNameEveryKey checks that every key the loader takes in a Fantasy
// scenario (and the header every scenario shares) is named where
// docs/scenarios.md describes that mapping: a key added to the loader
// without a word in the docs fails here.
func TestDocsNameEveryKey(t *testing.T) {
	for _, p := range keyPlaces {
		_, err := registry.Parse("x.yaml", []byte(p.scenario))
		var list scenarios.ErrorList
		if !errors.As(err, &list) {
			t.Fatalf("%s: expected the loader to refuse zz_unknown, got %v", p.what, err)
		}
		var keys []string
		for _, e := range list {
			if _, after, ok := strings.Cut(e.Message(), `unknown key "zz_unknown" in `+p.what+"; expected one of: "); ok {
				keys = strings.Split(after, ", ")
			}
		}
		if len(keys) == 0 {
			t.Fatalf("%s: no list of keys in the loader's errors: %v", p.what, err)
		}
		words := sectionWords(t, p.doc, p.sections)
		for _, k := range keys {
			if !words[k] {
				t.Errorf("%s takes the key %q, which docs/%s does not name under %s", p.what, k, p.doc, strings.Join(p.sections, " or "))
			}
		}
	}
}
