package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"hammersim/reports"
	"hammersim/scenarios"
)

// outputs is what run and compare write: the results, to -o or standard
// output; plots, into --plot; a report document, to --report.
type outputs struct {
	results func(io.Writer) error
	plots   func(files *reports.Files, dir string) (reports.Plots, error)
	// report prepares the report document and returns how many plot files
	// it prepared beside it.
	report func(files *reports.Files, path string) (int, error)
}

// checkOutputs checks every destination the flags name before any work is
// done, so that a long run is never thrown away at the end: each file must
// be writable, the plot directory one that can hold files, and no output
// may name one of the inputs, or another output. It keeps the inputs, so
// that write refuses a plot that would replace one of them.
func (f *runFlags) checkOutputs(inputs []string, ss ...*scenarios.Scenario) error {
	f.inputs = inputs
	if f.plotDir == "-" {
		// -o - is standard output; plots are files, which it cannot hold.
		return &usageError{msg: "--plot -: plots are PNG and SVG files in a folder, which standard output cannot hold; name a folder, such as --plot plots"}
	}
	files, dirs := f.destinations()
	var read []string
	for _, s := range ss {
		read = append(read, s.File)
	}
	if err := f.hideNoBuiltin(read...); err != nil {
		return err
	}
	for i, o := range files {
		for _, d := range dirs {
			// A file where the plots' folder is to be: the run would end
			// in a failed rename and an empty folder left behind.
			if reports.SameFile(o.path, d.path) {
				return fmt.Errorf("%s %s is %s, %s; choose another file", o.flag, o.path, d.flag, d.path)
			}
		}
		for _, in := range inputs {
			if in == stdinName {
				if fi, ok := stdinFile(); ok {
					if ofi, err := os.Stat(o.path); err == nil && os.SameFile(fi, ofi) {
						return fmt.Errorf("%s %s is the file standard input reads, the scenario being run; choose another file", o.flag, o.path)
					}
				}
				continue
			}
			if reports.SameFile(o.path, in) {
				return fmt.Errorf("%s %s names the input %s; choose another file", o.flag, o.path, in)
			}
		}
		for _, prev := range files[:i] {
			if reports.SameFile(o.path, prev.path) {
				return fmt.Errorf("%s and %s name the same file %s", prev.flag, o.flag, o.path)
			}
		}
		// With -o FILE, standard output takes nothing else.
		if err := (&reports.Files{StdoutFree: f.output != ""}).Check(o.path); err != nil {
			return err
		}
	}
	if err := f.notCatalogues(ss...); err != nil {
		return err
	}
	if f.plotDir != "" {
		if err := reports.CheckDir(f.plotDir); err != nil {
			return err
		}
	}
	if reportKind(f.report) == ".md" {
		if err := reports.CheckDir(mdPlotDir(f.report)); err != nil {
			return err
		}
	}
	return nil
}

// notCatalogues refuses an output file that one of ss would take for a
// unit catalogue the next time it is read, which would break that run,
// and then, once there are scenarios to check (a merge's come after its
// parts are read), one named as the catalogues beside a scenario are
// (units.yaml, *.units.yaml), which any scenario of its folder that uses
// a card reads, though ss itself uses none.
func (f *runFlags) notCatalogues(ss ...*scenarios.Scenario) error {
	files, _ := f.destinations()
	for _, o := range files {
		for _, s := range ss {
			for _, pl := range s.CataloguePlaces() {
				if ok, _ := filepath.Match(pl.Pattern, filepath.Base(o.path)); ok && reports.SameFile(filepath.Dir(o.path), pl.Dir) {
					return fmt.Errorf("%s %s would be read as a unit catalogue by %s next time (it matches %s in %s); choose another name or folder", o.flag, o.path, s.File, pl.Pattern, pl.Dir)
				}
			}
		}
	}
	for _, o := range files {
		if pattern, is := scenarios.CatalogueName(filepath.Base(o.path)); is && len(ss) > 0 {
			return fmt.Errorf("%s %s is named as a unit catalogue (%s), which every scenario of its folder that uses a card reads; choose another name", o.flag, o.path, pattern)
		}
	}
	return nil
}

// destination is an output the flags name: the flag, and its path.
type destination struct{ flag, path string }

// destinations are the files and the folders the flags write into.
func (f *runFlags) destinations() (files, dirs []destination) {
	if f.output != "" {
		files = append(files, destination{"-o", f.output})
	}
	if f.report != "" {
		files = append(files, destination{"--report", f.report})
	}
	if f.plotDir != "" {
		dirs = append(dirs, destination{"the --plot folder", f.plotDir})
	}
	if reportKind(f.report) == ".md" {
		dirs = append(dirs, destination{"the folder of the report's plots", mdPlotDir(f.report)})
	}
	return files, dirs
}

// hideNoBuiltin refuses an output that would hide a built-in scenario the
// run read (read, as Scenario.File names them: "builtin:NAME"): a
// scenario name is read as a file or folder when one of that name is in
// the working folder, so the command that wrote it, and the reproduce line
// it printed, would then read the output instead of the built-in. A path
// is compared as the folder it resolves to, so $PWD/NAME is refused too.
func (f *runFlags) hideNoBuiltin(read ...string) error {
	files, dirs := f.destinations()
	for _, file := range read {
		name, ok := strings.CutPrefix(file, "builtin:")
		if !ok {
			continue
		}
		here, err := filepath.Abs(name)
		if err != nil {
			continue
		}
		for _, o := range slices.Concat(files, dirs) {
			if at, err := filepath.Abs(o.path); err == nil && at == here {
				return fmt.Errorf("%s %s would hide the built-in scenario %s (the same command, run again in this folder, would read it instead); choose another name, such as %s", o.flag, o.path, name, name+suggestedSuffix(o.flag))
			}
		}
	}
	return nil
}

// suggestedSuffix is an ending that keeps an output named after a
// built-in from hiding it: a folder's, or a file's.
func suggestedSuffix(flag string) string {
	if strings.HasPrefix(flag, "the ") {
		return "-plots"
	}
	return "-results"
}

// inputFiles are the files the scenarios ss were read from: each one's
// file and the unit catalogues it read.
func inputFiles(ss ...*scenarios.Scenario) []string {
	var files []string
	for _, s := range ss {
		files = append(files, s.File)
		for _, c := range s.Catalogues {
			files = append(files, c.Path)
		}
	}
	return files
}

// reportKind is a report document's extension in lower case (".html",
// ".md"), which says what to write: r.HTML is an HTML report too.
func reportKind(path string) string { return strings.ToLower(filepath.Ext(path)) }

// mdPlotDir is the folder a Markdown report's plots go to.
func mdPlotDir(report string) string {
	return strings.TrimSuffix(report, filepath.Ext(report)) + "_plots"
}

// write prepares every output file, replaces none until all are ready,
// then writes the results to standard output when -o is not given and says
// on stderr what it wrote. Once stop is done (a signal while the outputs
// of a finished run are written) it writes nothing and returns
// reports.ErrStopped; a nil stop never stops it, as for partial results,
// which an interruption itself asked for.
func (f *runFlags) write(stop context.Context, stdout, stderr io.Writer, o outputs) error {
	files := reports.Files{Inputs: f.inputs, Stop: stop, StdoutFree: f.output != ""}
	defer files.Discard()
	if f.output != "" {
		if err := files.Add(f.output, o.results); err != nil {
			return err
		}
	}
	var plots reports.Plots
	if f.plotDir != "" {
		var err error
		if plots, err = o.plots(&files, f.plotDir); err != nil {
			return err
		}
	}
	reportPlots := 0
	if f.report != "" {
		var err error
		if reportPlots, err = o.report(&files, f.report); err != nil {
			return err
		}
	}
	if err := files.Commit(); err != nil {
		return err
	}
	if f.output == "" {
		if err := o.results(stdout); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stderr, "simulate: wrote the results to %s\n", visible(f.output))
	}
	if f.plotDir != "" {
		for _, n := range plots.Notes {
			fmt.Fprintln(stderr, "simulate: note:", n)
		}
		if len(plots.Files) == 0 {
			// Every figure held nothing but 0, which is not drawn.
			fmt.Fprintf(stderr, "simulate: wrote no plot files, and made no folder %s (the notes above say why)\n", visible(f.plotDir))
		} else {
			fmt.Fprintf(stderr, "simulate: wrote %s in %s\n", plotFiles(len(plots.Files)), visible(f.plotDir))
		}
	}
	switch {
	case f.report == "":
	case reportPlots > 0:
		fmt.Fprintf(stderr, "simulate: wrote the report %s and %s beside it\n", visible(f.report), plotFiles(reportPlots))
	default:
		fmt.Fprintf(stderr, "simulate: wrote the report %s\n", visible(f.report))
	}
	return nil
}

// writeResults writes to -o (whole or not at all, saying so on stderr) or
// to standard output. Once stop is done it writes nothing and returns
// reports.ErrStopped, as runFlags.write does.
func writeResults(stop context.Context, stdout, stderr io.Writer, f runFlags, write func(io.Writer) error) error {
	if f.output != "" {
		files := reports.Files{Stop: stop, StdoutFree: true}
		defer files.Discard()
		if err := files.Add(f.output, write); err != nil {
			return err
		}
		if err := files.Commit(); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "simulate: wrote the results to %s\n", visible(f.output))
		return nil
	}
	if stop.Err() != nil {
		return reports.ErrStopped
	}
	return write(stdout)
}

// stopUnless is what stops the writing of a command's outputs: ctx, the
// command's signals, unless the results are partial already, in which
// case the signal that cut them short asked for them to be written.
func stopUnless(ctx context.Context, partial bool) context.Context {
	if partial {
		return nil
	}
	return ctx
}

// plotFiles says how many plot files were written: "1 plot file", "4
// plot files".
func plotFiles(n int) string {
	if n == 1 {
		return "1 plot file"
	}
	return fmt.Sprintf("%d plot files", n)
}
