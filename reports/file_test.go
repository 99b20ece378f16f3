package reports

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hammersim/sim"
)

// TestFilesCommitTogether: prepared files replace nothing until Commit;
// Discard leaves the targets and no temporary file; a symlink's target is
// replaced with its mode kept; a directory is refused.
func TestFilesCommitTogether(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("old a"), 0o600)
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	var files Files
	if err := files.Add(a, write("new a")); err != nil {
		t.Fatal(err)
	}
	if err := files.Add(b, write("new b")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(a); string(got) != "old a" {
		t.Errorf("a replaced before Commit: %q", got)
	}
	if err := files.Commit(); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{a: "new a", b: "new b"} {
		if got, _ := os.ReadFile(path); string(got) != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
	if fi, _ := os.Stat(a); fi.Mode().Perm() != 0o600 {
		t.Errorf("a's mode became %v, want 0600 kept", fi.Mode().Perm())
	}

	files.Add(a, write("discarded"))
	files.Discard()
	if got, _ := os.ReadFile(a); string(got) != "new a" {
		t.Errorf("Discard changed a: %q", got)
	}

	link := filepath.Join(dir, "link")
	if err := os.Symlink("a.txt", link); err == nil {
		if err := WriteFile(link, write("through the link")); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
			t.Error("the link was replaced by a file")
		}
		if got, _ := os.ReadFile(a); string(got) != "through the link" {
			t.Errorf("the link's target: %q", got)
		}
	}
	if err := WriteFile(dir, write("x")); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("writing a directory: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
	if err := CheckFile(filepath.Join(dir, "missing", "x")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("CheckFile of a missing directory: %v", err)
	}
	if err := CheckDir(a); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("CheckDir of a file: %v", err)
	}
}

// TestFilesDiscardRemovesMadeDirectories: a set of files that fails leaves
// no directory it made behind (a plot folder whose figures were never
// committed), and keeps those that were there before or hold files.
func TestFilesDiscardRemovesMadeDirectories(t *testing.T) {
	dir := t.TempDir()
	write := func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }
	var files Files
	plots := filepath.Join(dir, "out", "plots")
	if err := files.MkdirAll(plots); err != nil {
		t.Fatal(err)
	}
	if err := files.MkdirAll(filepath.Join(plots, "deeper")); err != nil {
		t.Fatal(err)
	}
	if err := files.Add(filepath.Join(plots, "a.png"), write); err != nil {
		t.Fatal(err)
	}
	files.Discard()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("Discard left %v in the folder", entries)
	}

	// A directory that holds a file by the time of Discard stays, and so
	// do its parents; one committed stays.
	if err := files.MkdirAll(plots); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(plots, "other.txt"), []byte("not ours"), 0o644); err != nil {
		t.Fatal(err)
	}
	files.Discard()
	if _, err := os.Stat(filepath.Join(plots, "other.txt")); err != nil {
		t.Errorf("Discard removed a directory in use: %v", err)
	}
	kept := filepath.Join(dir, "kept")
	if err := files.MkdirAll(kept); err != nil {
		t.Fatal(err)
	}
	if err := files.Add(filepath.Join(kept, "a.png"), write); err != nil {
		t.Fatal(err)
	}
	if err := files.Commit(); err != nil {
		t.Fatal(err)
	}
	files.Discard()
	if got, err := os.ReadFile(filepath.Join(kept, "a.png")); err != nil || string(got) != "x" {
		t.Errorf("a committed file: %q, %v", got, err)
	}
}

// TestCheckFileReadOnly: a file without write permission is not replaced,
// as a shell's redirect would not replace it; a writable one is.
func TestCheckFileReadOnly(t *testing.T) {
	dir := t.TempDir()
	ro, rw := filepath.Join(dir, "ro.json"), filepath.Join(dir, "rw.json")
	os.WriteFile(ro, []byte("kept"), 0o444)
	os.WriteFile(rw, []byte("old"), 0o644)
	if err := CheckFile(ro); err == nil || !strings.Contains(err.Error(), "it is read-only (mode 0444)") {
		t.Errorf("CheckFile of a read-only file: %v", err)
	}
	if err := CheckFile(rw); err != nil {
		t.Errorf("CheckFile of a writable file: %v", err)
	}
}

// TestFilesReadOnly: a set of files whose one target is read-only is
// refused as that file is added, before any file of the set is written.
func TestFilesReadOnly(t *testing.T) {
	dir := t.TempDir()
	ro, other := filepath.Join(dir, "plot.png"), filepath.Join(dir, "other.svg")
	os.WriteFile(ro, []byte("kept"), 0o444)
	var files Files
	if err := files.Add(other, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	err := files.Add(ro, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err })
	files.Discard()
	if err == nil || !strings.Contains(err.Error(), "it is read-only (mode 0444)") {
		t.Errorf("adding a read-only file: %v", err)
	}
	if data, _ := os.ReadFile(ro); string(data) != "kept" {
		t.Errorf("the read-only file holds %q", data)
	}
	if _, err := os.Stat(other); err == nil {
		t.Error("a file of the refused set was written")
	}
}

// TestFilesStop: once Stop is done, Add prepares nothing and Commit
// replaces nothing: a file prepared before the stop is removed, the file
// it would have replaced keeps its contents, and both return ErrStopped.
func TestFilesStop(t *testing.T) {
	dir := t.TempDir()
	kept := filepath.Join(dir, "kept.txt")
	os.WriteFile(kept, []byte("old"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	files := Files{Stop: ctx}
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := files.Add(kept, write("new")); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := files.Add(filepath.Join(dir, "later.txt"), write("x")); !errors.Is(err, ErrStopped) {
		t.Errorf("Add after the stop: %v, want ErrStopped", err)
	}
	if err := files.Commit(); !errors.Is(err, ErrStopped) {
		t.Errorf("Commit after the stop: %v, want ErrStopped", err)
	}
	if b, _ := os.ReadFile(kept); string(b) != "old" {
		t.Errorf("the stopped set replaced %s with %q", kept, b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the stopped set left %d entries, want only kept.txt", len(entries))
	}
}

// TestFilesStopWithinAnOutput: a stop that comes while one output is
// being written (a large sweep's table takes tens of seconds) stops that
// output at its next write, not after it: Add returns ErrStopped, and
// neither the file nor a temporary one is left, for a file and for
// standard output (-) alike.
func TestFilesStopWithinAnOutput(t *testing.T) {
	for _, name := range []string{"out.txt", "-"} {
		dir := t.TempDir()
		path := name
		if name != "-" {
			path = filepath.Join(dir, name)
		}
		ctx, cancel := context.WithCancel(context.Background())
		files := Files{Stop: ctx}
		writes := 0
		err := files.Add(path, func(w io.Writer) error {
			for range 1000 {
				if _, err := io.WriteString(w, "row\n"); err != nil {
					return err
				}
				if writes++; writes == 10 {
					cancel() // the signal, ten rows in
				}
			}
			return nil
		})
		if !errors.Is(err, ErrStopped) || writes != 10 {
			t.Errorf("%s: %v after %d writes; want ErrStopped at the eleventh", name, err, writes)
		}
		files.Discard()
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%s: the stopped output left %d entries", name, len(entries))
		}
	}
}

// TestFilesCommitDevicesFirst: a target that is written into rather than
// replaced (here /dev/full, which refuses every write for want of room)
// fails before any regular file of the set is replaced, whatever order the
// files were added in: the older file stays, and no temporary file or
// folder the set made is left.
func TestFilesCommitDevicesFirst(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this system")
	}
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	os.WriteFile(a, []byte("old a"), 0o644)
	plots := filepath.Join(dir, "plots")
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	var files Files
	if err := files.MkdirAll(plots); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ path, text string }{
		{a, "new a"}, {filepath.Join(plots, "p.svg"), "<svg/>"}, {"/dev/full", "report"},
	} {
		if err := files.Add(f.path, write(f.text)); err != nil {
			t.Fatal(err)
		}
	}
	err := files.Commit()
	if err == nil || !strings.Contains(err.Error(), "writing /dev/full") {
		t.Fatalf("Commit: %v, want the error of writing /dev/full", err)
	}
	if got, _ := os.ReadFile(a); string(got) != "old a" {
		t.Errorf("a was replaced by a set that failed: %q", got)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "a.txt" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// countingStop is a Files.Stop that counts the times it is consulted and
// says it is done from consultation after on (never, when after is 0).
type countingStop struct {
	context.Context
	calls, after int
}

func (c *countingStop) Err() error {
	c.calls++
	if c.after > 0 && c.calls >= c.after {
		return context.Canceled
	}
	return nil
}

// TestLongOutputsSeeTheStop: the outputs that are built in memory before
// they are written (JSON, a comparison's JSON, an HTML or Markdown report,
// the plots) consult the stop as they are built, not only once they write:
// a signal while a 100,000-point sweep's HTML report was built went unseen
// for two minutes. Over 20,000 points the JSON outputs consult it at least
// once per spillSize bytes written and the HTML report once per stopRows
// rows; the plots (of 200 points: drawing 20,000 takes seconds) before
// each metric and each step of its figures, three times or more. A stop
// at the middle consultation ends each there: ErrStopped, nothing left
// behind. (Before, each consulted it once before it began and once as it
// wrote.)
func TestLongOutputsSeeTheStop(t *testing.T) {
	report := func(points int) *sim.Report {
		r := &sim.Report{Scenario: "long", Trials: 10, Axes: []sim.Axis{{Name: "d", Values: make([]any, points)}}}
		for d := range points {
			r.Axes[0].Values[d] = d
			r.Results = append(r.Results, sim.ProbabilityOf("x", []sim.Param{{Name: "d", Value: d}}, int64(d%10), 10))
		}
		return r
	}
	const points = 20000
	r, small := report(points), report(200)
	c := &sim.Comparison{Candidates: []string{"A", "B"}, Trials: 10}
	for d := range points {
		c.Rows = append(c.Rows, sim.ComparisonRow{Metric: "x", Kind: sim.Probability, Params: []sim.Param{{Name: "d", Value: d}},
			Estimates: []sim.Estimate{sim.ProbabilityOf("", nil, 5, 10), sim.ProbabilityOf("", nil, int64(d%10), 10)},
			Reported:  []bool{true, true},
			Diffs:     []sim.Difference{{A: 0, B: 1, HigherA: math.NaN(), SE: math.NaN(), CI95: [2]float64{math.NaN(), math.NaN()}}}})
	}
	outputs := []struct {
		name string
		// least is the fewest consultations a build of size bytes
		// written should make.
		least func(size int64) int
		stage func(files *Files, dir string) error
	}{
		// A spill goes out once 64 KiB are held, overshooting by up to a
		// row, and the last piece at the end without a consultation: one
		// fewer than the 64 KiB the output holds.
		{"json", func(size int64) int { return int(size/spillSize) - 1 }, func(files *Files, dir string) error {
			return files.Add(filepath.Join(dir, "r.json"), func(w io.Writer) error { return WriteJSON(w, r) })
		}},
		{"comparison json", func(size int64) int { return int(size/spillSize) - 1 }, func(files *Files, dir string) error {
			return files.Add(filepath.Join(dir, "c.json"), func(w io.Writer) error { return WriteComparisonJSON(w, c, sim.Stamp{}) })
		}},
		{"html report", func(int64) int { return points / stopRows }, func(files *Files, dir string) error {
			return files.Add(filepath.Join(dir, "r.html"), func(w io.Writer) error { return WriteHTML(w, r, nil) })
		}},
		{"markdown report", func(int64) int { return 3 }, func(files *Files, dir string) error {
			_, err := StageMarkdownReport(files, filepath.Join(dir, "r.md"), small, nil)
			return err
		}},
		{"plots", func(int64) int { return 3 }, func(files *Files, dir string) error {
			_, err := StagePlots(files, filepath.Join(dir, "plots"), small)
			return err
		}},
	}
	for _, o := range outputs {
		dir := t.TempDir()
		stop := &countingStop{Context: context.Background()}
		files := Files{Stop: stop}
		if err := o.stage(&files, dir); err != nil {
			t.Fatalf("%s: %v", o.name, err)
		}
		calls := stop.calls
		if err := files.Commit(); err != nil {
			t.Fatalf("%s: %v", o.name, err)
		}
		var size int64
		filepath.WalkDir(dir, func(_ string, d fs.DirEntry, _ error) error {
			if info, err := d.Info(); err == nil && !d.IsDir() {
				size += info.Size()
			}
			return nil
		})
		if least := o.least(size); calls < least {
			t.Errorf("%s: %d bytes written, the stop consulted %d times; want %d or more", o.name, size, calls, least)
		}
		dir = t.TempDir()
		stop = &countingStop{Context: context.Background(), after: calls / 2}
		files = Files{Stop: stop}
		err := o.stage(&files, dir)
		files.Discard()
		if !errors.Is(err, ErrStopped) || stop.calls != calls/2 {
			t.Errorf("%s: stopped at consultation %d of %d: %v; want ErrStopped there", o.name, stop.calls, calls, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%s: the stopped output left %d entries", o.name, len(entries))
		}
	}
}

// TestFiguresSeeTheStop: a report's figures consult the stop before each
// metric and between the steps of each (a large sweep's take seconds), so
// that plots and reports stop while their figures are built, before any
// file is written: three metrics of 200 points consult it at least 3 x 3
// times, and a stop at the middle consultation ends the build there. A
// comparison's figures consult it before each metric and each figure:
// twice for one metric drawn in one figure.
func TestFiguresSeeTheStop(t *testing.T) {
	r := &sim.Report{Scenario: "long", Trials: 10, Axes: []sim.Axis{{Name: "d", Values: make([]any, 200)}}}
	for d := range 200 {
		r.Axes[0].Values[d] = d
		for _, m := range []string{"x", "y", "z"} {
			r.Results = append(r.Results, sim.ProbabilityOf(m, []sim.Param{{Name: "d", Value: d}}, int64(d%10), 10))
		}
	}
	calls := 0
	if _, _, err := reportFigures(r, func() error { calls++; return nil }); err != nil {
		t.Fatal(err)
	}
	if calls < 9 {
		t.Errorf("the stop consulted %d times for three metrics; want 9 or more", calls)
	}
	n := 0
	figs, _, err := reportFigures(r, func() error {
		if n++; n >= calls/2 {
			return ErrStopped
		}
		return nil
	})
	if !errors.Is(err, ErrStopped) || n != calls/2 || figs != nil {
		t.Errorf("stopped at consultation %d of %d: %v, %d figures; want ErrStopped there and none", n, calls, err, len(figs))
	}
	c := &sim.Comparison{Candidates: []string{"A", "B"}, Trials: 10, Rows: []sim.ComparisonRow{{Metric: "x", Kind: sim.Probability,
		Estimates: []sim.Estimate{sim.ProbabilityOf("", nil, 5, 10), sim.ProbabilityOf("", nil, 6, 10)}, Reported: []bool{true, true},
		Diffs: []sim.Difference{{A: 0, B: 1, HigherA: math.NaN(), SE: math.NaN(), CI95: [2]float64{math.NaN(), math.NaN()}}}}}}
	calls = 0
	if _, _, err := comparisonFigures(c, func() error { calls++; return nil }); err != nil || calls != 2 {
		t.Errorf("a comparison's figures: %v, the stop consulted %d times; want 2", err, calls)
	}
	if figs, _, err := comparisonFigures(c, func() error { return ErrStopped }); !errors.Is(err, ErrStopped) || figs != nil {
		t.Errorf("a comparison's figures stopped at once: %v, %d figures; want ErrStopped and none", err, len(figs))
	}
}

// failAfter is a writer whose writes fail from the after-th on.
type failAfter struct{ n, after int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n++; f.n >= f.after {
		return 0, ErrStopped
	}
	return len(p), nil
}

// TestMarkdownEndsAtAFailedWrite: the Markdown writers, which write a row
// at a time through an ErrWriter, lay out no more rows once a write has
// failed (a stopped output fails its next write, stopWriter): a stop while
// a 100,000-point sweep's Markdown was written took 12 s to be obeyed, the
// rest of every table being formatted for nothing. Stopped at the third
// write, each allocates less than a tenth of what a whole output of 20,000
// rows does (counted, not timed).
func TestMarkdownEndsAtAFailedWrite(t *testing.T) {
	const points = 20000
	r := &sim.Report{Scenario: "long", Trials: 10, Axes: []sim.Axis{{Name: "d", Values: make([]any, points)}}}
	c := &sim.Comparison{Candidates: []string{"A", "B"}, Trials: 10}
	for d := range points {
		r.Axes[0].Values[d] = d
		ps := []sim.Param{{Name: "d", Value: d}}
		r.Results = append(r.Results, sim.ProbabilityOf("x", ps, int64(d%10), 10), sim.ProbabilityOf("y", ps, int64(d%7), 10))
		c.Rows = append(c.Rows, sim.ComparisonRow{Metric: "x", Kind: sim.Probability, Params: ps,
			Estimates: []sim.Estimate{sim.ProbabilityOf("", nil, 5, 10), sim.ProbabilityOf("", nil, int64(d%10), 10)},
			Reported:  []bool{true, true},
			Diffs:     []sim.Difference{{A: 0, B: 1, HigherA: math.NaN(), SE: math.NaN(), CI95: [2]float64{math.NaN(), math.NaN()}}}})
	}
	for _, o := range []struct {
		name  string
		write func(w io.Writer) error
	}{
		{"markdown", func(w io.Writer) error { return WriteMarkdown(w, r) }},
		{"markdown report", func(w io.Writer) error { return writeMarkdownReport(w, r, nil, "plots", nil, nil) }},
		{"comparison markdown", func(w io.Writer) error { return WriteComparisonMarkdown(w, c, sim.Stamp{}) }},
	} {
		var err error
		whole := testing.AllocsPerRun(1, func() { err = o.write(&failAfter{after: math.MaxInt}) })
		if err != nil {
			t.Fatalf("%s: %v", o.name, err)
		}
		stopped := testing.AllocsPerRun(1, func() { err = o.write(&failAfter{after: 3}) })
		if !errors.Is(err, ErrStopped) || stopped > whole/10 {
			t.Errorf("%s: stopped at the third write: %v after %.0f allocations, the whole output %.0f; want ErrStopped within a tenth", o.name, err, stopped, whole)
		}
	}
}
