package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"hammersim"
	"hammersim/reports"
	"hammersim/scenarios"
	"hammersim/sim"
)

// runMerge adds the partial results of a sharded run and renders them as
// the run made on one machine would have: the same bytes in every format.
func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("merge", "merge PARTS|DIR... [--format F] [-o FILE] [--plot DIR] [--report FILE]\n\n"+
		"Adds the partial results of a sharded run (simulate run|compare --shard I/N -o FILE)\n"+
		"and writes what the run made on one machine would have written. With --check\n"+
		"and no PARTS, it checks the flags and destinations alone, as a script that\n"+
		"submits the shards does before they exist.", stdout)
	var f runFlags
	fs.StringVar(&f.format, "format", "table", "output format: table, json, csv or markdown, or partial (one partial result holding every part, to merge again later)")
	fs.StringVar(&f.plotDir, "plot", "", "write plots (PNG and SVG) into this directory")
	fs.Var((*outputFile)(&f.output), "o", "write the results to this `FILE` instead of standard output (- for standard output)")
	fs.StringVar(&f.report, "report", "", "also write a report document: FILE.html (self-contained, plots inline) or, for a run's parts, FILE.md (PNG plots beside it); a comparison's report is HTML only")
	f.progress = "never"
	check := checkFlag(fs, "its flags, every output destination and the parts given")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagError(fs, err)
	}
	if len(pos) == 0 && !*check {
		if flagSet(fs, "h") {
			return nil
		}
		return usagef("merge needs the partial results of a run: simulate merge PARTS... (written by simulate run --shard I/N -o FILE)")
	}
	if f.format == "partial" && (f.plotDir != "" || f.report != "") {
		return usagef("--format partial writes a partial result; plots and reports come from the final merge")
	}
	if f.format != "partial" {
		if err := f.check(fs); err != nil {
			return err
		}
	}
	if err := unshardedOutput(f.output); err != nil {
		return err
	}
	if len(pos) == 0 { // --check before the shards have run
		if err := f.checkOutputs(nil); err != nil {
			return err
		}
		return checked(stderr, "merge")
	}
	merged, ss, err := mergeParts(ctx, &f, pos, stderr)
	if err != nil {
		return err
	}
	if f.format == "partial" {
		if *check {
			return checked(stderr, "merge")
		}
		if miss := merged.Missing(); len(miss) > 0 {
			// A stage of a merge in stages: valid, but the final merge
			// will need the rest, which it is as well to know now.
			s := "s"
			if len(miss) == 1 {
				s = ""
			}
			fmt.Fprintf(stderr, "simulate: note: this sum lacks %d of the run's %d shards (shard%s %s), which the final merge will need\n",
				len(miss), merged.Header.Shards, s, sim.IndexRanges(miss))
		}
		return writeResults(ctx, stdout, stderr, f, func(w io.Writer) error { return sim.WritePart(w, merged) })
	}
	if err := merged.Complete(); err != nil {
		return err
	}
	if merged.Header.Command == "compare" && f.report != "" && reportKind(f.report) != ".html" {
		return usagef("the parts are of a comparison, whose report is HTML: --report FILE.html")
	}
	if *check {
		return checked(stderr, "merge")
	}
	return renderMerged(ctx, stdout, stderr, f, merged, ss)
}

// mergeParts reads the parts that pos names (files, or folders of them)
// and sums them, then checks the sum as the final merge will, whatever the
// format: written by this binary, and with outputs (f) that hide no
// built-in its reproduce line runs, replace no file its run read, and are
// no file its scenarios would read as a unit catalogue. It returns the sum
// and the scenarios rebuilt from the texts the parts carry.
func mergeParts(ctx context.Context, f *runFlags, pos []string, stderr io.Writer) (*sim.Part, []*scenarios.Scenario, error) {
	paths, err := partPaths(ctx, pos, stderr)
	if err != nil {
		return nil, nil, err
	}
	if err := f.checkOutputs(paths); err != nil {
		return nil, nil, err
	}
	if f.format == "partial" {
		if err := checkPartialOutside(f.output, pos); err != nil {
			return nil, nil, err
		}
	}
	merger, err := readParts(ctx, paths)
	if err != nil {
		return nil, nil, err
	}
	merged, err := merger.Result()
	if err != nil {
		return nil, nil, err
	}
	// A partial merge is checked as the final one will be: a stage of
	// racks merged by another binary would pass only to be refused there.
	if err := sameBuild(merged.Header); err != nil {
		return nil, nil, err
	}
	// The merged output's reproduce line runs the parts' scenarios: an
	// output that would hide a built-in among them is refused, as run's is.
	var files []string
	for _, in := range merged.Header.Inputs {
		files = append(files, in.File)
	}
	if err := f.hideNoBuiltin(files...); err != nil {
		return nil, nil, err
	}
	if err := f.notTheirInputs(merged.Header.Inputs); err != nil {
		return nil, nil, err
	}
	// The scenarios are rebuilt for a partial result too: its output may
	// not be a file they would read as a unit catalogue either.
	ss, err := mergedScenarios(ctx, merged, paths)
	if err != nil {
		return nil, nil, err
	}
	return merged, ss, f.notCatalogues(ss...)
}

// notTheirInputs refuses an output that names a file the parts' run read
// (ins): its scenario, which the merged output's reproduce line reads, or
// one of its unit catalogues. The parts carry their texts, but the files
// are the user's own, and run refuses the same outputs.
func (f *runFlags) notTheirInputs(ins []sim.Input) error {
	files, _ := f.destinations()
	for _, o := range files {
		for _, in := range ins {
			read := []string{in.File}
			for _, c := range in.Catalogues {
				read = append(read, c.File)
			}
			for k, r := range read {
				if r == stdinName || strings.HasPrefix(r, "builtin:") || !reports.SameFile(o.path, r) {
					continue
				}
				what := "the scenario the parts were run from"
				if k > 0 {
					what = "a unit catalogue the parts' scenario read"
				}
				return fmt.Errorf("%s %s names %s, %s; choose another file", o.flag, o.path, r, what)
			}
		}
	}
	return nil
}

// sameBuild refuses parts that this binary did not write: exact values
// and rules may differ between versions, and between builds of one.
func sameBuild(h sim.PartHeader) error {
	if h.Version != hammersim.Version {
		return fmt.Errorf("the parts were written by hammersim %s, this is %s: merge with the version that ran the shards", h.Version, hammersim.Version)
	}
	if b := buildID(); h.Build != b {
		return fmt.Errorf("the parts were written by another build of hammersim %s (%s), this is %s: merge with the binary that ran the shards", h.Version, h.Build, b)
	}
	return nil
}

// partPaths expands directories among the arguments into the files they
// hold, in name order, for engines that start the merge without a shell to
// expand a pattern. Names starting with a dot are left out: they are files
// still being written (see reports.WriteFile) or not parts at all. So are
// folders, which are not read (give each as an argument), and the entries
// that are not parts, each named on stderr:
// files that do not begin as a partial result does (a merge's own result,
// a report, a log beside the parts), and entries that cannot be read as
// files (a FIFO, which would block the merge for ever, a dangling link, a
// file without read permission). A file named on the command line is read
// as a part whatever it is. Once ctx is done it stops, as readParts does.
func partPaths(ctx context.Context, args []string, stderr io.Writer) ([]string, error) {
	var paths []string
	for _, a := range args {
		if a == "-" {
			// Parts are files: each is read whole, checked against its
			// checksum and named in errors, and a merge reads many.
			return nil, usagef("merge reads partial results from files and folders, not standard input (-); save it to a file and name that")
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			paths = append(paths, a) // a file, or an error readPart reports
			continue
		}
		n := len(paths)
		var others, unreadable, folders []string
		for _, e := range entries {
			if ctx.Err() != nil {
				return nil, errMergeStopped
			}
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			if e.IsDir() {
				folders = append(folders, e.Name())
				continue
			}
			path := filepath.Join(a, e.Name())
			switch ok, why := looksLikePart(path); {
			case why != "":
				unreadable = append(unreadable, e.Name()+" ("+why+")")
			case !ok:
				others = append(others, e.Name())
			default:
				paths = append(paths, path)
			}
		}
		if len(others) > 0 {
			fmt.Fprintf(stderr, "simulate: left out of the merge, as not partial results: %s in %s\n", listNames(others), a)
		}
		if len(unreadable) > 0 {
			fmt.Fprintf(stderr, "simulate: left out of the merge, as not readable files: %s in %s\n", listNames(unreadable), a)
		}
		if len(folders) > 0 {
			fmt.Fprintf(stderr, "simulate: left out of the merge, as folders, which are not read (give each as an argument): %s in %s\n", listNames(folders), a)
		}
		if len(paths) == n {
			return nil, fmt.Errorf("%s holds no partial results", a)
		}
	}
	return paths, nil
}

// listNames lists file names for a note, the first few and a count of the
// rest.
func listNames(names []string) string {
	const shown = 5
	if len(names) <= shown {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:shown], ", "), len(names)-shown)
}

// looksLikePart reports whether the file at path begins as a partial
// result does, or why it cannot be read as a file: it is not a regular
// file (checked before opening it, since opening a FIFO blocks until a
// writer comes), or opening or reading it fails.
func looksLikePart(path string) (ok bool, why string) {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return false, reasonOf(err)
	case !info.Mode().IsRegular():
		return false, "not a regular file"
	}
	file, err := os.Open(path)
	if err != nil {
		return false, reasonOf(err)
	}
	defer file.Close()
	ok, err = sim.IsPart(file)
	if err != nil {
		return false, reasonOf(err)
	}
	return ok, ""
}

// reasonOf is the cause of a file error, without the path it names.
func reasonOf(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// checkPartialOutside refuses to write a merge's partial result into a
// folder it merges: the next merge of that folder would read it beside the
// parts it sums, which hold the same chunks, and refuse them.
func checkPartialOutside(output string, args []string) error {
	if output == "" || output == "-" {
		return nil
	}
	dir := filepath.Dir(output)
	for _, a := range args {
		if info, err := os.Stat(a); err == nil && info.IsDir() && reports.SameFile(dir, a) {
			return fmt.Errorf("-o %s would put the merged partial result among the parts of %s, and a later merge of %s would find it holding their chunks, and refuse them; write it outside %s", output, a, a, a)
		}
	}
	return nil
}

// errMergeStopped is a merge that a signal stopped while it read the
// parts: it has no result, and writes nothing.
var errMergeStopped = fmt.Errorf("%w: the merge was stopped while it read the parts", errCancelled)

// testHookPartRead, when a test sets it, is called after each part
// readParts adds, with the number added so far.
var testHookPartRead func(read int)

// readParts reads the parts at paths into a merger one at a time: it
// holds their sum, not the parts, so that a merge of thousands of parts
// takes the memory of one part and the sum, not of every part. Once ctx
// is done (Ctrl-C, SIGTERM) it stops, between parts or while it reads
// one, with errMergeStopped.
func readParts(ctx context.Context, paths []string) (*sim.Merger, error) {
	var m sim.Merger
	for i, path := range paths {
		if ctx.Err() != nil {
			return nil, errMergeStopped
		}
		p, err := readPart(ctx, path)
		if ctx.Err() != nil {
			return nil, errMergeStopped // whatever reading a part cut short says
		}
		if err != nil {
			return nil, err
		}
		if err := m.Add(sim.NamedPart{Name: path, Part: p}); err != nil {
			return nil, err
		}
		if testHookPartRead != nil {
			testHookPartRead(i + 1)
		}
	}
	return &m, nil
}

func readPart(ctx context.Context, path string) (*sim.Part, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return sim.ReadPart(path, ctxReader{ctx, file})
}

// ctxReader reads r until ctx is done, then fails: reading a part of
// tens of megabytes from a slow disk stops at a signal.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// carriedCatalogues are the unit catalogues the parts carry for input in:
// its scenario reads them, not the files at those paths now. parts name
// the parts in errors.
func carriedCatalogues(in sim.Input, parts []string) ([]scenarios.Catalogue, error) {
	var cats []scenarios.Catalogue
	for _, c := range in.Catalogues {
		if fmt.Sprintf("%x", sha256.Sum256([]byte(c.Source))) != c.SHA256 {
			return nil, tampered(parts, "the unit catalogue "+c.File)
		}
		cats = append(cats, scenarios.Catalogue{Path: c.File, Source: []byte(c.Source)})
	}
	return cats, nil
}

// tampered is the error of a text every part carries alike (what, "the
// scenario x") that does not match its SHA-256: each part was changed, so
// the parts are named, the first and how many more. (A text that differs
// between parts is found as the parts are read, sim.Merger.)
func tampered(parts []string, what string) error {
	return changedParts(parts, what+" %s does not match its SHA-256")
}

// changedParts is the error of parts changed after they were written, in
// a way every one of them shows alike: claim says how, its %s standing for
// "it carries" or "they carry".
func changedParts(parts []string, claim string) error {
	if len(parts) == 1 {
		return fmt.Errorf("%s: %s; the part was changed after it was written", parts[0], fmt.Sprintf(claim, "it carries"))
	}
	others := fmt.Sprintf("the %d other parts", len(parts)-1)
	if len(parts) == 2 {
		others = "the other part"
	}
	return fmt.Errorf("%s and %s: %s; they were changed after they were written", parts[0], others, fmt.Sprintf(claim, "they carry"))
}

// mergedScenarios rebuilds the run's scenarios from the texts the parts
// carry (read from paths, which errors name), and checks that the merged
// tallies have their models' layout.
func mergedScenarios(ctx context.Context, merged *sim.Part, paths []string) ([]*scenarios.Scenario, error) {
	var ss []*scenarios.Scenario
	var groups [][]sim.Model
	for _, in := range merged.Header.Inputs {
		cats, err := carriedCatalogues(in, paths)
		if err != nil {
			return nil, err
		}
		s, err := registry.WithCatalogues(cats).ParseContext(ctx, in.File, []byte(in.Source))
		if errors.Is(err, scenarios.ErrStopped) {
			return nil, fmt.Errorf("%w: the merge was stopped while it read the scenario the parts carry", errCancelled)
		}
		if err != nil {
			return nil, fmt.Errorf("the scenario the parts carry: %w", err)
		}
		if s.SHA256 != in.SHA256 {
			return nil, tampered(paths, "the scenario "+in.Name)
		}
		// A built-in's text is this build's, which the parts' build
		// (checked) is: another text under its name, its SHA-256
		// recomputed, would be merged and reproduced as the built-in.
		if name, ok := strings.CutPrefix(in.File, "builtin:"); ok {
			if src, ok := scenarios.Builtin(name); !ok || string(src) != in.Source {
				return nil, changedParts(paths, "the text %s for the built-in scenario "+name+" is not this build's")
			}
		}
		ss = append(ss, s)
		groups = append(groups, s.Models)
	}
	return ss, merged.CheckLayout(groups)
}

// renderMerged renders the merged tallies of the scenarios ss through the
// same code as a run on one machine.
func renderMerged(ctx context.Context, stdout, stderr io.Writer, f runFlags, merged *sim.Part, ss []*scenarios.Scenario) error {
	h := merged.Header
	cfg := sim.Config{Trials: h.Trials, Seed: h.Seed, Workers: merged.Workers}
	switch {
	case h.Command == "run" && len(ss) == 1 && len(h.Args) == 1 && !h.Aligned && h.Batches == 0:
		job := runJob{name: h.Args[0], s: ss[0], cfg: cfg}
		for _, fl := range h.Flags {
			if fl.Name != "metrics" {
				return fmt.Errorf("the parts were run with --%s, which this hammersim does not know", fl.Name)
			}
			job.metrics = fl.Value
		}
		if err := (&runFlags{metrics: job.metrics}).selectMetrics(ss[0]); err != nil {
			return fmt.Errorf("the parts' metrics: %v", err) // bad input, not a bad command line
		}
		report, whole := job.report(merged, cfg, false, func() bool { return ctx.Err() != nil })
		if !whole {
			return fmt.Errorf("%w: the merge was stopped while it gathered the results", errCancelled)
		}
		// The parts' own interruptions made them partial: a signal to the
		// merge stops its writing all the same.
		return writeRunOutputs(ctx, stdout, stderr, f, &report, ss[0].Source)
	case h.Command == "compare" && len(ss) == len(h.Args):
		job := compareJob{ss: ss, args: h.Args, cfg: cfg}
		for _, fl := range h.Flags {
			switch fl.Name {
			case "by":
				job.by = fl.Value
			case "metrics":
				job.metrics = fl.Value
			default:
				return fmt.Errorf("the parts were run with --%s, which this hammersim does not know", fl.Name)
			}
		}
		for _, s := range ss {
			if err := (&runFlags{metrics: job.metrics}).selectMetrics(s); err != nil {
				return fmt.Errorf("the parts' metrics: %v", err) // bad input, not a bad command line
			}
		}
		if c := job.config(); c.Aligned != h.Aligned || c.Batches != h.Batches {
			return fmt.Errorf("the parts were run with %d batches; this hammersim compares with %d", h.Batches, c.Batches)
		}
		job.stop = func() bool { return ctx.Err() != nil }
		c, stamp, err := job.compare(merged, job.config())
		if err != nil {
			return err
		}
		return writeCompareOutputs(ctx, stdout, stderr, f, ss, &c, stamp) // a signal stops it, as a run's merge
	}
	return fmt.Errorf("the parts are of a command this hammersim cannot merge: %s with %d scenarios", h.Command, len(ss))
}
