package live

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// A handler that failed before Close's context ended is a failure that
// stops the executor, not an item cut short: Close reports as not run only
// the items whose handler failed after ctx ended, and returns the failures
// that stopped the executor as [*ItemError]s wrapped with [ErrStopped].
// What decides is when the attempt returned, not how long the consumer's
// bookkeeping after it took: here item a0's handler fails at once, and the
// guard's exit, called after the attempt, holds the consumer until Close,
// given an ended context, has given up.
func TestFailureBeforeCloseGaveUpStopsTheExecutor(t *testing.T) {
	inExit := make(chan struct{})
	release := make(chan struct{})
	x, err := New(konvoy.Convoy, 1, func(s string) konvoy.Event { return konvoy.Event{Key: s[:1]} },
		func(context.Context, string) error { return errors.New("a0 fails") },
		WithGuard(func(context.Context, string) bool { return true },
			func(_ context.Context, s string, err error) {
				if err != nil {
					close(inExit)
					<-release
				}
			}))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), "a0"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, inExit, "a0's failed attempt")
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	closed := make(chan error, 1)
	go func() { closed <- x.Close(ended) }()
	end := time.Now().Add(deadline)
	for !x.aborted.Load() || x.ctx.Err() == nil { // Close has given up
		if time.Now().After(end) {
			t.Fatal("Close never gave up")
		}
		runtime.Gosched()
	}
	close(release)
	var cerr error
	select {
	case cerr = <-closed:
	case <-time.After(deadline):
		t.Fatal("Close never returned")
	}
	var ie *ItemError
	if !errors.Is(cerr, ErrStopped) || !errors.As(cerr, &ie) || ie.Seq != 0 {
		t.Errorf("Close: %v; want a0's ItemError wrapped with ErrStopped: it failed before Close's context ended", cerr)
	}
	var u *UnrunError[string]
	if errors.As(cerr, &u) {
		t.Errorf("Close names %v as not run (%v); a0 ran, and failed before Close gave up", u.Items, u.Err)
	}
	if st := x.Stats(); st.Failed != 1 {
		t.Errorf("Stats.Failed %d; want 1", st.Failed)
	}
}
