package main

import (
	"strings"
	"testing"
)

// TestQuestionTitles: each question titles the metrics whose names could
// be misread beside a unit's name, and only those. A Fantasy battle's
// per-unit wounds are the wounds the unit suffered, its points metrics
// the target's losses, its combat result the attacker's less the
// target's, and its round cap an event (a combat cut off at 50 rounds,
// mechanics/fantasy's MaxRounds), not a thing; a Heresy assault's
// per-unit wounds are the hits that wounded it, before saves (not wounds
// it suffered: they may outnumber its Wounds); a Heresy shooting's wounds,
// reported for the target alone, keep their name.
func TestQuestionTitles(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		metrics  string
		want     []string
		not      []string
	}{
		// Its points metrics are the target's losses, and its combat
		// result the attacker's less the target's.
		{"doomwheel-vs-clanrats", "wounds,models_killed,wounds_per_100_points,models_killed_per_100_points,combat_result",
			[]string{"\nwounds suffered (wounds, mean)\n", "\nmodels lost (models_killed, mean)\n",
				"\ntarget's wounds per 100 attacker points (wounds_per_100_points, mean)\n",
				"\ntarget's models lost per 100 attacker points (models_killed_per_100_points, mean)\n",
				"\ncombat result, attacker's less target's (combat_result, mean)\n"},
			[]string{"\nwounds (mean)\n", "\nwounds_per_100_points (mean)\n", "\ncombat_result (mean)\n"}},
		{"flank-charge", "round_cap",
			[]string{"\ncombat stopped at the 50-round cap (round_cap, probability)\n"},
			[]string{"\nround_cap (probability)\n"}},
		{"stupefied-charge", "hits,wounds,unsaved_wounds,casualties",
			[]string{"\nhits taken (hits, mean)\n", "\nwounding hits taken (wounds, mean)\n", "\nunsaved wounds taken (unsaved_wounds, mean)\n", "\nmodels lost (casualties, mean)\n"},
			[]string{"wounds suffered"}},
		{"stupefied-vs-bolters", "wounds,casualties",
			[]string{"\nwounds (mean)\n", "\ncasualties (mean)\n"},
			[]string{"taken", "suffered"}},
	} {
		out, stderr, err := runCLI(t, "run", tc.scenario, "--metrics", tc.metrics, "--trials", "1000", "--progress", "never")
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.scenario, err, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q", tc.scenario, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(out, n) {
				t.Errorf("%s: holds %q", tc.scenario, n)
			}
		}
	}
}
