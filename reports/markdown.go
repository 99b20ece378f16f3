package reports

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"

	"hammersim/sim"
)

// WriteMarkdown writes the report as Markdown: a heading, the run's
// parameters, the grid metric (when the report has one) as grids, and one
// table per metric, with a row per point.
func WriteMarkdown(w io.Writer, r *sim.Report) error {
	ew := &ErrWriter{W: w}
	fmt.Fprintf(ew, "# %s\n\n", mdText(r.Scenario))
	if r.Description != "" {
		fmt.Fprintf(ew, "%s\n\n", mdParagraph(r.Description))
	}
	fmt.Fprintf(ew, "Seed %d, %s per point%s, hammersim %s.\n", r.Seed, trialCount(r.Trials), askedNote(r), r.Version)
	writeMarkdownStamp(ew, r.Stamp)
	if r.Partial {
		fmt.Fprintf(ew, "\n**%s**\n", partialLine(r))
	}
	// The grid metric as grids, as the table and the reports show it;
	// then every metric, that one too, with its intervals, which the
	// grids leave out.
	writeMarkdownGrids(ew, r)
	rest := r.Results
	for _, metric := range metrics(r, rest) {
		if ew.Err != nil {
			return ew.Err // a write failed or was stopped: no more tables
		}
		writeMarkdownLong(ew, metric, rest)
		for _, t := range atLeastTables(metric, rest, r.Axes) {
			writeMarkdownPlain(ew, t)
		}
	}
	if len(r.Results) > 0 {
		fmt.Fprintf(ew, "\n%s\n", mdText(readingNote(r.Results)))
	}
	return ew.Err
}

// writeMarkdownLong writes one metric's estimates as a Markdown table, a
// row per point, up to the first write that fails (a stopped output,
// stopWriter: the rows after it are not laid out).
func writeMarkdownLong(w io.Writer, metric string, es []sim.Estimate) {
	rows, names := estimatesOf(metric, es)
	fmt.Fprintf(w, "\n## %s\n\n", mdText(heading(metric, metricTitle(metric, rows), rows[0].Kind.String())))
	cols := append(slices.Clone(names), "estimate", "95% CI", "exact", "z", "trials")
	for i := range names {
		cols[i] = mdText(cols[i])
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(cols, " | "))
	align := make([]string, len(cols))
	for i := range align {
		align[i] = "---:"
		if i < len(names) {
			align[i] = "---"
		}
	}
	fmt.Fprintf(w, "|%s|\n", strings.Join(align, "|"))
	for _, e := range rows {
		cells := make([]string, 0, len(cols))
		for _, n := range names {
			if v := e.Param(n); v != nil {
				cells = append(cells, mdText(paramString(v)))
			} else {
				cells = append(cells, "")
			}
		}
		cells = append(cells, number(e.Kind, e.Value), interval(e), exact(e), zString(e), GroupThousands(e.Trials))
		if _, err := fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")); err != nil {
			return
		}
	}
	if n := priceNote(rows); n != "" {
		fmt.Fprintf(w, "\n%s\n", mdText(n))
	}
}

// writeMarkdownStamp writes the stamp's lines (the full hash and the
// command, as code) after the run's line; nothing for an unstamped report.
func writeMarkdownStamp(w io.Writer, st sim.Stamp) {
	if st.ScenarioSHA256 != "" {
		fmt.Fprintf(w, "\nScenario SHA-256: %s.\n", mdCode(st.ScenarioSHA256))
	}
	if st.Command != "" {
		fmt.Fprintf(w, "\nReproduce: %s\n", mdCode(st.Command))
	}
	if l := precisionLine(st); l != "" {
		fmt.Fprintf(w, "\n%s\n", mdText("P"+l[1:]))
	}
}

// mdCode writes s as a Markdown code span, fenced with more backticks than
// any run inside it. A line break inside would end a table row or a
// heading, so it becomes the space a code span shows it as anyway.
func mdCode(s string) string {
	s = oneLine(s)
	longest := longestBackticks(s)
	fence := strings.Repeat("`", longest+1)
	if longest > 0 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// mdText escapes Markdown's punctuation in running text, headings and
// table cells so that user text (a scenario's name and description, a
// unit's name) shows as written: "Spear & <Shield>", "*Elite*", "a|b".
// Above all, renderers such as GitHub's show inline HTML and decode
// entities, so <, > and & are escaped: `<img src=x onerror=...>` is text,
// never an element. A line break would end a table row or a heading, and
// a paragraph shows it as a space, so it becomes one. An underscore is
// escaped at a word's edge ("_it_"), where it may open or close emphasis,
// and left alone inside a word (charge_success), where it never does. What
// GitHub would turn into a link ("www.", "://", an address's "@") has its
// punctuation escaped, so a name stays text.
func mdText(s string) string {
	var b strings.Builder
	rs := []rune(oneLine(s))
	word := func(i int) bool {
		return i >= 0 && i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i]))
	}
	for i, c := range rs {
		esc := strings.ContainsRune("\\`*[]<>|#&~@", c)
		switch c {
		case '_':
			esc = !word(i-1) || !word(i+1)
		case '.':
			esc = i >= 3 && strings.EqualFold(string(rs[i-3:i]), "www")
		case ':':
			esc = i+2 < len(rs) && rs[i+1] == '/' && rs[i+2] == '/'
		}
		if esc {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// oneLine turns every line ending Markdown knows (\r\n, \n, \r) into a
// space.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// mdParagraph is mdText for text that stands as a paragraph of its own (a
// scenario's description): what would open another block there (a list
// item's "- ", "+ " or "1. ", a rule "---" or "___", indentation that
// makes code) is escaped or dropped, so the text stays a paragraph.
func mdParagraph(s string) string {
	t := mdText(strings.TrimLeft(s, " \t"))
	if t != "" && strings.ContainsRune("-+_=", rune(t[0])) {
		return "\\" + t
	}
	if i := strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' }); i > 0 && (t[i] == '.' || t[i] == ')') {
		return t[:i] + "\\" + t[i:]
	}
	return t
}

// mdTable writes a Markdown table whose columns are aligned as align says,
// one letter a column ('l' left, 'r' right); cells are escaped here.
func mdTable(w io.Writer, header []string, align string, rows [][]string) {
	mdTableHead(w, header, align)
	for _, r := range rows {
		if mdRow(w, r) != nil {
			return // a stopped or failed output: the rows after are not laid out
		}
	}
}

// mdRow writes one row of a Markdown table, its cells as text (mdText).
func mdRow(w io.Writer, cs []string) error {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = mdText(c)
	}
	_, err := fmt.Fprintf(w, "| %s |\n", strings.Join(out, " | "))
	return err
}

// mdTableHead writes a Markdown table's header and its rule, aligned as
// align says ('r': right) column by column.
func mdTableHead(w io.Writer, header []string, align string) {
	mdRow(w, header)
	rule := make([]string, len(header))
	for i := range rule {
		rule[i] = "---"
		if i < len(align) && align[i] == 'r' {
			rule[i] = "---:"
		}
	}
	fmt.Fprintf(w, "|%s|\n", strings.Join(rule, "|"))
}

// alignment spells column alignments for mdTable: left columns on the
// left, then right ones on the right, then left again for the rest.
func alignment(left, right, rest int) string {
	return strings.Repeat("l", left) + strings.Repeat("r", right) + strings.Repeat("l", rest)
}
