package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// writeScenario writes src to a file of its own and returns its path.
func writeScenario(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCompareMissingAllNull: compared by points, a chariot at 0 points
// reports no models_killed_per_100_points; every number of its estimate
// in the JSON is null, its sd and quantiles included, not a measured 0.
func TestCompareMissingAllNull(t *testing.T) {
	path := writeScenario(t, "pts.yaml", `name: pts
ruleset: fantasy
battle:
  attacker: {name: A1, troop: Chariot, profile: M8 WS3 S5 T5 W4 I3 A0 Ld7, rules: [Impact Hits (D6)], points: [0, 50]}
  target: {name: T1, models: 30, width: 6, profile: M5 WS3 S3 T3 I4 A0 Ld5}
  distance: 2
  phases: [charge, combat]
  options: {rounds: 1, pursue: false}
`)
	out, _, err := runCLI(t, "compare", path, "--by", "points", "--trials", "960", "--metrics", "models_killed_per_100_points,models_killed", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rows []struct {
			Metric    string                       `json:"metric"`
			Estimates []map[string]json.RawMessage `json:"estimates"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	found := false
	for _, row := range doc.Rows {
		if row.Metric != "models_killed_per_100_points" {
			continue
		}
		found = true
		e := row.Estimates[0]
		if string(e["candidate"]) != `"points=0"` || string(e["trials"]) != "0" {
			t.Errorf("first estimate: candidate %s, trials %s; want points=0 with 0 trials", e["candidate"], e["trials"])
		}
		for _, key := range []string{"estimate", "se", "exact", "z", "sd", "median", "p05", "p95"} {
			if string(e[key]) != "null" {
				t.Errorf("points=0 %s: %s, want null", key, e[key])
			}
		}
		if string(e["ci95"]) != "[null, null]" && string(e["ci95"]) != "[null,null]" {
			t.Errorf("points=0 ci95: %s, want [null, null]", e["ci95"])
		}
	}
	if !found {
		t.Fatalf("no models_killed_per_100_points row in\n%s", out)
	}
}

// TestBalanceGridEitherOrder: two chariots against two targets, only one
// chariot with points. Whichever is listed first, the per-100-points
// table is the attackers-by-targets grid, the chariot without points a
// row of "-" and the other a row of figures.
func TestBalanceGridEitherOrder(t *testing.T) {
	chariot := "troop: Chariot, profile: M8 WS3 S5 T5 W4 I3 A0 Ld7, rules: [Impact Hits (D6)]"
	for _, order := range [][2]string{{", points: 50", ""}, {"", ", points: 50"}} {
		path := writeScenario(t, "grid.yaml", `name: grid
ruleset: fantasy
battle:
  attacker:
    - {name: A1, `+chariot+order[0]+`}
    - {name: A2, `+chariot+order[1]+`}
  target:
    - {name: T1, models: 30, width: 6, profile: M5 WS3 S3 T3 I4 A0 Ld5}
    - {name: T2, models: 30, width: 6, profile: M5 WS3 S3 T4 I4 A0 Ld5}
  distance: 2
  phases: [charge, combat]
  options: {rounds: 1, pursue: false}
`)
		out, _, err := runCLI(t, "run", path, "--trials", "200", "--metrics", "models_killed_per_100_points")
		if err != nil {
			t.Fatal(err)
		}
		without, with := "A2", "A1"
		if order[0] == "" {
			without, with = "A1", "A2"
		}
		for _, re := range []string{
			`\| attacker \\ target \| +T1 \| +T2 \|`,
			`\| ` + without + ` +\| +- \| +- \|`,
			`\| ` + with + ` +\| +\d+\.\d\d \| +\d+\.\d\d \|`,
		} {
			if !regexp.MustCompile(re).MatchString(out) {
				t.Errorf("points on %s: no line matching %s in\n%s", with, re, out)
			}
		}
	}
}
