package live

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Stats.Retries counts the attempts made after an item's first: an item
// whose handler fails once, and whose second attempt WithGuard's enter
// refuses, was attempted once, and counts no retry. The executor counts a
// retry once the guard let it through.
func TestGuardRefusedAttemptIsNoRetry(t *testing.T) {
	var handled, entered atomic.Int32
	handle := func(context.Context, int) error {
		handled.Add(1)
		return errors.New("fails")
	}
	enter := func(context.Context, int) bool { return entered.Add(1) == 1 } // refuses the second attempt
	exit := func(context.Context, int, error) {}
	x, err := New(konvoy.Convoy, 1, func(int) konvoy.Event { return konvoy.Event{Key: "k"} }, handle,
		WithGuard(enter, exit), WithRetry(Retry{Attempts: 3}),
		withSleep(func(context.Context, time.Duration) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	s := x.Stats()
	if handled.Load() != 1 || s.Errors != 1 || s.Done != 1 {
		t.Fatalf("handler ran %d times; Stats: %d errors, %d done; want 1, 1 and 1 (refused counts as done)", handled.Load(), s.Errors, s.Done)
	}
	if s.Retries != 0 {
		t.Fatalf("Stats.Retries = %d after one attempt made (the guard refused the second); want 0", s.Retries)
	}
}
