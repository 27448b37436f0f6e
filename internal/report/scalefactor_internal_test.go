package report

import (
	"math"
	"testing"
	"time"
)

// scaleFactor divides in turn, but where n/peak overflows, for a subnormal
// peak, it takes the product's quotient: 3 events over 6 rounds of an
// hour at 3e-309 events/s scale by about 4.63e304, where dividing in turn
// gave +Inf (found by a review).
func TestScaleFactorOfASubnormalPeakIsFinite(t *testing.T) {
	f := scaleFactor(3, 3e-309, time.Hour, 6)
	if want := 3 / (3e-309 * 3600 * 6); math.IsInf(f, 0) || math.Abs(f-want) > want*1e-12 {
		t.Errorf("scaleFactor = %g; want about %g", f, want)
	}
}
