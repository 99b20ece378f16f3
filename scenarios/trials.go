package scenarios

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// thousandsRE is a whole number written in thousands with commas.
var thousandsRE = regexp.MustCompile(`^-?[0-9]{1,3}(,[0-9]{3})+$`)

// decimalRE is a number in decimal notation, with a point, an exponent or
// both (no hexadecimal, no words such as Inf).
var decimalRE = regexp.MustCompile(`^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$`)

// ErrTrialRange is a count of trials beyond what an int64 holds.
var ErrTrialRange = errors.New("value out of range")

// ParseTrials reads a number of trials as people write it, in a scenario's
// trials and max_trials keys and in the --trials flags alike: digits with
// single _ between them (1_000_000), digits in thousands separated by
// commas (1,000,000, never 1,00), or a number with a decimal point or in
// e-notation that is a whole number (1e6, 2.5e5, 100.0). Whether the count is in range is the caller's to
// check; a count past an int64 is ErrTrialRange.
func ParseTrials(s string) (int64, error) {
	raw := strings.TrimSpace(s)
	clean := strings.NewReplacer("_", "", ",", "").Replace(raw)
	bad := fmt.Errorf("%q is not a number of trials; write it as 1000000, 1_000_000, 1,000,000 or 1e6", s)
	if clean == "" || strings.ContainsAny(raw[:1], "_,") || strings.ContainsAny(raw[len(raw)-1:], "_,") ||
		strings.Contains(raw, "__") || strings.Contains(raw, ",,") ||
		strings.Contains(raw, ",") && !thousandsRE.MatchString(raw) {
		return 0, bad
	}
	n, err := strconv.ParseInt(clean, 10, 64)
	if err == nil {
		return n, nil
	}
	if errors.Is(err, strconv.ErrRange) {
		return 0, ErrTrialRange
	}
	if !decimalRE.MatchString(clean) {
		return 0, bad
	}
	// A decimal number past a float64 (1e309) is out of range, as one past
	// an int64 is; one too small for it (1e-400) reads as 0, not whole.
	f, err := strconv.ParseFloat(clean, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, bad
	}
	if math.Abs(f) >= math.MaxInt64 {
		return 0, ErrTrialRange
	}
	if f == 0 && strings.ContainsAny(strings.FieldsFunc(clean, isExponent)[0], "123456789") {
		return 0, fmt.Errorf("%q is not a whole number of trials", s)
	}
	if f != math.Trunc(f) {
		return 0, fmt.Errorf("%q is not a whole number of trials", s)
	}
	return int64(f), nil
}

func isExponent(r rune) bool { return r == 'e' || r == 'E' }

// trialsIn reads a scenario's count of trials, written as ParseTrials
// reads it, from 1 to hi.
func (d *Decoder) trialsIn(n *Node, what string, hi int64) (int64, bool) {
	s, ok := d.Scalar(n, what+" (a whole number)")
	if !ok {
		return 0, false
	}
	v, err := ParseTrials(s)
	switch {
	case errors.Is(err, ErrTrialRange):
		d.Errorf(n, "%s %s is out of range; expected 1 to %d", what, Excerpt(s), hi)
		return 0, false
	case err == nil && (v < 1 || v > hi):
		d.Errorf(n, "%s %d is out of range; expected 1 to %d", what, v, hi)
		return 0, false
	case err != nil:
		d.Errorf(n, "expected %s as a whole number from 1 to %d, written 1000000, 1_000_000, 1,000,000 or 1e6; found %s", what, hi, Excerpt(s))
		return 0, false
	}
	return v, true
}
