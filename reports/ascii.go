package reports

import (
	"bufio"
	"io"
	"strings"

	"github.com/clipperhouse/displaywidth"
)

// Terminal tables are drawn here rather than by a table library: their
// layout is one simple grid, and drawing it ourselves keeps it the same in
// every environment (a library that reads the locale or the
// RUNEWIDTH_EASTASIAN variable widens columns holding letters such as "é"
// in some terminals and not in others, so that one run's table differed
// from another's) and keeps a long table's cost in proportion to its cells.

// textWidth is the number of terminal columns s takes: a wide letter (as
// in Chinese or Japanese) takes two, a combining accent none, any other
// one. It never depends on the environment.
func textWidth(s string) int {
	return displaywidth.String(s)
}

// widthPrefix returns the length in bytes of the longest start of s that
// is at most width columns wide, and at least one letter long.
func widthPrefix(s string, width int) int {
	n := 0
	for i, r := range s {
		n += displaywidth.Rune(r)
		if n > width && i > 0 {
			return i
		}
	}
	return len(s)
}

// cellLines splits a cell into its lines.
func cellLines(c string) []string {
	return strings.Split(c, "\n")
}

// writeASCII draws a table with ASCII borders, copyable into forums and
// issues: a header, then one row (of one line or more) per entry of rows.
// align spells each column's alignment as mdTable's does, 'r' for right
// and anything else for left. Cells are never wrapped: a column is as wide
// as its widest line. A row shorter than the header is padded with empty
// cells.
func writeASCII(w io.Writer, head []string, align string, rows [][]string) error {
	widths := make([]int, len(head))
	measure := func(cells []string) {
		for i, c := range cells[:min(len(cells), len(widths))] {
			for _, l := range cellLines(c) {
				widths[i] = max(widths[i], textWidth(l))
			}
		}
	}
	measure(head)
	for _, r := range rows {
		measure(r)
	}
	bw := bufio.NewWriter(w)
	rule := []byte{'+'}
	for _, n := range widths {
		rule = append(rule, strings.Repeat("-", n+2)...)
		rule = append(rule, '+')
	}
	rule = append(rule, '\n')
	bw.Write(rule)
	writeRow(bw, head, widths, align)
	if len(rows) > 0 {
		bw.Write(rule)
	}
	for _, r := range rows {
		writeRow(bw, r, widths, align)
	}
	bw.Write(rule)
	return bw.Flush()
}

// writeRow draws one row of a table, as many lines as its tallest cell.
func writeRow(bw *bufio.Writer, cells []string, widths []int, align string) {
	lines := make([][]string, len(widths))
	height := 1
	for i := range widths {
		if i < len(cells) {
			lines[i] = cellLines(cells[i])
		}
		height = max(height, len(lines[i]))
	}
	for l := range height {
		bw.WriteByte('|')
		for i, n := range widths {
			text := ""
			if l < len(lines[i]) {
				text = lines[i][l]
			}
			pad := strings.Repeat(" ", n-textWidth(text))
			bw.WriteByte(' ')
			if i < len(align) && align[i] == 'r' {
				bw.WriteString(pad)
				bw.WriteString(text)
			} else {
				bw.WriteString(text)
				bw.WriteString(pad)
			}
			bw.WriteString(" |")
		}
		bw.WriteByte('\n')
	}
}
