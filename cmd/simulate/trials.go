package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// trialCount is a flag holding a number of trials written as people write
// them: 1000000, 1_000_000, 1,000,000 or 1e6 (a power-of-ten form must
// come out a whole number).
type trialCount int64

func (t *trialCount) String() string {
	if t == nil {
		return "0"
	}
	return strconv.FormatInt(int64(*t), 10)
}

func (t *trialCount) Set(s string) error {
	n, err := parseTrials(s)
	if err != nil {
		return err
	}
	*t = trialCount(n)
	return nil
}

// maxTrialCount bounds a count so that sums of trials never overflow.
const maxTrialCount = 1 << 53

// parseTrials reads a trial count: digits with optional _ or , between
// them, or a number in e-notation that is a whole number.
func parseTrials(s string) (int64, error) {
	clean := strings.NewReplacer("_", "", ",", "").Replace(strings.TrimSpace(s))
	bad := fmt.Errorf("%q is not a number of trials; write it as 1000000, 1_000_000 or 1e6", s)
	raw := strings.TrimSpace(s)
	if clean == "" || strings.ContainsAny(raw[:1], "_,") || strings.ContainsAny(raw[len(raw)-1:], "_,") || strings.Contains(raw, "__") {
		return 0, bad
	}
	if n, err := strconv.ParseInt(clean, 10, 64); err == nil {
		if n < 0 || n > maxTrialCount {
			return 0, fmt.Errorf("%q trials: expected 0 to %d", s, int64(maxTrialCount))
		}
		return n, nil
	}
	if !strings.ContainsAny(clean, "eE") {
		return 0, bad
	}
	f, err := strconv.ParseFloat(clean, 64)
	if err != nil || math.IsNaN(f) {
		return 0, bad
	}
	if f < 0 || f > maxTrialCount {
		return 0, fmt.Errorf("%q trials: expected 0 to %d", s, int64(maxTrialCount))
	}
	if f != math.Trunc(f) {
		return 0, fmt.Errorf("%q is not a whole number of trials", s)
	}
	return int64(f), nil
}
