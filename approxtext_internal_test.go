package konvoy

import "testing"

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
	} {
		if got := approxText(c.v); got != c.want {
			t.Errorf("approxText(%v) = %q; want %q", c.v, got, c.want)
		}
	}
}
