package main

import (
	"encoding/json"
	"strings"
	"testing"

	"hammersim/cmd/simulate/internal/web"
	"hammersim/scenarios"
)

// TestHeresyMetricsFlag: --metrics overrides a Horus Heresy scenario's
// metrics key as it does a Fantasy one's, and /api/validate offers every
// metric the question has, not only those its key names.
// firing-protocols' key names hits, unsaved_wounds and casualties.
func TestHeresyMetricsFlag(t *testing.T) {
	out, _, err := runCLI(t, "run", "firing-protocols", "--metrics", "wounds", "--trials", "2000", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(out), "\n")[1:]
	for _, line := range rows {
		if !strings.Contains(line, ",wounds,") {
			t.Errorf("a metric not asked for: %s", line)
		}
	}
	// firing-protocols sweeps Firing Protocols 1 to 3 against two targets.
	if len(rows) != 3*2 {
		t.Errorf("%d rows of wounds, want 6", len(rows))
	}

	src, _ := scenarios.Builtin("firing-protocols")
	ts := newTestServer(t, web.Config{})
	_, body := post(t, ts.URL+"/api/validate", "application/yaml", src)
	var v struct {
		OK      bool
		Metrics []string
	}
	if err := json.Unmarshal(body, &v); err != nil || !v.OK {
		t.Fatalf("%s %v", body, err)
	}
	// Every shooting metric, in the question's order (docs/heresy.md).
	want := "hits wounds unsaved_wounds mitigated casualties destroyed morale_failed pinned concussed reacted return_fire_casualties return_fire_gets_hot next_attack_casualties next_attack_gets_hot gets_hot chose_stupefied"
	if got := strings.Join(v.Metrics, " "); got != want {
		t.Errorf("/api/validate metrics:\n got: %s\nwant: %s", got, want)
	}
}
