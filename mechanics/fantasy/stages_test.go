package fantasy

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"hammersim/mechanics/dice"
)

// binomialChi2 draws a statistic draws times and returns the chi-square of
// its counts against Binomial(n, p) capped at most (values above most are
// counted as most), and the degrees of freedom. Cells are pooled from the
// lowest value up until each expects at least 5; what is left at the top
// joins the last cell.
func binomialChi2(t *testing.T, draws, n int, p float64, most int, draw func() int) (float64, int) {
	t.Helper()
	exp := make([]float64, most+1)
	bin := distuv.Binomial{N: float64(n), P: p}
	for k := 0; k <= n; k++ {
		exp[min(k, most)] += bin.Prob(float64(k)) * float64(draws)
	}
	obs := make([]float64, most+1)
	for range draws {
		v := draw()
		if v < 0 || v > most {
			t.Fatalf("value %d outside 0..%d", v, most)
		}
		obs[v]++
	}
	// Pool cells from the lowest up until each expects at least 5.
	var cells [][2]float64
	var acc [2]float64
	for k := range exp {
		acc[0] += obs[k]
		acc[1] += exp[k]
		if acc[1] >= 5 {
			cells = append(cells, acc)
			acc = [2]float64{}
		}
	}
	cells[len(cells)-1][0] += acc[0]
	cells[len(cells)-1][1] += acc[1]
	x := 0.0
	for _, c := range cells {
		x += (c[0] - c[1]) * (c[0] - c[1]) / c[1]
	}
	return x, len(cells) - 1
}

// chi2Crit999 is the 0.999 quantile of the chi-square distribution with df
// degrees of freedom (gonum's distuv; 29.59 for 10, as tables give).
func chi2Crit999(df int) float64 {
	return distuv.ChiSquared{K: float64(df)}.Quantile(0.999)
}

// TestStagesAreBinomial: rolled a stage at a time (every to-hit die, then a
// to-wound die for each hit, then a save for each wound), a group of blows
// is the same experiment as rolling blow by blow: each blow gets through
// independently with the product of its stages' chances, so the unsaved
// wounds of n blows are Binomial(n, p), capped at the wounds the target has
// left. Each case gives p by hand from the charts:
//   - Impact-like hits, S4 on T3 (3+ to wound, 4/6) against a 5+ save made
//     6+ by S4 (fails 5/6) and a 6+ ward (fails 5/6): p = 100/216.
//   - Blows WS4 on WS3 (3+, 4/6), re-rolling failed hits (Always Strikes
//     First at higher Initiative: 4/6 + 2/6 * 4/6 = 8/9), S3 on T3 (4+,
//     1/2), no save: p = 4/9.
//   - The same re-rolling successful hits (Always Strikes Last at lower
//     Initiative: (4/6)^2 = 4/9): p = 2/9.
//   - Stomp-like hits, S5 on two T4 models of 3 wounds (3+, 4/6), 3+ save
//     made 5+ by S5 (fails 4/6): p = 4/9, capped at the 6 wounds there are.
func TestStagesAreBinomial(t *testing.T) {
	r := dice.New(41, 0)
	const draws = 100_000
	t.Run("hits", func(t *testing.T) {
		u := foot("Target", 20, 5, 3, 3, 3, 3, 1, 7, 5)
		u.Ward = 6
		bl := hitsOn(4, u)
		var st UnitState
		x, df := binomialChi2(t, draws, 12, 100.0/216, 12, func() int {
			st.reset(u, 0)
			return landHits(r, &bl, 12, u, &st)
		})
		if x > chi2Crit999(df) {
			t.Fatalf("chi-square %.2f over %d degrees of freedom, above %.2f", x, df, chi2Crit999(df))
		}
	})
	for _, tt := range []struct {
		name   string
		reroll rerollRule
		p      float64
	}{{"reroll-failed", rerollFailed, 4.0 / 9}, {"reroll-successful", rerollSuccessful, 2.0 / 9}} {
		t.Run(tt.name, func(t *testing.T) {
			a := foot("Blows", 10, 5, 4, 3, 3, 3, 1, 7, NoSave)
			e := foot("Target", 20, 5, 3, 3, 3, 3, 1, 7, NoSave)
			var st UnitState
			g := strikeGroup{side: 0, attacker: 0, reroll: tt.reroll, attacks: 15}
			opt := DefaultOptions
			bl := groupBlows(&g, a, e, &opt)
			x, df := binomialChi2(t, draws, 15, tt.p, 15, func() int {
				st.reset(e, 0)
				return strike(r, &g, &bl, e, &st)
			})
			if x > chi2Crit999(df) {
				t.Fatalf("chi-square %.2f over %d degrees of freedom, above %.2f", x, df, chi2Crit999(df))
			}
		})
	}
	t.Run("capped", func(t *testing.T) {
		u := foot("Ogres", 2, 2, 3, 4, 4, 2, 3, 7, 3)
		u.W = 3
		bl := hitsOn(5, u)
		var st UnitState
		x, df := binomialChi2(t, draws, 12, 4.0/9, 6, func() int {
			st.reset(u, 0)
			w := landHits(r, &bl, 12, u, &st)
			if st.Alive != 2-w/3 || st.Damage != w%3 {
				t.Fatalf("%d wounds left %d models with %d damage", w, st.Alive, st.Damage)
			}
			return w
		})
		if x > chi2Crit999(df) {
			t.Fatalf("chi-square %.2f over %d degrees of freedom, above %.2f", x, df, chi2Crit999(df))
		}
	})
}

// TestChi2Crit999 checks the quantile against tabled values (Abramowitz
// and Stegun, table 26.8).
func TestChi2Crit999(t *testing.T) {
	for df, want := range map[int]float64{4: 18.467, 10: 29.588, 15: 37.697} {
		if got := chi2Crit999(df); math.Abs(got-want) > 0.001 {
			t.Errorf("df %d: %.3f, table %.3f", df, got, want)
		}
	}
}
