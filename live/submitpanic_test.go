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

// TestSubmitAllPanickingLeavesTheExecutorUsable: when the event function,
// or WithOffsets's, panics at item 2 of a SubmitAll, the panic reaches the
// caller, items 0 and 1 are taken and run, and Close returns having
// drained them (it waits on Submit's lock first: a panic that left it held
// hangs Close, which the package's hang bound, deadline, tells).
func TestSubmitAllPanickingLeavesTheExecutorUsable(t *testing.T) {
	event := func(int) konvoy.Event { return konvoy.Event{Key: "k"} }
	for _, tc := range []struct {
		name string
		opts []Option
		ev   func(int) konvoy.Event
	}{
		{"the event function", nil, func(i int) konvoy.Event {
			if i == 2 {
				panic("event function")
			}
			return event(i)
		}},
		{"WithOffsets's function", []Option{WithOffsets(func(i int) (int, int64) {
			if i == 2 {
				panic("offsets function")
			}
			return 0, int64(i)
		})}, event},
	} {
		x, err := New(konvoy.Convoy, 2, tc.ev, func(context.Context, int) error { return nil }, tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("SubmitAll did not pass on the panic of %s", tc.name)
				}
			}()
			_, _ = x.SubmitAll(context.Background(), []int{0, 1, 2, 3})
		}()
		// Close's context ends after the hang bound, so that a Close that
		// drains slowly is never cut short, and one stuck draining is
		// freed once the test has failed.
		ctx, cancel := context.WithTimeout(context.Background(), 2*deadline)
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- x.Close(ctx) }()
		select {
		case err := <-done:
			if s := x.Stats(); err != nil || s.Done != 2 {
				t.Errorf("after a panic of %s: Close %v, %d done; want nil and 2 (the items before it)", tc.name, err, s.Done)
			}
		case <-time.After(deadline):
			t.Fatalf("Close did not return within %v: a panic of %s left Submit's lock held, or items 0 and 1 never drained", deadline, tc.name)
		}
	}
}
