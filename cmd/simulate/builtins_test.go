package main

import (
	"testing"

	"hammersim/scenarios"
)

// TestBuiltinsGolden pins the JSON of every built-in scenario at a fixed
// seed and a modest trial count, so that any change to what a question
// computes, or to the numbers it prints, shows up as a diff of
// testdata/builtins/NAME.json. 3,000 trials per point keep the whole
// library to a few seconds.
func TestBuiltinsGolden(t *testing.T) {
	for _, name := range scenarios.BuiltinNames() {
		out, _, err := runCLI(t, "run", name, "--trials", "3000", "--seed", "5", "--format", "json", "--progress", "never")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		golden(t, "builtins/"+name+".json", []byte(out))
	}
}
