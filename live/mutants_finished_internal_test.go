package live

import (
	"context"
	"math/bits"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// The log of finished items made for n has n cells rounded up to a power
// of 2, at least 64 and at most ringMax, each free for its own position:
// New makes it for the most items held or consumers, and its memory is
// what WithMaxHeld's doc gives.
func TestFinishLogHasTheCellsAskedFor(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 100, 128, 129, 1000, ringMax - 1, ringMax, ringMax + 1, 4 * ringMax} {
		want := 64
		if n > 64 {
			want = 1 << bits.Len(uint(n-1)) // the least power of 2 not below n
		}
		want = min(want, ringMax)
		l := newFinishLog(n)
		if len(l.cells) != want || l.mask != uint32(want-1) {
			t.Errorf("newFinishLog(%d): %d cells, mask %#x; want %d", n, len(l.cells), l.mask, want)
			continue
		}
		for i := range l.cells {
			if got := l.cells[i].turn.Load(); got != uint32(i) {
				t.Fatalf("newFinishLog(%d): cell %d free for position %d", n, i, got)
			}
		}
	}
}

// A consumer whose item took its lane's slot, and found no item waiting,
// adds the item to the log of finished items; Submit may meanwhile, with
// the log still empty, move the lane to its shard for the lane's next
// item, which waits, and let the submit lock go finding nothing to drain.
// The consumer then finds the lane moved (logged) and drains the log
// itself, though its cell is the only one: it frees its lane and takes the
// next item, which would wait otherwise with the submit lock free. The
// test plays the consumer of A1, lane "a"'s first item.
func TestMovedLaneIsDrainedByTheConsumerThatLoggedIt(t *testing.T) {
	x, started, a1, ctx := a1RunsAndA2Waits(t)
	ha := a1.hash
	if x.laneWaitN.Load() != 1 || x.slots.at(ha).Load() == slotOne {
		t.Fatalf("laneWaitN = %d, slot word %#x; want A2 waiting in lane a, moved to its shard", x.laneWaitN.Load(), x.slots.at(ha).Load())
	}
	// A1's consumer adds A1 to the log, the only cell, and looks again.
	pos, added := x.finLog.add(ha)
	if !added {
		t.Fatal("the log is full")
	}
	var next task[string]
	carry := x.logged(pos, &a1, &next)
	if !carry || next.item != "A2" {
		t.Errorf("logged = %v with next %q; want true with A2, lane a's next item", carry, next.item)
		x.lockSub() // what was missing: a drain, which makes A2 ready
		x.unlockSub()
	} else {
		x.subMu.Lock() // the consumer would run A2: any consumer may
		x.pushReady(&next)
		x.unlockSub()
	}
	select {
	case s := <-started:
		if s != "A2" {
			t.Fatalf("%s started; want A2", s)
		}
	case <-ctx.Done():
		t.Fatal("A2 never started")
	}
	if err := x.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// Whoever lets go of the submit lock drains the log when an item waits in
// a lane (unlockSub): a finish that came while the lock was held, its
// consumer having looked before the item waited, is freed then. The test
// plays the consumer of A1, lane "a"'s first item, which took its slot:
// A2 comes and waits, the lane moved to its shard; A1's finish is then in
// the log, undrained, and the next holder of the lock lets it go.
func TestUnlockSubDrainsAFinishAnItemWaitsFor(t *testing.T) {
	x, started, a1, ctx := a1RunsAndA2Waits(t)
	ha := a1.hash
	if _, added := x.finLog.add(ha); !added {
		t.Fatal("the log is full")
	}
	x.subMu.Lock()
	x.unlockSub()
	select {
	case s := <-started:
		if s != "A2" {
			t.Fatalf("%s started; want A2", s)
		}
	case <-time.After(deadline):
		t.Error("A2 did not start with the submit lock let go: A1's finish stays in the log")
		x.lockSub() // what was missing: a drain
		x.subMu.Unlock()
		<-started
	}
	if err := x.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// a1RunsAndA2Waits makes an executor of one lane, "a", whose handler
// tells started of each item it runs, and plays a consumer of A1, the
// lane's first item, which took the lane's slot and runs, having found no
// item waiting; then submits A2, which waits, the lane moved to its
// shard. It returns the executor, started, A1, and a context for the test
// (cancelled at its end).
func a1RunsAndA2Waits(t *testing.T) (*Executor[string], chan string, task[string], context.Context) {
	t.Helper()
	started := make(chan string, 2)
	x, err := New(konvoy.Convoy, 2, func(s string) konvoy.Event { return konvoy.Event{Key: "a"} },
		func(_ context.Context, s string) error { started <- s; return nil }, WithMaxHeld(8))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*deadline)
	t.Cleanup(cancel)
	ha := x.laneHash("a")
	x.subMu.Lock()
	a1 := task[string]{item: "A1", lane: "a", hash: ha, hasLane: true, seq: -1}
	x.takeSlot(&a1)
	x.subMu.Unlock()
	if err := x.Submit(ctx, "A2"); err != nil {
		t.Fatal(err)
	}
	return x, started, a1, ctx
}
