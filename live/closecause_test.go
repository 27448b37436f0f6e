package live

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Close given a context that has already ended, once the executor has
// drained (nothing left that can run), says why its items did not run as
// a Close with a live context does, every time: the project's outputs
// are deterministic, and the executor drained before ctx could matter.
// Two cases, 100 executors each:
//   - resequencer, zero configuration: key k's step 2 is held for a gap
//     that never fills; Close's UnrunError must carry ErrNeverApplied
//     ("the reason Close gives ... for items the resequencer still held
//     when nothing else was left to run"), not context.Canceled;
//   - item 0 failed, once items 0 and 1 of one lane were submitted,
//     stopping the executor, and no consumer runs: Close must return the
//     UnrunError of item 1 alone, its Err the failure ("when the failures are why the items did not run,
//     ... Close returns it alone"), not the failure joined with an
//     UnrunError of context.Canceled.
//
// It holds because Close, finding ctx ended, looks at the drain once more
// before it takes ctx's error as the cause.
func TestCloseWithAnEndedContextAfterDrainingIsDeterministic(t *testing.T) {
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	t.Run("resequencer", func(t *testing.T) { closeGapHeldWith(t, ended) })
	t.Run("stopped", func(t *testing.T) { closeStoppedWith(t, ended) })
}

// closeGapHeldWith checks the first case above, Close given ctx.
func closeGapHeldWith(t *testing.T, ctx context.Context) {
	bad := 0
	var last error
	for range 100 {
		x, err := New(konvoy.Resequencer, 1, func(e konvoy.Event) konvoy.Event { return e },
			func(context.Context, konvoy.Event) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		if err := x.Submit(context.Background(), konvoy.Event{Key: "k", Step: 2}); err != nil {
			t.Fatal(err)
		}
		cerr := x.Close(ctx)
		var u *UnrunError[konvoy.Event]
		if !errors.As(cerr, &u) || len(u.Items) != 1 || !errors.Is(u.Err, ErrNeverApplied) {
			bad, last = bad+1, cerr
		}
	}
	if bad > 0 {
		t.Errorf("%d of 100 Closes: %v; want an UnrunError of the held item for ErrNeverApplied every time", bad, last)
	}
}

// closeStoppedWith checks the second case above, Close given ctx.
func closeStoppedWith(t *testing.T, ctx context.Context) {
	bad := 0
	var last error
	for range 100 {
		submitted := make(chan struct{})
		x, err := New(konvoy.Convoy, 1, func(int) konvoy.Event { return konvoy.Event{Key: "k"} },
			func(_ context.Context, i int) error {
				if i == 0 {
					<-submitted
					return errors.New("item 0 fails")
				}
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			if err := x.Submit(context.Background(), i); err != nil {
				t.Fatal(err)
			}
		}
		close(submitted)
		awaitStoppedAndIdle(t, x)
		cerr := x.Close(ctx)
		var u *UnrunError[int]
		if !errors.As(cerr, &u) || cerr != error(u) || len(u.Items) != 1 || !errors.Is(u.Err, ErrStopped) {
			bad, last = bad+1, cerr
		}
	}
	if bad > 0 {
		t.Errorf("%d of 100 Closes: %v; want the UnrunError of item 1 alone, its Err the failure, every time", bad, last)
	}
}

// awaitStoppedAndIdle waits until a failure has stopped x and no consumer
// holds an item (allIdle), failing t at the deadline. No handler running
// (InFlight 0) is not enough: the consumer whose item failed holds it, or
// the next it took, until it reads the stop and goes idle, and Close,
// seeing it, has not drained yet (a flake, 1 in about 1000 Closes under
// load).
func awaitStoppedAndIdle[T any](t *testing.T, x *Executor[T]) {
	t.Helper()
	end := time.Now().Add(deadline)
	for {
		_, err := x.Room()
		if errors.Is(err, ErrStopped) && x.Stats().InFlight == 0 && x.allIdle() {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("the executor did not stop and go idle: Room's error %v, InFlight %d", err, x.Stats().InFlight)
		}
		time.Sleep(100 * time.Microsecond)
	}
}
