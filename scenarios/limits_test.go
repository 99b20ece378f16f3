package scenarios

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"hammersim/mechanics/dice"
)

// TestScanLimits: the scan before the YAML library refuses what is too
// deep or too large, at a position, and lets through brackets, dashes and
// colons that are text (quoted, commented or in a block scalar).
func TestScanLimits(t *testing.T) {
	deepFlow := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	okFlow := "a: " + strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1)
	var deepBlock strings.Builder
	for i := range MaxDepth + 1 {
		deepBlock.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	tests := []struct {
		name, src, err string
	}{
		{"flow at the limit", okFlow, ""},
		// The line itself is the first level: the 64th bracket opens the 65th.
		{"flow too deep", deepFlow, "t.yaml:1:64: nested more than 64 levels deep"},
		{"block too deep", deepBlock.String(), "t.yaml:65:65: nested more than 64 levels deep"},
		// As above, the 64th bracket opens the 65th level; "é: " is three
		// characters (four bytes) before the brackets, so it stands at
		// column 67 (68 counting bytes).
		{"flow too deep after a non-ASCII key", "é: " + deepFlow, "t.yaml:1:67: nested more than 64 levels deep"},
		{"dashes too deep", strings.Repeat("- ", MaxDepth+1) + "x", "t.yaml:1:1: nested more than 64 levels deep"},
		{"too many values", "v: [" + strings.Repeat("1, ", MaxNodes) + "1]", "more than 20000 values"},
		{"brackets in quotes", "a: \"" + strings.Repeat("[", 100) + "\"\nb: '" + strings.Repeat("{", 100) + "'", ""},
		{"brackets in a comment", "a: 1 # " + strings.Repeat("[", 100), ""},
		{"brackets in a block scalar", "a: |\n  " + strings.Repeat("[", 100) + "\n  " + strings.Repeat("- ", 100) + "\nb: 2", ""},
		{"brackets in a folded scalar", "a: >-\n  " + strings.Repeat("{", 100) + "\nb: 2", ""},
		{"quote across lines", "a: \"x\n  " + strings.Repeat("[", 100) + "\"\nb: [1]", ""},
		{"escaped quote", `a: "x\" [[[[" ` + "\nb: 1", ""},
		{"apostrophe in plain text", "a: don't [1]\nb: 2", ""},
		// A quote inside a plain value is its text, as the YAML library
		// reads it: no quoted value opens there to hide the lines below
		// it until the next quote.
		{"a quote after a colon with no space", "a: b:\"x\nc: " + deepFlow + "\nd: x\"", "t.yaml:2:67: nested more than 64 levels deep"},
		{"a quote after plain text and a space", "a: x \"\nc: " + deepFlow + "\nd: x\"", "t.yaml:2:67: nested more than 64 levels deep"},
		{"a quote after a comma in block context", "a: x,'y\nc: " + deepFlow + "\nd: '", "t.yaml:2:67: nested more than 64 levels deep"},
		{"a quote after a dash with no space", "a: x-\"y\nc: " + deepFlow + "\nd: \"", "t.yaml:2:67: nested more than 64 levels deep"},
		{"a bracket inside a plain value", "a: x[\"\nc: " + deepFlow + "\nd: \"", "t.yaml:2:67: nested more than 64 levels deep"},
		// A quoted key's colon needs no space in a flow collection: the
		// value after it is quoted, and its quote hides nothing.
		{"a JSON-style value", "a: {\"k\":\"x, 'y\"}\nb: " + deepFlow + "\nc: \"it's\"", "t.yaml:2:67: nested more than 64 levels deep"},
		// An anchor or a tag comes before the value it marks: here a block
		// scalar, whose text is not read for quotes.
		{"an anchored block scalar", "a: &x |\n  'hello\nb: " + deepFlow + "\nc: 'x'", "t.yaml:3:67: nested more than 64 levels deep"},
		{"a tagged quoted value", "a: !!str \"[[[[\"\nb: " + okFlow, ""},
		// A block scalar's text is indented as its first line is: "  b:",
		// less indented, is the next key, though indented more than the
		// header's line.
		{"a key after a block scalar", "- a: |\n    x\n  b: " + deepFlow, "t.yaml:3:"},
		{"blank lines", "a: |\n x" + strings.Repeat("\n", 1002), "t.yaml:1003:1: more than 1000 blank lines in a row"},
		// The library's own costs of the square of a line's run of "<"
		// (40,000: a second), of its tabs (200,000 in a quoted value:
		// 29 s), and of trailing blank lines times a block scalar's text
		// (1,000 after a megabyte: 14 s).
		{"a run of <", "a: b" + strings.Repeat("<", 101), `t.yaml:1:5: more than 100 "<" in a row`},
		{"a run of < within the bound", "a: b" + strings.Repeat("<", 100), ""},
		{"tabs", "a: \"" + strings.Repeat("\t", 101) + "\"", "t.yaml:1:5: 101 tabs on one line"},
		{"blank lines after a long block scalar", "a: |\n  " + strings.Repeat("x", 1_000_000) + strings.Repeat("\n", 22) + "b: 1", "t.yaml:22:1: 20 blank lines in a row after 1000003 bytes of a block scalar's text"},
		{"blank lines within the bound", "a: |\n x" + strings.Repeat("\n", 999) + "b: 1", ""},
		{"quoted values in a flow list", "a: [\"x [\", 'y {', \"z\"]\nb: " + okFlow, ""},
	}
	for _, tt := range tests {
		err := scanLimits("t.yaml", []byte(tt.src), scenarioYAML)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: refused: %v", tt.name, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
		}
	}
}

// TestTokenLimits: what the YAML library's own tokens hold is checked
// before it parses them, so that a file the line scan reads otherwise
// (here a quote on a plain value's continuation line, which the scan
// takes for a quoted value hiding the lines below it) is still refused,
// quickly: parsing 30,000 nested brackets takes the library seconds and
// gigabytes.
func TestTokenLimits(t *testing.T) {
	deep := strings.Repeat("[", 15_000) + strings.Repeat("]", 15_000)
	flat := "[" + strings.Repeat("1, ", MaxNodes) + "1]"
	for _, tt := range []struct{ name, src, err string }{
		// As the scan counts: b's mapping is the first level, so the 64th
		// bracket, at column 67, opens the 65th.
		{"nesting", "a: x\n  \"\nb: " + deep + "\nc: \"x\"\n", "t.yaml:3:67: nested more than 64 levels deep"},
		// Block nesting: "- " opens a level every two bytes on one line.
		// b is the first level; the 64th dash, at column 3 + 2 × 63 = 129,
		// opens the 65th.
		{"dashes", "a: x\n  \"\nb:\n  " + strings.Repeat("- ", 15_000) + "x\nc: \"x\"\n", "t.yaml:4:129: nested more than 64 levels deep"},
		{"values", "a: x\n  \"\nb: " + flat + "\nc: \"x\"\n", "more than 20000 values in one file"},
		// Entries with nothing after them: nulls the library adds, one at
		// a time into the middle of its tokens (262,000 took 56 s).
		{"bare dashes", "a: x\n  \"\nb:\n" + strings.Repeat("  -\n", MaxNodes+1) + "c: \"x\"\n", "more than 20000 values in one file"},
		// A dash in brackets, which the library reads as a block sequence
		// opened there: 60,000 of them took 4 GB.
		{"dashes in brackets", "[" + strings.Repeat("- ", 1000) + "x]", `t.yaml:1:2: "-" inside brackets`},
		// A closer with nothing open would make the count of open
		// brackets negative, and hide as many openers after it.
		{"a stray closer", "%FOO " + strings.Repeat("]", 100) + "\n---\na: x\n  \"\nb: " + deep + "\nc: \"x\"\n", `t.yaml:1:6: "]" closes nothing`},
		// Every value under a key carries a path that spells the key out.
		{"a long key", strings.Repeat("k", 2000) + ": [a, a]", "t.yaml:1:1: a key of 2000 characters; at most 128"},
		// The library works each document out again at every marker.
		{"document markers", strings.Repeat("--- !\n", 100), "t.yaml:4:1: more than 3 document markers"},
	} {
		if err := scanLimits("t.yaml", []byte(tt.src), scenarioYAML); err != nil {
			t.Errorf("%s: the line scan refused it (%v); the test wants a file only the tokens refuse", tt.name, err)
			continue
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := parseYAML("t.yaml", []byte(tt.src), scenarioYAML)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: error %.200v, want %q", tt.name, err, tt.err)
		}
		// The tokens of these 60 KB take about 15 MB; the parse would
		// take gigabytes.
		if used := after.TotalAlloc - before.TotalAlloc; used > 100<<20 {
			t.Errorf("%s: %d MB allocated", tt.name, used>>20)
		}
	}
}

// TestParseLimits: a whole file is refused by size, by the values its
// aliases repeat, and with short excerpts in its errors.
func TestParseLimits(t *testing.T) {
	r := NewRegistry()
	big := "name: x\n" + strings.Repeat("#\n", MaxFileSize/2)
	laughs := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
	long := strings.Repeat("0123456789", 10_000)
	tests := []struct {
		name, src, err string
	}{
		{"over the size", big, "t.yaml:1:1: the file is larger than 1048576 bytes"},
		{"alias bomb", laughs, "t.yaml:4:"},
		{"long scalar", long, `found "0123456789012345678901234567890123456789"... (100000 bytes)`},
		// A lone CR ends a line for the library: for the scan too, or a
		// comment on the first line would hide the rest.
		{"lone CR line ends", "# c" + strings.Repeat("\r", 1002) + "name: x\r", "t.yaml:1002:1: more than 1000 blank lines in a row"},
		{"byte-order mark", "\xEF\xBB\xBFname: \"\"\nruleset: x\n", `t.yaml:1:7: the scenario's name is empty`},
	}
	for _, tt := range tests {
		_, err := r.Parse("t.yaml", []byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: error %.300v, want %q", tt.name, err, tt.err)
		}
		if err != nil && len(err.Error()) > 2000 {
			t.Errorf("%s: an error of %d bytes", tt.name, len(err.Error()))
		}
	}
	var e *Error
	if _, err := r.Parse("t.yaml", []byte(laughs)); !errors.As(err, &e) || !strings.Contains(e.Msg, "aliases counted at each use") {
		t.Errorf("alias bomb: %v", err)
	}
}

// TestSweepSizes: a sweep over the bound names each axis with its number
// of values, eight at the most and the rest counted, and writes its
// numbers with their thousands grouped.
func TestSweepSizes(t *testing.T) {
	var axes Axes
	for i := range 10 {
		axes = append(axes, &Axis{Name: fmt.Sprintf("k%d", i), Values: make([]any, i+2)})
	}
	want := "k0 2 × k1 3 × k2 4 × k3 5 × k4 6 × k5 7 × k6 8 × k7 9 × and 2 more axes"
	if got := sweepSizes(axes); got != want {
		t.Errorf("ten axes: got %q, want %q", got, want)
	}
	if got := sweepSizes(axes[:9]); !strings.HasSuffix(got, "× and 1 more axis") {
		t.Errorf("nine axes: got %q, want it to end \"and 1 more axis\"", got)
	}
	if got := sweepSizes(axes[:1]); got != "k0 2" {
		t.Errorf("one axis: got %q", got)
	}
	// Past 10^18 the count is not exact, and not written as if it were.
	d := &Decoder{}
	for _, k := range []string{"a", "b", "c", "d"} {
		d.axes = append(d.axes, &Axis{Name: k, path: []string{k}, Values: make([]any, 40_000)})
	}
	d.finishAxes(&Node{Line: 1, Col: 1}) // 40,000^4 = 2.56 × 10^18
	if len(d.errs) != 1 || d.errs[0].Msg != "the sweeps make more than 1,000,000,000,000,000,000 points (a 40000 × b 40000 × c 40000 × d 40000); at most 100,000" {
		t.Errorf("a sweep of 10^18 points: %v", d.errs)
	}
	// Below it, the count is exact, past what a float64 holds (2^53):
	// 99 × 9^16.
	d = &Decoder{}
	for i := range 17 {
		n := 9
		if i == 16 {
			n = 99
		}
		k := fmt.Sprintf("k%d", i)
		d.axes = append(d.axes, &Axis{Name: k, path: []string{k}, Values: make([]any, n)})
	}
	d.finishAxes(&Node{Line: 1, Col: 1})
	if len(d.errs) != 1 || !strings.HasPrefix(d.errs[0].Msg, "the sweeps make 183,448,998,696,332,259 points (") {
		t.Errorf("a sweep of 99 × 9^16 points: %v", d.errs)
	}
	for x, want := range map[uint64]string{0: "0", 999: "999", 1000: "1,000", 600_000: "600,000", 1e18: "1,000,000,000,000,000,000", 183_448_998_696_332_259: "183,448,998,696,332,259"} {
		if got := digits(x); got != want {
			t.Errorf("digits(%d) = %q, want %q", x, got, want)
		}
	}
}

// TestExactDiceBudget: the dice of a scenario share one budget of exact
// work, MaxDiceWork (4 × 10^8 steps); dice of a text already read cost
// nothing more. 14D999 takes 999² × 14² / 2 = 9.78 × 10^7 steps
// (dice.Expr.ExactWork), so four different ones fit and a fifth does not.
func TestExactDiceBudget(t *testing.T) {
	d := &Decoder{file: "t.yaml"}
	n := &Node{Line: 3, Col: 7}
	for sides := 999; sides > 995; sides-- {
		if _, ok := d.ExactDice(n, dice.MustParse(fmt.Sprintf("14D%d", sides)), "dice"); !ok {
			t.Fatalf("14D%d refused within the budget: %v", sides, d.errs)
		}
	}
	spent := d.diceWork
	for range 10 {
		if e, ok := d.ExactDice(n, dice.MustParse("14D999"), "dice"); !ok || e.String() != "14D999" {
			t.Fatalf("14D999 read again: %v %v", e, d.errs)
		}
	}
	if d.diceWork != spent {
		t.Errorf("dice read again cost %g more steps", d.diceWork-spent)
	}
	if _, ok := d.ExactDice(n, dice.MustParse("14D995"), "Random Movement (14D995)"); ok {
		t.Fatal("a fifth 14D99x was admitted past the budget")
	}
	want := "t.yaml:3:7: Random Movement (14D995): the exact distributions of the dice of this scenario (its catalogue cards included) would take about 4.9e+08 steps together, with this one; at most 4e+08: use fewer or smaller dice"
	if len(d.errs) != 1 || d.errs[0].Error() != want {
		t.Errorf("errors %v, want %s", d.errs, want)
	}
}
