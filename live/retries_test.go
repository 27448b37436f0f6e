package live

// Stats.Retries counts the attempts made after an item's first: a retry
// whose pause Close cut short is not one.

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// TestRetriesCountsOnlyAttemptsMade: an item fails its first attempt and
// its consumer pauses before the second; Close's context has ended, so
// Close cancels the pause and the item never runs again. The handler ran
// once: Retries must be 0 (Errors is 1).
func TestRetriesCountsOnlyAttemptsMade(t *testing.T) {
	var calls atomic.Int64
	pausing := make(chan struct{})
	x, err := New(konvoy.Convoy, 1, func(e konvoy.Event) konvoy.Event { return e },
		func(context.Context, konvoy.Event) error {
			calls.Add(1)
			return errors.New("fails")
		},
		WithRetry(Retry{Attempts: 3, Base: time.Hour}),
		withSleep(func(ctx context.Context, _ time.Duration) error {
			close(pausing)
			<-ctx.Done()
			return ctx.Err()
		}))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), konvoy.Event{Key: "k"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, pausing, "the pause before the second attempt")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := x.Close(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Close: %v; want the item reported not run, context.Canceled", err)
	}
	st := x.Stats()
	if n := int(calls.Load()); st.Errors != n || st.Retries != n-1 {
		t.Fatalf("the handler ran %d times, failing each; Stats: Errors %d, Retries %d; want %d and %d", n, st.Errors, st.Retries, n, n-1)
	}
}
