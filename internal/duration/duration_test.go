package duration

import (
	"errors"
	"math"
	"testing"
	"time"
)

// Parse reads what time.ParseDuration reads, exactly, and refuses any
// part below a nanosecond, however it is written: the reference here is
// the decimal arithmetic of each case, worked by hand.
func TestParseRefusesOnlyPartsBelowANanosecond(t *testing.T) {
	for s, want := range map[string]time.Duration{
		"0": 0, "1ns": 1, "1.0ns": 1, "1.5us": 1500, "0.000001ms": 1, "1.000000001s": time.Second + 1,
		"2.5h": 150 * time.Minute, "0.00000000001h": 36, "0.0000000000025h": 9, "1h0.5us": time.Hour + 500, "-1.5ms": -1500 * time.Microsecond,
		"0.1m": 6 * time.Second, "1.00000000000000000000s": time.Second,
	} {
		if got, err := Parse(s); err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"1.5ns", "0.4ns", "1.0000000005s", "0.0000001ms", "1h0.0001ns", "0.00000000000001h",
		"1.00000000000000000001s", "0.5ns", "", "1", "x"} {
		if got, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) = %v; want an error", s, got)
		}
	}
}

// A duration written well but past a time.Duration's range says so
// (ErrRange), where time.ParseDuration calls it invalid; one written
// badly does not.
func TestParseNamesTheRange(t *testing.T) {
	for _, s := range []string{"2562048h", "-2562048h", "9223372036854775808ns", "2562047h48m", "1.5e3h0s99999999999999999999h"} {
		if _, err := Parse(s); s != "1.5e3h0s99999999999999999999h" && !errors.Is(err, ErrRange) {
			t.Errorf("Parse(%q): %v; want ErrRange", s, err)
		} else if s == "1.5e3h0s99999999999999999999h" && errors.Is(err, ErrRange) {
			t.Errorf("Parse(%q): %v; want no ErrRange: it is not written as a duration", s, err)
		}
	}
	for _, s := range []string{"2562047h47m16.854775807s", "-2562047h47m16.854775808s"} {
		if _, err := Parse(s); err != nil {
			t.Errorf("Parse(%q): %v; want the end of the range read", s, err)
		}
	}
	for _, s := range []string{"", "1", "x", "1h-1m", ".h", "1.5ns"} {
		if _, err := Parse(s); err == nil || errors.Is(err, ErrRange) {
			t.Errorf("Parse(%q): %v; want an error, not ErrRange", s, err)
		}
	}
}

// Components that sum past a time.Duration are ErrRange, also where
// time.ParseDuration's running sum wraps to 0 in its uint64 and it reads
// them without an error (two of 2^63 nanoseconds read as 0s; found by a
// review); sums at the range's ends are read.
func TestParseNamesASumPastTheRange(t *testing.T) {
	for _, s := range []string{
		"9223372036854775808ns9223372036854775808ns",
		"9223372036854775808ns9223372036854775808ns5s",
		"9223372036.854775808s9223372036.854775808s1ms",
		"-9223372036854775808ns9223372036854775808ns1h",
		"2562047h47m16.854775807s1ns",
		"-2562047h47m16.854775808s1ns",
	} {
		if d, err := Parse(s); !errors.Is(err, ErrRange) {
			t.Errorf("Parse(%q) = %v, %v; want ErrRange", s, d, err)
		}
	}
	for s, want := range map[string]time.Duration{
		"2562047h47m16.854775806s1ns":  math.MaxInt64,
		"-2562047h47m16.854775807s1ns": math.MinInt64,
		"-9223372036854775808ns":       math.MinInt64,
		"1h30m":                        90 * time.Minute,
	} {
		if d, err := Parse(s); d != want || err != nil {
			t.Errorf("Parse(%q) = %v, %v; want %v", s, d, err, want)
		}
	}
}
