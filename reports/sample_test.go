package reports

import (
	"math"

	"hammersim/sim"
)

// categoricalReport is a small list-building report: three attackers by
// two targets, a mean metric laid out as a grid whose rows are names, and a
// probability metric beside it.
func categoricalReport() *sim.Report {
	attackers := []any{"Knights", "Swordsmen", "Spear & <Shield>"}
	targets := []any{"Orcs", "Goblins"}
	r := &sim.Report{
		Scenario: "matchups", Description: "Who hurts whom.", Version: "test", Seed: 7, Trials: 50,
		Axes: []sim.Axis{{Name: "attacker", Values: attackers}, {Name: "target", Values: targets}},
		Grid: &sim.Grid{Metric: "wounds", Rows: "attacker", Cols: "target"},
	}
	for i, a := range attackers {
		for j, tg := range targets {
			h := sim.NewHistogram(0, 6)
			// Counts chosen so the means differ across cells: attacker i
			// against target j puts more weight on higher values.
			for v := range 5 {
				h.AddN(v, int64(1+v*(3-i)+j*2))
			}
			ps := []sim.Param{{Name: "attacker", Value: a}, {Name: "target", Value: tg}}
			r.Results = append(r.Results, sim.MeanOf("wounds", ps, &h))
			r.Results = append(r.Results, sim.ProbabilityOf("breaks", ps, int64(10+10*i+5*j), 50))
		}
	}
	return r
}

// sampleComparison sets three candidates side by side: a mean metric at
// two points and a probability at one. The differences are written out
// rather than worked out from batches, so each verdict is known: a clear
// win for A, a clear win for B, an unclear one, and one with no interval.
func sampleComparison() *sim.Comparison {
	names := []string{"Knights", "Swordsmen", "Spear & <Shield>"}
	c := &sim.Comparison{Candidates: names, Trials: 1000} // every estimate below rests on 1,000 trials
	mean := func(v float64, ps []sim.Param) sim.Estimate {
		h := sim.NewHistogram(0, 6)
		// Two values around v, weighted so that the mean is v: a
		// distribution with a known mean and a spread.
		lo := int(v)
		hi := lo + 1
		w := v - float64(lo)
		h.AddN(lo, int64(1000*(1-w)+0.5))
		h.AddN(hi, int64(1000*w+0.5))
		return sim.MeanOf("wounds", ps, &h)
	}
	// 2.04 is the Student t 97.5% quantile for 31 degrees of freedom (32
	// batches), as sim.Compare's intervals use.
	diff := func(a, b int, v, se, higher float64) sim.Difference {
		return sim.Difference{A: a, B: b, Value: v, SE: se, CI95: [2]float64{v - 2.04*se, v + 2.04*se}, HigherA: higher, Batches: 32}
	}
	for i, target := range []string{"Orcs", "Goblins"} {
		ps := []sim.Param{{Name: "target", Value: target}}
		row := sim.ComparisonRow{Metric: "wounds", Params: ps, Kind: sim.Mean}
		for j, v := range []float64{2.4, 2.1, 2.35} {
			row.Estimates = append(row.Estimates, mean(v-0.2*float64(i)+0.05*float64(j*i), ps))
		}
		row.Diffs = []sim.Difference{
			diff(0, 1, 0.3, 0.02, 0.99999),
			diff(0, 2, 0.05-0.1*float64(i), 0.04, 0.62-0.5*float64(i)),
			diff(1, 2, -0.25, 0.03, 0.0004),
		}
		c.Rows = append(c.Rows, row)
	}
	row := sim.ComparisonRow{Metric: "breaks", Kind: sim.Probability, Differ: true}
	for j, k := range []int64{620, 580, 601} {
		row.Estimates = append(row.Estimates, sim.ProbabilityOf("breaks", nil, k-int64(j), 1000))
	}
	row.Diffs = []sim.Difference{
		diff(0, 1, 0.041, 0.015, 0.994),
		diff(0, 2, 0.021, 0.02, 0.85),
		{A: 1, B: 2, Value: -0.02, SE: math.NaN(), CI95: [2]float64{math.NaN(), math.NaN()}, HigherA: math.NaN(), Batches: 1},
	}
	c.Rows = append(c.Rows, row)
	return c
}

// sampleStamp is a stamp with a precision target that was not met.
func sampleStamp() sim.Stamp {
	return sim.Stamp{
		Version: "test", Scenario: "matchups", ScenarioSHA256: "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b",
		Seed: 7, Trials: 1000, Workers: 4, Command: "simulate run matchups --seed 7 --trials 1000",
		Precision: 0.005, PrecisionMet: false, MaxTrials: 1000,
	}
}
