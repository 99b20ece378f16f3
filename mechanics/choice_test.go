package mechanics

import "testing"

// TestExceeds: a choice between exact expectations takes those within a
// part in 10^9 as equal, as the same value rounded two ways is.
func TestExceeds(t *testing.T) {
	for _, tt := range []struct {
		a, b float64
		want bool
	}{
		{1.0000001, 1, true},
		{1 + 1e-12, 1, false}, // one value, rounded two ways
		{1, 1 + 1e-12, false},
		{0, 0, false},
		{1e-300, 0, true}, // anything that scores beats nothing
		{0.1 + 0.2, 0.3, false},
	} {
		if got := Exceeds(tt.a, tt.b); got != tt.want {
			t.Errorf("Exceeds(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
