package kafka

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestACommitCutShortStillCountsKafkasRefusal: an interval commit cut
// short as Run's drain ends (errSuperseded) is not counted failed, but a
// refusal Kafka had already sent for it is. Here Kafka answers the
// interval's commit of two partitions in full, refusing one
// (TOPIC_AUTHORIZATION_FAILED, not retriable) and the other's metadata as
// too long; the drain ends while the commit's retry of the second alone
// (sendAlone) is in flight. Commits().Failed counts the refusal. (Under a
// load that delays the stop past the retry's answer, the commit is not
// cut short at all, and the refusal counts as well.) So does
// UNKNOWN_TOPIC_OR_PARTITION, which kerr calls retriable but franz-go
// does not retry for a commit: Kafka's answer settled it (found by a
// review, when every retriable refusal was taken as one retried).
func TestACommitCutShortStillCountsKafkasRefusal(t *testing.T) {
	for _, code := range []*kerr.Error{kerr.TopicAuthorizationFailed, kerr.UnknownTopicOrPartition} {
		t.Run(code.Message, func(t *testing.T) { commitCutShortAfterARefusal(t, code) })
	}
}

// commitCutShortAfterARefusal is TestACommitCutShortStillCountsKafkasRefusal
// with Kafka refusing the first partition's commit with code.
func commitCutShortAfterARefusal(t *testing.T, code *kerr.Error) {
	kf := fakeCluster(t, 2)
	run, stop := context.WithCancel(context.Background())
	defer stop()
	var n atomic.Int64 // commit requests with both partitions, and after
	kf.ControlKey(int16(kmsg.OffsetCommit), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kf.KeepControl()
		r := req.(*kmsg.OffsetCommitRequest)
		parts := 0
		for _, rt := range r.Topics {
			parts += len(rt.Partitions)
		}
		switch {
		case n.Load() == 0 && parts == 2:
			n.Add(1)
			resp := refusal(r, code.Code)
			resp.Topics[0].Partitions[1].ErrorCode = kerr.OffsetMetadataTooLarge.Code
			t.Logf("commit 1: refused %d/%d (%s), %d/%d (metadata too large)",
				resp.Topics[0].Partitions[0].Partition, r.Topics[0].Partitions[0].Offset, code.Message,
				resp.Topics[0].Partitions[1].Partition, r.Topics[0].Partitions[1].Offset)
			return resp, nil, true
		case n.Load() == 1:
			n.Add(1)
			t.Logf("commit 2 (alone): %d partition(s); Run stops now", parts)
			stop()                             // the drain ends while this request is in flight
			time.Sleep(500 * time.Millisecond) // kfake answers after endCommits
			return nil, nil, false
		}
		n.Add(1)
		return nil, nil, false
	})
	addrs := kf.ListenAddrs()
	ends := produce(t, addrs, 20, 1000, 5)
	if len(ends) != 2 {
		t.Fatalf("records in %d partitions; want 2", len(ends))
	}
	var handled atomic.Int64
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent,
		func(context.Context, *kgo.Record) error { handled.Add(1); return nil }, WithCommitInterval(testWait))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Run(run) }()
	deadline := time.Now().Add(testWait)
	for c.Stats().Done < 20 {
		if time.Now().After(deadline) {
			t.Fatalf("%d records done after %v", c.Stats().Done, testWait)
		}
		time.Sleep(time.Millisecond)
	}
	c.commitSoon() // the interval's commit, of both partitions
	select {
	case err := <-done:
		t.Logf("Run: %v", err)
	case <-time.After(testWait):
		t.Fatalf("Run has not returned")
	}
	if n.Load() < 2 {
		t.Fatalf("%d commit requests seen; the scenario did not run", n.Load())
	}
	if s := c.Commits(); s.Failed == 0 {
		t.Errorf("Commits: %d failed, last %v, %d sent; want Kafka's refusal of the interval's commit counted", s.Failed, s.LastFailure, s.Sent)
	}
}
