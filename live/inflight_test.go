package live

import (
	"context"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// Stats.MaxInFlight is the most items that ran at once. Under
// head-of-line, two items of one lane on two consumers never run at once:
// the consumer that takes the second blocks until the first finishes, and
// is counted running only once the lane is its, so MaxInFlight says 1.
func TestHeadOfLineBlockedConsumerIsNotInFlight(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	handle := func(_ context.Context, i int) error {
		if i == 0 {
			close(started)
			<-release
		}
		return nil
	}
	x, err := New(konvoy.Convoy, 2, func(int) konvoy.Event { return konvoy.Event{Key: "k"} }, handle,
		WithPolicy(konvoy.HeadOfLine))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	waitFor(t, started, "item 0's start")
	if err := x.Submit(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	// The other consumer takes item 1 and blocks on the busy lane.
	spinUntil(t, func() bool { return laneWaiterBlocked(x, "k") }, "a consumer blocked on lane k")
	close(release)
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	if s := x.Stats(); s.MaxInFlight != 1 {
		t.Fatalf("Stats.MaxInFlight = %d; want 1: the two items of lane k ran one after the other (Blocked %v)", s.MaxInFlight, s.Blocked)
	}
}

// laneWaiterBlocked tells whether, under head-of-line, a consumer is
// blocked holding the first waiting item of the lane named name.
func laneWaiterBlocked[T any](x *Executor[T], name string) bool {
	h := x.laneHash(name)
	s := x.shardOf(h)
	s.mu.Lock()
	defer s.mu.Unlock()
	p, found := s.table.find(name, h)
	if !found {
		return false
	}
	l := &s.table.lanes[s.table.index(p)]
	return l.head >= 0 && s.queued[l.head].waiter >= 0
}
