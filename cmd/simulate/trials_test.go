package main

import (
	"strings"
	"testing"
)

func TestParseTrials(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		err  string
	}{
		{"1000000", 1_000_000, ""},
		{"1_000_000", 1_000_000, ""},
		{"1,000,000", 1_000_000, ""},
		{"1e6", 1_000_000, ""},
		{"2.5e5", 250_000, ""},
		{"1E3", 1000, ""},
		{"0", 0, ""},
		{"1.5e0", 0, "not a whole number"},
		{"-5", -5, ""}, // the range is checked with the other flags
		{"1e300", 0, "value out of range"},
		{"99999999999999999999", 0, "value out of range"},
		{"lots", 0, "not a number of trials"},
		{"1__000", 0, "not a number of trials"},
		{"_1000", 0, "not a number of trials"},
		{"1000_", 0, "not a number of trials"},
		{"", 0, "not a number of trials"},
		{"NaN", 0, "not a number of trials"},
		{"1.5", 0, "not a whole number"},
		{"100.0", 100, ""},
		{".5e3", 500, ""},
		{"1e309", 0, "value out of range"}, // past a float64
		{"-1e309", 0, "value out of range"},
		{"1e-400", 0, "not a whole number"}, // below a float64's smallest
		{"0x1p4", 0, "not a number of trials"},
		{"Inf", 0, "not a number of trials"},
		{"1.", 1, ""},
		{"1.e", 0, "not a number of trials"},
		// Commas group thousands, and only thousands.
		{"12,345", 12_345, ""},
		{"1,00", 0, "not a number of trials"},
		{"1000,000", 0, "not a number of trials"},
		{"1,0000", 0, "not a number of trials"},
		{"1_000,000", 0, "not a number of trials"},
	} {
		got, err := parseTrials(tc.in)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%q: got %d, %v; want %d", tc.in, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: got %d, %v; want an error with %q", tc.in, got, err, tc.err)
		}
	}
}

func FuzzParseTrials(f *testing.F) {
	for _, s := range []string{"1e6", "1_000_000", "1,000", "9e15", "-0", "1e-3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseTrials(s)
		if err == nil && strings.TrimSpace(s) != "" && n == 0 && strings.ContainsAny(s, "123456789") && !strings.ContainsAny(s, "eE-") {
			t.Errorf("%q read as 0", s)
		}
	})
}
