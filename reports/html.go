package reports

import (
	"bufio"
	"bytes"
	"fmt"
	"html"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"hammersim/sim"
)

// The HTML documents are single files that open anywhere, offline: the
// style sheet is inline, the plots are inline SVG rendered from the same
// figures WritePlots saves, and nothing is fetched. html/template escapes
// every name and number; the same report gives the same bytes.

// htmlDoc is what the page template lays out.
type htmlDoc struct {
	Title       string
	Description string
	Partial     string
	Stamp       []htmlField
	Sections    []htmlSection
	Plots       []htmlPlot
	PlotNotes   []string
	Sources     []htmlSource
	Footer      string
}

// htmlField is one line of the stamp; Code sets it in monospace.
type htmlField struct {
	Name, Value string
	Code        bool
	Warn        bool
}

// htmlSection is a heading with its tables.
type htmlSection struct {
	Heading string
	Tables  []htmlTable
}

type htmlTable struct {
	Caption string
	// Corner, when set, heads the first column of a grid whose first
	// cells are row headings.
	Corner string
	Head   []htmlCell
	Rows   [][]htmlCell
	Notes  []string
}

// htmlCell is a table cell: its text, smaller lines under it, and a class
// ("l" for left-aligned text, "warn", "win", "even" and so on).
type htmlCell struct {
	Text  string
	Sub   []string
	Class string
	Head  bool
}

type htmlPlot struct {
	Caption string
	SVG     template.HTML
}

type htmlSource struct {
	Name string
	Text string
	Open bool
}

var htmlPage = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", sans-serif; color: #1f2328; background: #fff; margin: 0 auto; max-width: 68rem; padding: 1.5rem 2rem 3rem; line-height: 1.45; }
h1 { font-size: 1.7rem; margin: 0 0 .3rem; }
h2 { font-size: 1.3rem; margin: 2rem 0 .6rem; border-bottom: 1px solid #d0d7de; padding-bottom: .2rem; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
p.description { margin: 0 0 1rem; color: #444; }
.partial { background: #fff1e5; border: 2px solid #d1242f; color: #8a1219; font-weight: 600; padding: .7rem 1rem; margin: 1rem 0; border-radius: 4px; }
table { border-collapse: collapse; margin: .4rem 0 .3rem; font-size: .92rem; }
.wide { overflow-x: auto; }
caption { text-align: left; font-weight: 600; padding: .2rem 0 .4rem; }
th, td { border: 1px solid #d0d7de; padding: .3rem .6rem; text-align: right; vertical-align: top; font-variant-numeric: tabular-nums; }
th { background: #f3f5f7; }
.l { text-align: left; }
td .sub { display: block; font-size: .78rem; color: #57606a; white-space: nowrap; }
table.stamp th { text-align: left; font-weight: 600; white-space: nowrap; }
table.stamp td { text-align: left; }
code, pre { font-family: ui-monospace, "SFMono-Regular", "Liberation Mono", Menlo, monospace; font-size: .85rem; }
td code { overflow-wrap: anywhere; }
.warn { color: #b35900; font-weight: 600; }
.win { color: #1a7f37; font-weight: 600; }
.even { color: #57606a; }
p.note { font-size: .85rem; color: #57606a; margin: .2rem 0 .8rem; }
figure { margin: 1rem 0 1.5rem; }
figure svg { width: 100%; max-width: 46rem; height: auto; display: block; }
figcaption { font-size: .85rem; color: #57606a; }
pre { background: #f6f8fa; border: 1px solid #d0d7de; padding: .8rem 1rem; overflow-x: auto; line-height: 1.35; }
details summary { cursor: pointer; font-weight: 600; margin: .6rem 0; }
footer { margin-top: 2.5rem; font-size: .8rem; color: #57606a; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{with .Description}}<p class="description">{{.}}</p>
{{end}}{{with .Partial}}<div class="partial" role="alert">{{.}}</div>
{{end}}<table class="stamp">
<caption>Run</caption>
{{range .Stamp}}<tr><th>{{.Name}}</th><td{{if .Warn}} class="warn"{{end}}>{{if .Code}}<code>{{.Value}}</code>{{else}}{{.Value}}{{end}}</td></tr>
{{end}}</table>
{{range .Sections}}<h2>{{.Heading}}</h2>
{{range .Tables}}<div class="wide"><table>
{{with .Caption}}<caption>{{.}}</caption>
{{end}}<thead><tr>{{with .Corner}}<th class="l">{{.}}</th>{{end}}{{range .Head}}<th{{with .Class}} class="{{.}}"{{end}}>{{.Text}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr>{{range .}}{{if .Head}}<th class="l">{{.Text}}</th>{{else}}<td{{with .Class}} class="{{.}}"{{end}}>{{.Text}}{{range .Sub}}<span class="sub">{{.}}</span>{{end}}</td>{{end}}{{end}}</tr>
{{end}}</tbody>
</table></div>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{end}}{{end}}{{if or .Plots .PlotNotes}}<h2>Plots</h2>
{{range .Plots}}<figure>
{{.SVG}}
<figcaption>{{.Caption}}</figcaption>
</figure>
{{end}}{{range .PlotNotes}}<p class="note">Note: {{.}}</p>
{{end}}{{end}}{{with .Sources}}<h2>Scenario</h2>
{{range .}}{{if .Open}}<h3>{{.Name}}</h3>
<pre>{{.Text}}</pre>
{{else}}<details><summary>{{.Name}}</summary>
<pre>{{.Text}}</pre>
</details>
{{end}}{{end}}{{end}}<footer>{{.Footer}}</footer>
</body>
</html>
`))

// WriteHTML writes the report as one self-contained HTML page: the title
// and description, the stamp (with the worker count, as this is a record
// of the run), a banner when the results are partial, the grid metric as
// grids and every other metric as a table with the exact value and z beside
// each estimate, the plots as inline SVG, and the scenario file as given
// (scenarioSource, left out when empty).
func WriteHTML(w io.Writer, r *sim.Report, scenarioSource []byte) error {
	doc := htmlDoc{
		Title:       r.Scenario,
		Description: r.Description,
		Stamp:       reportStamp(r),
		Footer:      "The same scenario, seed and trials give the same results whatever the worker count.",
	}
	if r.Version != "" {
		doc.Footer = "hammersim " + r.Version + ". " + doc.Footer
	}
	if doc.Title == "" {
		doc.Title = "hammersim report"
	}
	if r.Partial {
		doc.Partial = partialLine(r)
	}
	rest := r.Results
	if g := r.Grid; g != nil {
		var ss []slice
		ss, rest = gridSlices(r, g)
		if len(ss) > 0 {
			sec := htmlSection{Heading: heading(g.Metric, metricTitle(g.Metric, ss[0].estimates), ss[0].estimates[0].Kind.String())}
			for _, s := range ss {
				sec.Tables = append(sec.Tables, htmlGrid(r, g, s))
			}
			doc.Sections = append(doc.Sections, sec)
		}
	}
	stop := stopOf(w)
	for _, metric := range metrics(r, rest) {
		if err := stop(); err != nil {
			return err
		}
		sec, err := htmlLong(metric, rest, stop)
		if err != nil {
			return err
		}
		for _, t := range atLeastTables(metric, rest, r.Axes) {
			sec.Tables = append(sec.Tables, htmlPlain(t))
		}
		doc.Sections = append(doc.Sections, sec)
	}
	figs, notes, err := reportFigures(r, stop)
	if err != nil {
		return err
	}
	if doc.Plots, err = inlinePlots(figs, stop); err != nil {
		return err
	}
	doc.PlotNotes = notes
	if len(scenarioSource) > 0 {
		name := r.Scenario
		if r.Stamp.Scenario != "" {
			name = r.Stamp.Scenario
		}
		doc.Sources = []htmlSource{{Name: name, Text: string(scenarioSource), Open: true}}
	}
	return writePage(w, doc)
}

// WriteComparisonHTML writes a comparison as one self-contained HTML page:
// the candidates, the stamp (with the worker count), for each metric the
// candidates' estimates and each pair's difference with its verdict, the
// plots as inline SVG, and the scenario files of sources (by name, in name
// order; none when sources is empty).
func WriteComparisonHTML(w io.Writer, c *sim.Comparison, st sim.Stamp, sources map[string][]byte) error {
	doc := htmlDoc{
		Title:  "Comparison of " + joinNames(c.Candidates),
		Stamp:  stampFields(st, 0, c.Partial),
		Footer: fmt.Sprintf("A difference is called clear at %s one-sided confidence, where its 95%% interval leaves out 0.", confidence(ClearConfidence)),
	}
	if st.Version != "" {
		doc.Footer = "hammersim " + st.Version + ". " + doc.Footer
	}
	if c.Partial {
		doc.Partial = comparisonPartialLine(c, st)
	}
	for _, m := range byMetric(c) {
		sec := htmlSection{Heading: heading(m.metric, comparedTitle(m.metric, c), m.kind.String())}
		est := htmlTable{Caption: "Estimates with 95% intervals", Head: heads(append(slices.Clone(m.params), c.Candidates...), len(m.params))}
		if anyExact(m) {
			est.Caption += " and exact values"
		}
		dh := heads(append(slices.Clone(m.params), "pair", "difference", "95% CI", "verdict"), len(m.params)+1)
		dh[len(dh)-1].Class = "l"
		diffs := htmlTable{Caption: "Differences", Head: dh, Notes: comparisonNotes(c, m, c.Candidates)}
		withExact := anyExact(m)
		for _, row := range m.rows {
			params := paramCells(row, m.params)
			var line []htmlCell
			for _, p := range params {
				line = append(line, htmlCell{Text: p, Class: "l"})
			}
			for _, e := range row.Estimates {
				cell := htmlCell{Text: number(e.Kind, e.Value)}
				if e.Trials > 0 && !math.IsNaN(e.CI95[0]) {
					cell.Sub = append(cell.Sub, "["+bare(e.Kind, e.CI95[0])+", "+bare(e.Kind, e.CI95[1])+"]")
				}
				if withExact && !absent(e) {
					cell.Sub = append(cell.Sub, exactZ(e))
				}
				cell.Sub = append(cell.Sub, GroupThousands(e.Trials)+" trials")
				line = append(line, cell)
			}
			est.Rows = append(est.Rows, line)
			for _, d := range row.Diffs {
				var dl []htmlCell
				for _, p := range params {
					dl = append(dl, htmlCell{Text: p, Class: "l"})
				}
				class := "l even"
				if winner(d) >= 0 {
					class = "l win"
				}
				dl = append(dl, htmlCell{Text: pairName(d, c.Candidates), Class: "l"},
					htmlCell{Text: diffString(m.kind, d)}, htmlCell{Text: diffCI(m.kind, d)},
					htmlCell{Text: verdict(d, row, c.Candidates), Class: class})
				diffs.Rows = append(diffs.Rows, dl)
			}
		}
		sec.Tables = []htmlTable{est, diffs}
		doc.Sections = append(doc.Sections, sec)
	}
	stop := stopOf(w)
	figs, notes, err := comparisonFigures(c, stop)
	if err != nil {
		return err
	}
	if doc.Plots, err = inlinePlots(figs, stop); err != nil {
		return err
	}
	doc.PlotNotes = notes
	names := make([]string, 0, len(sources))
	for n := range sources {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		doc.Sources = append(doc.Sources, htmlSource{Name: n, Text: string(sources[n]), Open: len(names) == 1})
	}
	return writePage(w, doc)
}

// writePage writes the page as the template makes it, spillSize bytes at
// a time (a stop is seen within a large page: stopWriter).
func writePage(w io.Writer, doc htmlDoc) error {
	bw := bufio.NewWriterSize(w, spillSize)
	if err := htmlPage.Execute(bw, doc); err != nil {
		return err
	}
	return bw.Flush()
}

// reportStamp is the run's record for a report document: the report's own
// fields, then whatever its stamp adds.
func reportStamp(r *sim.Report) []htmlField {
	st := r.Stamp
	if st.Scenario == "" {
		st.Scenario = r.Scenario
	}
	if st.Version == "" {
		st.Version = r.Version
	}
	if st.Seed == 0 {
		st.Seed = r.Seed
	}
	if st.Trials == 0 {
		st.Trials = r.Trials
	}
	return stampFields(st, r.Workers, r.Partial)
}

// stampFields lays a stamp out as named lines; workers stands in when the
// stamp has no worker count. The stamp keeps the trials asked for, which
// an interrupted (partial) run's results do not rest on: its line says so.
func stampFields(st sim.Stamp, workers int, partial bool) []htmlField {
	var out []htmlField
	add := func(name, value string, code bool) {
		if value != "" {
			out = append(out, htmlField{Name: name, Value: value, Code: code})
		}
	}
	add("scenario", st.Scenario, false)
	add("scenario SHA-256", st.ScenarioSHA256, true)
	add("hammersim", st.Version, false)
	add("seed", strconv.FormatUint(st.Seed, 10), false)
	if st.Trials > 0 {
		name := "trials per point"
		switch {
		case partial && st.Precision > 0:
			name = "trials per point, at most" // the most any point reached
		case partial:
			name = "trials per point asked for"
		}
		add(name, GroupThousands(st.Trials), false)
	}
	if st.Workers == 0 {
		st.Workers = workers
	}
	if st.Workers > 0 {
		add("workers", strconv.Itoa(st.Workers)+" (results do not depend on it)", false)
	}
	add("reproduce", st.Command, true)
	if l := precisionLine(st); l != "" {
		out = append(out, htmlField{Name: "precision", Value: strings.TrimPrefix(l, "precision target: "), Warn: !st.PrecisionMet})
	}
	return out
}

// htmlGrid lays one slice of the grid metric out as rows by columns, each
// cell with the estimate, its interval, and the exact value and z when
// known.
func htmlGrid(r *sim.Report, g *sim.Grid, s slice) htmlTable {
	rows, cols := axisValues(r, g.Rows), axisValues(r, g.Cols)
	corner, names := gridHeader(g, cols)
	// The section's heading names the metric: the caption says what the
	// cells are, and which slice the table holds where there are several.
	caption := "in percent"
	if len(s.estimates) > 0 && s.estimates[0].Kind == sim.Mean {
		caption = "means"
	}
	if s.label != "" {
		caption += ", " + labelWords(s.label)
	}
	t := htmlTable{Caption: caption, Corner: corner, Head: heads(names, 0)}
	at := s.cells(g)
	var texts [][]string // the cells as text, for dashNote
	for _, rv := range rows {
		line := []htmlCell{{Text: paramString(rv), Head: true}}
		text := []string{paramString(rv)}
		for _, cv := range cols {
			e, ok := at(rv, cv)
			cell := htmlCell{Text: gridNumber(e, ok)}
			if ok {
				cell.Sub, cell.Class = estimateDetails(e)
			}
			line = append(line, cell)
			text = append(text, cell.Text)
		}
		t.Rows = append(t.Rows, line)
		texts = append(texts, text)
	}
	t.Notes = append(gridNotes(g, s, texts, cols), ciNote(s.estimates))
	return t
}

// estimateDetails are the small lines under an estimate in a grid: its
// interval, and its exact value and z; the class flags a z beyond 3.
func estimateDetails(e sim.Estimate) (sub []string, class string) {
	if e.Trials > 0 && !math.IsNaN(e.CI95[0]) {
		sub = append(sub, "["+bare(e.Kind, e.CI95[0])+", "+bare(e.Kind, e.CI95[1])+"]")
	}
	if e.HasExact {
		sub = append(sub, "exact "+number(e.Kind, e.Exact)+", z "+zString(e))
		if z := e.Z(); math.Abs(z) > 3 {
			class = "warn"
		}
	}
	return sub, class
}

func ciNote(es []sim.Estimate) string { return readingNote(es) }

// htmlLong lays one metric out with a row per point: the estimate, its
// interval, the exact value and z (flagged beyond 3), the trials, and for
// means the spread and quantiles. It consults stop every stopRows rows.
func htmlLong(metric string, es []sim.Estimate, stop func() error) (htmlSection, error) {
	rows, names := estimatesOf(metric, es)
	kind := rows[0].Kind
	head := append(slices.Clone(names), "estimate", "95% CI", "exact", "z", "trials")
	if kind == sim.Mean {
		head = append(head, "sd", "median", "5%", "95%")
	}
	t := htmlTable{Head: heads(head, len(names)), Notes: []string{ciNote(rows)}}
	for i, e := range rows {
		if i%stopRows == 0 {
			if err := stop(); err != nil {
				return htmlSection{}, err
			}
		}
		var line []htmlCell
		for _, n := range names {
			v := ""
			if x := e.Param(n); x != nil {
				v = paramString(x)
			}
			line = append(line, htmlCell{Text: v, Class: "l"})
		}
		z := htmlCell{Text: zString(e)}
		if math.Abs(e.Z()) > 3 {
			z.Class = "warn"
		}
		line = append(line, htmlCell{Text: number(e.Kind, e.Value)}, htmlCell{Text: interval(e)}, htmlCell{Text: exact(e)}, z, htmlCell{Text: GroupThousands(e.Trials)})
		if kind == sim.Mean {
			line = append(line, htmlCell{Text: number(sim.Mean, e.StdDev)}, htmlCell{Text: plainNumber(e.Median)}, htmlCell{Text: plainNumber(e.P05)}, htmlCell{Text: plainNumber(e.P95)})
		}
		t.Rows = append(t.Rows, line)
	}
	if n := priceNote(rows); n != "" {
		t.Notes = append([]string{n}, t.Notes...)
	}
	return htmlSection{Heading: heading(metric, metricTitle(metric, rows), kind.String()), Tables: []htmlTable{t}}, nil
}

// stopRows is how many rows of a table a writer lays out between two
// consultations of its stop.
const stopRows = 4096

func plainNumber(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// inlinePlots renders figures as SVG for a page: without the XML prologue,
// and labelled for screen readers. It consults stop before each figure.
func inlinePlots(figs []namedFigure, stop func() error) ([]htmlPlot, error) {
	var out []htmlPlot
	for _, f := range figs {
		if err := stop(); err != nil {
			return nil, err
		}
		svg, err := render(f.fig, "svg")
		if err != nil {
			return nil, err
		}
		i := bytes.Index(svg, []byte("<svg"))
		if i < 0 {
			return nil, fmt.Errorf("reports: the SVG of %s has no <svg> element", f.name)
		}
		svg = svg[i:]
		tag := []byte(`<svg role="img" aria-label="` + html.EscapeString(f.caption) + `"`)
		svg = append(tag, svg[len("<svg"):]...)
		out = append(out, htmlPlot{Caption: f.caption, SVG: template.HTML(svg)})
	}
	return out, nil
}

// heads makes column headings, the first left of them left-aligned.
func heads(names []string, left int) []htmlCell {
	out := make([]htmlCell, len(names))
	for i, n := range names {
		out[i] = htmlCell{Text: n}
		if i < left {
			out[i].Class = "l"
		}
	}
	return out
}
