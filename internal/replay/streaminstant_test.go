package replay

import (
	"context"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// A Stream's event arrives when it is added, not at the start of its
// round: the measured run and the prediction from actual times count from
// that instant, so that an event a consumer takes at once waits about
// nothing in both, and the measured makespan matches the prediction from
// actual times. Here the one event comes 80ms into a round of 100ms; with
// the round's start as its arrival the measured wait was 80ms more than
// it was, and the makespan's gap, all of it called dispatch, 80%
// (found by a review). The bounds leave 40ms for a busy machine.
func TestAStreamMeasuresFromTheInstantAdded(t *testing.T) {
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.LaneAware, Consumers: 1, Unit: 100 * time.Millisecond}
	s, err := NewStream("stream", c, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	x, err := live.New(c.Layout, c.Consumers, StreamItem.Event, s.Handle, c.LiveOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(80 * time.Millisecond)
	it, err := s.Add(konvoy.Event{Key: "a", Step: 1, Duration: 1}, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if it.Event().Arrival != 0 {
		t.Fatalf("arrival %d rounds; want 0, the round it came in", it.Event().Arrival)
	}
	if err := x.Submit(context.Background(), it); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	tr, run, _, err := s.Close(x.Stats())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { tr.Close(); run.Close() }()
	cmp, err := Compare(tr, c, run)
	if err != nil {
		t.Fatal(err)
	}
	const slack = 40 * time.Millisecond
	if w := cmp.Measured.WaitMax; w > slack {
		t.Errorf("measured wait %v; want about 0, the event taken as it came", w)
	}
	if w := cmp.FromActual.WaitMax; w != 0 {
		t.Errorf("predicted wait from actual times %v; want 0", w)
	}
	if gap := cmp.Measured.Makespan - cmp.FromActual.Makespan; gap > slack || gap < -slack {
		t.Errorf("measured makespan %v, from actual times %v; want them within %v", cmp.Measured.Makespan, cmp.FromActual.Makespan, slack)
	}
}
