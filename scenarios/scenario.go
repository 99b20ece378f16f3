package scenarios

import (
	"context"
	"errors"
	"fmt"
	"maps"
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
	// Acting is the key of the unit that acts in the scenario's question
	// (a battle's attacker, a shooting's firer; Ruleset.Acting), "" when
	// its ruleset names none.
	Acting string
	// File is where the scenario came from: a path, or "builtin:NAME".
	File string
	// FromFile says that the scenario is the file File names, not a
	// built-in: Load read it from there, or a caller given its text knows
	// it stands for that file. Only the names of reproduce lines read it.
	FromFile bool
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
	// keyAt is where trials, max_trials and precision are written, by key
	// (KeyPlace, KeyError).
	keyAt map[string]Error
	// Catalogues are the unit catalogue files the scenario read, in the
	// order it read them: inputs of a run as much as the file is.
	Catalogues []Catalogue
	// SHA256 identifies the inputs, for report stamps: the hex SHA-256 of
	// Source, or, when the scenario read unit catalogues, the hex SHA-256
	// of the lines that give the hex SHA-256 of Source and of each
	// catalogue in order (inputsSHA256).
	SHA256 string

	// Models are what the engine runs, one per combination of the swept
	// values that change a trial.
	Models []sim.Model
	// Axes are the swept parameters, outermost first.
	Axes []sim.Axis
	// Grid suggests a two-way layout for tables and plots, or nil.
	Grid *sim.Grid

	results func(run sim.Run) []sim.Estimate
	// axes are the decoder's, which results walks (ResultsUntil stops it).
	axes Axes
	// metrics are every metric the question reports; selected, when set,
	// those chosen; idle those left out unless chosen; absent those the
	// question would report given what they need (see metrics.go).
	metrics, selected, idle []string
	absent                  map[string]string
	// units are the names of the unit cards the question holds.
	units []string
	// places are where the scenario looked for unit catalogues
	// (CataloguePlaces).
	places []CataloguePlace
}

// Results reads the estimates of every point of the scenario from a run of
// its Models.
func (s *Scenario) Results(run sim.Run) []sim.Estimate { return s.kept(s.results(run)) }

// ResultsUntil is Results, cut short once stop reports true, which it then
// reports as false: a large sweep's results take a second or more to read,
// and a comparison reads them for every batch of trials before it runs.
// It must not be called from two goroutines at once.
func (s *Scenario) ResultsUntil(run sim.Run, stop func() bool) ([]sim.Estimate, bool) {
	if len(s.axes) > 0 {
		s.axes[0].stop = stop
		defer func() { s.axes[0].stop = nil }()
	}
	es := s.Results(run)
	return es, !stop()
}

// Report gathers a run into the report every output format shows, with
// the stamp filled in but for the command line, which the caller knows.
// Gathering a large sweep takes seconds: once stop (when not nil) reports
// true, Report gives up and reports false. It must not be called from two
// goroutines at once.
func (s *Scenario) Report(run sim.Run, cfg sim.Config, version string, stop func() bool) (sim.Report, bool) {
	var results []sim.Estimate
	if stop == nil {
		results = s.Results(run)
	} else if es, whole := s.ResultsUntil(run, stop); whole {
		results = es
	} else {
		return sim.Report{}, false
	}
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
		Completed:   run.Completed,
		Results:     results,
		Axes:        s.Axes,
		Grid:        s.Grid,
	}, true
}

// Ruleset is the vocabulary one game brings to scenario files: the rules
// its units may carry and the questions a scenario may ask. Each ruleset's
// package under scenarios/ builds one; the program hands the list to
// NewRegistry.
type Ruleset struct {
	// Name is what a scenario's ruleset key says, "fantasy".
	Name string
	// Title names the game in messages, "Warhammer Fantasy".
	Title string
	// ProfileExample is a one-line profile of the ruleset's units, for the
	// messages that ask for one, "M5 WS3 S3 T3 W1 I4 A1 Ld5".
	ProfileExample string
	// Catalogue is the special rules a unit or weapon may list.
	Catalogue mechanics.Catalogue
	// Repeatable names the rules a list may hold more than once (one entry
	// per source, such as two sets of Impact Hits).
	Repeatable []string
	// Questions maps each question's key in a scenario to its decoder. A
	// question's metrics key is read for it (see metrics.go): the decoder
	// never sees one.
	Questions map[string]Question
	// UnitPlaces names, for each question, the keys that hold a unit (or
	// a list of units to sweep): only there does use take a card, and a
	// use written elsewhere (options, a crew profile) is left to the
	// question, which refuses it as a key it does not know. A question it
	// does not name takes a card wherever a mapping writes use.
	UnitPlaces map[string][]string
	// Acting names, for each question, the key of the unit that acts (it
	// charges, shoots or attacks): the parameter a comparison of one
	// scenario's values splits by unless told another (Scenario.Acting).
	Acting map[string]string
	// Card decodes a unit card on its own, as the ruleset's questions read
	// a unit, accepting every key some question may read, and reports
	// problems through d (Registry.CheckCards). Nil: cards are checked
	// only where a scenario uses them.
	Card func(d *Decoder, n *Node)
	// CardNotes says, in lines of prose, what a unit card (its mapping)
	// has without writing it, such as the rules its troop type gives;
	// `simulate units show` prints them beside the card. Nil: nothing.
	CardNotes func(n *Node) []string
}

// Question decodes a question's mapping, reporting problems through d, and
// returns what compiles it once every axis of the scenario is known.
type Question func(d *Decoder, n *Node) Compile

// Compile finishes a decoded question over the scenario's axes. It is only
// called when decoding found no error; a problem it finds it reports
// through d, and the scenario fails to load.
type Compile func(d *Decoder, axes Axes) Compiled

// Compiled is a question ready to run.
type Compiled struct {
	// Models are what the engine runs, one per combination of the swept
	// values that change a trial.
	Models []sim.Model
	// Grid suggests a two-way layout for tables and plots, or nil.
	Grid *sim.Grid
	// Results reads the estimates of every point from a run of Models.
	Results func(run sim.Run) []sim.Estimate
	// Idle names metrics that cannot be non-zero in this scenario (wounds
	// on a friendly unit when none is near): they are left out unless
	// chosen with a metrics key or --metrics.
	Idle []string
	// Absent names metrics the question reports where a scenario gives
	// what they need, and says what that is ("points on the attacker"): a
	// metrics key or --metrics that asks for one here is told so.
	Absent map[string]string
}

func (rs *Ruleset) questionKeys() []string {
	return slices.Sorted(maps.Keys(rs.Questions))
}

// Registry holds the rulesets a program reads scenarios in. It is
// read-only once made, and safe for concurrent use.
type Registry struct {
	rulesets map[string]*Ruleset
	// files says where scenarios read their own unit catalogues from: the
	// file system, unless WithoutFiles or WithCatalogues made r.
	files catalogueFiles
	// maxPoints, when set, bounds a sweep below MaxPoints, and pointsWhy
	// says in the error where that bound comes from (WithMaxPoints).
	maxPoints int
	pointsWhy string
}

// WithoutFiles returns a registry of r's rulesets that reads no file: a
// scenario it parses may use the built-in unit cards only, a units key is
// an error, the file name Parse is given only labels errors, and Load
// finds built-in scenarios only. A server that parses the scenarios its
// clients send uses it.
func (r *Registry) WithoutFiles() *Registry {
	return &Registry{rulesets: r.rulesets, files: catalogueFiles{sealed: true}, maxPoints: r.maxPoints, pointsWhy: r.pointsWhy}
}

// WithMaxPoints returns a registry like r whose scenarios may sweep at
// most n points (n below MaxPoints lowers the bound; above, it changes
// nothing). A scenario over it is refused before it is compiled, which is
// where its cost grows with its points; the error ends with why, in
// parentheses, such as the flag that sets n. A server that parses the
// scenarios its clients send uses it.
func (r *Registry) WithMaxPoints(n int, why string) *Registry {
	c := *r
	c.maxPoints, c.pointsWhy = n, why
	return &c
}

// WithCatalogues returns a registry of r's rulesets whose scenarios read
// the unit catalogues cs, in order, where they would read their own
// catalogues from the file system: those a run recorded (Scenario.
// Catalogues), to rebuild its scenario anywhere. A units key is read but
// names no file.
func (r *Registry) WithCatalogues(cs []Catalogue) *Registry {
	return &Registry{rulesets: r.rulesets, files: catalogueFiles{recorded: true, catalogues: cs}}
}

// KeyPlace is where the scenario writes key, one of trials, max_trials
// and precision, as FILE:LINE:COL; "" where it does not.
func (s *Scenario) KeyPlace(key string) string {
	e, ok := s.keyAt[key]
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
}

// KeyError is a problem with the scenario's key, one of trials,
// max_trials and precision, that a caller finds once the file is read (a
// flag it meets, what the run reports): an *Error at the key, as a
// problem found while reading it is, or an error naming the scenario's
// file where the key is not written.
func (s *Scenario) KeyError(key, msg string) error {
	if e, ok := s.keyAt[key]; ok {
		e.Msg = msg
		return &e
	}
	return fmt.Errorf("%s: %s", s.File, msg)
}

// NewRegistry makes a registry of the given rulesets. Two rulesets of one
// name are a programming error, and panic.
func NewRegistry(rulesets ...*Ruleset) *Registry {
	r := &Registry{rulesets: map[string]*Ruleset{}}
	for _, rs := range rulesets {
		if _, dup := r.rulesets[rs.Name]; dup {
			panic("scenarios: ruleset " + rs.Name + " registered twice")
		}
		r.rulesets[rs.Name] = rs
	}
	return r
}

// Names lists the rulesets' names in alphabetical order.
func (r *Registry) Names() []string {
	return slices.Sorted(maps.Keys(r.rulesets))
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// Parse reads, checks and compiles a scenario. file names it in errors.
// Every problem found is reported, as an ErrorList of *Error with file,
// line and column.
func (r *Registry) Parse(file string, src []byte) (*Scenario, error) {
	return r.ParseContext(context.Background(), file, src)
}

// ErrStopped is the error of a scenario whose reading was stopped by its
// context: a large sweep builds a model at each of its points, which can
// take seconds.
var ErrStopped = errors.New("stopped while the scenario was read")

// ParseContext is Parse, stopped (with ErrStopped) soon after ctx is done.
func (r *Registry) ParseContext(ctx context.Context, file string, src []byte) (*Scenario, error) {
	root, err := parseYAML(file, src, scenarioYAML)
	if err != nil {
		return nil, err
	}
	d := &Decoder{file: file, registry: r, ctx: ctx}
	s := &Scenario{File: file, Source: src, keyAt: map[string]Error{}}
	rs := r.rulesetOf(d, root)
	d.ruleset = rs
	s.units = expandUnits(d, root, rs)
	if d.Stopped() {
		return nil, ErrStopped // the uses of cards, left half read
	}
	s.Catalogues, s.places = d.catalogues, d.places
	s.SHA256 = inputsSHA256(src, d.catalogues)
	var compile Compile
	var question, metricsKey *Node
	fields := headerFields(d, s)
	if rs != nil {
		s.Ruleset = rs.Name
		for _, key := range rs.questionKeys() {
			decode := rs.Questions[key]
			fields = append(fields, Field{Key: key, Decode: func(n *Node) {
				// question is the key that asks, where errors about asking
				// point: the value holds the question's own keys.
				k := root.Keys[slices.Index(root.Vals, n)]
				if question != nil {
					d.Errorf(k, "%q: a scenario asks one question; %q already asks one at line %d", k.Text, question.Text, question.Line)
					return
				}
				question = k
				s.Acting = rs.Acting[key]
				n, metricsKey = splitMetrics(n)
				d.question = n
				compile = decode(d, n)
			}})
		}
	} else {
		fields = append(fields, r.unreadQuestions()...)
	}
	d.Object(root, "the scenario", fields)
	if rs != nil && question == nil && root.Kind == MapNode {
		d.Expecting(root, "the scenario asks no question", "add one of: "+strings.Join(rs.questionKeys(), ", "))
	}
	d.finishAxes(root)
	if len(d.errs) > 0 {
		return nil, d.errs
	}
	for _, a := range d.axes {
		s.Axes = append(s.Axes, sim.Axis{Name: a.Name, Values: a.Values, Names: a.names})
	}
	if len(d.axes) > 0 {
		// Only while it is read: the results of a run stopped later are
		// still written, point by point.
		d.axes[0].stop = d.Stopped
		defer func() { d.axes[0].stop = nil }()
	}
	c := compile(d, d.axes)
	if d.Stopped() {
		return nil, ErrStopped
	}
	if len(d.errs) > 0 {
		return nil, d.errs
	}
	s.Models, s.Grid, s.results, s.axes = c.Models, c.Grid, c.Results, d.axes
	s.metrics, s.idle, s.absent = metricNames(c, d.axes), c.Idle, c.Absent
	if d.Stopped() {
		return nil, ErrStopped
	}
	if metricsKey != nil {
		s.selected = d.decodeMetrics(metricsKey, s.metrics, s.absent)
		if len(d.errs) > 0 {
			return nil, d.errs
		}
	}
	return s, nil
}

// inputsSHA256 is the hex SHA-256 of a scenario's text src with the unit
// catalogues it read (sim.InputsSHA256).
func inputsSHA256(src []byte, cats []Catalogue) string {
	texts := make([][]byte, len(cats))
	for i, c := range cats {
		texts[i] = c.Source
	}
	return sim.InputsSHA256(src, texts...)
}

// unreadQuestions are the question keys of every registered ruleset, for a
// scenario whose ruleset is missing or unknown: its question cannot be read
// without the ruleset, and the error about the ruleset already says what
// is wrong, so the question's key is not called unknown too.
func (r *Registry) unreadQuestions() []Field {
	var keys []string
	for _, rs := range r.rulesets {
		keys = append(keys, rs.questionKeys()...)
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	fields := make([]Field, len(keys))
	for i, k := range keys {
		fields[i] = Field{Key: k, Decode: func(*Node) {}}
	}
	return fields
}

// rulesetOf reads the ruleset key first, since it decides which questions
// and rules the rest of the file may use.
func (r *Registry) rulesetOf(d *Decoder, root *Node) *Ruleset {
	if root.Kind != MapNode {
		return nil
	}
	for i, k := range root.Keys {
		if k.Text != "ruleset" {
			continue
		}
		v := d.Text(root.Vals[i], "the ruleset")
		if rs, ok := r.rulesets[v]; ok {
			return rs
		}
		if v != "" {
			d.Expecting(root.Vals[i], "unknown ruleset "+Excerpt(v), "expected one of: "+strings.Join(r.Names(), ", "))
		}
		return nil
	}
	return nil
}

// Load reads a scenario from a file path or, when no such file exists, from
// the built-in library by name.
func (r *Registry) Load(nameOrPath string) (*Scenario, error) {
	return r.LoadContext(context.Background(), nameOrPath)
}

// LoadContext is Load, stopped (with ErrStopped) soon after ctx is done.
func (r *Registry) LoadContext(ctx context.Context, nameOrPath string) (*Scenario, error) {
	if r.files.sealed {
		if src, ok := Builtin(nameOrPath); ok {
			return r.ParseContext(ctx, "builtin:"+nameOrPath, src)
		}
		return nil, fmt.Errorf("no built-in scenario named %q (simulate list shows them)", nameOrPath)
	}
	src, err := readLimited(nameOrPath)
	if err == nil {
		s, err := r.ParseContext(ctx, nameOrPath, src)
		if s != nil {
			s.FromFile = true
		}
		return s, err
	}
	if fi, serr := os.Stat(nameOrPath); serr == nil && fi.IsDir() {
		if _, ok := Builtin(nameOrPath); ok {
			return nil, fmt.Errorf("%s is a folder here, which hides the built-in scenario of that name: a name is read as a file or folder first; rename the folder, or run the built-in from another folder", nameOrPath)
		}
		return nil, fmt.Errorf("%s is a folder; expected a scenario file (YAML) or a built-in scenario's name", nameOrPath)
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if src, ok := Builtin(nameOrPath); ok {
		return r.ParseContext(ctx, "builtin:"+nameOrPath, src)
	}
	return nil, fmt.Errorf("no scenario file or built-in scenario named %q (simulate list shows the built-ins)", nameOrPath)
}

// headerFields are the keys every scenario may have, whatever its ruleset.
func headerFields(d *Decoder, s *Scenario) []Field {
	// A precision run's first round is the trials key's, and max_trials
	// caps its total: a cap below the first round would cut it short, so
	// in a scenario with its own precision target it is refused at
	// max_trials, whichever of the three keys comes last. Without one the
	// two keys meet only in a run given --precision, which checks them.
	var trialsAt, maxTrialsAt, precisionAt *Node
	rounds := func() {
		if trialsAt != nil && maxTrialsAt != nil && precisionAt != nil && s.MaxTrials < s.Trials {
			d.Errorf(maxTrialsAt, "max_trials %d is below trials %d (line %d): a precision run starts with a round of trials and never runs more than max_trials; give max_trials at least %d, or fewer trials",
				s.MaxTrials, s.Trials, trialsAt.Line, s.Trials)
		}
	}
	return []Field{
		{Key: "name", Required: true, Decode: func(n *Node) {
			s.Name = d.Name(n, "the scenario's name")
			if s.Name != "" && !nameRE.MatchString(s.Name) {
				d.Errorf(n, "name %s: expected lower-case letters, digits and hyphens, such as my-charge", Excerpt(s.Name))
			}
		}},
		{Key: "description", Decode: func(n *Node) {
			s.Description = strings.TrimSpace(d.Text(n, "a description"))
			d.printable(n, "the description", s.Description)
		}},
		{Key: "ruleset", Required: true, Decode: func(*Node) {}},
		{Key: "units", Decode: func(n *Node) { // read with the ruleset: catalogue.go
			switch {
			case d.registry != nil && d.registry.files.sealed:
				d.Errorf(n, "this server reads no files, so a scenario sent to it cannot name unit catalogues; "+
					"use the built-in cards ({use: NAME}; simulate units lists them) or write the units out in the scenario")
			case d.registry == nil || !d.registry.files.recorded:
				d.unitsFiles(n, d.scenarioDir()) // its paths must exist, used or not
			}
		}},
		{Key: "trials", Decode: func(n *Node) {
			if v, ok := d.trialsIn(n, "trials", sim.MaxTrials); ok {
				s.Trials, trialsAt = v, n
				s.keyAt["trials"] = d.at(n)
				rounds()
			}
		}},
		{Key: "precision", Decode: func(n *Node) {
			v, err := strconv.ParseFloat(d.Text(n, "precision"), 64)
			if err != nil || !(v > 0 && v < 0.5) {
				d.Errorf(n, "expected precision as a 95%% half-width between 0 and 0.5, such as 0.005")
				return
			}
			s.Precision, precisionAt = v, n
			s.keyAt["precision"] = d.at(n)
			rounds()
		}},
		{Key: "max_trials", Decode: func(n *Node) {
			if v, ok := d.trialsIn(n, "max_trials", sim.MaxTrials); ok {
				s.MaxTrials, maxTrialsAt = v, n
				s.keyAt["max_trials"] = d.at(n)
				rounds()
			}
		}},
		{Key: "seed", Decode: func(n *Node) {
			text, ok := d.Scalar(n, "seed")
			if !ok {
				return
			}
			v, err := strconv.ParseUint(text, 10, 64)
			if err != nil {
				d.Errorf(n, "expected seed as a whole number from 0 to %d, found %s", uint64(1<<64-1), Excerpt(text))
				return
			}
			s.Seed, s.HasSeed = v, true
		}},
	}
}
