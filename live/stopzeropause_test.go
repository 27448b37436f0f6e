package live

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// TestAStopEndsAPauseOfZero checks Retry's word that a failure that stops
// the executor ends every pause, the item tried no more, for a pause of 0
// too (Base 0): item x's first attempt fails once item y's failure has
// stopped the executor, and x is not tried again. Its pause's timer and
// the stop were both ready at once, and the pause ended by its timer as
// often as not, trying x twice more (found by a review).
func TestAStopEndsAPauseOfZero(t *testing.T) {
	for run := range 40 {
		var xAttempts atomic.Int32
		stopped := make(chan struct{})
		h := func(ctx context.Context, e konvoy.Event) error {
			if e.Key == "y" {
				return errors.New("y fails")
			}
			if xAttempts.Add(1) == 1 {
				<-stopped // x's first attempt fails only once the executor has stopped
			}
			return errors.New("x fails")
		}
		x, err := New(konvoy.Convoy, 2, func(e konvoy.Event) konvoy.Event { return e }, h, WithRetry(Retry{Attempts: 3}))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		if err := x.Submit(ctx, konvoy.Event{Key: "x", Step: 1}); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, "x to start", func() bool { return xAttempts.Load() == 1 })
		if err := x.Submit(ctx, konvoy.Event{Key: "y", Step: 1}); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, "the stop", func() bool { _, err := x.Room(); return errors.Is(err, ErrStopped) })
		close(stopped)
		err = x.Close(ctx)
		if n := xAttempts.Load(); n != 1 {
			t.Fatalf("run %d: item x tried %d times; its first attempt failed once the executor had stopped: want 1", run, n)
		}
		var u *UnrunError[konvoy.Event]
		if !errors.Is(err, ErrStopped) || !errors.As(err, &u) || len(u.Items) != 1 || u.Items[0].Key != "x" {
			t.Fatalf("run %d: Close: %v; want the stop, with x not run", run, err)
		}
	}
}
