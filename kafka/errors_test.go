package kafka

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// groupOffsets fetches the group's committed offsets, with their
// metadata; before the group's first commit it fails.
func groupOffsets(t *testing.T, addrs []string) (kadm.OffsetResponses, error) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	return kadm.NewClient(cl).FetchOffsets(ctx, testGroup)
}

// topicOffsets returns the offset of each partition of the test topic in
// got.
func topicOffsets(got kadm.OffsetResponses) map[int32]int64 {
	out := map[int32]int64{}
	got.Each(func(o kadm.OffsetResponse) {
		if o.Err == nil && o.Topic == testTopic {
			out[o.Partition] = o.At
		}
	})
	return out
}

// committed returns the group's committed offset of each partition.
func committed(t *testing.T, addrs []string) map[int32]int64 {
	t.Helper()
	got, err := groupOffsets(t, addrs)
	if err != nil {
		t.Fatal(err)
	}
	return topicOffsets(got)
}

// TestCommitsOnTheInterval: while Run goes on, after every record was
// handled, the interval's commits reach every partition's end.
func TestCommitsOnTheInterval(t *testing.T) {
	addrs := cluster(t, 3)
	const n = 300
	ends := produce(t, addrs, n, 20, 3)
	l := newLedger(n)
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, l.handler(0, nil), WithCommitInterval(10*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	l.awaitAll(t)
	deadline := time.Now().Add(testWait)
	for got := committed(t, addrs); !equalOffsets(got, ends); got = committed(t, addrs) {
		if time.Now().After(deadline) {
			t.Fatalf("committed %v after %v; want %v", got, testWait, ends)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	l.check(t, ends, true)
}

// equalOffsets tells whether a and b name the same offsets.
func equalOffsets(a, b map[int32]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for p, o := range a {
		if b[p] != o {
			return false
		}
	}
	return true
}

// failing says whether the record with value v fails: every seventh.
func failing(r *kgo.Record) bool {
	var v int
	fmt.Sscan(string(r.Value), &v)
	return v%7 == 3
}

// TestFailuresRetryAndDeadLetter: a handler fails every seventh record
// twice; with two attempts and a dead letter, those records reach the dead
// letter with the handler's error, the others are handled, and the commits
// reach every partition's end.
func TestFailuresRetryAndDeadLetter(t *testing.T) {
	addrs := cluster(t, 3)
	const n = 210
	ends := produce(t, addrs, n, 15, 4)
	var mu sync.Mutex
	handled, dead := map[string]int{}, map[string]int{}
	errBoom := errors.New("boom")
	all := make(chan struct{})
	settle := func(m map[string]int, r *kgo.Record) {
		mu.Lock()
		defer mu.Unlock()
		m[string(r.Value)]++
		if len(handled)+len(dead) == n {
			close(all)
		}
	}
	handle := func(_ context.Context, r *kgo.Record) error {
		if failing(r) {
			return errBoom
		}
		settle(handled, r)
		return nil
	}
	deadLetter := func(_ context.Context, r *kgo.Record, err error) error {
		if !errors.Is(err, errBoom) {
			t.Errorf("dead letter of %s: %v; want boom", r.Value, err)
		}
		settle(dead, r)
		return nil
	}
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle,
		WithExecutor(live.WithRetry(live.Retry{Attempts: 2})), WithDeadLetter(deadLetter), WithCommitInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	select {
	case <-all:
	case <-time.After(testWait):
		t.Fatalf("not every record settled after %v", testWait)
	}
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	mu.Lock()
	for v, k := range dead {
		if k != 1 || handled[v] != 0 {
			t.Errorf("record %s: dead-lettered %d times, handled %d", v, k, handled[v])
		}
	}
	if len(dead) != n/7 {
		t.Errorf("%d records dead-lettered; want %d", len(dead), n/7)
	}
	mu.Unlock()
	checkCommitted(t, addrs, ends)
}

// TestFailureStopsWithoutSkipping: without a dead letter the first failed
// record stops the consumer: Run returns the failure, and no partition's
// commit passes a record that failed or never ran.
func TestFailureStopsWithoutSkipping(t *testing.T) {
	addrs := cluster(t, 2)
	const n = 100
	produce(t, addrs, n, 10, 5)
	var mu sync.Mutex
	done := map[[2]int64]bool{}
	handle := func(_ context.Context, r *kgo.Record) error {
		if failing(r) {
			return errors.New("boom")
		}
		mu.Lock()
		done[[2]int64{int64(r.Partition), r.Offset}] = true
		mu.Unlock()
		return nil
	}
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle, WithCommitInterval(5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	err = c.Run(ctx) // ends by itself: the executor stops
	if !errors.Is(err, live.ErrStopped) {
		t.Fatalf("Run: %v; want an error wrapping live.ErrStopped", err)
	}
	mu.Lock()
	defer mu.Unlock()
	got := committed(t, addrs)
	if len(got) == 0 {
		t.Fatal("nothing committed; want the offsets below the failure")
	}
	for p, at := range got {
		for o := range at {
			if !done[[2]int64{int64(p), o}] {
				t.Errorf("partition %d committed at %d past record %d, which did not finish", p, at, o)
			}
		}
	}
}

// A group session franz-go gives up on ends the run when Kafka's answer
// says joining again would fail the same way, and is lost, to be joined
// again, when the group merely forgot the member or moved on: a session
// timeout outside the broker's bounds, joined again, would be refused for
// ever.
func TestSessionLostOnlyWhenJoiningAgainCanWork(t *testing.T) {
	for _, tt := range []struct {
		err  error
		lost bool
	}{
		{&kgo.ErrGroupSession{Err: kerr.UnknownMemberID}, true},
		{&kgo.ErrGroupSession{Err: kerr.IllegalGeneration}, true},
		{&kgo.ErrGroupSession{Err: kerr.RebalanceInProgress}, true},
		{&kgo.ErrGroupSession{Err: kerr.MemberIDRequired}, true},
		{&kgo.ErrGroupSession{Err: kerr.CoordinatorNotAvailable}, true}, // retriable
		{&kgo.ErrGroupSession{Err: io.EOF}, true},                       // the connection
		{&kgo.ErrGroupSession{Err: kerr.InvalidSessionTimeout}, false},
		{&kgo.ErrGroupSession{Err: kerr.GroupAuthorizationFailed}, false},
		{&kgo.ErrGroupSession{Err: kerr.TopicAuthorizationFailed}, false},
		{&kgo.ErrGroupSession{Err: kerr.InconsistentGroupProtocol}, false},
		{fmt.Errorf("fetch: %w", &kgo.ErrGroupSession{Err: kerr.InvalidSessionTimeout}), false},
		{kerr.UnknownMemberID, false}, // not a session franz-go gave up on
	} {
		if got := sessionLost(tt.err); got != tt.lost {
			t.Errorf("sessionLost(%v) = %v; want %v", tt.err, got, tt.lost)
		}
	}
}
