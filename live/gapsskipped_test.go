package live

import (
	"context"
	"math"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// GapsSkipped counts the steps given up on, and stays at math.MaxInt
// once they pass it, rather than wrapping below 0: under a Capacity of 1,
// keys a, b and c each send step math.MaxInt alone, b's item pushes a's
// out, skipping a's steps 1 to MaxInt−1, and c's pushes b's out, skipping
// as many again. (The model's run of the same stream ends in an error,
// as a run's result is whole or none.)
func TestGapsSkippedStopsAtTheLargestInt(t *testing.T) {
	x, err := New(konvoy.Resequencer, 1, func(e konvoy.Event) konvoy.Event { return e },
		func(context.Context, konvoy.Event) error { return nil },
		WithResequencer(konvoy.ResequencerConfig{Capacity: 1}, 0))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b", "c"} {
		if err := x.Submit(context.Background(), konvoy.Event{Key: k, Step: math.MaxInt}); err != nil {
			t.Fatal(err)
		}
	}
	x.Close(context.Background()) // c's item is never applied: ErrNeverApplied, as the model's
	if s := x.Stats(); s.GapsSkipped != math.MaxInt || s.Forced != 2 {
		t.Errorf("GapsSkipped = %d, Forced %d after two gaps of math.MaxInt−1 steps skipped; want math.MaxInt and 2", s.GapsSkipped, s.Forced)
	}
}
