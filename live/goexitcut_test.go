package live

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// A handler that calls runtime.Goexit after Close has given up (Close's
// context ended, the handler's context is cancelled) is an item cut short,
// as a handler returning an error there is: Close's doc says its
// UnrunError holds "the items that never ran to the end (those not
// started, and those whose handler failed after ctx ended)", with Err the
// context's error, and that the executor is stopped only by failures. The
// exited path (dispatch.go, exited) fails the item with outcome{err:
// ErrGoexit} without asking whether Close gave up (run sets cut from
// x.ctx.Err(); exited never does), so the item becomes a failure that
// stops the executor: Close returns ErrStopped with the ItemError, no
// UnrunError and no context.Canceled, and Stats counts it Failed. A
// caller that tells a Close that gave up by context.Canceled, or that
// re-queues the UnrunError's items, loses the item.
func TestGoexitAfterCloseGaveUpIsReportedAsNotRun(t *testing.T) {
	started := make(chan struct{})
	x, err := New(konvoy.Convoy, 1, func(k string) konvoy.Event { return konvoy.Event{Key: k} },
		func(ctx context.Context, k string) error {
			close(started)
			<-ctx.Done() // Close gave up
			runtime.Goexit()
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, started, "item a's start")
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	cerr := x.Close(ended)
	var u *UnrunError[string]
	if !errors.As(cerr, &u) || !slices.Equal(u.Items, []string{"a"}) || !errors.Is(cerr, context.Canceled) {
		t.Errorf("Close: %v; want an UnrunError of item a for context.Canceled, as for a handler that returns an error once Close gave up", cerr)
	}
	if errors.Is(cerr, ErrStopped) || x.Stats().Failed != 0 {
		t.Errorf("Close: %v, Stats().Failed %d; want no failure that stopped the executor: the item was cut short", cerr, x.Stats().Failed)
	}
}
