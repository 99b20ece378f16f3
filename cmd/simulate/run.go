package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"hammersim"
	"hammersim/reports"
	"hammersim/scenarios"
	"hammersim/sim"
)

// usageError is a bad command line; it exits with status 2. cmd, when
// set, is the command whose flags were wrong, for the hint.
type usageError struct{ msg, cmd string }

func (e *usageError) Error() string { return e.msg }

// hint says where the usage is.
func (e *usageError) hint() string {
	switch {
	case e.cmd == "":
		return "Run 'simulate -h' for usage."
	case simpleUsage[e.cmd] != "":
		return fmt.Sprintf("Run 'simulate %s -h' for its usage.", e.cmd)
	}
	return fmt.Sprintf("Run 'simulate %s -h' for its flags.", e.cmd)
}

func usagef(format string, args ...any) error { return &usageError{msg: fmt.Sprintf(format, args...)} }

// flagUsagef is a usage error in the flags of the command cmd.
func flagUsagef(cmd, format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...), cmd: cmd}
}

// ofCommand makes a usage error of a command that has a -h of its own
// point at it: whatever part of the command line was wrong (its arguments,
// a flag, or how flags combine), the command's usage says what is right.
func ofCommand(cmd string, err error) error {
	if u, ok := errors.AsType[*usageError](err); ok && u.cmd == "" {
		u.cmd = cmd
	}
	return err
}

// errInterrupted is returned after partial results were written because
// the run was cancelled.
var errInterrupted = errors.New("interrupted: the results written are partial, and marked so")

// errCancelled is returned when a cancellation came before any result was
// ready to write.
var errCancelled = errors.New("interrupted before any result was ready; nothing was written")

// errGatheringStopped is returned when a signal came after a run's last
// trial but before its results were gathered into a report.
var errGatheringStopped = fmt.Errorf("%w: the run was stopped while its results were gathered", errCancelled)

// usage is simulate -h: every command, and where each one's own usage is.
var usage = `simulate: Monte Carlo odds for tabletop wargames, with exact values beside the estimates.

Usage:
  simulate                         run the default scenario (` + scenarios.DefaultScenario + `);
                                   flags with no command are run's: simulate --trials 1e5
  simulate run [FILE|NAME|-] [flags]
                                   run a scenario file, a built-in by name, or standard input (-);
                                   with none, the default scenario
  simulate compare A B ... [flags] run scenarios on the same dice and compare them, with paired differences
  simulate compare FILE --by AXIS  compare the values of one swept parameter (default: the acting unit)
  simulate merge PARTS... [flags]  merge the partial results of a sharded run (run/compare --shard I/N)
  simulate dice QUERY [flags]      exact answer to a dice question, e.g. "2D6 >= 9" or "3D6 discard lowest"
  simulate list                    list the built-in scenarios
  simulate show NAME               print a built-in scenario's YAML, to copy and edit
  simulate units [show NAME]       list unit cards (yours with --units PATH), or print one to copy
  simulate completion SHELL        print a completion script for bash, zsh or fish
  simulate serve [--addr A]        a web page on http://127.0.0.1:8080: edit, run, compare, roll dice
  simulate version                 print the version

Every command prints its usage with -h: 'simulate run -h', 'simulate compare -h',
'simulate merge -h', 'simulate dice -h', 'simulate units -h' and 'simulate serve -h'
give their flags; 'simulate list -h', 'simulate show -h', 'simulate completion -h'
and 'simulate version -h' say what they take. 'simulate help COMMAND' is the same
as 'simulate COMMAND -h'.

Exit status: 0 success, 1 error (bad scenario, unwritable file), 2 bad command
line, 130 interrupted (partial results, marked as such, were written, or sent
by serve to its clients).
`

// simpleUsage is the -h of each command that has no flags: what it takes,
// then what it does.
var simpleUsage = map[string]string{
	"list": "list\n\nLists the built-in scenarios, a name and a description a line.\n" +
		"'simulate show NAME' prints one; 'simulate run NAME' runs it.\n",
	"show": "show NAME\n\nPrints the YAML of the built-in scenario NAME ('simulate list' names them),\n" +
		"to copy into a file, edit and run with 'simulate run FILE'.\n",
	"completion": "completion bash|zsh|fish\n\nPrints a completion script for the shell, which completes commands, flags,\n" +
		"flag values and built-in scenario names. Load it with:\n" +
		"  source <(simulate completion bash)    # in ~/.bashrc\n" +
		"  source <(simulate completion zsh)     # in ~/.zshrc\n" +
		"  simulate completion fish | source     # in ~/.config/fish/config.fish\n",
	"version": "version\n\nPrints hammersim's version.\n",
}

// isHelp reports whether an argument asks for help, in each form Go's
// flag package takes for it (and so the commands with flags).
func isHelp(arg string) bool { return arg == "-h" || arg == "--h" || arg == "-help" || arg == "--help" }

// simpleCommand answers a command without flags: its usage when asked
// with -h, a usage error for any other flag, else do with its arguments.
func simpleCommand(cmd string, args []string, stdout io.Writer, do func([]string) error) error {
	if slices.ContainsFunc(args, isHelp) {
		_, err := fmt.Fprintf(stdout, "Usage: simulate %s", simpleUsage[cmd])
		return err
	}
	for _, a := range args {
		if strings.HasPrefix(a, "-") && a != "-" {
			return flagUsagef(cmd, "%s has no flags; got %s", cmd, a)
		}
	}
	return ofCommand(cmd, do(args))
}

// run is the whole command line program; main only maps its error to an
// exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return runScenario(ctx, nil, stdout, stderr)
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "-h", "--h", "-help", "--help":
		_, err := io.WriteString(stdout, usage)
		return err
	case "help":
		switch {
		case len(rest) == 0, len(rest) == 1 && (isHelp(rest[0]) || rest[0] == "help"):
			_, err := io.WriteString(stdout, usage)
			return err
		case len(rest) >= 1 && slices.Contains(commandNames, rest[0]) && (len(rest) == 1 || asksHelp(rest[1:])):
			return run(ctx, []string{rest[0], "-h"}, stdout, stderr)
		case asksHelp(rest): // help --nosuch -h: help, whatever else is wrong
			_, err := io.WriteString(stdout, usage)
			return err
		}
		return usagef("help takes one command name (%s), got %s", strings.Join(commandNames, ", "), strings.Join(rest, " "))
	case "run":
		return ofCommand(cmd, runScenario(ctx, rest, stdout, stderr))
	case "compare":
		return ofCommand(cmd, runCompare(ctx, rest, stdout, stderr))
	case "merge":
		return ofCommand(cmd, runMerge(ctx, rest, stdout, stderr))
	case "dice":
		return ofCommand(cmd, runDice(ctx, rest, stdout, stderr))
	case "serve":
		return ofCommand(cmd, runServe(ctx, rest, stdout, stderr))
	case "units":
		return ofCommand(cmd, runUnits(rest, stdout))
	case "list":
		return simpleCommand(cmd, rest, stdout, func(args []string) error {
			if len(args) > 0 {
				return usagef("list takes no arguments, got %s", strings.Join(args, " "))
			}
			return list(stdout)
		})
	case "show":
		return simpleCommand(cmd, rest, stdout, func(args []string) error { return show(args, stdout) })
	case "completion":
		return simpleCommand(cmd, rest, stdout, func(args []string) error { return runCompletion(args, stdout) })
	case "version", "-version", "--version":
		return simpleCommand("version", rest, stdout, func(args []string) error {
			if len(args) > 0 {
				return usagef("version takes no arguments, got %s", strings.Join(args, " "))
			}
			_, err := fmt.Fprintf(stdout, "hammersim %s\n", hammersim.Version)
			return err
		})
	default:
		if len(cmd) > 1 && strings.HasPrefix(cmd, "-") {
			// Flags with no command before them are run's, for the
			// default scenario: simulate --trials 1e5.
			ctx = context.WithValue(ctx, flagsFirst{}, true)
			return ofCommand("run", runScenario(ctx, args, stdout, stderr))
		}
		return usagef("unknown command %q", cmd)
	}
}

// show prints a built-in scenario's YAML. An unknown name is an error, as
// it is for run, that says how to list the names.
func show(args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return usagef("show takes one built-in scenario name, got %d (simulate list shows them)", len(args))
	}
	src, ok := scenarios.Builtin(args[0])
	if !ok {
		return fmt.Errorf("no built-in scenario named %q (simulate list shows the built-ins; simulate run FILE runs a file)", args[0])
	}
	_, err := stdout.Write(src)
	return err
}

func list(w io.Writer) error {
	for _, name := range scenarios.BuiltinNames() {
		s, err := registry.Load(name)
		if err != nil {
			return fmt.Errorf("built-in scenario %s: %w", name, err)
		}
		if _, err := fmt.Fprintf(w, "%-28s %s\n", name, s.Description); err != nil {
			return err
		}
	}
	return nil
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments, as users of `simulate run FILE --trials N` expect.
// The usage text goes to stdout for -h only: the flag package would print
// it for every bad flag, where one line of error and a hint are wanted.
//
// A flag given twice is an error (but --units, which adds a catalogue each
// time), as is an empty file or folder name: either way a script would
// otherwise run with a value it did not mean. After "--" every argument
// is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	help := fs.Usage
	fs.Usage = func() {}
	defer func() { fs.Usage = help }()
	// The checks wrap the values while the flags are parsed only: the
	// usage text names a flag's argument by its value's own type.
	given := map[string]bool{}
	orig := map[string]flag.Value{}
	fs.VisitAll(func(f *flag.Flag) {
		orig[f.Name] = f.Value
		f.Value = &checkedValue{Value: f.Value, name: f.Name, given: given}
	})
	restore := func() { fs.VisitAll(func(f *flag.Flag) { f.Value = orig[f.Name] }) }
	defer restore()
	var pos []string
	all := args
	for {
		err := fs.Parse(args)
		if err != nil && !errors.Is(err, flag.ErrHelp) && asksHelp(all) {
			// -h answers with the usage whatever else is wrong: an
			// unknown flag before it, or a number flag it was given to
			// as a value. (A flag that takes any word, such as -o,
			// takes -h as its value, as getopt's would.)
			err = flag.ErrHelp
		}
		if errors.Is(err, flag.ErrHelp) {
			restore()
			help()
			if f, ok := fs.Output().(usageFailed); ok {
				fs.SetOutput(io.Discard)
				return nil, helpNotWritten(f)
			}
			return nil, err
		} else if err != nil {
			return nil, err
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil // the flag package took the "--"
		}
		args = rest
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// repeatableFlags may be given more than once: each adds to the last.
var repeatableFlags = map[string]bool{"units": true}

// pathFlags name a file or folder, which may not be empty.
var pathFlags = map[string]bool{"o": true, "plot": true, "report": true, "units": true, "scenario": true}

// checkedValue is a flag's value that refuses to be set twice, or, for a
// path, to an empty name. It passes on what the flag package asks of the
// value it wraps (IsBoolFlag, Get).
type checkedValue struct {
	flag.Value
	name  string
	given map[string]bool
}

func (v *checkedValue) Set(s string) error {
	if v.given[v.name] && !repeatableFlags[v.name] {
		return fmt.Errorf("given twice; give it once")
	}
	v.given[v.name] = true
	if pathFlags[v.name] && s == "" {
		return fmt.Errorf("an empty name; expected a file or folder name")
	}
	return v.Value.Set(s)
}

// String is the wrapped value's; "" for the zero value the flag package
// makes to tell a default apart.
func (v *checkedValue) String() string {
	if v == nil || v.Value == nil {
		return ""
	}
	return v.Value.String()
}

func (v *checkedValue) IsBoolFlag() bool {
	b, ok := v.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func (v *checkedValue) Get() any {
	if g, ok := v.Value.(flag.Getter); ok {
		return g.Get()
	}
	return v.Value.String()
}

// newFlagSet returns a flag set that reports errors as usage errors rather
// than exiting, and prints its help to stdout when asked.
func newFlagSet(name, synopsis string, stdout io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if c, ok := stdout.(*flagCollector); ok { // completion reads the flags
		c.sets = append(c.sets, fs)
	}
	fs.Usage = func() {
		w := &reports.ErrWriter{W: stdout}
		fmt.Fprintf(w, "Usage: simulate %s\n\nFlags:\n", synopsis)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		if w.Err != nil {
			// parseInterleaved reports it: a help that could not be
			// written (a full disk, a closed pipe) is an error.
			fs.SetOutput(usageFailed{w.Err})
		}
	}
	return fs
}

// helpNotWritten is the error of a help that could not be written: an
// error (exit 1), not a bad command line.
type helpNotWritten struct{ err error }

func (h helpNotWritten) Error() string { return h.err.Error() }
func (h helpNotWritten) Unwrap() error { return h.err }

// usageFailed is a flag set's output once its help failed to be written:
// it discards, and carries the error.
type usageFailed struct{ err error }

func (usageFailed) Write(p []byte) (int, error) { return len(p), nil }

// flagsFirst marks, in a run's context, a command line that began with
// flags and so was taken for run's (simulate --trials 1e5).
type flagsFirst struct{}

// commandAfterFlags refuses a command written after flags (simulate
// --trials 1e4 run x): the flags before any command made this run, which
// would take the command for a scenario. A file of that name is a
// scenario as written.
func commandAfterFlags(args, pos []string) error {
	if len(pos) == 0 || !slices.Contains(commandNames, pos[0]) {
		return nil
	}
	if d := slices.Index(args, "--"); d >= 0 && d+1 < len(args) && args[d+1] == pos[0] {
		return nil // after --, nothing is a command: the scenario asked for
	}
	if _, err := os.Stat(pos[0]); err == nil {
		return nil
	}
	return usagef("%q is a command: write it first, simulate %s ... (flags before any command are run's, and run took %q for a scenario)", pos[0], pos[0], pos[0])
}

// asksHelp reports whether args ask for the usage: -h, -help or --help
// before any "--".
func asksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

func flagError(fs *flag.FlagSet, err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return nil // parseInterleaved has printed the usage
	}
	var h helpNotWritten
	if errors.As(err, &h) {
		return err
	}
	return &usageError{msg: fmt.Sprintf("%s: %s", fs.Name(), numberFlagMessage(fs, err)), cmd: fs.Name()}
}

// flagParseRE matches the flag package's error for a value its number
// type cannot read.
var flagParseRE = regexp.MustCompile(`^invalid value "(.*)" for flag -(\S+): (parse error|value out of range)$`)

// checkedRE matches the flag package's error for checkedValue's refusals.
var checkedRE = regexp.MustCompile(`^invalid value "(.*)" for flag -(\S+): (given twice; give it once|an empty name; expected a file or folder name)$`)

// numberFlagMessage says what a number flag expects where the flag package
// would say only "parse error": --seed -1: expected a whole number from 0
// to 18446744073709551615. Other errors pass unchanged.
func numberFlagMessage(fs *flag.FlagSet, err error) string {
	if m := checkedRE.FindStringSubmatch(err.Error()); m != nil {
		return fmt.Sprintf("-%s %q: %s", m[2], m[1], m[3]) // checkedValue's refusals
	}
	m := flagParseRE.FindStringSubmatch(err.Error())
	if m == nil {
		return err.Error()
	}
	f := fs.Lookup(m[2])
	if f == nil {
		return err.Error()
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return err.Error()
	}
	want := ""
	switch g.Get().(type) {
	case uint64:
		want = "a whole number from 0 to 18446744073709551615"
	case int, int64:
		want = "a whole number"
	case float64:
		want = "a number, such as 0.005"
	default:
		return err.Error()
	}
	return fmt.Sprintf("--%s %s: expected %s", m[2], m[1], want)
}

// runFlags are the flags of run and compare.
type runFlags struct {
	trials    int64
	seed      uint64
	workers   int
	format    string
	plotDir   string
	output    string
	progress  string
	report    string
	precision float64
	maxTrials int64
	metrics   string
	// inputs are the files the command read (checkOutputs keeps them),
	// which no output may replace.
	inputs []string
}

func (f *runFlags) register(fs *flag.FlagSet) {
	fs.Var((*trialCount)(&f.trials), "trials", "`N` trials per point, written 1000000, 1_000_000 or 1e6 (default: the scenario's, else 1000000)")
	fs.Var((*seedValue)(&f.seed), "seed", "random seed, a whole `number` (default: the scenario's, else 1)")
	fs.IntVar(&f.workers, "workers", 0, "worker goroutines (default: GOMAXPROCS); results do not depend on it")
	fs.StringVar(&f.format, "format", "table", "output format: table, json, csv or markdown")
	fs.StringVar(&f.plotDir, "plot", "", "write plots (PNG and SVG) into this directory")
	fs.Var((*outputFile)(&f.output), "o", "write the results to this `FILE` instead of standard output (- for standard output)")
	fs.StringVar(&f.progress, "progress", "auto", "progress bar on standard error: auto (when it is a terminal), always or never")
	fs.StringVar(&f.report, "report", "", "also write a report document: FILE.html (self-contained, plots inline) or FILE.md (PNG plots beside it)")
	fs.StringVar(&f.metrics, "metrics", "", "print, plot and write only these `metrics`, such as hits,wounds (default: the scenario's metrics key, else all)")
}

// outputFile is -o: a file to write, or standard output when it is "-",
// as "-" names standard input where a scenario is read, rather than a file
// named "-".
type outputFile string

func (o *outputFile) String() string {
	if o == nil {
		return ""
	}
	return string(*o)
}

func (o *outputFile) Set(s string) error {
	if s == "-" {
		s = ""
	}
	*o = outputFile(s)
	return nil
}

// progressModes are the values of --progress.
var progressModes = []string{"auto", "always", "never"}

// Bounds on flag values. maxWorkers is far above any machine's cores, and
// low enough that the goroutines and their tallies fit in memory.
// maxTrialsFlag is the bound a scenario's trials key has too (sim.MaxTrials).
const (
	maxWorkers    = 1024
	maxTrialsFlag = sim.MaxTrials
)

// check validates the flags that need more than their type.
func (f *runFlags) check(fs *flag.FlagSet) error {
	cmd := fs.Name()
	if _, ok := formats[f.format]; !ok {
		expected := "table, json, csv or markdown"
		if cmd == "merge" {
			expected = "table, json, csv, markdown or partial"
		}
		return flagUsagef(cmd, "unknown format %q; expected %s", f.format, expected)
	}
	if err := checkTrialsWorkers(fs, f.trials, f.workers); err != nil {
		return err
	}
	if flagSet(fs, "max-trials") && (f.maxTrials < 1 || f.maxTrials > maxTrialsFlag) {
		return flagUsagef(cmd, "--max-trials %d is out of range; expected 1 to %d", f.maxTrials, int64(maxTrialsFlag))
	}
	if !slices.Contains(progressModes, f.progress) {
		return flagUsagef(cmd, "unknown --progress %q; expected auto, always or never", f.progress)
	}
	if flagSet(fs, "precision") && !(f.precision > 0 && f.precision < 0.5) {
		return flagUsagef(cmd, "--precision %g: expected a 95%% half-width above 0 and below 0.5, such as 0.005", f.precision)
	}
	if ext := reportKind(f.report); f.report != "" && ext != ".html" && ext != ".md" {
		if cmd == "compare" {
			return flagUsagef(cmd, "--report %s: expected a file ending in .html (compare writes its report as HTML)", f.report)
		}
		return flagUsagef(cmd, "--report %s: expected a file ending in .html or .md", f.report)
	}
	if base := filepath.Base(f.report); f.report != "" && strings.EqualFold(base, reportKind(base)) {
		// ".md" alone would be a hidden file, its plots in "_plots".
		return flagUsagef(cmd, "--report %s: the file has no name before %s; expected a name such as report%s", f.report, base, strings.ToLower(base))
	}
	if flagSet(fs, "metrics") && strings.Trim(f.metrics, ", ") == "" {
		return flagUsagef(cmd, "--metrics names no metric; expected names such as hits,wounds (leave the flag out for all)")
	}
	if flagSet(fs, "metrics") {
		if _, err := commaList("metrics", f.metrics); err != nil {
			return flagUsagef(cmd, "%v", err)
		}
	}
	return nil
}

// checkTrialsWorkers checks --trials and --workers, where they were given.
func checkTrialsWorkers(fs *flag.FlagSet, trials int64, workers int) error {
	if flagSet(fs, "trials") && (trials < 1 || trials > maxTrialsFlag) {
		return flagUsagef(fs.Name(), "--trials %d is out of range; expected 1 to %d", trials, int64(maxTrialsFlag))
	}
	if workers < 0 || workers > maxWorkers {
		return flagUsagef(fs.Name(), "--workers %d is out of range; expected 1 to %d (0 or no flag: one per CPU)", workers, maxWorkers)
	}
	return nil
}

// config resolves the run's configuration: flags over the scenario's own
// values over the defaults.
func (f *runFlags) config(fs *flag.FlagSet, s *scenarios.Scenario) sim.Config {
	cfg := sim.DefaultConfig
	if s.Trials > 0 {
		cfg.Trials = s.Trials
	}
	if s.HasSeed {
		cfg.Seed = s.Seed
	}
	if flagSet(fs, "trials") {
		cfg.Trials = f.trials
	}
	if flagSet(fs, "seed") {
		cfg.Seed = f.seed
	}
	cfg.Workers = f.workers
	if cfg.Workers == 0 {
		cfg.Workers = defaultWorkers()
	}
	return cfg
}

var formats = map[string]func(io.Writer, *sim.Report) error{
	"table":    reports.WriteTable,
	"json":     reports.WriteJSON,
	"csv":      reports.WriteCSV,
	"markdown": reports.WriteMarkdown,
}

// defaultMaxTrials caps a precision run per point when nothing else does.
const defaultMaxTrials = 100_000_000

// newRunFlagSet is the flag set of `simulate run`, shared by the command
// line and the server's run so that both read their arguments alike.
func newRunFlagSet(stdout io.Writer) (*flag.FlagSet, *runFlags) {
	fs := newFlagSet("run", "run [FILE|NAME|-] [flags]\n\n"+
		"Runs a scenario: a YAML file, a built-in by name (simulate list names them), or\n"+
		"standard input (-). With none, it runs the default scenario, "+scenarios.DefaultScenario+",\n"+
		"as simulate alone does.", stdout)
	var f runFlags
	f.register(fs)
	fs.Float64Var(&f.precision, "precision", 0, "run until every probability's 95% interval half-width is at most this (e.g. 0.005), in deterministic rounds")
	fs.Var((*trialCount)(&f.maxTrials), "max-trials", "with --precision, stop at `N` trials per point (default: the scenario's max_trials, else 100000000 or the first round if larger)")
	return fs, &f
}

func runScenario(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, f := newRunFlagSet(stdout)
	var shards shardFlags
	shards.register(fs)
	check := checkFlag(fs, "its flags, the scenario and every output destination")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagError(fs, err)
	}
	if ctx.Value(flagsFirst{}) != nil {
		if err := commandAfterFlags(args, pos); err != nil {
			return err
		}
	}
	name := scenarios.DefaultScenario
	switch len(pos) {
	case 0: // "simulate run" alone runs the default, as "simulate" does
	case 1:
		name = pos[0]
	default:
		return usagef("run takes one scenario, got %d: %s", len(pos), strings.Join(pos, " "))
	}
	if err := f.check(fs); err != nil {
		return err
	}
	s, err := f.load(ctx, name)
	if err != nil {
		return err
	}
	if flagSet(fs, "max-trials") && !flagSet(fs, "precision") && s.Precision == 0 {
		return flagUsagef("run", "--max-trials caps a --precision run; give --precision too (or precision in the scenario)")
	}
	if err := f.checkRounds(fs, s); err != nil {
		return err
	}
	if err := f.checkPrecision(fs, s); err != nil {
		return err
	}
	if s.MaxTrials > 0 && s.Precision == 0 && !flagSet(fs, "precision") {
		// Not an error: the key caps the run a --precision flag would make.
		fmt.Fprintf(stderr, "simulate: note: the scenario's max_trials caps only a precision run (precision: in the scenario, or --precision); this run makes its fixed number of trials\n")
	}
	if err := shards.shardOutputs(fs, f); err != nil {
		return err
	}
	if err := f.checkOutputs(inputFiles(s), s); err != nil {
		return err
	}
	job := f.job(fs, name, s)
	if sh, ok, err := shards.resolve(fs); err != nil || ok {
		if err == nil {
			err = shardRefusals(fs, *f, job.precision, job.header(), [][]sim.Model{s.Models}, job.cfg)
		}
		if err != nil {
			return err
		}
		if *check {
			return checked(stderr, "run")
		}
		return runShard(ctx, stdout, stderr, *f, [][]sim.Model{s.Models}, job.cfg, sh, job.header())
	}
	if *check {
		return checked(stderr, "run")
	}
	bar := newProgress(stderr, f.progress, s.Name)
	job.signals = true
	report, err := job.run(ctx, bar.update)
	bar.finish()
	if err != nil {
		return err
	}
	if st := report.Stamp; st.Precision > 0 && !st.PrecisionMet && !report.Partial {
		// A CSV row holds an estimate, with no place for the run's stamp.
		says := "the results say so"
		if f.format == "csv" {
			says = "the CSV, one row an estimate, does not say so (the other formats' stamps do)"
		}
		fmt.Fprintf(stderr, "simulate: the precision target %g was not reached within %d trials per point; %s\n", st.Precision, st.MaxTrials, says)
	}
	return writeRunOutputs(stopUnless(ctx, report.Partial), stdout, stderr, *f, &report, s.Source)
}

// writeRunOutputs writes a run's report in every output its flags ask for;
// stop (see runFlags.write) stops the writing.
func writeRunOutputs(stop context.Context, stdout, stderr io.Writer, f runFlags, report *sim.Report, source []byte) error {
	err := f.write(stop, stdout, stderr, outputs{
		results: func(w io.Writer) error { return formats[f.format](w, report) },
		plots: func(files *reports.Files, dir string) (reports.Plots, error) {
			return reports.StagePlots(files, dir, report)
		},
		report: func(files *reports.Files, path string) (int, error) { return stageReport(files, path, report, source) },
	})
	if err != nil {
		return err
	}
	if report.Partial {
		return errInterrupted
	}
	return nil
}

// runJob is one run of one scenario as its flags configure it. The command
// line and the server both run scenarios through it, so that they answer
// with the same bytes.
type runJob struct {
	name      string // the scenario as the command line names it, for the stamp
	s         *scenarios.Scenario
	cfg       sim.Config
	precision float64
	maxTrials int64
	metrics   string // --metrics as given: it changes what is reported
	// signals says that run's ctx is the command line's signals, which
	// once every trial has run stop the gathering of the results too. A
	// server's run context also ends at its time limit and as it stops,
	// and the results of trials all run are answered then.
	signals bool
}

// job resolves a run's configuration: flags over the scenario's own values
// over the defaults.
func (f *runFlags) job(fs *flag.FlagSet, name string, s *scenarios.Scenario) runJob {
	j := runJob{name: name, s: s, cfg: f.config(fs, s), precision: s.Precision, maxTrials: s.MaxTrials, metrics: f.metrics}
	if flagSet(fs, "precision") {
		j.precision = f.precision
	}
	if flagSet(fs, "max-trials") {
		j.maxTrials = f.maxTrials
	}
	if j.precision > 0 && !flagSet(fs, "trials") && s.Trials == 0 {
		// Rounds: a first one of --trials, else of the scenario's trials,
		// else of 4 chunks; then the total doubles until every
		// probability is precise enough.
		j.cfg.Trials = 4 * sim.ChunkSize
	}
	if j.maxTrials == 0 {
		// A first round asked for that is larger than the default cap
		// runs whole: the cap is the user's only when given
		// (checkRounds).
		j.maxTrials = max(defaultMaxTrials, j.cfg.Trials)
	}
	return j
}

// checkRounds refuses a precision run whose first round, asked for by
// --trials or the scenario's trials, is larger than its cap, --max-trials
// or the scenario's max_trials: the rounds never pass the cap, so the run
// would make fewer trials than asked for and say nothing. A scenario with
// a precision target of its own has its two keys checked as it is read;
// here they meet a flag, or a --precision the scenario did not ask for.
func (f *runFlags) checkRounds(fs *flag.FlagSet, s *scenarios.Scenario) error {
	if !flagSet(fs, "precision") && s.Precision == 0 {
		return nil
	}
	trials, trialsBy := s.Trials, fmt.Sprintf("the scenario's trials (%d)", s.Trials)
	if flagSet(fs, "trials") {
		trials, trialsBy = f.trials, fmt.Sprintf("--trials %d", f.trials)
	}
	most, mostBy := s.MaxTrials, fmt.Sprintf("the scenario's max_trials (%d)", s.MaxTrials)
	if flagSet(fs, "max-trials") {
		most, mostBy = f.maxTrials, fmt.Sprintf("--max-trials %d", f.maxTrials)
	}
	if trials == 0 || most == 0 || trials <= most {
		return nil
	}
	if flagSet(fs, "max-trials") && !flagSet(fs, "trials") {
		// The scenario's first round: say where it is written.
		return flagUsagef(fs.Name(), "%s: trials %d is above --max-trials %d: a precision run starts with a round of that many trials and never runs more than its cap; give a cap of at least %d (--max-trials), or fewer trials",
			s.KeyPlace("trials"), trials, most, trials)
	}
	if !flagSet(fs, "max-trials") {
		// The scenario's cap: say where it is written.
		return flagUsagef(fs.Name(), "%s: max_trials %d is below %s: a precision run starts with a round of that many trials and never runs more than max_trials; raise max_trials to at least %d, or ask for fewer trials",
			s.KeyPlace("max_trials"), most, trialsBy, trials)
	}
	return flagUsagef(fs.Name(), "%s is below %s: a precision run starts with a round of that many trials and never runs more than its cap; give a cap of at least %d (--max-trials), or fewer trials", mostBy, trialsBy, trials)
}

// checkPrecision refuses a precision target that holds nothing: only
// probabilities are held to it (preciseEnough), and a run that reports
// none would stop after its first round and call the target met. What the
// run reports is read from its results on no trials, --metrics applied.
func (f *runFlags) checkPrecision(fs *flag.FlagSet, s *scenarios.Scenario) error {
	if !flagSet(fs, "precision") && s.Precision == 0 {
		return nil
	}
	var means []string
	for _, e := range s.Results(emptyRun(s.Models, 0)) {
		if e.Kind == sim.Probability {
			return nil
		}
		if !slices.Contains(means, e.Metric) {
			means = append(means, e.Metric)
		}
	}
	why := fmt.Sprintf("a precision target holds every probability the run reports to its half-width, and this run reports none, only averages (%s); run a fixed number of trials, or report a probability", strings.Join(means, ", "))
	if flagSet(fs, "precision") {
		return flagUsagef(fs.Name(), "--precision %g: %s", f.precision, why)
	}
	return s.KeyError("precision", fmt.Sprintf("precision %g: %s", s.Precision, why))
}

// mostTrials is the most trials per point the job may run: a precision
// run's rounds stop at its cap.
func (j runJob) mostTrials() int64 {
	if j.precision > 0 {
		return j.maxTrials
	}
	return j.cfg.Trials
}

// errNothingRun is an interruption before any point completed a chunk of
// trials (of at most ChunkSize; fewer when the run asks for fewer): there
// are no numbers to report, and nothing is written.
func errNothingRun(trials int64) error {
	return fmt.Errorf("%w: the run was stopped before every point had completed its first %d trials", errCancelled, firstChunk(trials))
}

// firstChunk is how many trials a point runs before its results can show:
// a chunk, or every trial asked for when they are fewer.
func firstChunk(trials int64) int64 {
	if trials > 0 {
		return min(trials, sim.ChunkSize)
	}
	return sim.ChunkSize
}

// run runs the job and gathers its report. A cancelled run returns its
// report, marked partial, and no error; one cancelled before any trial
// was done returns errNothingRun.
func (j runJob) run(ctx context.Context, progress func(done, total int64)) (sim.Report, error) {
	cfg := j.cfg
	cfg.Progress = progress
	var result sim.Run
	var err error
	met := false
	if j.precision > 0 {
		result, err = sim.RunRounds(ctx, j.s.Models, cfg, j.maxTrials, func(r sim.Run) bool {
			// A signal while a round's results are read ends the run
			// after that round, as one while its trials run would.
			es, whole := j.s.ResultsUntil(r, func() bool { return j.signals && ctx.Err() != nil })
			met = whole && preciseEnough(es, j.precision)
			return met
		})
	} else {
		result, err = sim.RunAll(ctx, j.s.Models, cfg)
	}
	if err != nil {
		return sim.Report{}, err
	}
	if result.Partial && len(result.Completed) > 0 && slices.Max(result.Completed) == 0 {
		return sim.Report{}, errNothingRun(cfg.Trials)
	}
	if j.precision > 0 && len(result.Completed) > 0 {
		// The trials the rounds ran: every point's when they finished, the
		// most any point reached when they were interrupted (never the
		// first round's size, which the run may have far outgrown).
		cfg.Trials = slices.Max(result.Completed)
	}
	merged, err := mergeOne(j.header(), cfg, result)
	if err != nil {
		return sim.Report{}, err
	}
	// A signal once every trial has run stops the gathering of the results,
	// which takes seconds for a large sweep; one that cut the run short
	// asked for the partial results, which are gathered whatever follows.
	report, whole := j.report(merged, cfg, met, func() bool { return j.signals && !result.Partial && ctx.Err() != nil })
	if !whole {
		return sim.Report{}, errGatheringStopped
	}
	if n := result.Completed; result.Partial && j.precision == 0 && len(n) > 0 && slices.Min(n) == slices.Max(n) {
		// A run on one machine cut by an interruption keeps the first
		// whole rounds of chunks, the same trials of every point: a run of
		// that many trials gives these numbers. (Merged shards may keep
		// chunks that are not the first, so report leaves theirs alone.)
		again := cfg
		again.Trials = n[0]
		report.Stamp.Command = reproduce("run", scenarioArgs([]string{j.name}, j.s), again, j.flags()...)
	}
	return report, nil
}

// report renders a run's merged tallies: the one path from tallies to a
// report, for runs made on one machine and merged shards alike. met says
// whether a precision target was reached. Once stop reports true it gives
// up and reports false.
func (j runJob) report(merged *sim.Part, cfg sim.Config, met bool, stop func() bool) (sim.Report, bool) {
	result := merged.Runs[0]
	result.Partial = merged.Interrupted
	report, whole := j.s.Report(result, cfg, hammersim.Version, stop)
	if !whole {
		return sim.Report{}, false
	}
	flags := j.flags()
	if j.s.Precision > 0 {
		// The scenario's own precision target would make a run of these
		// trials go on in rounds past them: capped at them, its first
		// round is its last, and gives these numbers.
		flags = append(flags, sim.Flag{Name: "max-trials", Value: strconv.FormatInt(cfg.Trials, 10)})
	}
	report.Stamp.Command = reproduce("run", scenarioArgs([]string{j.name}, j.s), cfg, flags...)
	if j.precision > 0 {
		report.Stamp.Precision, report.Stamp.PrecisionMet, report.Stamp.MaxTrials = j.precision, met, j.maxTrials
	}
	return report, true
}

// header is what every part of the job's run carries.
func (j runJob) header() sim.PartHeader {
	return partHeader("run", scenarioArgs([]string{j.name}, j.s), j.flags(), j.s)
}

// flags are the run's flags, beyond seed and trials, that change what it
// reports: the reproduce line and the parts of a sharded run carry them.
func (j runJob) flags() []sim.Flag { return metricsFlag(j.metrics) }

// metricsFlag is --metrics as a flag of the reproduce line and the parts'
// header, or none when it was not given.
func metricsFlag(metrics string) []sim.Flag {
	if metrics == "" {
		return nil
	}
	return []sim.Flag{{Name: "metrics", Value: metrics}}
}

// preciseEnough reports whether every probability's 95% interval is at
// most twice the target half-width wide.
func preciseEnough(es []sim.Estimate, halfWidth float64) bool {
	for _, e := range es {
		if e.Kind == sim.Probability && (e.Trials == 0 || (e.CI95[1]-e.CI95[0])/2 > halfWidth) {
			return false
		}
	}
	return true
}

// fileArgs names scenario files so that a command line reads them as
// files again: one that starts with "-" (given after "--") as ./-o.
// Standard input stays "-".
func fileArgs(names ...string) []string {
	out := make([]string, len(names))
	for i, a := range names {
		if strings.HasPrefix(a, "-") && a != "-" {
			a = "./" + a
		}
		out[i] = a
	}
	return out
}

// scenarioArgs names the scenarios ss, given as args (one each), as
// fileArgs does, and a file read from disk that has a built-in scenario's
// name, which hides the built-in in its folder, as ./NAME, so that the
// line reads the file again and not the built-in. (A scenario given as
// text keeps its name: a part's header carries the name this gave, and
// the server marks a text that is not the built-in's as its file.)
func scenarioArgs(args []string, ss ...*scenarios.Scenario) []string {
	out := fileArgs(args...)
	if len(ss) != len(args) {
		return out
	}
	for i, s := range ss {
		if _, ok := scenarios.Builtin(args[i]); ok && s.FromFile && s.File == args[i] {
			out[i] = "./" + args[i]
		}
	}
	return out
}

// reproduce is the command line that gives the same numbers again;
// scenarioArgs are its arguments before the flags, files as fileArgs
// names them.
func reproduce(cmd string, scenarioArgs []string, cfg sim.Config, flags ...sim.Flag) string {
	quoted := make([]string, len(scenarioArgs))
	for i, a := range scenarioArgs {
		quoted[i] = shellQuote(a)
	}
	line := fmt.Sprintf("simulate %s %s --seed %d --trials %d", cmd, strings.Join(quoted, " "), cfg.Seed, cfg.Trials)
	for _, fl := range flags {
		line += " --" + fl.Name + " " + shellQuote(fl.Value)
	}
	return line
}

// shellQuote quotes an argument for a POSIX shell when it needs it. One
// holding control characters, or bytes that are not UTF-8 (which JSON
// would turn into U+FFFD), is written $'...' with each escaped (bash,
// zsh and ksh read it; a plain sh has no way to write them), so that the
// line prints safely on a terminal and pastes back as the same argument.
// A word that starts with "=" is quoted too: zsh reads =x as the path of
// the command x.
func shellQuote(s string) string {
	if s != "" && s[0] != '=' && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=+,", r))
	}) < 0 {
		return s
	}
	if strings.ContainsFunc(s, unicode.IsControl) || !utf8.ValidString(s) {
		var b strings.Builder
		b.WriteString("$'")
		for i := 0; i < len(s); {
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == '\\' || r == '\'':
				b.WriteByte('\\')
				b.WriteRune(r)
			case unicode.IsControl(r) || r == utf8.RuneError && n == 1:
				// A C1 control is two bytes; a byte that is not UTF-8 is
				// kept as itself, not as the replacement character.
				for _, c := range []byte(s[i : i+n]) {
					fmt.Fprintf(&b, "\\x%02x", c)
				}
			default:
				b.WriteString(s[i : i+n])
			}
			i += n
		}
		return b.String() + "'"
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// stageReport prepares a report document, HTML or Markdown by extension,
// and returns how many plot files it prepared beside it.
func stageReport(files *reports.Files, path string, r *sim.Report, source []byte) (int, error) {
	if reportKind(path) == ".md" {
		written, err := reports.StageMarkdownReport(files, path, r, source)
		return max(len(written)-1, 0), err
	}
	return 0, files.Add(path, func(w io.Writer) error { return reports.WriteHTML(w, r, source) })
}

func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

// progress draws a progress bar on stderr for runs long enough to want one.
type progress struct {
	bar   *progressbar.ProgressBar
	start time.Time
	w     io.Writer
	mode  string
	label string
	// total is the bar's: the run's, or a precision run's so far.
	total int64
	// later is set once a bar has finished: a precision run's next bar
	// starts from the trials already done.
	later bool
}

func newProgress(stderr io.Writer, mode, label string) *progress {
	return &progress{w: stderr, mode: mode, label: label, start: time.Now()}
}

// update is sim's progress callback. The bar appears only after half a
// second, so quick runs print nothing, and only when stderr is a terminal
// (or --progress always).
//
// A precision run's total grows with each round: a bar that reached the
// last total has finished, and one drawn anew takes the next, counting
// from the trials already done. That bar shows no times: the bar would
// time its rate from its first count, the trials of every round before,
// as if done at once, and its elapsed time from its own start.
func (p *progress) update(done, total int64) {
	if p.mode == "never" || (p.mode == "auto" && !isTerminal(p.w)) {
		return
	}
	if p.bar != nil && total != p.total {
		if p.bar.IsFinished() {
			p.bar, p.later = nil, true
		} else {
			p.bar.ChangeMax64(total)
			p.total = total
		}
	}
	if p.bar == nil {
		if time.Since(p.start) < 500*time.Millisecond || done >= total {
			return
		}
		p.total = total
		label, width, fits := fitBar(p.label, total, terminalWidth(p.w))
		if !fits {
			p.mode = "never" // a terminal too narrow for any line
			return
		}
		opts := []progressbar.Option{
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(label),
			progressbar.OptionShowCount(),
			progressbar.OptionSetWidth(width),
			progressbar.OptionThrottle(100 * time.Millisecond),
			progressbar.OptionClearOnFinish(),
		}
		if p.later {
			opts = append(opts, progressbar.OptionSetElapsedTime(false), progressbar.OptionSetPredictTime(false))
		}
		p.bar = progressbar.NewOptions64(total, opts...)
	}
	_ = p.bar.Set64(done)
}

// fitBar lays a progress line out within a terminal of cols columns (0:
// not known), since a line wider than the terminal wraps, and each redraw
// then adds a line: the bar narrows from 30 cells to 10, then the label is
// cut. The count of trials stays: without it the bar redraws only when
// its whole percentage changes, and its times count from the first of
// those. The rest of the line, a percentage and the time taken and left,
// takes about 24 columns. A terminal too narrow for a line with a label
// of one character gets none (fits false).
func fitBar(label string, total int64, cols int) (string, int, bool) {
	const rest, most, least = 24, 30, 10
	if cols <= 0 {
		return label, most, true
	}
	room := cols - 1 - rest - (4 + 2*len(strconv.FormatInt(total, 10))) // never the last column, which wraps some terminals
	n := utf8.RuneCountInString(label)
	if w := room - n; w >= least {
		return label, min(w, most), true
	}
	keep := room - least - 1
	if keep < 0 {
		return "", 0, false
	}
	if r := []rune(label); keep < len(r) {
		label = string(r[:keep]) + "…"
	}
	return label, least, true
}

// terminalWidth is the columns of the terminal w is, or 0.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	cols, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return cols
}

func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
		_ = p.bar.Clear()
	}
}

// defaultWorkers is the worker count when --workers is not given; reports
// show it, though results do not depend on it.
func defaultWorkers() int { return runtime.GOMAXPROCS(0) }

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
