package fantasy

import (
	"context"
	"math"
	"testing"

	"hammersim/sim"
)

// runFantasy parses a fantasy scenario and runs it.
func runFantasy(t *testing.T, src string, trials int64, seed uint64) []sim.Estimate {
	t.Helper()
	s, err := registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: trials, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return s.Results(run)
}

// TestPer100PointsZ: a chariot (S3, Impact Hits (D6), 50 points) charges
// 2" into rats with T3, armour 2+ and ward 2+, and nothing else strikes.
// Each of its D6 hits kills with chance 1/2 (S3 against T3) x 1/6 (armour)
// x 1/6 (ward) = 1/72, so the rats lose 3.5/72 models on average, with
// variance E[N] p (1-p) + Var[N] p^2 = 3.5 x 71/72^2 + (35/12)/72^2 (N the
// D6, variance 35/12), sd 0.22022. Seed 2 kills none in 20 trials: z is
// -(3.5/72) / (0.22022/sqrt(20)) = -0.98716. Per 100 points the estimate
// and the exact value are both doubled (100/50), and so is the sd: the
// same z, where the sample's spread (none) gave -Inf.
func TestPer100PointsZ(t *testing.T) {
	src := `name: ih
ruleset: fantasy
battle:
  attacker: {name: Chariot, troop: Chariot, profile: M8 WS3 S3 T5 W4 I3 A0 Ld7, rules: [Impact Hits (D6)], points: 50}
  target: {name: Rats, models: 30, width: 6, profile: M5 WS3 S3 T3 I4 A0 Ld5, armour: 2+, ward: 2+}
  distance: 2
  phases: [charge, combat]
  options: {rounds: 1, pursue: false}
`
	p := 1.0 / 72
	sd := math.Sqrt(3.5*p*(1-p) + 35.0/12*p*p)
	var kills, per100 *sim.Estimate
	es := runFantasy(t, src, 20, 2)
	for i, e := range es {
		switch {
		case e.Metric == "models_killed" && e.Param("unit") == "Rats":
			kills = &es[i]
		case e.Metric == "models_killed_per_100_points":
			per100 = &es[i]
		}
	}
	if kills == nil || per100 == nil {
		t.Fatalf("no models_killed or models_killed_per_100_points in %v", es)
	}
	wantZ := (kills.Value - 3.5*p) / (sd / math.Sqrt(20))
	if math.Abs(wantZ - -0.98716) > 1e-5 {
		t.Errorf("seed 2 gives mean %v kills, z %v; the hand value -0.98716 is for none", kills.Value, wantZ)
	}
	for _, e := range []*sim.Estimate{kills, per100} {
		if z := e.Z(); math.Abs(z-wantZ) > 1e-9 {
			t.Errorf("%s: z %v, want %v", e.Metric, z, wantZ)
		}
	}
	if math.Abs(per100.Exact-2*3.5*p) > 1e-12 || math.Abs(per100.Value-2*kills.Value) > 1e-12 {
		t.Errorf("per 100 points: %v, exact %v; want twice %v and %v", per100.Value, per100.Exact, kills.Value, 3.5*p)
	}
}

// TestBalanceGridAnyAttackerWithPoints: a battle that sweeps attackers and
// targets is laid out as an attackers-by-targets grid of models killed per
// 100 points when any attacker has points, whichever comes first; with
// none it has no such metric, and no grid.
func TestBalanceGridAnyAttackerWithPoints(t *testing.T) {
	battle := func(a1, a2 string) string {
		chariot := "troop: Chariot, profile: M8 WS3 S5 T5 W4 I3 A0 Ld7, rules: [Impact Hits (D6)]"
		return `name: grid
ruleset: fantasy
battle:
  attacker:
    - {name: A1, ` + chariot + a1 + `}
    - {name: A2, ` + chariot + a2 + `}
  target:
    - {name: T1, models: 30, width: 6, profile: M5 WS3 S3 T3 I4 A0 Ld5}
    - {name: T2, models: 30, width: 6, profile: M5 WS3 S3 T4 I4 A0 Ld5}
  distance: 2
  phases: [charge, combat]
  options: {rounds: 1, pursue: false}
`
	}
	for _, tc := range []struct {
		name, a1, a2 string
		grid         bool
	}{
		{"first with points", ", points: 50", "", true},
		{"second with points", "", ", points: 50", true},
		{"both", ", points: 50", ", points: 60", true},
		{"neither", "", "", false},
	} {
		s, err := registry.Parse("grid.yaml", []byte(battle(tc.a1, tc.a2)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		switch g := s.Grid; {
		case !tc.grid && g != nil:
			t.Errorf("%s: grid %+v, want none", tc.name, g)
		case tc.grid && (g == nil || g.Metric != "models_killed_per_100_points" || g.Rows != "attacker" || g.Cols != "target"):
			t.Errorf("%s: grid %+v, want models_killed_per_100_points, attacker by target", tc.name, g)
		}
	}
}
