package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"hammersim/mechanics/dice"
	"hammersim/reports"
	"hammersim/scenarios"
	"hammersim/sim"
)

// diceFlags are the flags of `simulate dice`.
type diceFlags struct {
	trials  int64
	seed    uint64
	workers int
	format  string
	output  string
	plotDir string
	// exactOnly refuses a question with no exact answer instead of
	// simulating it (the web server's dice answers are exact only).
	exactOnly bool
	// rollFlags are the flags given that only a simulation reads
	// (--seed, --workers), as written: refused where nothing is rolled.
	rollFlags []string
}

func runDice(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, text, asked, err := parseDiceArgs(args, stdout)
	if err != nil || !asked {
		return err
	}
	return answerDice(ctx, text, f, stdout, stderr)
}

// answerDice answers a dice query as f asks.
func answerDice(ctx context.Context, text string, f diceFlags, stdout, stderr io.Writer) error {
	dq, err := readDiceQuestion(ctx, text, &f)
	if err != nil {
		return err
	}
	if f.trials == 0 && len(f.rollFlags) > 0 {
		// As --max-trials without a precision target is refused: a flag
		// that changes nothing would let a script believe it did.
		changes, them := "changes", "it"
		if len(f.rollFlags) > 1 {
			changes, them = "change", "them"
		}
		return flagUsagef("dice", "%s %s nothing here: %s is answered exactly and nothing is rolled; add --trials N to roll it too, or leave %s out",
			strings.Join(f.rollFlags, " and "), changes, text, them)
	}
	if err := (&runFlags{output: f.output, plotDir: f.plotDir}).checkOutputs(nil); err != nil {
		return err
	}
	sr, err := rollDice(ctx, dq.model, f, stderr)
	if err != nil {
		return err
	}
	dist, cond := dq.answer(f, sr)
	plotDist, plotCond := dist, cond
	if sr.partial && (f.format == "json" || f.format == "csv") {
		// The figure is read by people whatever the format: its title says
		// partial.
		pf := f
		pf.format = "table"
		plotDist, plotCond = dq.answer(pf, sr)
	}
	out := runFlags{output: f.output, plotDir: f.plotDir}
	err = out.write(stopUnless(ctx, sr.partial), stdout, stderr, outputs{
		results: func(w io.Writer) error {
			if cond != nil {
				return reports.WriteCondition(w, *cond, f.format)
			}
			return reports.WriteDistributionAs(w, *dist, f.format)
		},
		plots: func(files *reports.Files, dir string) (reports.Plots, error) {
			return reports.StageDicePlot(files, dir, "dice", plotDist, plotCond)
		},
	})
	if err != nil {
		return err
	}
	if sr.partial {
		return errInterrupted
	}
	return nil
}

// parseDiceArgs reads the flags of `simulate dice` and the query text;
// asked is false, with no error, when -h was asked for and answered. An
// empty query given as such ("") is asked, and refused when it is read.
func parseDiceArgs(args []string, stdout io.Writer) (f diceFlags, text string, asked bool, err error) {
	fs := newFlagSet("dice", "dice QUERY [--trials N] [--seed S] [--workers N] [--format F] [-o FILE] [--plot DIR]", stdout)
	fs.Var((*trialCount)(&f.trials), "trials", "also roll it `N` times (such as 1e6) and show the simulated answer beside the exact one")
	f.seed = 1
	fs.Var((*seedValue)(&f.seed), "seed", "random seed for --trials, a whole `number`")
	fs.IntVar(&f.workers, "workers", 0, "worker goroutines for --trials (default: GOMAXPROCS); results do not depend on it")
	fs.StringVar(&f.format, "format", "table", "output format: table, json, csv or markdown")
	fs.Var((*outputFile)(&f.output), "o", "write the answer to this `FILE` instead of standard output (- for standard output)")
	fs.StringVar(&f.plotDir, "plot", "", "write a plot (PNG and SVG) into this directory")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok && startsLikeDice(name) {
			query, flags := splitDiceArgs(fs, args)
			// The word as written: the flag package cuts a name at "=".
			word := "-" + name
			if i := slices.IndexFunc(query, func(a string) bool { return strings.HasPrefix(a, word) }); i >= 0 {
				word = query[i]
			}
			suggestion := append(slices.Clone(flags), "--", strings.Join(query, " "))
			for i, a := range suggestion[:len(flags)] {
				suggestion[i] = shellQuote(a)
			}
			suggestion[len(suggestion)-1] = fmt.Sprintf("%q", suggestion[len(suggestion)-1])
			return f, "", false, usagef("dice: %q reads as a flag; a query with a word that starts with a minus goes after --, such as simulate dice %s", word, strings.Join(suggestion, " "))
		}
		return f, "", false, flagError(fs, err)
	}
	if len(pos) == 0 {
		if flagSet(fs, "h") {
			return f, "", false, nil
		}
		return f, "", false, usagef("dice needs a query, such as 2D6, \"2D6 >= 9\" or \"10D6 count 4+ reroll failures\"")
	}
	if !slices.Contains(reports.DiceFormats, f.format) {
		return f, "", false, usagef("unknown format %q; expected %s", f.format, strings.Join(reports.DiceFormats, ", "))
	}
	if err := checkTrialsWorkers(fs, f.trials, f.workers); err != nil {
		return f, "", false, err
	}
	if flagSet(fs, "seed") {
		f.rollFlags = append(f.rollFlags, fmt.Sprintf("--seed %d", f.seed))
	}
	if flagSet(fs, "workers") {
		f.rollFlags = append(f.rollFlags, fmt.Sprintf("--workers %d", f.workers))
	}
	return f, strings.Join(pos, " "), true, nil
}

// diceQuestion is a dice query read: either a query with its exact answer,
// or (tooLarge) a plain expression whose exact distribution is over the
// budget, which is only simulated.
type diceQuestion struct {
	q        *dice.Query
	tooLarge *dice.Expr
	model    sim.Model
}

// readDiceQuestion parses text; past the exact-work budget (a plain
// expression or a whole query) it turns to simulation alone, with the
// default trials when none were asked for.
func readDiceQuestion(ctx context.Context, text string, f *diceFlags) (diceQuestion, error) {
	q, err := dice.ParseQuery(text)
	if err != nil {
		return diceQuestion{}, err
	}
	// A plain expression is rolled as one, and its message gives its cost.
	if e, ok := q.Expr(); ok && !q.HasExact() && e.ExactWork() > dice.MaxExactWork {
		// Past the budget the exact distribution would take minutes; the
		// simulation alone stays quick and answers Ctrl-C.
		if f.exactOnly {
			return diceQuestion{}, fmt.Errorf("%s has no exact distribution here: it would take about %s steps, over the budget of %.0g; simulate dice --trials N rolls it", e, dice.WorkOverBudget(e.ExactWork()), dice.MaxExactWork)
		}
		if f.plotDir != "" {
			return diceQuestion{}, fmt.Errorf("%s has no exact distribution to plot: it would take about %s steps, over the budget of %.0g", e, dice.WorkOverBudget(e.ExactWork()), dice.MaxExactWork)
		}
		if f.trials == 0 {
			f.trials = sim.DefaultConfig.Trials
		}
		return diceQuestion{tooLarge: &e, model: scenarios.DiceModel(e)}, nil
	}
	if !q.HasExact() {
		if f.exactOnly {
			return diceQuestion{}, fmt.Errorf("%s has no exact answer here: it would take more than %.0g steps; simulate dice --trials N rolls it", q, dice.MaxExactWork)
		}
		if f.plotDir != "" {
			return diceQuestion{}, fmt.Errorf("%s has no exact answer to plot: it would take more than %.0g steps", q, dice.MaxExactWork)
		}
		if f.trials == 0 {
			f.trials = sim.DefaultConfig.Trials
		}
	}
	if ctx.Err() != nil {
		// The exact answer, bounded by its budget to a fraction of a
		// second, was computed as the query was read.
		return diceQuestion{}, errCancelled
	}
	return diceQuestion{q: q, model: scenarios.QueryModel(q)}, nil
}

// diceRolls is what --trials rolled: nothing (hist nil) without it.
type diceRolls struct {
	hist      *sim.Histogram
	completed int64
	partial   bool
}

// rollDice runs model f.trials times, with a progress bar, when --trials
// asks for it.
func rollDice(ctx context.Context, model sim.Model, f diceFlags, stderr io.Writer) (diceRolls, error) {
	if f.trials == 0 {
		return diceRolls{}, nil
	}
	cfg := sim.Config{Trials: f.trials, Seed: f.seed, Workers: f.workers}
	if cfg.Workers == 0 {
		cfg.Workers = defaultWorkers()
	}
	bar := newProgress(stderr, "auto", "dice")
	cfg.Progress = bar.update
	r, err := sim.RunAll(ctx, []sim.Model{model}, cfg)
	bar.finish()
	if err != nil {
		return diceRolls{}, err
	}
	return diceRolls{hist: &r.Tallies[0].H[0], completed: r.Completed[0], partial: r.Partial}, nil
}

// answer is what the reports show: a condition's probability, or a
// distribution, each with the simulation beside it when there was one.
func (dq diceQuestion) answer(f diceFlags, sr diceRolls) (*reports.Distribution, *reports.Condition) {
	var title string
	if dq.tooLarge != nil {
		title = dq.tooLarge.String()
	} else {
		title = dq.q.String()
	}
	if sr.partial && f.format != "json" && f.format != "csv" {
		// Where people read it; JSON and CSV keep the query as it is and
		// say partial in their own field.
		title += partialNote(sr, f)
	}
	switch {
	case dq.tooLarge != nil:
		var label func(int) string // faces with names only (Artillery, Scatter)
		if dq.tooLarge.IsArtillery() || dq.tooLarge.IsScatter() {
			label = dq.tooLarge.Label
		}
		var moments *reports.Moments
		only := "simulated only"
		if mean, sd, ok := dq.tooLarge.Moments(); ok {
			moments = &reports.Moments{Mean: mean, SD: sd}
			only = "each value's chance simulated only (the mean and sd are exact, the sums of the terms')"
		}
		return &reports.Distribution{Title: title, Label: label, Sim: sr.hist, Seed: f.seed, Trials: sr.completed, Partial: sr.partial, Moments: moments,
			NoExact: fmt.Sprintf("no exact distribution: it would take about %s steps, over the budget of %.0g; %s", dice.WorkOverBudget(dq.tooLarge.ExactWork()), dice.MaxExactWork, only)}, nil
	case !dq.q.HasExact() && dq.q.IsCondition():
		return nil, &reports.Condition{Title: title, Sim: sr.hist, Seed: f.seed, Trials: sr.completed, Partial: sr.partial, NoExact: noExactAnswer}
	case !dq.q.HasExact():
		return &reports.Distribution{Title: title, Sim: sr.hist, Seed: f.seed, Trials: sr.completed, Partial: sr.partial, NoExact: noExactAnswer}, nil
	case dq.q.IsCondition():
		return nil, &reports.Condition{Title: title, Exact: dq.q.Prob(), Sim: sr.hist, Seed: f.seed, Trials: sr.completed, Partial: sr.partial}
	}
	dist := queryDistribution(dq.q, title)
	dist.Sim, dist.Seed, dist.Trials, dist.Partial = sr.hist, f.seed, sr.completed, sr.partial
	return dist, nil
}

// partialNote is what a title says of an interrupted simulation.
func partialNote(sr diceRolls, f diceFlags) string {
	return fmt.Sprintf(" (PARTIAL: %d of %d trials ran before the interruption)", sr.completed, f.trials)
}

// noExactAnswer says why a query past the exact-work budget is only
// simulated.
var noExactAnswer = fmt.Sprintf("no exact answer: it would take more than %.0g steps; simulated only", dice.MaxExactWork)

// queryDistribution is the exact distribution of a number query, with the
// names of the Artillery and Scatter dice's faces.
func queryDistribution(q *dice.Query, title string) *reports.Distribution {
	d := q.Dist()
	out := &reports.Distribution{Title: title, Min: d.Min, Exact: d.P}
	if e, ok := q.Expr(); ok {
		out.Label = e.Label
		if e.IsArtillery() {
			out.MeanNote = "Misfire counted as 0"
		}
		if e.IsScatter() {
			out.MeanNote = "mean = chance of Hit!"
		}
	}
	return out
}

// splitDiceArgs parts the arguments of `simulate dice` into the words of
// the query and the flags with their values, each in order.
func splitDiceArgs(fs *flag.FlagSet, args []string) (query, flags []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(query, args[i+1:]...), flags
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		fl := fs.Lookup(name)
		if !strings.HasPrefix(a, "-") || fl == nil {
			query = append(query, a)
			continue
		}
		if b, ok := fl.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) {
			if i+1 == len(args) {
				break // a flag missing its value, left out of what is suggested
			}
			flags = append(flags, a, args[i+1])
			i++ // the flag's value
			continue
		}
		flags = append(flags, a)
	}
	return query, flags
}

// startsLikeDice reports whether what follows a query's leading minus
// reads as dice or a number ("-D3 + 4", "-2D6 < -6"), not as a flag's
// name.
func startsLikeDice(s string) bool {
	s = strings.TrimLeft(s, " ")
	return s != "" && (s[0] >= '0' && s[0] <= '9' || (s[0] == 'd' || s[0] == 'D') && len(s) > 1 && s[1] >= '0' && s[1] <= '9')
}
