package replay

import (
	"context"
	"runtime"
	"time"
)

// coarseMargin is how long before a deadline SleepUntil stops sleeping on a
// timer and starts yielding: more than time.Sleep overshoots on a loaded
// machine (about a millisecond, measured), so that the timer never wakes
// after the deadline.
const coarseMargin = 2 * time.Millisecond

// SleepUntil returns at deadline, within the time one runtime.Gosched takes
// (tens of microseconds on a loaded machine), or when ctx ends first, with
// ctx's error. It sleeps on a timer until coarseMargin before the deadline
// and then yields the processor until the deadline passes, so that it
// keeps a processor busy, between other goroutines' turns, for the last
// coarseMargin of every wait: time.Sleep alone overshoots by about a
// millisecond, which would lengthen a handler of one millisecond twofold.
func SleepUntil(ctx context.Context, deadline time.Time) error {
	if d := time.Until(deadline) - coarseMargin; d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
	for time.Now().Before(deadline) {
		if err := ctx.Err(); err != nil {
			return err
		}
		runtime.Gosched()
	}
	return nil
}
