package live_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// downReader is a version store whose reads always fail.
type downReader struct{ live.MemoryVersions }

func (*downReader) Version(context.Context, string) (int, error) { return 0, errors.New("down") }

// An item's ItemError counts the attempts a VersionReader's error ended
// before the handler, as Retry.Attempts does, and says so: its doc said
// the handler was called as many times (found by a review).
func TestAttemptsCountWhatAVersionReadersErrorEnded(t *testing.T) {
	var calls atomic.Int64
	var got *live.ItemError
	x, err := live.New(konvoy.VersionStamp, 1, func(e konvoy.Event) konvoy.Event { return e },
		func(context.Context, konvoy.Event) error { calls.Add(1); return nil },
		live.WithVersions(&downReader{}), live.WithRetry(live.Retry{Attempts: 3}),
		live.WithDeadLetter(func(_ context.Context, _ konvoy.Event, err error) error { errors.As(err, &got); return nil }))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), konvoy.Event{Key: "a", Step: 1}); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Attempts != 3 || calls.Load() != 0 || got.Err == nil || got.Err.Error() != "version store: down" {
		t.Fatalf("dead letter's error %+v, handler called %d times; want 3 attempts, none reaching the handler, and the store's error", got, calls.Load())
	}
}
