package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"hammersim"
	"hammersim/reports"
	"hammersim/scenarios"
	"hammersim/sim"
)

// compareBatches is how many batches a comparison's trials are split into
// for the batch-means standard errors of the differences: 32 gives a t
// quantile of 2.04, close to the normal 1.96, at modest cost (Schmeiser,
// "Batch size effects in the analysis of simulation output", 1982: little
// is gained beyond about 30 batches).
const compareBatches = 32

// minCompareTrials is the fewest trials a comparison runs: every batch
// must hold sim.MinBatchTrials of them, or the t interval over the batch
// means, which takes each batch's mean to be normal, means nothing (a
// batch of one trial of a yes/no metric is 0 or 1).
const minCompareTrials = compareBatches * sim.MinBatchTrials

// checkCompareTrials refuses a comparison with too few trials for its
// batches, whether the trials come from --trials or the scenario (s, when
// no --trials was given: the message then names its trials key).
func checkCompareTrials(trials int64, s *scenarios.Scenario) error {
	if trials < minCompareTrials {
		from := ""
		if s != nil {
			name := s.File
			if strings.HasPrefix(name, "builtin:") || strings.HasPrefix(name, "<") {
				name = s.Name
			}
			from = fmt.Sprintf(" (%s's trials key; --trials overrides it)", name)
		}
		return usagef("compare: %d trials%s are too few: the intervals of the differences come from %d batches of at least %d trials each, so compare needs --trials %d or more",
			trials, from, compareBatches, sim.MinBatchTrials, minCompareTrials)
	}
	return nil
}

// trialsFrom is the scenario whose trials key a comparison's trials come
// from, or nil when --trials gave them.
func trialsFrom(fs *flag.FlagSet, s *scenarios.Scenario) *scenarios.Scenario {
	if flagSet(fs, "trials") {
		return nil
	}
	return s
}

// checkCompareScenarios refuses what compare would otherwise leave unused
// in the scenarios it compares, named by names: compare runs every
// candidate for the same fixed number of trials from the same seed, so a
// precision target (which only run follows) and scenarios that would run
// with different trials or seeds (their keys, or the defaults without
// them), unless a flag settles them for all, are errors.
func checkCompareScenarios(fs *flag.FlagSet, f *runFlags, ss []*scenarios.Scenario, names []string) error {
	for i, s := range ss {
		if s.Precision > 0 {
			return fmt.Errorf("%s asks for a precision target (precision), which compare cannot follow: it runs every candidate for the same fixed number of trials; "+
				"run that scenario with simulate run, or compare a copy without that key", visible(names[i]))
		}
	}
	for i, s := range ss[1:] {
		if s.Ruleset != ss[0].Ruleset {
			// Before the trials and seeds: no flag would make them one
			// question.
			return fmt.Errorf("%s is a %s scenario and %s a %s one: compare needs scenarios that ask the same question (the same metrics over the same points)",
				visible(names[0]), ss[0].Ruleset, visible(names[i+1]), s.Ruleset)
		}
	}
	// What each would run with, as run would configure it: the flags over
	// its keys over the defaults.
	first := f.config(fs, ss[0])
	for i, s := range ss[1:] {
		cfg := f.config(fs, s)
		if cfg.Trials != first.Trials {
			return fmt.Errorf("%s %s and %s %s: compare runs them on the same trials; give --trials N, or the same trials: key in both",
				visible(names[0]), trialsKey(ss[0].Trials), visible(names[i+1]), trialsKey(s.Trials))
		}
		if cfg.Seed != first.Seed {
			return fmt.Errorf("%s %s and %s %s: compare runs them on the same dice; give --seed S, or the same seed: key in both",
				visible(names[0]), seedKey(ss[0]), visible(names[i+1]), seedKey(s))
		}
	}
	return nil
}

// sameScenario finds two candidates that are one scenario: one built-in
// named twice, or one file by two paths (or twice by one). Their columns
// would be one column shown twice, every difference 0. Standard input is
// never the same as a file.
func sameScenario(ss []*scenarios.Scenario) (i, j int, ok bool) {
	for j := range ss {
		for i := range j {
			a, b := ss[i], ss[j]
			if a.File == stdinName || b.File == stdinName || a.FromFile != b.FromFile {
				continue
			}
			if a.File == b.File {
				return i, j, true
			}
			if a.FromFile {
				fa, erra := os.Stat(a.File)
				fb, errb := os.Stat(b.File)
				if erra == nil && errb == nil && os.SameFile(fa, fb) {
					return i, j, true
				}
			}
		}
	}
	return 0, 0, false
}

// trialsKey words a scenario's trials key for an error.
func trialsKey(n int64) string {
	if n == 0 {
		return fmt.Sprintf("has no trials: key (so %d)", sim.DefaultConfig.Trials)
	}
	return fmt.Sprintf("has trials: %d", n)
}

// seedKey words a scenario's seed key for an error.
func seedKey(s *scenarios.Scenario) string {
	if !s.HasSeed {
		return fmt.Sprintf("has no seed: key (so %d)", sim.DefaultConfig.Seed)
	}
	return fmt.Sprintf("has seed: %d", s.Seed)
}

var compareFormats = map[string]func(io.Writer, *sim.Comparison, sim.Stamp) error{
	"table":    reports.WriteComparisonTable,
	"json":     reports.WriteComparisonJSON,
	"csv":      reports.WriteComparisonCSV,
	"markdown": reports.WriteComparisonMarkdown,
}

// newCompareFlagSet is the flag set of `simulate compare`, shared by the
// command line and the server's compare.
func newCompareFlagSet(stdout io.Writer) (*flag.FlagSet, *runFlags, *string) {
	fs := newFlagSet("compare", "compare A B ... [flags] | compare FILE [--by AXIS] [flags]", stdout)
	var f runFlags
	f.register(fs)
	fs.Lookup("report").Usage = "also write a report document: FILE.html (self-contained, plots inline); a comparison has no Markdown report"
	by := fs.String("by", "", "with one scenario, compare the values of this swept parameter (default: the acting unit's key, by the question: attacker, firer, unit or pursuing)")
	return fs, &f, by
}

// runCompare runs candidates on the same dice, trial by trial, and sets
// their estimates side by side with the difference of every pair.
//
// Candidates are either two or more scenario files that ask the same
// question (the same metrics over the same points), or the values of one
// swept parameter of a single scenario (--by, by default the acting
// unit's key: compareAxis).
func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, f, by := newCompareFlagSet(stdout)
	var shards shardFlags
	shards.register(fs)
	check := checkFlag(fs, "its flags, the scenarios and every output destination")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagError(fs, err)
	}
	if len(pos) == 0 {
		if flagSet(fs, "h") {
			return nil
		}
		return usagef("compare needs two or more scenarios, or one with --by AXIS")
	}
	if err := f.check(fs); err != nil {
		return err
	}
	if err := checkBy(fs, *by); err != nil {
		return err
	}
	if len(pos) > 1 && *by != "" {
		return usagef("--by compares the values of one scenario's parameter; give one scenario with it")
	}
	if f.report != "" && reportKind(f.report) != ".html" {
		return usagef("compare writes its report as HTML: --report FILE.html")
	}
	if dashes := len(pos) - len(slices.DeleteFunc(slices.Clone(pos), func(a string) bool { return a == "-" })); dashes > 1 {
		return usagef("compare reads standard input (-) for one scenario only; give the others as files")
	}
	var ss []*scenarios.Scenario
	for _, name := range pos {
		s, err := f.load(ctx, name)
		if err != nil {
			return err
		}
		ss = append(ss, s)
	}
	if i, j, ok := sameScenario(ss); ok {
		return usagef("%s and %s are the same scenario: compare needs two different ones (a copy of a file, edited, or --by with one)", visible(pos[i]), visible(pos[j]))
	}
	if err := checkCompareScenarios(fs, f, ss, pos); err != nil {
		return err
	}
	if slices.ContainsFunc(ss, func(s *scenarios.Scenario) bool { return s.MaxTrials > 0 }) {
		// Not an error, as for run: the key caps only a precision run.
		fmt.Fprintf(stderr, "simulate: note: a scenario's max_trials caps only a precision run, which compare does not make; it runs every candidate for its fixed number of trials\n")
	}
	if err := shards.shardOutputs(fs, f); err != nil {
		return err
	}
	if err := f.checkOutputs(inputFiles(ss...), ss...); err != nil {
		return err
	}
	if len(ss) == 1 {
		// Before any trial, and before a shard's: a merge would find it
		// only once every shard had run.
		if _, err := compareAxis(ss[0], *by); err != nil {
			// A bad command line, as an unknown --metrics is: --by
			// names the parameter.
			return flagUsagef("compare", "%v", err)
		}
	}
	job := compareJob{ss: ss, args: pos, by: *by, metrics: f.metrics, cfg: f.config(fs, ss[0]), signals: true}
	if err := checkCompareTrials(job.cfg.Trials, trialsFrom(fs, ss[0])); err != nil {
		return err
	}
	if err := job.shape(ctx); err != nil {
		return err
	}
	if sh, ok, err := shards.resolve(fs); err != nil || ok {
		var groups [][]sim.Model
		for _, s := range ss {
			groups = append(groups, s.Models)
		}
		if err == nil {
			err = shardRefusals(fs, *f, 0, job.header(), groups, job.config())
		}
		if err != nil {
			return err
		}
		if *check {
			return checked(stderr, "compare")
		}
		return runShard(ctx, stdout, stderr, *f, groups, job.config(), sh, job.header())
	}
	if *check {
		return checked(stderr, "compare")
	}
	c, stamp, err := job.run(ctx, func(name string) (func(done, total int64), func()) {
		bar := newProgress(stderr, f.progress, name)
		return bar.update, bar.finish
	})
	if err != nil {
		return err
	}
	return writeCompareOutputs(stopUnless(ctx, c.Partial), stdout, stderr, *f, ss, &c, stamp)
}

// writeCompareOutputs writes a comparison in every output its flags ask
// for; stop (see runFlags.write) stops the writing.
func writeCompareOutputs(stop context.Context, stdout, stderr io.Writer, f runFlags, ss []*scenarios.Scenario, c *sim.Comparison, stamp sim.Stamp) error {
	partial := c.Partial
	err := f.write(stop, stdout, stderr, outputs{
		results: func(w io.Writer) error { return compareFormats[f.format](w, c, stamp) },
		plots: func(files *reports.Files, dir string) (reports.Plots, error) {
			return reports.StageComparisonPlots(files, dir, c)
		},
		report: func(files *reports.Files, path string) (int, error) {
			sources := map[string][]byte{}
			for _, s := range ss {
				sources[s.Name] = s.Source
			}
			return 0, files.Add(path, func(w io.Writer) error { return reports.WriteComparisonHTML(w, c, stamp, sources) })
		},
	})
	if err != nil {
		return err
	}
	if partial {
		return errInterrupted
	}
	return nil
}

// compareJob is one comparison as its flags configure it. The command line
// and the server both compare through it, so that they answer with the same
// bytes.
type compareJob struct {
	ss   []*scenarios.Scenario
	args []string // the scenarios as the command line names them, for the stamp
	by   string
	// metrics is --metrics as given: it changes what is reported.
	metrics string
	cfg     sim.Config
	// stop, when set, ends compare early with j.stoppedErr(): reading a
	// large sweep's results, once in all and once for each batch, takes
	// seconds.
	stop func() bool
	// shaping is set while the job works out its shape on runs of no
	// trials (shape): their batches are alike.
	shaping bool
	// signals: run's ctx is the command line's signals (runJob.signals).
	signals bool
}

// errShapeStopped is a comparison stopped while its shape was worked out,
// before any trial.
var errShapeStopped = fmt.Errorf("%w: the comparison was stopped while it was set up", errCancelled)

// errCompareGatheringStopped is a comparison stopped after its last trial,
// while its results were gathered.
var errCompareGatheringStopped = fmt.Errorf("%w: the comparison was stopped while its results were gathered", errCancelled)

// stopped reports whether the job's stop has come.
func (j compareJob) stopped() bool { return j.stop != nil && j.stop() }

// stoppedErr is what compare returns once the job's stop has come.
func (j compareJob) stoppedErr() error {
	if j.shaping {
		return errShapeStopped
	}
	return errCompareGatheringStopped
}

// results are s's results from run, and false when the job's stop came
// while they were read.
func (j compareJob) results(s *scenarios.Scenario, run sim.Run) ([]sim.Estimate, bool) {
	if j.stop == nil {
		return s.Results(run), true
	}
	return s.ResultsUntil(run, j.stop)
}

// run runs the candidates together, with the progress callbacks bars
// makes, and compares them. Chunk k of every candidate runs before any
// chunk k+1 (sim.RunGroups), so a cancelled comparison holds the same
// chunks of every candidate: it returns its comparison, marked partial,
// over those trials, and no error.
func (j compareJob) run(ctx context.Context, bars func(name string) (update func(done, total int64), finish func())) (sim.Comparison, sim.Stamp, error) {
	cfg := j.config()
	var names []string
	var groups [][]sim.Model
	for _, s := range j.ss {
		names = append(names, s.Name)
		groups = append(groups, s.Models)
	}
	update, finish := bars(strings.Join(names, " vs "))
	cfg.Progress = update
	runs, err := sim.RunGroups(ctx, groups, cfg)
	finish()
	if err != nil {
		return sim.Comparison{}, sim.Stamp{}, err
	}
	// A point of some candidate with no trial done leaves the candidates
	// no whole round of chunks in common (commonTrials): nothing to
	// compare, found before the runs are merged, which copies every
	// batch's histograms.
	if slices.ContainsFunc(runs, func(r sim.Run) bool { return r.Partial && slices.Contains(r.Completed, 0) }) {
		return sim.Comparison{}, sim.Stamp{}, errNothingCompared(cfg.Trials)
	}
	merged, err := mergeOne(j.header(), cfg, runs...)
	if err != nil {
		return sim.Comparison{}, sim.Stamp{}, err
	}
	// A signal once every trial has run stops the gathering of the
	// results; one that cut the runs short asked for what they hold.
	if !merged.Interrupted && j.signals {
		j.stop = func() bool { return ctx.Err() != nil }
	}
	c, stamp, err := j.compare(merged, cfg)
	if err == nil && c.Partial && c.Trials > 0 {
		// Cut to the first whole rounds of chunks, on this machine: a
		// comparison of that many trials gives these numbers.
		again := cfg
		again.Trials = c.Trials
		stamp.Command = compareStamp(j.ss, j.args, j.by, j.metrics, again).Command
	}
	return c, stamp, err
}

// shape works the comparison out on no trials at all: the candidates'
// results, their split by the compared parameter, and their pairing. A
// comparison that would be refused once its trials are done (candidates
// that share no result, a parameter that does not tell results apart) is
// so refused before any trial, and before any shard, whose merge would
// refuse it.
func (j compareJob) shape(ctx context.Context) error {
	j.stop, j.shaping = func() bool { return ctx.Err() != nil }, true
	cfg := j.config()
	if err := j.checkTallies(cfg); err != nil {
		return err
	}
	var runs []sim.Run
	for _, s := range j.ss {
		if j.stopped() {
			return errShapeStopped
		}
		runs = append(runs, emptyRun(s.Models, cfg.Batches))
	}
	// With no trials to add up, the runs are already what a merge of them
	// would be.
	_, _, err := j.compare(sim.WholeRun(j.header(), cfg, runs...), cfg)
	return err
}

// emptyRun is a run of models that holds no trial, with batches empty
// runs of its own; its histograms have one bin (sim.NewShapeTally). The
// batches share its tallies: a run of no trials is only read.
func emptyRun(models []sim.Model, batches int) sim.Run {
	r := sim.Run{Completed: make([]int64, len(models))}
	for _, m := range models {
		r.Tallies = append(r.Tallies, sim.NewShapeTally(m.Slots()))
	}
	if batches > 0 {
		empty := r
		r.Batches = make([]sim.Run, batches)
		for i := range r.Batches {
			r.Batches[i] = empty
		}
	}
	return r
}

// config is the comparison's run configuration: trials aligned across the
// candidates, and batches for the differences' standard errors.
func (j compareJob) config() sim.Config {
	cfg := j.cfg
	cfg.Aligned, cfg.Batches = true, compareBatches
	return cfg
}

// header is what every part of the comparison's run carries.
func (j compareJob) header() sim.PartHeader {
	var flags []sim.Flag
	if j.by != "" {
		flags = append(flags, sim.Flag{Name: "by", Value: j.by})
	}
	if j.metrics != "" {
		flags = append(flags, sim.Flag{Name: "metrics", Value: j.metrics})
	}
	return partHeader("compare", scenarioArgs(j.args, j.ss...), flags, j.ss...)
}

// compare sets the candidates of merged tallies side by side: the one path
// from tallies to a comparison, for comparisons made on one machine and
// merged shards alike.
func (j compareJob) compare(merged *sim.Part, cfg sim.Config) (sim.Comparison, sim.Stamp, error) {
	ss := j.ss
	// Before the results are read: an interruption that left nothing to
	// compare would have every batch's read for nothing.
	trials := commonTrials(merged)
	if merged.Interrupted && trials == 0 {
		return sim.Comparison{}, sim.Stamp{}, errNothingCompared(cfg.Trials)
	}
	names, full, batches, err := j.candidates(merged)
	if err != nil {
		return sim.Comparison{}, sim.Stamp{}, err
	}
	names = uniqueNames(names, j.args)
	comparison := sim.Compare
	if len(ss) == 1 {
		comparison = sim.CompareSplit // one scenario's values: one question
	}
	var axes []string // every candidate's swept parameters: the points
	for _, s := range ss {
		for _, a := range s.Axes {
			if !slices.Contains(axes, a.Name) {
				axes = append(axes, a.Name)
			}
		}
	}
	c, err := comparison(names, full, batches, axes)
	if err != nil {
		return sim.Comparison{}, sim.Stamp{}, err
	}
	c.Partial, c.Trials = merged.Interrupted, trials
	return c, compareStamp(ss, j.args, j.by, j.metrics, cfg), nil
}

// candidates reads each candidate's results, in all and batch by batch
// (a batch's values alone, sim.Values): a scenario each, or the values of
// one scenario's parameter (--by).
func (j compareJob) candidates(merged *sim.Part) (names []string, full [][]sim.Estimate, batches [][][]float64, err error) {
	for i, run := range merged.Runs {
		s := j.ss[i]
		var bs [][]float64
		for k, b := range run.Batches {
			if j.shaping && k > 0 {
				// Every batch is the same empty run (emptyRun): its
				// results are read once.
				bs = append(bs, bs[0])
				continue
			}
			es, ok := j.results(s, b)
			if !ok {
				return nil, nil, nil, j.stoppedErr()
			}
			bs = append(bs, sim.Values(es))
		}
		es, ok := j.results(s, run)
		if !ok {
			return nil, nil, nil, j.stoppedErr()
		}
		names, full, batches = append(names, s.Name), append(full, es), append(batches, bs)
	}
	if j.shaping {
		// Before any trial: a comparison too large to hold is refused
		// now, not once its trials are done.
		n := 0
		for _, es := range full {
			n += len(es)
		}
		if n > maxCompareEstimates {
			return nil, nil, nil, fmt.Errorf("the comparison has %s estimates (its candidates' metrics at their points), and keeps the trials behind each in %d batches as well as in all: at most %s, about 4.5 GB; compare fewer points or metrics (--metrics), or run the sweep with simulate run", reports.GroupThousands(int64(n)), compareBatches, reports.GroupThousands(maxCompareEstimates))
		}
	}
	if len(j.ss) > 1 {
		return names, full, batches, nil
	}
	return j.splitCandidates(full[0], batches[0])
}

// checkTallies refuses, before any trial, a comparison whose tallies would
// take more memory than maxCompareBytes: each of its models' histograms
// (one count of 8 bytes for each value a slot can take) kept in each of
// its compareBatches batches and in all, by each worker and again as the
// workers' parts are merged (compareMemory). On the command line (signals)
// it suggests --workers, which a server's clients cannot give.
func (j compareJob) checkTallies(cfg sim.Config) error {
	counts, models := 0, 0
	for _, s := range j.ss {
		models += len(s.Models)
		for _, m := range s.Models {
			for _, sl := range m.Slots() {
				counts += sl.Hi - sl.Lo + 1
			}
		}
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	chunks := (max(cfg.Trials, 1) + sim.ChunkSize - 1) / sim.ChunkSize
	if need := compareMemory(counts, models, chunks, workers); need > maxCompareBytes {
		fewer := ""
		if j.signals && workers > 1 {
			fewer = ", or use fewer workers (--workers)"
		}
		return fmt.Errorf("the comparison would hold about %.1f GB of tallies (its candidates' %s histogram counts, kept in each of its %d batches and in all, by each of %d workers as they run): at most %.1f GB; compare fewer points, or smaller units (a count for every number of models lost)%s, or run the sweep with simulate run",
			need/1e9, reports.GroupThousands(int64(counts)), compareBatches, workers, maxCompareBytes/1e9, fewer)
	}
	return nil
}

// compareMemory is the memory, in bytes, a comparison takes for the
// tallies of its models (counts histogram counts in all, 8 bytes each)
// over chunks chunks of trials a model, with workers workers. A worker
// keeps, for each model it runs a chunk of, a tally for each batch twice
// (its own and the row it fills: sim's aligned runs put every trial of a
// chunk in its own batch), so a model's tallies are held by at most
// min(chunks, workers) workers 64 times; gathering the batches, the whole
// and the results takes about 130 sets more; and each worker keeps a
// slot for every batch of every model, 32 bytes each. Measured, in sets
// of every model's tallies: 193 and 206 on 2 workers and one chunk
// (1,360,000 counts took 2.1 GB, 4,040,000 took 6.6 GB); 129, 269 and 614
// on 1, 2 and 8 workers and 16 chunks (163,840 counts); against 194, 194,
// 194, 258 and 642 from this.
func compareMemory(counts, models int, chunks int64, workers int) float64 {
	holders := float64(min(chunks, int64(workers)))
	sets := 2*float64(compareBatches)*holders + 130
	return 8*float64(counts)*sets + float64(workers)*float64(models)*float64(compareBatches)*32
}

// maxCompareBytes bounds compareMemory.
const maxCompareBytes = 4.5e9

// maxCompareEstimates bounds the estimates a comparison reports (in all,
// its candidates together), which it holds once in all, with their
// parameters, histograms and split by value, and as one value in each
// batch; its tallies are bounded apart (checkTallies). 300,000 estimates
// of a battle of ten-model units take about a gigabyte beside their
// tallies.
const maxCompareEstimates = 300_000

// splitCandidates splits one scenario's results, in all and batch by
// batch, into the candidates of the compared parameter's values.
func (j compareJob) splitCandidates(all []sim.Estimate, perBatch [][]float64) (names []string, full [][]sim.Estimate, batches [][][]float64, err error) {
	s := j.ss[0]
	axis, err := compareAxis(s, j.by)
	if err != nil {
		return nil, nil, nil, err
	}
	values := axis.Values
	for _, v := range values {
		names = append(names, candidateName(axis, v))
	}
	// A parameter that only changes how results are read (a charge's
	// distance) is missing from the per-profile results: such a parameter
	// cannot split candidates.
	full, at, err := sim.SplitBy(axis.Name, values, all)
	if err != nil {
		var without, with []string
		for _, e := range all {
			list := &with
			if e.Param(axis.Name) == nil {
				list = &without
			}
			if !slices.Contains(*list, e.Metric) {
				*list = append(*list, e.Metric)
			}
		}
		with = slices.DeleteFunc(with, func(m string) bool { return slices.Contains(without, m) })
		fix := "compare by a parameter of the units"
		if len(with) > 0 {
			fix += ", or keep the metrics it changes: --metrics " + strings.Join(with, ",")
		}
		return nil, nil, nil, fmt.Errorf("%s: %s does not tell every result apart: %s is read from the same trials at every %s; %s",
			s.Name, axis.Name, strings.Join(without, ", "), axis.Name, fix)
	}
	batches = make([][][]float64, len(values))
	var first [][]float64
	for k, b := range perBatch {
		if j.stopped() {
			return nil, nil, nil, j.stoppedErr()
		}
		sb := first
		if !j.shaping || k == 0 { // working out the shape, the batches are alike
			sb = sim.SplitValues(b, at)
			first = sb
		}
		for c, es := range sb {
			batches[c] = append(batches[c], es)
		}
	}
	return names, full, batches, nil
}

// errNothingCompared is an interruption before every candidate had run a
// chunk of trials: there is nothing to compare, and nothing is written.
func errNothingCompared(trials int64) error {
	return fmt.Errorf("%w: the comparison was stopped before every candidate had completed its first %d trials", errCancelled, firstChunk(trials))
}

// commonTrials is the trials per model every candidate's estimates rest
// on. The engine cuts a cancelled run to the chunks every model completed,
// so all models hold the same count; the least is taken all the same, so
// that no count is ever claimed that some model lacks.
func commonTrials(p *sim.Part) int64 {
	n := int64(-1)
	for _, r := range p.Runs {
		for _, c := range r.Completed {
			if n < 0 || c < n {
				n = c
			}
		}
	}
	return max(n, 0)
}

// uniqueNames falls back to the arguments as given when two candidates
// share a scenario name (two copies of one file).
func uniqueNames(names, args []string) []string {
	for i := range names {
		if slices.Contains(names[:i], names[i]) && len(args) == len(names) {
			return args
		}
	}
	return names
}

// candidateName names the candidate of value v of the swept parameter
// axis: a unit's name (an attacker) stands alone; any other value says
// which parameter it is, as in M=5, twin_linked=true, save=3+ or
// table=8th.
func candidateName(axis sim.Axis, v any) string {
	if s, ok := v.(string); ok && axis.Names {
		return s
	}
	return fmt.Sprintf("%s=%v", axis.Name, v)
}

func compareStamp(ss []*scenarios.Scenario, args []string, by, metrics string, cfg sim.Config) sim.Stamp {
	var names, sums []string
	for _, s := range ss {
		names = append(names, s.Name)
		sums = append(sums, s.SHA256)
	}
	cmdArgs := scenarioArgs(args, ss...)
	if by != "" {
		cmdArgs = append(cmdArgs, "--by", by)
	}
	return sim.Stamp{
		Version:        hammersim.Version,
		Scenario:       strings.Join(names, " vs "),
		ScenarioSHA256: strings.Join(sums, ","),
		Seed:           cfg.Seed,
		Trials:         cfg.Trials,
		Workers:        cfg.Workers,
		Command:        reproduce("compare", cmdArgs, cfg, metricsFlag(metrics)...),
	}
}

// checkBy refuses a --by given as the empty name (by=, from the page's
// API alike), which would otherwise read as the flag left out.
func checkBy(fs *flag.FlagSet, by string) error {
	if flagSet(fs, "by") && by == "" {
		return flagUsagef("compare", "--by \"\": an empty name; expected a swept parameter's name, such as attacker or distance (leave the flag out for the acting unit's: attacker, firer, unit or pursuing)")
	}
	return nil
}

// compareAxis is the parameter a comparison of one scenario's values
// splits by (by, or the acting unit's key: a battle's attacker, a
// shooting's firer), and its values: two or more, or an error naming the
// parameters the scenario has.
func compareAxis(s *scenarios.Scenario, by string) (sim.Axis, error) {
	name := by
	if name == "" {
		name = cmp.Or(s.Acting, "attacker")
	}
	var names, swept []string
	one := false // the scenario sets it, to one value
	for _, a := range s.Axes {
		if a.Name == name {
			if len(a.Values) >= 2 {
				return a, nil
			}
			one = true
		}
		names = append(names, a.Name)
		if len(a.Values) >= 2 {
			swept = append(swept, a.Name)
		}
	}
	msg := fmt.Sprintf("%s has no swept parameter %q%s", s.Name, name, scenarios.DidYouMean(name, names))
	if one {
		msg = fmt.Sprintf("%s gives %q one value, and a comparison of its values needs two or more", s.Name, name)
	}
	switch {
	case len(swept) == 0:
		msg += "; it sweeps nothing: give two or more scenario files to compare them"
	case by == "":
		msg += fmt.Sprintf("; it sweeps %s: name one with --by", strings.Join(swept, ", "))
	default:
		msg += fmt.Sprintf("; it sweeps %s", strings.Join(swept, ", "))
	}
	return sim.Axis{}, errors.New(msg)
}
