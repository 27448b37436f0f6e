package kafka

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestCommitsGoOnWhileRunDrains: once Run's context ends, the records
// held still run (up to WithCloseTimeout), and what finishes meanwhile is
// committed on the interval, not only at the end: a member stopped for
// good while it drains (SIGKILL after a grace period) leaves the next
// owner less to run again. Those commits do not fail for the context that
// ended.
func TestCommitsGoOnWhileRunDrains(t *testing.T) {
	addrs := cluster(t, 1)
	cl := producer(t, addrs)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	for _, k := range []string{"a", "b", "c"} {
		if err := cl.ProduceSync(ctx, &kgo.Record{Key: []byte(k)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	release := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
	started := make(chan string, 3)
	handle := func(_ context.Context, r *kgo.Record) error {
		started <- string(r.Key)
		if ch, ok := release[string(r.Key)]; ok {
			<-ch // not the context: the drain waits for it
		}
		return nil
	}
	c, err := New(memberOpts(addrs), konvoy.Convoy, 3, keyEvent, handle,
		WithCommitInterval(10*time.Millisecond), WithCloseTimeout(testWait))
	if err != nil {
		t.Fatal(err)
	}
	run, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(run) }()
	for range 3 {
		select {
		case <-started:
		case <-time.After(testWait):
			t.Fatalf("the three records have not started after %v", testWait)
		}
	}
	stop() // Run drains: a and b still run
	close(release["a"])
	for end := time.Now().Add(testWait); committed(t, addrs)[0] != 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("committed %v %v after a finished while Run drained; want offset 1", committed(t, addrs), testWait)
		}
	}
	close(release["b"])
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(testWait):
		t.Fatalf("Run has not returned %v after its last record was released", testWait)
	}
	if got := committed(t, addrs)[0]; got != 3 {
		t.Errorf("committed offset %d at the end; want 3", got)
	}
	if s := c.Commits(); s.Failed != 0 {
		t.Errorf("Commits: %d failed (last: %v); want none", s.Failed, s.LastFailure)
	}
}

// TestRunCutsShortTheIntervalsCommitOnceDrained: once Run's executor has
// drained, an interval commit still going on is cut short, uncounted, and
// Run makes its own: it does not wait the interval commit out first, as
// franz-go retries it against a broker that refuses it (up to its
// RetryTimeout, 30 s by default). Here the broker refuses every commit as
// retriable and Run stops while the interval's first commit retries: the
// commits counted failed after the stop are Run's own and the
// revocation's as the client leaves the group (the final commit failed,
// so the revocation commits again); waited out, the interval's would
// count too (3 to 5 before the fix).
func TestRunCutsShortTheIntervalsCommitOnceDrained(t *testing.T) {
	first := make(chan struct{})
	var once sync.Once
	addrs := commitControlledCluster(t, func(r *kmsg.OffsetCommitRequest) kmsg.Response {
		once.Do(func() { close(first) })
		return refusal(r, kerr.CoordinatorLoadInProgress.Code)
	})
	produce(t, addrs, 1, 1, 1)
	c, err := New(append(memberOpts(addrs), kgo.RetryTimeout(3*time.Second)), konvoy.Convoy, 1, keyEvent,
		func(context.Context, *kgo.Record) error { return nil }, WithCommitInterval(10*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	run, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(run) }()
	select {
	case <-first: // the interval's commit of the record handled retries
	case <-time.After(testWait):
		t.Fatalf("no commit came after %v", testWait)
	}
	before := c.Commits().Failed
	stop()
	select {
	case err := <-done:
		if !errors.Is(err, kerr.CoordinatorLoadInProgress) {
			t.Errorf("Run: %v; want its own commit's refusal", err)
		}
	case <-time.After(testWait):
		t.Fatalf("Run has not returned %v after its context ended", testWait)
	}
	if s := c.Commits(); s.Failed-before != 2 || !errors.Is(s.LastFailure, kerr.CoordinatorLoadInProgress) {
		t.Errorf("Commits after the stop: %d failed, last %v; want 2, Run's own and the revocation's, refused", s.Failed-before, s.LastFailure)
	}
}
