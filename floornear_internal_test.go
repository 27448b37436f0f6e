package konvoy

import (
	"math"
	"testing"
)

// floorNear takes a value up to 16 units in its last place below a whole
// number as that number, and one 17 below as below it: the slack of
// floating point, not of the value (see atMost).
func TestFloorNearTakesSixteenUnitsInTheLastPlace(t *testing.T) {
	below := func(v float64, n int) float64 {
		for range n {
			v = math.Nextafter(v, 0)
		}
		return v
	}
	for _, tt := range []struct {
		v    float64
		want float64
	}{
		{below(10, 16), 10}, {below(10, 17), 9}, {below(10, 1), 10}, {10, 10}, {9.5, 9}, {0, 0}, {below(1e4, 16), 1e4}, {below(1e4, 17), 9999},
	} {
		if got := floorNear(tt.v); got != tt.want {
			t.Errorf("floorNear(%v) = %v; want %v", tt.v, got, tt.want)
		}
	}
}

// atMost writes four significant digits, rounded down, for a subnormal
// budget too (PlanConfig{Peak: 1.7e305, RoundSeconds: 1000}, one event):
// math.Log10 misread its decade, and it kept three (found by a review).
func TestAtMostOfASubnormalBudget(t *testing.T) {
	x := 1 / (1.7e305 * 1000)
	if got, want := atMost(x), "5.882e-309"; got != want {
		t.Errorf("atMost(%v) = %s; want %s", x, got, want)
	}
}
