package reports

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"hammersim/sim"
)

// WriteMarkdownReport writes a Markdown report document to path (out.md)
// and its plots as PNG files in a folder beside it named after it,
// out_plots/ (out_plots/charge_success.png, ...), which the document links
// to by relative paths; the two travel together. The document holds the
// title and description, the stamp with the worker count, a banner when
// the results are partial, the grid metric as grids and the other metrics
// as tables with exact values and z, the plots, and the scenario file
// (scenarioSource, left out when empty) in a fenced block.
//
// Every file is written whole or not at all, the plots first, so the
// document never links to a plot that is missing; plots an earlier run
// left in the folder are not removed. It returns the files written, the
// document last.
func WriteMarkdownReport(path string, r *sim.Report, scenarioSource []byte) ([]string, error) {
	var files Files
	written, err := StageMarkdownReport(&files, path, r, scenarioSource)
	if err != nil {
		files.Discard()
		return nil, err
	}
	return written, files.Commit()
}

// StageMarkdownReport is WriteMarkdownReport preparing its files in files,
// which the caller commits with its other outputs.
func StageMarkdownReport(files *Files, path string, r *sim.Report, scenarioSource []byte) ([]string, error) {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	plotDir := base + "_plots"
	figs, notes, err := reportFigures(r, files.check)
	if err != nil {
		return nil, err
	}
	var out Plots
	if err := saveAll(files, filepath.Join(filepath.Dir(path), plotDir), figs, []string{"png"}, &out); err != nil {
		return nil, err
	}
	err = files.Add(path, func(w io.Writer) error {
		return writeMarkdownReport(w, r, scenarioSource, plotDir, figs, notes)
	})
	if err != nil {
		return nil, err
	}
	return append(out.Files, path), nil
}

// writeMarkdownGrids writes the report's grid metric, when it has one, as
// Markdown grids (rows by columns, a heading each), and returns the other
// estimates.
func writeMarkdownGrids(w io.Writer, r *sim.Report) []sim.Estimate {
	g := r.Grid
	if g == nil {
		return r.Results
	}
	ss, rest := gridSlices(r, g)
	rows, cols := axisValues(r, g.Rows), axisValues(r, g.Cols)
	for _, s := range ss {
		fmt.Fprintf(w, "\n## %s\n\n", mdText(gridTitle(g, s)))
		corner, names := gridHeader(g, cols)
		at := s.cells(g)
		var lines [][]string
		for _, rv := range rows {
			line := []string{paramString(rv)}
			for _, cv := range cols {
				e, ok := at(rv, cv)
				line = append(line, gridNumber(e, ok))
			}
			lines = append(lines, line)
		}
		mdTable(w, append([]string{corner}, names...), alignment(1, len(cols), 0), lines)
		for _, n := range gridNotes(g, s, lines, cols) {
			fmt.Fprintf(w, "\n%s\n", mdText(n))
		}
	}
	return rest
}

func writeMarkdownReport(w io.Writer, r *sim.Report, src []byte, plotDir string, figs []namedFigure, notes []string) error {
	ew := &ErrWriter{W: w}
	title := r.Scenario
	if title == "" {
		title = "hammersim report"
	}
	fmt.Fprintf(ew, "# %s\n\n", mdText(title))
	if r.Description != "" {
		fmt.Fprintf(ew, "%s\n\n", mdParagraph(r.Description))
	}
	if r.Partial {
		fmt.Fprintf(ew, "> **%s**\n\n", mdText(partialLine(r)))
	}
	fmt.Fprintf(ew, "## Run\n\n")
	for _, f := range reportStamp(r) {
		v := mdText(f.Value)
		switch {
		case f.Code:
			v = mdCode(f.Value)
		case f.Warn:
			v = "**" + v + "**"
		}
		fmt.Fprintf(ew, "- %s: %s\n", mdText(f.Name), v)
	}

	rest := writeMarkdownGrids(ew, r)
	for _, metric := range metrics(r, rest) {
		if ew.Err != nil {
			return ew.Err // a write failed or was stopped: no more tables
		}
		writeMarkdownLong(ew, metric, rest)
		var es []sim.Estimate
		for _, e := range rest {
			if e.Metric == metric {
				es = append(es, e)
			}
		}
		fmt.Fprintf(ew, "\n%s\n", mdText(ciNote(es)))
		for _, t := range atLeastTables(metric, rest, r.Axes) {
			writeMarkdownPlain(ew, t)
		}
	}
	if len(figs) > 0 || len(notes) > 0 {
		fmt.Fprintf(ew, "\n## Plots\n")
		for _, f := range figs {
			link := url.PathEscape(plotDir) + "/" + url.PathEscape(f.name+".png")
			fmt.Fprintf(ew, "\n![%s](%s)\n", mdText(f.caption), link)
		}
		for _, n := range notes {
			fmt.Fprintf(ew, "\nNote: %s\n", mdText(n))
		}
	}
	if len(src) > 0 {
		fence := codeFence(string(src))
		fmt.Fprintf(ew, "\n## Scenario\n\n%syaml\n%s", fence, src)
		if !strings.HasSuffix(string(src), "\n") {
			fmt.Fprintln(ew)
		}
		fmt.Fprintf(ew, "%s\n", fence)
	}
	return ew.Err
}

// codeFence is a backtick fence longer than any run of backticks in s, at
// least three.
func codeFence(s string) string {
	return strings.Repeat("`", max(3, longestBackticks(s)+1))
}

// longestBackticks is the length of the longest run of backticks in s.
func longestBackticks(s string) int {
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}
