package live

import (
	"context"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// A lane's next item must not wait, with the submit lock free, for a
// finish left in the log of finished items. finished.go: "no finish is left
// in the log while an item waits for it with the lock free". The log is
// read in order, and ready() looks only at its oldest cell: a consumer
// preempted between its compare-and-swap of enq and its store of the
// cell's turn (finishLog.add) hides every later cell from ready() and
// take(). Here such a consumer holds the oldest cell (played by the test,
// for a lane "p" in a slot); A1, in a slot, finishes with no item waiting
// and adds itself behind it; A2 comes, finds the log not ready, moves lane
// A to its shard and waits; unlockSub finds the log not ready. Then the
// stalled consumer stores its cell, sees laneWaitN > 0 and its own slot
// still slotOne, and returns, as leaveSlot does. Nobody reads the log
// again: A2 never starts, and Close would hang, until some later Submit.
func TestStalledLogCellDoesNotStrandNextItem(t *testing.T) {
	started := make(chan int, 4)
	x, err := New(konvoy.Convoy, 2, func(s string) konvoy.Event { return konvoy.Event{Key: "a"} },
		func(_ context.Context, s string) error {
			if s == "A1" {
				started <- 1
			} else {
				started <- 2
			}
			return nil
		}, WithMaxHeld(8))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// Lane "p", another slot than lane "a", holds its slot with one item,
	// whose consumer is about to add it to the log.
	ha := x.laneHash("a")
	var hp uint64
	for i := 0; ; i++ {
		name := "p" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		if hp = x.laneHash(name); hp&x.slots.mask != ha&x.slots.mask {
			x.subMu.Lock()
			p := task[string]{lane: name, hash: hp, hasLane: true, seq: -1}
			x.takeSlot(&p)
			x.subMu.Unlock()
			break
		}
	}
	// Its consumer wins the log's next position, and is preempted before
	// it stores the cell.
	l := x.finLog
	pos := l.enq.Load()
	if !l.enq.CompareAndSwap(pos, pos+1) {
		t.Fatal("enq moved")
	}

	if err := x.Submit(ctx, "A1"); err != nil {
		t.Fatal(err)
	}
	<-started
	// A1's consumer adds A1 to the log, behind the stalled cell.
	for l.cells[(pos+1)&l.mask].turn.Load() != pos+2 {
		if ctx.Err() != nil {
			t.Fatal("A1 never reached the log")
		}
		time.Sleep(time.Millisecond)
	}
	if err := x.Submit(ctx, "A2"); err != nil {
		t.Fatal(err)
	}
	if x.laneWaitN.Load() != 1 {
		t.Fatalf("laneWaitN = %d, want 1: A2 waits in its lane", x.laneWaitN.Load())
	}
	// The stalled consumer goes on: it stores its cell, then, as leaveSlot
	// does, sees an item waiting and its slot still slotOne, and returns.
	c := &l.cells[pos&l.mask]
	c.hash = hp
	c.turn.Store(pos + 1)
	if x.laneWaitN.Load() > 0 && x.slots.at(hp).Load() != slotOne {
		t.Fatal("the stalled consumer's slot moved")
	}

	select {
	case <-started:
	case <-time.After(3 * time.Second):
		t.Error("A2 did not start in 3s with the submit lock free: A1's finish stays in the log")
		x.lockSub() // what was missing: a drain
		x.unlockSub()
		<-started
	}
	if err := x.Close(ctx); err != nil {
		t.Fatal(err)
	}
}
