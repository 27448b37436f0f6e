// Package floattext tells a number written as 0 from one too small for a
// float64, which strconv.ParseFloat reads as 0 with no error: "1e-400" is
// not 0, and a flag or parameter given it is refused rather than read as
// 0, which the user did not write.
package floattext

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// writtenAsZero tells whether t, a number strconv.ParseFloat read as 0,
// is written as 0 (0.0, -0, 0e9, 0x0p-3), not as a number too small to
// hold: whether its digits before the exponent are all 0. It takes time
// in proportion to len(t).
func writtenAsZero(t string) bool {
	t = strings.ToLower(strings.TrimLeft(t, "+-"))
	exponent := "e"
	for _, prefix := range []string{"0x", "0b", "0o"} {
		if rest, ok := strings.CutPrefix(t, prefix); ok {
			t, exponent = rest, "p" // a hexadecimal mantissa holds e as a digit
		}
	}
	mantissa, _, _ := strings.Cut(t, exponent)
	return strings.Trim(mantissa, "0._") == ""
}

// ErrTooSmall is ParseFloat's error for a number too small for a float64.
// It wants a number of at least float64's smallest in size, not "0 or"
// that: a number that is written as 0 is read as 0, but whether 0 is taken
// is for the flag or parameter, some of which refuse it (-peak).
var ErrTooSmall = fmt.Errorf("too small for a float64, which reads it as 0; want at least %g in size", math.SmallestNonzeroFloat64)

// ParseFloat returns s as strconv.ParseFloat(s, 64) reads it, with its
// error, and ErrTooSmall for a number it reads as 0 that is not written
// as 0.
func ParseFloat(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err == nil && v == 0 && !writtenAsZero(s) {
		return 0, ErrTooSmall
	}
	return v, err
}
