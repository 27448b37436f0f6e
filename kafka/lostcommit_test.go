package kafka

import (
	"context"
	"errors"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// request: lose marks the assignment gone, which owned takes out.
func TestALostAssignmentIsLeftOutOfACommitMadeBefore(t *testing.T) {
	c, err := New(offlineOpts(), konvoy.Convoy, 1, keyEvent, func(context.Context, *kgo.Record) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.cl.Close)
	c.assign(context.Background(), c.cl, map[string][]int32{testTopic: {0}})
	p := c.assigned[topicPartition{testTopic, 0}]
	c.lose(context.Background(), c.cl, map[string][]int32{testTopic: {0}})
	req := kmsg.NewPtrOffsetCommitRequest()
	rt := kmsg.NewOffsetCommitRequestTopic()
	rt.Topic = testTopic
	rp := kmsg.NewOffsetCommitRequestTopicPartition()
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	if _, err := c.owned(req, map[topicPartition]string{p.tp: ""}, []*part{p}); !errors.Is(err, errAllGone) {
		t.Errorf("owned of a commit naming the lost partition: %v, left %+v; want errAllGone", err, req.Topics)
	}
}
