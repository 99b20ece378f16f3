package dice

import (
	"context"
	"errors"
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
