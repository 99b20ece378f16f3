package main

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// trialCount is a flag holding a number of trials written as people write
// them: 1000000, 1_000_000, 1,000,000 or 1e6 (a power-of-ten form must
// come out a whole number). Whether the count is in range is checked with
// the other flags (checkTrialsWorkers).
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

// thousandsRE is a whole number written in thousands with commas.
var thousandsRE = regexp.MustCompile(`^-?[0-9]{1,3}(,[0-9]{3})+$`)

// errTrialRange is a count beyond what an int64 holds.
var errTrialRange = errors.New("value out of range")

// parseTrials reads a trial count: digits with single _ between them,
// digits in thousands separated by commas (1,000,000, never 1,00), or a
// number in e-notation that is a whole number.
func parseTrials(s string) (int64, error) {
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
		return 0, errTrialRange
	}
	if !strings.ContainsAny(clean, "eE") {
		return 0, bad
	}
	f, err := strconv.ParseFloat(clean, 64)
	if err != nil || math.IsNaN(f) {
		return 0, bad
	}
	if math.Abs(f) >= math.MaxInt64 {
		return 0, errTrialRange
	}
	if f != math.Trunc(f) {
		return 0, fmt.Errorf("%q is not a whole number of trials", s)
	}
	return int64(f), nil
}
