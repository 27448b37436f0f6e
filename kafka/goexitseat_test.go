package kafka

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestAHandlerThatExitsItsGoroutineLeavesNoSeatBusy: a handler that calls
// runtime.Goexit (as t.FailNow does) fails its record with live.ErrGoexit
// and stops the executor (live/goexit_test.go), and no handler runs any
// more. The seat doc (kafka/consumer.go, type seat) says a consumer's seat
// names the record it runs "from begin to end, or nil", and WithRevokeTimeout
// bounds only the wait for "handlers still running". So Run, which leaves
// the group as it returns (revoking the member's partitions), must not
// wait for a handler that is no longer running: with a revoke timeout of
// twice testWait it must return within testWait, with the failure. Today
// the guard's exit never runs for the record (Goexit skips it), its seat
// stays busy, and the revocation made as Run leaves the group waits the
// whole revoke timeout.
func TestAHandlerThatExitsItsGoroutineLeavesNoSeatBusy(t *testing.T) {
	addrs := cluster(t, 1)
	produce(t, addrs, 5, 1, 1)
	c, err := New(append(memberOpts(addrs), kgo.RebalanceTimeout(3*testWait)), konvoy.Convoy, 1, keyEvent,
		func(_ context.Context, r *kgo.Record) error {
			if r.Offset == 2 {
				runtime.Goexit()
			}
			return nil
		}, WithRevokeTimeout(2*testWait), WithCommitInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Run(context.Background()) }()
	select {
	case err := <-done:
		if !errors.Is(err, live.ErrGoexit) {
			t.Errorf("Run: %v; want the record's failure, live.ErrGoexit", err)
		}
	case <-time.After(testWait):
		t.Fatalf("Run has not returned %v after its handler's Goexit stopped the executor: the revocation as it leaves the group waits for a seat no handler holds (WithRevokeTimeout is %v)", testWait, 2*testWait)
	}
}
