package heresy

import (
	"runtime"
	"testing"
)

// TestLargeSweepLoadsLightly: loading a sweep lists its metrics without
// copying a full histogram per point. 100 models firing 30 shots each can
// score 3,000 hits, so each point's hits, wounds, unsaved wounds and
// mitigated histograms hold 3,001 counts of 8 bytes, about 96 KB a point:
// 96 MB over these 1,000 points (10 S x 5 AP x 20 distances). Loading
// must allocate well under that: 40 MB leaves room for the models and
// their exact values.
func TestLargeSweepLoadsLightly(t *testing.T) {
	src := `name: big
ruleset: heresy
shooting:
  firer: {name: F, models: 100, WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+, weapons: [{name: gun, range: 36, S: 1..10, AP: 2..6, shots: 30}]}
  target: {name: T, models: 100, WS: 4, BS: 4, S: 4, T: 4, W: 3, I: 4, A: 1, Ld: 8, Sv: 3+}
  distance: 1..20
  metrics: [hits, unsaved_wounds, casualties]
`
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := registry.Parse("big.yaml", []byte(src)); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 40<<20 {
		t.Errorf("loading 1,000 points allocated %d MB; want under 40", got>>20)
	}
}
