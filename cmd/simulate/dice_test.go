package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiceGolden(t *testing.T) {
	for _, tc := range []struct {
		file string
		args []string
	}{
		{"dice-condition.txt", []string{"dice", "2D6 >= 9 and 3D6kh2 >= 10", "--trials", "1e5"}},
		{"dice-count.md", []string{"dice", "10D6 count 4+ reroll failures", "--format", "markdown"}},
		{"dice-d66.csv", []string{"dice", "D66", "--format", "csv", "--trials", "10_000", "--seed", "3"}},
	} {
		out, _, err := runCLI(t, tc.args...)
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		golden(t, tc.file, []byte(out))
	}
}

// TestDiceJSON checks the JSON shapes of a condition and a number.
func TestDiceJSON(t *testing.T) {
	out, _, err := runCLI(t, "dice", "2D6 >= 9", "--format", "json", "--trials", "20000")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Query     string
		Kind      string
		Exact     float64
		Simulated struct {
			Trials   int64
			Estimate float64
			CI95     [2]float64
		}
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	// 2D6 >= 9: 10 of the 36 pairs.
	if c.Query != "2D6 >= 9" || c.Kind != "condition" || c.Exact != 10.0/36 || c.Simulated.Trials != 20000 ||
		!(c.Simulated.CI95[0] < c.Simulated.Estimate && c.Simulated.Estimate < c.Simulated.CI95[1]) {
		t.Errorf("condition JSON: %+v", c)
	}

	out, _, err = runCLI(t, "dice", "2D6", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Kind   string
		Mean   float64
		Values []struct {
			Value       int
			Exact       float64
			AtLeastJSON float64 `json:"at_least"`
			AtMostJSON  float64 `json:"at_most"`
		}
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	// 2D6: 11 values, mean 7; 9 comes up 4 ways in 36, 9 or more 10 ways,
	// 9 or less 30 ways.
	if d.Kind != "distribution" || d.Mean != 7 || len(d.Values) != 11 || d.Values[7].Value != 9 ||
		abs(d.Values[7].Exact-4.0/36) > 1e-15 || abs(d.Values[7].AtLeastJSON-10.0/36) > 1e-15 || abs(d.Values[7].AtMostJSON-30.0/36) > 1e-15 {
		t.Errorf("distribution JSON: %+v", d)
	}
	if strings.Contains(out, `"simulated"`) {
		t.Errorf("no simulation ran, yet the JSON has simulated values:\n%s", out)
	}
	// The ends are certain: exactly 1, not a sum's rounding of it.
	if d.Values[0].AtLeastJSON != 1 || d.Values[10].AtMostJSON != 1 {
		t.Errorf("at least 2: %v, at most 12: %v; want 1 and 1", d.Values[0].AtLeastJSON, d.Values[10].AtMostJSON)
	}
}

// TestDiceConditionPastBudget: a condition whose exact answer is over the
// work budget is simulated alone, in every format. Two rolls of 100D1000
// compared: X > Y just under one half by symmetry (a tie, about 1e-4, is
// neither), so 40,000 rolls fall within 0.5 +- 5 standard errors
// (5 * 0.0025).
func TestDiceConditionPastBudget(t *testing.T) {
	out, _, err := runCLI(t, "dice", "100D1000 > 100D1000", "--format", "json", "--trials", "40000")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Exact     *float64
		NoExact   string `json:"no_exact"`
		Simulated struct {
			Trials   int64
			Estimate float64
			Z        *float64
		}
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if c.Exact != nil || !strings.Contains(c.NoExact, "simulated only") || c.Simulated.Trials != 40000 ||
		c.Simulated.Z != nil || abs(c.Simulated.Estimate-0.5) > 5*0.0025 {
		t.Errorf("condition past the budget, JSON:\n%s", out)
	}
	out, _, err = runCLI(t, "dice", "100D1000 > 100D1000", "--format", "csv", "--trials", "1000")
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], "100D1000 > 100D1000,,1000,") || !strings.HasSuffix(lines[1], ",") {
		t.Errorf("condition past the budget, CSV: no empty exact and z:\n%s", out)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestDiceOutputAndPlot(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "answer.txt")
	plots := filepath.Join(dir, "plots")
	out, stderr, err := runCLI(t, "dice", "D6! >= 7", "-o", file, "--plot", plots, "--trials", "1000")
	if err != nil {
		t.Fatal(err)
	}
	if out != "" {
		t.Errorf("with -o, nothing goes to stdout; got %q", out)
	}
	if !strings.Contains(stderr, "wrote the results to "+file) || !strings.Contains(stderr, "wrote 2 plot files in "+plots) {
		t.Errorf("stderr should say what was written: %q", stderr)
	}
	got, err := os.ReadFile(file)
	// D6! >= 7: a 6 and then anything, 1/6.
	if err != nil || !strings.Contains(string(got), "exact: 16.67%") {
		t.Errorf("answer file: %q, %v", got, err)
	}
	for _, f := range []string{"dice.png", "dice.svg"} {
		if _, err := os.Stat(filepath.Join(plots, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestDiceErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"dice", "2D6 >="}, "column 7"},
		{[]string{"dice", "2D6", "--format", "xml"}, "unknown format"},
		{[]string{"dice", "2D6", "--trials", "1.5e0"}, "not a whole number"},
		{[]string{"dice", "D6 and D6"}, "joins conditions"},
		// An empty query is refused, not taken for -h.
		{[]string{"dice", ""}, "column 1: empty query"},
		// A query that starts with a minus reads as a flag; the error says
		// to put it after --, and an unknown flag is still one.
		{[]string{"dice", "-D3 + 4"}, `"-D3 + 4" reads as a flag; a query with a word that starts with a minus goes after --, such as simulate dice -- "-D3 + 4"`},
		// The whole query goes after --, not the word that starts with a
		// minus alone, and the flags stay before it.
		{[]string{"dice", "2D6", ">=", "-3", "--format", "csv"}, `such as simulate dice --format csv -- "2D6 >= -3"`},
		{[]string{"dice", "--trials=100", "-D3", "+", "4", "--seed", "3"}, `such as simulate dice --trials=100 --seed 3 -- "-D3 + 4"`},
		// The word is quoted as written, though the flag package cuts a
		// flag's name at "=".
		{[]string{"dice", "-d6>=-3"}, `"-d6>=-3" reads as a flag; a query with a word that starts with a minus goes after --, such as simulate dice -- "-d6>=-3"`},
		{[]string{"dice", "-o", "my file.txt", "-d6>=-3"}, `such as simulate dice -o 'my file.txt' -- "-d6>=-3"`},
		// A flag missing its value is left out: the suggestion parses.
		{[]string{"dice", "-D3 + 4", "--trials"}, `such as simulate dice -- "-D3 + 4"`},
		{[]string{"dice", "-x"}, "flag provided but not defined: -x"},
	} {
		_, _, err := runCLI(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want an error with %q", tc.args, err, tc.want)
		}
	}
}

// TestDiceLeadingMinus: after --, a query may start with a minus.
func TestDiceLeadingMinus(t *testing.T) {
	out, _, err := runCLI(t, "dice", "--format", "csv", "--", "-D3 + 4 >= 2")
	// -D3 + 4 is 1, 2 or 3, each 1/3: at least 2 in 2/3 of rolls.
	if err != nil || !strings.Contains(out, "0.6666666666") {
		t.Errorf("dice -- \"-D3 + 4 >= 2\": %v\n%s", err, out)
	}
}

func TestTrialsFlag(t *testing.T) {
	for _, n := range []string{"2e3", "2_000", "2,000", "2000"} {
		out, _, err := runCLI(t, "run", "random-movement", "--trials", n, "--format", "csv")
		if err != nil {
			t.Fatalf("--trials %s: %v", n, err)
		}
		if !strings.Contains(out, ",2000,") {
			t.Errorf("--trials %s: the CSV does not show 2000 trials:\n%s", n, out)
		}
	}
}

// TestServeDiceExactOnly: the web server's dice answers are exact only; a
// question past the exact-work budget is refused, not simulated (a
// request could otherwise roll a million times, out of reach of the
// server's limits), with a pointer to the command that rolls it.
func TestServeDiceExactOnly(t *testing.T) {
	for _, q := range []string{"100D1000 > 100D1000", "32D1000kh31"} {
		out, err := serveDice(q, "json")
		if err == nil || !strings.Contains(err.Error(), "simulate dice --trials N rolls it") || len(out) != 0 {
			t.Errorf("%s: %v, %q; want it refused", q, err, out)
		}
	}
	out, err := serveDice("2D6 >= 9", "json")
	if err != nil || !strings.Contains(string(out), `"exact": 0.2777777777777778`) {
		t.Errorf("2D6 >= 9: %v, %s", err, out)
	}
}

// TestDicePastBudgetD66: a number past the exact-work budget is rolled as
// the query language reads it, D66 included: a tens die and a units die,
// never a die of 66 sides. D66 + 32D1000kl1 cannot come to less than
// 11 + 1 = 12, and its mean is 38.5 (D66) plus the mean of the lowest of
// 32 D1000, the sum over k of P(lowest >= k) = ((1001-k)/1000)^32. Its sd
// is under 40 (D66's 17.1 and the lowest die's, under its mean of about 30,
// in quadrature), so 20,000 rolls put the mean within 5 × 40/sqrt(20000)
// = 1.42 of it; a die of 66 sides would shift it by -5.
func TestDicePastBudgetD66(t *testing.T) {
	out, _, err := runCLI(t, "dice", "D66 + 32D1000kl1", "--format", "json", "--trials", "20000")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		NoExact string `json:"no_exact"`
		Values  []struct{ Value int }
		Sim     struct{ Mean float64 } `json:"simulated"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if !strings.Contains(d.NoExact, "simulated only") || len(d.Values) == 0 || d.Values[0].Value < 12 {
		t.Errorf("D66 + 32D1000kl1: no_exact %q, lowest value %v; want simulated only, 12 or more", d.NoExact, d.Values[:min(1, len(d.Values))])
	}
	mean := 38.5
	for k := 1; k <= 1000; k++ {
		mean += math.Pow(float64(1001-k)/1000, 32)
	}
	if abs(d.Sim.Mean-mean) > 5*40/math.Sqrt(20000) {
		t.Errorf("D66 + 32D1000kl1: simulated mean %.3f, want %.3f", d.Sim.Mean, mean)
	}
}

// TestDiceRollFlagsAlone: --seed and --workers go with a simulation; given
// for a query answered exactly with no --trials, where nothing is rolled,
// they are a bad command line (exit status 2), as --max-trials without a
// precision target is. A query past the exact budget is simulated without
// --trials, so they are taken there.
func TestDiceRollFlagsAlone(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"dice", "2D6", "--seed", "5"}, "--seed 5 changes nothing here: 2D6 is answered exactly and nothing is rolled; add --trials N to roll it too, or leave it out"},
		{[]string{"dice", "2D6 >= 9", "--workers", "3"}, "--workers 3 changes nothing here: 2D6 >= 9 is answered exactly and nothing is rolled; add --trials N to roll it too, or leave it out"},
		{[]string{"dice", "--workers", "3", "D6", "--seed", "0"}, "--seed 0 and --workers 3 change nothing here: D6 is answered exactly and nothing is rolled; add --trials N to roll it too, or leave them out"},
	} {
		out, _, err := runCLI(t, tc.args...)
		var stderr strings.Builder
		if code := exitCode(err, &stderr); code != 2 || err.Error() != tc.want || out != "" {
			t.Errorf("%v: exit %d, %v, stdout %q\nwant exit 2, %s", tc.args, code, err, out, tc.want)
		}
		if !strings.HasSuffix(stderr.String(), "Run 'simulate dice -h' for its flags.\n") {
			t.Errorf("%v: stderr %q", tc.args, stderr.String())
		}
	}
	for _, args := range [][]string{
		{"dice", "2D6", "--seed", "5", "--workers", "3", "--trials", "1000", "--format", "json"},
		// 20D1000 has no exact distribution within the budget: it is
		// simulated, of the default trials, with the seed given.
		{"dice", "20D1000", "--seed", "5", "--workers", "3", "--format", "json"},
	} {
		out, _, err := runCLI(t, args...)
		if err != nil || !strings.Contains(out, `"seed": 5`) {
			t.Errorf("%v: %v\n%.300s", args, err, out)
		}
	}
}

// TestDiceOverBudgetMoments: a sum past the exact-work budget is simulated
// value by value, beside its exact mean and sd: 100D1000 has mean
// 100 x 1001/2 = 50,050 and sd sqrt(100 x (1000² - 1)/12) = 2886.7499,
// and the simulated mean's z is taken against them.
func TestDiceOverBudgetMoments(t *testing.T) {
	out, _, err := runCLI(t, "dice", "100D1000", "--trials", "2000")
	if err != nil || !strings.Contains(out, "exact: mean 50050.0000, sd 2886.7499\n") || !strings.Contains(out, ", z ") {
		t.Errorf("table: %v\n%s", err, out)
	}
	out, _, err = runCLI(t, "dice", "100D1000", "--trials", "2000", "--format", "json")
	if err != nil || !strings.Contains(out, `"mean": 50050, "sd": 2886.749902572095,`) || !strings.Contains(out, `"z": `) {
		t.Errorf("JSON: %v\n%.400s", err, out)
	}
	// A term that keeps some of its dice and does not fit the budget has
	// no closed form: the mean is simulated only.
	out, _, err = runCLI(t, "dice", "32D1000kh16", "--trials", "200", "--format", "json")
	if err != nil || !strings.Contains(out, `"mean": null`) {
		t.Errorf("32D1000kh16: %v\n%.400s", err, out)
	}
}
