package synth

import (
	"math/big"
	"testing"
)

// A lifecycle's ordered steps sit at ⌊k·(steps−1)/(ordered−1)⌋ up to
// MaxSteps steps, on every platform: on 386, where int has 32 bits,
// k·(steps−1) passes it from 46,342 steps on, and the position came out
// negative (found by a review: 50,000 steps, all ordered, panicked with
// index −42950). The positions are checked against big.Int's, on amd64
// too, where an int holds the product anyway.
func TestPatternPlacesOrderedStepsUpToMaxSteps(t *testing.T) {
	for _, c := range [][2]int{{MaxSteps, MaxSteps}, {MaxSteps, 40_000}, {50_000, 50_000}, {7, 4}} {
		steps, ordered := c[0], c[1]
		p := pattern(steps, ordered)
		want := make([]int32, steps)
		for k := range ordered {
			at := new(big.Int).Mul(big.NewInt(int64(k)), big.NewInt(int64(steps-1)))
			at.Quo(at, big.NewInt(int64(ordered-1)))
			want[at.Int64()] = int32(k + 1)
		}
		for i := range want {
			if p[i] != want[i] {
				t.Fatalf("pattern(%d, %d)[%d] = %d; want %d", steps, ordered, i, p[i], want[i])
			}
		}
	}
}
