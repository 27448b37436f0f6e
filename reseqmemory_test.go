package konvoy_test

import (
	"runtime"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/memtest"
)

// A resequencer whose Capacity or Timeout bounds what it holds runs in
// memory that the bound sets, not the events (ResequencerConfig.Capacity:
// "bounds Result.MaxBuffered, and the resequencer's memory"): here every
// event leaves a gap, is held, and is forced out by the next (Capacity 1)
// or by its timeout (Timeout 25), so that one to three are held at any
// time. What the run holds (the heap once collected) is the same after
// 40,000 events and after 400,000. The queue of held events in finish
// order dropped the entries it had passed only when it emptied, which it
// never did: it held tens of bytes an event.
func TestABoundedResequencerDoesNotGrowWithTheEvents(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	const n, slack = 400_000, 1 << 20
	held := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for _, rc := range []konvoy.ResequencerConfig{{Capacity: 1}, {Timeout: 25}} {
		s, err := konvoy.NewSimulator(konvoy.Resequencer, 1, konvoy.WithResequencer(rc))
		if err != nil {
			t.Fatal(err)
		}
		var early uint64
		for i := range n {
			if i == n/10 {
				early = held()
			}
			if err := s.Add(konvoy.Event{Key: "k", Step: 2*i + 2, Duration: 1, Arrival: 10 * i}); err != nil {
				t.Fatal(err)
			}
		}
		late := held()
		r, err := s.Result()
		if err != nil {
			t.Fatal(err)
		}
		if r.MaxBuffered > 3 || r.Forced < n-1 {
			t.Fatalf("%+v: MaxBuffered %d, Forced %d; want at most 3 held, and all but the last forced", rc, r.MaxBuffered, r.Forced)
		}
		if late > early+slack {
			t.Errorf("%+v: the run held %d bytes after %d events and %d after %d, with at most %d events held; want at most %d more",
				rc, early, n/10, late, n, r.MaxBuffered, slack)
		}
	}
}
