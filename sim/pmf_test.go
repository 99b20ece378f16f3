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

// TestPMFCertainIsOne: a tail that holds the whole distribution is 1
// exactly, not the sum of its parts: six times 1/6 adds up to
// 0.9999999999999999 in floating point, which reports print as ">99.9".
// A D6 is at least 1 and at most 6; D6+1 hits written with the
// impossible 0 and 1 first (as a count from 0 is) are at least 2 for
// certain. An empty distribution is certain of nothing.
func TestPMFCertainIsOne(t *testing.T) {
	sixth := 1.0 / 6
	d6 := PMF{Min: 1, P: []float64{sixth, sixth, sixth, sixth, sixth, sixth}}
	d6plus1 := PMF{Min: 0, P: []float64{0, 0, sixth, sixth, sixth, sixth, sixth, sixth, 0}}
	for _, tc := range []struct {
		name          string
		p             PMF
		v             int
		atLeast, atMo float64
	}{
		{"D6", d6, 1, 1, sixth},
		{"D6", d6, 0, 1, 0},
		{"D6", d6, 6, sixth, 1},
		{"D6", d6, 7, 0, 1},
		{"D6+1", d6plus1, 2, 1, sixth},
		{"D6+1", d6plus1, 7, sixth, 1},
		{"D6+1", d6plus1, 8, 0, 1},
		{"empty", PMF{Min: 0, P: []float64{0, 0}}, 0, 0, 0},
	} {
		if got := tc.p.AtLeast(tc.v); got != tc.atLeast && !(tc.atLeast != 1 && math.Abs(got-tc.atLeast) < 1e-15) {
			t.Errorf("%s: AtLeast(%d) = %v, want %v", tc.name, tc.v, got, tc.atLeast)
		}
		if got := tc.p.AtMost(tc.v); got != tc.atMo && !(tc.atMo != 1 && math.Abs(got-tc.atMo) < 1e-15) {
			t.Errorf("%s: AtMost(%d) = %v, want %v", tc.name, tc.v, got, tc.atMo)
		}
	}
}
