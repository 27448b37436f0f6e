package kafka

import (
	"context"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A partition whose fetching the hook has yet to start is not caught up:
// its group's commit may still be the one past the log's end, which Lag
// counts no lag of. Here the group committed 15 over a log of 10, and
// the member is assigned the partition but its fetching has not started
// (the test assigns it, to a client that joins no group, so that no hook
// runs): records 0 to 9 are still to run. The same holds when the
// assignment could not list the end (the leader refuses ListOffsets), so
// that the commit is not known to be past it, nor set aside yet. (Before,
// CaughtUp asked Lag, which found the commit of 15 above the end of 10,
// and said true.)
func TestAPartitionWhoseFetchIsToStartIsNotCaughtUp(t *testing.T) {
	for _, unlisted := range []bool{false, true} {
		kf := fakeCluster(t, 1)
		addrs := kf.ListenAddrs()
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		defer cancel()
		commitPastTheEnd(ctx, t, addrs, nil)
		if unlisted {
			kf.ControlKey(int16(kmsg.ListOffsets), func(req kmsg.Request) (kmsg.Response, error, bool) {
				kf.KeepControl()
				r := req.(*kmsg.ListOffsetsRequest)
				if !latestOnly(r) {
					return nil, nil, false
				}
				return listOffsetsAnswer(r, func(sp *kmsg.ListOffsetsResponseTopicPartition) {
					sp.ErrorCode = kerr.UnknownServerError.Code // not retried
				}), nil, true
			})
		}
		c, err := New([]kgo.Opt{kgo.SeedBrokers(addrs...), kgo.ConsumerGroup(testGroup)}, konvoy.Convoy, 2, keyEvent,
			func(context.Context, *kgo.Record) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		c.assign(ctx, c.cl, map[string][]int32{testTopic: {0}})
		c.mu.Lock()
		p := c.assigned[topicPartition{testTopic, 0}]
		stale, listedNot := p.stale, p.unlisted
		c.mu.Unlock()
		if stale != 15 || listedNot != unlisted {
			t.Fatalf("unlisted %v: the assignment's stale commit is %d, unlisted %v; want 15", unlisted, stale, listedNot)
		}
		if up, err := c.CaughtUp(ctx, testTopic); up || err != nil {
			t.Errorf("unlisted %v: caught up: %v, %v; want false: records 0 to 9 are to run", unlisted, up, err)
		}
		c.cl.Close()
	}
}
