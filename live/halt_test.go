package live

// A failure that stops the executor halts it before it frees the failed
// item's lane, and under head-of-line a consumer that took the lane's next
// item asks for the lane, under the lane's lock, only to find the executor
// halted: no later item of the lane runs, under every policy (lane-aware
// and static find a lane's next item only after its failure).

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// spinUntil yields until cond holds, failing t at the deadline.
func spinUntil(t *testing.T, cond func() bool, what string) {
	t.Helper()
	end := time.Now().Add(deadline)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("%s never happened", what)
		}
		runtime.Gosched()
	}
}

// TestHeadOfLineRunsNoItemOfAFailedLane pauses, on one processor, the
// consumer that took item G (lane k) between that check and startLane, by
// holding the lock of parked consumers that it takes there to wake another
// consumer for item H; meanwhile item F, before G in lane k, fails with no
// dead letter. Once F's consumer has finished F, the lock is let go. G must
// not run. The pause is what a preemption of the consumer at that point
// does; if the schedule does not produce it, the test passes, it never
// fails wrongly.
func TestHeadOfLineRunsNoItemOfAFailedLane(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	startedF, releaseF := make(chan struct{}), make(chan struct{})
	var ranG atomic.Bool
	ev := func(s string) konvoy.Event {
		if s == "H" {
			return konvoy.Event{} // no lane
		}
		return konvoy.Event{Key: "k"}
	}
	x, err := New(konvoy.Convoy, 3, ev, func(_ context.Context, s string) error {
		switch s {
		case "F":
			close(startedF)
			<-releaseF
			return errors.New("F fails")
		case "G":
			ranG.Store(true)
		}
		return nil
	}, WithPolicy(konvoy.HeadOfLine))
	if err != nil {
		t.Fatal(err)
	}
	spinUntil(t, func() bool { return x.idleN.Load() == 3 }, "every consumer parked")
	ctx := context.Background()
	if err := x.Submit(ctx, "F"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, startedF, "F's start")
	// G wakes a parked consumer; H, submitted before it runs, wakes none.
	if _, err := x.SubmitAll(ctx, []string{"G", "H"}); err != nil {
		t.Fatal(err)
	}
	x.parkMu.Lock()
	// F 0, G 1, H 2. G is taken; H is next, unless the test was paused
	// after SubmitAll long enough for G's consumer to wake another, which
	// took H: then the pause below is not produced, and the test passes.
	spinUntil(t, func() bool { s, ok := x.fresh.head(); return !ok || s == 2 }, "G taken")
	runtime.Gosched() // G's consumer now waits for parkMu in wakeMore
	close(releaseF)
	spinUntil(t, func() bool { return x.finished() == 1 }, "F's finish")
	x.parkMu.Unlock()
	err = mustClose(t, x)
	if !errors.Is(err, ErrStopped) {
		t.Fatalf("Close: %v; want ErrStopped", err)
	}
	if ranG.Load() {
		t.Fatalf("G, the item after F in lane k, ran after F failed and stopped the executor; Close: %v", err)
	}
}
