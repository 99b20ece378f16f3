package sim

import (
	"math"
	"strings"
	"testing"

	"hammersim/mechanics/dice"
)

// estimatesOf reads the mean of slot 0 of each model, from a run and from
// each of its batches: the shape Compare takes.
func estimatesOf(r Run) (full [][]Estimate, batches [][][]Estimate) {
	for m := range r.Tallies {
		full = append(full, []Estimate{MeanOf("roll", nil, &r.Tallies[m].H[0])})
		var bs [][]Estimate
		for _, b := range r.Batches {
			bs = append(bs, []Estimate{MeanOf("roll", nil, &b.Tallies[m].H[0])})
		}
		batches = append(batches, bs)
	}
	return full, batches
}

func TestCompareIdenticalAndShifted(t *testing.T) {
	models := []Model{rollModel{dice.MustParse("2D6")}, rollModel{dice.MustParse("2D6")}, rollModel{dice.MustParse("2D6+1")}}
	r := run(t, Config{Trials: 20_000, Seed: 1, Aligned: true, Batches: 32}, models...)
	full, batches := estimatesOf(r)
	c, err := Compare([]string{"a", "a again", "plus one"}, full, batches)
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
	if math.Abs(shifted.Value+1) > 1e-12 || shifted.CI95[1] > -0.999 || shifted.HigherA != 0 {
		t.Errorf("2D6 against 2D6+1: %+v, want -1 with all confidence on the second", shifted)
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
	c, err := Compare([]string{"2D6", "3D6"}, full, batches)
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
// reports a result twice for the same point, cannot be compared.
func TestCompareMismatch(t *testing.T) {
	a := []Estimate{{Metric: "x"}}
	b := []Estimate{{Metric: "y"}}
	if _, err := Compare([]string{"a", "b"}, [][]Estimate{a, b}, [][][]Estimate{nil, nil}); err == nil || !strings.Contains(err.Error(), "share no result") {
		t.Errorf("different metrics compared: %v", err)
	}
	if _, err := Compare([]string{"a", "b"}, [][]Estimate{a, append(a, a...)}, [][][]Estimate{nil, nil}); err == nil || !strings.Contains(err.Error(), "b reports x twice") {
		t.Errorf("a metric reported twice compared: %v", err)
	}
}

func TestSplitBy(t *testing.T) {
	es := []Estimate{
		{Metric: "w", Params: []Param{{"attacker", "A"}, {"target", "T"}}},
		{Metric: "w", Params: []Param{{"attacker", "B"}, {"target", "T"}}},
	}
	out, err := SplitBy("attacker", []any{"A", "B"}, es)
	if err != nil || len(out) != 2 || len(out[1]) != 1 || len(out[1][0].Params) != 1 || out[1][0].Param("target") != "T" {
		t.Fatalf("SplitBy: %v %+v", err, out)
	}
}
