package konvoy

import (
	"math"
	"testing"
)

// approxText writes a number of consumers' worth, or of rounds, with four
// significant digits, and more where fewer would make a fraction read as
// a whole number; whole numbers with none, and the far ends in exponent
// form.
func TestApproxTextKeepsFourDigitsAndEveryFraction(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{2.0092133, "2.009"}, {66.66, "66.66"}, {1.25, "1.25"}, {1234.5678, "1234.6"}, {0.000123456, "0.0001235"},
		{40001.0 / 40000, "1.00002"}, {2, "2"}, {40000.4, "40000.4"}, {5e-324, "4.941e-324"}, {1e300, "1e+300"}, {0, "0"},
		// Within 16 units in the last place of a whole number: that number,
		// from below and above; 17 units off: the fraction. Never 0: a
		// share above 0 is written above 0.
		{4 * 5e-324, "1.976e-323"},
		{20 / (0.001 * 0.01), "2000000"}, {1999999.9999999998, "2000000"}, {math.Nextafter(3, 4), "3"},
		{3 + 16*0x1p-51, "3"}, {3 + 17*0x1p-51, "3.00000000000001"}, {3 - 17*0x1p-51, "2.99999999999999"},
	} {
		if got := approxText(c.v); got != c.want {
			t.Errorf("approxText(%v) = %q; want %q", c.v, got, c.want)
		}
	}
}
