package konvoy_test

// A resequencer that gives up on a gap by its Timeout still applies what it
// holds in step order: the
// Resequencer layout "applies the run in step order, as ... Apache Camel's
// stream resequencer does", whose timeouts release the lowest sequence
// number held, and GapsSkipped counts "the steps missing", not steps it has
// in hand. Today the held event that finished first is applied, skipping
// every step below it, held ones included: a key whose steps 5 and 3 both
// reach the resequencer has 5 applied, then 3 written backward (or rejected
// as old), and ends in a wrong final state, with 3 counted among the gaps
// skipped. Applying 3 first (skipping 1 and 2), then 5 (skipping 4) keeps
// the key right and skips only the 3 steps that never came.

import (
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

func TestResequencerGivingUpAGapKeepsHeldStepsInOrder(t *testing.T) {
	// Step 5 finishes at round 1, step 3 at round 2; steps 1, 2 and 4 never come.
	events := []konvoy.Event{{Key: "a", Step: 5, Duration: 1}, {Key: "a", Step: 3, Duration: 2}}
	for _, cfg := range []konvoy.ResequencerConfig{
		{Timeout: 10},
		{Timeout: 10, RejectOld: true},
	} {
		r, err := konvoy.Simulate(events, konvoy.Resequencer, 2, konvoy.WithResequencer(cfg), konvoy.WithSchedule(len(events)))
		if err != nil {
			t.Fatalf("%+v: %v", cfg, err)
		}
		if r.BackwardWrites != 0 || r.RejectedOld != 0 || r.WrongFinal != 0 || r.GapsSkipped != 3 {
			t.Errorf("%+v: %d backward writes, %d rejected old, wrong keys %v, %d gaps skipped; want 0, 0, none and 3 (steps 1, 2 and 4)\nschedule %+v",
				cfg, r.BackwardWrites, r.RejectedOld, r.WrongKeys, r.GapsSkipped, r.Schedule)
		}
	}
}
