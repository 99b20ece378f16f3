package reports

import (
	"fmt"
	"io"
	"strings"
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

// BenchmarkReportFigures builds the figures of a report whose series are
// many (reportFigures: a metric split into figures of at most MaxLines
// series, the first MaxFigures drawn), against the JSON of the same report
// as the measure: both should grow in proportion to the points. The sweeps
// are of a distance (the x axis) by three characteristics of ten values
// each (1,000 series, as a battle sweep of WS, S and T has), at 5 and 20
// distances: 5,000 and 20,000 points.
func BenchmarkReportFigures(b *testing.B) {
	for _, distances := range []int{5, 20} {
		r := &sim.Report{Scenario: "many", Version: "test", Seed: 1, Trials: 1000}
		r.Axes = append(r.Axes, sim.Axis{Name: "distance"})
		for d := range distances {
			r.Axes[0].Values = append(r.Axes[0].Values, d+1)
		}
		for _, n := range []string{"WS", "S", "T"} {
			a := sim.Axis{Name: n}
			for v := range 10 {
				a.Values = append(a.Values, v+1)
			}
			r.Axes = append(r.Axes, a)
		}
		for d := range distances {
			for ws := range 10 {
				for st := range 10 {
					for t := range 10 {
						ps := []sim.Param{{Name: "distance", Value: d + 1}, {Name: "WS", Value: ws + 1}, {Name: "S", Value: st + 1}, {Name: "T", Value: t + 1}}
						r.Results = append(r.Results, sim.ProbabilityOf("won", ps, int64(100+(d+ws+st+t)*37%800), 1000))
					}
				}
			}
		}
		points := len(r.Results)
		b.Run(fmt.Sprintf("points=%d/figures", points), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := reportFigures(r, goOn); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("points=%d/json", points), func(b *testing.B) {
			for b.Loop() {
				if err := WriteJSON(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWrapLongWord wraps one word of 10,000 and of 100,000 letters
// (a description written without spaces) to the terminal's width: the
// second should take about ten times the first, as the pieces are ten
// times as many.
func BenchmarkWrapLongWord(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		word := strings.Repeat("x", n)
		b.Run(fmt.Sprintf("letters=%d", n), func(b *testing.B) {
			for b.Loop() {
				if len(wrapText(word, TerminalWidth)) <= n {
					b.Fatal("no line breaks")
				}
			}
		})
	}
}
