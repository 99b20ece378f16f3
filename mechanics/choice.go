package mechanics

import "math"

// Exceeds reports whether a is above b by more than a part in 10^9. A
// ruleset's choice between exact expectations (which weapons fire, the
// higher of two rolls) compares them with it, so that two expectations
// that are equal, worked out by different sums, count as equal whichever
// way their last bits were rounded (a machine that fuses multiply-adds
// rounds some of them otherwise): the choice, and the trials after it,
// are then the same on every machine.
func Exceeds(a, b float64) bool {
	return a > b+1e-9*max(math.Abs(a), math.Abs(b))
}
