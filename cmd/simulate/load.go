package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"hammersim/scenarios"
)

// stdin is where `simulate run -` reads its scenario; tests replace it.
var stdin io.Reader = os.Stdin

// stdinName is the file name of a scenario read from standard input.
const stdinName = "<stdin>"

// stdinFile is the file standard input reads, when it is a regular file
// (a redirect, simulate run - < my.yaml): an output naming it would
// overwrite the scenario being run.
func stdinFile() (os.FileInfo, bool) {
	f, ok := stdin.(*os.File)
	if !ok {
		return nil, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	return fi, true
}

// readStdin reads the scenario standard input holds. Reading stops a byte
// past the size a scenario file may have, which Parse then refuses as it
// refuses such a file. A terminal or a pipe may hold it back for ever: a
// signal (ctx) stops the wait with errCancelled, leaving the read to end
// with the process.
func readStdin(ctx context.Context) ([]byte, error) {
	type read struct {
		src []byte
		err error
	}
	done := make(chan read, 1)
	in := stdin // read here: the goroutine may outlive this call
	go func() {
		src, err := io.ReadAll(io.LimitReader(in, scenarios.MaxFileSize+1))
		done <- read{src, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, fmt.Errorf("reading the scenario from standard input: %w", r.err)
		}
		return r.src, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("%w (the scenario was still being read from standard input)", errCancelled)
	}
}

// load reads a scenario by path or built-in name, or from standard input
// when name is "-", and keeps the metrics --metrics names. A large sweep
// takes seconds to read; a signal (ctx) stops it with errCancelled.
func (f *runFlags) load(ctx context.Context, name string) (*scenarios.Scenario, error) {
	var s *scenarios.Scenario
	var err error
	if name == "-" {
		src, rerr := readStdin(ctx)
		if rerr != nil {
			return nil, rerr
		}
		s, err = registry.ParseContext(ctx, stdinName, src)
	} else {
		s, err = registry.LoadContext(ctx, name)
	}
	if errors.Is(err, scenarios.ErrStopped) {
		return nil, fmt.Errorf("%w (%v)", errCancelled, err)
	}
	if err != nil {
		return nil, err
	}
	return s, f.selectMetrics(s)
}

// selectMetrics keeps the metrics --metrics names; the server's runs read
// their scenarios elsewhere and call it too.
func (f *runFlags) selectMetrics(s *scenarios.Scenario) error {
	if f.metrics == "" {
		return nil
	}
	names, err := commaList("metrics", f.metrics)
	if err != nil {
		return &usageError{msg: err.Error()}
	}
	if err := s.SelectMetrics(names); err != nil {
		return &usageError{msg: "--metrics: " + err.Error()}
	}
	return nil
}

// commaList reads the value of a flag that takes names separated by
// commas, such as --metrics hits,wounds. Spaces around a name are dropped;
// an empty entry ("hits,,wounds", a comma at either end) and a name given
// twice are errors that say which entry, since either is a slip that would
// otherwise pass unseen, or mean that another name was meant.
func commaList(flag, value string) ([]string, error) {
	entries := strings.Split(value, ",")
	var names []string
	for i, e := range entries {
		e = strings.TrimSpace(e)
		if e == "" {
			return nil, fmt.Errorf("--%s %q: entry %d of %d is empty; expected names separated by single commas, such as %s", flag, value, i+1, len(entries), flagListExample[flag])
		}
		if j := slices.Index(names, e); j >= 0 {
			return nil, fmt.Errorf("--%s %q: %s is named twice, as entries %d and %d", flag, value, e, j+1, i+1)
		}
		names = append(names, e)
	}
	return names, nil
}

// flagListExample is a well-formed value of each flag commaList reads.
var flagListExample = map[string]string{
	"metrics": "hits,wounds",
	"host":    "pi.local,pi",
}
