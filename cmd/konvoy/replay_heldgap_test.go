package main

import (
	"testing"
	"time"
)

// gapTrace holds, under the resequencer from step zero, one event whose gap
// never fills (k's step 2, with no step 1), then two events that apply.
const gapTrace = "key,step,duration,at\nk,2,1,0\nj,1,1,1\nj,2,1,2\n"

// TestReplayEndsWhenGapsFillTheExecutor: -max-held is "the most events the
// executor holds at once, arrived and not finished; an event due when it is
// full is submitted late" (konvoy replay -h), not never; and a replay ends
// once its trace is submitted (docs/replay.md: the model's "never_applied"
// counts what a gap kept). Package live counts the resequencer's held items
// against its bound, so that once k's step 2 fills -max-held 1, Submit waits
// for room that never comes, and konvoy replay hangs until a signal, with
// j's events never run (the simulator predicts them, and one never
// applied). The replay takes some milliseconds; 10 s is far beyond it.
func TestReplayEndsWhenGapsFillTheExecutor(t *testing.T) {
	args := []string{"replay", "-events", "-", "-layout", "resequencer", "-start", "zero", "-max-held", "1", "-unit", "1ms"}
	done := make(chan int, 1)
	var errOut string
	go func() {
		_, e, status := runWithInput(gapTrace, args...)
		errOut = e
		done <- status
	}()
	select {
	case status := <-done:
		if status != 0 && status != 1 {
			t.Errorf("%q: status %d: %s; want the replay to end with 0 or an error", args, status, errOut)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("%q: still running after 10s: the resequencer's held event fills -max-held 1 and Submit waits for ever", args)
	}
}
