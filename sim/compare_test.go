package sim

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"hammersim/mechanics/dice"
)

// estimatesOf reads the mean of slot 0 of each model, from a run and from
// each of its batches: the shape Compare takes.
func estimatesOf(r Run) (full [][]Estimate, batches [][][]float64) {
	for m := range r.Tallies {
		full = append(full, []Estimate{MeanOf("roll", nil, &r.Tallies[m].H[0])})
		var bs [][]float64
		for _, b := range r.Batches {
			bs = append(bs, Values([]Estimate{MeanOf("roll", nil, &b.Tallies[m].H[0])}))
		}
		batches = append(batches, bs)
	}
	return full, batches
}

func TestCompareIdenticalAndShifted(t *testing.T) {
	models := []Model{rollModel{dice.MustParse("2D6")}, rollModel{dice.MustParse("2D6")}, rollModel{dice.MustParse("2D6+1")}}
	r := run(t, Config{Trials: 20_000, Seed: 1, Aligned: true, Batches: 32}, models...)
	full, batches := estimatesOf(r)
	c, err := Compare([]string{"a", "a again", "plus one"}, full, batches, nil)
	if err != nil {
		t.Fatal(err)
	}
	row := c.Rows[0]
	same := row.Diffs[0] // a - a again
	if same.Value != 0 || same.CI95[0] > 0 || same.CI95[1] < 0 || same.HigherA != 0.5 {
		t.Errorf("identical candidates: %+v, want a difference of 0 with an interval holding 0", same)
	}
	// Paired trial by trial, 2D6 - (2D6+1) is exactly -1 every time.
	shifted := row.Diffs[1]
	if shifted.Value != -1 || shifted.SE != 0 || shifted.CI95 != [2]float64{-1, -1} || shifted.HigherA != 0 {
		t.Errorf("2D6 against 2D6+1: %+v, want -1, se 0, with all confidence on the second", shifted)
	}
	if shifted.Batches != 32 {
		t.Errorf("%d batches, want 32", shifted.Batches)
	}
}

// TestCompareUnpairedCovers: without alignment the batches are close to
// independent; the interval must still cover the true difference, 2D6 -
// 3D6 = -3.5, within 5 standard errors.
func TestCompareUnpairedCovers(t *testing.T) {
	models := []Model{rollModel{dice.MustParse("2D6")}, rollModel{dice.MustParse("3D6")}}
	r := run(t, Config{Trials: 40 * ChunkSize, Seed: 3, Batches: 20}, models...)
	full, batches := estimatesOf(r)
	c, err := Compare([]string{"2D6", "3D6"}, full, batches, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := c.Rows[0].Diffs[0]
	if z := (d.Value + 3.5) / d.SE; math.Abs(z) > 5 {
		t.Errorf("difference %.4f, SE %.4f: z %.1f from -3.5", d.Value, d.SE, z)
	}
	if d.HigherA > 1e-6 {
		t.Errorf("confidence that 2D6 beats 3D6: %g", d.HigherA)
	}
}

// TestCompareMismatch: candidates that share no result, or one that
// reports a result twice for the same point, cannot be compared; one that
// reports nothing at all can be, beside two that share.
func TestCompareMismatch(t *testing.T) {
	a := []Estimate{{Metric: "x"}}
	b := []Estimate{{Metric: "y"}}
	if _, err := Compare([]string{"a", "b"}, [][]Estimate{a, b}, [][][]float64{nil, nil}, nil); err == nil || !strings.Contains(err.Error(), "share no result: candidates must ask the same question over the same points (a reports x; b reports y)") {
		t.Errorf("different metrics compared: %v", err)
	}
	// The message says what parts them: a parameter one sweeps, or values.
	swept := []Estimate{{Metric: "x", Params: []Param{{Name: "models", Value: 30}}}, {Metric: "x", Params: []Param{{Name: "models", Value: 40}}}}
	if _, err := Compare([]string{"a", "m"}, [][]Estimate{a, swept}, [][][]float64{nil, nil}, nil); err == nil || !strings.Contains(err.Error(), "(m sweeps models, which a does not)") {
		t.Errorf("a parameter swept in one: %v", err)
	}
	other := []Estimate{{Metric: "x", Params: []Param{{Name: "models", Value: 50}}}}
	if _, err := Compare([]string{"m", "n"}, [][]Estimate{swept, other}, [][][]float64{nil, nil}, nil); err == nil || !strings.Contains(err.Error(), "(they sweep the same parameters over different values)") {
		t.Errorf("values apart: %v", err)
	}
	if _, err := Compare([]string{"a", "b"}, [][]Estimate{a, append(a, a...)}, [][][]float64{nil, nil}, nil); err == nil || !strings.Contains(err.Error(), "b reports x twice") {
		t.Errorf("a metric reported twice compared: %v", err)
	}
	// A third candidate that reports nothing (an attacker without points,
	// narrowed to a per-100-points metric) is shown as not reporting it;
	// one that reports only results of its own asks another question.
	if c, err := Compare([]string{"a", "a again", "none"}, [][]Estimate{a, a, nil}, [][][]float64{nil, nil, nil}, nil); err != nil || len(c.Rows) != 1 || c.Rows[0].Reported[2] {
		t.Errorf("a candidate reporting nothing: %v, %+v", err, c)
	}
	if _, err := Compare([]string{"a", "a again", "other"}, [][]Estimate{a, a, b}, [][][]float64{nil, nil, nil}, nil); err == nil || !strings.Contains(err.Error(), "a and other share no result") {
		t.Errorf("a candidate of another question among two of one: %v", err)
	}
	// Two pairs, each of one question: every two candidates must share.
	if _, err := Compare([]string{"a", "a again", "b", "b again"}, [][]Estimate{a, a, b, b}, [][][]float64{nil, nil, nil, nil}, nil); err == nil || !strings.Contains(err.Error(), "a and b share no result") {
		t.Errorf("two questions, two candidates each: %v", err)
	}
	// The values of one scenario's parameter ask one question, however
	// their results fall: each shares with a third, not with each other.
	ab := []Estimate{{Metric: "x"}, {Metric: "y"}}
	if c, err := CompareSplit([]string{"only x", "only y", "both"}, [][]Estimate{a, b, ab}, [][][]float64{nil, nil, nil}, nil); err != nil || len(c.Rows) != 2 {
		t.Errorf("one scenario's values, each reporting part: %v, %+v", err, c)
	}
	if _, err := CompareSplit([]string{"a", "b"}, [][]Estimate{nil, nil}, [][][]float64{nil, nil}, nil); err == nil || !strings.Contains(err.Error(), "none of them reports anything") {
		t.Errorf("one scenario's values reporting nothing: %v", err)
	}
	// One candidate reporting, the other nothing.
	if c, err := Compare([]string{"a", "none"}, [][]Estimate{a, nil}, [][][]float64{nil, nil}, nil); err != nil || len(c.Rows) != 1 || !c.Rows[0].Reported[0] || c.Rows[0].Reported[1] {
		t.Errorf("one candidate reporting, one not: %v, %+v", err, c)
	}
	if _, err := Compare([]string{"a", "b"}, [][]Estimate{nil, nil}, [][][]float64{nil, nil}, nil); err == nil || !strings.Contains(err.Error(), "none of them reports anything") {
		t.Errorf("two candidates reporting nothing: %v", err)
	}
}

// TestCompareMissingIsNaN: a candidate that does not report a mean has
// no number of it at all, its spread and quantiles included, where a 0
// would read as measured.
func TestCompareMissingIsNaN(t *testing.T) {
	var h Histogram
	h.AddN(2, 10)
	kept := MeanOf("x", nil, &h)
	extra := MeanOf("only a", nil, &h)
	c, err := Compare([]string{"a", "b"}, [][]Estimate{{kept, extra}, {kept}}, [][][]float64{nil, nil}, nil)
	if err != nil {
		t.Fatal(err)
	}
	row := c.Rows[1]
	if row.Metric != "only a" || !row.Reported[0] || row.Reported[1] {
		t.Fatalf("row %s, reported %v: want only a, reported by a alone", row.Metric, row.Reported)
	}
	e := row.Estimates[1]
	if e.Trials != 0 {
		t.Errorf("missing estimate has %d trials, want 0", e.Trials)
	}
	for name, v := range map[string]float64{"value": e.Value, "se": e.SE, "ci95 low": e.CI95[0], "ci95 high": e.CI95[1],
		"sd": e.StdDev, "median": e.Median, "p05": e.P05, "p95": e.P95} {
		if !math.IsNaN(v) {
			t.Errorf("missing estimate's %s is %v, want NaN", name, v)
		}
	}
}

func TestSplitBy(t *testing.T) {
	es := []Estimate{
		{Metric: "w", Params: []Param{{"attacker", "A"}, {"target", "T"}}},
		{Metric: "w", Params: []Param{{"attacker", "B"}, {"target", "T"}}},
	}
	out, at, err := SplitBy("attacker", []any{"A", "B"}, es)
	if err != nil || len(out) != 2 || len(out[1]) != 1 || len(out[1][0].Params) != 1 || out[1][0].Param("target") != "T" {
		t.Fatalf("SplitBy: %v %+v", err, out)
	}
	// A batch's values, in the estimates' order, split alike.
	if vs := SplitValues([]float64{1.5, 2.5}, at); len(vs) != 2 || len(vs[0]) != 1 || vs[0][0] != 1.5 || vs[1][0] != 2.5 {
		t.Errorf("SplitValues: %v (positions %v), want [[1.5] [2.5]]", vs, at)
	}
}

// TestCompareSameEveryBatch: B's trials are A's plus exactly 1 (A rolls
// 14 or 16, B 15 or 17, in 32 batches of 625 trials with 3 to 34 low
// rolls), so every batch's difference is -1. In float64 some batches'
// means differ by -0.9999999999999982 or -1.0000000000000018 (15.9808 -
// 16.9808, 15.9904 - 16.9904), which once gave an se of 2e-16: it is -1,
// se 0, and an interval of -1 alone. One trial that differs by 2 in one batch is a real spread
// (1/625 in that batch's difference) and keeps its se.
func TestCompareSameEveryBatch(t *testing.T) {
	for _, spread := range []bool{false, true} {
		var batches [2][][]float64
		fa, fb := NewHistogram(0, 40), NewHistogram(0, 40)
		for k := range int64(32) {
			a, b := NewHistogram(0, 40), NewHistogram(0, 40)
			a.AddN(14, 3+k)
			a.AddN(16, 625-3-k)
			b.AddN(15, 3+k)
			if spread && k == 5 {
				b.AddN(17, 625-3-k-1)
				b.AddN(18, 1)
			} else {
				b.AddN(17, 625-3-k)
			}
			fa.Merge(&a)
			fb.Merge(&b)
			batches[0] = append(batches[0], Values([]Estimate{MeanOf("reach", nil, &a)}))
			batches[1] = append(batches[1], Values([]Estimate{MeanOf("reach", nil, &b)}))
		}
		full := [][]Estimate{{MeanOf("reach", nil, &fa)}, {MeanOf("reach", nil, &fb)}}
		c, err := Compare([]string{"a", "b"}, full, batches[:], nil)
		if err != nil {
			t.Fatal(err)
		}
		d := c.Rows[0].Diffs[0]
		switch {
		case !spread && (d.Value != -1 || d.SE != 0 || d.CI95 != [2]float64{-1, -1} || d.HigherA != 0 || d.Batches != 32):
			t.Errorf("B = A + 1 in every trial: %+v, want -1, se 0, interval [-1, -1], 32 batches", d)
		case spread && !(d.SE > 1e-6):
			t.Errorf("one batch differs by 1/625 more: se %g, want a spread", d.SE)
		}
	}
}

// TestRoundWithin: a difference known to rounding is written with the
// fewest decimals within the tolerance. The tolerances are sameBatches
// (1e-12) times the size of the values compared: 16.63 for a knight's
// charge reach, 1 for a probability.
func TestRoundWithin(t *testing.T) {
	for _, c := range []struct{ v, tol, want float64 }{
		{-0.9999999999999982, 1.663e-11, -1}, // knights, M 7 against M 8
		{-1.0000000000000018, 1.663e-11, -1},
		{0.5250000000000001, 1e-12, 0.525},
		{1.0 / 3, 1e-12, 0.333333333333}, // 12 decimals are within 1e-12
		{-1e-17, 1e-12, 0},               // not -0
		{7, 0, 7},
	} {
		got := roundWithin(c.v, c.tol)
		if got != c.want || math.Signbit(got) != math.Signbit(c.want) {
			t.Errorf("roundWithin(%v, %v) = %v, want %v", c.v, c.tol, got, c.want)
		}
	}
}

// TestCompareProbabilityDifference: two probabilities over the same
// trials differ by their counts over the trials, the nearest float64 to
// it: 10,475 and 10,580 successes in 20,000 trials differ by -105/20,000
// = -0.00525, where the quotients' difference is -0.005249999999999977.
func TestCompareProbabilityDifference(t *testing.T) {
	est := func(successes, trials int64) Estimate { return ProbabilityOf("reaches", nil, successes, trials) }
	full := [][]Estimate{{est(10_475, 20_000)}, {est(10_580, 20_000)}}
	var batches [2][][]float64
	for k := range int64(2) {
		batches[0] = append(batches[0], Values([]Estimate{est(5_235+5*k, 10_000)}))
		batches[1] = append(batches[1], Values([]Estimate{est(5_300-20*k, 10_000)}))
	}
	c, err := Compare([]string{"a", "b"}, full, batches[:], nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := c.Rows[0].Diffs[0]; d.Value != -0.00525 {
		t.Errorf("difference %v, want -0.00525", d.Value)
	}
}

// TestRowOrder: a comparison's rows are the first candidate's, in its
// order, with the points only later candidates have placed among those of
// their metric by value. Two sweeps of a distance that overlap in part
// give 7 to 14 whichever comes first, where listing keys as first met gave
// 10, 14, 7, 8, 9, 11, 12, 13.
func TestRowOrder(t *testing.T) {
	// Each candidate's rows, space-separated: metric|distance, the
	// distance a number where it reads as one, "m|" left out.
	est := func(spec string) []Estimate {
		var es []Estimate
		for _, k := range strings.Fields(spec) {
			m, v, found := strings.Cut(k, "|")
			if !found {
				m, v = "m", k
			}
			var value any = v
			if n, err := strconv.Atoi(v); err == nil {
				value = n
			}
			es = append(es, Estimate{Metric: m, Params: []Param{{Name: "distance", Value: value}}})
		}
		return es
	}
	for _, tc := range []struct {
		rows []string
		want string
	}{
		{[]string{"10 14", "7 8 9 10 11 12 13"}, "7 8 9 10 11 12 13 14"},
		{[]string{"7 8 9 10 11 12 13", "10 14"}, "7 8 9 10 11 12 13 14"},
		{[]string{"1 2 3", "1 4", "1 2 4"}, "1 2 3 4"},
		{[]string{"a b c", "a b c"}, "a b c"},
		// Words are ordered as first given, by any candidate.
		{[]string{"a c", "a b c", "a c d"}, "a c b d"},
		// Values the first candidate lists from high to low are placed so.
		{[]string{"14 10", "12 14 10"}, "14 12 10"},
		{[]string{"14 10 6", "12 8"}, "14 12 10 8 6"},
		{[]string{"12 8", "14 10 6"}, "14 12 10 8 6"},
		// Unsorted, the first candidate's order stands; a point added goes
		// before the first that is larger.
		{[]string{"14 6 10", "8"}, "8 14 6 10"},
		// Metric by metric, each over its points; a metric only a later
		// candidate has goes last.
		{[]string{"m1|10 m1|14 m2|10 m2|14", "m1|7 m1|10 m2|7 m2|10"}, "m1|7 m1|10 m1|14 m2|7 m2|10 m2|14"},
		{[]string{"c|10 c|14 m2|10 m2|14", "c|7 c|10 c|11 m2|7 m2|10 m2|11 m3|10"}, "c|7 c|10 c|11 c|14 m2|7 m2|10 m2|11 m2|14 m3|10"},
		// Point by point, as a battle lists its units' metrics: an added
		// point's rows stay together, among the points by value.
		{[]string{"a|10 b|10 a|14 b|14", "a|10 b|10 a|14 b|14"}, "a|10 b|10 a|14 b|14"},
		{[]string{"a|10 b|10 a|14 b|14", "a|7 b|7 a|10 b|10"}, "a|7 b|7 a|10 b|10 a|14 b|14"},
		{[]string{"a|10 b|10 a|14 b|14", "a|10 b|10 a|12 b|12 a|14 b|14 a|16 b|16"}, "a|10 b|10 a|12 b|12 a|14 b|14 a|16 b|16"},
		{[]string{"", "2 1"}, "1 2"},
	} {
		var full [][]Estimate
		var keys [][]string
		for _, r := range tc.rows {
			es := est(r)
			full, keys = append(full, es), append(keys, matchKeys(es))
		}
		var got []string
		for _, k := range rowOrder(full, keys, []string{"distance"}) {
			k = strings.Replace(k, "|distance=", "|", 1)
			got = append(got, strings.TrimPrefix(k, "m|"))
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("rowOrder(%q) = %q, want %q", tc.rows, g, tc.want)
		}
	}
	// Units are compared by their place among their metric's units, not
	// by name: each candidate names its own.
	a := []Estimate{{Metric: "w", Params: []Param{{Name: "distance", Value: 10}, {Name: "unit", Value: "Knights"}}},
		{Metric: "w", Params: []Param{{Name: "distance", Value: 10}, {Name: "unit", Value: "Orcs"}}}}
	b := []Estimate{{Metric: "w", Params: []Param{{Name: "distance", Value: 7}, {Name: "unit", Value: "Rats"}}},
		{Metric: "w", Params: []Param{{Name: "distance", Value: 7}, {Name: "unit", Value: "Orcs"}}},
		{Metric: "w", Params: []Param{{Name: "distance", Value: 10}, {Name: "unit", Value: "Rats"}}},
		{Metric: "w", Params: []Param{{Name: "distance", Value: 10}, {Name: "unit", Value: "Orcs"}}}}
	got := rowOrder([][]Estimate{a, b}, [][]string{matchKeys(a), matchKeys(b)}, []string{"distance"})
	want := []string{"w|distance=7|unit#0", "w|distance=7|unit#1", "w|distance=10|unit#0", "w|distance=10|unit#1"}
	if !slices.Equal(got, want) {
		t.Errorf("units by place: %q, want %q", got, want)
	}
}

// TestRowOrderOfBattles: a battle lists its rows point by point, and a
// point only a later candidate has keeps its rows together, even where
// some rows carry a parameter that is not swept (a Mishap's result), and
// where the first candidate has one point only.
func TestRowOrderOfBattles(t *testing.T) {
	// rows writes a battle's rows at each distance: metric|result or
	// metric|unit, as "fw", "mishap=disaster", "wounds#0".
	rows := func(distances []int, slots ...string) []Estimate {
		var es []Estimate
		for _, d := range distances {
			for _, sl := range slots {
				ps := []Param{{Name: "distance", Value: d}}
				m, extra, _ := strings.Cut(sl, "=")
				if name, unit, ok := strings.Cut(sl, "#"); ok {
					m = name
					ps = append(ps, Param{Name: "unit", Value: "U" + unit})
				} else if extra != "" {
					ps = append(ps, Param{Name: "result", Value: extra})
				}
				es = append(es, Estimate{Metric: m, Params: ps})
			}
		}
		return es
	}
	show := func(full [][]Estimate) string {
		var keys [][]string
		for _, es := range full {
			keys = append(keys, matchKeys(es))
		}
		var out []string
		for _, k := range rowOrder(full, keys, []string{"distance"}) {
			k = strings.ReplaceAll(strings.ReplaceAll(k, "|distance=", "@"), "|result=", "=")
			out = append(out, strings.ReplaceAll(k, "|unit", ""))
		}
		return strings.Join(out, " ")
	}
	slots := []string{"fw", "mishap=disaster", "mishap=ok", "wounds#0", "wounds#1"}
	a, b := rows([]int{4, 8}, slots...), rows([]int{6, 8}, slots...)
	want := "fw@4 mishap@4=disaster mishap@4=ok wounds@4#0 wounds@4#1 " +
		"fw@6 mishap@6=disaster mishap@6=ok wounds@6#0 wounds@6#1 " +
		"fw@8 mishap@8=disaster mishap@8=ok wounds@8#0 wounds@8#1"
	for _, full := range [][][]Estimate{{a, b}, {b, a}} {
		if got := show(full); got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
	// A charge question: charge_success at each distance, then
	// charge_reach, which has no distance; metric by metric, whichever
	// file comes first.
	charge := func(ds ...int) []Estimate {
		es := rows(ds, "cs")
		return append(es, Estimate{Metric: "reach"})
	}
	c7, c10 := charge(7, 8, 9, 10, 11, 12, 13), charge(10, 14)
	want = "cs@7 cs@8 cs@9 cs@10 cs@11 cs@12 cs@13 cs@14 reach"
	for _, full := range [][][]Estimate{{c7, c10}, {c10, c7}} {
		if got := show(full); got != want {
			t.Errorf("a charge question: got %s, want %s", got, want)
		}
	}
	// One point in the first candidate: the layout is the other's.
	one, three := rows([]int{10}, "cs", "ih"), rows([]int{6, 10, 14}, "cs", "ih")
	want = "cs@6 ih@6 cs@10 ih@10 cs@14 ih@14"
	for _, full := range [][][]Estimate{{one, three}, {three, one}} {
		if got := show(full); got != want {
			t.Errorf("one point against three: got %s, want %s", got, want)
		}
	}
}
