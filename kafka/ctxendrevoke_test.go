package kafka

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Run's context ending while a revocation waits for handlers that return
// only once their context ends: Run closes the executor at once, which
// cancels them after WithCloseTimeout, so that the revocation ends and Run
// returns after about the close timeout, not after the revoke timeout
// too. (Found by a review: the poll loop, held by the rebalance, never
// reached the executor's Close, and Run waited out WithRevokeTimeout
// first.) The revoke timeout here is the test's whole deadline; Run is
// given half of it.
func TestRunsContextEndingDuringARevocationCancelsItsHandlers(t *testing.T) {
	addrs := cluster(t, 2)
	produce(t, addrs, 40, 5, 1)
	var blocked atomic.Int32
	handle := func(ctx context.Context, r *kgo.Record) error {
		if r.Offset == 2 {
			blocked.Add(1)
			<-ctx.Done()
			return ctx.Err()
		}
		return nil
	}
	revoking := make(chan struct{}, 4)
	hook := func(c *config) {
		c.revoking = func(tps map[string][]int32) {
			if len(tps[testTopic]) > 0 {
				revoking <- struct{}{}
			}
		}
	}
	a, err := New(memberOpts(addrs), konvoy.Convoy, 4, keyEvent, handle,
		WithRevokeTimeout(testWait), WithCloseTimeout(100*time.Millisecond), hook)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	for end := time.Now().Add(testWait); blocked.Load() < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%d handlers blocked after %v; want 2, offset 2 of each partition", blocked.Load(), testWait)
		}
	}
	b := joinAndPoll(t, addrs) // a second member: A revokes a partition, whose handler waits
	defer b.Close()
	select {
	case <-revoking:
	case <-time.After(testWait):
		t.Fatal("no revocation after a second member joined")
	}
	cancel()
	select {
	case err := <-done:
		t.Logf("Run: %v", err)
	case <-time.After(testWait / 2):
		t.Fatalf("Run has not returned %v after its context ended, with a close timeout of 100ms", testWait/2)
	}
}

// joinAndPoll returns a plain franz-go member of the test group, which
// polls on its own goroutine until it is closed.
func joinAndPoll(t *testing.T, addrs []string) *kgo.Client {
	t.Helper()
	b, err := kgo.NewClient(memberOpts(addrs)...)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for !b.PollFetches(context.Background()).IsClientClosed() {
		}
	}()
	return b
}
