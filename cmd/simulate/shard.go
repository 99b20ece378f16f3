package main

import (
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"hammersim"
	"hammersim/scenarios"
	"hammersim/sim"
)

// shardFlags are --shard and --shard-index-env, shared by run and compare.
type shardFlags struct {
	spec     string
	indexEnv string
}

func (s *shardFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.spec, "shard", "", "run shard I/N (from 0) of the run and write its partial result (-o FILE, where {shard} stands for I, or standard output) for simulate merge")
	fs.StringVar(&s.indexEnv, "shard-index-env", "", "read the shard index from this environment variable (such as SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX); --shard then gives the count alone")
}

// resolve reads the shard to run; ok is false when the run is not sharded.
func (s *shardFlags) resolve(fs *flag.FlagSet) (sh sim.Shard, ok bool, err error) {
	if !flagSet(fs, "shard") {
		if flagSet(fs, "shard-index-env") {
			return sh, false, usagef("--shard-index-env %s needs --shard N, the number of shards", s.indexEnv)
		}
		return sh, false, nil
	}
	spec, from := s.spec, ""
	if flagSet(fs, "shard-index-env") {
		if strings.Contains(spec, "/") {
			return sh, false, usagef("with --shard-index-env, --shard takes the number of shards alone, such as --shard 8")
		}
		v, set := os.LookupEnv(s.indexEnv)
		if !set {
			return sh, false, usagef("--shard-index-env: %s is not set; the batch engine sets it in each task (or give --shard I/N)", s.indexEnv)
		}
		// Digits alone: an engine sets the index so, and a value with a
		// sign or spaces around it was written by something else.
		if _, err := strconv.Atoi(v); err != nil || strings.TrimLeft(v, "0123456789") != "" {
			return sh, false, usagef("--shard-index-env: %s is %q, not a shard index; expected a whole number from 0 (the first shard), as the batch engine sets it in each task", s.indexEnv, v)
		}
		spec, from = v+"/"+spec, fmt.Sprintf(" (the index from %s)", s.indexEnv)
	}
	i, n, found := strings.Cut(spec, "/")
	sh.Index, err = strconv.Atoi(i)
	if err == nil {
		sh.Count, err = strconv.Atoi(n)
	}
	if !found || err != nil || sh.Count < 1 || sh.Count > sim.MaxShards || sh.Index < 0 || sh.Index >= sh.Count {
		return sh, false, usagef("--shard %q%s: expected I/N, shard I of N with 0 <= I < N <= %d, such as 3/8 (the first shard is 0)", spec, from, sim.MaxShards)
	}
	return sh, true, nil
}

// shardRefusals names what a shard cannot do: its outputs are a partial
// result, a precision target decides the trials only as a run goes, so
// its shards cannot be planned, and the inputs its part carries, h's,
// must leave room in the part for the tallies of groups, run with cfg.
func shardRefusals(fs *flag.FlagSet, f runFlags, precision float64, h sim.PartHeader, groups [][]sim.Model, cfg sim.Config) error {
	if precision > 0 || flagSet(fs, "max-trials") {
		return usagef("--shard runs a fixed number of trials, and a precision target decides it only as the run goes: " +
			"run once with --precision on one machine (its stamp says the trials it needed), then shard that count: " +
			"--trials N --shard I/M (from a copy of the scenario file without its precision key, when it has one)")
	}
	for _, name := range []string{"format", "plot", "report"} {
		if flagSet(fs, name) {
			return usagef("--%s with --shard: a shard writes a partial result; give --%s to simulate merge", name, name)
		}
	}
	if err := checkPartInputs(h); err != nil {
		return err
	}
	return checkPartFits(&h, groups, cfg.Batches)
}

// checkPartFits refuses, before any trial, a shard whose part could not be
// written: one whose tallies, of every point's every metric, in the whole
// run and in each batch a comparison keeps, take more than a merge reads
// however few values the trials show. Shards do not help: every part holds
// every point's tallies.
func checkPartFits(h *sim.PartHeader, groups [][]sim.Model, batches int) error {
	n := sim.PartSizeAtLeast(h, groups, batches)
	if n <= sim.MaxPartBytes {
		return nil
	}
	points, kept := 0, "kept whole"
	for _, g := range groups {
		points += len(g)
	}
	if batches > 0 {
		kept = fmt.Sprintf("kept whole and in %d batches for the comparison", batches)
	}
	return fmt.Errorf("a part of this run would take more than %d MiB (at least %d bytes: the tallies of %d points, %s), and a merge reads parts of at most %d MiB; every shard's part holds every point, so more shards do not help: split the sweep into several scenarios, each sharded and merged on its own", n>>20, n, points, kept, sim.MaxPartBytes>>20)
}

// checkPartInputs refuses a part whose inputs would not fit it: a part
// carries its inputs whole, a merge reads parts of at most MaxPartBytes,
// and the tallies need room beside the texts. The texts are measured as
// the part writes them, JSON strings, where a quote or a backslash takes
// two bytes.
func checkPartInputs(h sim.PartHeader) error {
	if n := h.InputBytes(); n > sim.MaxPartBytes/2 {
		return fmt.Errorf("the scenarios and unit catalogues come to %d MiB as a part writes them (JSON text); a shard's part carries them whole, and a merge reads parts of at most %d MiB: name fewer or smaller catalogues", n>>20, sim.MaxPartBytes>>20)
	}
	return nil
}

// inputsOf records the scenario files of a run for its parts, each with
// the unit catalogues it read.
func inputsOf(ss ...*scenarios.Scenario) []sim.Input {
	var in []sim.Input
	for _, s := range ss {
		var cats []sim.InputFile
		for _, c := range s.Catalogues {
			cats = append(cats, sim.InputFile{File: c.Path, SHA256: fmt.Sprintf("%x", sha256.Sum256(c.Source)), Source: string(c.Source)})
		}
		in = append(in, sim.Input{Name: s.Name, File: s.File, SHA256: s.SHA256, Source: string(s.Source), Catalogues: cats})
	}
	return in
}

// partHeader is what every part of a run of command with args carries.
func partHeader(command string, args []string, flags []sim.Flag, ss ...*scenarios.Scenario) sim.PartHeader {
	return sim.PartHeader{Program: "hammersim", Version: hammersim.Version, Command: command,
		Args: args, Flags: flags, Inputs: inputsOf(ss...)}
}

// buildID names the binary that is running, for the parts it writes: two
// builds of one version may differ in their rules, and parts of both must
// not merge. A binary built from a commit with no changes is that commit;
// any other (changed files, or no commit recorded, as with go run or
// -buildvcs=false) is the SHA-256 of its executable, read through
// /proc/self/exe where there is one, so that a binary replaced on disk
// while a shard runs is still the one that ran it.
var buildID = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, modified := "", true
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value != "false"
			}
		}
		if rev != "" && !modified {
			return "commit " + rev
		}
	}
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		path, perr := os.Executable()
		if perr != nil {
			return "unknown"
		}
		if f, err = os.Open(path); err != nil {
			return "unknown"
		}
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unknown"
	}
	return fmt.Sprintf("sha256 %x", h.Sum(nil))
})

// runShard runs one shard and writes its part whole to -o or standard
// output. An interrupted shard writes nothing: its part would lack chunks.
func runShard(ctx context.Context, stdout, stderr io.Writer, f runFlags, groups [][]sim.Model, cfg sim.Config, sh sim.Shard, h sim.PartHeader) error {
	if err := checkPartInputs(h); err != nil {
		return err
	}
	if err := checkPartFits(&h, groups, cfg.Batches); err != nil {
		return err
	}
	h.Build = buildID()
	if lo, hi := sh.Chunks(cfg.Trials); lo == hi {
		// Valid, since the merge asks for every shard, but a sign that the
		// split is finer than the run.
		c := sim.Chunks(cfg.Trials)
		fmt.Fprintf(stderr, "simulate: shard %s has no trials to run: %d trials make %d chunk(s) of %d, and a split into more than %d shards leaves some empty; its part is written all the same, for the merge\n",
			sh, cfg.Trials, c, sim.ChunkSize, c)
	}
	bar := newProgress(stderr, f.progress, "shard "+sh.String())
	cfg.Progress = bar.update
	part, err := sim.RunShard(ctx, groups, cfg, sh, h)
	bar.finish()
	if err != nil {
		return err
	}
	if part.Interrupted {
		return shardInterrupted{sh}
	}
	f.output = shardOutput(f.output, sh)
	// A signal after the last trial does not stop the writing: the part
	// is whole.
	return writeResults(context.Background(), stdout, stderr, f, func(w io.Writer) error { return sim.WritePart(w, part) })
}

// shardOutput is -o for shard sh: {shard} stands for its index, for
// engines that start the binary without a shell to build a file name from
// their variable.
func shardOutput(output string, sh sim.Shard) string {
	return strings.ReplaceAll(output, "{shard}", strconv.Itoa(sh.Index))
}

// shardOutputs gives -o its shard's name before the outputs are checked,
// so that a refusal names the file the shard would write. A --shard that
// cannot be read is left for the run to refuse; a {shard} in the -o of a
// run that is not sharded is refused (unshardedOutput).
func (s *shardFlags) shardOutputs(fs *flag.FlagSet, f *runFlags) error {
	sh, ok, err := s.resolve(fs)
	switch {
	case err != nil:
		return nil
	case ok:
		f.output = shardOutput(f.output, sh)
		return nil
	}
	return unshardedOutput(f.output)
}

// unshardedOutput refuses a {shard} in the -o of a command that runs no
// shard: it would name a file "part-{shard}" holding the whole result, where
// a job script meant one part of it and left out --shard.
func unshardedOutput(output string) error {
	if strings.Contains(output, "{shard}") {
		return usagef("-o %q: {shard} stands for the shard index, and only a sharded run (--shard I/N) writes one file a shard", output)
	}
	return nil
}

// mergeOne puts a run made on one machine through the merge every sharded
// run goes through, so that both render from the same merged tallies.
func mergeOne(h sim.PartHeader, cfg sim.Config, runs ...sim.Run) (*sim.Part, error) {
	return sim.Merge([]sim.NamedPart{{Name: "the run", Part: sim.WholeRun(h, cfg, runs...)}})
}

// shardInterrupted exits as an interruption does, but a shard writes no
// partial results: only whole parts are written.
type shardInterrupted struct{ sh sim.Shard }

func (e shardInterrupted) Error() string {
	return fmt.Sprintf("interrupted: shard %s wrote nothing; rerun it", e.sh)
}

func (e shardInterrupted) Unwrap() error { return errInterrupted }
