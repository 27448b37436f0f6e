package konvoy

import (
	"math"
	"testing"
)

// atMost scales x by 10^300 in two steps only where 10^k is past
// float64's range (k above 300, as its comment says); at k = 300 it
// scales by math.Pow(10, 300) in one step, and the digits it writes for a
// budget within a few units in its last place of four digits rest on that
// choice: 1.001e-297 twelve units in its last place short reads
// 1.001e-297 so, and 1e-297 when scaled by the constant 1e300, which
// differs from math.Pow(10, 300) by 4 units in its last place. Twelve
// units short is within floorNear's slack of sixteen, so 1.001e-297 is
// what a budget so written counts as, and what it should read (found by
// mutation testing: plan.go survived taking the two-step scaling from
// k = 300 on rather than above it).
func TestAtMostOfABudgetJustShortOfFourDigitsAt10ToTheMinus297(t *testing.T) {
	x := 1.001e-297
	for range 12 {
		x = math.Nextafter(x, 0)
	}
	if got, want := atMost(x), "1.001e-297"; got != want {
		t.Errorf("atMost(%v) = %s; want %s", x, got, want)
	}
}
