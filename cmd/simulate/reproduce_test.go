package main

import (
	"testing"

	"hammersim/sim"
)

// TestReproduceFileLikeAFlag: a scenario file whose name starts with "-"
// (run with "--" before it) is named in the reproduce line so that the
// line reads it as a file again, not as a flag; standard input stays "-".
func TestReproduceFileLikeAFlag(t *testing.T) {
	cfg := sim.Config{Seed: 1, Trials: 1000}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-o"}, "simulate run ./-o --seed 1 --trials 1000"},
		{[]string{"-"}, "simulate run - --seed 1 --trials 1000"},
		{[]string{"a.yaml", "--x y"}, "simulate run a.yaml './--x y' --seed 1 --trials 1000"}, // as compare names two
	} {
		if got := reproduce("run", fileArgs(tt.args...), cfg); got != tt.want {
			t.Errorf("reproduce(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}
