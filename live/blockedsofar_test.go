package live

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Stats gives the measures so far at any time, and Blocked counts a
// block still going on, up to the time Stats is read: under head-of-line
// with two consumers, item 0 of key k runs until released, and item 1 of
// k, taken by the other consumer, blocks behind it; while it blocks,
// Blocked grows above 0, not only once the block ends. The test polls
// Stats for up to 2 s (the other consumer blocks within microseconds of
// Submit); nothing else depends on time. After Close, Blocked is above 0.
func TestBlockedCountsABlockStillGoingOn(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	x, err := New(konvoy.Convoy, 2, func(i int) konvoy.Event { return konvoy.Event{Key: "k"} },
		func(_ context.Context, i int) error {
			if i == 0 {
				close(started)
				<-release
			}
			return nil
		}, WithPolicy(konvoy.HeadOfLine))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		close(release)
		if err := x.Close(context.Background()); err != nil {
			t.Errorf("Close: %v", err)
		}
		if s := x.Stats(); s.Blocked == 0 {
			t.Errorf("after Close: Blocked 0; item 1 was never blocked, and the test proves nothing")
		}
	}()
	for i := range 2 {
		if err := x.Submit(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, started, "item 0's start")
	end := time.Now().Add(2 * time.Second)
	for x.Stats().Blocked == 0 {
		if time.Now().After(end) {
			s := x.Stats()
			t.Fatalf("after 2 s with item 1 blocked behind item 0 of its lane: Blocked %v, InFlight %d, Held %d; want the time blocked so far, above 0",
				s.Blocked, s.InFlight, s.Held)
		}
		time.Sleep(time.Millisecond)
	}
}

// Blocked stops growing once a failure stops the executor: a consumer
// blocked behind the failed item then waits for Close, not for its lane,
// which is never handed to it. Under head-of-line item 1 of k blocks
// behind item 0, which fails with no dead letter; Blocked read then, some
// milliseconds later, and after Close is the same.
func TestBlockedEndsWhenAFailureStopsTheExecutor(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	x, err := New(konvoy.Convoy, 2, func(i int) konvoy.Event { return konvoy.Event{Key: "k"} },
		func(_ context.Context, i int) error {
			if i == 0 {
				close(started)
				<-release
				return errors.New("item 0 fails")
			}
			return nil
		}, WithPolicy(konvoy.HeadOfLine))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := x.Submit(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, started, "item 0's start")
	end := time.Now().Add(2 * time.Second)
	for x.Stats().Blocked == 0 {
		if time.Now().After(end) {
			t.Fatal("after 2 s item 1 is not blocked behind item 0")
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	for x.Stats().Failed == 0 {
		if time.Now().After(end) {
			t.Fatal("after 2 s item 0's failure is not counted")
		}
		time.Sleep(time.Millisecond)
	}
	stopped := x.Stats().Blocked
	time.Sleep(20 * time.Millisecond)
	if later := x.Stats().Blocked; later != stopped {
		t.Errorf("Blocked %v once stopped, %v 20 ms later; want no block counted after the stop", stopped, later)
	}
	if err := x.Close(context.Background()); !errors.Is(err, ErrStopped) {
		t.Fatalf("Close: %v; want the failure", err)
	}
	if closed := x.Stats().Blocked; closed != stopped {
		t.Errorf("Blocked %v once stopped, %v after Close; want no block counted after the stop", stopped, closed)
	}
}
