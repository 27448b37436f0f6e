package live

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Submission numbers do not wrap after the largest 32-bit int, as an int
// did under 32-bit int (GOARCH=386 tests it): the item after it was
// numbered below 0, which a consumer's count reads as none held, so that
// a stopped executor's drain passed it by, and Close, its item still
// running, stopped watching its context and never cancelled the handler
// (found by a review; the lanes' order and Lanes read the numbers too).
// The executor here starts as if it had taken and finished
// math.MaxInt32 items: item a fails, stopping it, while item b runs
// until its context ends.
func TestSubmissionNumbersPastTheLargest32BitIntStillOrder(t *testing.T) {
	bStarted, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	x, err := New(konvoy.Convoy, 2, func(k string) konvoy.Event { return konvoy.Event{Key: k} },
		func(ctx context.Context, k string) error {
			if k == "a" {
				<-bStarted
				return errors.New("a fails")
			}
			close(bStarted)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-release:
				return errors.New("released at the test's end: Close never cancelled b")
			}
		})
	if err != nil {
		t.Fatal(err)
	}
	x.subMu.Lock()
	x.seq, x.gone = math.MaxInt32, math.MaxInt32
	x.subMu.Unlock()
	for _, k := range []string{"a", "b"} {
		if err := x.Submit(context.Background(), k); err != nil {
			t.Fatal(err)
		}
	}
	for { // a's failure stops the executor
		if _, err := x.Room(); errors.Is(err, ErrStopped) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(10 * time.Millisecond) // a's consumer goes idle
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- x.Close(ctx) }()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Close: %v; want b cut short by the deadline", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close still waits 10 s after its 100 ms context ended: it never cancelled b's handler")
	}
}
