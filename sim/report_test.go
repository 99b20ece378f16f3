package sim

import (
	"slices"
	"testing"
)

// TestMetricOrder: metrics come in the order of the point that reports
// the most, whichever point a sweep begins with: an attacker without a
// price (points 0) first, whose point has no per-100 metric, puts that
// metric where the priced point has it, before fled, not after it.
func TestMetricOrder(t *testing.T) {
	at := func(points int, metrics ...string) []Estimate {
		var es []Estimate
		for _, m := range metrics {
			es = append(es, Estimate{Metric: m, Params: []Param{{Name: "points", Value: points}, {Name: "unit", Value: "A"}}})
		}
		return es
	}
	free := at(0, "wounds", "won", "fled")
	priced := at(100, "wounds", "won", "per_100", "fled")
	want := []string{"wounds", "won", "per_100", "fled"}
	for _, es := range [][]Estimate{slices.Concat(free, priced), slices.Concat(priced, free)} {
		if got := MetricOrder(es, []string{"points"}); !slices.Equal(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	}
	// No point has them all: the richest point's order, then the others
	// as they first appear.
	es := slices.Concat(at(1, "a", "b"), at(2, "c", "a", "d"))
	if got := MetricOrder(es, []string{"points"}); !slices.Equal(got, []string{"c", "a", "d", "b"}) {
		t.Errorf("no point has every metric: got %v", got)
	}
	// A point's estimates need not come one after another.
	es = []Estimate{at(1, "a")[0], at(2, "x")[0], at(1, "b")[0], at(2, "a")[0], at(2, "b")[0]}
	if got := MetricOrder(es, []string{"points"}); !slices.Equal(got, []string{"x", "a", "b"}) {
		t.Errorf("interleaved points: got %v", got)
	}
}
