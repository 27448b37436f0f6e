package live

import (
	"context"
	"errors"
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

// TestErrGapsFullCountsTheFinishedItemsItHolds checks that ErrGapsFull's
// message adds up to the most the executor holds: with offsets, items
// finished above their partition's committable offset take room too, and
// the message said "1 held, of at most 2" of an executor it called full
// (found by a review). Here a waits for its step 1 at offset 0 and c, at
// offset 1, finishes above it.
func TestErrGapsFullCountsTheFinishedItemsItHolds(t *testing.T) {
	x, started, release := gapExecutor(t, 2, true)
	bg := context.Background()
	for _, it := range []gapItem{{"a", 2, 0, 0}, {"c", 1, 0, 1}} {
		if err := x.Submit(bg, it); err != nil {
			t.Fatal(err)
		}
	}
	<-started
	close(release)
	waitUntil(t, "c to finish", func() bool { return x.finished() == 1 })
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	err := x.Submit(ctx, gapItem{"d", 1, 0, 2})
	want := "live: every item held waits for a gap: 1 held for a gap and 1 finished above its partition's committable offset, of at most 2"
	if !errors.Is(err, ErrGapsFull) || err.Error() != want {
		t.Errorf("Submit: %v; want %q", err, want)
	}
	_ = x.Close(bg)
}
