package kafka

import (
	"context"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A partition whose fetching the hook has yet to start is not caught up:
// its group's commit may still be the one past the log's end, which Lag
// counts no lag of. Here the group committed 15 over a log of 10, and
// the member is assigned the partition but its fetching has not started
// (the test assigns it, to a client that joins no group, so that no hook
// runs): records 0 to 9 are still to run. (Before, CaughtUp asked Lag,
// which found the commit of 15 above the end of 10, and said true.)
func TestAPartitionWhoseFetchIsToStartIsNotCaughtUp(t *testing.T) {
	addrs := cluster(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	commitPastTheEnd(ctx, t, addrs, nil)
	c, err := New([]kgo.Opt{kgo.SeedBrokers(addrs...), kgo.ConsumerGroup(testGroup)}, konvoy.Convoy, 2, keyEvent,
		func(context.Context, *kgo.Record) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	defer c.cl.Close()
	c.assign(ctx, c.cl, map[string][]int32{testTopic: {0}})
	c.mu.Lock()
	stale := c.assigned[topicPartition{testTopic, 0}].stale
	c.mu.Unlock()
	if stale != 15 {
		t.Fatalf("the assignment's stale commit is %d; want 15, past the end", stale)
	}
	if up, err := c.CaughtUp(ctx, testTopic); up || err != nil {
		t.Errorf("caught up: %v, %v; want false: records 0 to 9 are to run", up, err)
	}
}
