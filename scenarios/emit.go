package scenarios

import (
	"strconv"
	"strings"
)

// YAML writes the card as a scenario would write it, to copy and edit.
func (c *UnitCard) YAML() string {
	var b strings.Builder
	writeMapping(&b, c.Node, "")
	return b.String()
}

// writeMapping writes a mapping's keys a line each at indent; mappings and
// lists of plain values go on one line in flow style.
func writeMapping(b *strings.Builder, m *Node, indent string) {
	for i, k := range m.Keys {
		v := m.Vals[i]
		b.WriteString(indent + k.Text + ":")
		switch {
		case flat(v):
			b.WriteString(" " + flowText(v) + "\n")
		case v.Kind == MapNode:
			b.WriteString("\n")
			writeMapping(b, v, indent+"  ")
		default:
			b.WriteString("\n")
			for _, it := range v.Items {
				if flat(it) {
					b.WriteString(indent + "  - " + flowText(it) + "\n")
					continue
				}
				var inner strings.Builder
				writeMapping(&inner, it, indent+"    ")
				b.WriteString(indent + "  - " + strings.TrimPrefix(inner.String(), indent+"    "))
			}
		}
	}
}

// flat reports whether n fits one line: a value, or a list or mapping of
// values.
func flat(n *Node) bool {
	for _, c := range append(append([]*Node{}, n.Items...), n.Vals...) {
		if c.Kind == SeqNode || c.Kind == MapNode {
			return false
		}
	}
	return n.Kind != MapNode || len(n.Keys) <= 6
}

// flowText writes a flat node in flow style.
func flowText(n *Node) string {
	switch n.Kind {
	case ScalarNode:
		return plainScalar(n.Text)
	case SeqNode:
		parts := make([]string, len(n.Items))
		for i, it := range n.Items {
			parts[i] = flowText(it)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case MapNode:
		parts := make([]string, len(n.Keys))
		for i, k := range n.Keys {
			parts[i] = k.Text + ": " + flowText(n.Vals[i])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "null"
}

// QuoteScalar writes s as a YAML scalar that reads back as s, in a
// mapping written on one line ({use: NAME}) as in a block: quoted when
// YAML would read it otherwise.
func QuoteScalar(s string) string { return plainScalar(s) }

// plainScalar quotes a value when YAML would read it otherwise.
func plainScalar(s string) string {
	switch s {
	case "null", "Null", "NULL", "~": // YAML's words for nothing
		return strconv.Quote(s)
	}
	if s == "" || strings.ContainsAny(s, ":#,[]{}&*!|>'\"%@`") || strings.ContainsAny(s[:1], "-?+ ") || strings.HasSuffix(s, " ") {
		if !strings.ContainsAny(s, ",[]{}:#'\"") && strings.HasSuffix(s, "+") && s[0] >= '0' && s[0] <= '9' {
			return s // 4+, 3+: plain in YAML
		}
		return strconv.Quote(s)
	}
	return s
}
