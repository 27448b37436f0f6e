package konvoy_test

import (
	"iter"
	"strconv"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/memtest"
)

// batchOfKeys yields n events of 100 keys, all arriving at round 0 (a
// batch, as the lesson's trace is), each key's steps 1, 2, 3, … in turn,
// durations 1 to 3.
func batchOfKeys(n int) iter.Seq2[konvoy.Event, error] {
	keys := make([]string, 100)
	for i := range keys {
		keys[i] = "k" + strconv.Itoa(i)
	}
	return func(yield func(konvoy.Event, error) bool) {
		for i := range n {
			if !yield(konvoy.Event{Key: keys[i%100], Step: i/100 + 1, Duration: 1 + i%3}, nil) {
				return
			}
		}
	}
}

// PlanConsumers' memory grows with the keys, not the events: its ceiling
// run, a consumer for every event, reads the run's times alone and holds
// no event for applying, so a batch of 400,000 events of 100 keys, all
// arriving at round 0, is planned in a few megabytes (it allocated about
// 100 MB, 250 bytes an event, when the run held each event until the end).
// A peak no count reaches makes the ceiling run the only one.
func TestPlanConsumersOfABatchRunsInBoundedMemory(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	const n, budget = 400_000, 4 << 20
	for _, l := range []konvoy.Layout{konvoy.Free, konvoy.Convoy} {
		var p konvoy.Plan
		got := memtest.Allocated(func() {
			var err error
			p, err = konvoy.PlanConsumers(batchOfKeys(n), l, konvoy.PlanConfig{Peak: 1e12, RoundSeconds: 1, MaxConsumers: 4})
			if err != nil {
				t.Fatal(err)
			}
		})
		if p.Events != n || p.Consumers != 0 {
			t.Fatalf("%s: %d events, %d consumers; want %d, 0", l, p.Events, p.Consumers, n)
		}
		if got > budget {
			t.Errorf("%s: planning a batch of %d events of 100 keys allocates %d bytes; want at most %d", l, n, got, budget)
		}
	}
}
