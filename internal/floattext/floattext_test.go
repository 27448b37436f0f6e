package floattext

import (
	"errors"
	"math"
	"testing"
)

// A number is written as 0 when every digit of its mantissa is 0, in any
// base and with any exponent; any other that ParseFloat reads as 0 is too
// small for a float64 (the smallest it holds is 2^-1074, about 4.9e-324:
// half of it or less rounds to 0).
func TestParseFloatRefusesOnlyNumbersTooSmall(t *testing.T) {
	for _, s := range []string{"0", "-0", "+0", "0.0", "00.000", "0e9", "0e-999", "0x0p-3", "0X0P5", "0x0.0p0", "0_0", ".0", "0.", "0.0000e-330001"} {
		if v, err := ParseFloat(s); v != 0 || err != nil {
			t.Errorf("ParseFloat(%q) = %v, %v; want 0, nil", s, v, err)
		}
	}
	for _, s := range []string{"1e-400", "-1e-400", "2e-324", "0.0001e-330001", "0x1p-1080", "0x0.1p-1075", "1e-99999"} {
		if v, err := ParseFloat(s); v != 0 || !errors.Is(err, ErrTooSmall) {
			t.Errorf("ParseFloat(%q) = %v, %v; want 0, ErrTooSmall", s, v, err)
		}
	}
	for s, want := range map[string]float64{"5e-324": math.SmallestNonzeroFloat64, "3e-324": math.SmallestNonzeroFloat64, "0.5": 0.5, "-2": -2, "0x1p-1074": math.SmallestNonzeroFloat64} {
		if v, err := ParseFloat(s); v != want || err != nil {
			t.Errorf("ParseFloat(%q) = %v, %v; want %v, nil", s, v, err, want)
		}
	}
	if _, err := ParseFloat("1e400"); err == nil {
		t.Error("ParseFloat(1e400): no error; want strconv's, out of range")
	}
}
