package live_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// TestRetryOfZeroAttemptsTriesOnce: Retry's Attempts of 0 means once, as
// 1 does, and New takes it (found by mutation testing: New refusing
// Attempts 0 as it refuses a negative count went unnoticed).
func TestRetryOfZeroAttemptsTriesOnce(t *testing.T) {
	fail := errors.New("fails")
	tries := 0
	x, err := live.New(konvoy.Free, 1, func(int) konvoy.Event { return konvoy.Event{} },
		func(context.Context, int) error { tries++; return fail },
		live.WithRetry(live.Retry{Attempts: 0, Base: time.Millisecond}))
	if err != nil {
		t.Fatalf("New with Retry{Attempts: 0}: %v", err)
	}
	if err := x.Submit(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	err = x.Close(context.Background())
	var ie *live.ItemError
	if !errors.As(err, &ie) || ie.Attempts != 1 || !errors.Is(err, fail) || tries != 1 {
		t.Fatalf("Close: %v; handler called %d times; want item 0's failure after 1 attempt", err, tries)
	}
}
