package reports

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"hammersim/sim"
)

// stampedReport is the sample report with a stamp whose precision target
// was not met.
func stampedReport() *sim.Report {
	r := sampleReport()
	r.Workers = 4
	r.Stamp = sampleStamp()
	r.Stamp.Scenario, r.Stamp.Seed, r.Stamp.Trials, r.Stamp.MaxTrials = "sample", 3, 100, 100
	r.Stamp.Command = "simulate run sample --seed 3 --trials 100 --precision 0.005 --max-trials 100"
	return r
}

var resultWriters = map[string]func(io.Writer, *sim.Report) error{
	"txt": WriteTable, "json": WriteJSON, "csv": WriteCSV, "md": WriteMarkdown,
}

func TestStampedFormats(t *testing.T) {
	for ext, write := range resultWriters {
		var b bytes.Buffer
		if err := write(&b, stampedReport()); err != nil {
			t.Fatal(err)
		}
		golden(t, "stamped."+ext, b.Bytes())
	}
}

// TestResultsIgnoreWorkers: results output is byte-identical whatever the
// worker count (docs/architecture.md, invariant 1), stamp or not.
func TestResultsIgnoreWorkers(t *testing.T) {
	for ext, write := range resultWriters {
		var outs []string
		for _, workers := range []int{1, 8} {
			r := stampedReport()
			r.Workers, r.Stamp.Workers = workers, workers
			var b bytes.Buffer
			if err := write(&b, r); err != nil {
				t.Fatal(err)
			}
			outs = append(outs, b.String())
		}
		if outs[0] != outs[1] {
			t.Errorf("%s output depends on the worker count", ext)
		}
		if strings.Contains(strings.ToLower(outs[0]), "worker") {
			t.Errorf("%s output mentions workers", ext)
		}
	}
	c := sampleComparison()
	for name, write := range map[string]func(io.Writer, *sim.Comparison, sim.Stamp) error{
		"table": WriteComparisonTable, "json": WriteComparisonJSON, "csv": WriteComparisonCSV, "markdown": WriteComparisonMarkdown,
	} {
		var outs []string
		for _, workers := range []int{1, 8} {
			st := sampleStamp()
			st.Workers = workers
			var b bytes.Buffer
			if err := write(&b, c, st); err != nil {
				t.Fatal(err)
			}
			outs = append(outs, b.String())
		}
		if outs[0] != outs[1] {
			t.Errorf("comparison %s output depends on the worker count", name)
		}
	}
}

// TestStampLines checks what the header says for each kind of stamp.
func TestStampLines(t *testing.T) {
	met := sampleStamp()
	met.PrecisionMet, met.Trials, met.MaxTrials = true, 250_000, 1_000_000
	noTarget := sampleStamp()
	noTarget.Precision = 0
	// A comparison of two files stamps each file's hash, in order.
	two := noTarget
	two.ScenarioSHA256 = strings.Repeat("a", 64) + "," + strings.Repeat("b", 64)
	for _, tc := range []struct {
		name      string
		st        sim.Stamp
		want      []string
		forbidden []string
	}{
		{"zero", sim.Stamp{}, nil, []string{"sha256", "reproduce", "precision"}},
		{"workers only", sim.Stamp{Workers: 8}, nil, []string{"sha256", "reproduce", "precision"}},
		{"no target", noTarget, []string{"scenario sha256 1a2b3c4d5e6f..., reproduce: simulate run matchups --seed 7 --trials 1000"}, []string{"precision", "1a2b3c4d5e6f7"}},
		{"two files", two, []string{"scenario sha256 aaaaaaaaaaaa..., bbbbbbbbbbbb..."}, []string{"aaaaaaaaaaaaa", ",bbb"}},
		// A run that stopped on its target says that its intervals cover
		// less often, and how to get a fixed run's (docs/reports.md).
		{"met", met, []string{"0.5 percentage points (0.005)", "MET with 250,000 trials per point",
			"less often than 19 times in 20", "run again with --trials 250000 and another --seed"}, []string{"NOT MET"}},
		{"not met", sampleStamp(), []string{"NOT MET", "cap of 1,000 trials per point"}, nil},
	} {
		r := sampleReport()
		r.Stamp = tc.st
		var b bytes.Buffer
		if err := WriteTable(&b, r); err != nil {
			t.Fatal(err)
		}
		// The terminal header wraps at 100 columns; read it as one line.
		head := strings.ReplaceAll(strings.SplitN(b.String(), "\n\n", 2)[0], "\n", " ")
		for _, w := range tc.want {
			if !strings.Contains(head, w) {
				t.Errorf("%s: header lacks %q:\n%s", tc.name, w, head)
			}
		}
		for _, f := range tc.forbidden {
			if strings.Contains(head, f) {
				t.Errorf("%s: header has %q:\n%s", tc.name, f, head)
			}
		}
		b.Reset()
		WriteJSON(&b, r)
		if got := strings.Contains(b.String(), `"stamp"`); got != (tc.want != nil) {
			t.Errorf("%s: JSON has a stamp: %v", tc.name, got)
		}
	}
}

// TestReproduceKeepsSpaces: the reproduce command is printed as it is,
// whether it fits beside the scenario's hash or takes a line of its own: a
// file named with two spaces or a no-break space names another
// file once its spaces are closed up.
func TestReproduceKeepsSpaces(t *testing.T) {
	for _, name := range []string{"'a  b.yaml'", "'a\u00a0b.yaml'", "'" + strings.Repeat("x  ", 30) + ".yaml'"} {
		st := sampleStamp()
		st.Precision = 0
		st.Command = "simulate run " + name + " --seed 7"
		want := "reproduce: " + st.Command + "\n"
		r := sampleReport()
		r.Stamp = st
		var b bytes.Buffer
		if err := WriteTable(&b, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), want) {
			t.Errorf("table of %s: no line ends %q:\n%s", name, want, b.String())
		}
		b.Reset()
		if err := WriteComparisonTable(&b, sampleComparison(), st); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "\n"+want) {
			t.Errorf("comparison of %s: no line %q:\n%s", name, want, b.String())
		}
	}
}

// TestJSONStampContract decodes the stamp object with its types, and
// checks that it sits after "partial" and leaves out the precision fields
// when there was no target.
func TestJSONStampContract(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, stampedReport()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Stamp map[string]json.RawMessage `json:"stamp"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"version": `"test"`, "scenario": `"sample"`, "seed": "3", "trials": "100",
		"scenario_sha256": `"1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b"`,
		"command":         `"simulate run sample --seed 3 --trials 100 --precision 0.005 --max-trials 100"`,
		"precision":       "0.005", "precision_met": "false", "max_trials": "100",
	}
	if len(doc.Stamp) != len(want) {
		t.Errorf("stamp has %d keys, want %d: %v", len(doc.Stamp), len(want), doc.Stamp)
	}
	for k, v := range want {
		if string(doc.Stamp[k]) != v {
			t.Errorf("stamp %s = %s, want %s", k, doc.Stamp[k], v)
		}
	}
	if i, j := strings.Index(b.String(), `"partial"`), strings.Index(b.String(), `"stamp"`); j < i {
		t.Error(`"stamp" comes before "partial"`)
	}
	r := stampedReport()
	r.Stamp.Precision = 0
	b.Reset()
	WriteJSON(&b, r)
	if strings.Contains(b.String(), `"precision"`) || strings.Contains(b.String(), `"max_trials"`) {
		t.Error("precision fields written without a precision target")
	}
}

// TestPartialLineCountsPoints: an interrupted run's banner gives the
// trials its points ran (the models' counts), not those of a metric over
// the trials in which something happened (a combat result over the 250
// trials that fought).
func TestPartialLineCountsPoints(t *testing.T) {
	r := &sim.Report{Partial: true, Trials: 1000, Completed: []int64{600, 640},
		Results: []sim.Estimate{{Trials: 600}, {Trials: 640}, {Trials: 250}}}
	if got, want := partialLine(r), "each point rests on 600 to 640 of the 1,000 trials asked for."; !strings.HasSuffix(got, want) {
		t.Errorf("%q, want it to end %q", got, want)
	}
	// Without the models' counts (a report from elsewhere), the estimates'.
	r.Completed = nil
	if got := partialLine(r); !strings.Contains(got, "250 to 640") {
		t.Errorf("without counts: %q", got)
	}
}

// TestPrecisionLineInterrupted: a precision run that stopped short of its
// cap without meeting its target was interrupted, and says so rather than
// blaming the cap.
func TestPrecisionLineInterrupted(t *testing.T) {
	st := sim.Stamp{Precision: 0.001, Trials: 2_473_984, MaxTrials: 100_000_000}
	got := precisionLine(st)
	if !strings.Contains(got, "NOT MET. The run was interrupted after 2,473,984 trials per point") || strings.Contains(got, "cap") {
		t.Errorf("interrupted: %q", got)
	}
	st.Trials = st.MaxTrials
	if got := precisionLine(st); !strings.Contains(got, "stopped at its cap of 100,000,000 trials") {
		t.Errorf("at the cap: %q", got)
	}
	st.PrecisionMet = true
	if got := precisionLine(st); !strings.Contains(got, "MET with 100,000,000 trials per point") {
		t.Errorf("met: %q", got)
	}
}

// TestMarkdownPartialCount: an interrupted run's Markdown says, as its
// table does, that the count of trials per point is the one asked for
// (its partial line gives what the points rest on), and a precision run's
// that it is the most any point reached; a complete run's says neither.
func TestMarkdownPartialCount(t *testing.T) {
	for _, tc := range []struct {
		partial   bool
		precision float64
		want      string
	}{
		{true, 0, "Seed 1, 1,000 trials per point asked for, hammersim"},
		{true, 0.01, "Seed 1, 1,000 trials per point at most, hammersim"},
		{false, 0, "Seed 1, 1,000 trials per point, hammersim"},
	} {
		r := &sim.Report{Scenario: "s", Seed: 1, Trials: 1000, Partial: tc.partial, Completed: []int64{600}, Stamp: sim.Stamp{Precision: tc.precision}}
		var b strings.Builder
		if err := WriteMarkdown(&b, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("partial %v, precision %v: %q, want %q", tc.partial, tc.precision, b.String(), tc.want)
		}
	}
}
