package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"hammersim/cmd/simulate/internal/web"
	"hammersim/reports"
	"hammersim/scenarios"
	"hammersim/sim"
)

// runServe is `simulate serve`: the web page and its API, on loopback
// unless --addr says otherwise.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", "serve [--addr HOST:PORT] [flags]", stdout)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on this address; the default answers this machine only")
	cfg := web.DefaultConfig
	fs.Var((*trialCount)(&cfg.MaxTrials), "max-trials", "most trials per point one run may ask for, `N` written 100000000, 100_000_000 or 1e8")
	fs.IntVar(&cfg.MaxPoints, "max-points", cfg.MaxPoints, "most points one run may sweep, all its scenarios together")
	fs.IntVar(&cfg.MaxRuns, "max-runs", cfg.MaxRuns, "most runs at once; more are refused")
	fs.Int64Var(&cfg.MaxBody, "max-body", cfg.MaxBody, "largest request body (a scenario), in bytes")
	maxConns := fs.Int("max-connections", web.DefaultMaxConnections, "most connections open at once; more wait to be accepted")
	fs.Var((*runTime)(&cfg.MaxRunTime), "max-run-time", "longest a run may take, a `duration` such as 90s, 10m or 1h30m; past it, it stops and answers with its partial results")
	hosts := fs.String("host", "", "comma-separated host names the page may be reached by, besides IP addresses and localhost")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagError(fs, err)
	}
	if len(pos) > 0 {
		return usagef("serve takes no arguments, got %s", strings.Join(pos, " "))
	}
	if cfg.MaxTrials < 1 || cfg.MaxTrials > maxTrialsFlag {
		return usagef("--max-trials %d is out of range; expected 1 to %d", cfg.MaxTrials, int64(maxTrialsFlag))
	}
	if cfg.MaxPoints < 1 || cfg.MaxPoints > scenarios.MaxPoints {
		return usagef("--max-points %d is out of range; expected 1 to %d", cfg.MaxPoints, scenarios.MaxPoints)
	}
	if cfg.MaxRuns < 1 || cfg.MaxBody < 1 || *maxConns < 1 {
		return usagef("--max-runs, --max-body and --max-connections must be at least 1")
	}
	if cfg.MaxRunTime < time.Second {
		return usagef("--max-run-time %s is too short; expected a duration of at least 1s, such as 10m or 1h30m", cfg.MaxRunTime)
	}
	if flagSet(fs, "host") {
		// "pi.local, pi" names pi, not " pi".
		if cfg.Hosts, err = commaList("host", *hosts); err != nil {
			return usagef("%v", err)
		}
		if err := checkHostNames(*hosts, cfg.Hosts); err != nil {
			return usagef("%v", err)
		}
	}
	if err := checkAddr(*addr); err != nil {
		return usagef("%v", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err // the address is taken, or not this machine's
	}
	ln = web.LimitListener(ln, *maxConns)
	handler := web.New(cfg, serveEngine(cfg.MaxPoints))
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       cfg.ReadTimeout, // the body; a run's answer may take longer
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ConnContext:       web.ConnContext, // a run watches its client's connection
	}
	fmt.Fprintf(stdout, "simulate: serving on http://%s (Ctrl-C stops)\n", pageHost(ln.Addr()))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	// Ctrl-C cancels the runs going, as the page's Cancel button does;
	// Shutdown then waits while their handlers send the partial results.
	stopped := serveStopped{runs: handler.CancelRuns()}
	shut, cancel := context.WithTimeout(context.Background(), drainTimeout)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		srv.Close()
		stopped.cutOff = true
	}
	return stopped
}

// checkAddr checks that addr is written as --addr takes it, HOST:PORT,
// so that a malformed one is a bad command line, not an error of
// listening; whether the host is this machine's and the port free is
// found by listening.
func checkAddr(addr string) error {
	const expected = "expected HOST:PORT, such as 127.0.0.1:8080, :8080 or [::1]:8080"
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		why := err.Error()
		if ae, ok := errors.AsType[*net.AddrError](err); ok {
			why = ae.Err
		}
		return fmt.Errorf("--addr %q: %s (%s)", addr, expected, why)
	}
	if port == "" {
		return nil // any free port, as Listen takes it
	}
	if strings.Trim(port, "0123456789") == "" {
		if n, err := strconv.ParseUint(port, 10, 64); err != nil || n > 65535 {
			return fmt.Errorf("--addr %q: port %s is out of range; expected a port from 0 to 65535, as in 127.0.0.1:8080", addr, port)
		}
		return nil
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return fmt.Errorf("--addr %q: unknown port %q; expected a port from 0 to 65535 (or a service name such as http), as in 127.0.0.1:8080", addr, port)
	}
	return nil
}

// runTime is serve --max-run-time: a duration as Go writes one, refused
// with the forms it takes rather than flag's bare "parse error".
type runTime time.Duration

func (d *runTime) String() string {
	if d == nil {
		return "0s"
	}
	return time.Duration(*d).String()
}

func (d *runTime) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%q is not a duration; write it as 90s, 10m or 1h30m", s)
	}
	*d = runTime(v)
	return nil
}

// drainTimeout bounds how long a stopping server waits for its clients to
// take their answers. Cancelled runs stop within a call of trials (about 20 ms) and
// only render what they have, well under a second; a client that stops
// reading must not keep the server up.
const drainTimeout = 10 * time.Second

// serveStopped is how a server stopped by Ctrl-C (or SIGTERM) ends: it
// exits as every interrupted command does, with status 130, its runs'
// partial results, marked so, sent to their clients (an error to a run
// stopped before its first chunk was whole). runs is how many were going.
type serveStopped struct {
	runs   int
	cutOff bool
}

func (e serveStopped) Error() string {
	msg := "interrupted: the server stopped"
	switch {
	case e.cutOff && e.runs == 1:
		// Some answer was not whole when the wait ended: which, the
		// server does not know, so nothing is said to have been sent.
		msg += "; the run going was cancelled, to send what it had run, marked partial (or an error, had it not finished its first trials)"
	case e.cutOff && e.runs > 1:
		msg += fmt.Sprintf("; the %d runs going were cancelled, each to send what it had run, marked partial (or an error, had it not finished its first trials)", e.runs)
	case e.runs == 1:
		msg += "; the run going was cancelled and sent what it had run, marked partial (or an error, had it not finished its first trials)"
	case e.runs > 1:
		msg += fmt.Sprintf("; the %d runs going were cancelled and each sent what it had run, marked partial (or an error, had it not finished its first trials)", e.runs)
	}
	if e.cutOff {
		msg += fmt.Sprintf("; clients whose answers were not whole after %s (still being written, or not taken) were cut off without them", drainTimeout)
	}
	return msg
}

func (e serveStopped) Unwrap() error { return errInterrupted }

// pageHost is the address to print for a browser: a wildcard listener is
// reachable on loopback.
func pageHost(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// served reads the scenarios the server's clients send. It opens no file:
// a file name only labels errors, and a scenario may use the built-in unit
// cards but name no catalogue (scenarios.Registry.WithoutFiles). It
// refuses a scenario of more than maxPoints points before compiling it,
// which is where a sweep's cost starts.
type served struct {
	*scenarios.Registry
	maxPoints int
}

// serveEngine hands the server the command line's own run, compare and
// dice paths, reading scenarios of at most maxPoints points (0: the
// server's default).
func serveEngine(maxPoints int) web.Engine {
	if maxPoints <= 0 {
		maxPoints = web.DefaultConfig.MaxPoints
	}
	sv := served{registry.WithoutFiles().WithMaxPoints(maxPoints, "simulate serve --max-points"), maxPoints}
	return web.Engine{
		Formats:   []string{"table", "json", "csv", "markdown", "html"},
		Scenarios: sv.Registry,
		Check: func(s *scenarios.Scenario) error {
			fs, f := newRunFlagSet(io.Discard)
			return f.checkPrecision(fs, s)
		},
		Run:         sv.run,
		Compare:     sv.compare,
		Dice:        serveDice,
		Units:       serveUnits,
		DiceFormats: reports.DiceFormats,
	}
}

// run is `simulate run FILE ARGS...` with FILE's text given. Flags that
// write files are refused: the server writes none.
func (sv served) run(ctx context.Context, file string, src []byte, args []string) (web.Job, error) {
	fs, f := newRunFlagSet(io.Discard)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, flagError(fs, err)
	}
	if err := serveFlags(fs, f, pos); err != nil {
		return nil, err
	}
	s, err := sv.ParseContext(ctx, file, src)
	if err != nil {
		return nil, err
	}
	standsForFile(s, file, src)
	if err := f.selectMetrics(s); err != nil {
		return nil, err
	}
	if err := f.checkRounds(fs, s); err != nil {
		return nil, err
	}
	if err := f.checkPrecision(fs, s); err != nil {
		return nil, err
	}
	return runServed{f.job(fs, file, s)}, nil
}

// standsForFile marks a text sent under a built-in's name that is not the
// built-in's own text as the file of that name it stands for, as the
// command line reads it: its reproduce line then names it ./NAME
// (scenarioArgs), which reads the file, where NAME would run the built-in.
func standsForFile(s *scenarios.Scenario, file string, src []byte) {
	if b, ok := scenarios.Builtin(file); ok && !bytes.Equal(b, src) {
		s.FromFile = true
	}
}

// serveFlags checks a served run's flags as the command line does, and
// refuses those that write files.
func serveFlags(fs *flag.FlagSet, f *runFlags, pos []string) error {
	if len(pos) > 0 {
		return usagef("the scenarios are the request's texts; unexpected arguments %s", strings.Join(pos, " "))
	}
	for _, name := range []string{"o", "plot", "report"} {
		if flagSet(fs, name) {
			return usagef("-%s writes files; the server writes none", name)
		}
	}
	return f.check(fs)
}

type runServed struct{ job runJob }

func (r runServed) MostTrials() int64 { return r.job.mostTrials() }

func (r runServed) Points() int { return points(r.job.s) }

// points is how many points a scenario's sweeps make.
func points(s *scenarios.Scenario) int {
	n := 1
	for _, a := range s.Axes {
		n *= len(a.Values)
	}
	return n
}

func (r runServed) Run(ctx context.Context, p web.Progress) (web.Result, error) {
	report, err := r.job.run(ctx, func(done, total int64) { p(r.job.s.Name, done, total) })
	return runResult{report, r.job.s.Source}, err
}

type runResult struct {
	r   sim.Report
	src []byte
}

func (r runResult) Partial() bool { return r.r.Partial }

// Render writes what `simulate run --format F` prints, or for html what
// `--report FILE.html` writes.
func (r runResult) Render(ctx context.Context, format string) ([]byte, error) {
	var b bytes.Buffer
	w := reports.StopWriter(ctx, &b)
	var err error
	if format == "html" {
		err = reports.WriteHTML(w, &r.r, r.src)
	} else if write, ok := formats[format]; ok {
		err = write(w, &r.r)
	} else {
		err = fmt.Errorf("unknown format %q", format)
	}
	return b.Bytes(), err
}

// compare is `simulate compare FILES... ARGS...` with the files' texts
// given.
func (sv served) compare(ctx context.Context, files []string, srcs [][]byte, args []string) (web.Job, error) {
	fs, f, by := newCompareFlagSet(io.Discard)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, flagError(fs, err)
	}
	if err := serveFlags(fs, f, pos); err != nil {
		return nil, err
	}
	if err := checkBy(fs, *by); err != nil {
		return nil, err
	}
	if len(files) > 1 && *by != "" {
		return nil, usagef("--by compares the values of one scenario's parameter; give one scenario with it")
	}
	var ss []*scenarios.Scenario
	reader, left := sv.Registry, sv.maxPoints
	for i, file := range files {
		if left < 1 {
			return nil, fmt.Errorf("%s: the scenarios before it already sweep %d points, the most this server runs in one comparison (simulate serve --max-points)", file, sv.maxPoints)
		}
		// Each is read within what the ones before it left of the bound,
		// so that a comparison's reading costs no more than its bound.
		s, err := reader.ParseContext(ctx, file, srcs[i])
		if err != nil {
			return nil, err
		}
		standsForFile(s, file, srcs[i])
		left -= points(s)
		reader = sv.WithMaxPoints(left, fmt.Sprintf("simulate serve --max-points %d, less the %d points of the scenarios before it", sv.maxPoints, sv.maxPoints-left))
		if err := f.selectMetrics(s); err != nil {
			return nil, err
		}
		ss = append(ss, s)
	}
	if err := checkCompareScenarios(fs, f, ss, files); err != nil {
		return nil, err
	}
	job := compareJob{ss: ss, args: files, by: *by, metrics: f.metrics, cfg: f.config(fs, ss[0])}
	if err := checkCompareTrials(job.cfg.Trials, trialsFrom(fs, ss[0])); err != nil {
		return nil, err
	}
	if err := job.shape(ctx); err != nil {
		return nil, err
	}
	return compareServed{job}, nil
}

type compareServed struct{ job compareJob }

func (c compareServed) MostTrials() int64 { return c.job.cfg.Trials }

func (c compareServed) Points() int {
	n := 0
	for _, s := range c.job.ss {
		n += points(s)
	}
	return n
}

func (c compareServed) Run(ctx context.Context, p web.Progress) (web.Result, error) {
	cmp, stamp, err := c.job.run(ctx, func(name string) (func(done, total int64), func()) {
		return func(done, total int64) { p(name, done, total) }, func() {}
	})
	sources := map[string][]byte{}
	for _, s := range c.job.ss {
		sources[s.Name] = s.Source
	}
	return compareResult{cmp, stamp, sources}, err
}

type compareResult struct {
	c       sim.Comparison
	stamp   sim.Stamp
	sources map[string][]byte
}

func (r compareResult) Partial() bool { return r.c.Partial }

// Render writes what `simulate compare --format F` prints, or for html
// what `--report FILE.html` writes.
func (r compareResult) Render(ctx context.Context, format string) ([]byte, error) {
	var b bytes.Buffer
	w := reports.StopWriter(ctx, &b)
	var err error
	if format == "html" {
		err = reports.WriteComparisonHTML(w, &r.c, r.stamp, r.sources)
	} else if write, ok := compareFormats[format]; ok {
		err = write(w, &r.c, r.stamp)
	} else {
		err = fmt.Errorf("unknown format %q", format)
	}
	return b.Bytes(), err
}

// serveDice is `simulate dice QUERY --format F`, the command line's own
// function and bytes: exact answers only (a question past the exact-work
// budget is refused, not simulated), so nothing to cancel.
func serveDice(query, format string) ([]byte, error) {
	var out bytes.Buffer
	// The server picked format from DiceFormats.
	f := diceFlags{format: format, seed: 1, exactOnly: true}
	err := answerDice(context.Background(), query, f, &out, io.Discard)
	return out.Bytes(), err
}

// serveUnits is the unit catalogue as `simulate units` lists it, each card
// with the comments on what it has without writing it that `simulate units
// show` prints above it.
func serveUnits() []web.Unit {
	var out []web.Unit
	for _, c := range scenarios.BuiltinUnits() {
		var notes strings.Builder
		for _, note := range registry.CardNotes(c) {
			fmt.Fprintf(&notes, "# %s\n", note)
		}
		out = append(out, web.Unit{Name: c.Name, Ruleset: c.Ruleset, Summary: cardSummary(c), YAML: notes.String() + c.YAML()})
	}
	return out
}

// checkHostNames refuses a --host entry that is not a bare host name: a
// request's Host is compared without its port, so an entry with a port, a
// scheme or a path would match no request, and every one would be refused.
func checkHostNames(value string, names []string) error {
	for _, n := range names {
		if strings.Trim(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_") != "" || strings.Trim(n, ".") == "" {
			return fmt.Errorf("--host %q: %q is not a host name; expected a bare name such as pi.local, without a scheme, port or path (the page is served on the port of --addr, and IP addresses without --host)", value, n)
		}
	}
	return nil
}
