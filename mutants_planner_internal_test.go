package konvoy

import "testing"

// approxText's doc says "below 0.0001 or from 10^15 on, in exponent
// form": 10^15 itself, a whole number, is "1e+15", not sixteen digits
// (found by mutation testing: slo.go's approxText survived taking
// exponent form only above 10^15).
func TestApproxTextWritesTenToThe15InExponentForm(t *testing.T) {
	if got := approxText(1e15); got != "1e+15" {
		t.Errorf("approxText(1e15) = %q; want %q", got, "1e+15")
	}
}
