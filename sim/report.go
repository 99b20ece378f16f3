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
	Results []Estimate
	// Axes lists the swept parameters in the order they vary, outermost
	// first, with their values.
	Axes []Axis
	// Grid, when set, suggests laying a probability metric out as a table
	// with one parameter down the rows and another across the columns, and
	// plotting it with Rows on the x axis and one line per column value.
	Grid *Grid
}

// Axis is a swept parameter and its values.
type Axis struct {
	Name   string
	Values []any
}

// Grid names the metric and the two parameters of a two-way layout.
type Grid struct {
	Metric     string
	Rows, Cols string
}
