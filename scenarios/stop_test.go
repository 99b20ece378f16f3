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

// TestReportStops: gathering a run into a report asks its stop at every
// point, so that a signal after a large sweep's last trial need not wait
// for every point's results (seconds at 100,000 points); a stop that
// never comes leaves the report as Results makes it.
func TestReportStops(t *testing.T) {
	src := `name: small
ruleset: fantasy
charge: {unit: {name: A, M: [4, 5, 6]}, distance: 1..10}
`
	s, err := both.Parse("small.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	run := sim.Run{}
	for _, m := range s.Models {
		run.Tallies = append(run.Tallies, sim.NewTally(m.Slots()))
		run.Completed = append(run.Completed, 0)
	}
	// Asked at every point: at least once at each of the 3 x 10.
	asked := 0
	never, whole := s.Report(run, sim.Config{}, "test", func() bool { asked++; return false })
	plain, _ := s.Report(run, sim.Config{}, "test", nil)
	if !whole || len(never.Results) != len(plain.Results) || asked < 30 {
		t.Fatalf("with a stop that never came: whole %v, %d results against %d without one, the stop asked %d times; want whole, the same results, asked at least 30 times", whole, len(never.Results), len(plain.Results), asked)
	}
	all := asked
	asked = 0
	if _, whole := s.Report(run, sim.Config{}, "test", func() bool { asked++; return asked >= 2 }); whole {
		t.Error("a report whose stop came was reported whole")
	}
	if asked > all/2 {
		t.Errorf("the stop, come at its second asking, was asked %d times of %d; want the gathering ended there", asked, all)
	}
}
