package heresy

import (
	"math"
	"testing"

	"hammersim/mechanics/dice"
)

const eps = 1e-12

func near(a, b float64) bool { return math.Abs(a-b) <= eps }

// zWithin reports whether an estimate of a proportion p from n trials with
// k successes lies within 5 standard errors of p, and the z score.
func zWithin(k, n int, p float64) (float64, bool) {
	if p == 0 || p == 1 {
		return 0, float64(k) == p*float64(n)
	}
	se := math.Sqrt(p * (1 - p) / float64(n))
	z := (float64(k)/float64(n) - p) / se
	return z, math.Abs(z) <= 5
}

func TestShootingHit(t *testing.T) {
	tests := []struct {
		bs     int
		cap7   bool
		want   float64
		source string
	}{
		{0, false, 0, "BS 0 cannot hit"},
		{1, false, 1.0 / 6, "BS 1 (Snap Shots) hits on 6+: 1/6"},
		{2, false, 2.0 / 6, "BS 2 hits on 5+"},
		{3, false, 3.0 / 6, "BS 3 hits on 4+"},
		{4, false, 4.0 / 6, "BS 4 hits on 3+: 4/6"},
		{5, false, 5.0 / 6, "BS 5 hits on 2+"},
		{6, false, 31.0 / 36, "BS 6: 2+, re-roll 1s on 6+: 5/6 + 1/6*1/6"},
		{7, false, 32.0 / 36, "BS 7: 2+, re-roll 1s on 5+: 5/6 + 1/6*2/6"},
		{8, false, 33.0 / 36, "BS 8 extended: re-roll on 4+"},
		{9, false, 34.0 / 36, "BS 9 extended: re-roll on 3+"},
		{10, false, 35.0 / 36, "BS 10 extended: re-roll on 2+"},
		{12, false, 35.0 / 36, "BS above 10 reads BS 10"},
		{8, true, 32.0 / 36, "CapBSAt7: BS 8 as BS 7"},
		{10, true, 32.0 / 36, "CapBSAt7: BS 10 as BS 7"},
	}
	for _, tt := range tests {
		o := DefaultOptions
		o.CapBSAt7 = tt.cap7
		if got := ShootingHit(tt.bs, o).P(); !near(got, tt.want) {
			t.Errorf("BS %d (cap %v): %.6f, want %.6f (%s)", tt.bs, tt.cap7, got, tt.want, tt.source)
		}
	}
}

func TestHitRollMonteCarlo(t *testing.T) {
	// BS 7: a 1 re-rolled needs 5+; 32/36 exact.
	h := ShootingHit(7, DefaultOptions)
	r := dice.New(1, 0)
	const n = 200_000
	k := 0
	for range n {
		if h.Roll(r) {
			k++
		}
	}
	if z, ok := zWithin(k, n, h.P()); !ok {
		t.Errorf("BS 7 hit rate %.4f, exact %.4f, z %.1f", float64(k)/n, h.P(), z)
	}
}

func TestWoundChart(t *testing.T) {
	tests := []struct {
		s, t   int
		want   float64
		source string
	}{
		{4, 4, 3.0 / 6, "S4 vs T4 wounds on 4+"},
		{5, 4, 4.0 / 6, "S5 vs T4: +1, 3+"},
		{6, 4, 5.0 / 6, "S6 vs T4: +2, 2+"},
		{10, 1, 5.0 / 6, "+9 is still 2+ (a 1 always fails)"},
		{3, 4, 2.0 / 6, "S3 vs T4: -1, 5+"},
		{2, 4, 1.0 / 6, "S2 vs T4: -2, 6+"},
		{1, 4, 1.0 / 6, "S1 vs T4: -3, 6+"},
		{1, 5, 0, "S1 vs T5: -4, cannot wound"},
		{3, 8, 0, "S3 vs T8: -5, cannot wound"},
	}
	for _, tt := range tests {
		if got := pAtLeast(WoundNeed(tt.s, tt.t, DefaultOptions)); !near(got, tt.want) {
			t.Errorf("S%d vs T%d: %.6f, want %.6f (%s)", tt.s, tt.t, got, tt.want, tt.source)
		}
		// The zero Options reads the same standard chart.
		if WoundNeed(tt.s, tt.t, Options{}) != WoundNeed(tt.s, tt.t, DefaultOptions) {
			t.Errorf("S%d vs T%d: zero Options differs from the standard chart", tt.s, tt.t)
		}
	}
	// An option chart is used when given: a harsher one where -2 needs 6+ and
	// -3 cannot wound.
	o := DefaultOptions
	o.WoundChart = WoundChart{Impossible, Impossible, 6, 5, 4, 3, 2}
	if got := WoundNeed(1, 4, o); got != Impossible {
		t.Errorf("option chart S1 vs T4: %d, want Impossible", got)
	}
}

// TestWSChart checks the literal chart against the rule it writes out
// (docs/heresy.md, close combat): higher WS 3+; equal or not less than half
// 4+; the target more than double 5+.
func TestWSChart(t *testing.T) {
	for a := 0; a <= 10; a++ {
		for d := 0; d <= 10; d++ {
			want := 4
			switch {
			case a > d:
				want = 3
			case d > 2*a:
				want = 5
			}
			if got := MeleeHit(a, d, DefaultOptions).Need; got != want {
				t.Errorf("WS %d vs WS %d: %d+, want %d+", a, d, got, want)
			}
			if MeleeHit(a, d, Options{}) != MeleeHit(a, d, DefaultOptions) {
				t.Errorf("WS %d vs WS %d: zero Options differs from the standard chart", a, d)
			}
		}
	}
	tests := []struct {
		a, d, want int
		source     string
	}{
		{4, 4, 4, "equal WS: 4+"},
		{5, 4, 3, "higher WS: 3+"},
		{4, 8, 4, "exactly double is not more than double: 4+"},
		{4, 9, 5, "more than double: 5+"},
		{1, 3, 5, "WS 3 is more than double WS 1: 5+"},
	}
	for _, tt := range tests {
		if got := MeleeHit(tt.a, tt.d, DefaultOptions).Need; got != tt.want {
			t.Errorf("WS %d vs %d: %d+, want %d+ (%s)", tt.a, tt.d, got, tt.want, tt.source)
		}
	}
}

func TestBestSave(t *testing.T) {
	tests := []struct {
		armour, invuln, cover, ap int
		want                      int
		kind                      SaveKind
		source                    string
	}{
		{3, 0, 0, 2, Impossible, NoSave, "AP2 is better than a 3+ save: removed"},
		{3, 0, 0, 3, Impossible, NoSave, "AP equal to the save removes it"},
		{3, 0, 0, 4, 3, ArmourSave, "AP4 is worse than 3+: save kept"},
		{2, 0, 0, APNone, 2, ArmourSave, "AP \"-\" never removes a save"},
		{3, 5, 0, 2, 5, InvulnerableSave, "invulnerable saves are not modified by AP"},
		{3, 4, 0, 5, 3, ArmourSave, "the best save available is taken"},
		{4, 0, 5, 3, 5, CoverSave, "cover is not removed by AP"},
		{3, 4, 4, 1, 4, InvulnerableSave, "one save only: 4+ either way"},
		{0, 0, 0, APNone, Impossible, NoSave, "no saves"},
		{7, 0, 0, APNone, Impossible, NoSave, "a 7+ save cannot be made"},
	}
	for _, tt := range tests {
		got, kind := BestSave(tt.armour, tt.invuln, tt.cover, tt.ap)
		if got != tt.want || kind != tt.kind {
			t.Errorf("Sv %d, inv %d, cover %d, AP %d: %d (%s), want %d (%s): %s",
				tt.armour, tt.invuln, tt.cover, tt.ap, got, kind, tt.want, tt.kind, tt.source)
		}
	}
}

func TestPassProbability(t *testing.T) {
	tests := []struct {
		ld        int
		doubleOne bool
		want      float64
		source    string
	}{
		{7, false, 21.0 / 36, "2D6 <= 7: 21/36, by enumeration"},
		{8, false, 26.0 / 36, "2D6 <= 8: 26/36"},
		{10, false, 33.0 / 36, "2D6 <= 10: 33/36"},
		{2, false, 1.0 / 36, "double 1 only"},
		{1, false, 0, "2D6 never rolls under 2"},
		{-3, false, 0, "2D6 never rolls under 2"},
		{12, false, 1, "2D6 always rolls 12 or less"},
		{15, false, 1, "above 12 always passes"},
		{7, true, 21.0 / 36, "a double 1 (2) already passes Ld 7"},
		{2, true, 1.0 / 36, "a double 1 already passes Ld 2: still 1/36"},
		{1, true, 1.0 / 36, "only the double 1 passes: 1/36"},
		{-5, true, 1.0 / 36, "only the double 1 passes, however low Ld is"},
	}
	for _, tt := range tests {
		if got := PassProbability(tt.ld, tt.doubleOne); !near(got, tt.want) {
			t.Errorf("Ld %d, double 1 passes %v: %.6f, want %.6f (%s)", tt.ld, tt.doubleOne, got, tt.want, tt.source)
		}
	}
	// The table is the convolution of two D6.
	two := dice.Dice(2, 6).Dist()
	for ld := 0; ld <= 13; ld++ {
		if !near(PassProbability(ld, false), two.AtMost(ld)) {
			t.Errorf("Ld %d: table %.6f, 2D6 distribution %.6f", ld, PassProbability(ld, false), two.AtMost(ld))
		}
	}
}

// TestRollTestDoubleOne rolls tests on Ld 0 and Ld 5 with and without the
// double 1: each rate must match PassProbability within 5 standard errors.
func TestRollTestDoubleOne(t *testing.T) {
	const n = 200_000
	for _, ld := range []int{0, 5} {
		for _, doubleOne := range []bool{false, true} {
			r := dice.New(7, 0)
			k := 0
			for range n {
				if RollTest(r, ld, doubleOne) {
					k++
				}
			}
			p := PassProbability(ld, doubleOne)
			if z, ok := zWithin(k, n, p); !ok {
				t.Errorf("Ld %d, double 1 passes %v: rate %.5f, exact %.5f, z %.1f", ld, doubleOne, float64(k)/n, p, z)
			}
		}
	}
}
