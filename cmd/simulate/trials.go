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

// seedValue is --seed: a whole number written in decimal, as a scenario's
// seed key is read. The flag package's own uint64 would read 010 as 8 and
// 0x10 as 16, so a zero-padded seed would run another seed's stream.
type seedValue uint64

func (s *seedValue) String() string {
	if s == nil {
		return "0"
	}
	return strconv.FormatUint(uint64(*s), 10)
}

// Set reads a decimal seed; its errors are the flag package's own for a
// number, which numberFlagMessage turns into what is expected.
func (s *seedValue) Set(v string) error {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return errors.New("value out of range")
		}
		return errors.New("parse error")
	}
	*s = seedValue(n)
	return nil
}

// Get returns the seed, so that numberFlagMessage knows its kind.
func (s *seedValue) Get() any { return uint64(*s) }
