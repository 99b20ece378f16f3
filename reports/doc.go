// Package reports renders a sim.Report: terminal tables (tablewriter), JSON,
// CSV and Markdown, and plots (gonum/plot) as PNG and SVG. It never rolls a
// die and knows no game; what to lay out as a grid or plot comes from the
// report's axes and grid hint.
//
// Output is deterministic: the same report renders to the same bytes. Files
// are written whole or not at all (WriteFile writes a temporary file beside
// the target and renames it into place).
package reports
