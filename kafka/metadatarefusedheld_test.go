package kafka

import (
	"context"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// alone is committed: Kafka holds it, with no metadata.
func TestMetadataRefusedLeavesTheOffsetCommittedInKafka(t *testing.T) {
	addrs, refused := metadataRefusingCluster(t)
	produce(t, addrs, 10, 1000, 3)
	gate := make(chan struct{})
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, func(_ context.Context, r *kgo.Record) error {
		if r.Offset == 0 {
			<-gate
		}
		return nil
	}, WithCommitInterval(testWait))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	defer func() {
		close(gate)
		if err := stop(); err != nil {
			t.Error(err)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	for refused.Load() == 0 {
		if _, err := c.CaughtUp(ctx, testTopic); err != nil || ctx.Err() != nil {
			t.Fatalf("no commit with metadata: %v", err)
		}
		time.Sleep(time.Millisecond)
	}
	got, err := groupOffsets(t, addrs)
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := got.Lookup(testTopic, 0); !ok || o.Err != nil || o.At != 0 || o.Metadata != "" {
		t.Errorf("Kafka holds %+v (found %v); want offset 0 committed without metadata", o, ok)
	}
}
