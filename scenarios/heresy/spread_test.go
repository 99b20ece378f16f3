package heresy

import (
	"math"
	"testing"

	"hammersim/sim"
)

// TestAssaultExactSpread: the assault's counts carry their exact spread,
// which z reads. One model of A2 at WS4 against WS4 (4+ to hit), S4
// against T4 (4+ to wound), against five W1 models with no save that
// cannot strike back, with no charge (no extra Attack): its hits are
// Binomial(2, 1/2), standard deviation sqrt(2 x 1/2 x 1/2) = sqrt(1/2);
// its wounds, and so its unsaved wounds and the models they slay,
// Binomial(2, 1/4), sqrt(2 x 1/4 x 3/4) = sqrt(3/8).
func TestAssaultExactSpread(t *testing.T) {
	src := scenario(`assault:
  attacker: {name: One, models: 1, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 2, Ld: 8, Sv: 3+}
  defender: {name: Five, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 1, A: "-", Ld: 8, Sv: none}
  charged: false
`)
	_, es := runScenario(t, src, 20_000)
	for _, c := range []struct {
		metric string
		mean   float64
		sd     float64
	}{
		{metricHits, 1, math.Sqrt(0.5)},
		{metricWounds, 0.5, math.Sqrt(3.0 / 8)},
		{metricUnsaved, 0.5, math.Sqrt(3.0 / 8)},
		{metricCasualties, 0.5, math.Sqrt(3.0 / 8)},
	} {
		e := find(t, es, c.metric, "unit", "Five")
		if math.Abs(e.Exact-c.mean) > 1e-12 || !e.HasExactSD || math.Abs(e.ExactSD-c.sd) > 1e-12 {
			t.Errorf("%s: exact %v, spread %v (known %v); want %v and %v", c.metric, e.Exact, e.ExactSD, e.HasExactSD, c.mean, c.sd)
		}
		if farFromExact(e, 4) {
			t.Errorf("%s: estimate %.4f, exact %.4f, z %.1f", c.metric, e.Value, e.Exact, e.Z())
		}
	}
}

// TestExactSpreadsMatchTheRuns: every exact spread of the exact cases
// (mixtures over Overwatch, Return Fire, charges that fail and both
// sides' strikes) agrees with the spread of its simulated values. At
// 20,000 trials the sample standard deviation of a count whose kurtosis
// is below 20 has a relative standard error under
// sqrt((20 - 1) / (4 x 20,000)) = 1.5%, so 6% is four of them; counts
// rarer than a mean of 0.2, whose kurtosis may be far higher, are left to
// z.
func TestExactSpreadsMatchTheRuns(t *testing.T) {
	checked := 0
	for _, src := range exactCases {
		_, es := runScenario(t, src, 20_000)
		for _, e := range es {
			if !e.HasExactSD || e.Exact < 0.2 {
				continue
			}
			checked++
			if math.Abs(e.StdDev-e.ExactSD) > 0.06*e.ExactSD+1e-9 {
				t.Errorf("%s %v: simulated spread %.4f, exact %.4f", e.Metric, e.Params, e.StdDev, e.ExactSD)
			}
		}
	}
	if checked < 10 {
		t.Errorf("%d spreads checked; want the exact cases' counts, at least 10", checked)
	}
}

// TestNextAttackExactSpread: the target's next attack carries its exact
// spread, whatever Return Fire took from the firer first. Ten W1 firers
// with no save whose S3 guns cannot wound the T8 target (To Wound table:
// S3 against T8 has no roll), so the target loses nothing; its one
// model's two shots at BS4 (3+ to hit, 7 - BS) and S4 against T4 (4+ to
// wound) fire twice, as Return Fire and as its next attack, and the next
// attack's casualties are Binomial(2, 2/3 x 1/2 = 1/3) apart from Return
// Fire's (ten firers, of whom Return Fire takes at most two): mean 2/3,
// standard deviation sqrt(2 x 1/3 x 2/3) = 2/3. The models the firer lost
// first do not count: summed with them, its spread would be larger.
func TestNextAttackExactSpread(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: Guns, models: 10, WS: 4, BS: 4, S: 3, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: none,
          weapons: [{name: gun, S: 3, AP: "-", shots: 1}]}
  target: {name: Wall, models: 1, WS: 4, BS: 4, S: 4, T: 8, W: 1, I: 4, A: 1, Ld: 8, Sv: none,
           weapons: [{name: gun, S: 4, AP: "-", shots: 2}]}
  reaction: return_fire
`)
	_, es := runScenario(t, src, 20_000)
	e := find(t, es, metricNextAttack)
	if math.Abs(e.Exact-2.0/3) > 1e-12 || !e.HasExactSD || math.Abs(e.ExactSD-2.0/3) > 1e-12 {
		t.Errorf("next attack: exact %v, spread %v (known %v); want 2/3 and 2/3", e.Exact, e.ExactSD, e.HasExactSD)
	}
	if farFromExact(e, 4) || math.Abs(e.StdDev-e.ExactSD) > 0.06*e.ExactSD {
		t.Errorf("next attack: estimate %.4f (spread %.4f), exact %.4f (%.4f)", e.Value, e.StdDev, e.Exact, e.ExactSD)
	}
	if rf := find(t, es, metricReturnFire); math.Abs(rf.Exact-2.0/3) > 1e-12 {
		t.Errorf("Return Fire's casualties: exact %v, want 2/3 (the same two shots)", rf.Exact)
	}
}

// TestMitigatedExactSpread: the wounds mitigated carry their exact spread.
// Against T4 W1 models with no save and Feel No Pain (5+), a wound is
// unsaved and then ignored with chance 1/3. Shooting: one BS4 model (3+
// to hit, 2/3) with S4 (4+ to wound, 1/2): each shot gives an ignored
// wound with chance q = 2/3 x 1/2 x 1/3 = 1/9, apart from the others; with
// 3 shots the count is Binomial(3, 1/9), mean 1/3 and variance 3 x 1/9 x
// 8/9 = 8/27; with D3 shots S, mean E[S] q = 2/9 and variance E[S] q (1 -
// q) + Var S q^2 = 2 x 8/81 + 2/3 x 1/81 = 50/243. Assault: one model of
// A2 at WS4 against WS4 (4+, 1/2) with S4 (1/2), not charging: Binomial(2,
// 1/12), mean 1/6 and variance 2 x 1/12 x 11/12 = 22/144.
func TestMitigatedExactSpread(t *testing.T) {
	const target = `{name: Five, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 1, A: "-", Ld: 8, Sv: none, rules: [Feel No Pain (5+)]}`
	for _, c := range []struct {
		name, src      string
		mean, variance float64
	}{
		{"3 shots", `shooting:
  firer: {name: One, models: 1, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+, weapons: [{name: gun, S: 4, AP: "-", shots: 3}]}
  target: ` + target, 1.0 / 3, 8.0 / 27},
		{"D3 shots", `shooting:
  firer: {name: One, models: 1, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+, weapons: [{name: gun, S: 4, AP: "-", shots: D3}]}
  target: ` + target, 2.0 / 9, 50.0 / 243},
		{"assault", `assault:
  attacker: {name: One, models: 1, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 2, Ld: 8, Sv: 3+}
  defender: ` + target + `
  charged: false`, 1.0 / 6, 22.0 / 144},
	} {
		_, es := runScenario(t, scenario(c.src), 20_000)
		var e sim.Estimate
		if c.name == "assault" {
			e = find(t, es, metricMitigated, "unit", "Five")
		} else {
			e = find(t, es, metricMitigated)
		}
		if math.Abs(e.Exact-c.mean) > 1e-12 || !e.HasExactSD || math.Abs(e.ExactSD-math.Sqrt(c.variance)) > 1e-12 {
			t.Errorf("%s: exact %v, spread %v (known %v); want %v and %v", c.name, e.Exact, e.ExactSD, e.HasExactSD, c.mean, math.Sqrt(c.variance))
		}
		if farFromExact(e, 4) || math.Abs(e.StdDev-e.ExactSD) > 0.06*e.ExactSD {
			t.Errorf("%s: estimate %.4f (spread %.4f), exact %.4f (%.4f)", c.name, e.Value, e.StdDev, e.Exact, e.ExactSD)
		}
	}
}

// TestSweptSaveRuleNamedAsWritten: a swept rule whose value is a save is
// named as it is written, 4+, as a swept Sv is, not as a bare 4 that
// reads as a modifier.
func TestSweptSaveRuleNamedAsWritten(t *testing.T) {
	src := scenario(`shooting:
  firer: {name: F, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+,
          weapons: [{name: g, S: 4, AP: 5, rules: [{Breaching: [4+, 6+]}]}]}
  target: {name: T, models: 5, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: [3+, 4+]}
`)
	_, es := runScenario(t, src, 100)
	seen := map[any]bool{}
	for _, e := range es {
		seen[e.Param("breaching")] = true
		if sv := e.Param("Sv"); sv != "3+" && sv != "4+" {
			t.Fatalf("Sv %v (%T)", sv, sv)
		}
	}
	if len(seen) != 2 || !seen["4+"] || !seen["6+"] {
		t.Errorf("breaching named %v, want 4+ and 6+", seen)
	}
}
