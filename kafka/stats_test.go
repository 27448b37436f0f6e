package kafka

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestLagAndCaughtUp: before the group commits, its lag is each
// partition's whole length; a consumer holding records is not caught up;
// once every record was handled, CaughtUp commits them and says so, the
// lag is zero everywhere, and Stats count the records done. A topic that
// does not exist is an error naming it.
func TestLagAndCaughtUp(t *testing.T) {
	addrs := cluster(t, 3)
	ends := produce(t, addrs, 30, 5, 1)
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	want := map[int32]int64{}
	for p := range int32(3) {
		want[p] = ends[p] // a partition that got no record has a lag of 0
	}
	// Records deleted from the front of partition 1 are no lag.
	front := kadm.Offsets{}
	front.Add(kadm.Offset{Topic: testTopic, Partition: 1, At: 2})
	del, err := kadm.NewClient(cl).DeleteRecords(ctx, front)
	if err == nil {
		err = del.Error()
	}
	if err != nil {
		t.Fatal(err)
	}
	want[1] -= 2
	lag, err := Lag(ctx, cl, testGroup, testTopic)
	if err != nil || !gocmp.Equal(lag, want) {
		t.Fatalf("lag before any commit: %v, %v; want %v", lag, err, want)
	}
	if _, err := Lag(ctx, cl, testGroup, "nope"); err == nil || !strings.Contains(err.Error(), "topic nope") {
		t.Errorf("lag of a missing topic: %v; want an error naming it", err)
	}
	started, gate, all := make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
	var handled atomic.Int64
	handle := func(context.Context, *kgo.Record) error {
		select {
		case started <- struct{}{}:
		default:
		}
		<-gate
		if handled.Add(1) == 28 { // 30 produced, 2 deleted

			close(all)
		}
		return nil
	}
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle, WithCommitInterval(testWait))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	<-started
	if up, err := c.CaughtUp(ctx, testTopic); up || err != nil {
		t.Errorf("caught up with a record running: %v, %v; want false", up, err)
	}
	close(gate)
	<-all
	// The last handler has called close(all) and may not have returned:
	// until its record finishes, the member is rightly not caught up.
	if up, err := awaitCaughtUp(ctx, c); !up || err != nil {
		t.Errorf("caught up once every record was handled: %v, %v; want true", up, err)
	}
	if lag, err := Lag(ctx, cl, testGroup, testTopic); err != nil || !gocmp.Equal(lag, map[int32]int64{0: 0, 1: 0, 2: 0}) {
		t.Errorf("lag once caught up: %v, %v; want 0 everywhere", lag, err)
	}
	waitUntil(t, "28 records done", func() bool { return c.Stats().Done >= 28 })
	if s := c.Stats(); s.Done != 28 {
		t.Errorf("Stats: %d done; want 28", s.Done)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// awaitCaughtUp asks c whether it has caught up on the test topic until it
// has, an error comes, or ctx ends, a millisecond apart, and returns the
// last answer.
func awaitCaughtUp(ctx context.Context, c *Consumer) (bool, error) {
	for {
		up, err := c.CaughtUp(ctx, testTopic)
		if up || err != nil || ctx.Err() != nil {
			return up, err
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Millisecond):
		}
	}
}

// A commit Kafka refuses does not end Run: Commits counts it, with its
// error, and, once Kafka accepts again, the next commit as sent; Run's
// own last commit then succeeds.
func TestCommitsCountsTheCommitsKafkaRefused(t *testing.T) {
	addrs, refuse := refusingCluster(t, kerr.GroupAuthorizationFailed)
	produce(t, addrs, 5, 2, 1)
	handle, all := closeAfter(5)
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle, WithCommitInterval(testWait))
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Commits(); s != (CommitStats{}) {
		t.Errorf("commits before Run: %+v; want none", s)
	}
	stop := start(c)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	<-all
	waitUntil(t, "5 records done", func() bool { return c.Stats().Done == 5 })
	if up, err := c.CaughtUp(ctx, testTopic); up || err == nil {
		t.Errorf("caught up while Kafka refuses commits: %v, %v; want false and the commit's error", up, err)
	}
	s := c.Commits()
	if s.Sent != 0 || s.Failed != 1 || !strings.Contains(fmt.Sprint(s.LastFailure), "commit "+testTopic+"/0: GROUP_AUTHORIZATION_FAILED") {
		t.Errorf("after a refused commit: %+v; want 1 failed, with Kafka's error, named, and the partition", s)
	}
	refuse.Store(false)
	if up, err := c.CaughtUp(ctx, testTopic); !up || err != nil {
		t.Errorf("caught up once Kafka accepts: %v, %v; want true", up, err)
	}
	if s := c.Commits(); s.Sent != 1 || s.Failed != 1 || s.LastFailure == nil {
		t.Errorf("after an accepted commit: %+v; want 1 sent and 1 failed, the failure kept", s)
	}
	if err := stop(); err != nil {
		t.Errorf("Run: %v", err)
	}
}

// refusingCluster starts a cluster of one partition, closed when the test
// ends, that answers every commit with Kafka's error refused for each
// partition while the flag it returns holds (at first), and takes it as
// usual once it is cleared.
func refusingCluster(t *testing.T, refused *kerr.Error) ([]string, *atomic.Bool) {
	t.Helper()
	refuse := new(atomic.Bool)
	refuse.Store(true)
	addrs := commitControlledCluster(t, func(r *kmsg.OffsetCommitRequest) kmsg.Response {
		if !refuse.Load() {
			return nil
		}
		return refusal(r, refused.Code)
	})
	return addrs, refuse
}

// commitControlledCluster starts a cluster of one broker and one
// partition, closed when the test ends, whose answer to a commit is
// answer's, or, when answer returns nil, the broker's own, and returns its
// addresses.
func commitControlledCluster(t *testing.T, answer func(*kmsg.OffsetCommitRequest) kmsg.Response) []string {
	t.Helper()
	kf, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, testTopic))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kf.Close)
	kf.ControlKey(int16(kmsg.OffsetCommit), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kf.KeepControl()
		resp := answer(req.(*kmsg.OffsetCommitRequest))
		return resp, nil, resp != nil
	})
	return kf.ListenAddrs()
}

// refusal returns the answer to commit r that refuses each of its
// partitions with the error of code.
func refusal(r *kmsg.OffsetCommitRequest, code int16) *kmsg.OffsetCommitResponse {
	resp := r.ResponseKind().(*kmsg.OffsetCommitResponse)
	resp.SetVersion(r.Version)
	for _, rt := range r.Topics {
		st := kmsg.NewOffsetCommitResponseTopic()
		st.Topic = rt.Topic
		for _, rp := range rt.Partitions {
			sp := kmsg.NewOffsetCommitResponseTopicPartition()
			sp.Partition, sp.ErrorCode = rp.Partition, code
			st.Partitions = append(st.Partitions, sp)
		}
		resp.Topics = append(resp.Topics, st)
	}
	return resp
}

// closeAfter returns a handler that does nothing, and a channel it closes
// once it has handled n records.
func closeAfter(n int64) (func(context.Context, *kgo.Record) error, chan struct{}) {
	all := make(chan struct{})
	var handled atomic.Int64
	return func(context.Context, *kgo.Record) error {
		if handled.Add(1) == n {
			close(all)
		}
		return nil
	}, all
}

// CaughtUp takes a commit that Kafka refuses for a moment, as while the
// group rebalances, as not caught up yet, not as an error: konvoy replay
// -idle would otherwise stop on it, where the interval's commits simply
// try again. Once Kafka takes commits again, CaughtUp is true.
func TestCaughtUpWaitsOutARebalance(t *testing.T) {
	addrs, refuse := refusingCluster(t, kerr.RebalanceInProgress)
	produce(t, addrs, 5, 2, 1)
	handle, all := closeAfter(5)
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle, WithCommitInterval(testWait))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	<-all
	waitUntil(t, "5 records done", func() bool { return c.Stats().Done == 5 })
	if up, err := c.CaughtUp(ctx, testTopic); up || err != nil {
		t.Errorf("CaughtUp while Kafka answers REBALANCE_IN_PROGRESS: %v, %v; want false and no error", up, err)
	}
	if s := c.Commits(); s.Failed != 1 || !errors.Is(s.LastFailure, kerr.RebalanceInProgress) {
		t.Errorf("Commits: %+v; want the refused commit counted, with its error", s)
	}
	refuse.Store(false)
	if up, err := c.CaughtUp(ctx, testTopic); !up || err != nil {
		t.Errorf("CaughtUp once Kafka takes commits: %v, %v; want true", up, err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}
