// Package duration reads durations as time.ParseDuration does, but
// refuses the part below a nanosecond that ParseDuration drops without a
// word: "1.5ns" is an error, not 1ns.
package duration

import (
	"errors"
	"fmt"
	"math"
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
	if pastRange(s) {
		return 0, fmt.Errorf("duration %q: %w", s, ErrRange)
	}
	if belowNanosecond(s) {
		return 0, fmt.Errorf("duration %q: want whole nanoseconds; it has a part below one", s)
	}
	return d, nil
}

// ErrRange is wrapped by Parse's error for a duration written as
// time.ParseDuration reads one but longer than a time.Duration holds:
// more than Longest either way.
var ErrRange = fmt.Errorf("want at most %v either way, the longest a time.Duration holds", Longest)

// Longest is the longest a time.Duration holds.
const Longest = time.Duration(math.MaxInt64)

// TooLong tells whether err, Parse's error for s, says that s is longer
// than Longest, rather than below -Longest or badly written.
func TooLong(s string, err error) bool {
	return errors.Is(err, ErrRange) && !strings.HasPrefix(s, "-")
}

// written is time.ParseDuration's syntax, but for "0" alone, which it
// always reads: a sign, then numbers each with a unit.
var written = regexp.MustCompile(`^[-+]?(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+$`)

// unitNanos are the nanoseconds of ParseDuration's units.
var unitNanos = map[string]uint64{"ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9}

// parts calls f with each component of s, which ParseDuration read: its
// number, its unit, and the two as written, until f returns false. "0"
// alone has none.
func parts(s string, f func(num, unit, both string) bool) {
	s = strings.TrimLeft(s, "+-")
	for s != "" {
		i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
		if i < 0 {
			return // "0" alone
		}
		num, rest := s[:i], s[i:]
		j := strings.IndexFunc(rest, func(r rune) bool { return r >= '0' && r <= '9' || r == '.' })
		unit := rest
		if j >= 0 {
			unit, rest = rest[:j], rest[j:]
		} else {
			rest = ""
		}
		both := s[:len(num)+len(unit)]
		s = rest
		if !f(num, unit, both) {
			return
		}
	}
}

// pastRange tells whether s, which ParseDuration read without an error,
// sums to more than a time.Duration holds: ParseDuration checks each
// running sum against 2^63 in a uint64, so that two components of 2^63
// nanoseconds each wrap to 0 and pass ("9223372036854775808ns" twice read
// as 0s). It sums the components again, each as ParseDuration reads it
// alone (2^63 when that overflows, the most a component can be once the
// whole was read), with the carry kept; s of one component needs none of
// it.
func pastRange(s string) bool {
	var sum uint64
	var first string
	n, carried := 0, false
	add := func(c string) bool {
		v := uint64(1) << 63
		if d, err := time.ParseDuration(c); err == nil {
			v = uint64(d)
		}
		var carry uint64
		sum, carry = bits.Add64(sum, v, 0)
		carried = carry != 0
		return !carried
	}
	parts(s, func(_, _, both string) bool {
		switch n++; n {
		case 1:
			first = both // read once a second comes
			return true
		case 2:
			if !add(first) {
				return false
			}
		}
		return add(both)
	})
	if n < 2 {
		return false
	}
	most := uint64(1)<<63 - 1
	if strings.HasPrefix(s, "-") {
		most++
	}
	return carried || sum > most
}

// belowNanosecond tells whether s, which ParseDuration read, has a
// component whose fraction of its unit is no whole number of nanoseconds.
// A fraction f of k digits, without trailing zeros, of a unit of u
// nanoseconds is whole when 10^k divides f·u; u is at most 2^13·3^2·5^11,
// and f is not a multiple of 10, so beyond 13 digits it never is.
func belowNanosecond(s string) bool {
	below := false
	parts(s, func(num, unit, _ string) bool {
		_, frac, _ := strings.Cut(num, ".")
		frac = strings.TrimRight(frac, "0")
		if frac == "" {
			return true
		}
		if len(frac) > 13 {
			below = true
			return false
		}
		f, _ := strconv.ParseUint(frac, 10, 64) // 13 digits at most
		p := uint64(1)
		for range frac {
			p *= 10
		}
		hi, lo := bits.Mul64(f, unitNanos[unit])
		_, rem := bits.Div64(hi%p, lo, p)
		below = rem != 0
		return !below
	})
	return below
}
