package reports

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"

	"hammersim/sim"
)

// Text a user controls (a scenario's name and description, the values of
// its axes, the names of compared scenarios), as hostile as it gets: HTML
// that runs script, an entity, table pipes, line breaks, and lines that
// would open other blocks.
const (
	hostileName        = "<b>bold</b> | &amp; name"
	hostileDescription = "<img src=x onerror=alert(1)> &lt;b&gt;\n- not a list\n---\n    not code <script>alert(2)</script>"
)

var hostileValues = []any{"A|B", "line\nbreak", "<i>x</i>", "~~struck~~ &#60;", "_it_ and __bold__ charge_success", "www.evil.example/x https://e.example a@b.example"}

func hostileReport() *sim.Report {
	r := &sim.Report{Scenario: hostileName, Description: hostileDescription, Version: "test", Seed: 1, Trials: 10,
		Axes: []sim.Axis{{Name: "unit <u>", Values: hostileValues}}}
	for i, v := range hostileValues {
		r.Results = append(r.Results, sim.ProbabilityOf("breaks", []sim.Param{{Name: "unit <u>", Value: v}}, int64(i), 10))
	}
	r.Stamp.Command = "simulate run '<b>x\ny</b>.yaml' --seed 1 --trials 10"
	return r
}

// renderGitHub renders Markdown as GitHub does before it sanitizes:
// CommonMark with GitHub's extensions (tables, strikethrough, autolinks),
// raw HTML passed through.
func renderGitHub(t *testing.T, md []byte) string {
	t.Helper()
	var out bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
	if err := gm.Convert(md, &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

var (
	rowRE  = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	cellRE = regexp.MustCompile(`<t[hd][ >]`)
)

// TestMarkdownEscapesUserText: every Markdown output shows user text as
// written. Rendered as GitHub renders it, no HTML of the user's becomes an
// element (the HTML report escapes it too), entities stay as typed, every
// table row has the header's cells, and the description stays one
// paragraph.
func TestMarkdownEscapesUserText(t *testing.T) {
	r := hostileReport()
	c := sampleComparison()
	c.Candidates[2] = hostileName
	var results, report, comparison bytes.Buffer
	if err := WriteMarkdown(&results, r); err != nil {
		t.Fatal(err)
	}
	src := []byte("name: x\ndescription: <img src=x onerror=alert(1)>\n")
	if err := writeMarkdownReport(&report, r, src, "plots", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := WriteComparisonMarkdown(&comparison, c, sim.Stamp{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		md    []byte
		shown []string // as the rendered HTML holds the user's text
	}{
		{"results", results.Bytes(), []string{
			"&lt;img src=x onerror=alert(1)&gt; &amp;lt;b&amp;gt; - not a list ---     not code &lt;script&gt;alert(2)&lt;/script&gt;",
			"&lt;b&gt;bold&lt;/b&gt; | &amp;amp; name", "A|B", "line break", "&lt;i&gt;x&lt;/i&gt;", "~~struck~~ &amp;#60;", "unit &lt;u&gt;",
			"_it_ and __bold__ charge_success", "www.evil.example/x https://e.example a@b.example",
			"<code>simulate run '&lt;b&gt;x y&lt;/b&gt;.yaml' --seed 1 --trials 10</code>"}},
		{"report", report.Bytes(), []string{
			"<p>&lt;img src=x onerror=alert(1)&gt; &amp;lt;b&amp;gt; - not a list",
			"&lt;b&gt;bold&lt;/b&gt; | &amp;amp; name", "A|B", "line break", "&lt;i&gt;x&lt;/i&gt;",
			"<code class=\"language-yaml\">name: x\ndescription: &lt;img src=x onerror=alert(1)&gt;\n</code>"}},
		{"comparison", comparison.Bytes(), []string{"&lt;b&gt;bold&lt;/b&gt; | &amp;amp; name"}},
	} {
		html := renderGitHub(t, tc.md)
		for _, tag := range []string{"<img", "<script", "<b>", "<i>", "<u>", "<del>", "<li>not a list", "<hr", "<em>", "<strong>", "<a "} {
			if strings.Contains(html, tag) {
				t.Errorf("%s: %s became an element:\n%s\n---\n%s", tc.name, tag, tc.md, html)
			}
		}
		for _, s := range tc.shown {
			if !strings.Contains(html, s) {
				t.Errorf("%s: %q is not shown as written:\n%s", tc.name, s, html)
			}
		}
		rows := rowRE.FindAllStringSubmatch(html, -1)
		if len(rows) == 0 {
			t.Errorf("%s: no table", tc.name)
		}
		width := 0
		for _, row := range rows {
			n := len(cellRE.FindAllString(row[1], -1))
			if strings.Contains(row[1], "<th") {
				width = n
			} else if n != width {
				t.Errorf("%s: a row of %d cells under a header of %d: %s", tc.name, n, width, row[1])
			}
		}
	}
}

// TestMdParagraph: what would open another block at the start of a
// paragraph is escaped, and nothing else is touched.
func TestMdParagraph(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Who hurts whom.", "Who hurts whom."},
		{"- a", `\- a`},
		{"+ a", `\+ a`},
		{"___", `\_\_\_`},
		{"=== a", `\=== a`},
		{"12. a", `12\. a`},
		{"3) a", `3\) a`},
		{"1999 was a year.", "1999 was a year."},
		{"    indented", "indented"},
		{"# not a heading", `\# not a heading`},
		{"> not a quote", `\> not a quote`},
	} {
		if got := mdParagraph(tc.in); got != tc.want {
			t.Errorf("mdParagraph(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
