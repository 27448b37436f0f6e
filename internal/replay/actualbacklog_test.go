package replay

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Compare sets a run beside its predictions whenever Load (here TraceOf)
// accepted its trace under the same Config: MaxBacklog bounds the
// prediction from planned times, checked before anything runs, not the
// prediction from actual times, which may hold more, since handlers are
// never early and one a fraction of a round late keeps its lane busy when
// the lane's next event arrives. Here event 0 (one round of 1ms) took
// 1.01ms, and events 1 and 2 of its lane arrive at round 1: planned, event
// 1 starts at once and 2 events are held; from the actual times both wait
// behind event 0, 3 events, over the limit of 2.
func TestCompareActualTimesWithinLoadedBacklog(t *testing.T) {
	events := []konvoy.Event{
		{Key: "a", Step: 1, Duration: 1, Arrival: 0},
		{Key: "a", Step: 2, Duration: 1, Arrival: 1},
		{Key: "a", Step: 3, Duration: 1, Arrival: 1},
	}
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.LaneAware, Consumers: 2, Unit: time.Millisecond, MaxBacklog: 2}
	tr, err := TraceOf("t", events, c)
	if err != nil {
		t.Fatalf("the trace is refused before it runs: %v", err)
	}
	defer tr.Close()
	actual, err := newTempFile()
	if err != nil {
		t.Fatal(err)
	}
	took := []time.Duration{1010 * time.Microsecond, 1005 * time.Microsecond, 1005 * time.Microsecond}
	var b []byte
	for _, d := range took {
		b = binary.LittleEndian.AppendUint64(b, uint64(d)+1) // as timesCache.put writes a handled event's
	}
	if _, err := actual.WriteAt(b, 0); err != nil {
		t.Fatal(err)
	}
	run := &Run{Start: time.Now(), Submitted: len(events), Total: len(events), actual: actual,
		Makespan: 3100 * time.Microsecond, Work: 3020 * time.Microsecond}
	defer run.Close()
	cmp, err := Compare(tr, c, run)
	if err != nil {
		t.Fatalf("Compare of a run whose trace was accepted: %v; want the comparison", err)
	}
	if cmp.FromActual.Events != len(events) {
		t.Errorf("the prediction from actual times covers %d events; want %d", cmp.FromActual.Events, len(events))
	}
}
