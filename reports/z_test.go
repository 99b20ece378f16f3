package reports

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"hammersim/sim"
)

// zEstimates are estimates whose z covers every case the outputs must
// carry: finite for a probability and a mean with an exact value, none
// without one, infinite either way where the exact value leaves no
// spread, and none for a mean with an exact value whose run has no
// spread and whose exact spread is not known (but 0 when its run gave the
// exact value).
func zEstimates() []sim.Estimate {
	// 6, 7, 8, 9 in 10, 30, 40, 20 of 100 trials: mean 7.7 (sampleReport's
	// charge_reach), here against an exact 7.5.
	spread := sim.NewHistogram(5, 10)
	for v, c := range map[int]int64{6: 10, 7: 30, 8: 40, 9: 20} {
		spread.AddN(v, c)
	}
	// Every trial a 3: sd 0, so a z of +inf against an exact 2 of no
	// spread, and none against one whose spread is not known.
	one := sim.NewHistogram(0, 5)
	one.AddN(3, 100)
	return []sim.Estimate{
		// 480 of 1,000 against 0.5: z = -0.02 / sqrt(0.25 / 1000) = -1.26.
		sim.ProbabilityOf("p", nil, 480, 1000).WithExact(0.5),
		sim.MeanOf("m", nil, &spread).WithExact(7.5),
		sim.ProbabilityOf("p", nil, 500, 1000), // no exact value
		sim.MeanOf("m", nil, &spread),          // no exact value
		// 999 of 1,000 against a certainty: no spread under the exact
		// value, the estimate below it.
		sim.ProbabilityOf("p", nil, 999, 1000).WithExact(1),
		sim.MeanOf("m", nil, &one).WithExact(2).WithExactSD(0),
		sim.MeanOf("m", nil, &one).WithExact(2),
		sim.MeanOf("m", nil, &one).WithExact(3), // on the exact value: z 0
	}
}

// checkZ checks that a decoded z (raw JSON, or a CSV cell) is e.Z(): the
// same float64, none where e has no exact value, and "inf" or "-inf" where
// it is infinite.
func checkZ(t *testing.T, where string, e sim.Estimate, got string, csv bool) {
	t.Helper()
	z := e.Z()
	switch {
	case !e.HasExact || math.IsNaN(z):
		if want := map[bool]string{false: "null", true: ""}[csv]; got != want {
			t.Errorf("%s: z %q without an exact value, want %q", where, got, want)
		}
		return
	case math.IsInf(z, 0):
		want := infWord(z)
		if !csv {
			want = strconv.Quote(want)
		}
		if got != want {
			t.Errorf("%s: z %q, want %q", where, got, want)
		}
		return
	}
	v, err := strconv.ParseFloat(got, 64)
	if err != nil || v != z {
		t.Errorf("%s: z %q (%v), want %v", where, got, err, z)
	}
}

// TestJSONZ: every estimate of the run JSON has "z", Estimate.Z as the
// table prints it: null without an exact value, "inf" or "-inf" when
// infinite.
func TestJSONZ(t *testing.T) {
	es := zEstimates()
	if z := es[0].Z(); math.Abs(z+1.2649) > 1e-4 {
		t.Fatalf("the probability's z is %v, want -1.2649", z)
	}
	if !math.IsInf(es[4].Z(), -1) || !math.IsInf(es[5].Z(), 1) {
		t.Fatalf("the infinite cases are not: %v, %v", es[4].Z(), es[5].Z())
	}
	if !math.IsNaN(es[6].Z()) {
		t.Fatalf("a mean with no spread in its run or known exactly has z %v, want none", es[6].Z())
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, &sim.Report{Scenario: "z", Trials: 1000, Results: es}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Results []map[string]json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, b.String())
	}
	if len(doc.Results) != len(es) {
		t.Fatalf("%d results, want %d", len(doc.Results), len(es))
	}
	for i, r := range doc.Results {
		z, ok := r["z"]
		if !ok {
			t.Errorf("result %d has no z", i)
			continue
		}
		checkZ(t, "result "+strconv.Itoa(i), es[i], string(z), false)
	}
}

// csvColumns reads a CSV output, returning its rows after the header and
// the index of each column by name.
func csvColumns(t *testing.T, b []byte) (rows [][]string, col map[string]int) {
	t.Helper()
	all, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col = map[string]int{}
	for i, h := range all[0] {
		col[h] = i
	}
	return all[1:], col
}

// TestCSVZ: the run CSV gives each estimate's z as the JSON does (empty
// in place of null), its successes when a probability, and its sd,
// median, p05 and p95 when a mean, each empty for the other kind.
func TestCSVZ(t *testing.T) {
	es := zEstimates()
	var b bytes.Buffer
	if err := WriteCSV(&b, &sim.Report{Scenario: "z", Trials: 1000, Results: es}); err != nil {
		t.Fatal(err)
	}
	rows, col := csvColumns(t, b.Bytes())
	if len(rows) != len(es) {
		t.Fatalf("%d rows, want %d", len(rows), len(es))
	}
	for _, name := range []string{"z", "successes", "sd", "median", "p05", "p95"} {
		if _, ok := col[name]; !ok {
			t.Fatalf("no %s column in %v", name, col)
		}
	}
	for i, r := range rows {
		e := es[i]
		where := "row " + strconv.Itoa(i)
		checkZ(t, where, e, r[col["z"]], true)
		want := map[string]string{"successes": "", "sd": "", "median": "", "p05": "", "p95": ""}
		if e.Kind == sim.Probability {
			want["successes"] = strconv.FormatInt(e.Successes, 10)
		} else {
			want["sd"], want["median"] = strconv.FormatFloat(e.StdDev, 'g', -1, 64), strconv.FormatFloat(e.Median, 'g', -1, 64)
			want["p05"], want["p95"] = strconv.FormatFloat(e.P05, 'g', -1, 64), strconv.FormatFloat(e.P95, 'g', -1, 64)
		}
		for name, w := range want {
			if got := r[col[name]]; got != w {
				t.Errorf("%s (%s): %s %q, want %q", where, e.Kind, name, got, w)
			}
		}
	}
}

// zComparison sets zEstimates side by side: candidate A's estimates are
// the first of each pair, B's the second, at four points (a
// probability and a mean with exact values; neither with one; infinite
// either way; none and 0 for means of unknown exact spread).
func zComparison() *sim.Comparison {
	es := zEstimates()
	c := &sim.Comparison{Candidates: []string{"A", "B"}, Trials: 1000}
	for i := 0; i < len(es); i += 2 {
		c.Rows = append(c.Rows, sim.ComparisonRow{Metric: "z", Kind: es[i].Kind,
			Params:    []sim.Param{{Name: "point", Value: i / 2}},
			Estimates: []sim.Estimate{es[i], es[i+1]},
			Diffs:     []sim.Difference{{A: 0, B: 1, Value: 0.1, SE: 0.01, CI95: [2]float64{0.08, 0.12}, HigherA: 0.999, Batches: 32}}})
	}
	return c
}

// TestComparisonJSONZ: each candidate's estimate in the comparison JSON
// has "z", as in the run JSON.
func TestComparisonJSONZ(t *testing.T) {
	c := zComparison()
	var b bytes.Buffer
	if err := WriteComparisonJSON(&b, c, sim.Stamp{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rows []struct {
			Estimates []map[string]json.RawMessage `json:"estimates"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, b.String())
	}
	if len(doc.Rows) != len(c.Rows) {
		t.Fatalf("%d rows, want %d", len(doc.Rows), len(c.Rows))
	}
	for i, row := range doc.Rows {
		for j, e := range row.Estimates {
			where := "row " + strconv.Itoa(i) + ", candidate " + c.Candidates[j]
			z, ok := e["z"]
			if !ok {
				t.Errorf("%s has no z", where)
				continue
			}
			checkZ(t, where, c.Rows[i].Estimates[j], string(z), false)
		}
	}
}

// TestComparisonCSVZ: the comparison CSV gives each candidate of a pair
// its exact value and z, as the run CSV does.
func TestComparisonCSVZ(t *testing.T) {
	c := zComparison()
	var b bytes.Buffer
	if err := WriteComparisonCSV(&b, c, sim.Stamp{}); err != nil {
		t.Fatal(err)
	}
	rows, col := csvColumns(t, b.Bytes())
	if len(rows) != len(c.Rows) {
		t.Fatalf("%d rows, want %d", len(rows), len(c.Rows))
	}
	for _, name := range []string{"exact_a", "z_a", "exact_b", "z_b"} {
		if _, ok := col[name]; !ok {
			t.Fatalf("no %s column in %v", name, col)
		}
	}
	for i, r := range rows {
		for j, side := range []string{"a", "b"} {
			e := c.Rows[i].Estimates[j]
			where := "row " + strconv.Itoa(i) + ", " + side
			checkZ(t, where, e, r[col["z_"+side]], true)
			want := ""
			if e.HasExact {
				want = strconv.FormatFloat(e.Exact, 'g', -1, 64)
			}
			if got := r[col["exact_"+side]]; got != want {
				t.Errorf("%s: exact %q, want %q", where, got, want)
			}
		}
	}
}

// TestUnmeasuredZNote: a table with an exact value whose z is none (a
// mean whose run has no spread and whose exact spread is not known) says
// why, and one without such a value does not.
func TestUnmeasuredZNote(t *testing.T) {
	const note = "A z of - beside an exact value"
	es := zEstimates()
	for _, c := range []struct {
		results []sim.Estimate
		want    bool
	}{{es, true}, {es[:6], false}} {
		var b bytes.Buffer
		if err := WriteTable(&b, &sim.Report{Scenario: "z", Trials: 1000, Results: c.results}); err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(bytes.Join(bytes.Fields(b.Bytes()), []byte(" ")), []byte(note)); got != c.want {
			t.Errorf("with %d estimates: the note is there %v, want %v:\n%s", len(c.results), got, c.want, b.String())
		}
	}
}
