package scenariotest

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"hammersim/mechanics/dice"
	"hammersim/sim"
)

// TestBinomialTail pins the tail chances by hand: 2 or more of 20,000
// trials at p = 6.6e-6 is, to four figures, the Poisson chance
// 1 - e^-0.132 (1 + 0.132) = 0.007982; 10 or more of 20 at p = 1/2 is the
// upper half with the middle term, (1 + C(20,10)/2^20)/2; 3 or fewer of 20
// at p = 1/2 is (1 + 20 + 190 + 1140)/2^20; none of 20,000 at p = 1/2 is
// 2^-20000, which rounds to 0; and a chance of 0 or 1 allows one count.
func TestBinomialTail(t *testing.T) {
	if got := BinomialTail(20_000, 2, 6.6e-6); math.Abs(got-0.007982) > 1e-5 {
		t.Errorf("P(X >= 2), n 20000, p 6.6e-6: %.6f, want 0.007982", got)
	}
	if got, want := BinomialTail(20, 10, 0.5), (1+184756.0/1048576)/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("P(X >= 10), n 20, p 1/2: %.12f, want %.12f", got, want)
	}
	if got, want := BinomialTail(20, 3, 0.5), 1351.0/1048576; math.Abs(got-want) > 1e-15 {
		t.Errorf("P(X <= 3), n 20, p 1/2: %g, want %g", got, want)
	}
	if got := BinomialTail(20_000, 0, 0.5); got > 1e-300 {
		t.Errorf("P(X <= 0), n 20000, p 1/2: %g, want 0", got)
	}
	if BinomialTail(100, 1, 0) != 0 || BinomialTail(100, 0, 0) != 1 ||
		BinomialTail(100, 99, 1) != 0 || BinomialTail(100, 100, 1) != 1 {
		t.Error("a chance of 0 or 1 should allow its one count only")
	}
}

// reported records what a check reports.
type reported []string

func (e *reported) Helper() {}
func (e *reported) Errorf(format string, args ...any) {
	*e = append(*e, fmt.Sprintf(format, args...))
}

// TestMatchAtLeastTotal: an exact distribution that sums to 0.9 is
// reported whatever the counts, and one that sums to 1 and matches them is
// not. The counts are 300 trials of 0 and 700 of 1: against 0.2 and 0.7,
// the at-least-1 chance 0.7 matches the count of 700 exactly.
func TestMatchAtLeastTotal(t *testing.T) {
	h := sim.NewHistogram(0, 1)
	h.AddN(0, 300)
	h.AddN(1, 700)
	for _, tc := range []struct {
		p    []float64
		fail bool
	}{
		{[]float64{0.2, 0.7}, true},
		{[]float64{0.3, 0.7}, false},
	} {
		e := sim.MeanOf("x", nil, &h).WithExactPMF(sim.PMF{Min: 0, P: tc.p})
		var got reported
		MatchAtLeast(&got, "t", e)
		sums := slices.ContainsFunc(got, func(m string) bool { return strings.Contains(m, "exact distribution sums to 0.9") })
		if sums != tc.fail || (!tc.fail && len(got) > 0) {
			t.Errorf("%v: reported %q", tc.p, got)
		}
	}
}

// TestAllocationsCountRarePaths: the allocation guard sees a path that
// allocates in one trial of 1,500 (13 times in 20,000 trials), which a
// count per run of 1,000 trials would round down to none; and a model that
// allocates nothing, or only as its histogram first grows, reads 0.
func TestAllocationsCountRarePaths(t *testing.T) {
	if got := allocations(allocModel{every: 1500}, 0); got != 13 {
		t.Errorf("one allocation every 1,500 trials: %v in 20,000, want 13", got)
	}
	if got := allocations(allocModel{}, 0); got != 0 {
		t.Errorf("no allocation: %v, want 0", got)
	}
}

// allocModel observes a D6 and, with every set, allocates on every
// every-th trial it runs.
type allocModel struct{ every int }

var allocSink []byte

func (m allocModel) Slots() []sim.Slot { return []sim.Slot{{Name: "d6", Lo: 1, Hi: 6}} }
func (m allocModel) NewTrial() sim.Trial {
	return &allocTrial{every: m.every}
}

type allocTrial struct{ every, n int }

func (a *allocTrial) Run(r *dice.Rand, n int, t *sim.Tally) {
	for range n {
		t.H[0].Add(r.D6())
		if a.n++; a.every > 0 && a.n%a.every == 0 {
			allocSink = make([]byte, 64)
		}
	}
}
