// Package reports renders results: a sim.Report as terminal tables
// (drawn by the package itself, the same in every environment), JSON, CSV and Markdown, plots (gonum/plot, PNG and SVG),
// and report documents (one self-contained HTML page; a Markdown file with
// its PNG plots in a folder beside it); a sim.Comparison of candidates in
// the same formats, with each pair's difference and a verdict. It never
// rolls a die and knows no game's rules; what to lay out as a grid or plot
// comes from the report's axes and grid hint. The one thing it reads from
// a name is a unit for an axis label: a parameter named distance, range or
// *_range, and the charge_reach metric, are lengths on the table, in inches
// in both rulesets (axisWords).
//
// Output is deterministic: the same report renders to the same bytes.
// Results outputs (tables, JSON, CSV, Markdown) leave out the worker count,
// so they are byte-identical whatever it was; report documents, which
// record a run, show it. Files are written whole or not at all: Files
// prepares each in a temporary file beside its target and renames them all
// into place only once every one is ready (WriteFile for a single file);
// devices and FIFOs are written into, symlinks followed.
//
// It must never import scenarios, cmd or a ruleset (mechanics/fantasy,
// mechanics/heresy): of this project it reads sim's result types, and
// mechanics/dice's where a result carries them (docs/architecture.md).
package reports
