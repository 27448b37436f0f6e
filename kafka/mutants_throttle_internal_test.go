package kafka

import (
	"context"
	"slices"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// unthrottle looks at every partition assigned, whichever comes first: a
// partition throttled and still short of its resume stays paused however
// many partitions not throttled are assigned beside it, and the partitions
// paused but not throttled resume. Maps come in a random order, so the
// call is made a bounded number of times.
func TestUnthrottleKeepsAThrottledPartitionBesideOthers(t *testing.T) {
	c, err := New(offlineOpts(), konvoy.Convoy, 1, keyEvent, func(context.Context, *kgo.Record) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.cl.Close)
	all := []int32{0, 1, 2, 3, 4, 5, 6, 7}
	c.assign(context.Background(), c.cl, map[string][]int32{testTopic: all})
	throttled := c.assigned[topicPartition{testTopic, 3}]
	const stopped = 30_000
	throttled.last, throttled.stoppedAt = stopped-1, stopped
	for i := range 40 {
		c.cl.PauseFetchPartitions(map[string][]int32{testTopic: all})
		c.unthrottle(func(id int) (int64, bool) { return 0, id == throttled.id }) // record 0 held
		if got := c.cl.PauseFetchPartitions(nil)[testTopic]; !slices.Equal(got, []int32{3}) || throttled.stoppedAt != stopped {
			t.Fatalf("call %d: paused %v, partition 3 stopped at %d; want 3 alone paused, stopped at %d", i, got, throttled.stoppedAt, stopped)
		}
	}
}
