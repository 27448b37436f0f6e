package live

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// awaitRoom waits until x.Room returns want and a nil error, failing t at
// the deadline with what it returned last.
func awaitRoom[T any](t *testing.T, x *Executor[T], want int, when string) {
	t.Helper()
	end := time.Now().Add(deadline)
	for {
		got, err := x.Room()
		if got == want && err == nil {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%s: Room() = %d, %v; want %d, nil", when, got, err, want)
		}
		time.Sleep(time.Millisecond)
	}
}

// Room counts what Submit counts against WithMaxHeld, under every policy:
// the items running, those waiting, and with offsets those finished above
// their partition's committable offset; it gives it all back once they
// finish, and says 0 and ErrClosed after Close. Items of partition 0: a
// (key k, offset 0) runs until released, b (key j, offset 1) finishes at
// once, c (key k, offset 2) waits behind a.
func TestRoomCountsWhatSubmitCounts(t *testing.T) {
	type rec struct {
		key    string
		offset int64
	}
	for _, p := range konvoy.Policies() {
		t.Run(p.String(), func(t *testing.T) {
			release, bDone := make(chan struct{}), make(chan struct{})
			x, err := New(konvoy.Convoy, 2, func(r rec) konvoy.Event { return konvoy.Event{Key: r.key} },
				func(_ context.Context, r rec) error {
					switch r.offset {
					case 0:
						<-release
					case 1:
						close(bDone)
					}
					return nil
				}, WithMaxHeld(5), WithPolicy(p), WithOffsets(func(r rec) (int, int64) { return 0, r.offset }))
			if err != nil {
				t.Fatal(err)
			}
			awaitRoom(t, x, 5, "empty")
			for _, r := range []rec{{"k", 0}, {"j", 1}, {"k", 2}} {
				if err := x.Submit(context.Background(), r); err != nil {
					t.Fatal(err)
				}
			}
			waitFor(t, bDone, "b's handler")
			// a runs, c waits, b finished above a's offset: 3 held. (Under
			// head-of-line, b may wait behind c, a lane's busy item; it
			// is held then too.)
			awaitRoom(t, x, 2, "a running")
			close(release)
			awaitRoom(t, x, 5, "all finished")
			if err := mustClose(t, x); err != nil {
				t.Fatal(err)
			}
			if got, err := x.Room(); got != 0 || !errors.Is(err, ErrClosed) {
				t.Errorf("after Close: Room() = %d, %v; want 0, ErrClosed", got, err)
			}
		})
	}
}

// Room counts the items a static consumer holds in its own queue (no
// offsets: no shared slots), settling what the consumer ran and has not
// reported yet, and once a failed item stopped the executor it says 0 and
// ErrStopped, as Submit would. Key a's steps run on one consumer: step 0
// until a gate opens, step 1 at once, step 2 until released, then it
// fails; steps 1 and 2 wait in the consumer's queue while step 0 runs, so
// that it runs them without reporting in between.
func TestRoomUnderStaticAndOnceStopped(t *testing.T) {
	gate, started, release := make(chan struct{}), make(chan struct{}), make(chan struct{})
	x, err := New(konvoy.Partitioned(2), 2, ev, func(_ context.Context, e konvoy.Event) error {
		switch e.Step {
		case 0:
			<-gate
		case 2:
			close(started)
			<-release
			return errors.New("boom")
		}
		return nil
	}, WithMaxHeld(4), WithPolicy(konvoy.Static))
	if err != nil {
		t.Fatal(err)
	}
	for step := range 3 {
		if err := x.Submit(context.Background(), konvoy.Event{Key: "a", Step: step}); err != nil {
			t.Fatal(err)
		}
	}
	awaitRoom(t, x, 1, "three held")
	close(gate)
	waitFor(t, started, "step 2")
	awaitRoom(t, x, 3, "steps 0 and 1 done, step 2 running")
	close(release)
	end := time.Now().Add(deadline)
	for {
		got, err := x.Room()
		if errors.Is(err, ErrStopped) && got == 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("after the failure: Room() = %d, %v; want 0 and ErrStopped", got, err)
		}
		time.Sleep(time.Millisecond)
	}
	if err := mustClose(t, x); !errors.Is(err, ErrStopped) {
		t.Fatalf("Close: %v", err)
	}
}

// Committable gives each partition's committable offset as Completion
// does, at every moment: the first unfinished item's offset, or one past
// the last item once all finished; and false for a partition that no
// item came from. Items of partition 3: offset 10 runs until released,
// 11 finishes at once; of partition 5: offset 7 finishes at once.
func TestCommittableIsCompletions(t *testing.T) {
	type rec struct {
		part   int
		offset int64
	}
	release, done := make(chan struct{}), make(chan struct{}, 2)
	x, err := New(konvoy.Free, 2, func(rec) konvoy.Event { return konvoy.Event{} },
		func(_ context.Context, r rec) error {
			if r.offset == 10 {
				<-release
			} else {
				done <- struct{}{}
			}
			return nil
		}, WithOffsets(func(r rec) (int, int64) { return r.part, r.offset }))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close(context.Background())
	same := func(when string) {
		t.Helper()
		for _, c := range x.Completion() {
			if got, ok := x.Committable(c.Partition); !ok || got != c.Committable {
				t.Errorf("%s: Committable(%d) = %d, %v; Completion says %d", when, c.Partition, got, ok, c.Committable)
			}
		}
		if _, ok := x.Committable(4); ok {
			t.Errorf("%s: Committable(4) is known; no item came from partition 4", when)
		}
	}
	for _, r := range []rec{{3, 10}, {3, 11}, {5, 7}} {
		if err := x.Submit(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	<-done
	<-done
	awaitRoom(t, x, DefaultMaxHeld-2, "11 and 7 finished")
	same("offset 10 running")
	if got, _ := x.Committable(3); got != 10 {
		t.Errorf("Committable(3) = %d with offset 10 running; want 10", got)
	}
	if got, _ := x.Committable(5); got != 8 {
		t.Errorf("Committable(5) = %d with offset 7 finished; want 8", got)
	}
	close(release)
	awaitRoom(t, x, DefaultMaxHeld, "all finished")
	same("all finished")
	if got, _ := x.Committable(3); got != 12 {
		t.Errorf("Committable(3) = %d with all finished; want 12", got)
	}
}

// Lane-aware gets the most slots for its lanes of one item
// (slotsMax, as WithMaxHeld's doc says) however many items it may hold:
// the table's size doubled while below twice WithMaxHeld, which passes
// the largest int under 32-bit int for a WithMaxHeld above 2^30, and the
// executor got the fewest (found by a review; GOARCH=386 tests it).
func TestTheLargestMaxHeldGetsTheMostSlots(t *testing.T) {
	for _, n := range []int{1 << 20, 1<<30 + 1, math.MaxInt32} {
		x, err := New(konvoy.Convoy, 1, func(k string) konvoy.Event { return konvoy.Event{Key: k} },
			func(context.Context, string) error { return nil }, WithMaxHeld(n))
		if err != nil {
			t.Fatal(err)
		}
		if got := len(x.slots.word); got != slotsMax {
			t.Errorf("WithMaxHeld(%d): %d slots; want %d", n, got, slotsMax)
		}
		if err := x.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}
