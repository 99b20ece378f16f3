package scenarios

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"hammersim/mechanics"
	"hammersim/sim"
)

// Scenario is a scenario file read, checked and compiled into models the
// engine can run.
type Scenario struct {
	Name        string
	Description string
	Ruleset     string
	// File is where the scenario came from: a path, or "builtin:NAME".
	File string
	// Source is the file's text.
	Source []byte
	// Trials per point the file asks for; 0 leaves it to the caller.
	Trials int64
	// Seed the file asks for, when HasSeed.
	Seed    uint64
	HasSeed bool
	// Precision, when above 0, is the 95% half-width every probability
	// should reach; MaxTrials caps the trials per point spent on it.
	Precision float64
	MaxTrials int64
	// SHA256 is the hex SHA-256 of Source, for report stamps.
	SHA256 string

	// Models are what the engine runs, one per combination of the swept
	// values that change a trial.
	Models []sim.Model
	// Axes are the swept parameters, outermost first.
	Axes []sim.Axis
	// Grid suggests a two-way layout for tables and plots, or nil.
	Grid *sim.Grid

	results func(run sim.Run) []sim.Estimate
}

// Results reads the estimates of every point of the scenario from a run of
// its Models.
func (s *Scenario) Results(run sim.Run) []sim.Estimate { return s.results(run) }

// Report gathers a run into the report every output format shows, with
// the stamp filled in but for the command line, which the caller knows.
func (s *Scenario) Report(run sim.Run, cfg sim.Config, version string) sim.Report {
	trials := cfg.Trials
	if len(run.Completed) > 0 && !run.Partial {
		trials = run.Completed[0]
	}
	return sim.Report{
		Stamp: sim.Stamp{Version: version, Scenario: s.Name, ScenarioSHA256: s.SHA256, Seed: cfg.Seed,
			Trials: trials, Workers: cfg.Workers},
		Scenario:    s.Name,
		Description: s.Description,
		Version:     version,
		Seed:        cfg.Seed,
		Trials:      cfg.Trials,
		Workers:     cfg.Workers,
		Partial:     run.Partial,
		Results:     s.Results(run),
		Axes:        s.Axes,
		Grid:        s.Grid,
	}
}

// ruleset is the vocabulary one game brings to scenario files.
type ruleset struct {
	name      string
	catalogue mechanics.Catalogue
	// questions maps each question key to its decoder.
	questions map[string]func(d *decoder, n *node, rs *ruleset) compiler
}

// compiler finishes a decoded question once every axis is known.
type compiler func(d *decoder, axes []*axis, s *Scenario)

var rulesets = map[string]*ruleset{}

func rulesetNames() []string {
	names := make([]string, 0, len(rulesets))
	for n := range rulesets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func (rs *ruleset) questionKeys() []string {
	keys := make([]string, 0, len(rs.questions))
	for k := range rs.questions {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// Parse reads, checks and compiles a scenario. file names it in errors.
// Every problem found is reported, as an ErrorList of *Error with file,
// line and column.
func Parse(file string, src []byte) (*Scenario, error) {
	root, err := parseYAML(file, src)
	if err != nil {
		return nil, err
	}
	d := &decoder{file: file}
	sum := sha256.Sum256(src)
	s := &Scenario{File: file, Source: src, SHA256: hex.EncodeToString(sum[:])}
	rs := rulesetOf(d, root)
	var compile compiler
	var question *node
	fields := []field{
		{key: "name", required: true, decode: func(n *node) {
			s.Name = d.text(n, "the scenario's name")
			if s.Name != "" && !nameRE.MatchString(s.Name) {
				d.errorf(n, "name %q: expected lower-case letters, digits and hyphens, such as my-charge", s.Name)
			}
		}},
		{key: "description", decode: func(n *node) { s.Description = strings.TrimSpace(d.text(n, "a description")) }},
		{key: "ruleset", required: true, decode: func(*node) {}},
		{key: "trials", decode: func(n *node) {
			if v, ok := d.intIn(n, "trials", 1, 1_000_000_000); ok {
				s.Trials = int64(v)
			}
		}},
		{key: "precision", decode: func(n *node) {
			v, err := strconv.ParseFloat(d.text(n, "precision"), 64)
			if err != nil || !(v > 0 && v < 0.5) {
				d.errorf(n, "expected precision as a 95%% half-width between 0 and 0.5, such as 0.005")
				return
			}
			s.Precision = v
		}},
		{key: "max_trials", decode: func(n *node) {
			if v, ok := d.intIn(n, "max_trials", 1, 1_000_000_000); ok {
				s.MaxTrials = int64(v)
			}
		}},
		{key: "seed", decode: func(n *node) {
			v, err := strconv.ParseUint(d.text(n, "seed"), 10, 64)
			if err != nil {
				d.errorf(n, "expected seed as a whole number from 0 to %d", uint64(1<<64-1))
				return
			}
			s.Seed, s.HasSeed = v, true
		}},
	}
	if rs != nil {
		s.Ruleset = rs.name
		for _, key := range rs.questionKeys() {
			decode := rs.questions[key]
			fields = append(fields, field{key: key, decode: func(n *node) {
				if question != nil {
					d.errorf(n, "a scenario asks one question; %q already asks one at line %d", d.path[len(d.path)-1], question.line)
					return
				}
				question = n
				compile = decode(d, n, rs)
			}})
		}
	}
	d.object(root, "the scenario", fields)
	if rs != nil && question == nil && root.kind == mapNode {
		d.errorf(root, "the scenario asks no question; add one of: %s", strings.Join(rs.questionKeys(), ", "))
	}
	d.finishAxes(root)
	if len(d.errs) > 0 {
		return nil, d.errs
	}
	for _, a := range d.axes {
		s.Axes = append(s.Axes, sim.Axis{Name: a.name, Values: a.values})
	}
	compile(d, d.axes, s)
	if len(d.errs) > 0 {
		return nil, d.errs
	}
	return s, nil
}

// rulesetOf reads the ruleset key first, since it decides which questions
// and rules the rest of the file may use.
func rulesetOf(d *decoder, root *node) *ruleset {
	if root.kind != mapNode {
		return nil
	}
	for i, k := range root.keys {
		if k.text != "ruleset" {
			continue
		}
		v := d.text(root.vals[i], "the ruleset")
		if rs, ok := rulesets[v]; ok {
			return rs
		}
		if v != "" {
			d.errorf(root.vals[i], "unknown ruleset %q; expected one of: %s", v, strings.Join(rulesetNames(), ", "))
		}
		return nil
	}
	return nil
}

// Load reads a scenario from a file path or, when no such file exists, from
// the built-in library by name.
func Load(nameOrPath string) (*Scenario, error) {
	src, err := os.ReadFile(nameOrPath)
	if err == nil {
		return Parse(nameOrPath, src)
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if src, ok := Builtin(nameOrPath); ok {
		return Parse("builtin:"+nameOrPath, src)
	}
	return nil, fmt.Errorf("no scenario file or built-in scenario named %q (simulate list shows the built-ins)", nameOrPath)
}
