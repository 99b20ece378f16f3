package heresy

import (
	"math"
	"testing"

	"hammersim/mechanics/dice"
)

// TestExactShooting pins ExactShooting's means to hand-derived values:
// ten models with two BS 4 shots each at S4 AP5 against T4 with a 3+ save.
func TestExactShooting(t *testing.T) {
	p := Profile{WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Save: 3}
	x := ShootingExchange{Firer: NewUnit(p, 10), Target: NewUnit(p, 10),
		Weapons: []Weapon{{Name: "bolter", Shots: dice.Const(2), S: 4, AP: 5}}, Options: DefaultOptions}
	ex := ExactShooting(&x)
	hits := 20 * 4.0 / 6      // BS 4 hits on 3+
	wounds := hits * 3 / 6    // S4 against T4 wounds on 4+
	unsaved := wounds * 2 / 6 // AP5 leaves the 3+ save, failed on 1 or 2
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"hits", ex.Hits, hits}, {"wounds", ex.Wounds, wounds}, {"unsaved", ex.Unsaved, unsaved},
		{"mitigated (nothing mitigates)", ex.Mitigated, 0}, {"stupefied", ex.Stupefied, 0},
		{"max count", float64(ex.MaxCount), 20},
	} {
		if !near(c.got, c.want) {
			t.Errorf("%s: %.6f, want %.6f", c.name, c.got, c.want)
		}
	}
}

// TestExactAssaultMatchesFight checks ExactAssault against rounds fought by
// Fight, within 5 standard errors (a false alarm about once in 3.5 million
// comparisons), with a fixed seed.
func TestExactAssaultMatchesFight(t *testing.T) {
	p := Profile{WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Save: 3}
	tough := Profile{WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 3, A: 2, Ld: 8, Save: 4}
	x := AssaultExchange{Units: [2]Unit{NewUnit(p, 10), NewUnit(tough, 10)}, Charged: true, Options: DefaultOptions}
	ex := ExactAssault(&x)
	const n = 20_000
	r := dice.New(5, 0)
	var won, swept, cas [2]float64
	var cas2 [2]float64
	for range n {
		u := x.Units
		a, b := x.Sides(&u[0], &u[1])
		res := Fight(r, a, b, x.Options)
		for i := range 2 {
			if res.Winner == i {
				won[i]++
			}
			if res.Winner == 1-i && res.Swept {
				swept[i]++
			}
			c := float64(res.Inflicted[1-i].Casualties)
			cas[i] += c
			cas2[i] += c * c
		}
	}
	for i := range 2 {
		for _, c := range []struct {
			name        string
			hits, exact float64
		}{{"won", won[i], ex[i].Won}, {"swept", swept[i], ex[i].Swept}} {
			se := math.Sqrt(c.exact * (1 - c.exact) / n)
			if math.Abs(c.hits/n-c.exact) > 5*se+1e-12 {
				t.Errorf("unit %d %s: %.4f, exact %.4f (5 SE = %.4f)", i, c.name, c.hits/n, c.exact, 5*se)
			}
		}
		mean := cas[i] / n
		se := math.Sqrt((cas2[i]/n - mean*mean) / n)
		if math.Abs(mean-ex[i].Casualties) > 5*se {
			t.Errorf("unit %d casualties: %.4f, exact %.4f (5 SE = %.4f)", i, mean, ex[i].Casualties, 5*se)
		}
	}
	if ex[0].Won < 0.1 || ex[1].Won < 0.1 {
		t.Errorf("won %.4f and %.4f: the case should let either side win", ex[0].Won, ex[1].Won)
	}
}
