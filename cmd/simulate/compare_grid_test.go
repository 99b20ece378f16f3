package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hammersim/reports"
)

// TestCompareGridFits: five candidates, whose estimates with intervals
// (about 22 characters a cell) would not fit the terminal side by side,
// are printed as one grid of points by candidates, estimates alone, with
// a line saying where the intervals are; every line fits.
func TestCompareGridFits(t *testing.T) {
	dir := t.TempDir()
	var args []string
	for i, name := range []string{"s1", "s2", "s3", "s4", "s5"} {
		p := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(p, []byte(swordsmen(name, 3+i%2)), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	out, _, err := runCLI(t, append([]string{"compare", "--trials", "2000"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "intervals in the JSON and CSV outputs") {
		t.Errorf("no note on where the intervals are:\n%s", out)
	}
	grid := false
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "reproduce: ") {
			continue // a command line is not wrapped
		}
		if n := len([]rune(l)); n > reports.TerminalWidth {
			t.Errorf("line of %d columns: %q", n, l)
		}
		if strings.Contains(l, "s1") && strings.Contains(l, "s5") && strings.HasPrefix(l, "|") {
			grid = true
		}
	}
	if !grid {
		t.Errorf("the candidates are not side by side in one table:\n%s", out)
	}
}
