package sim

import (
	"math"
	"testing"
)

func TestPMF(t *testing.T) {
	// 2D6 from 2 to 12: 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 ways out of 36.
	ways := []float64{1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1}
	p := PMF{Min: 2}
	for _, w := range ways {
		p.P = append(p.P, w/36)
	}
	for _, tc := range []struct {
		v             int
		atLeast, atMo float64
	}{
		{2, 1, 1.0 / 36},
		{7, 21.0 / 36, 21.0 / 36}, // 2D6 >= 7: 21/36 by enumeration
		{9, 10.0 / 36, 30.0 / 36}, // 2D6 >= 9: 4+3+2+1 = 10 ways
		{12, 1.0 / 36, 1},
		{13, 0, 1},
		{1, 1, 0},
	} {
		if got := p.AtLeast(tc.v); math.Abs(got-tc.atLeast) > 1e-12 {
			t.Errorf("AtLeast(%d) = %v, want %v", tc.v, got, tc.atLeast)
		}
		if got := p.AtMost(tc.v); math.Abs(got-tc.atMo) > 1e-12 {
			t.Errorf("AtMost(%d) = %v, want %v", tc.v, got, tc.atMo)
		}
	}
	e := Estimate{}.WithExactPMF(p)
	if !e.HasExact || math.Abs(e.Exact-7) > 1e-12 { // 2D6 averages 7
		t.Errorf("WithExactPMF: exact %v (has %v), want 7", e.Exact, e.HasExact)
	}
}
