package scenarios

import (
	"context"
	"strings"
	"testing"

	"hammersim/mechanics/dice"
	"hammersim/sim"
)

// decodeToyThree is a question with three metrics, of which "quiet" can
// never be non-zero: it is idle. A fourth, "sevens", is absent: it would
// need a die of more sides.
func decodeToyThree(d *Decoder, n *Node) Compile {
	d.Object(n, "the question", []Field{{Key: "die", Decode: func(n *Node) { d.IntIn(n, "die", 2, 20) }}})
	return func(d *Decoder, axes Axes) Compiled {
		return Compiled{
			Models: []sim.Model{DiceModel(dice.MustParse("D6"))},
			Idle:   []string{"quiet"},
			Absent: map[string]string{"sevens": "a die of 7 or more sides"},
			Results: func(run sim.Run) []sim.Estimate {
				h := &run.Tallies[0].H[0]
				return []sim.Estimate{
					sim.MeanOf("roll", nil, h),
					sim.ProbabilityOf("six", nil, h.Count(6), h.N()),
					sim.ProbabilityOf("quiet", nil, 0, h.N()),
				}
			},
		}
	}
}

var three = NewRegistry(&Ruleset{Name: "toy", Title: "Toy Game", Questions: map[string]Question{"ask": decodeToyThree}})

func metricsOf(t *testing.T, s *Scenario) []string {
	t.Helper()
	run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: 100, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range s.Results(run) {
		out = append(out, e.Metric)
	}
	return out
}

func TestMetricsKey(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string
	}{
		{"ask: {die: 6}", "roll six"},                           // the idle metric is left out
		{"ask: {die: 6, metrics: [six]}", "six"},                // chosen
		{"ask: {die: 6, metrics: [quiet, roll]}", "roll quiet"}, // an idle metric when asked; results keep their order
		{"ask: {die: 6, metrics: 'six, roll'}", "roll six"},     // one string, commas between
	} {
		s, err := three.Parse("t.yaml", []byte("name: t\nruleset: toy\n"+tc.src+"\n"))
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if got := strings.Join(metricsOf(t, s), " "); got != tc.want {
			t.Errorf("%s: metrics %q, want %q", tc.src, got, tc.want)
		}
		if got := strings.Join(s.Metrics(), " "); got != "roll six quiet" {
			t.Errorf("%s: Metrics() = %q", tc.src, got)
		}
	}
	for _, tc := range []struct{ src, want string }{
		{"ask: {die: 6, metrics: [sixes]}", `t.yaml:3:25: unknown metric "sixes"; this question has: roll, six, quiet`},
		{"ask:\n  die: 6\n  metrics: six, rol", `t.yaml:5:17: unknown metric "rol"`},
		{"ask: {die: 6, metrics: []}", `t.yaml:3:24: an empty metrics list keeps nothing`},
		// An absent metric is told what it needs, not called unknown.
		{"ask: {die: 6, metrics: [six, sevens]}", `t.yaml:3:30: metric "sevens" is not reported here: it needs a die of 7 or more sides; this question has: roll, six, quiet`},
		// A name given twice is refused where it is given the second time:
		// the bracket is at column 24, so the second "six" is at 30.
		{"ask: {die: 6, metrics: [six, six]}", `t.yaml:3:30: metric "six" is named twice`},
		// Within one string: its quote is at column 24, its text starts at
		// 25, and the empty second entry is at 29, after "six,".
		{"ask: {die: 6, metrics: 'six,,roll'}", `t.yaml:3:29: empty metric name`},
		{"ask: {die: 6, metrics: {a: 1}}", `t.yaml:3:24: expected metrics as a list of names`},
		// Every question takes metrics: an unknown key's list of the keys
		// allowed names it, and a near miss is pointed at it.
		{"ask: {die: 6, metric: [six]}", `t.yaml:3:15: unknown key "metric" in the question (did you mean "metrics"?); expected one of: die, metrics`},
		// Too far from any for a guess: the list alone.
		{"ask: {die: 6, kinds: [six]}", `t.yaml:3:15: unknown key "kinds" in the question; expected one of: die, metrics`},
		{"ask: {die: 6, Metrics: [six]}", `t.yaml:3:15: unknown key "Metrics" in the question; did you mean "metrics"?`},
	} {
		_, err := three.Parse("t.yaml", []byte("name: t\nruleset: toy\n"+tc.src+"\n"))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n got: %v\nwant: %s...", tc.src, err, tc.want)
		}
	}
}

func TestSelectMetrics(t *testing.T) {
	s, err := three.Parse("t.yaml", []byte("name: t\nruleset: toy\nask: {die: 6, metrics: [six]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	// The command line overrides the file's choice.
	if err := s.SelectMetrics([]string{"roll", " quiet"}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(metricsOf(t, s), " "); got != "roll quiet" {
		t.Errorf("metrics %q", got)
	}
	// An empty name and one named twice are refused, not dropped.
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"roll", "", "six"}, "name 2 of 3 is empty; t.yaml has: roll, six, quiet"},
		{[]string{"roll", " roll"}, `metric "roll" is named twice`},
	} {
		if err := s.SelectMetrics(tc.names); err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got: %v\nwant: %s", tc.names, err, tc.want)
		}
	}
	err = s.SelectMetrics([]string{"rolls"})
	if err == nil || !strings.Contains(err.Error(), `unknown metric "rolls" in t.yaml (did you mean "roll"?); its question has: roll, six, quiet`) {
		t.Errorf("unknown metric: %v", err)
	}
	err = s.SelectMetrics([]string{"sevens"})
	if err == nil || err.Error() != `metric "sevens" is not reported in t.yaml: it needs a die of 7 or more sides; its question has: roll, six, quiet` {
		t.Errorf("absent metric: %v", err)
	}
}

// TestIntInRange: a whole number past what an int64 holds is out of range,
// as one inside it is, not "not a whole number".
func TestIntInRange(t *testing.T) {
	for _, tc := range []struct{ die, want string }{
		{"21", `t.yaml:3:12: die 21 is out of range; expected 2 to 20`},
		{"99999999999999999999", `t.yaml:3:12: die "99999999999999999999" is out of range; expected 2 to 20`},
		{"six", `t.yaml:3:12: expected die as a whole number from 2 to 20, found "six"`},
	} {
		_, err := three.Parse("t.yaml", []byte("name: t\nruleset: toy\nask: {die: "+tc.die+"}\n"))
		if err == nil || err.Error() != tc.want {
			t.Errorf("die %s:\n got: %v\nwant: %s", tc.die, err, tc.want)
		}
	}
}

// TestErrorColumnsInsideValues: an error inside a value points at its
// place in the file whether the value is plain or quoted (its text then
// starts one column after the quote); where YAML changed the text (a
// block scalar, an escape) it points at the start of the value.
func TestErrorColumnsInsideValues(t *testing.T) {
	for _, tc := range []struct {
		reg       *Registry
		src, want string
	}{
		// "ask: {die: 6, metrics: " is 23 columns.
		{three, "ask: {die: 6, metrics: six, rol}", `t.yaml:3:29: unknown key "rol"`}, // a flow mapping's next key, as YAML reads it
		{three, "ask: {die: 6, metrics: 'six, rol'}", `t.yaml:3:30: unknown metric "rol"`},
		{three, `ask: {die: 6, metrics: "six, rol"}`, `t.yaml:3:30: unknown metric "rol"`},
		{three, "ask: {die: 6, metrics: [six, 'rol']}", `t.yaml:3:31: unknown metric "rol"`},
		{three, "ask:\n  die: 6\n  metrics: six, rol", `t.yaml:5:17: unknown metric "rol"`},
		{three, "ask:\n  die: 6\n  metrics: >\n    six, rol", `t.yaml:5:12: unknown metric "rol"`},
		{three, `ask: {die: 6, metrics: "six,\u0020\trol"}`, `t.yaml:3:24: unknown metric "rol"`},
		// "roll: {unit: {name: A, die: 6, rules: [" is 39 columns; the
		// argument x is 5 bytes into "Far (x)".
		{toys, "roll: {unit: {name: A, die: 6, rules: [Far (x)]}}", `t.yaml:3:45: Far needs a whole number`},
		{toys, "roll: {unit: {name: A, die: 6, rules: ['Far (x)']}}", `t.yaml:3:46: Far needs a whole number`},
		{toys, "roll: {unit: {name: A, die: 6, rules: [{Far: 'x'}]}}", `t.yaml:3:47: Far needs a whole number`},
	} {
		_, err := tc.reg.Parse("t.yaml", []byte("name: t\nruleset: toy\n"+tc.src+"\n"))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n got: %v\nwant: %s...", tc.src, err, tc.want)
		}
	}
}

// TestErrorColumnsCountCharacters: a column inside a value counts the
// characters before it, not their bytes, as the YAML parser's columns do.
// "ask: {die: 6, metrics: \"" is 24 columns; "sïx, " is 5 characters (6
// bytes), so "rol" starts at column 30, where counting bytes said 31.
func TestErrorColumnsCountCharacters(t *testing.T) {
	_, err := three.Parse("t.yaml", []byte("name: t\nruleset: toy\nask: {die: 6, metrics: \"sïx, rol\"}\n"))
	for _, want := range []string{`t.yaml:3:25: unknown metric "sïx"`, `t.yaml:3:30: unknown metric "rol"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got: %v\nwant a line: %s", err, want)
		}
	}
}
