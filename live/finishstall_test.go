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
// stalled consumer stores its cell: its own slot is still slotOne, but its
// cell stopped the readers with a cell taken after it, so it drains the
// log (logged), and A2 starts.
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
	hp := holdOtherSlot(x, "a")
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
	awaitCell(ctx, t, l, pos+1)
	if err := x.Submit(ctx, "A2"); err != nil {
		t.Fatal(err)
	}
	if x.laneWaitN.Load() != 1 {
		t.Fatalf("laneWaitN = %d, want 1: A2 waits in its lane", x.laneWaitN.Load())
	}
	// The stalled consumer goes on: it stores its cell, and then does what
	// leaveSlot does once its item is in the log (logged). Its own slot is
	// still slotOne.
	c := &l.cells[pos&l.mask]
	c.hash = hp
	c.turn.Store(pos + 1)
	if x.slots.at(hp).Load() != slotOne {
		t.Fatal("the stalled consumer's slot moved")
	}
	var next task[string]
	if x.logged(pos, &task[string]{hash: hp, lane: "p", hasLane: true}, &next) {
		t.Fatal("the stalled consumer's lane had a next item")
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

// holdOtherSlot makes a lane of another slot than lane's hold its slot
// with one item, as Submit would, and returns its hash.
func holdOtherSlot(x *Executor[string], lane string) uint64 {
	ha := x.laneHash(lane)
	for i := 0; ; i++ {
		name := "p" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		if hp := x.laneHash(name); hp&x.slots.mask != ha&x.slots.mask {
			x.subMu.Lock()
			p := task[string]{lane: name, hash: hp, hasLane: true, seq: -1}
			x.takeSlot(&p)
			x.subMu.Unlock()
			return hp
		}
	}
}

// awaitCell waits until the cell of l at pos holds its item, failing t
// when ctx ends first.
func awaitCell(ctx context.Context, t *testing.T, l *finishLog, pos uint32) {
	for l.cells[pos&l.mask].turn.Load() != pos+1 {
		if ctx.Err() != nil {
			t.Fatalf("cell %d never held its item", pos)
		}
		time.Sleep(time.Millisecond)
	}
}
