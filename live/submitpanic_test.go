package live

// A panic of the event function, or of WithOffsets's, reaches the caller
// of Submit and SubmitAll, and leaves the executor usable: SubmitAll, which
// calls them under Submit's lock, lets the lock go, so that Close ends.

import (
	"context"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// TestSubmitAllPanickingEventLeavesTheExecutorUsable checks that a panic of
// the event function in SubmitAll, recovered by its caller, leaves Close
// able to end: Close must return within its context's deadline (Close's
// doc: when ctx ends first, it cancels the handlers and returns). The
// deadline is a hang detector, not a timing assertion.
func TestSubmitAllPanickingEventLeavesTheExecutorUsable(t *testing.T) {
	event := func(i int) konvoy.Event {
		if i == 2 {
			panic("event function")
		}
		return konvoy.Event{Key: "k"}
	}
	x, err := New(konvoy.Convoy, 2, event, func(context.Context, int) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("SubmitAll did not pass on the event function's panic")
			}
		}()
		_, _ = x.SubmitAll(context.Background(), []int{0, 1, 2, 3})
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- x.Close(ctx) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return 5 s after its context ended: SubmitAll's panic left Submit's lock held")
	}
}

// TestSubmitAllPanickingOffsetsLeavesTheExecutorUsable is the same for
// WithOffsets's function, which SubmitAll also calls under Submit's lock.
func TestSubmitAllPanickingOffsetsLeavesTheExecutorUsable(t *testing.T) {
	offset := func(i int) (int, int64) {
		if i == 2 {
			panic("offsets function")
		}
		return 0, int64(i)
	}
	x, err := New(konvoy.Convoy, 2, func(int) konvoy.Event { return konvoy.Event{Key: "k"} },
		func(context.Context, int) error { return nil }, WithOffsets(offset))
	if err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("SubmitAll did not pass on the offsets function's panic")
			}
		}()
		_, _ = x.SubmitAll(context.Background(), []int{0, 1, 2, 3})
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- x.Close(ctx) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return 5 s after its context ended: SubmitAll's panic left Submit's lock held")
	}
}
