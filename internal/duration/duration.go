// Package duration reads durations as time.ParseDuration does, but
// refuses the part below a nanosecond that ParseDuration drops without a
// word: "1.5ns" is an error, not 1ns.
package duration

import (
	"errors"
	"fmt"
	"math/bits"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Parse returns the duration s, as time.ParseDuration reads it, and an
// error when ParseDuration does or when s holds a part below a nanosecond
// ("1.5ns", "1.0000000005s"), which a time.Duration cannot hold; the error
// of a duration written well but past what a time.Duration holds
// ("2562048h") wraps ErrRange. It takes time in proportion to len(s).
func Parse(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		if written.MatchString(s) {
			return 0, fmt.Errorf("duration %q: %w", s, ErrRange)
		}
		return 0, err
	}
	if belowNanosecond(s) {
		return 0, fmt.Errorf("duration %q: want whole nanoseconds; it has a part below one", s)
	}
	return d, nil
}

// ErrRange is wrapped by Parse's error for a duration written as
// time.ParseDuration reads one but longer than a time.Duration holds:
// more than math.MaxInt64 nanoseconds either way.
var ErrRange = errors.New("want at most 2562047h47m16.854775807s either way, the longest a time.Duration holds")

// written is time.ParseDuration's syntax, but for "0" alone, which it
// always reads: a sign, then numbers each with a unit.
var written = regexp.MustCompile(`^[-+]?(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+$`)

// unitNanos are the nanoseconds of ParseDuration's units.
var unitNanos = map[string]uint64{"ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9}

// belowNanosecond tells whether s, which ParseDuration read, has a
// component whose fraction of its unit is no whole number of nanoseconds.
// A fraction f of k digits, without trailing zeros, of a unit of u
// nanoseconds is whole when 10^k divides f·u; u is at most 2^13·3^2·5^11,
// and f is not a multiple of 10, so beyond 13 digits it never is.
func belowNanosecond(s string) bool {
	s = strings.TrimLeft(s, "+-")
	for s != "" {
		i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
		if i < 0 {
			return false // "0" alone
		}
		num, rest := s[:i], s[i:]
		j := strings.IndexFunc(rest, func(r rune) bool { return r >= '0' && r <= '9' || r == '.' })
		unit := rest
		if j >= 0 {
			unit, rest = rest[:j], rest[j:]
		} else {
			rest = ""
		}
		s = rest
		_, frac, _ := strings.Cut(num, ".")
		frac = strings.TrimRight(frac, "0")
		if frac == "" {
			continue
		}
		if len(frac) > 13 {
			return true
		}
		f, _ := strconv.ParseUint(frac, 10, 64) // 13 digits at most
		p := uint64(1)
		for range frac {
			p *= 10
		}
		hi, lo := bits.Mul64(f, unitNanos[unit])
		if _, rem := bits.Div64(hi%p, lo, p); rem != 0 {
			return true
		}
	}
	return false
}
