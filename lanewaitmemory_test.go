package konvoy_test

import (
	"fmt"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/memtest"
)

// Lane-aware dispatch "holds what the broker would, the events no consumer
// can take yet, so it is bounded when the key keeps pace"
// (TestAHotKeyRunsInBoundedMemory), and a Simulator runs "in memory that
// grows with the keys and lanes, not the events" (the package doc) beyond a
// backlog that "grows while consumers fall behind" (Layout.HoldsBacklog).
// Here one event waits, behind a long one of its key, while the other
// consumer keeps pace with everything else: 200,000 events of 100 keys, one
// a round, each done in a round. The broker would hold that one event; the
// run holds every event that came after it, taken and done or not, until
// the long event ends, so its memory grows with the events (tens of bytes
// each), not with what waits.
func TestOneWaitingEventDoesNotHoldTheEventsAfterIt(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	const n, budget = 200_000, 2 << 20
	got := memtest.Allocated(func() {
		s, err := konvoy.NewSimulator(konvoy.Convoy, 2, konvoy.WithPolicy(konvoy.LaneAware))
		if err != nil {
			t.Fatal(err)
		}
		s.Add(konvoy.Event{Key: "long", Step: 1, Duration: 1 << 30}) // past every arrival: fits a 32-bit int
		s.Add(konvoy.Event{Key: "long", Step: 2, Duration: 1})       // waits for its lane
		keys := make([]string, 100)
		for i := range keys {
			keys[i] = fmt.Sprint("k", i)
		}
		for i := range n {
			if err := s.Add(konvoy.Event{Key: keys[i%100], Step: 1 + i/100, Duration: 1, Arrival: i}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Result(); err != nil {
			t.Fatal(err)
		}
	})
	if got > budget {
		t.Errorf("%d bytes (%d an event) for a run in which one event waits; want at most %d", got, got/n, budget)
	}
}
