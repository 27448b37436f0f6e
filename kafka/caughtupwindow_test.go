package kafka

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// CaughtUp commits first and asks after whether a reset is unsettled. When
// franz-go's AdjustFetchOffsetsFn (resetPastEnd) runs for a partition
// whose commit lies past the log's end while CaughtUp's commit is in
// flight (it runs concurrently with commits, after SyncGroup), the
// commit did not carry the partition's reset (stale was still set), and
// stale is cleared by the time it asks: Lag reads the group's commit of
// 15 over a log of 10, counts no lag, and CaughtUp says true with
// records 0 to 9 still to run. The reset left to commit says it is not
// caught up (found by a review).
func TestCaughtUpIsFalseUntilAResetsCommitLands(t *testing.T) {
	kf := fakeCluster(t, 2)
	addrs := kf.ListenAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	pcl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.DefaultProduceTopic(testTopic), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer pcl.Close()
	for i := range 10 {
		if err := pcl.ProduceSync(ctx, &kgo.Record{Partition: 0, Key: fmt.Appendf(nil, "k%d", i)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	commitAt(ctx, t, addrs, 15, "") // past the end of 10, no epoch
	c, err := New([]kgo.Opt{kgo.SeedBrokers(addrs...), kgo.ConsumerGroup(testGroup)}, konvoy.Convoy, 2, keyEvent,
		func(context.Context, *kgo.Record) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	defer c.cl.Close()
	c.assign(ctx, c.cl, map[string][]int32{testTopic: {0, 1}})
	c.mu.Lock()
	p0, p1 := c.assigned[topicPartition{testTopic, 0}], c.assigned[topicPartition{testTopic, 1}]
	stale := p0.stale
	// p1 has a commit to make (as a data-loss reset leaves one, resetPart),
	// so that CaughtUp's commit has a request in flight.
	p1.resetFrom, p1.resetEpoch = 0, -1
	p1.resetGen++
	c.mu.Unlock()
	if stale != 15 {
		t.Fatalf("stale %d; want 15", stale)
	}
	var hooked atomic.Bool
	kf.ControlKey(int16(kmsg.OffsetCommit), func(kmsg.Request) (kmsg.Response, error, bool) {
		kf.KeepControl()
		if !hooked.Swap(true) {
			// franz-go's fetch of the partition's commit ends now, and
			// it calls the hook, as its fetch starts.
			if _, err := c.resetPastEnd(context.Background(), map[string]map[int32]kgo.Offset{
				testTopic: {0: kgo.NewOffset().At(15).WithEpoch(-1)}}); err != nil {
				t.Error(err)
			}
		}
		return nil, nil, false
	})
	up, err := c.CaughtUp(ctx, testTopic)
	t.Logf("hook ran during CaughtUp's commit: %v; group's commit now %v", hooked.Load(), committed(t, addrs))
	if up || err != nil {
		t.Errorf("CaughtUp: %v, %v; want false: partition 0 starts fetching at 0, records 0 to 9 to run, its reset uncommitted", up, err)
	}
}
