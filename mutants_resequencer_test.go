package konvoy_test

import (
	"math"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// GapsSkipped may reach the largest int exactly, with no overflow error;
// one step more is an error. Under a Timeout of 1 round, on one consumer:
// key A's only event, at step MaxInt, is held at its finish (round 1) and
// given up on at round 2, when key B's first event finishes, skipping the
// MaxInt−1 steps 1 … MaxInt−1. B's step 1 is then applied, and its step 3,
// held, is given up on at the run's end, skipping step 2: MaxInt−1 + 1 =
// MaxInt steps in all, which fits. With B's next step at 4 instead, the
// two steps 2 and 3 skipped make MaxInt+1, which does not, and Result
// returns an error rather than a wrong count. The second skip is taken
// from B's state 1, not 0, so a bound that misreads the state is caught.
func TestGapsSkippedMayReachTheLargestIntExactly(t *testing.T) {
	run := func(last int) (konvoy.Result, error) {
		events := []konvoy.Event{
			{Key: "A", Step: math.MaxInt, Duration: 1},
			{Key: "B", Step: 1, Duration: 1, Arrival: 10},
			{Key: "B", Step: last, Duration: 1, Arrival: 20},
		}
		return konvoy.Simulate(events, konvoy.Resequencer, 1, konvoy.WithResequencer(konvoy.ResequencerConfig{Timeout: 1}))
	}
	r, err := run(3)
	if err != nil || r.GapsSkipped != math.MaxInt || r.Forced != 2 {
		t.Errorf("steps skipped up to MaxInt: GapsSkipped %d, Forced %d, error %v; want MaxInt, 2, nil", r.GapsSkipped, r.Forced, err)
	}
	if _, err := run(4); err == nil {
		t.Errorf("steps skipped past MaxInt: no error")
	}
}
