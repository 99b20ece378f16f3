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

// maxStdinScenario bounds a scenario read from standard input, as the
// size of a scenario file is bounded.
const maxStdinScenario = 4 << 20

// load reads a scenario by path or built-in name, or from standard input
// when name is "-", and keeps the metrics --metrics names.
func (f *runFlags) load(name string) (*scenarios.Scenario, error) {
	var s *scenarios.Scenario
	var err error
	if name == "-" {
		src, rerr := io.ReadAll(io.LimitReader(stdin, maxStdinScenario+1))
		if rerr != nil {
			return nil, fmt.Errorf("reading the scenario from standard input: %w", rerr)
		}
		if len(src) > maxStdinScenario {
			return nil, fmt.Errorf("the scenario on standard input is larger than %d MiB", maxStdinScenario>>20)
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
