package sim

import (
	"math"
	"testing"
)

// TestT95 pins Student's t quantile to printed tables (the 0.975 column of
// any statistics text: 12.706 for 1 degree of freedom, 2.776 for 4, 2.262
// for 9, 2.045 for 29, 1.984 for 100), checks that the expansion past
// tExactDF meets gonum's quantile at its edge, and that it falls to Z95.
func TestT95(t *testing.T) {
	for _, tt := range []struct {
		df   int64
		want float64
	}{
		{1, 12.7062}, {4, 2.7764}, {9, 2.2622}, {29, 2.0452}, {100, 1.9840},
	} {
		if got := T95(tt.df); math.Abs(got-tt.want) > 5e-5 {
			t.Errorf("T95(%d) = %.6f, want %.4f", tt.df, got, tt.want)
		}
	}
	// Either side of the switch to the expansion, the quantile goes on
	// falling and the two agree to 1e-11.
	edge := T95(tExactDF)
	next := T95(tExactDF + 1)
	if !(next < edge) || math.Abs(next-edge) > 1e-5 {
		t.Errorf("T95 at %d and %d: %.15f, %.15f", tExactDF, tExactDF+1, edge, next)
	}
	if a := T95(tExactDF) - t95Expansion(tExactDF); math.Abs(a) > 1e-11 {
		t.Errorf("at %d degrees of freedom the expansion is %.3g from the quantile", tExactDF, a)
	}
	for _, df := range []int64{1e4, 1e6, 1e9, math.MaxInt64} {
		if got := T95(df); got < Z95 || got-Z95 > 2.5/float64(df) {
			t.Errorf("T95(%d) = %.15f, want just above Z95 %.15f", df, got, Z95)
		}
	}
}

// TestMeanIntervalCoverage: the mean of 5 D6 rolls, over every one of the
// 6^5 = 7,776 sequences, each as likely as the next. Student's t interval
// (T95(4) = 2.776 standard errors) covers 3.5 in 7,310 of them (94.0%, by
// enumeration with Python's statistics.stdev); ± 1.96 standard errors
// would cover 6,800 (87.4%).
func TestMeanIntervalCoverage(t *testing.T) {
	covered, total := 0, 0
	var roll [5]int
	var walk func(i int)
	walk = func(i int) {
		if i == len(roll) {
			h := NewHistogram(1, 6)
			for _, v := range roll {
				h.Add(v)
			}
			e := MeanOf("d6", nil, &h)
			total++
			if e.CI95[0] <= 3.5 && 3.5 <= e.CI95[1] {
				covered++
			}
			return
		}
		for v := 1; v <= 6; v++ {
			roll[i] = v
			walk(i + 1)
		}
	}
	walk(0)
	if total != 7776 || covered != 7310 {
		t.Errorf("covered %d of %d sequences, want 7310 of 7776", covered, total)
	}
}

// TestOneTrialHasNoInterval: one trial gives a mean and its quantiles, but
// no spread, standard error or interval; two give them.
func TestOneTrialHasNoInterval(t *testing.T) {
	h := NewHistogram(0, 10)
	h.Add(7)
	e := MeanOf("x", nil, &h)
	if e.Value != 7 || e.Median != 7 || !math.IsNaN(e.StdDev) || !math.IsNaN(e.SE) || !math.IsNaN(e.CI95[0]) || !math.IsNaN(e.CI95[1]) {
		t.Errorf("one trial: %+v", e)
	}
	if z := e.WithExact(3.5).Z(); !math.IsNaN(z) {
		t.Errorf("one trial against an exact value without its spread: z %v, want none", z)
	}
	// Two trials, 7 and 9: mean 8, sd sqrt(2), se 1, interval 8 ± 12.706.
	h.Add(9)
	e = MeanOf("x", nil, &h)
	if e.Value != 8 || math.Abs(e.SE-1) > 1e-12 || math.Abs(e.CI95[1]-8-T95(1)) > 1e-12 {
		t.Errorf("two trials: %+v", e)
	}
}

// TestAtLeast: an average of counts keeps the part of its interval it can
// be in. Twenty trials, one of which counted 1: mean 1/20, standard
// deviation sqrt(1/20 x 19/20 x 20/19) = sqrt(1/20) (n - 1 in the
// denominator), so a standard error of sqrt(1/20)/sqrt(20) = 1/20, and a
// t quantile for 19 degrees of freedom of 2.093: 0.05 ± 0.1047, whose
// lower end, -0.0547, is cut to 0 and whose upper end stays. An interval
// wholly above the cut, a probability's, and one not worked out (one
// trial) are left as they are.
func TestAtLeast(t *testing.T) {
	h := NewHistogram(0, 1)
	h.AddN(0, 19)
	h.Add(1)
	e := MeanOf("m", nil, &h)
	if lo := e.CI95[0]; math.Abs(lo-(0.05-T95(19)*0.05)) > 1e-12 || lo > -0.05 {
		t.Fatalf("uncut lower end %v, want 0.05 - 2.093 x 0.05", lo)
	}
	c := e.AtLeast(0)
	if c.CI95[0] != 0 || c.CI95[1] != e.CI95[1] || c.Value != e.Value || c.SE != e.SE {
		t.Errorf("cut at 0: %v, want [0, %v] and the rest unchanged", c.CI95, e.CI95[1])
	}
	if got := e.AtLeast(-1); got.CI95 != e.CI95 {
		t.Errorf("cut at -1, below the interval: %v, want %v", got.CI95, e.CI95)
	}
	p := ProbabilityOf("p", nil, 0, 20)
	if got := p.AtLeast(0.5); got.CI95 != p.CI95 {
		t.Errorf("a probability: %v, want its Wilson interval %v", got.CI95, p.CI95)
	}
	one := NewHistogram(0, 1)
	one.Add(1)
	if got := MeanOf("m", nil, &one).AtLeast(0); !math.IsNaN(got.CI95[0]) || !math.IsNaN(got.CI95[1]) {
		t.Errorf("one trial: %v, want no interval", got.CI95)
	}
}
