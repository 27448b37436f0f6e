package konvoy

import (
	"slices"
	"testing"
)

// A backlog of 3000 events, all waiting for one busy lane, that then
// drains in a single Add must still be let go of: the lane-aware
// dispatcher vacates each event's slot as a consumer takes it, so after the
// drain it holds none, and a second backlog as long reuses the slots
// rather than growing them with the run.
func TestLaneAwareForgetsADrainedBacklog(t *testing.T) {
	s, err := NewSimulator(Convoy, 2, WithPolicy(LaneAware))
	if err != nil {
		t.Fatal(err)
	}
	const backlog = 3000
	var events []Event
	for _, from := range []int{0, 20000} {
		// The first event keeps lane A busy for 10000 rounds; the rest of
		// A's events wait.
		events = append(events, Event{Key: "A", Step: len(events) + 1, Duration: 10000, Arrival: from})
		for range backlog {
			events = append(events, Event{Key: "A", Step: len(events) + 1, Duration: 1, Arrival: from})
		}
		// An event arriving after the backlog's end lets it all drain at once.
		events = append(events, Event{Key: "B", Step: len(events) + 1, Duration: 1, Arrival: from + 15000})
	}
	for i, e := range events {
		if err := s.Add(e); err != nil {
			t.Fatal(err)
		}
		a := s.dispatch.(*laneAware)
		checkLaneAwareSlots(t, a)
		if a.waiting > backlog || a.slots.len() > backlog+1 {
			t.Fatalf("after event %d: %d events waiting in %d slots; want at most %d waiting, in at most %d slots", i, a.waiting, a.slots.len(), backlog, backlog+1)
		}
		if (i == backlog+1 || i == len(events)-1) && a.waiting != 0 {
			t.Fatalf("after the drain at event %d: %d events waiting; want none", i, a.waiting)
		}
	}
}

// With no event held, oldestEligible returns no slot and no lane, -1 and
// -1, as its doc says, and so does a dispatcher whose held event waits
// for its lane.
func TestLaneAwareOldestEligibleOfNoneIsMinusOne(t *testing.T) {
	s, err := NewSimulator(Convoy, 2, WithPolicy(LaneAware))
	if err != nil {
		t.Fatal(err)
	}
	a := s.dispatch.(*laneAware)
	if h, ln, ready := a.oldestEligible(0); h != -1 || ln != -1 || ready {
		t.Fatalf("nothing held: slot %d, lane %d, ready %v; want -1, -1, false", h, ln, ready)
	}
	for step := 1; step <= 2; step++ {
		if err := s.Add(Event{Key: "A", Step: step, Duration: 10}); err != nil {
			t.Fatal(err)
		}
	}
	if a.waiting != 1 {
		t.Fatalf("%d events waiting; want A's second, behind its first", a.waiting)
	}
	if h, ln, ready := a.oldestEligible(0); h != -1 || ln != -1 || ready {
		t.Fatalf("an event waiting for its lane: slot %d, lane %d, ready %v; want -1, -1, false", h, ln, ready)
	}
}

// buckets yields only the buckets with a count, as its doc says, the exact
// ones below ExactLatency included: the counts of every value under
// ExactLatency are kept, mostly zero, and none of those zeros may show.
func TestHistogramBucketsSkipEmptyCounts(t *testing.T) {
	var h histogram
	h.add(3)
	h.add(5)
	h.add(5)
	h.add(ExactLatency) // an octave above, whose other counts are zero too
	var got []bucket
	for b := range h.buckets {
		if b.count == 0 {
			t.Fatalf("buckets yields the empty bucket %v", b)
		}
		got = append(got, b)
	}
	want := []bucket{{3, 3, 1}, {5, 5, 2}, {ExactLatency, ExactLatency + 1<<1 - 1, 1}}
	if !slices.Equal(got, want) {
		t.Fatalf("buckets %v; want %v", got, want)
	}
}

// busy may make busy a consumer above the next untouched one, as its doc
// allows (the built-in policies never do): the tree must then grow to hold
// that consumer's leaf, not merely double, and every consumer below it,
// touched on the way, is free at round 0.
func TestConsumerQueueTouchesAConsumerFarAbove(t *testing.T) {
	q := newConsumerQueue(8)
	q.busy(5, 3) // the tree has one leaf: consumer 5's needs doubling twice over
	if got := q.freeAt(5); got != 3 {
		t.Fatalf("consumer 5 is free at %d; want 3", got)
	}
	for id := range 5 {
		if got := q.freeAt(id); got != 0 {
			t.Fatalf("consumer %d is free at %d; want 0", id, got)
		}
	}
	if c := q.nextTouched(); c != (consumer{0, 0}) {
		t.Fatalf("next touched consumer %+v; want consumer 0 free at 0", c)
	}
}

// Growing the tree must keep ties to the lowest index: consumers 0 and 1,
// both free at 5 when consumer 2 is first made busy, are matched afresh by
// resize, and consumer 0 must win, as the doc of consumerQueue promises.
func TestConsumerQueueGrowsKeepingTiesToTheLowestIndex(t *testing.T) {
	q := newConsumerQueue(8)
	q.busy(0, 5)
	q.busy(1, 5)
	q.busy(2, 7) // the tree doubles from 2 leaves to 4
	if c := q.nextTouched(); c != (consumer{5, 0}) {
		t.Fatalf("next touched consumer %+v; want consumer 0 free at 5", c)
	}
}

// dispatchedAs gives a run without lanes head-of-line's dispatcher only
// when nothing could tell the policies apart: no schedule, and no backlog
// limit, or one of the consumers or more without the resequencer (see
// TestPoliciesWithoutLanesRunAlike); every other run gets its own
// policy's.
func TestDispatchedAsHeadOfLineOnlyWhereNothingTellsThePoliciesApart(t *testing.T) {
	for _, c := range []struct {
		layout Layout
		o      options
		want   Policy
	}{
		{Free, options{policy: LaneAware}, HeadOfLine},
		{Free, options{policy: Static}, HeadOfLine},
		{VersionStamp, options{policy: LaneAware, maxBacklog: 4}, HeadOfLine},
		{Free, options{policy: LaneAware, maxBacklog: 5}, HeadOfLine},
		{Free, options{policy: LaneAware, maxBacklog: 3}, LaneAware},
		{Free, options{policy: Static, maxBacklog: 4}, HeadOfLine},
		{Free, options{policy: Static, maxBacklog: 1}, Static},
		{Free, options{policy: LaneAware, scheduleLimit: 1}, LaneAware},
		{Resequencer, options{policy: Static}, HeadOfLine},
		{Resequencer, options{policy: Static, maxBacklog: 1 << 20}, Static},
		{Convoy, options{policy: LaneAware}, LaneAware},
		{Convoy, options{policy: Static}, Static},
		{Convoy, options{}, HeadOfLine},
	} {
		if got := dispatchedAs(c.layout, 4, c.o); got != c.want {
			t.Errorf("%s, %s, schedule %d, backlog %d, 4 consumers: dispatched as %s; want %s",
				c.layout, c.o.policy, c.o.scheduleLimit, c.o.maxBacklog, got, c.want)
		}
	}
}
