package sim

// Report is the outcome of a scenario run, as every output format shows it.
type Report struct {
	Scenario    string
	Description string
	Version     string
	Seed        uint64
	// Trials is the number of trials asked for per point.
	Trials int64
	// Workers that ran it (results do not depend on it).
	Workers int
	// Partial is set when the run was interrupted; each estimate's Trials
	// says how many trials it rests on.
	Partial bool
	// Completed is the trials each model ran (Run.Completed): an estimate
	// over the trials in which something happened (a combat result, over
	// the trials in which a round was fought) rests on fewer than its
	// point ran, so the points' own counts come from here.
	Completed []int64
	Results   []Estimate
	// Axes lists the swept parameters in the order they vary, outermost
	// first, with their values.
	Axes []Axis
	// Grid, when set, suggests laying a metric out as a table with one
	// parameter down the rows and another across the columns; plots draw it
	// as lines against the rows when they are numbers (one line per column
	// value), as a heatmap when they are names.
	Grid *Grid
	// Stamp says what produced the report and how to reproduce it.
	Stamp Stamp
}

// Stamp identifies a run: what ran, on what, and the command line that
// reproduces its numbers exactly. Results do not depend on Workers, so
// outputs meant to be compared byte for byte (JSON, CSV, tables) leave it
// out; report documents (HTML, Markdown reports) show it.
type Stamp struct {
	Version  string
	Scenario string
	// ScenarioSHA256 is the hex SHA-256 of the scenario file's bytes.
	ScenarioSHA256 string
	Seed           uint64
	// Trials per point that ran (after a precision target, the final count).
	Trials  int64
	Workers int
	// Command reproduces the numbers: simulate run ... --seed S --trials N.
	Command string
	// Precision is the 95% half-width the run aimed at, or 0; PrecisionMet
	// says whether every probability reached it before MaxTrials.
	Precision    float64
	PrecisionMet bool
	MaxTrials    int64
}

// Axis is a swept parameter and its values.
type Axis struct {
	Name   string
	Values []any
	// Names marks values that say what they are without the parameter's
	// name: the names of swept units ("Doomwheel"), where a number, a
	// switch or a word of a rule ("3+", "wap") needs it ("save=3+").
	Names bool
}

// Grid names the metric and the two parameters of a two-way layout.
type Grid struct {
	Metric     string
	Rows, Cols string
}
