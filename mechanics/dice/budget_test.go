package dice

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
)

// TestBoundsWithoutDist: Min and Max, read from the terms, agree with the
// exact distribution's ends.
func TestBoundsWithoutDist(t *testing.T) {
	for _, s := range []string{"D6", "2D6+1", "3D6kh2", "4D8kl1-2", "D3-D6", "artillery", "scatter", "10-2D6", "5D10kh3+D4", "7"} {
		e := MustParse(s)
		d := e.Dist()
		if e.Min() != d.Min || e.Max() != d.Max() {
			t.Errorf("%s: Min %d Max %d, distribution from %d to %d", s, e.Min(), e.Max(), d.Min, d.Max())
		}
	}
	// 32 dice of 1000 sides keeping 31: from 31 ones to 31 thousands, read
	// at once though the distribution is far over the budget.
	if e := MustParse("32D1000kh31"); e.Min() != 31 || e.Max() != 31000 || e.ExactWork() <= MaxExactWork {
		t.Errorf("32D1000kh31: %d to %d, work %g", e.Min(), e.Max(), e.ExactWork())
	}
}

// TestExactWork: the estimate matches the algorithms' loop counts.
func TestExactWork(t *testing.T) {
	tests := []struct {
		expr string
		want float64
	}{
		// 2D6: s²n²/2 = 36*4/2 = 72 convolution steps, then 1*11 to add it
		// to the point 0.
		{"2D6", 72 + 11},
		// 3D6kh2: s(ks+1)(n+1)(n+2)/2 = 6*13*4*5/2 = 780, then 1*11.
		{"3D6kh2", 780 + 11},
		// A constant costs one step to add.
		{"5", 1},
	}
	for _, tt := range tests {
		if got := MustParse(tt.expr).ExactWork(); got != tt.want {
			t.Errorf("%s: work %g, want %g", tt.expr, got, tt.want)
		}
	}
}

// TestDistContextStops: a cancelled computation returns the context's
// error rather than running on.
func TestDistContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, s := range []string{"100D140", "20D300kh10"} {
		if _, err := MustParse(s).DistContext(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err %v, want context.Canceled", s, err)
		}
	}
}

// TestWorkOverBudget: work over the budget never reads as the budget,
// whatever its rounding: 100,020,000 steps is 1.0002e+08, not 1e+08.
func TestWorkOverBudget(t *testing.T) {
	for _, tt := range []struct {
		work float64
		want string
	}{
		{1.2e8, "1.2e+08"},
		{5.6e9, "5.6e+09"},
		{1.0002e8, "1.0002e+08"},
		{1.04e8, "1.04e+08"},
		{100_000_001, "100000001"},
	} {
		if got := WorkOverBudget(tt.work); got != tt.want {
			t.Errorf("WorkOverBudget(%v) = %q, want %q", tt.work, got, tt.want)
		}
	}
}

// TestMomentsMatchTheDistribution: the mean and sd Moments adds up from
// the terms are those of the exact distribution, for expressions within
// the budget of every kind of term; past it, a plain sum's are the closed
// forms (100D1000: mean 100 x 1001/2 = 50,050, variance 100 x
// (1000² - 1)/12), and a term that keeps dice and does not fit has none.
func TestMomentsMatchTheDistribution(t *testing.T) {
	for _, s := range []string{"D6", "2D6+1", "3D6kh2", "4D8kl1-2", "D3-D6", "artillery", "scatter", "10-2D6", "5D10kh3+D4", "7", "2D6 - 3D6kh2 + 5", "32D6kh16"} {
		e, err := Parse(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		mean, sd, ok := e.Moments()
		d := e.Dist()
		if !ok || math.Abs(mean-d.Mean()) > 1e-9*max(1, math.Abs(mean)) || math.Abs(sd-d.StdDev()) > 1e-9*max(1, sd) {
			t.Errorf("%s: Moments %v, %v (%v), the distribution's %v, %v", s, mean, sd, ok, d.Mean(), d.StdDev())
		}
	}
	e, _ := Parse("100D1000")
	if mean, sd, ok := e.Moments(); !ok || mean != 50050 || math.Abs(sd-math.Sqrt(100*(1e6-1)/12.0)) > 1e-9 {
		t.Errorf("100D1000: %v, %v, %v", mean, sd, ok)
	}
	e, _ = Parse("32D1000kh16")
	if _, _, ok := e.Moments(); ok || e.ExactWork() <= MaxExactWork {
		t.Errorf("32D1000kh16 (about %g steps): moments %v, want none past the budget", e.ExactWork(), ok)
	}
}

// TestDistMemo: an expression read from text works its distribution out
// once for all its copies; each call gets a copy that the caller may
// change, and a stopped computation is not kept.
func TestDistMemo(t *testing.T) {
	e := MustParse("3D6+1")
	want := Dice(3, 6).Plus(1).Dist() // built in code: no memo
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.DistContext(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled first computation: %v", err)
	}
	copyOf := e
	first := copyOf.Dist()
	first.P[0] = 99 // the caller's own copy
	if e.memo == nil || !e.memo.done {
		t.Fatal("the copy's computation was not kept for the original")
	}
	for range 2 {
		got := e.Dist()
		if got.Min != want.Min || !slices.Equal(got.P, want.P) {
			t.Fatalf("Dist() = %v, want %v", got, want)
		}
	}
}
