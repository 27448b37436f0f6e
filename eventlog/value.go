package eventlog

import (
	"fmt"
	"math"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/duration"
)

// wantWhole is what a whole-round value must be.
const wantWhole = "want a whole number of rounds ≥ 0"

// wantStep is what a step must be.
const wantStep = "want a whole number ≥ 0 (0 for a history-only record)"

// wantPartition is what a recorded partition must be.
var wantPartition = fmt.Sprintf("want a partition number, a whole number from 0 to %d", konvoy.MaxPartitions-1)

// parsePartition parses a recorded partition.
func parsePartition(s string) (int, bool) {
	n, ok := parseWhole(s)
	return n, ok && n < konvoy.MaxPartitions
}

// parseWhole parses a whole number ≥ 0 written in decimal digits only,
// leading zeros and all; false for one past the largest int (see fits).
func parseWhole(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if n > (math.MaxInt-int(c-'0'))/10 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// fits returns want, what a whole number must be, for s, which parseWhole
// refused: with " that fits in an int" when s is digits alone, too many.
func fits(s, want string) string {
	if digits(s) {
		return want + " that fits in an int"
	}
	return want
}

// stepFits returns what a step must be, for s, which parseWhole refused.
func stepFits(s string) string {
	if digits(s) {
		return "want a whole number ≥ 0 that fits in an int"
	}
	return wantStep
}

// digits tells whether s is decimal digits alone, at least one.
func digits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// bare tells whether s is to be read as whole rounds under a Resolution: a
// bare number, digits alone, read so under BareRounds.
func (d *Decoder) bare(s string) bool {
	return d.opt.BareRounds && digits(s)
}

// rounds parses a duration or arrival: a whole number of rounds, or, with a
// Resolution, a duration with units (or, under BareRounds, a bare whole
// number of rounds). It returns what was wanted on failure.
func (d *Decoder) rounds(s string) (int, string) {
	res := d.opt.Resolution
	if res == 0 || d.bare(s) {
		n, ok := parseWhole(s)
		if !ok {
			return 0, fits(s, wantWhole)
		}
		return n, ""
	}
	v, err := duration.Parse(s)
	if err != nil {
		return 0, d.wantDuration(s, err)
	}
	if v < 0 {
		if d.opt.Round {
			return 0, "want a duration ≥ 0"
		}
		return 0, fmt.Sprintf("want a duration ≥ 0, in whole rounds of %v", res)
	}
	if v%res != 0 {
		if !d.opt.Round {
			return 0, fmt.Sprintf("want a whole multiple of one round, %v; it does not divide exactly, and rounding is off (-round rounds to the nearest)", res)
		}
		d.rounded++
	}
	r := nearestRounds(int64(v), int64(res))
	if r > math.MaxInt { // a 32-bit int
		return 0, fmt.Sprintf("want at most %d rounds of %v", math.MaxInt, res)
	}
	return int(r), ""
}

// nearestRounds returns v nanoseconds in rounds of res, to the nearest,
// halves away from zero (a remainder takes v's sign), exact however near
// v is to the largest int64, where time.Duration.Round stops short.
func nearestRounds(v, res int64) int64 {
	r, m := v/res, v%res
	switch {
	case m > 0 && m >= res-m:
		r++
	case m < 0 && -m >= res+m:
		r--
	}
	return r
}

// wantDuration is what a duration or an arrival s that does not read,
// under a Resolution, should have been, err the reason: with BareRounds,
// a whole number of rounds is one too. One past what a time.Duration
// holds says so.
func (d *Decoder) wantDuration(s string, err error) string {
	if duration.TooLong(s, err) {
		return fmt.Sprintf("want a duration of at most %v, the longest a time.Duration holds", duration.Longest)
	}
	whole := fmt.Sprintf(" and whole rounds of %v", d.opt.Resolution)
	if d.opt.Round { // rounds are rounded to: only the nanoseconds must be whole
		whole = fmt.Sprintf(" (-round rounds it to rounds of %v)", d.opt.Resolution)
	}
	want := "a duration ≥ 0 with a unit, like \"150ms\" or \"2.5s\", in whole nanoseconds" + whole
	if d.opt.BareRounds {
		return "want a whole number of rounds ≥ 0, or " + want
	}
	return "want " + want
}
