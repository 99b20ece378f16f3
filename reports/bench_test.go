package reports

import (
	"io"
	"testing"

	"hammersim/sim"
)

// longReport is a sweep of 100 x 50 points, each with a probability and a
// mean of a count (with its histogram, so that it gets an "at least N"
// view): 10,000 estimates, the shape of a large balance sweep.
func longReport() *sim.Report {
	r := &sim.Report{Scenario: "long", Version: "test", Seed: 1, Trials: 1000,
		Axes: []sim.Axis{{Name: "models", Values: make([]any, 100)}, {Name: "distance", Values: make([]any, 50)}}}
	for m := range 100 {
		r.Axes[0].Values[m] = m + 1
	}
	for d := range 50 {
		r.Axes[1].Values[d] = d + 1
	}
	for m := range 100 {
		for d := range 50 {
			ps := []sim.Param{{Name: "models", Value: m + 1}, {Name: "distance", Value: d + 1}}
			r.Results = append(r.Results, sim.ProbabilityOf("won", ps, int64(100+m*d%800), 1000))
			h := sim.NewHistogram(0, 6)
			for v := range 7 {
				h.AddN(v, int64(50+(m+d+v)%97))
			}
			r.Results = append(r.Results, sim.MeanOf("wounds", ps, &h))
		}
	}
	return r
}

// BenchmarkWriteTable times the table format of a long report (b.N
// writes), against which the JSON of the same report is the measure:
// both must grow in proportion to the rows.
func BenchmarkWriteTable(b *testing.B) {
	r := longReport()
	for _, f := range []struct {
		name  string
		write func(io.Writer, *sim.Report) error
	}{{"table", WriteTable}, {"json", WriteJSON}} {
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				if err := f.write(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
