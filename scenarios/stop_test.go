package scenarios_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"hammersim/scenarios"
	"hammersim/sim"
)

// stopSweep is a Fantasy battle of 10 x 10 x 10 x 100 = 100,000 points,
// the most a scenario may sweep: reading it builds a model at each.
const stopSweep = `name: big
ruleset: fantasy
battle:
  attacker: {name: A, models: 10, M: 5, WS: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], S: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], T: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], I: 3, A: 1, Ld: 7}
  target: {name: B, models: 10, M: 5, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7}
  distance: 1..100
  phases: [charge, combat]
`

// TestParseStopsWhenDone: a scenario whose context is done stops being
// read, with ErrStopped, within a second however large its sweep.
func TestParseStopsWhenDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	_, err := both.ParseContext(ctx, "big.yaml", []byte(stopSweep))
	if !errors.Is(err, scenarios.ErrStopped) {
		t.Fatalf("got %v, want ErrStopped", err)
	}
	if took := time.Since(start); took > 200*time.Millisecond+time.Second {
		t.Errorf("stopped %v after the context was done; want within a second", took-200*time.Millisecond)
	}
}

// TestResultsAfterTheReading: once a scenario is read, its context being
// done (a signal during the run) does not shorten its results: an
// interrupted run still writes every point's.
func TestResultsAfterTheReading(t *testing.T) {
	src := `name: small
ruleset: fantasy
charge: {unit: {name: A, M: [4, 5, 6]}, distance: 1..10}
`
	ctx, cancel := context.WithCancel(context.Background())
	s, err := both.ParseContext(ctx, "small.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	run := sim.Run{}
	for _, m := range s.Models {
		run.Tallies = append(run.Tallies, sim.NewTally(m.Slots()))
		run.Completed = append(run.Completed, 0)
	}
	// charge_success and charge_reach at 3 x 10 points.
	if got := len(s.Results(run)); got < 30 {
		t.Errorf("%d estimates after the context was done; want every point's", got)
	}
}
