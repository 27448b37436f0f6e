package kafka

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A broker whose offset.metadata.max.bytes is below MaxMetadata refuses a
// commit's metadata as too long (OFFSET_METADATA_TOO_LARGE): the consumer
// commits the offset alone at once, as it does metadata that would pass
// MaxMetadata, and counts it, instead of failing every commit of the
// partition while its finished offsets stay above the committable one.
// Here the broker takes no metadata at all, and the record at offset 0
// runs while the nine after it, of other keys, finish.
func TestMetadataTheBrokerRefusesIsCommittedAlone(t *testing.T) {
	addrs, refused := metadataRefusingCluster(t)
	produce(t, addrs, 10, 1000, 3)
	gate := make(chan struct{})
	var after atomic.Int64
	handle := func(_ context.Context, r *kgo.Record) error {
		if r.Offset == 0 {
			<-gate
		} else {
			after.Add(1)
		}
		return nil
	}
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle, WithCommitInterval(testWait))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	for refused.Load() == 0 { // until a commit named finished records: handled after offset 0
		if up, err := c.CaughtUp(ctx, testTopic); up || err != nil {
			t.Fatalf("CaughtUp with offset 0 running, %d after it handled: %v, %v; want false and no error", after.Load(), up, err)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no commit with metadata; %d records after offset 0 handled", after.Load())
		case <-time.After(time.Millisecond):
		}
	}
	checkCommittedAlone(t, c.Commits())
	if o := committed(t, addrs); o[0] != 0 {
		t.Errorf("committed %v; want partition 0 at 0, its offset alone", o)
	}
	close(gate)
	if up, err := awaitCaughtUp(ctx, c); !up || err != nil {
		t.Errorf("caught up once offset 0 finished: %v, %v; want true", up, err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if o := committed(t, addrs); o[0] != 10 {
		t.Errorf("committed %v; want partition 0 at 10", o)
	}
}

// metadataRefusingCluster returns the addresses of a cluster of one broker
// and one partition that refuses every commit naming metadata, as too
// long, and a count of those it refused.
func metadataRefusingCluster(t *testing.T) ([]string, *atomic.Int64) {
	t.Helper()
	refused := new(atomic.Int64)
	addrs := commitControlledCluster(t, func(r *kmsg.OffsetCommitRequest) kmsg.Response {
		for _, rt := range r.Topics {
			for _, rp := range rt.Partitions {
				if rp.Metadata != nil && *rp.Metadata != "" {
					refused.Add(1)
					return refusal(r, kerr.OffsetMetadataTooLarge.Code)
				}
			}
		}
		return nil
	})
	return addrs, refused
}

// checkCommittedAlone fails t unless s counts no commit failed and one of
// partition 0 without its metadata, refused as too long, and names it.
func checkCommittedAlone(t *testing.T, s CommitStats) {
	t.Helper()
	if s.Failed != 0 || s.WithoutMetadata != 1 ||
		!namesPartition(s.LastMetadata, 0, "offset 0 committed without its metadata, which the broker refused as too long") {
		t.Errorf("Commits: %+v; want none failed, 1 without metadata, the last naming partition 0 and why", s)
	}
}

// namesPartition tells whether err is a *PartitionError of the test topic's
// partition whose words hold words.
func namesPartition(err error, partition int32, words string) bool {
	var pe *PartitionError
	return errors.As(err, &pe) && pe.Topic == testTopic && pe.Partition == partition && strings.Contains(pe.Error(), words)
}
