package heresy

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	rules "hammersim/mechanics/heresy"
	"hammersim/scenarios"
	"hammersim/scenarios/scenariotest"
	"hammersim/sim"
)

// Profiles for the heresy tests, as flow mappings; the numbers are
// illustrative, not quoted from a datasheet.
const (
	marine       = `WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+`
	reveller     = `name: Revellers, models: 10, ` + marine
	bolters      = `{name: Bolters, models: 10, ` + marine + `, weapons: [{name: bolter, S: 4, AP: 5, shots: 2}]}`
	rapier       = `{name: Rapier, models: 3, WS: 1, BS: 4, S: 3, T: 5, W: 2, I: 1, A: "-", Ld: 7, Sv: 3+, rules: [Automated Artillery, Bulky (4)]}`
	assaultSquad = `{name: Assault Squad, models: 10, ` + marine + `, melee: {name: chainsword, S: User, AP: "-"}}`
)

// registry reads the scenarios of these tests: the heresy ruleset alone.
var registry = scenarios.NewRegistry(Ruleset())

func wantError(t *testing.T, name, src, want string) {
	t.Helper()
	scenariotest.WantError(t, registry, name, src, want)
}

func scenario(question string) string {
	return "name: t\nruleset: heresy\n" + question
}

// runScenario parses src and runs it with a fixed seed.
func runScenario(t *testing.T, src string, trials int64) (*scenarios.Scenario, []sim.Estimate) {
	t.Helper()
	s, err := registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: trials, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	return s, s.Results(run)
}

// find returns the estimate of metric whose params include every pair in
// want (name, value, name, value, ...).
func find(t *testing.T, es []sim.Estimate, metric string, want ...any) sim.Estimate {
	t.Helper()
	for _, e := range es {
		if e.Metric != metric {
			continue
		}
		ok := true
		for i := 0; i < len(want); i += 2 {
			if e.Param(want[i].(string)) != want[i+1] {
				ok = false
			}
		}
		if ok {
			return e
		}
	}
	t.Fatalf("no %s estimate with %v", metric, want)
	return sim.Estimate{}
}

func TestBuiltins(t *testing.T) {
	want := map[string]int{ // models: one per combination of swept values
		"stupefied-vs-bolters":        4 * 2 * 2, // shots, Fearless, stupefied
		"firing-protocols":            3 * 2,     // Firing Protocols, target
		"automated-artillery-assault": 3 * 2,     // chargers, Automated Artillery
		"bulky-outnumber":             4 * 3,     // Bulky, outnumber_bonus
		"rapid-fire-vs-stupefied":     2 * 2,     // distance, stupefied
		"stupefied-charge":            2,         // stupefied
		"plasma-gets-hot":             2 * 2,     // Twin-linked, distance
		"volkite-deflagrate":          2,         // Deflagrate
	}
	for name, models := range want {
		s, err := registry.Load(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if s.Ruleset != "heresy" || len(s.Models) != models {
			t.Errorf("%s: ruleset %s, %d models; want heresy, %d", name, s.Ruleset, len(s.Models), models)
		}
	}
	for _, name := range scenarios.BuiltinsOf("heresy") {
		if _, listed := want[name]; !listed {
			t.Errorf("built-in %s: add its model count to this test", name)
		}
		s, err := registry.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if scenariotest.MatchExact(t, s, 50_000, 11) == 0 {
			t.Errorf("%s: no estimate has an exact value", name)
		}
		scenariotest.AllocateNothing(t, s)
	}
}

// TestBuiltinProfilesAsHH2 pins the built-ins' numbers that follow from
// the HH2 profiles they use, each worked out by hand.
//
// plasma-gets-hot, 12", not Twin-linked: 10 shots at BS 4 hit 20/3 times;
// S7 wounds T4 on 2+; a roll of 4+ is AP2 (Breaching (4+)), unsaved, and a
// roll of 2 or 3 is AP4, which the 3+ save fails 1/3 of the time: 1/2 +
// 1/3 x 1/3 = 11/18 a hit, 220/54 casualties. Each 1 to hit (10/6) wounds
// the firer at AP4, saved on 3+: 5/9 Gets Hot wounds.
//
// automated-artillery-assault, 5 chargers: 10 attacks (A1, +1 charging),
// WS4 against WS1 hits on 3+ (2/3), S4 against T5 wounds on 5+ with Shred
// re-rolling the misses (1/3 + 2/3 x 1/3 = 5/9), and the 3+ save fails
// 1/3: 10/81 an attack. The guns strike no blow, so any unsaved wound wins:
// 1 - (71/81)^10.
//
// bulky-outnumber: automata are Fearless and never fail a Morale check.
func TestBuiltinProfilesAsHH2(t *testing.T) {
	results := func(name string) []sim.Estimate {
		s, err := registry.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: 100, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return s.Results(run)
	}
	near := func(what string, e sim.Estimate, want float64) {
		t.Helper()
		if !e.HasExact || math.Abs(e.Exact-want) > 1e-12 {
			t.Errorf("%s: exact %v (%v), want %v", what, e.Exact, e.HasExact, want)
		}
	}
	es := results("plasma-gets-hot")
	near("plasma casualties", find(t, es, "casualties", "distance", 12, "twin_linked", false), 20.0/3*11/18)
	near("plasma gets_hot", find(t, es, "gets_hot", "distance", 12, "twin_linked", false), 10.0/6/3)
	es = results("automated-artillery-assault")
	near("assault won", find(t, es, "won", "models", 5, "unit", "Assault Squad", "automated_artillery", false), 1-math.Pow(71.0/81, 10))
	checked := 0
	for _, e := range results("bulky-outnumber") {
		if e.Metric == "morale_failed" && e.Param("unit") == "Battle-automata" {
			near(fmt.Sprintf("automata morale_failed %v", e.Params), e, 0)
			checked++
		}
	}
	if checked != 12 { // Bulky 4 x outnumber_bonus 3
		t.Errorf("%d morale_failed estimates of the automata, want 12", checked)
	}
}

// onlyDice ends the message for dice that only simulate dice reads.
const onlyDice = ", which only simulate dice reads; a profile's or a rule's dice are added up, such as D6, 2D6, D3+1 or 3D6kh2"

func TestErrors(t *testing.T) {
	shoot := func(firer, target, extra string) string {
		return scenario("shooting:\n  firer: " + firer + "\n  target: " + target + "\n" + extra)
	}
	target := "{" + reveller + "}"
	tests := []struct {
		name string
		src  string
		want string // file:line:col: message (a prefix is enough)
	}{
		{"unknown key", shoot(bolters, "{"+reveller+", Tougness: 4}", ""),
			`t.yaml:5:100: unknown key "Tougness" in a unit; expected one of: name, models, WS, BS, S, T, W, I, A, Ld, Sv, Inv, type, rules, points, weapons, cover`},
		{"key case", shoot(bolters, "{name: R, models: 5, ws: 4}", ""), `t.yaml:5:32: unknown key "ws" in a unit; did you mean "WS"?`},
		{"out of range everywhere", shoot("{name: B, models: 5, "+marine+", weapons: [{name: bolter, type: Rapid Fire, range: 24, S: 4, AP: 5}, {name: flamer, type: Assault 1, range: Template, S: 4, AP: 5}]}", target, "  distance: [30, 36]\n"),
			`t.yaml:6:13: distance: the target is 30" away or more at every point, beyond every weapon of the firer (the farthest reaches 24"), so the attack fires nothing; bring the distance within range`},
		{"moved with nothing Heavy", shoot(bolters, target, "  moved: [false, true]\n"),
			`t.yaml:6:10: moved: no weapon of the firer is Heavy or Ordnance at any point, the only types moving changes (a weapon with no type fires whatever its unit did); give the weapons their types`},
		{"moved with Rapid Fire only", shoot("{name: B, models: 5, "+marine+", weapons: [{name: bolter, type: Rapid Fire, range: 24, S: 4, AP: 5}]}", target, "  moved: true\n"),
			`t.yaml:6:10: moved: no weapon of the firer is Heavy or Ordnance at any point, the only types moving changes (Assault, Rapid Fire, Pistol and Destroyer weapons fire alike after moving); remove moved`},
		{"Armourbane (Melta) with no distance", shoot("{name: M, models: 1, "+marine+", weapons: [{name: melta, range: 12, S: 8, AP: 1, rules: [Armourbane (Melta)]}]}", "{use: Dreadnought}", ""),
			`t.yaml:4:146: weapon "melta": Armourbane (Melta) works at half the weapon's range or less, and the question gives no distance to tell; add distance`},
		{"unknown unit type", shoot(bolters, "{"+reveller+", type: Vehicle}", ""),
			`t.yaml:5:106: unknown unit type "Vehicle"; expected one of: Infantry, Dreadnought, Automata (a type no rule here reads, such as Cavalry, is written as Infantry or left out; hammersim has no Vehicles)`},
		{"Armourbane (Melee) fired", shoot("{name: M, models: 1, "+marine+", weapons: [{name: fist, range: 12, S: 8, AP: 1, rules: [Armourbane (Melee)]}]}", target, ""),
			`t.yaml:4:145: weapon "fist": Armourbane (Melee) is for close combat only, and this weapon is fired`},
		{"Armourbane (Melta) with no range", shoot("{name: M, models: 1, "+marine+", weapons: [{name: melta, S: 8, AP: 1, rules: [Armourbane (Melta)]}]}", target, ""),
			`t.yaml:4:135: weapon "melta": Armourbane (Melta) works at half the weapon's range or less, and it has no range`},
		{"Armourbane (Melta) in melee", scenario("assault:\n  attacker: {name: A, models: 5, " + marine + ", melee: {name: fist, S: 8, AP: 2, rules: [Armourbane (Melta)]}}\n  defender: " + assaultSquad + "\n"),
			`t.yaml:4:100: melee weapon "fist": Armourbane (Melta) and Armourbane (Ranged) are for Shooting Attacks only`},
		{"Armourbane (any), the bare rule's value, written", shoot("{name: M, models: 1, "+marine+", weapons: [{name: melta, range: 12, S: 8, AP: 1, rules: [Armourbane (any)]}]}", target, ""),
			`t.yaml:4:158: Armourbane (any) is not known; expected one of: melta, melee, ranged`},
		{"Armourbane unknown variant", shoot("{name: M, models: 1, "+marine+", weapons: [{name: melta, range: 12, S: 8, AP: 1, rules: [Armourbane (Plasma)]}]}", target, ""),
			`t.yaml:4:158: Armourbane (Plasma) is not known; expected one of: melta, melee, ranged`},
		{"misspelt rule", shoot(bolters, "{"+reveller+", rules: [Feel No Pian (5+)]}", ""),
			`t.yaml:5:108: unknown rule "Feel No Pian"; did you mean "Feel No Pain"?`},
		{"movement", shoot(bolters, "{"+reveller+", M: 7}", ""), "t.yaml:5:100: M (Movement) is not read by any heresy question"},
		{"T 0", shoot(bolters, "{name: R, models: 5, WS: 4, BS: 4, S: 4, T: 0, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}", ""),
			"t.yaml:5:55: T 0 is out of range; expected 1 to 10"},
		{"no models", shoot(bolters, "{name: R, models: 0, "+marine+"}", ""), "t.yaml:5:29: models 0 is out of range; expected 1 to 100"},
		{"missing stat", shoot(bolters, "{name: R, models: 5}", ""), `t.yaml:5:11: a unit is missing the key "WS"`},
		{"bad save", shoot(bolters, "{name: R, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 7+}", ""),
			`t.yaml:5:87: expected Sv as a save from 2+ to 6+`},
		{"AP 7", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, S: 4, AP: 7}]}", target, ""),
			"t.yaml:4:122: AP 7 is out of range; expected 1 to 6"},
		{"AP 0", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, S: 4, AP: 0}]}", target, ""),
			"t.yaml:4:122: AP 0 is out of range"},
		{"weapon S", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, S: 11, AP: 5}]}", target, ""),
			"t.yaml:4:115: weapon S (or User, +1, x2) 11 is out of range"},
		{"shots below zero", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, S: 4, AP: 5, shots: D6-3}]}", target, ""),
			`t.yaml:4:132: shots "D6-3" can roll below zero`},
		{"no weapons", shoot("{name: B, models: 1, "+marine+"}", target, ""), `t.yaml:4:10: a unit is missing the key "weapons"`},
		// A Template weapon reaches as far as its template, and hits by it:
		// a range in inches (at column 100 + 61) or Blast beside it (the
		// weapon at column 100) would be read for nothing.
		{"template with a range", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, S: 4, AP: 5, type: \"Assault 1, Template\", range: 6}]}", target, ""),
			`t.yaml:4:161: range 6 on weapon "gun": a Template weapon reaches as far as its template, 8"; write range: Template, or leave range out`},
		{"template and blast", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, S: 4, AP: 5, type: \"Assault 1, Blast (3), Template\"}]}", target, ""),
			`t.yaml:4:100: weapon "gun" has both Blast and Template`},
		{"two weapons one name", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, S: 4, AP: 5}, {name: gun, S: 5, AP: 5}]}", target, ""),
			`t.yaml:4:126: two weapons named "gun"`},
		{"weapon rule on a unit", shoot(bolters, "{"+reveller+", rules: [Instant Death]}", ""),
			`t.yaml:5:108: Instant Death is a weapon rule, not a model's (unit "Revellers")`},
		{"unit rule on a weapon", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, S: 4, AP: 5, rules: [Fearless]}]}", target, ""),
			`t.yaml:4:133: Fearless is a model's rule, not a weapon's (weapon "gun")`},
		// "Bulst" is as near Bulky, a model's rule listed first, as Blast: a
		// weapon, in its rules or its type, is offered Blast; a unit, Bulky.
		{"misspelt weapon rule", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, S: 4, AP: 5, rules: [\"Bulst (3\\\")\"]}]}", target, ""),
			`t.yaml:4:133: unknown rule "Bulst"; did you mean "Blast"?`},
		{"misspelt rule in a type", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, S: 4, AP: 5, type: \"Heavy 1, Bulst (3)\"}]}", target, ""),
			`t.yaml:4:141: unknown rule "Bulst"; did you mean "Blast"?`},
		{"misspelt unit rule", shoot(bolters, "{"+reveller+", rules: [Bulst (2)]}", ""),
			`t.yaml:5:108: unknown rule "Bulst"; did you mean "Bulky"?`},
		{"stupefied without the rule", shoot(bolters, target, "  stupefied: always\n"),
			`t.yaml:6:14: stupefied: always, but target "Revellers" cannot become Stupefied`},
		{"stupefied policy", shoot(bolters, target, "  stupefied: sometimes\n"), `t.yaml:6:14: stupefied "sometimes": expected never, always or when_it_pays`},
		{"unknown metric", shoot(bolters, target, "  metrics: [kills]\n"), `t.yaml:6:13: unknown metric "kills"; this question has: hits, wounds,`},
		{"grid of an idle metric", shoot(bolters, "{name: Revellers, models: [5, 10], "+marine+"}", "  distance: [12, 24]\n  grid: {metric: pinned, rows: models, cols: distance}\n"),
			`t.yaml:7:18: grid metric "pinned" needs pinning: true`},
		{"grid of a mean", shoot(bolters, "{name: Revellers, models: [5, 10], "+marine+"}", "  grid: {metric: casualties, rows: models, cols: models}\n"),
			`t.yaml:6:18: grid metric "casualties": expected a probability metric`},
		// An option about Blast markers or templates no weapon has.
		{"blast hits of a marker no weapon has", shoot("{name: F, models: 5, "+marine+", weapons: [{name: b, S: 4, AP: 5, range: 24, rules: [Blast (3\")]}]}", target, "  options: {blast_hits_3: 4, blast_hits_5: 8}\n"),
			`t.yaml:6:44: blast_hits_5: no weapon has Blast (5"), the only rule it changes; remove it`},
		{"template hits with no template", shoot(bolters, target, "  options: {template_hits: 6}\n"),
			`t.yaml:6:28: template_hits: no weapon is a Template`},
		// The options of one Reaction where the target never makes it,
		// refused at their values: in "  options: {evade_save: 4,
		// return_fire_after_casualties: true}" the 4 is at column 25 and
		// true at 58; in the other order true is at 43 and 4 at 61.
		{"evade_save without Evade", shoot(bolters, bolters, "  reaction: [none, return_fire]\n  options: {evade_save: 4, return_fire_after_casualties: true}\n"),
			"t.yaml:7:25: evade_save: the target never Evades (reaction: evade), the only Reaction it changes; remove it"},
		{"return fire option without Return Fire", shoot(bolters, target, "  reaction: evade\n  options: {evade_save: 4, return_fire_after_casualties: true}\n"),
			"t.yaml:7:58: return_fire_after_casualties: the target never Returns Fire (reaction: return_fire), the only Reaction it changes; remove it"},
		{"pinning_wounds without pinning", shoot(bolters, target, "  pinning: [false]\n  options: {pinning_wounds: suffered}\n"),
			"t.yaml:7:29: pinning_wounds: no point has pinning: true, the only test it changes; remove it"},
		{"pinning_wounds without Damage Mitigation", shoot(bolters, target, "  pinning: true\n  options: {pinning_wounds: suffered}\n"),
			"t.yaml:7:29: pinning_wounds: the target has no Damage Mitigation roll at any point"},
		{"both without a Reaction", shoot(bolters, target, "  options: {return_fire_after_casualties: true, evade_save: 4}\n"),
			"t.yaml:6:43: return_fire_after_casualties: the target never Returns Fire (reaction: return_fire), the only Reaction it changes; remove it\nt.yaml:6:61: evade_save: the target never Evades"},
		// In the order written.
		{"marker options in order", shoot(bolters, target, "  options: {template_hits: 6, blast_hits_5: 4}\n"),
			"t.yaml:6:28: template_hits: no weapon is a Template, the only kind it changes; remove it\nt.yaml:6:45: blast_hits_5"},
		{"grid with no sweep", shoot(bolters, target, "  grid: {metric: destroyed, rows: shots, cols: T}\n"), `t.yaml:6:35: grid "shots": the scenario sweeps no parameter; a grid lays out two swept ones`},
		{"grid axis", shoot(bolters, target, "  distance: [12, 24]\n  grid: {metric: destroyed, rows: shots, cols: distance}\n"), `t.yaml:7:35: grid "shots": expected a swept parameter: distance`},
		{"unknown option", shoot(bolters, target, "  options: {outnumber_bonus: 1}\n"), `t.yaml:6:13: unknown key "outnumber_bonus" in the options`},
		{"option word", shoot(bolters, target, "  options: {morale_check: half}\n"), `t.yaml:6:27: unknown morale_check "half"; expected one of: quarter, never`},
		{"fantasy question", scenario("charge: {unit: {name: A, M: 5}, distance: 3}\n"),
			`t.yaml:3:1: unknown key "charge" in the scenario; expected one of: name,`},
		{"artillery charges", scenario("assault:\n  attacker: " + rapier + "\n  defender: " + assaultSquad + "\n"),
			`t.yaml:4:13: attacker "Rapier" is Automated Artillery, which may not charge; set charged: false`},
		{"artillery charge swept", scenario("assault:\n  attacker: " + rapier + "\n  defender: " + assaultSquad + "\n  charged: [false, true]\n"),
			`t.yaml:6:12: attacker "Rapier" is Automated Artillery, which may not charge; set charged: false to have it fight without charging`},
		{"artillery swept", scenario("assault:\n  attacker: {name: Rapier, models: 3, " + marine + ", rules: [{Automated Artillery: [false, true]}]}\n  defender: " + assaultSquad + "\n"),
			`t.yaml:4:13: attacker "Rapier" is Automated Artillery, which may not charge`},
		{"Lords of Profligacy swept", shoot(bolters, "{"+reveller+", rules: [{Lords of Profligacy: [true, false]}]}", "  stupefied: [never, always]\n"),
			`t.yaml:6:14: stupefied: always, but target "Revellers" cannot become Stupefied: every model needs Lords of Profligacy`},
		{"Gets Hot swept in melee", scenario("assault:\n  attacker: {name: A, models: 5, " + marine + ", melee: {name: fist, S: 8, AP: 2, rules: [{Gets Hot: [false, true]}]}}\n  defender: " + assaultSquad + "\n"),
			`t.yaml:4:100: melee weapon "fist": Deflagrate, Blast, Template and Gets Hot are ranged weapons' rules`},
		{"shots in melee", scenario("assault:\n  attacker: {name: A, models: 5, " + marine + ", melee: {name: fist, S: 8, AP: 2, shots: 2}}\n  defender: " + assaultSquad + "\n"),
			`t.yaml:4:126: unknown key "shots" in a melee weapon (it strikes the model's Attacks, so it has no shots or range); expected one of: name, type, S, AP, rules`},
		{"guns in melee", scenario("assault:\n  attacker: " + bolters + "\n  defender: " + assaultSquad + "\n"),
			`t.yaml:4:100: unknown key "weapons" in a unit; expected one of: name, models, WS, BS, S, T, W, I, A, Ld, Sv, Inv, type, rules, points, melee`},
		{"same names", scenario("assault:\n  attacker: " + assaultSquad + "\n  defender: " + assaultSquad + "\n"),
			`t.yaml:5:13: attacker and defender are both named "Assault Squad"`},
		{"terrain without a charge", scenario("assault:\n  attacker: " + assaultSquad + "\n  defender: " + rapier + "\n  charged: false\n  difficult_terrain: true\n"),
			"t.yaml:7:22: difficult_terrain: true needs charged: true"},
		{"Salvo", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, type: Salvo 2, S: 4, AP: 5}]}", target, ""), `t.yaml:4:118: type: Salvo is not a Horus Heresy 2nd edition weapon type`},
		{"rule in a type", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, type: \"Assault 1, Rendng (6+)\", S: 4, AP: 5}]}", target, ""), `t.yaml:4:130: unknown rule "Rendng"; did you mean "Rending"?`},
		// The X of a type is bounded as shots are: 1000 shots from each of
		// a hundred models ran for minutes and gigabytes.
		{"type shots over 100", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, type: Heavy 101, S: 4, AP: 5}]}", target, ""),
			"t.yaml:4:124: type: Heavy 101: expected 1 to 100 shots per model"},
		{"type dice over 100", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, type: \"Assault 100D1000, Rending (6+)\", S: 4, AP: 5}]}", target, ""),
			"t.yaml:4:127: type: Assault 100D1000: expected 1 to 100 shots per model"},
		{"shots twice", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, type: Heavy 2, S: 4, AP: 5, shots: 3}]}", target, ""), `t.yaml:4:147: shots are given twice: the type "Heavy 2" prints them already`},
		// Column 144 is the second Rending's R, within the quoted type.
		{"rule twice in the type", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, type: \"Assault 1, Rending (6+), Rending (5+)\", S: 4, AP: 5}]}", target, ""), `t.yaml:4:144: type: Rending is listed twice; give it once`},
		{"rule twice", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, type: \"Assault 1, Shred\", S: 4, AP: 5, rules: [Shred]}]}", target, ""), `t.yaml:4:158: Shred is in both the type and the rules list`},
		{"reaction word", shoot(bolters, target, "  reaction: dodge\n"), `t.yaml:6:13: reaction "dodge": expected none, return_fire or evade`},
		{"distance", shoot(bolters, target, "  distance: 0\n"), `t.yaml:6:13: distance (inches) 0 is out of range; expected 1 to 240`},
		{"Rapid Fire without a range", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, type: Rapid Fire, S: 4, AP: 5}]}", target, ""), `t.yaml:4:118: a Rapid Fire weapon needs its range: it fires twice within half of it`},
		{"Melee fired", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, type: Melee, S: 4, AP: 5}]}", target, ""), `t.yaml:4:118: a Melee weapon is not fired`},
		{"Deflagrate in melee", scenario("assault:\n  attacker: {name: A, models: 5, " + marine + ", melee: {name: fist, S: 8, AP: 2, rules: [Deflagrate]}}\n  defender: " + assaultSquad + "\n"), `t.yaml:4:100: melee weapon "fist": Deflagrate, Blast, Template and Gets Hot are ranged weapons' rules`},
		// Template and Blast on a melee weapon: the one refusal that applies,
		// not that of a ranged weapon with both.
		{"Template and Blast in melee", scenario("assault:\n  attacker: {name: A, models: 5, " + marine + ", melee: {name: fist, S: 8, AP: 2, rules: [Template, Blast (3)]}}\n  defender: " + assaultSquad + "\n"), `t.yaml:4:100: melee weapon "fist": Deflagrate, Blast, Template and Gets Hot are ranged weapons' rules, not modelled in close combat`},
		{"Overwatch guns without Overwatch", scenario("assault:\n  attacker: " + assaultSquad + "\n  defender: {name: D, models: 5, " + marine + ", weapons: [{name: gun, S: 4, AP: 5}]}\n"), `t.yaml:5:13: the defender's weapons are fired only in Overwatch; set options: {overwatch: true}`},
		{"Overwatch guns on Automated Artillery", scenario("assault:\n  attacker: " + assaultSquad + "\n  defender: {name: D, models: 5, " + marine + ", rules: [Automated Artillery], weapons: [{name: gun, S: 4, AP: 5}]}\n  options: {overwatch: true}\n"), `t.yaml:5:13: the defender's weapons are fired only in Overwatch, which Automated Artillery may not make (its one Reaction is Interceptor); remove them`},
		{"Stupefied charger without the rule", scenario("assault:\n  attacker: " + assaultSquad + "\n  defender: " + rapier + "\n  stupefied: attacker\n"), `t.yaml:6:14: stupefied: attacker, but a unit without Lords of Profligacy cannot become Stupefied`},
		{"charge distance without a charge", scenario("assault:\n  attacker: " + assaultSquad + "\n  defender: " + rapier + "\n  charged: false\n  distance: 6\n"), `t.yaml:6:12: distance needs charged: true`},
		{"Hold the Line without a charge", scenario("assault:\n  attacker: " + assaultSquad + "\n  defender: {name: Guard, models: 10, " + marine + "}\n  charged: false\n  hold_the_line: true\n"), `t.yaml:6:12: hold_the_line needs charged: true`},
		{"both without a charge", scenario("assault:\n  attacker: " + assaultSquad + "\n  defender: {name: Guard, models: 10, " + marine + "}\n  charged: false\n  distance: 6\n  hold_the_line: true\n"), `t.yaml:6:12: distance and hold_the_line need charged: true`},
		// Each at the key at fault, not the assault's first.
		{"charge bonus without a roll", scenario("assault:\n  attacker: " + assaultSquad + "\n  defender: " + rapier + "\n  charge_bonus: 2\n"), `t.yaml:6:17: charge_bonus needs a charge roll`},
		{"holding the line beyond the longest charge", scenario("assault:\n  attacker: " + assaultSquad + "\n  defender: {use: Legionaries}\n  distance: 13\n  hold_the_line: true\n"), `t.yaml:7:18: hold_the_line: true, but a distance beyond max_charge`},
		{"charge dice", scenario("assault:\n  attacker: " + assaultSquad + "\n  defender: " + rapier + "\n  options: {charge_dice: 2D6-5}\n"), `t.yaml:6:26: charge_dice "2D6-5": expected dice that roll 1 or more`},
		// What only simulate dice reads is named where its part starts: the
		// quoted shots at column 132 are read from 133, so "r1" is at 135;
		// the type's shots start after "Assault " at 127 (its quote at 118);
		// charge_dice's at 26.
		{"shots re-rolled", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, S: 4, AP: 5, shots: \"D6r1\"}]}", target, ""),
			`t.yaml:4:135: shots "D6r1": "r1" re-rolls dice` + onlyDice},
		{"shots of the artillery dice", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, S: 4, AP: 5, shots: artillery}]}", target, ""),
			`t.yaml:4:132: shots "artillery": "artillery" is the Artillery dice` + onlyDice},
		{"type's shots re-rolled", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, type: \"Assault D6r1\", S: 4, AP: 5}]}", target, ""),
			`t.yaml:4:129: type: Assault D6r1: "r1" re-rolls dice` + onlyDice},
		{"charge dice re-rolled", scenario("assault:\n  attacker: " + assaultSquad + "\n  defender: " + rapier + "\n  options: {charge_dice: 2D6r1}\n"),
			`t.yaml:6:29: charge_dice "2D6r1": "r1" re-rolls dice` + onlyDice},
		// A typo keeps its message.
		{"shots typo", shoot("{name: B, models: 1, "+marine+", weapons: [{name: gun, S: 4, AP: 5, shots: D6x}]}", target, ""),
			`t.yaml:4:132: shots "D6x": dice expression "D6x", column 3: unknown word "x"; expected kh, kl, discard, + or -`},
	}
	for _, tt := range tests {
		wantError(t, tt.name, tt.src, tt.want)
	}
}

// TestMatchesExact runs questions that reach the branches the
// built-ins do not (return fire, Pinning, Feel No Pain, Eternal Warrior,
// multi-wound models, random shots, strikes together, Difficult Terrain)
// and checks every estimate within 5 standard errors of its exact value,
// and every simulated "at least N" count against its exact chance by
// scenariotest.MatchAtLeast.
func TestMatchesExact(t *testing.T) {
	for _, src := range exactCases {
		_, es := runScenario(t, src, 20_000)
		shooting := strings.HasPrefix(src, scenario("shooting:"))
		for _, e := range es {
			if !e.HasExact {
				t.Errorf("%s %v has no exact value", e.Metric, e.Params)
				continue
			}
			if z := e.Z(); farFromExact(e, 5) {
				t.Errorf("%s %v: estimate %.5f, exact %.5f, z = %.1f", e.Metric, e.Params, e.Value, e.Exact, z)
			}
			if shooting && counts[e.Metric] && e.ExactPMF == nil {
				t.Errorf("%s %v has no exact distribution", e.Metric, e.Params)
			}
			scenariotest.MatchAtLeast(t, "exact case", e)
		}
	}
}

// counts are the shooting metrics whose exact distribution is known, so
// that their "at least N" values are exact too.
var counts = map[string]bool{metricHits: true, metricWounds: true, metricUnsaved: true, metricCasualties: true}

var exactCases = []string{
	scenario(`assault:
  attacker: {name: Kakophoni, models: 6, WS: 5, BS: 4, S: 4, T: 4, W: 2, I: 5, A: 2, Ld: 9, Sv: 3+,
             rules: [Lords of Profligacy, Furious Charge (1), Fear (1)],
             melee: {name: blade, type: "Melee, Rending (6+), Shred", S: +1, AP: 3}}
  defender: {name: Guard, models: 8, WS: 4, BS: 4, S: 4, T: 4, W: 2, I: 3, A: 1, Ld: 8, Sv: 3+, rules: [Lords of Profligacy],
             melee: {name: maul, type: "Melee, Brutal (2), Murderous Strike (6+)", S: 6, AP: 4},
             weapons: [{name: flamer, type: "Assault 1, Template", S: 4, AP: 5}, {name: bolter, type: Rapid Fire, range: 24, S: 4, AP: 5}]}
  distance: [6, 9]
  charge_bonus: 1
  stupefied: [none, attacker, defender]
  hold_the_line: [false, true]
  options: {overwatch: true, our_weapons_are_useless: true}
`),
	scenario(`shooting:
  firer: {name: Tacticals, models: 4, ` + marine + `, rules: [Firing Protocols (2), Fear (1)],
          weapons: [{name: bolter, type: Rapid Fire, range: 24, S: 4, AP: 5},
                    {name: plasma, type: "Rapid Fire, Gets Hot", range: 24, S: 7, AP: 2},
                    {name: missile, type: "Heavy 1, Blast (3\")", range: 48, S: 4, AP: 6},
                    {name: maul, type: "Assault 2, Concussive (1), Rending (6+), Shred", range: 18, S: 5, AP: 4}]}
  target: {name: Revellers, models: 6, WS: 4, BS: 4, S: 4, T: 4, W: 2, I: 4, A: 1, Ld: 8, Sv: 3+,
           rules: [Lords of Profligacy],
           weapons: [{name: volkite, type: "Heavy 2, Deflagrate", range: 30, S: 5, AP: 5},
                     {name: flamer, type: "Assault 1, Template", S: 4, AP: 5}]}
  distance: [6, 12, 30]
  moved: [false, true]
  stupefied: [never, always]
  reaction: [return_fire, evade]
  pinning: true
`),
	scenario(`shooting:
  firer: {name: Guns, models: [3, 5], ` + marine + `, rules: [Firing Protocols (2)],
          weapons: [{name: heavy bolter, S: 5, AP: 4, shots: 3}, {name: flamer, S: 4, AP: 5, shots: D3},
                    {name: lascannon, S: 9, AP: 2}]}
  target: {name: Revellers, models: 6, WS: 4, BS: 4, S: 4, T: 4, W: 2, I: 4, A: 1, Ld: 8, Sv: 3+, cover: 5+,
           rules: [Lords of Profligacy, Feel No Pain (6+), {Eternal Warrior: [false, true]}],
           weapons: [{name: bolter, S: 4, AP: 5, shots: 2}, {name: meltagun, S: 8, AP: 1}]}
  stupefied: [never, always, when_it_pays]
  pinning: true
`),
	scenario(`shooting:
  firer: ` + bolters + `
  target: {name: Revellers, models: [5, 10], ` + marine + `, weapons: [{name: bolter, S: User, AP: 5, shots: 2}]}
  pinning: [false, true]
  options: {broken_return_fire: [snap_shots, none], morale_check: [quarter, never]}
`),
	scenario(`assault:
  attacker: {name: Berserkers, models: 8, WS: 5, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 2, Ld: 9, Sv: 3+,
             rules: [Feel No Pain (5+)], melee: {name: axe, S: +1, AP: 4}}
  defender: {name: Guard, models: 6, WS: 5, BS: 4, S: 4, T: 4, W: 2, I: 4, A: 2, Ld: 9, Sv: 2+, Inv: 4+,
             rules: [Eternal Warrior], melee: {name: maul, S: 8, AP: 3, rules: [Instant Death]}}
  charged: [false, true]
`),
	// Gets Hot in Reactions: the target's Return Fire and the defender's
	// Overwatch wound the unit that fires them, multi-wound models, a
	// Blast marker that finds fewer models, Master-crafted and a Wall of
	// Death that Get Hot.
	scenario(`shooting:
  firer: {name: Guns, models: 4, ` + marine + `, rules: [Firing Protocols (2)],
          weapons: [{name: missile, type: "Heavy 1, Blast (3\")", range: 48, S: 5, AP: 4},
                    {name: bolter, type: Rapid Fire, range: 24, S: 4, AP: 5}]}
  target: {name: Revellers, models: 3, WS: 4, BS: 4, S: 4, T: 4, W: 2, I: 4, A: 1, Ld: 8, Sv: 3+,
           weapons: [{name: plasma, type: "Rapid Fire, Gets Hot", range: 24, S: 7, AP: 2},
                     {name: pistol, type: "Pistol 1, Gets Hot, Master-crafted", range: 12, S: 7, AP: 2}]}
  distance: [10, 20]
  reaction: return_fire
  pinning: true
`),
	// The firer's own Gets Hot wounds and Return Fire's go onto two-Wound
	// firers, whose wounded state the target's next attack finds; its
	// Blast marker hits no more models than the firer has left, and its
	// own plasma Gets Hot too; Pinning ties the next attack to whether the
	// firer's shots, which also Get Hot, left an unsaved wound.
	scenario(`shooting:
  firer: {name: Veterans, models: 3, WS: 4, BS: 4, S: 4, T: 4, W: 2, I: 4, A: 1, Ld: 8, Sv: 3+,
          weapons: [{name: plasma, type: "Rapid Fire, Gets Hot", range: 24, S: 7, AP: 2}]}
  target: {name: Revellers, models: 4, WS: 4, BS: 4, S: 4, T: 4, W: 2, I: 4, A: 1, Ld: 7, Sv: 3+, rules: [Firing Protocols (2)],
           weapons: [{name: plasma, type: "Rapid Fire, Gets Hot", range: 24, S: 7, AP: 2},
                     {name: missile, type: "Heavy 1, Blast (3\")", range: 48, S: 5, AP: 4}]}
  distance: [10, 20]
  reaction: [none, return_fire]
  pinning: true
`),
	scenario(`assault:
  attacker: {name: Kakophoni, models: 4, WS: 5, BS: 4, S: 4, T: 4, W: 2, I: 5, A: 2, Ld: 9, Sv: 3+,
             melee: {name: blade, S: +1, AP: 3}}
  defender: {name: Guard, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 2, I: 3, A: 1, Ld: 8, Sv: 3+, rules: [Firing Protocols (2)],
             weapons: [{name: flamer, type: "Assault 1, Template, Gets Hot", S: 5, AP: 3},
                       {name: pistol, type: "Pistol 1, Gets Hot, Master-crafted", range: 12, S: 7, AP: 2}]}
  distance: [4, 8]
  options: {overwatch: true}
`),
	scenario(`assault:
  attacker: ` + assaultSquad + `
  defender: {name: Militia, models: 12, WS: 3, BS: 3, S: 3, T: 3, W: 1, I: 3, A: 1, Ld: 7, Sv: 5+, rules: [{Fearless: [false, true]}]}
  difficult_terrain: [false, true]
  options: {charge_bonus_attacks: [0, 1], fnp_vs_instant_death: true}
`),
}

// TestStupefiedRules pins the Stupefied roll end to end: 6+ to ignore an
// unsaved wound (5+ with Fearless), never against Instant Death, whether
// from the weapon's rule or from Strength double the Toughness; and a
// Stupefied or Fearless unit takes no Morale check or Pinning test from
// shooting.
func TestStupefiedRules(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: Guns, models: 1, ` + marine + `, weapons: [{name: gun, S: [4, 8], AP: 5, shots: 36, rules: [{Instant Death: [false, true]}]}]}
  target: {` + reveller + `, rules: [Lords of Profligacy, {Fearless: [false, true]}]}
  stupefied: [never, always]
  pinning: true
`)
	_, es := runScenario(t, src, 2000)
	checked := 0
	for _, e := range es {
		if e.Metric != metricMitigated {
			continue
		}
		checked++
		// 36 shots: BS 4 hits 4/6; S4 v T4 wounds 3/6 (S8: 2/6 short of
		// certain, 5/6); AP5 leaves the 3+ save, so 2/6 go unsaved.
		pWound := 3.0 / 6
		if e.Param("S") == 8 {
			pWound = 5.0 / 6
		}
		unsaved := 36 * 4.0 / 6 * pWound * 2 / 6
		want := 0.0
		instant := e.Param("instant_death") == true || e.Param("S") == 8 // S8 >= 2 x T4
		if e.Param("stupefied") == "always" && !instant {
			want = unsaved / 6 // 6+
			if e.Param("fearless") == true {
				want = unsaved * 2 / 6 // 5+
			}
		}
		if math.Abs(e.Exact-want) > 1e-9 {
			t.Errorf("mitigated %v: exact %.6f, want %.6f", e.Params, e.Exact, want)
		}
		if want == 0 && e.Value != 0 {
			t.Errorf("mitigated %v: %v wounds ignored where no Stupefied roll is allowed", e.Params, e.Value)
		}
	}
	if checked != 16 { // S 2 x Instant Death 2 x Fearless 2 x stupefied 2
		t.Errorf("%d estimates of %s, want 16", checked, metricMitigated)
	}
	for _, metric := range []string{metricMorale, metricPinned} {
		for _, e := range es {
			if e.Metric != metric || (e.Param("stupefied") != "always" && e.Param("fearless") != true) {
				continue
			}
			if e.Exact != 0 || e.Successes != 0 {
				t.Errorf("%s %v: exact %v, %d trials; a Stupefied or Fearless unit takes no test from shooting", metric, e.Params, e.Exact, e.Successes)
			}
		}
	}
	// Without Stupefied or Fearless, 36 shots remove 5 or more of 10 often
	// enough that some Morale checks fail.
	e := find(t, es, metricMorale, "stupefied", "never", "fearless", false, "S", 4, "instant_death", false)
	if e.Exact <= 0.05 {
		t.Errorf("morale_failed without Stupefied or Fearless: exact %v, want a real chance", e.Exact)
	}
}

// TestWhenItPays checks the when_it_pays policy: it goes Stupefied when the
// roll saves more models than Snap Shots cost, and not when the incoming
// attack has Instant Death (nothing saved) and its own guns would suffer.
func TestWhenItPays(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: Guns, models: 5, ` + marine + `, weapons: [{name: gun, S: 4, AP: 5, shots: 2, rules: [{Instant Death: [false, true]}]}]}
  target: {` + reveller + `, rules: [Lords of Profligacy], weapons: [{name: bolter, S: 4, AP: 5, shots: 2}]}
  stupefied: when_it_pays
`)
	_, es := runScenario(t, src, 2000)
	if e := find(t, es, metricChoseStupefied, "instant_death", true); e.Exact != 0 || e.Value != 0 {
		t.Errorf("went Stupefied against Instant Death: exact %v, estimate %v", e.Exact, e.Value)
	}
	// Without Instant Death: the Stupefied roll saves 1/6 of the 10 * 1/9
	// unsaved wounds the five Guns inflict, about 0.19 models; Snap Shots
	// cut its own 20 shots from hitting on 4/6 to 1/6, about 20 * 3/6 *
	// 3/6 * 2/6 = 1.67 unsaved wounds on the Guns, much more. So: not.
	if e := find(t, es, metricChoseStupefied, "instant_death", false); e.Exact != 0 {
		t.Errorf("went Stupefied when Snap Shots cost more: exact %v", e.Exact)
	}
	// With no guns of its own there is nothing to lose.
	src = strings.Replace(src, ", weapons: [{name: bolter, S: 4, AP: 5, shots: 2}]}", "}", 1)
	_, es = runScenario(t, src, 2000)
	if e := find(t, es, metricChoseStupefied, "instant_death", false); e.Exact != 1 || e.Value != 1 {
		t.Errorf("did not go Stupefied with nothing to lose: exact %v, estimate %v", e.Exact, e.Value)
	}
}

// TestWhenItPaysOwnTurn: when_it_pays weighs the target's own next attack
// as that attack is made, in its own turn without moving, whether or not
// the firer moved. Ten Bolters fire 20 shots (Heavy 2) of 4/6 * 3/6 * 2/6
// = 1/9 unsaved wounds, 20/9, of which the Stupefied roll saves 1/6: at
// most 10/27 models (less after moving, as Snap Shots). The Revellers' ten Heavy
// 1 guns (S5 AP4) at the Bolters cause 4/6 * 4/6 * 2/6 = 4/27 unsaved
// wounds a shot, 1/27 as Snap Shots: Stupefied costs 10 * 3/27 = 10/9
// models, so it does not pay, moved or not. Weighed as though the
// Revellers had moved too, Heavy would be Snap Shots either way and
// Stupefied would seem free.
func TestWhenItPaysOwnTurn(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: Bolters, models: 10, ` + marine + `, weapons: [{name: bolter, type: Heavy 2, range: 24, S: 4, AP: 5}]}
  target: {` + reveller + `, rules: [Lords of Profligacy], weapons: [{name: heavy gun, type: Heavy 1, range: 36, S: 5, AP: 4}]}
  distance: 24
  moved: [false, true]
  stupefied: when_it_pays
`)
	_, es := runScenario(t, src, 2000)
	for _, moved := range []bool{false, true} {
		if e := find(t, es, metricChoseStupefied, "moved", moved); e.Exact != 0 || e.Value != 0 {
			t.Errorf("moved %v: went Stupefied at a cost of 10/9 models to save 10/27: exact %v, estimate %v", moved, e.Exact, e.Value)
		}
	}
}

// TestArtillerySwept: a charged Automated Artillery unit that Falls Back is
// always destroyed by the Sweeping Advance, with no dice; artillery that
// wins does not sweep.
func TestArtillerySwept(t *testing.T) {
	src := scenario("assault:\n  attacker: " + assaultSquad + "\n  defender: " + rapier + "\n")
	_, es := runScenario(t, src, 20_000)
	fell := find(t, es, metricMorale, "unit", "Rapier")
	swept := find(t, es, metricSwept, "unit", "Rapier")
	if fell.Successes == 0 || swept.Successes != fell.Successes || math.Abs(swept.Exact-fell.Exact) > 1e-12 {
		t.Errorf("Rapier fell back %d times (exact %.5f), swept %d (exact %.5f); want every fall back swept",
			fell.Successes, fell.Exact, swept.Successes, swept.Exact)
	}
	if d := find(t, es, metricDestroyed, "unit", "Rapier"); d.Successes < swept.Successes {
		t.Errorf("swept %d times but destroyed only %d", swept.Successes, d.Successes)
	}

	// Artillery that fights without charging and wins never sweeps.
	src = scenario("assault:\n  attacker: {name: Rapier, models: 3, WS: 5, BS: 4, S: 6, T: 5, W: 2, I: 5, A: 4, Ld: 7, Sv: 3+, rules: [Automated Artillery]}\n" +
		"  defender: {name: Weak, models: 3, WS: 2, BS: 2, S: 3, T: 3, W: 1, I: 2, A: 1, Ld: 5, Sv: 6+}\n  charged: false\n")
	_, es = runScenario(t, src, 20_000)
	if e := find(t, es, metricMorale, "unit", "Weak"); e.Successes == 0 {
		t.Error("the artillery's enemy never fell back")
	}
	if e := find(t, es, metricSwept, "unit", "Weak"); e.Exact != 0 || e.Successes != 0 {
		t.Errorf("Automated Artillery made a Sweeping Advance: exact %v, %d trials", e.Exact, e.Successes)
	}
}

// TestAllocateNothing covers the models the built-ins do not: return
// fire resizes the prepared volleys in place.
func TestAllocateNothing(t *testing.T) {
	src := scenario(`shooting:
  firer: ` + bolters + `
  target: {` + reveller + `, rules: [Lords of Profligacy], weapons: [{name: bolter, S: 4, AP: 5, shots: 2}]}
  stupefied: [never, always, when_it_pays]
  pinning: true
`)
	s, err := registry.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	scenariotest.AllocateNothing(t, s)
	// Gets Hot on both sides, Return Fire, and a Blast marker in the next
	// attack that follows the firer's models left.
	src = scenario(`shooting:
  firer: {name: Veterans, models: 3, WS: 4, BS: 4, S: 4, T: 4, W: 2, I: 4, A: 1, Ld: 8, Sv: 3+,
          weapons: [{name: plasma, type: "Rapid Fire, Gets Hot", range: 24, S: 7, AP: 2}]}
  target: {name: Revellers, models: 4, WS: 4, BS: 4, S: 4, T: 4, W: 2, I: 4, A: 1, Ld: 7, Sv: 3+, rules: [Firing Protocols (2)],
           weapons: [{name: plasma, type: "Rapid Fire, Gets Hot", range: 24, S: 7, AP: 2},
                     {name: missile, type: "Heavy 1, Blast (3\")", range: 48, S: 5, AP: 4}]}
  distance: 10
  reaction: return_fire
  pinning: true
`)
	if s, err = registry.Parse("t.yaml", []byte(src)); err != nil {
		t.Fatal(err)
	}
	scenariotest.AllocateNothing(t, s)
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"stupefied-vs-bolters", "firing-protocols", "automated-artillery-assault", "bulky-outnumber"} {
		src, _ := scenarios.Builtin(name)
		f.Add(src)
	}
	f.Add([]byte(scenario("shooting:\n  firer: " + bolters + "\n  target: {" + reveller + ", rules: [Swiftstride, {Fearless: [true]}]}\n  stupefied: [when_it_pays]\n")))
	f.Add([]byte(scenario("assault:\n  attacker: " + rapier + "\n  defender: [" + assaultSquad + "]\n  charged: [false]\n  grid: {metric: won, rows: x, cols: y}\n")))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := registry.Parse("fuzz.yaml", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml:") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		if len(s.Models) == 0 || len(s.Models) > scenarios.MaxPoints {
			t.Fatalf("%d models", len(s.Models))
		}
		for _, m := range s.Models {
			_ = m.Slots()
		}
	})
}

// TestDocExample keeps the example at the top of docs/heresy.md true.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/heresy.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```yaml\n")
	src, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/heresy.md has no yaml example")
	}
	s, err := registry.Parse("docs/heresy.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Models) != 12 {
		t.Errorf("%d models, want 12 (Fearless x distance x stupefied)", len(s.Models))
	}
}

// TestSaves: Sv, Inv and cover are written as printed, 2+ to 6+, with "-"
// or none for no save; a bare number is refused with the save it likely
// means, as in every ruleset (docs/scenarios.md). The target's line is
// "  target: {name: R, models: 5, WS: 4, ..., Ld: 8, ", 82 characters, so
// the value of Sv starts at column 82 + len("Sv: ") + 1 = 87, and that of
// Inv at 88.
func TestSaves(t *testing.T) {
	const line = "  target: {name: R, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, "
	for _, tc := range []struct {
		saves string
		want  string // "" for no error
	}{
		{"Sv: 3+", ""},
		{"Sv: 2+, Inv: 4+", ""},
		{`Sv: "-", Inv: none`, ""},
		{"Sv: 3", `t.yaml:5:87: expected Sv as a save with its +, such as 3+; found "3"`},
		{"Sv: 7+", `t.yaml:5:87: expected Sv as a save from 2+ to 6+, or "-" (quoted) or none for no save, found "7+"`},
		{"Sv: 1", `t.yaml:5:87: expected Sv as a save from 2+ to 6+, or "-" (quoted) or none for no save, found "1"`},
		{"Inv: 4, Sv: 3+", `t.yaml:5:88: expected Inv as a save with its +, such as 4+; found "4"`},
	} {
		src := scenario("shooting:\n  firer: " + bolters + "\n" + line + tc.saves + "}\n")
		_, err := registry.Parse("t.yaml", []byte(src))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s:\n got: %s\nwant: %s", tc.saves, got, tc.want)
		}
	}
}

// TestMetricsKey: a question's metrics key chooses among every metric the
// question has, as in every ruleset (docs/scenarios.md): results keep the
// question's order (shootingMetrics, assaultMetrics), a metric that cannot
// vary here is left out unless named, and --metrics (SelectMetrics)
// overrides the key.
func TestMetricsKey(t *testing.T) {
	shoot := func(extra string) string {
		return scenario("shooting:\n  firer: " + bolters + "\n  target: {" + reveller + ", rules: [Lords of Profligacy]}\n" + extra)
	}
	assault := func(extra string) string {
		return scenario("assault:\n  attacker: " + assaultSquad + "\n  defender: {" + reveller + "}\n" + extra)
	}
	for _, tc := range []struct {
		name, src string
		flag      []string // --metrics, or nil
		want      string   // the metrics reported, each at every point
	}{
		// shootingMetrics but those idle() names: no pinning, Concussive
		// or Gets Hot weapon, Reaction, target weapons or when_it_pays,
		// and no Damage Mitigation roll (no Feel No Pain, the target never
		// Stupefied, no Evade).
		{"shooting default", shoot(""), nil, "hits wounds unsaved_wounds casualties destroyed morale_failed"},
		{"Feel No Pain", scenario("shooting:\n  firer: " + bolters + "\n  target: {" + reveller + ", rules: [Feel No Pain (5+)]}\n"), nil,
			"hits wounds unsaved_wounds mitigated casualties destroyed morale_failed"},
		{"Stupefied", shoot("  stupefied: always\n"), nil, "hits wounds unsaved_wounds mitigated casualties destroyed morale_failed"},
		{"Evade", shoot("  reaction: evade\n"), nil, "hits wounds unsaved_wounds mitigated casualties destroyed morale_failed reacted"},
		{"key, question's order", shoot("  metrics: [casualties, hits]\n"), nil, "hits casualties"},
		{"key as one string", shoot("  metrics: casualties, hits\n"), nil, "hits casualties"},
		{"idle metric named", shoot("  metrics: [pinned, destroyed]\n"), nil, "destroyed pinned"},
		{"flag overrides key", shoot("  metrics: [hits, unsaved_wounds, casualties]\n"), []string{"wounds"}, "wounds"},
		{"flag without key", shoot(""), []string{"gets_hot", "hits"}, "hits gets_hot"},
		// chose_stupefied can vary once a point is when_it_pays; it is
		// then reported at every point.
		{"when_it_pays", shoot("  stupefied: [never, when_it_pays]\n  metrics: [chose_stupefied]\n"), nil, "chose_stupefied"},
		{"when_it_pays default", shoot("  stupefied: [never, when_it_pays]\n"), nil,
			"hits wounds unsaved_wounds mitigated casualties destroyed morale_failed chose_stupefied"},
		// assaultMetrics per unit, the charge's (reached,
		// overwatch_casualties: idle here, disordered) for the attacker
		// only.
		// Neither unit Stupefied nor with Feel No Pain, no Hold the Line:
		// no Disordered charge, no Damage Mitigation roll.
		{"assault default", assault(""), nil, "hits wounds unsaved_wounds casualties won morale_failed swept destroyed"},
		{"assault, Stupefied charger", scenario("assault:\n  attacker: " + strings.Replace(assaultSquad, "melee:", "rules: [Lords of Profligacy], melee:", 1) + "\n  defender: {" + reveller + "}\n  stupefied: attacker\n"), nil, "disordered hits wounds unsaved_wounds mitigated casualties won morale_failed swept destroyed"},
		{"assault, Hold the Line", assault("  hold_the_line: [false, true]\n"), nil, "disordered hits wounds unsaved_wounds casualties won morale_failed swept destroyed"},
		{"assault key", assault("  metrics: [destroyed, won]\n"), nil, "won destroyed"},
		{"assault flag", assault("  metrics: [destroyed, won]\n"), []string{"reached"}, "reached"},
	} {
		s, err := registry.Parse("t.yaml", []byte(tc.src))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if tc.flag != nil {
			if err := s.SelectMetrics(tc.flag); err != nil {
				t.Errorf("%s: --metrics %v: %v", tc.name, tc.flag, err)
				continue
			}
		}
		run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: 100, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		es := s.Results(run)
		for _, e := range es {
			if e.Param("unit") != "Revellers" { // one unit's metrics in an assault
				got = append(got, e.Metric)
			}
			if e.Metric == metricPinned && (e.Exact != 0 || e.Successes != 0) {
				t.Errorf("%s: pinned without a Pinning test: exact %v, %d trials", tc.name, e.Exact, e.Successes)
			}
		}
		points := len(got) / max(len(slices.Compact(slices.Clone(got))), 1)
		if g := strings.Join(slices.Compact(got), " "); g != tc.want || points != len(s.Models) {
			t.Errorf("%s:\n got: %s, at %d points\nwant: %s, at %d", tc.name, g, points, tc.want, len(s.Models))
		}
	}
	// Whatever is chosen, the question knows every metric it has.
	s, err := registry.Parse("t.yaml", []byte(shoot("  metrics: [hits]\n")))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(s.Metrics(), " "), strings.Join(shootingMetrics, " "); got != want {
		t.Errorf("Metrics() = %s\nwant %s", got, want)
	}
}

// TestEveryProblemAtOnce: problems found as a unit, weapon or question is
// read and those about how its values combine are reported together, in
// one load (docs/scenarios.md), each where it was written. Lines and
// columns are counted in the sources below: line 16 of the shooting file
// is "    rules: [Twin-linked]", whose rule starts at column 13.
func TestEveryProblemAtOnce(t *testing.T) {
	const profile = "    WS: 4\n    BS: 4\n    S: 4\n    T: %s\n    W: 1\n    I: 4\n    A: 1\n    Ld: 8\n    Sv: 3+\n"
	unit := func(name, models, tough string) string {
		return "    name: " + name + "\n    models: " + models + "\n" + strings.Replace(profile, "%s", tough, 1)
	}
	for _, tc := range []struct{ name, src, want string }{
		{"shooting", scenario("shooting:\n  firer:\n" + unit("Bolters", "10", "4") +
			"    rules: [Twin-linked]\n" + // line 16
			"    weapons: [{name: bolter, S: 4, AP: 7, shots: 2, rules: [Fearless]}]\n" +
			"  target:\n" + unit("Revellers", "10", "0") + // T 0 on line 24
			"  stupefied: always\n" + // line 30
			"  reaction: maybe\n" +
			"  grid: {metric: casualties, rows: distance, cols: distance}\n"),
			`t.yaml:16:13: Twin-linked is a weapon rule, not a model's (unit "Bolters")` + "\n" +
				`t.yaml:17:40: AP 7 is out of range; expected 1 to 6, or "-" (quoted) or none for no AP` + "\n" +
				`t.yaml:17:61: Fearless is a model's rule, not a weapon's (weapon "bolter")` + "\n" +
				`t.yaml:24:8: T 0 is out of range; expected 1 to 10` + "\n" +
				`t.yaml:31:13: reaction "maybe": expected none, return_fire or evade` + "\n" +
				`t.yaml:32:18: grid metric "casualties": expected a probability metric of the question (destroyed, morale_failed, pinned, concussed, reacted, chose_stupefied) or casualties_per_100_points` + "\n" +
				`t.yaml:32:52: grid rows and cols are both "distance"; expected two parameters` + "\n" +
				`t.yaml:30:14: stupefied: always, but target "Revellers" cannot become Stupefied: every model needs Lords of Profligacy`},
		{"assault", scenario("assault:\n  attacker:\n" + unit("Guns", "3", "4") +
			"    rules: [Automated Artillery, Rending (6+)]\n" + // line 16
			"    melee: {name: fist, S: 8, AP: 2, rules: [Deflagrate]}\n" +
			"  defender:\n" + unit("Guns", "5", "4") + // named on line 19
			"    weapons: [{name: gun, S: 4, AP: 5}]\n" +
			"  charged: [true, false]\n" + // line 31
			"  difficult_terrain: true\n" +
			"  stupefied: both\n" +
			"  options: {overwatch: false, max_charge: 99}\n"),
			`t.yaml:16:34: Rending is a weapon rule, not a model's (unit "Guns")` + "\n" +
				`t.yaml:17:12: melee weapon "fist": Deflagrate, Blast, Template and Gets Hot are ranged weapons' rules, not modelled in close combat` + "\n" +
				`t.yaml:34:43: max_charge 99 is out of range; expected 0 to 48` + "\n" +
				`t.yaml:19:5: attacker and defender are both named "Guns"; results tell the units apart by name` + "\n" +
				`t.yaml:19:5: the defender's weapons are fired only in Overwatch; set options: {overwatch: true}, or remove them` + "\n" +
				`t.yaml:31:12: attacker "Guns" is Automated Artillery, which may not charge; set charged: false to have it fight without charging` + "\n" +
				// The assault's mapping, at its first key.
				`t.yaml:32:22: difficult_terrain: true needs charged: true (it is the attacker's charge that crosses it)` + "\n" +
				`t.yaml:33:14: stupefied: both, but a unit without Lords of Profligacy cannot become Stupefied`},
	} {
		_, err := registry.Parse("t.yaml", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got: %v\nwant: %s", tc.name, err, tc.want)
		}
	}
}

// TestWoundChartOption: the S vs T chart is OPEN; wound_chart picks it in
// both questions. An S3 gun against T7 (S - T = -4) cannot wound on the
// standard chart and wounds on a 6 with six_always: 36 BS 4 shots hit
// 36 * 4/6 = 24 times and wound 24 * 1/6 = 4 times. In an assault, ten
// S3 blows at T7 (WS4 against WS4: 4+, 5 hits; A1 with no charge) wound
// 5 * 1/6 = 5/6 times.
func TestWoundChartOption(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: Guns, models: 1, ` + marine + `, weapons: [{name: gun, S: 3, AP: 5, shots: 36}]}
  target: {name: Wall, models: 5, WS: 4, BS: 4, S: 4, T: 7, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}
  options: {wound_chart: [standard, six_always]}
`)
	_, es := runScenario(t, src, 2000)
	for chart, want := range map[string]float64{"standard": 0, "six_always": 4} {
		e := find(t, es, metricWounds, "wound_chart", chart)
		if math.Abs(e.Exact-want) > 1e-9 {
			t.Errorf("shooting, wound_chart %s: exact wounds %.6f, want %v", chart, e.Exact, want)
		}
		if z := e.Z(); farFromExact(e, 5) {
			t.Errorf("shooting, wound_chart %s: estimate %.4f, exact %.4f, z %.1f", chart, e.Value, e.Exact, z)
		}
	}
	src = scenario(`assault:
  attacker: {name: Weak, models: 10, WS: 4, BS: 4, S: 3, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}
  defender: {name: Wall, models: 5, WS: 4, BS: 4, S: 4, T: 7, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+}
  charged: false
  options: {wound_chart: [standard, six_always]}
`)
	_, es = runScenario(t, src, 2000)
	for chart, want := range map[string]float64{"standard": 0, "six_always": 5.0 / 6} {
		if e := find(t, es, metricWounds, "wound_chart", chart, "unit", "Wall"); math.Abs(e.Exact-want) > 1e-9 {
			t.Errorf("assault, wound_chart %s: exact wounds on Wall %.6f, want %.6f", chart, e.Exact, want)
		}
	}
	if got := woundCharts[optWoundChart.def.(string)]; got != rules.DefaultOptions.WoundChart {
		t.Errorf("wound_chart's default %q is not rules.DefaultOptions.WoundChart", optWoundChart.def)
	}
}

// TestTemplateHitsShootingOnly: in an assault a Template fires only in
// Overwatch, always as Wall of Death (D3 hits), so the number of models a
// placed template covers is never read there; setting it is an error, not
// a value silently ignored.
func TestTemplateHitsShootingOnly(t *testing.T) {
	src := scenario(`assault:
  attacker: ` + assaultSquad + `
  defender: {name: Burners, models: 5, ` + marine + `, weapons: [{name: flamer, type: "Assault 1, Template", S: 4, AP: 5}]}
  options: {overwatch: true, template_hits: 3}
`)
	_, err := registry.Parse("t.yaml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), `t.yaml:6:30: unknown key "template_hits"`) {
		t.Errorf("template_hits in an assault: error %v, want an unknown key", err)
	}
}

// TestStupefiedFixedStrengthInAssault: stupefied_fixed_strength reaches
// close-combat weapons too. Ten Stupefied models (A1, no charge) strike a
// fixed S4 maul at WS4 against WS4 (4+): 5 hits. At T4 the maul wounds on
// 4+ (5 * 3/6 = 5/2); raised to S5 by the option, on 3+ (5 * 4/6 = 10/3).
func TestStupefiedFixedStrengthInAssault(t *testing.T) {
	src := scenario(`assault:
  attacker: {` + reveller + `, rules: [Lords of Profligacy], melee: {name: maul, S: 4, AP: "-"}}
  defender: {name: Guard, models: 10, ` + marine + `}
  charged: false
  stupefied: attacker
  options: {stupefied_fixed_strength: [false, true]}
`)
	_, es := runScenario(t, src, 2000)
	for on, want := range map[bool]float64{false: 5.0 / 2, true: 10.0 / 3} {
		e := find(t, es, metricWounds, "stupefied_fixed_strength", on, "unit", "Guard")
		if math.Abs(e.Exact-want) > 1e-9 {
			t.Errorf("stupefied_fixed_strength %v: exact wounds on Guard %.6f, want %.6f", on, e.Exact, want)
		}
		if z := e.Z(); farFromExact(e, 5) {
			t.Errorf("stupefied_fixed_strength %v: estimate %.4f, exact %.4f, z %.1f", on, e.Value, e.Exact, z)
		}
	}
}

// TestStrengthMultiplier: a power fist (S: x2) in Stupefied hands. Ten
// Revellers (S4, A1, no charge) strike at WS4 against WS4 (4+) with AP2
// against a 3+ save (none): each of the ten blows is an unsaved wound with
// 1/2 * 5/6 = 5/12, S9 and S10 both wounding T5 on 2+. strength_multiplier
// characteristic multiplies the Strength characteristic and adds
// Stupefied's +1 after: 4 x 2 + 1 = 9, short of Instant Death against T5,
// so the three W3 Brutes lose a model to every third wound: casualties
// min(3, floor(X/3)) for X ~ Binomial(10, 5/12). modified multiplies the
// Stupefied Strength: (4 + 1) x 2 = 10, double the Toughness, so every
// unsaved wound slays a model: min(3, X).
func TestStrengthMultiplier(t *testing.T) {
	src := scenario(`assault:
  attacker: {` + reveller + `, rules: [Lords of Profligacy], melee: {name: power fist, S: x2, AP: 2}}
  defender: {name: Brutes, models: 3, WS: 4, BS: 4, S: 4, T: 5, W: 3, I: 1, A: 1, Ld: 8, Sv: 3+}
  charged: false
  stupefied: attacker
  options: {strength_multiplier: [characteristic, modified]}
`)
	_, es := runScenario(t, src, 100_000)
	const n, p = 10, 5.0 / 12
	pmf := func(k int) float64 {
		return float64(binomial(n, k)) * math.Pow(p, float64(k)) * math.Pow(1-p, float64(n-k))
	}
	var characteristic, modified float64
	for k := 0; k <= n; k++ {
		characteristic += pmf(k) * float64(min(3, k/3))
		modified += pmf(k) * float64(min(3, k))
	}
	for choice, want := range map[string]float64{"characteristic": characteristic, "modified": modified} {
		e := find(t, es, metricCasualties, "strength_multiplier", choice, "unit", "Brutes")
		if math.Abs(e.Exact-want) > 1e-9 {
			t.Errorf("strength_multiplier %s: exact casualties on Brutes %.6f, want %.6f", choice, e.Exact, want)
		}
		if z := e.Z(); farFromExact(e, 5) {
			t.Errorf("strength_multiplier %s: estimate %.4f, exact %.4f, z %.1f", choice, e.Value, e.Exact, z)
		}
	}
}

// TestStrengthMultiplierRefused: S x2 is read in its spellings and out of
// its range refused; strength_multiplier where no weapon multiplies is
// refused, at its key.
func TestStrengthMultiplierRefused(t *testing.T) {
	// X3 and ×2 read as x3 and x2: the sweep's points are labelled so,
	// and ×2 beside x2 is the same value twice.
	src := scenario(`assault:
  attacker: {` + reveller + `, melee: {name: fist, S: [X3, "\u00d72"], AP: 2}}
  defender: {name: Guard, models: 10, ` + marine + `}
  charged: false
`)
	_, es := runScenario(t, src, 100)
	for _, label := range []string{"x3", "x2"} {
		find(t, es, metricWounds, "S", label, "unit", "Guard")
	}
	if _, err := registry.Parse("t.yaml", []byte(strings.Replace(src, "X3", "x2", 1))); err == nil || !strings.Contains(err.Error(), "S lists x2 twice") {
		t.Errorf("S: [x2, \u00d72]: %v, want the value listed twice", err)
	}
	for _, tt := range []struct{ s, want string }{
		{"x1", `weapon S "x1": expected x2 or x3`},
		{"x4", `weapon S "x4": expected x2 or x3`},
		{"xx", `weapon S "xx": expected x2 or x3`},
	} {
		src := scenario(`assault:
  attacker: {` + reveller + `, melee: {name: fist, S: "` + tt.s + `", AP: 2}}
  defender: {name: Guard, models: 10, ` + marine + `}
  charged: false
`)
		_, err := registry.Parse("t.yaml", []byte(src))
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("S %s: %v", tt.s, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("S %s: %v, want %q", tt.s, err, tt.want)
		}
	}
	for _, q := range []string{`assault:
  attacker: ` + assaultSquad + `
  defender: {name: Guard, models: 10, ` + marine + `}
  charged: false
  options: {strength_multiplier: modified}
`, `shooting:
  firer: {name: Gun, models: 1, ` + marine + `, weapons: [{name: gun, S: 8, AP: 2}]}
  target: {name: Four, models: 4, ` + marine + `}
  options: {strength_multiplier: modified}
`} {
		_, err := registry.Parse("t.yaml", []byte(scenario(q)))
		if err == nil || !strings.Contains(err.Error(), "strength_multiplier: no weapon multiplies its wielder's Strength (S: x2) at any point") {
			t.Errorf("strength_multiplier with no multiplier: %v", err)
		}
	}
}

// TestPinnedStillTestsMorale: the Pinning test comes as the attack ends and
// the Morale check at the end of the phase, Pinned or not. One BS 5 shot
// (5/6) at S8 (5/6 against T4) and AP2 (no 3+ save) removes one of four W1
// models with 25/36, the only way to an unsaved wound, and a quarter lost
// forces the Morale check; at Ld 7 each test fails with 15/36. Both metrics
// are 25/36 * 15/36, exactly and, over 100,000 trials, within 5 standard
// errors.
func TestPinnedStillTestsMorale(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: Gun, models: 1, WS: 4, BS: 5, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 7, Sv: 3+, weapons: [{name: gun, S: 8, AP: 2}]}
  target: {name: Four, models: 4, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 7, Sv: 3+}
  pinning: true
`)
	_, es := runScenario(t, src, 100_000)
	want := 25.0 / 36 * 15 / 36
	for _, metric := range []string{metricPinned, metricMorale} {
		e := find(t, es, metric)
		if math.Abs(e.Exact-want) > 1e-12 {
			t.Errorf("%s: exact %.6f, want 25/36 * 15/36 = %.6f", metric, e.Exact, want)
		}
		if z := e.Z(); farFromExact(e, 5) {
			t.Errorf("%s: estimate %.4f, want %.4f, z %.1f", metric, e.Value, want, z)
		}
	}
}

// TestPinningWoundsOption: whether a wound Feel No Pain ignores forces the
// Pinning test. Three BS 4 shots (4/6) at S5 (4/6 against T4) and AP4 (no
// 5+ save) leave an unsaved wound each with 4/9, and Feel No Pain (5+)
// ignores it with 2/6, so one is suffered with 8/27. At Ld 8 the test
// fails with 10/36: Pinned (1 - (5/9)^3) * 10/36 counting unsaved wounds
// (the default) and (1 - (19/27)^3) * 10/36 counting those suffered,
// exactly and, over 100,000 trials, within 5 standard errors.
func TestPinningWoundsOption(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: Gun, models: 1, ` + marine + `, weapons: [{name: heavy bolter, type: Heavy 3, range: 36, S: 5, AP: 4}]}
  target: {name: Hardy, models: 10, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 5+, rules: [Feel No Pain (5+)]}
  distance: 12
  pinning: true
  options: {pinning_wounds: [unsaved, suffered]}
`)
	_, es := runScenario(t, src, 100_000)
	for choice, none := range map[string]float64{"unsaved": math.Pow(5.0/9, 3), "suffered": math.Pow(19.0/27, 3)} {
		want := (1 - none) * 10 / 36
		e := find(t, es, metricPinned, "pinning_wounds", choice)
		if math.Abs(e.Exact-want) > 1e-12 {
			t.Errorf("pinning_wounds %s: exact pinned %.6f, want %.6f", choice, e.Exact, want)
		}
		if z := e.Z(); farFromExact(e, 5) {
			t.Errorf("pinning_wounds %s: estimate %.4f, exact %.4f, z %.1f", choice, e.Value, e.Exact, z)
		}
	}
}

// TestWeaponChoiceOption: a Dreadnought (BS 5) with an assault cannon and a
// multi-melta at five Terminators (T4 W2, 2+, 4++) 12" away. By casualties
// it fires the melta: 5/6 to hit, 5/6 to wound (S8), 1/2 past the 4++
// after AP1, each such wound a whole model by Instant Death (S8 is double
// T4): 25/72. By unsaved wounds it fires the cannon (4 shots, 35/216 each
// to wound past the saves, 0.648 in all against the melta's 0.347), which
// removes a model for every two wounds: with p = 35/216, 6p^2q^2 + 4p^3q +
// 2p^4 = 0.1262 (q = 1 - p). The derivation is TestSelectByCasualties' in
// mechanics/heresy.
func TestWeaponChoiceOption(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: Dreadnought, models: 1, WS: 5, BS: 5, S: 6, T: 7, W: 4, I: 4, A: 4, Ld: 8, Sv: 2+,
          weapons: [{name: assault cannon, type: "Heavy 4, Rending (6+)", range: 24, S: 6, AP: 4},
                    {name: multi-melta, type: Heavy 1, range: 12, S: 8, AP: 1}]}
  target: {name: Terminators, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 2, I: 4, A: 2, Ld: 9, Sv: 2+, Inv: 4+}
  distance: 12
  options: {weapon_choice: [casualties, unsaved_wounds]}
`)
	_, es := runScenario(t, src, 100_000)
	p := 35.0 / 216
	q := 1 - p
	for choice, want := range map[string]float64{"casualties": 25.0 / 72, "unsaved_wounds": 6*p*p*q*q + 4*p*p*p*q + 2*p*p*p*p} {
		e := find(t, es, metricCasualties, "weapon_choice", choice)
		if math.Abs(e.Exact-want) > 1e-9 {
			t.Errorf("weapon_choice %s: exact casualties %.6f, want %.6f", choice, e.Exact, want)
		}
		if z := e.Z(); farFromExact(e, 5) {
			t.Errorf("weapon_choice %s: estimate %.4f, exact %.4f, z %.1f", choice, e.Value, e.Exact, z)
		}
	}
	if got := weaponChoices[optWeaponChoice.def.(string)]; got != rules.DefaultOptions.WeaponChoice {
		t.Errorf("weapon_choice's default %q is not rules.DefaultOptions.WeaponChoice", optWeaponChoice.def)
	}
}

// TestDoubleStrengthOption: stupefied_roll_vs_double_strength reaches the
// chain. Five BS 4 Heavy 1 S8 AP3 shots at ten Fearless Stupefied T4 3+
// models go unsaved 5 * 2/3 * 5/6 = 25/9 times; S8 is Instant Death
// against T4, so by default nothing is mitigated and 25/9 = 2.778 models
// fall; with the option the Fearless Stupefied roll (5+) ignores a third:
// 25/27 mitigated, 50/27 = 1.852 casualties (TestStupefiedRollVsDoubleStrength
// in mechanics/heresy derives the same).
func TestDoubleStrengthOption(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: Guns, models: 5, ` + marine + `, weapons: [{name: gun, type: Heavy 1, S: 8, AP: 3}]}
  target: {` + reveller + `, rules: [Lords of Profligacy, Fearless]}
  stupefied: always
  options: {stupefied_roll_vs_double_strength: [false, true]}
`)
	_, es := runScenario(t, src, 20_000)
	for on, want := range map[bool][2]float64{false: {0, 25.0 / 9}, true: {25.0 / 27, 50.0 / 27}} {
		for i, metric := range []string{metricMitigated, metricCasualties} {
			e := find(t, es, metric, "stupefied_roll_vs_double_strength", on)
			if math.Abs(e.Exact-want[i]) > 1e-9 {
				t.Errorf("option %v: exact %s %.6f, want %.6f", on, metric, e.Exact, want[i])
			}
			if z := e.Z(); farFromExact(e, 5) {
				t.Errorf("option %v: %s estimate %.4f, exact %.4f, z %.1f", on, metric, e.Value, e.Exact, z)
			}
		}
	}
}

// TestAssaultResultOptions: loser_ld_penalty and sweeping_advance. One
// model (WS4 S4 I4 A1, no charge) fights five WS4 T4 W1 models with no
// save and no Attacks, Ld 8, I1. Its blow hits on 4+ and wounds on 4+:
// the five lose 1-0 with 1/4 (four models left), else it is a draw. The
// loser tests on Ld 8 less the penalty per point: at 0, Ld 8 fails with
// 10/36; at 1 (the default), Ld 7 with 15/36; at 3, Ld 5 with 26/36. So
// morale_failed is 1/4 of that. The Sweeping Advance (initiative): D6 + 4
// against D6 + 1, the loser caught unless its die beats the winner's by 4
// or more (3 pairs of 36), 33/36; with sweeping_advance none, never.
func TestAssaultResultOptions(t *testing.T) {
	src := scenario(`assault:
  attacker: {name: One, models: 1, ` + marine + `}
  defender: {name: Five, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 1, A: "-", Ld: 8, Sv: none}
  charged: false
  options: {loser_ld_penalty: [0, 1, 3], sweeping_advance: [initiative, none]}
`)
	_, es := runScenario(t, src, 100_000)
	fail := map[int]float64{0: 10.0 / 36, 1: 15.0 / 36, 3: 26.0 / 36}
	for pen, f := range fail {
		for _, sweep := range []string{"initiative", "none"} {
			swept := 0.0
			if sweep == "initiative" {
				swept = f / 4 * 33 / 36
			}
			for _, c := range []struct {
				metric string
				want   float64
			}{{metricWon, 0}, {metricMorale, f / 4}, {metricSwept, swept}, {metricDestroyed, swept}} {
				e := find(t, es, c.metric, "loser_ld_penalty", pen, "sweeping_advance", sweep, "unit", "Five")
				if math.Abs(e.Exact-c.want) > 1e-9 {
					t.Errorf("penalty %d, sweep %s: exact %s %.6f, want %.6f", pen, sweep, c.metric, e.Exact, c.want)
				}
				if z := e.Z(); farFromExact(e, 5) {
					t.Errorf("penalty %d, sweep %s: %s estimate %.4f, exact %.4f, z %.1f", pen, sweep, c.metric, e.Value, e.Exact, z)
				}
			}
		}
	}
}

// TestStupefiedAfterOverwatch: a charger that becomes Stupefied once the
// Overwatch against it is resolved has no Stupefied roll against that
// Overwatch, but its charge is Disordered and it has the roll in the
// combat. Five Guard fire Overwatch with one S4 AP5 shot each as Snap
// Shots: hit on 6 (1/6), wound T4 on 4+ (1/2), past the Revellers' 3+
// save 1/3: 5/36 unsaved wounds, each a model (W1). Stupefied from the
// start, the 6+ roll leaves 5/6 of them: 25/216. In the combat (both I4,
// so all five Guard strike, A1 at WS4 against WS4: 4+) the Revellers
// take 5 * 1/2 * 1/2 * 1/3 = 5/12 unsaved wounds, of which a Stupefied
// unit ignores 1/6: 5/72 mitigated.
func TestStupefiedAfterOverwatch(t *testing.T) {
	src := scenario(`assault:
  attacker: {` + reveller + `, rules: [Lords of Profligacy]}
  defender: {name: Guard, models: 5, ` + marine + `, weapons: [{name: bolter, S: 4, AP: 5}]}
  stupefied: [none, attacker, attacker_after_overwatch]
  options: {overwatch: true}
`)
	_, es := runScenario(t, src, 100_000)
	for st, want := range map[string][3]float64{
		"none":                     {5.0 / 36, 0, 0},
		"attacker":                 {25.0 / 216, 1, 5.0 / 72},
		"attacker_after_overwatch": {5.0 / 36, 1, 5.0 / 72},
	} {
		for i, metric := range []string{metricOverwatch, metricDisordered, metricMitigated} {
			e := find(t, es, metric, "stupefied", st, "unit", "Revellers")
			if math.Abs(e.Exact-want[i]) > 1e-9 {
				t.Errorf("stupefied %s: exact %s %.6f, want %.6f", st, metric, e.Exact, want[i])
			}
			if z := e.Z(); farFromExact(e, 5) {
				t.Errorf("stupefied %s: %s estimate %.4f, exact %.4f, z %.1f", st, metric, e.Value, e.Exact, z)
			}
		}
	}
	// An Overwatch whose weapons cannot wound the charger (S1 against T5:
	// four below, which the chart cannot wound) is still a Shooting
	// Attack: the charger becomes Stupefied after it, its charge
	// Disordered; nothing is wounded.
	_, es = runScenario(t, scenario(`assault:
  attacker: {name: Revellers, models: 10, WS: 4, BS: 4, S: 4, T: 5, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+, rules: [Lords of Profligacy]}
  defender: {name: Guard, models: 5, `+marine+`, weapons: [{name: toy, S: 1, AP: 5}]}
  stupefied: attacker_after_overwatch
  options: {overwatch: true}
`), 20_000)
	for metric, want := range map[string]float64{metricOverwatch: 0, metricDisordered: 1} {
		if e := find(t, es, metric, "unit", "Revellers"); e.Exact != want || e.Value != want {
			t.Errorf("an Overwatch that cannot wound: %s exact %v, estimate %v, want %v", metric, e.Exact, e.Value, want)
		}
	}
	// An Overwatch whose one weapon (range 6") cannot reach a charge from
	// 9" fires nothing: no Shooting Attack, so the charger stays as it
	// was, its charge not Disordered, nothing mitigated.
	_, es = runScenario(t, scenario(`assault:
  attacker: {`+reveller+`, rules: [Lords of Profligacy]}
  defender: {name: Guard, models: 5, `+marine+`, weapons: [{name: pistol, S: 4, AP: 5, range: 6}]}
  stupefied: attacker_after_overwatch
  distance: 9
  options: {overwatch: true}
`), 20_000)
	for _, metric := range []string{metricOverwatch, metricDisordered, metricMitigated} {
		if e := find(t, es, metric, "unit", "Revellers"); e.Exact != 0 || e.Value != 0 {
			t.Errorf("an Overwatch out of range: %s exact %v, estimate %v, want 0", metric, e.Exact, e.Value)
		}
	}
	for _, c := range []struct{ name, extra, want string }{
		{"without Overwatch", "  stupefied: attacker_after_overwatch\n", "needs Overwatch fired at the charge"},
		{"Automated Artillery defender", "  stupefied: attacker_after_overwatch\n  options: {overwatch: true}\n", "not Automated Artillery"},
		{"without Lords of Profligacy", "  stupefied: attacker_after_overwatch\n  options: {overwatch: true}\n", "cannot become Stupefied"},
	} {
		attacker := `{` + reveller + `, rules: [Lords of Profligacy]}`
		if c.name == "without Lords of Profligacy" {
			attacker = assaultSquad
		}
		guard := "{name: Guard, models: 5, " + marine + ", weapons: [{name: bolter, S: 4, AP: 5}]}"
		if c.name == "Automated Artillery defender" {
			guard = "{name: Guard, models: 5, " + marine + ", rules: [{Automated Artillery: [false, true]}], weapons: [{name: bolter, S: 4, AP: 5}]}"
		}
		src := scenario("assault:\n  attacker: " + attacker + "\n  defender: " + guard + "\n" + c.extra)
		if _, err := registry.Parse("t.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// farFromExact reports whether e's estimate lies more than k standard
// errors from its exact value, or has no exact value to lie near: a
// missing closed form makes Z NaN, which no comparison of |z| with k
// would catch.
func farFromExact(e sim.Estimate, k float64) bool {
	return !e.HasExact || !(math.Abs(e.Z()) <= k)
}

// TestScenarioExactBudget: the exact values of a scenario's points share
// one budget (rules.MaxScenarioExactWork), spent in the scenario's order.
// Forty models with 75 shots each (3,000 hits) make every point cost
// about 1.3 x 10^8 steps (rules.ShootingExactWork: mostly the hits' law, a
// compound over 3,000 shots, built eight times), within one point's bound,
// so six targets (T 3 to 5, Ld 7 and 8) would take 7.6 x 10^8 together,
// past the 6 x 10^8 of the budget; the points are worked out while what is
// left covers them (four), and the rest have no exact value, their
// estimates standing alone.
func TestScenarioExactBudget(t *testing.T) {
	s, err := registry.Parse("t.yaml", []byte(scenario(`shooting:
  firer: {name: Guns, models: 40, `+marine+`, weapons: [{name: gun, S: 4, AP: 5, shots: 75}]}
  target: {name: Horde, models: 100, WS: 3, BS: 3, S: 3, T: [3, 4, 5], W: 1, I: 3, A: 1, Ld: [7, 8], Sv: 5+}
`)))
	if err != nil {
		t.Fatal(err)
	}
	left := rules.MaxScenarioExactWork
	exact := 0
	for i, m := range s.Models {
		sm := m.(*shootingModel)
		w := rules.ShootingExactWork(&sm.ShootingExchange)
		if w > rules.MaxExactWork {
			t.Fatalf("point %d costs %.3g steps, past one point's bound: the test needs cheaper points", i, w)
		}
		switch fits := w <= left; {
		case fits && sm.exact.OverBudget:
			t.Errorf("point %d (%.3g steps, %.3g left) has no exact values", i, w, left)
		case !fits && !sm.exact.OverBudget:
			t.Errorf("point %d (%.3g steps, %.3g left) was worked out past the budget", i, w, left)
		case fits:
			left -= w
			exact++
		}
	}
	if exact != 4 || len(s.Models) != 6 {
		t.Errorf("%d of %d points exact, want 4 of 6", exact, len(s.Models))
	}
}

// TestPistolPairOption: pistol_pair reaches the weapon choice. One BS 4
// model with Firing Protocols (2), a heavy bolter (Heavy 3) and two
// Pistols (Pistol 2 each), 12" from ten Legionaries. With one_weapon the
// pair of Pistols takes one of its two choices, so it fires all three:
// 3 + 2 + 2 = 7 shots hitting on 3+, 7 * 4/6 = 14/3 hits; with two_weapons,
// the default, the Pistols are two of the two, and it fires the heavy
// bolter and one Pistol: 5 shots, 10/3 hits. (The heavy bolter scores 12/27 a model, a
// Pistol 8/27: TestSelectAgainstTogether in mechanics/heresy.)
func TestPistolPairOption(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: Dreadnought, models: 1, ` + marine + `, rules: [Firing Protocols (2)],
          weapons: [{name: heavy bolter, type: Heavy 3, range: 36, S: 5, AP: 4},
                    {name: pistol a, type: Pistol 2, range: 12, S: 5, AP: 5},
                    {name: pistol b, type: Pistol 2, range: 12, S: 5, AP: 5}]}
  target: {name: Legionaries, models: 10, ` + marine + `}
  distance: 12
  options: {pistol_pair: [one_weapon, two_weapons]}
`)
	_, es := runScenario(t, src, 20_000)
	for pair, want := range map[string]float64{"one_weapon": 14.0 / 3, "two_weapons": 10.0 / 3} {
		e := find(t, es, metricHits, "pistol_pair", pair)
		if math.Abs(e.Exact-want) > 1e-9 {
			t.Errorf("pistol_pair %s: exact hits %.6f, want %.6f", pair, e.Exact, want)
		}
		if z := e.Z(); farFromExact(e, 5) {
			t.Errorf("pistol_pair %s: estimate %.4f, exact %.4f, z %.1f", pair, e.Value, e.Exact, z)
		}
	}
	if optPistolPair.def != "two_weapons" || !rules.DefaultOptions.PistolPairWithinProtocols {
		t.Errorf("pistol_pair's default %q does not match rules.DefaultOptions", optPistolPair.def)
	}
}

// TestProfilesOfOneWeapon: a model fires one profile of a weapon at most
// (profile_of), with Firing Protocols too (its rule text: no weapon
// attacks twice). A BS 4 Dreadnought's missile launcher, krak (S8 AP3,
// Heavy 1) or frag (S4 AP6, Heavy 1, Blast (3")), at ten Legionaries (T4,
// 3+) 24" away. Krak: 4/6 to hit, 5/6 to wound, no save (AP3), Instant
// Death on one-Wound models anyway: 5/9 casualties. Frag: 3 hits (the
// 3" marker's default), 1/2 to wound, 1/3 unsaved: 1/2, less, so one
// profile alone fires krak, 5/9, with Firing Protocols (1) or (2). Two
// weapons written without profile_of would fire both with (2): 5/9 + 1/2.
// A profile_of that no other weapon gives is refused.
func TestProfilesOfOneWeapon(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: Dread, models: 1, ` + marine + `, rules: [{Firing Protocols: [1, 2]}],
          weapons: [{name: krak, profile_of: missile launcher, type: Heavy 1, range: 48, S: 8, AP: 3},
                    {name: frag, profile_of: missile launcher, type: "Heavy 1, Blast (3\")", range: 48, S: 4, AP: 6}]}
  target: {name: Legionaries, models: 10, ` + marine + `}
  distance: 24
`)
	for _, c := range []struct {
		src  string
		fp   int
		want float64
	}{
		{src, 1, 5.0 / 9},
		{src, 2, 5.0 / 9},
		{strings.ReplaceAll(src, "profile_of: missile launcher, ", ""), 2, 5.0/9 + 0.5},
	} {
		_, es := runScenario(t, c.src, 20_000)
		e := find(t, es, metricCasualties, "firing_protocols", c.fp)
		if math.Abs(e.Exact-c.want) > 1e-9 {
			t.Errorf("Firing Protocols (%d): exact casualties %.6f, want %.6f", c.fp, e.Exact, c.want)
		}
		if z := e.Z(); farFromExact(e, 5) {
			t.Errorf("Firing Protocols (%d): casualties %.4f, exact %.4f, z %.1f", c.fp, e.Value, e.Exact, z)
		}
	}
	one := strings.Replace(src, "profile_of: missile launcher, type: \"Heavy 1, Blast", "type: \"Heavy 1, Blast", 1)
	if _, err := registry.Parse("t.yaml", []byte(one)); err == nil || !strings.Contains(err.Error(), `profile_of "missile launcher" on weapon "krak": no other weapon of the unit is a profile of`) {
		t.Errorf("a lone profile_of: %v", err)
	}
}

// TestGetsHotRerollOption: gets_hot_reroll reaches a Template's Gets Hot
// roll. Five firers with no save, each with a Twin-linked Template that
// Gets Hot (S5 AP4), at ten Legionaries 6" away: five hits a Template
// (template_hits' default). By default its Gets Hot D6 is not re-rolled
// (Twin-linked re-rolls a Template's To Wound rolls instead): each shot is
// kept with 5/6, 5 * 5 * 5/6 = 125/6 hits, and each firer wounded with
// 1/6, 5/6 Gets Hot wounds. With to_hit_rerolls only a second 1 counts:
// 5 * 5 * 35/36 = 875/36 hits, 5/36 wounds. A scenario whose Gets Hot
// weapons all roll To Hit, or whose Template that Gets Hot is fired by a
// BS 4 model without Twin-linked, which re-rolls nothing, is refused the
// option, in either question.
func TestGetsHotRerollOption(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: Flamers, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: "-",
          weapons: [{name: burner, type: "Assault 1, Template, Gets Hot, Twin-linked", S: 5, AP: 4}]}
  target: {name: Legionaries, models: 10, ` + marine + `}
  distance: 6
  options: {gets_hot_reroll: [never, to_hit_rerolls]}
`)
	_, es := runScenario(t, src, 20_000)
	for _, c := range []struct {
		reroll, metric string
		want           float64
	}{
		{"never", metricHits, 125.0 / 6},
		{"never", metricGetsHot, 5.0 / 6},
		{"to_hit_rerolls", metricHits, 875.0 / 36},
		{"to_hit_rerolls", metricGetsHot, 5.0 / 36},
	} {
		e := find(t, es, c.metric, "gets_hot_reroll", c.reroll)
		if math.Abs(e.Exact-c.want) > 1e-9 {
			t.Errorf("gets_hot_reroll %s: exact %s %.6f, want %.6f", c.reroll, c.metric, e.Exact, c.want)
		}
		if z := e.Z(); farFromExact(e, 5) {
			t.Errorf("gets_hot_reroll %s: %s %.4f, exact %.4f, z %.1f", c.reroll, c.metric, e.Value, e.Exact, z)
		}
	}
	if optHotReroll.def != "never" || rules.DefaultOptions.HotRerollNoToHit {
		t.Errorf("gets_hot_reroll's default %q does not match rules.DefaultOptions", optHotReroll.def)
	}
	for _, q := range []string{`shooting:
  firer: {name: Gun, models: 1, ` + marine + `, weapons: [{name: plasma, type: "Rapid Fire, Gets Hot", range: 24, S: 7, AP: 2}]}
  target: {name: Four, models: 4, ` + marine + `}
  options: {gets_hot_reroll: to_hit_rerolls}
`, `shooting:
  firer: {name: Flamers, models: 5, ` + marine + `, weapons: [{name: burner, type: "Assault 1, Template, Gets Hot", S: 5, AP: 4}]}
  target: {name: Four, models: 4, ` + marine + `}
  distance: 6
  options: {gets_hot_reroll: to_hit_rerolls}
`, `assault:
  attacker: ` + assaultSquad + `
  defender: {name: Guard, models: 10, ` + marine + `, weapons: [{name: cannon, type: "Heavy 1, Blast (3\"), Gets Hot", range: 36, S: 7, AP: 2}]}
  options: {overwatch: true, gets_hot_reroll: to_hit_rerolls}
`} {
		if _, err := registry.Parse("t.yaml", []byte(scenario(q))); err == nil || !strings.Contains(err.Error(), "gets_hot_reroll: ") {
			t.Errorf("gets_hot_reroll with no Template or Blast that Gets Hot: %v, want it refused", err)
		}
	}
}

// TestCombatResultOption: combat_result counts the Wounds the enemy's
// models lost by default, every unsaved wound with unsaved_wounds. One
// model (WS4 I4 A1, no charge) strikes first. (a) With a Brutal (2) maul
// at S4 against five WS4 T4 W1 models with no save, no Attacks, Ld 8: the
// blow hits on 4+ and wounds on 4+, 1/4, and its two wounds slay one
// model, the second lost. The five lose by 1 (a Wound lost) or by 2 (two
// unsaved wounds) and test on Ld 7 or 6: fail 15/36 or 21/36, so
// morale_failed is 15/144 or 21/144. (b) With an S8 AP2 weapon against two
// T4 W3 models: hit 1/2, wound on 2+ (5/6), 5/12, Instant Death (S8 is
// double T4): the model loses its 3 Wounds, one unsaved wound. Ld 8 - 3 =
// 5 fails with 26/36, Ld 7 with 15/36: morale_failed 130/432 or 75/432.
func TestCombatResultOption(t *testing.T) {
	for _, c := range []struct {
		name, weapon, defender string
		want                   map[string]float64
	}{
		{"Brutal past a model's last", `{name: maul, type: "Melee, Brutal (2)", S: User, AP: "-"}`,
			`{name: Foe, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 1, A: "-", Ld: 8, Sv: none}`,
			map[string]float64{"wounds_lost": 15.0 / 144, "unsaved_wounds": 21.0 / 144}},
		{"Instant Death on three Wounds", `{name: fist, S: 8, AP: 2}`,
			`{name: Foe, models: 2, WS: 4, BS: 4, S: 4, T: 4, W: 3, I: 1, A: "-", Ld: 8, Sv: none}`,
			map[string]float64{"wounds_lost": 130.0 / 432, "unsaved_wounds": 75.0 / 432}},
	} {
		src := scenario(`assault:
  attacker: {name: One, models: 1, ` + marine + `, melee: ` + c.weapon + `}
  defender: ` + c.defender + `
  charged: false
  options: {combat_result: [wounds_lost, unsaved_wounds]}
`)
		_, es := runScenario(t, src, 100_000)
		for score, want := range c.want {
			e := find(t, es, metricMorale, "combat_result", score, "unit", "Foe")
			if math.Abs(e.Exact-want) > 1e-9 {
				t.Errorf("%s, %s: exact morale_failed %.6f, want %.6f", c.name, score, e.Exact, want)
			}
			if z := e.Z(); farFromExact(e, 5) {
				t.Errorf("%s, %s: estimate %.4f, exact %.4f, z %.1f", c.name, score, e.Value, e.Exact, z)
			}
		}
	}
	if combatScores[assaultOption(t, "combat_result").def.(string)] != rules.DefaultOptions.CombatScore {
		t.Error("combat_result's default is not rules.DefaultOptions.CombatScore")
	}
}

// assaultOption returns the assault question's option key.
func assaultOption(t *testing.T, key string) option {
	t.Helper()
	for _, o := range assaultOptions {
		if o.key == key {
			return o
		}
	}
	t.Fatalf("no assault option %q", key)
	return option{}
}

// TestReactionGetsHot: Gets Hot wounds from a Reaction go onto the unit
// that fired it. (a) Shooting: a one-model target, T4 W1 3+, Returns Fire
// with a BS 4 plasma pistol (S7 AP2) at one Legionary with a bolter. The
// pistol's shot hits on 3+ (4/6) and wounds T4 on 2+ (5/6), unsaved
// against AP2: 20/36 the firer falls and does not shoot; a 1 (1/6, a
// miss) is a Gets Hot wound AP2 leaves unsaved, and the target falls to
// its own pistol (return_fire_gets_hot 1/6); 10/36 neither. Only then is it shot: the bolter hits
// 4/6 and slays 4/6 * 3/6 * 2/6 = 1/9. So hits 10/36 * 4/6 = 5/27,
// casualties 10/36 * 1/9 = 5/162, destroyed 6/36 + 5/162 = 16/81;
// before Gets Hot went onto the target, 16/36 * 4/6 = 8/27 hits and
// 16/36 * 1/9 = 4/81 destroyed. (b) Assault: one Legionary (A1, +1 for
// charging) charges one WS4 T4 W1 model with no save and no Attacks that
// fires its plasma pistol in Overwatch: Snap Shots hit on 6 (1/6) and
// wound on 2+ (5/6), 5/36 the charger falls; a 1 (1/6) and the defender
// falls to its own pistol: overwatch_gets_hot 1/6; 25/36 the two fight,
// and the charger's two blows (4+ to hit, 4+ to wound) slay it with 1 -
// (3/4)^2 = 7/16, else a draw. So the charger wins 25/36 * 7/16 =
// 175/576 and the defender is destroyed with 6/36 + 175/576 = 271/576;
// before, 31/36 * 7/16 = 217/576 both.
func TestReactionGetsHot(t *testing.T) {
	pistol := `{name: plasma pistol, type: "Pistol 1, Gets Hot", range: 12, S: 7, AP: 2}`
	src := scenario(`shooting:
  firer: {name: Legionary, models: 1, ` + marine + `, weapons: [{name: bolter, S: 4, AP: 5}]}
  target: {name: Champion, models: 1, ` + marine + `, weapons: [` + pistol + `]}
  distance: 12
  reaction: return_fire
  options: {morale_check: never}
`)
	_, es := runScenario(t, src, 100_000)
	for _, c := range []struct {
		metric string
		want   float64
	}{{metricHits, 5.0 / 27}, {metricCasualties, 5.0 / 162}, {metricDestroyed, 16.0 / 81}, {metricReturnFire, 20.0 / 36},
		{metricReturnFireHot, 1.0 / 6}} {
		e := find(t, es, c.metric)
		if math.Abs(e.Exact-c.want) > 1e-9 {
			t.Errorf("shooting: exact %s %.6f, want %.6f", c.metric, e.Exact, c.want)
		}
		if z := e.Z(); farFromExact(e, 5) {
			t.Errorf("shooting: %s estimate %.4f, exact %.4f, z %.1f", c.metric, e.Value, e.Exact, z)
		}
	}
	src = scenario(`assault:
  attacker: {name: Legionary, models: 1, ` + marine + `}
  defender: {name: Champion, models: 1, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: "-", Ld: 8, Sv: none, weapons: [` + pistol + `]}
  options: {overwatch: true}
  metrics: [reached, overwatch_casualties, overwatch_gets_hot, won, destroyed]
`)
	_, es = runScenario(t, src, 100_000)
	for _, c := range []struct {
		metric, unit string
		want         float64
	}{
		{metricOverHot, "Champion", 1.0 / 6}, {metricOverwatch, "Legionary", 5.0 / 36}, {metricReached, "Legionary", 25.0 / 36},
		{metricWon, "Legionary", 175.0 / 576}, {metricDestroyed, "Champion", 271.0 / 576},
	} {
		e := find(t, es, c.metric, "unit", c.unit)
		if math.Abs(e.Exact-c.want) > 1e-9 {
			t.Errorf("assault: exact %s of %s %.6f, want %.6f", c.metric, c.unit, e.Exact, c.want)
		}
		if z := e.Z(); farFromExact(e, 5) {
			t.Errorf("assault: %s of %s estimate %.4f, exact %.4f, z %.1f", c.metric, c.unit, e.Value, e.Exact, z)
		}
	}
}

// TestNextAttackAfterLosses: the target's own next Shooting Attack is made
// at the firer as Return Fire and the firer's own Gets Hot wounds left it,
// none at a firer with no models left, and its Gets Hot wounds are
// counted. One Legionary (T4 W1 3+) fires a plasma gun (S7 AP2, Gets Hot)
// at one Champion who Returns Fire with a plasma pistol (the same, BS 4):
// each shot slays its target with 4/6 * 5/6 = 20/36 (AP2 leaves no save),
// and ends on a 1 with 1/6, a Gets Hot wound that slays the model that
// fired it. Return Fire: the Legionary falls with 20/36 (and does not
// shoot: there is no one left to shoot at it later either), the Champion
// with 1/6 (return_fire_gets_hot 1/6); 10/36 neither. Then the plasma gun:
// gets_hot 10/36 * 1/6; the Champion falls with 10/36 * 20/36. Both are
// left with (10/36)^2, and only then does the Champion's next attack
// happen: next_attack_casualties (10/36)^2 * 20/36 = 125/2916 and
// next_attack_gets_hot (10/36)^2 * 1/6 = 25/1944. Made at the firer as it
// stood before the attack, the next attack would follow in every trial
// the Champion lives, (20/36 + 10/36 * 16/36) of them: 0.377 casualties.
func TestNextAttackAfterLosses(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: Legionary, models: 1, ` + marine + `, weapons: [{name: plasma gun, S: 7, AP: 2, rules: [Gets Hot]}]}
  target: {name: Champion, models: 1, ` + marine + `,
           weapons: [{name: plasma pistol, type: "Pistol 1, Gets Hot", range: 12, S: 7, AP: 2}]}
  distance: 12
  reaction: return_fire
  options: {morale_check: never}
`)
	_, es := runScenario(t, src, 200_000)
	both := 10.0 / 36 * 10 / 36
	for _, c := range []struct {
		metric string
		want   float64
	}{
		{metricReturnFire, 20.0 / 36}, {metricReturnFireHot, 1.0 / 6}, {metricGetsHot, 10.0 / 36 / 6},
		{metricNextAttack, both * 20 / 36}, {metricNextAttackHot, both / 6},
	} {
		e := find(t, es, c.metric)
		if math.Abs(e.Exact-c.want) > 1e-9 {
			t.Errorf("exact %s %.6f, want %.6f", c.metric, e.Exact, c.want)
		}
		if z := e.Z(); farFromExact(e, 5) {
			t.Errorf("%s estimate %.5f, exact %.5f, z %.1f", c.metric, e.Value, e.Exact, z)
		}
	}
}

// TestPinnedByShotsThatGetHot: whether the target is Pinned and how many
// models the firer has left for its next attack come from the same To Hit
// rolls, and the exact next attack follows both together. Two BS 4
// Legionaries (W1 3+) fire three shots each (S7 AP4, Gets Hot) at one T4
// W10 3+ model of Ld 5 (six wounds cannot slay it). Each shot is, by
// hand, a Gets Hot wound with 1/6 * 2/6 = 1/18 (a 1, then a failed 3+
// save: a miss), an unsaved wound on the target with 4/6 * 5/6 * 2/6 =
// 5/27, else nothing (41/54). With g Gets Hot wounds (Bin(6, 1/18)) the
// firer has max(2-g, 0) models left; the target is Pinned, and makes no
// next attack (broken_return_fire: none), if it took an unsaved wound and
// failed the test (2D6 > 5: 26/36). P(no unsaved wound and g) = C(6,g)
// (1/18)^g (41/54)^(6-g). Its next attack, ten S8 AP2 shots slaying a W1
// 3+ model with q = 4/6 * 5/6 = 20/36 each, removes min(m, Bin(10, q)) of
// m models: 1 - (1-q)^10 of one, 2 - 2(1-q)^10 - 10q(1-q)^9 of two. The sum
// is 0.7998; taking the Pinning test as independent of the Gets Hot
// wounds would give 0.8152, 7 standard errors of 200,000 trials away.
func TestPinnedByShotsThatGetHot(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: Legionaries, models: 2, ` + marine + `, weapons: [{name: plasma, S: 7, AP: 4, shots: 3, rules: [Gets Hot]}]}
  target: {name: Champion, models: 1, WS: 4, BS: 4, S: 4, T: 4, W: 10, I: 4, A: 1, Ld: 5, Sv: 3+,
           weapons: [{name: cannon, S: 8, AP: 2, shots: 10}]}
  pinning: true
  options: {morale_check: never, broken_return_fire: none}
`)
	_, es := runScenario(t, src, 200_000)
	hot, unsaved := 1.0/18, 5.0/27
	pass := 10.0 / 36
	q := 20.0 / 36
	removes := []float64{0, 1 - math.Pow(1-q, 10), 2 - 2*math.Pow(1-q, 10) - 10*q*math.Pow(1-q, 9)}
	want := 0.0
	for g := 0; g <= 6; g++ {
		c := float64(binomial(6, g)) * math.Pow(hot, float64(g))
		pg := c * math.Pow(1-hot, float64(6-g))
		clean := c * math.Pow(1-hot-unsaved, float64(6-g))
		want += removes[max(2-g, 0)] * (clean + (pg-clean)*pass)
	}
	e := find(t, es, metricNextAttack)
	if math.Abs(e.Exact-want) > 1e-9 {
		t.Errorf("exact next_attack_casualties %.6f, want %.6f", e.Exact, want)
	}
	if z := e.Z(); farFromExact(e, 5) {
		t.Errorf("next_attack_casualties estimate %.5f, exact %.5f, z %.1f", e.Value, e.Exact, z)
	}
}

// binomial is n choose k.
func binomial(n, k int) int {
	c := 1
	for i := range k {
		c = c * (n - i) / (i + 1)
	}
	return c
}

// TestTemplateChecks: a Template weapon with a range in inches, or with
// Blast, is refused when its catalogue is read, as any other weapon
// error on a card is, not first when a scenario uses the card; a Rapid
// Fire Template weapon needs no range beside the template's.
func TestTemplateChecks(t *testing.T) {
	card := func(weapon string) string {
		return "ruleset: heresy\nunits:\n  - {name: Flamers, models: 5, " + marine + ", weapons: [" + weapon + "]}\n"
	}
	for _, tc := range []struct{ weapon, want string }{
		{`{name: flamer, S: 4, AP: 5, type: "Assault 1, Template", range: 8}`, `range 8 on weapon "flamer": a Template weapon reaches as far as its template`},
		{`{name: pie, S: 4, AP: 5, type: "Assault 1, Blast (3)", range: Template}`, `weapon "pie" has both Blast and Template`},
		{`{name: flamer, S: 4, AP: 5, type: "Rapid Fire, Template"}`, ""},
		// Template swept: where it is off, a plain Rapid Fire weapon,
		// which needs its range.
		{`{name: flamer, S: 4, AP: 5, type: Rapid Fire, rules: [{Template: [false, true]}]}`, "a Rapid Fire weapon needs its range"},
	} {
		path := filepath.Join(t.TempDir(), "units.yaml")
		if err := os.WriteFile(path, []byte(card(tc.weapon)), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := registry.UserCards([]string{path}, "")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.weapon, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.weapon, err, tc.want)
		}
	}
}

// TestCardKeysForOtherQuestions: a card holds weapons, melee and cover for
// whichever question reads each; a use of it takes what its question reads
// (the built-in Assault Squad, with a chainsword, fires in a shooting
// question), but a melee the use writes itself in a shooting question is
// refused as a key that question does not read.
func TestCardKeysForOtherQuestions(t *testing.T) {
	pistol := `weapons: [{name: bolt pistol, type: Pistol 1, range: 12, S: 4, AP: 5}]`
	if _, err := registry.Parse("t.yaml", []byte(scenario("shooting:\n  firer: {use: Assault Squad, "+pistol+"}\n  target: {use: Assault Squad}\n"))); err != nil {
		t.Errorf("the Assault Squad card in a shooting question: %v", err)
	}
	_, err := registry.Parse("t.yaml", []byte(scenario("shooting:\n  firer: {use: Assault Squad, melee: {name: x, S: User, AP: \"-\"}, "+pistol+"}\n  target: {use: Assault Squad}\n")))
	if err == nil || !strings.Contains(err.Error(), `unknown key "melee" in a unit`) {
		t.Errorf("a melee written in a shooting question: %v", err)
	}
}

// TestAssaultKeysReadByNothing: what only a charge reads is refused where
// no point has one to read it: a charge_bonus with no charge roll (no
// distance, or charged: false), defender weapons with charged: false (no
// Overwatch), and hold_the_line from a defender that makes no Reaction
// (Automated Artillery, whose one Reaction is Interceptor; a Stupefied
// unit); and the options only a charge, its roll, difficult terrain, Hold
// the Line or Overwatch read, where no point has them.
func TestAssaultKeysReadByNothing(t *testing.T) {
	one := "{name: A, models: 1, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv-}"
	def := "{name: D, models: 1, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv-}"
	gun := "{name: D, models: 1, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv-, weapons: [{name: g, S: 4, AP: 5, range: 24}]}"
	lord := "{name: D, models: 1, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv-, rules: [Lords of Profligacy]}"
	lordGun := "{name: D, models: 1, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv-, rules: [Lords of Profligacy], weapons: [{name: g, S: 4, AP: 5, range: 24}]}"
	for _, tc := range []struct{ name, assault, want string }{
		{"bonus without distance", "attacker: " + one + ", defender: " + def + ", charge_bonus: 3", "charge_bonus needs a charge roll"},
		{"bonus without a charge", "attacker: " + one + ", defender: " + def + ", charged: false, charge_bonus: 3", "charge_bonus needs a charge roll"},
		{"weapons without Overwatch", "attacker: " + one + ", defender: " + gun, "the defender's weapons are fired only in Overwatch; set options: {overwatch: true}"},
		{"weapons without a charge", "attacker: " + one + ", defender: " + gun + ", charged: false, options: {overwatch: true}", "the defender's weapons are fired only in Overwatch at a charge"},
		// Hold the Line and a Stupefied defender make no Overwatch.
		{"weapons while holding the line", "attacker: " + one + ", defender: " + gun + ", distance: 6, hold_the_line: true, options: {overwatch: true}",
			"hold_the_line: true takes the one Reaction it has"},
		// Beyond max_charge (12" by default) no charge is declared.
		{"weapons beyond the longest charge", "attacker: " + one + ", defender: " + gun + ", distance: 20, options: {overwatch: true}",
			"a distance beyond max_charge at every point is charged at no point"},
		{"hold the line beyond the longest charge", "attacker: " + one + ", defender: " + def + ", distance: [14, 20], hold_the_line: true",
			"hold_the_line: true, but a distance beyond max_charge at every point"},
		// A max_charge that cannot be read is reported once, not again as
		// a charge beyond it.
		{"an unread max_charge", "attacker: " + one + ", defender: " + gun + ", distance: 7, options: {overwatch: true, max_charge: 99}",
			"max_charge 99 is out of range; expected 0 to 48"},
		{"an unread overwatch", "attacker: " + one + ", defender: " + gun + ", options: {overwatch: yes}",
			"expected overwatch as true or false"},
		{"an unread charged", "attacker: " + one + ", defender: " + gun + ", charged: maybe, options: {overwatch: true}",
			"expected charged as true or false"},
		{"an unread hold_the_line", "attacker: " + one + ", defender: " + gun + ", distance: 6, hold_the_line: [true, yes], options: {overwatch: true}",
			"expected hold_the_line as true or false"},
		{"an unread stupefied", "attacker: " + one + ", defender: " + lordGun + ", stupefied: [defender, nobody], options: {overwatch: true}",
			`stupefied "nobody"`},
		{"an unread charged beside a bonus", "attacker: " + one + ", defender: " + def + ", charged: maybe, distance: 6, charge_bonus: 1",
			"expected charged as true or false"},
		{"an unread hold_the_line beyond the longest charge", "attacker: " + one + ", defender: " + def + ", distance: [14, 20], hold_the_line: [true, yes]",
			"expected hold_the_line as true or false"},
		{"an unread max_charge in a sweep", "attacker: " + one + ", defender: " + gun + ", distance: 13, options: {overwatch: true, max_charge: [12, 99]}",
			"max_charge 99 is out of range; expected 0 to 48"},
		{"weapons of a Stupefied defender", "attacker: " + one + ", defender: " + lordGun + ", stupefied: [defender, both], options: {overwatch: true}",
			"a Stupefied defender makes no Reaction"},
		{"hold the line from artillery", "attacker: " + one + ", defender: " + rapier + ", distance: 6, hold_the_line: true", "the defender is Automated Artillery, whose one Reaction is Interceptor"},
		{"hold the line when Stupefied", "attacker: " + one + ", defender: " + lord + ", distance: 6, hold_the_line: true, stupefied: defender", "hold_the_line: true with a Stupefied defender"},
		{"charge dice without a roll", "attacker: " + one + ", defender: " + def + ", options: {charge_dice: 3D6}", "charge_dice: no point rolls a charge"},
		// Beyond max_charge (12" by default) at every point, no charge is
		// declared, so none is rolled and none is made.
		{"charge dice beyond the longest charge", "attacker: " + one + ", defender: " + def + ", distance: 13, options: {charge_dice: 3D6}", "charge_dice: no point rolls a charge"},
		{"charge attacks beyond the longest charge", "attacker: " + one + ", defender: " + def + ", distance: [13, 20], options: {charge_bonus_attacks: 2}", "charge_bonus_attacks: no point charges"},
		{"charge bonus beyond the longest charge", "attacker: " + one + ", defender: " + def + ", distance: 13, charge_bonus: 1", "charge_bonus needs a charge roll"},
		{"max charge without a roll or Overwatch", "attacker: " + one + ", defender: " + def + ", options: {max_charge: 5}", "max_charge: no point rolls a charge or fires Overwatch"},
		{"charge attacks without a charge", "attacker: " + one + ", defender: " + def + ", charged: false, options: {charge_bonus_attacks: 2}", "charge_bonus_attacks: no point charges"},
		{"terrain Initiative without terrain", "attacker: " + one + ", defender: " + def + ", options: {terrain_charge_initiative: 0}", "terrain_charge_initiative: no point charges through difficult terrain"},
		// A charge at a Stupefied unit keeps its Initiative through
		// Difficult Terrain (Lords of Profligacy), so the terrain and its
		// Initiative are read at no point.
		{"terrain against a Stupefied defender", "attacker: " + one + ", defender: " + lord + ", difficult_terrain: [false, true], stupefied: defender", "difficult_terrain: true with a Stupefied defender at every point"},
		{"terrain Initiative against a Stupefied defender", "attacker: " + one + ", defender: " + lord + ", difficult_terrain: [true], stupefied: defender, options: {terrain_charge_initiative: 3}",
			"terrain_charge_initiative: no point charges through difficult terrain (difficult_terrain: true) at a defender that is not Stupefied"},
		{"Hold the Line's disorder without it", "attacker: " + one + ", defender: " + def + ", distance: 6, options: {disordered_by_hold_the_line: false}", "disordered_by_hold_the_line: no point has the defender Hold the Line"},
		{"Overwatch without weapons", "attacker: " + one + ", defender: " + def + ", options: {overwatch: true}", "overwatch: the defender has no weapons"},
		{"weapon choice without weapons", "attacker: " + one + ", defender: " + def + ", options: {weapon_choice: unsaved_wounds}", "weapon_choice: the defender has no weapons"},
		{"pistols without weapons", "attacker: " + one + ", defender: " + def + ", options: {pistol_pair: two_weapons}", "pistol_pair: the defender has no weapons"},
		// Concussive's test is rolled for a shooting attack alone.
		{"Concussive in melee", "attacker: {name: A, models: 1, profile: WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv-, melee: {name: m, type: \"Melee, Concussive (1)\", S: User, AP: \"-\"}}, defender: " + def, `melee weapon "m": Concussive is rolled only for a shooting attack`},
	} {
		_, err := registry.Parse("t.yaml", []byte(scenario("assault: {"+tc.assault+"}\n")))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.HasPrefix(tc.name, "an unread") && strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	// Read where a charge rolls: a bonus with a distance, weapons fired in
	// Overwatch, at some point of a sweep too, Hold the Line from a unit
	// that may react; and a card's weapons where no Overwatch is fired,
	// which the card holds for the questions that fire them.
	for _, assault := range []string{
		"attacker: " + one + ", defender: " + def + ", distance: 8, charge_bonus: 3",
		"attacker: " + one + ", defender: " + gun + ", options: {overwatch: true}",
		"attacker: " + one + ", defender: " + gun + ", options: {overwatch: [false, true]}",
		"attacker: " + one + ", defender: " + gun + ", distance: [6, 20], options: {overwatch: true}",
		"attacker: " + one + ", defender: " + gun + ", distance: 20, options: {overwatch: true, max_charge: [12, 24]}",
		"attacker: " + one + ", defender: " + gun + ", distance: 6, hold_the_line: [false, true], options: {overwatch: true}",
		"attacker: " + one + ", defender: " + def + ", distance: 6, hold_the_line: true",
		"attacker: " + one + ", defender: {use: Volkite Squad, models: 5}",
		"attacker: " + one + ", defender: {use: Volkite Squad, models: 5}, charged: false",
		"attacker: " + one + ", defender: " + def + ", distance: 8, options: {charge_dice: 3D6, max_charge: 18}",
		"attacker: " + one + ", defender: " + def + ", distance: [8, 13], charge_bonus: 1, options: {charge_dice: 3D6, charge_bonus_attacks: 2}",
		// A max_charge below every distance is what stops the charge.
		"attacker: " + one + ", defender: " + def + ", distance: 11, options: {max_charge: 10}",
		"attacker: " + one + ", defender: " + gun + ", options: {overwatch: true, max_charge: 18, weapon_choice: unsaved_wounds, pistol_pair: two_weapons}",
		"attacker: " + one + ", defender: " + def + ", charged: [false, true], options: {charge_bonus_attacks: 2}",
		"attacker: " + one + ", defender: " + def + ", difficult_terrain: [false, true], options: {terrain_charge_initiative: 0}",
		"attacker: " + one + ", defender: " + def + ", distance: 6, hold_the_line: [false, true], options: {disordered_by_hold_the_line: false}",
		"attacker: " + one + ", defender: " + lord + ", difficult_terrain: true, stupefied: [none, defender], options: {terrain_charge_initiative: 3}",
	} {
		if _, err := registry.Parse("t.yaml", []byte(scenario("assault: {"+assault+"}\n"))); err != nil {
			t.Errorf("%s: %v", assault, err)
		}
	}
	// A defender that cannot become Stupefied is that one error: the
	// terrain, which it would make unread, is not refused beside it.
	_, err := registry.Parse("t.yaml", []byte(scenario("assault: {attacker: "+one+", defender: "+def+", difficult_terrain: true, stupefied: defender, options: {terrain_charge_initiative: 3}}\n")))
	if err == nil || !strings.Contains(err.Error(), "cannot become Stupefied") || strings.Contains(err.Error(), "terrain") {
		t.Errorf("a defender without Lords of Profligacy, Stupefied: %v", err)
	}
}

// TestShootingReactionsNoPointMakes: a shooting question's Reaction that
// the target makes at no point of the sweep is refused at its value
// (rules.Unit.CanReact's bars, and Return Fire's need of weapons), as
// Hold the Line is in an assault; where some point may make it, it runs.
func TestShootingReactionsNoPointMakes(t *testing.T) {
	const gun = `weapons: [{name: g, S: 4, AP: 5, range: 24}]`
	unit := func(rules string) string {
		return "{name: T, models: 5, " + marine + ", " + gun + ", rules: [" + rules + "]}"
	}
	lord := "{name: T, models: 5, " + marine + ", " + gun + ", rules: [Lords of Profligacy]}"
	unarmed := "{name: T, models: 5, " + marine + "}"
	for _, tc := range []struct{ target, extra, want string }{
		// "  reaction: " is 12 columns: a lone value is at 13, a list's
		// first item at 14 and "[none, " puts the second at 20.
		{unarmed, "  reaction: return_fire\n",
			"t.yaml:6:13: reaction: return_fire, but no point of the sweep makes it: the target has no weapons to fire (give it weapons)"},
		{unit("Fearless"), "  reaction: [none, evade]\n",
			"t.yaml:6:20: reaction: evade, but no point of the sweep makes it: the target is Fearless, which makes no Reaction that grants a save (Evade)"},
		{unit("Automated Artillery"), "  reaction: [return_fire, evade]\n",
			"t.yaml:6:14: reaction: return_fire, but no point of the sweep makes it: the target is Automated Artillery, whose one Reaction is Interceptor\n" +
				"t.yaml:6:27: reaction: evade, but no point of the sweep makes it: the target is Automated Artillery, whose one Reaction is Interceptor"},
		{lord, "  stupefied: always\n  reaction: return_fire\n",
			"t.yaml:7:13: reaction: return_fire, but no point of the sweep makes it: the target is Stupefied at every point (stupefied: always), and a Stupefied unit makes no Reaction"},
	} {
		src := scenario("shooting:\n  firer: " + bolters + "\n  target: " + tc.target + "\n" + tc.extra)
		if _, err := registry.Parse("t.yaml", []byte(src)); err == nil || err.Error() != tc.want {
			t.Errorf("%s %q:\n got: %v\nwant: %s", tc.target, tc.extra, err, tc.want)
		}
	}
	// Some point of the sweep makes it: a rule swept off, a target swept
	// among units one of which may, a Stupefied policy that may choose
	// not to be.
	for _, tc := range []struct{ target, extra string }{
		{"{name: T, models: 5, " + marine + ", " + gun + ", rules: [{Fearless: [false, true]}]}", "  reaction: evade\n"},
		{"[" + unarmed + ", {name: U, models: 5, " + marine + ", " + gun + "}]", "  reaction: return_fire\n"},
		{lord, "  stupefied: [never, always]\n  reaction: return_fire\n"},
		{lord, "  stupefied: when_it_pays\n  reaction: evade\n"},
		{unit("Fearless"), "  reaction: [none, return_fire]\n"},
	} {
		src := scenario("shooting:\n  firer: " + bolters + "\n  target: " + tc.target + "\n" + tc.extra)
		if _, err := registry.Parse("t.yaml", []byte(src)); err != nil {
			t.Errorf("%s %q: %v", tc.target, tc.extra, err)
		}
	}
}

// TestMarkerOptionsWaitForTheRules: a Blast size that cannot be read, or
// a Template weapon left out for its name, is reported alone, not again as
// an option about a marker no weapon has: the weapon the writer meant may
// be the option's.
func TestMarkerOptionsWaitForTheRules(t *testing.T) {
	for _, tc := range []struct{ weapons, option, want string }{
		{"[{name: b, S: 4, AP: 5, range: 24, rules: [Blast (4)]}]", "blast_hits_3: 4", "Blast (4) is not known"},
		{"[{name: b, S: 4, AP: 5, range: 24}, {name: b, S: 4, AP: 5, rules: [Template]}]", "template_hits: 6", `two weapons named "b"`},
	} {
		src := scenario("shooting:\n  firer: {name: F, models: 5, " + marine + ", weapons: " + tc.weapons + "}\n" +
			"  target: {name: T, models: 5, " + marine + "}\n  options: {" + tc.option + "}\n")
		_, err := registry.Parse("t.yaml", []byte(src))
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want the %q error alone", tc.option, err, tc.want)
		}
	}
}

// TestRefusalsBesideAnUnrelatedError: a refusal that weighs values waits
// only for the values it reads, so an error elsewhere in the file (a
// trials key written before the question) does not hold it back.
func TestRefusalsBesideAnUnrelatedError(t *testing.T) {
	src := "name: t\nruleset: heresy\ntrials: lots\nshooting:\n  firer: {name: F, models: 5, " + marine + ", weapons: [{name: b, S: 4, AP: 5, range: 24}]}\n" +
		"  target: {name: T, models: 5, " + marine + "}\n  options: {template_hits: 6}\n"
	_, err := registry.Parse("t.yaml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "expected trials") || !strings.Contains(err.Error(), "template_hits: no weapon is a Template") {
		t.Errorf("got %v, want the trials error and the template_hits refusal", err)
	}
}

// TestArmourbaneByType: a melta (S8, Armourbane (Melta), range 12) at the
// built-in Dreadnought card, whose type is Dreadnought: BS4 hits 2/3, S8
// against T7 wounds on 3+, 2/3; re-rolled within 6", 8/9. Wounds a shot:
// 16/27 at 6", 4/9 at 7", and 4/9 at 6" against the same card written as
// Infantry. The estimate within 5 standard errors of the exact value.
func TestArmourbaneByType(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: M, models: 1, ` + marine + `, weapons: [{name: melta, type: "Assault 1, Armourbane (Melta)", range: 12, S: 8, AP: 1}]}
  target: {use: Dreadnought, type: [Dreadnought, Infantry]}
  distance: [6, 7]
`)
	_, es := runScenario(t, src, 100_000)
	for _, tt := range []struct {
		typ      string
		distance int
		want     float64
	}{{"Dreadnought", 6, 16.0 / 27}, {"Dreadnought", 7, 4.0 / 9}, {"Infantry", 6, 4.0 / 9}} {
		e := find(t, es, "wounds", "type", tt.typ, "distance", tt.distance)
		if math.Abs(e.Exact-tt.want) > 1e-12 || farFromExact(e, 5) {
			t.Errorf("%s at %d\": wounds %.4f (exact %.6f), want exact %.6f", tt.typ, tt.distance, e.Value, e.Exact, tt.want)
		}
	}
}
