package main

import (
	"context"
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
}

func runDice(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("dice", "dice QUERY [--trials N] [--seed S] [--format F] [-o FILE] [--plot DIR]", stdout)
	var f diceFlags
	fs.Var((*trialCount)(&f.trials), "trials", "also roll it `N` times (such as 1e6) and show the simulated answer beside the exact one")
	fs.Uint64Var(&f.seed, "seed", 1, "random seed for --trials")
	fs.IntVar(&f.workers, "workers", 0, "worker goroutines for --trials (default: GOMAXPROCS); results do not depend on it")
	fs.StringVar(&f.format, "format", "table", "output format: table, json, csv or markdown")
	fs.StringVar(&f.output, "o", "", "write the answer to this file instead of standard output")
	fs.StringVar(&f.plotDir, "plot", "", "write a plot (PNG and SVG) into this directory")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagError(fs, err)
	}
	if len(pos) == 0 {
		if flagSet(fs, "h") {
			return nil
		}
		return usagef("dice needs a query, such as 2D6, \"2D6 >= 9\" or \"10D6 count 4+ reroll failures\"")
	}
	if !slices.Contains(reports.DiceFormats, f.format) {
		return usagef("unknown format %q; expected %s", f.format, strings.Join(reports.DiceFormats, ", "))
	}
	if err := checkTrialsWorkers(fs, f.trials, f.workers); err != nil {
		return err
	}
	text := strings.Join(pos, " ")
	var q *dice.Query
	var model sim.Model
	var tooLarge *dice.Expr
	if e, perr := dice.Parse(text); perr == nil && e.ExactWork() > dice.MaxExactWork {
		// Past the budget the exact distribution would take minutes; the
		// simulation alone stays quick and answers Ctrl-C.
		tooLarge, model = &e, scenarios.DiceModel(e)
		if f.plotDir != "" {
			return fmt.Errorf("%s has no exact distribution to plot: it would take about %.2g steps, over the budget of %.0g", e, e.ExactWork(), dice.MaxExactWork)
		}
		if f.trials == 0 {
			f.trials = sim.DefaultConfig.Trials
		}
	} else {
		if q, err = dice.ParseQuery(text); err != nil {
			return err
		}
		if ctx.Err() != nil {
			// The exact answer, bounded by its budget to a fraction of a
			// second, was computed as the query was read.
			return errCancelled
		}
		model = scenarios.QueryModel(q)
	}
	if err := (&runFlags{output: f.output, plotDir: f.plotDir}).checkOutputs(nil); err != nil {
		return err
	}
	var hist *sim.Histogram
	var completed int64
	partial := false
	if f.trials > 0 {
		cfg := sim.Config{Trials: f.trials, Seed: f.seed, Workers: f.workers}
		if cfg.Workers == 0 {
			cfg.Workers = defaultWorkers()
		}
		bar := newProgress(stderr, "auto", "dice")
		cfg.Progress = bar.update
		r, err := sim.RunAll(ctx, []sim.Model{model}, cfg)
		bar.finish()
		if err != nil {
			return err
		}
		hist, completed, partial = &r.Tallies[0].H[0], r.Completed[0], r.Partial
	}
	var title string
	if tooLarge != nil {
		title = tooLarge.String()
	} else {
		title = q.String()
	}
	if partial {
		title += fmt.Sprintf(" (PARTIAL: %d of %d trials ran before the interruption)", completed, f.trials)
	}
	var dist *reports.Distribution
	var cond *reports.Condition
	switch {
	case tooLarge != nil:
		dist = &reports.Distribution{Title: title, Label: tooLarge.Label, Sim: hist, Seed: f.seed, Trials: completed, Partial: partial,
			NoExact: fmt.Sprintf("no exact distribution: it would take about %.2g steps, over the budget of %.0g; simulated only", tooLarge.ExactWork(), dice.MaxExactWork)}
	case q.IsCondition():
		cond = &reports.Condition{Title: title, Exact: q.Prob(), Sim: hist, Seed: f.seed, Trials: completed, Partial: partial}
	default:
		dist = queryDistribution(q, title)
		dist.Sim, dist.Seed, dist.Trials, dist.Partial = hist, f.seed, completed, partial
	}
	out := runFlags{output: f.output, plotDir: f.plotDir}
	err = out.write(stdout, stderr, outputs{
		results: func(w io.Writer) error {
			if cond != nil {
				return reports.WriteCondition(w, *cond, f.format)
			}
			return reports.WriteDistributionAs(w, *dist, f.format)
		},
		plots: func(files *reports.Files, dir string) (reports.Plots, error) {
			return reports.StageDicePlot(files, dir, "dice", dist, cond)
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
