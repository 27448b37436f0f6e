package live

// A failure that stops the executor ends the retries' pauses: an item
// waiting for its next attempt gets none, and Close reports it among the
// items that did not run, instead of waiting out its pause.

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// TestAStopEndsTheRetriesPauses: item P fails its first attempt, and its
// consumer pauses before the second, a pause that ends only with its
// context. Then item S, in another lane, fails both its attempts (its
// pause takes no time), which stops the executor, as there is no dead
// letter. P must not be tried again, and Close, whose context lasts far
// longer than the test, must return at once: S's failure, and P among the
// items that did not run.
func TestAStopEndsTheRetriesPauses(t *testing.T) {
	var attemptsP atomic.Int64
	pausing := make(chan struct{})
	var pauses atomic.Int64
	x, err := New(konvoy.Convoy, 2, func(s string) konvoy.Event { return konvoy.Event{Key: s} },
		func(_ context.Context, s string) error {
			if s == "P" {
				attemptsP.Add(1)
			}
			return errors.New(s + " fails")
		},
		WithRetry(Retry{Attempts: 2, Base: time.Hour}),
		withSleep(func(ctx context.Context, _ time.Duration) error {
			if pauses.Add(1) > 1 {
				return nil // S's pause
			}
			close(pausing) // P's pause: as long as its context lets it
			<-ctx.Done()
			return ctx.Err()
		}))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), "P"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, pausing, "P's pause before its second attempt")
	if err := x.Submit(context.Background(), "S"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	err = x.Close(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close waited out P's pause after S stopped the executor: %v", err)
	}
	var unrun *UnrunError[string]
	if !errors.As(err, &unrun) || !slices.Equal(unrun.Items, []string{"P"}) || !errors.Is(err, ErrStopped) {
		t.Fatalf("Close: %v; want S's failure (ErrStopped) and P not run", err)
	}
	if n := attemptsP.Load(); n != 1 {
		t.Fatalf("P was tried %d times; want once: the stop came during its pause", n)
	}
}
