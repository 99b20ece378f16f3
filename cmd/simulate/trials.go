package main

import (
	"errors"
	"fmt"
	"strconv"

	"hammersim/scenarios"
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
	if errors.Is(err, scenarios.ErrTrialRange) {
		// Past an int64: out of range as 10^12 + 1 is, and said alike.
		return fmt.Errorf("%s is out of range; expected 1 to %d", s, int64(maxTrialsFlag))
	}
	if err != nil {
		return err
	}
	*t = trialCount(n)
	return nil
}

// parseTrials reads a trial count as a scenario's trials key does.
func parseTrials(s string) (int64, error) { return scenarios.ParseTrials(s) }
