package fantasy

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
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

// TestCardPointsPerModel: a card's points are what its models cost, so a
// use of it with other models, and no points of its own, pays them per
// model. Clanrats: 175 points for 30 models (the built-in card), 35/6 a
// model: 10 cost 1750/30 = 58.333..., 40 cost 7000/30 = 233.333.... Rat
// Ogres: 152 for 4, so 6 cost 228. The Dread Maw's card writes no models,
// so its 225 points are for one, and two cost 450. Points beside models
// are taken as written.
func TestCardPointsPerModel(t *testing.T) {
	for _, tt := range []struct {
		unit string
		want []float64
	}{
		{"{use: Clanrats}", []float64{175}},
		{"{use: Clanrats, models: 30}", []float64{175}},
		{"{use: Clanrats, models: 10}", []float64{1750.0 / 30}},
		{"{use: Clanrats, models: [10, 40]}", []float64{1750.0 / 30, 7000.0 / 30}},
		{"{use: Clanrats, models: 10, points: 60}", []float64{60}},
		{"{use: Clanrats, models: 10, points: [60, 70]}", []float64{60, 70}},
		{"{use: Clanrats, models: [10, 40], points: [60, 240]}", []float64{60, 240, 60, 240}},
		{"{use: Rat Ogres, models: 6}", []float64{228}},
		{"{use: Dread Maw, models: 2}", []float64{450}},
		{"{use: Clanrats, profile: Ld6}", []float64{175}},
	} {
		src := "name: t\nruleset: fantasy\nbattle:\n  attacker: " + tt.unit +
			"\n  target: {use: Halberdiers}\n  distance: 0\n  phases: [combat]\n"
		s, err := registry.Parse("t.yaml", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", tt.unit, err)
			continue
		}
		var got []float64
		for _, m := range s.Models {
			got = append(got, m.(*battleModel).b.Units[0].Points)
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s: points %v, want %v", tt.unit, got, tt.want)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-tt.want[i]) > 1e-12*tt.want[i] {
				t.Errorf("%s: points %v, want %v", tt.unit, got, tt.want)
				break
			}
		}
	}
}

// TestCardPointsPer100: 10 Clanrats from the card cost 175/30 x 10 =
// 58.333 points, so their models killed per 100 points are the models
// they kill times 100/58.333 = 12/7; 40 cost 233.333, a factor of 3/7.
// (At the card's 175 points for either size the factors were 4/7 and
// 4/7.)
func TestCardPointsPer100(t *testing.T) {
	src := "name: t\nruleset: fantasy\nbattle:\n  attacker: {use: Clanrats, models: [10, 40]}\n" +
		"  target: {use: Halberdiers}\n  distance: 0\n  phases: [combat]\n"
	es := runFantasy(t, src, 2000, 1)
	kills := map[any]float64{}
	per100 := map[any]float64{}
	for _, e := range es {
		switch {
		case e.Metric == "models_killed" && e.Param("unit") == "Halberdiers":
			kills[e.Param("models")] = e.Value
		case e.Metric == "models_killed_per_100_points":
			per100[e.Param("models")] = e.Value
		}
	}
	for models, factor := range map[int]float64{10: 12.0 / 7, 40: 3.0 / 7} {
		k, p := kills[models], per100[models]
		if k == 0 || math.Abs(p-k*factor) > 1e-12*p {
			t.Errorf("%d Clanrats: %v killed, %v per 100 points; want %v", models, k, p, k*factor)
		}
	}
}

// TestPointsWithSweptModels: one points cost written beside a swept
// models would price every size alike, and is refused, inline or beside
// a card's use; points swept as well are a question of their own.
func TestPointsWithSweptModels(t *testing.T) {
	head := "name: t\nruleset: fantasy\nbattle:\n  target: {use: Halberdiers}\n  distance: 0\n  phases: [combat]\n"
	wantError(t, "inline", head+"  attacker: {name: Rats, models: [10, 20], profile: M5 WS3 S3 T3 I4 A1 Ld5, points: 60}\n",
		`t.yaml:7:85: points 60 on "Rats" would be the cost of every size its models sweep (10 to 20 models); give each size a unit of its own with its points, or sweep models on a use of a card, which prices the card's points per model`)
	// A use is a card's already: the advice is what helps it. Clanrats'
	// card has a price (175 for 30), which the use pays per model
	// without points of its own; Big Rats' is for both its sizes.
	wantError(t, "beside a use", head+"  attacker: {use: Clanrats, models: [10, 40], points: 100}\n",
		`t.yaml:7:55: points 100 on "Clanrats" would be the cost of every size its models sweep (10 to 40 models); leave points out to pay the card's price per model, or give each size a use of its own, with its models and its points`)
	for _, unit := range []string{
		"{name: Rats, models: [10, 20], profile: M5 WS3 S3 T3 I4 A1 Ld5, points: [60, 120]}",
		"{name: Rats, models: [10, 20], profile: M5 WS3 S3 T3 I4 A1 Ld5}",
	} {
		if _, err := registry.Parse("t.yaml", []byte(head+"  attacker: "+unit+"\n")); err != nil {
			t.Errorf("%s: %v", unit, err)
		}
	}
	// Only the attacker's price is read: a target's one price beside
	// swept models changes no answer.
	src := "name: t\nruleset: fantasy\nbattle:\n  attacker: {use: Doomwheel}\n  target: {use: Clanrats, models: [10, 40], points: 100}\n  distance: 0\n  phases: [combat]\n"
	if _, err := registry.Parse("t.yaml", []byte(src)); err != nil {
		t.Errorf("a price nothing reads: %v", err)
	}
}

// TestPointsPerModelOfASweptCard: a card that sweeps its own models (and
// its points with them) has no one number of models its points are for;
// a use that changes its models without points of its own is refused.
func TestPointsPerModelOfASweptCard(t *testing.T) {
	dir := t.TempDir()
	cards := "ruleset: fantasy\nunits:\n  - {name: Horde, models: [10, 20], profile: M5 WS3 S3 T3 I4 A1 Ld5, points: [60, 120]}\n"
	scenario := "name: t\nruleset: fantasy\nbattle:\n  attacker: {use: Horde, models: 15}\n  target: {use: Halberdiers}\n  distance: 0\n  phases: [combat]\n"
	if err := os.WriteFile(filepath.Join(dir, "units.yaml"), []byte(cards), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t.yaml")
	if err := os.WriteFile(path, []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := registry.Load(path)
	want := path + `:4:34: models on "Horde" changes its card's, which are a list, not one number for its points to be priced per model by; give points beside models`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	// With points beside models, the use is priced as written.
	scenario = strings.Replace(scenario, "models: 15}", "models: 15, points: 90}", 1)
	if err := os.WriteFile(path, []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Load(path); err != nil {
		t.Error(err)
	}

	// A card of swept models and one price is listed and shown, as a use
	// that gives points beside models may use it; a use that takes both
	// from the card is refused, where it is written.
	cards = "ruleset: fantasy\nunits:\n  - {name: Swept, models: [10, 20], profile: M5 WS3 S3 T3 I4 A1 Ld5, points: 100}\n"
	if err := os.WriteFile(filepath.Join(dir, "units.yaml"), []byte(cards), 0o644); err != nil {
		t.Fatal(err)
	}
	if listed, err := registry.UserCards([]string{filepath.Join(dir, "units.yaml")}, ""); err != nil || len(listed) != 1 {
		t.Errorf("listing a card of swept models and one price: %d cards, %v", len(listed), err)
	}
	for _, tc := range []struct{ use, want string }{
		{"{use: Swept, models: 15, points: 50}", ""},
		// The use stands at column 13 of line 4, after "  attacker: ".
		{"{use: Swept}", path + `:4:13: "Swept" takes its card's models, swept (10 to 20), at the card's one price, 100 points, which would be the cost of every size; give models and points beside use, one size at a time`},
	} {
		src := strings.Replace(scenario, "{use: Horde, models: 15, points: 90}", tc.use, 1)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := registry.Load(path)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.use, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s:\n got  %v\nwant %s...", tc.use, err, tc.want)
		}
	}
}

// TestPer100PointsNeedPoints: a battle whose attacker has no points at any
// point reports no _per_100_points metrics, and asking for one says what
// it needs rather than calling it unknown; with points it is reported.
func TestPer100PointsNeedPoints(t *testing.T) {
	rat := "M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7"
	for _, tc := range []struct{ points, want string }{
		{"", `metric "models_killed_per_100_points" is not reported in t.yaml: it needs points on the attacker`},
		{", points: 0", `metric "models_killed_per_100_points" is not reported in t.yaml: it needs points on the attacker`},
		{", points: 60", ""},
	} {
		src := "name: t\nruleset: fantasy\nbattle: {attacker: {name: A, " + rat + tc.points + "}, target: {name: B, " + rat + "}, distance: 0, phases: [combat]}\n"
		s, err := registry.Parse("t.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		err = s.SelectMetrics([]string{"models_killed_per_100_points"})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("points %q: %v, want %q", tc.points, err, tc.want)
		}
	}
}
