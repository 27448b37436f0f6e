package live

import (
	"context"
	"testing"
	"time"
)

// A Submit waiting for room must not be told ErrGapsFull while room is
// about to come: here item c, the head of partition 0 and the only item
// not held for a gap, finishes while a reader of partition 0's offsets
// (Committable, Completion or Forget, here paused between its lockSource
// and unlockSource) holds the partition's lock. c is then finished but
// still counted pending until that reader lets the lock go, which passes
// c and makes room; the waiter, woken by c's finish, sees gapsFull and
// returned ErrGapsFull at once (found by a review). It now moves the
// partitions' heads on first, waiting for the reader's lock.
func TestNoErrGapsFullWhileAPendingItemIsAboutToPass(t *testing.T) {
	x, started, release := gapExecutor(t, 2, true)
	bg := context.Background()
	for _, it := range []gapItem{{"a", 2, 1, 0}, {"c", 1, 0, 0}} { // a held for its step 1; c runs
		if err := x.Submit(bg, it); err != nil {
			t.Fatal(err)
		}
	}
	<-started
	x.subMu.Lock()
	s := x.partIndex[0]
	x.unlockSub()
	x.lockSource(s) // as Committable(0) does
	errs := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(bg, 10*time.Second)
		defer cancel()
		errs <- x.Submit(ctx, gapItem{"d", 1, 2, 0})
	}()
	waitUntil(t, "the Submit to wait", func() bool { return x.waitingN.Load() == 1 })
	close(release)
	waitUntil(t, "c to finish", func() bool { return x.finished() == 1 })
	time.Sleep(50 * time.Millisecond) // the waiter, woken by c's finish, looks
	x.unlockSource(s, true)           // as Committable(0) returns: c passes, room
	if err := <-errs; err != nil {
		t.Errorf("Submit: %v; want nil: room came as the offsets' reader let go", err)
	}
	_ = x.Close(bg)
}
