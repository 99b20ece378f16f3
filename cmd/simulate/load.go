package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"hammersim/scenarios"
)

// stdin is where `simulate run -` reads its scenario; tests replace it.
var stdin io.Reader = os.Stdin

// load reads a scenario by path or built-in name, or from standard input
// when name is "-", and keeps the metrics --metrics names.
func (f *runFlags) load(name string) (*scenarios.Scenario, error) {
	var s *scenarios.Scenario
	var err error
	if name == "-" {
		// Reading stops a byte past the size a scenario file may have,
		// which Parse then refuses as it refuses such a file.
		src, rerr := io.ReadAll(io.LimitReader(stdin, scenarios.MaxFileSize+1))
		if rerr != nil {
			return nil, fmt.Errorf("reading the scenario from standard input: %w", rerr)
		}
		s, err = registry.Parse("<stdin>", src)
	} else {
		s, err = registry.Load(name)
	}
	if err != nil {
		return nil, err
	}
	return s, f.selectMetrics(s)
}

// selectMetrics keeps the metrics --metrics names; the server's runs read
// their scenarios elsewhere and call it too.
func (f *runFlags) selectMetrics(s *scenarios.Scenario) error {
	if f.metrics != "" {
		if err := s.SelectMetrics(strings.Split(f.metrics, ",")); err != nil {
			return &usageError{msg: "--metrics: " + err.Error()}
		}
	}
	return nil
}
