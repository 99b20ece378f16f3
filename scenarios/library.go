package scenarios

import (
	"embed"
	"path"
	"slices"
	"strings"
)

//go:embed library/*.yaml
var library embed.FS

// DefaultScenario is what simulate runs when given no arguments.
const DefaultScenario = "swiftstride-charge"

// Builtin returns the text of the built-in scenario with the given name.
func Builtin(name string) ([]byte, bool) {
	if !nameRE.MatchString(name) {
		return nil, false
	}
	src, err := library.ReadFile("library/" + name + ".yaml")
	return src, err == nil
}

// BuiltinNames lists the built-in scenarios in alphabetical order.
func BuiltinNames() []string {
	entries, _ := library.ReadDir("library")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), path.Ext(e.Name())))
	}
	slices.Sort(names)
	return names
}

// BuiltinsOf lists the built-in scenarios written for the named ruleset,
// in alphabetical order: each ruleset's tests run its own.
func BuiltinsOf(ruleset string) []string {
	var names []string
	for _, name := range BuiltinNames() {
		src, _ := Builtin(name)
		root, err := parseYAML(name, src, scenarioYAML)
		if err != nil || root.Kind != MapNode {
			continue
		}
		for i, k := range root.Keys {
			if k.Text == "ruleset" && root.Vals[i].Text == ruleset {
				names = append(names, name)
			}
		}
	}
	return names
}
