package heresy

import (
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hammersim/sim"
)

// cappedBinomialMean is E[min(X, most)] for X ~ Bin(n, p), summed term by
// term.
func cappedBinomialMean(n int, p float64, most int) float64 {
	mean := 0.0
	for k := 0; k <= n; k++ {
		c, _ := new(big.Float).SetInt(new(big.Int).Binomial(int64(n), int64(k))).Float64()
		mean += float64(min(k, most)) * c * math.Pow(p, float64(k)) * math.Pow(1-p, float64(n-k))
	}
	return mean
}

// TestShootingPointsEfficiency: ten bolters, two shots each at BS4, S4
// against T4 and a 3+ save that AP5 leaves, remove a model with each shot
// with chance 2/3 x 1/2 x 1/3 = 1/9, so the ten targets lose min(X, 10)
// for X ~ Bin(20, 1/9). casualties_per_100_points is that times 100 over
// the firer's points (125: 0.8 times the casualties), estimate, exact
// value and spread alike, so its z is the casualties' own. A price of 0
// has no such metric at its point, and a swept price shares one model:
// it changes no die.
func TestShootingPointsEfficiency(t *testing.T) {
	firer := strings.Replace(bolters, "models: 10,", "models: 10, points: [0, 125, 200],", 1)
	s, es := runScenario(t, scenario("shooting:\n  firer: "+firer+"\n  target: {"+reveller+"}\n  distance: 12\n"), 4000)
	if len(s.Models) != 1 {
		t.Errorf("a sweep of three prices makes %d models, want 1", len(s.Models))
	}
	exact := cappedBinomialMean(20, 1.0/9, 10)
	for _, pts := range []int{125, 200} {
		cas := find(t, es, "casualties", "points", pts)
		per := find(t, es, "casualties_per_100_points", "points", pts)
		f := 100 / float64(pts)
		if math.Abs(cas.Exact-exact) > 1e-12 || math.Abs(per.Exact-exact*f) > 1e-12 {
			t.Errorf("points %d: exact casualties %v and per 100 points %v, want %v and %v", pts, cas.Exact, per.Exact, exact, exact*f)
		}
		if math.Abs(per.Value-cas.Value*f) > 1e-12 || math.Abs(per.CI95[1]-cas.CI95[1]*f) > 1e-12 || math.Abs(per.Z()-cas.Z()) > 1e-9 {
			t.Errorf("points %d: per 100 points %v [%v], z %v; want %v times the casualties' %v [%v], z %v",
				pts, per.Value, per.CI95, per.Z(), f, cas.Value, cas.CI95, cas.Z())
		}
		if per.Title != "target's models lost per 100 firer points" {
			t.Errorf("title %q", per.Title)
		}
		// 4,000 trials: within 4 standard errors of the exact value.
		if z := per.Z(); math.Abs(z) > 4 {
			t.Errorf("points %d: z %v", pts, z)
		}
	}
	for _, e := range es {
		if e.Metric == "casualties_per_100_points" && e.Param("points") == 0 {
			t.Errorf("a firer without a price has %v", e)
		}
	}
}

// TestAssaultPointsEfficiency: an assault reports the defender's
// casualties per 100 of the attacker's points, after the casualties, with
// no unit named: the attacker's 150 points make it 2/3 of the defender's
// casualties.
func TestAssaultPointsEfficiency(t *testing.T) {
	attacker := strings.Replace(assaultSquad, "models: 10,", "models: 10, points: 150,", 1)
	_, es := runScenario(t, scenario("assault:\n  attacker: "+attacker+"\n  defender: {"+reveller+"}\n"), 2000)
	cas := find(t, es, "casualties", "unit", "Revellers")
	per := find(t, es, "casualties_per_100_points")
	if per.Param("unit") != nil {
		t.Errorf("per 100 points names unit %v", per.Param("unit"))
	}
	if math.Abs(per.Value-cas.Value*2/3) > 1e-12 || math.Abs(per.Exact-cas.Exact*2/3) > 1e-12 || !per.HasExact {
		t.Errorf("per 100 points %v (exact %v), want 2/3 of the defender's casualties %v (exact %v)", per.Value, per.Exact, cas.Value, cas.Exact)
	}
	if per.Title != "defender's models lost per 100 attacker points" {
		t.Errorf("title %q", per.Title)
	}
	var order []string
	for _, e := range es {
		if len(order) == 0 || order[len(order)-1] != e.Metric {
			order = append(order, e.Metric)
		}
	}
	if i := strings.Index(strings.Join(order, " "), "casualties casualties_per_100_points "); i < 0 {
		t.Errorf("metrics in the order %v: casualties_per_100_points should follow casualties", order)
	}
}

// TestPointsPerModelHeresy: a card's points are for its models, and a use
// that changes them pays per model (docs/scenarios.md, Points per model):
// 100 points for ten, so five cost 50 and fifteen 150; points beside a
// swept models on one mapping are refused, as in Fantasy.
func TestPointsPerModelHeresy(t *testing.T) {
	dir := t.TempDir()
	card := "ruleset: heresy\nunits:\n  - {name: Priced, models: 10, points: 100, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+, weapons: [{name: bolter, S: 4, AP: 5, shots: 2}]}\n"
	if err := os.WriteFile(filepath.Join(dir, "cards.yaml"), []byte(card), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t.yaml")
	src := scenario("units: cards.yaml\nshooting:\n  firer: {use: Priced, models: [5, 15]}\n  target: {" + reveller + "}\n")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := registry.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	run, err := sim.RunAll(t.Context(), s.Models, sim.Config{Trials: 500, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	es := s.Results(run)
	for _, tc := range []struct{ models, points int }{{5, 50}, {15, 150}} {
		cas := find(t, es, "casualties", "models", tc.models)
		per := find(t, es, "casualties_per_100_points", "models", tc.models)
		if want := cas.Value * 100 / float64(tc.points); math.Abs(per.Value-want) > 1e-12 {
			t.Errorf("%d models: %v per 100 points, want %v (priced at %d)", tc.models, per.Value, want, tc.points)
		}
	}
	// The target's price is read by nothing, so one price for its swept
	// sizes is no error there.
	src = scenario("shooting:\n  firer: " + bolters + "\n  target: {name: T, models: [5, 15], points: 80, " + marine + "}\n")
	if _, err := registry.Parse("t.yaml", []byte(src)); err != nil {
		t.Errorf("a target's price: %v", err)
	}
	bad := scenario("shooting:\n  firer: {name: F, models: [5, 15], points: 80, " + marine + ", weapons: [{name: bolter, S: 4, AP: 5}]}\n  target: {" + reveller + "}\n")
	wantError(t, "one price for every size", bad, `t.yaml:4:45: points 80 on "F" would be the cost of every size its models sweep (5 to 15 models)`)
}

// TestPointsRefusedWhereUnread: a price swept on the unit that does not
// act gives the same answer at every value, and is refused at its list
// (column 108 and 110: where "[100" stands on the unit's line); the metric
// asked for where the acting unit has no price says what it needs.
func TestPointsRefusedWhereUnread(t *testing.T) {
	wantError(t, "target's price swept",
		scenario("shooting:\n  firer: "+bolters+"\n  target: {"+reveller+", points: [100, 200]}\n"),
		`t.yaml:5:108: points is swept on the target "Revellers", but only the firer's points are read (casualties_per_100_points)`)
	wantError(t, "defender's price swept",
		scenario("assault:\n  attacker: "+assaultSquad+"\n  defender: {"+reveller+", points: [100, 200]}\n"),
		`t.yaml:5:110: points is swept on the defender "Revellers", but only the attacker's points are read (casualties_per_100_points)`)
	wantError(t, "no price",
		scenario("shooting:\n  firer: "+bolters+"\n  target: {"+reveller+", points: 100}\n  metrics: [casualties_per_100_points]\n"),
		`t.yaml:6:13: metric "casualties_per_100_points" is not reported here: it needs points on the firer`)
	// A fixed price on the target is part of its card, as its WS is.
	if _, err := registry.Parse("t.yaml", []byte(scenario("shooting:\n  firer: "+bolters+"\n  target: {"+reveller+", points: 100}\n"))); err != nil {
		t.Errorf("a target's fixed price: %v", err)
	}
}

// TestPointsGrid: the points efficiency may be laid out as a grid of
// firers by targets, as the probabilities may, and a grid of it where no
// firer has a price is told what it needs, at its value (column 18 of
// "  grid: {metric: casualties_per_100_points, ...").
func TestPointsGrid(t *testing.T) {
	priced := strings.Replace(bolters, "models: 10,", "models: 10, points: 100,", 1)
	two := "{" + reveller + "}, {" + strings.Replace(reveller, "Revellers", "Others", 1) + "}"
	s, err := registry.Parse("t.yaml", []byte(scenario("shooting:\n  firer: ["+priced+", "+strings.Replace(bolters, "Bolters", "Free", 1)+"]\n  target: ["+two+"]\n  grid: {metric: casualties_per_100_points, rows: firer, cols: target}\n")))
	if err != nil {
		t.Fatal(err)
	}
	if g := s.Grid; g == nil || g.Metric != "casualties_per_100_points" || g.Rows != "firer" || g.Cols != "target" {
		t.Errorf("grid %+v", s.Grid)
	}
	wantError(t, "a grid of no price",
		scenario("shooting:\n  firer: ["+bolters+", "+strings.Replace(bolters, "Bolters", "Free", 1)+"]\n  target: ["+two+"]\n  grid: {metric: casualties_per_100_points, rows: firer, cols: target}\n"),
		`t.yaml:6:18: grid metric "casualties_per_100_points" is not reported here: it needs points on the firer`)
}
