package reports

import (
	"math"
	"strings"
	"testing"
)

// TestConditionOneIn: a condition's "about 1 in N" shows only digits its
// probability holds: 1/p in full to a million, then three significant
// figures. 6^100 written out from a float64 would have 78 digits, of which
// the 17th on are wrong.
func TestConditionOneIn(t *testing.T) {
	for _, tc := range []struct {
		p    float64
		want string
	}{
		{10.0 / 36, "about 1 in 3.6\n"},              // 2D6 >= 9
		{1.0 / 1296, "about 1 in 1296.0\n"},          // four sixes
		{math.Pow(6, -10), "about 1 in 6.05e+07\n"},  // 6^10 = 60,466,176
		{math.Pow(6, -100), "about 1 in 6.53e+77\n"}, // 6^100 = 6.533e77
		{0.75, "exact: 75.00% (0.75)\n"},             // likelier than not: no "1 in"
	} {
		var b strings.Builder
		if err := WriteCondition(&b, Condition{Title: "q", Exact: tc.p}, "table"); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(b.String(), tc.want) {
			t.Errorf("P = %g: %q, want it to end %q", tc.p, b.String(), tc.want)
		}
	}
}
