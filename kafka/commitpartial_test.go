package kafka

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A partition Kafka takes counts as committed though it refuses another
// in the same commit: here the broker refuses partition 0's metadata as
// too long and partition 1 with another error, and takes partition 0's
// offset alone (sendAlone). CommitStats counts partition 0 committed
// without its metadata (WithoutMetadata, LastMetadata). (Before, the
// other refusal returned before the count, and before the partition's
// commit was noted; found by a review.)
func TestAPartitionCommittedAloneBesideARefusalCountsAsCommitted(t *testing.T) {
	kf, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(2, testTopic))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kf.Close)
	var tooLarge, alone atomic.Int64
	kf.ControlKey(int16(kmsg.OffsetCommit), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kf.KeepControl()
		r := req.(*kmsg.OffsetCommitRequest)
		has1 := false
		for _, rt := range r.Topics {
			for _, rp := range rt.Partitions {
				if rp.Partition == 1 {
					has1 = true
				}
			}
		}
		if !has1 {
			for _, rt := range r.Topics {
				for _, rp := range rt.Partitions {
					if rp.Metadata != nil && *rp.Metadata != "" {
						tooLarge.Add(1)
						return refusal(r, kerr.OffsetMetadataTooLarge.Code), nil, true
					}
				}
			}
			alone.Add(1)
			return nil, nil, false // partition 0 alone, no metadata: the broker takes it
		}
		resp := refusal(r, kerr.InvalidCommitOffsetSize.Code)
		for i, rt := range r.Topics {
			for j, rp := range rt.Partitions {
				if rp.Partition == 0 && rp.Metadata != nil && *rp.Metadata != "" {
					resp.Topics[i].Partitions[j].ErrorCode = kerr.OffsetMetadataTooLarge.Code
					tooLarge.Add(1)
				}
			}
		}
		return resp, nil, true
	})
	addrs := kf.ListenAddrs()
	pcl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.DefaultProduceTopic(testTopic), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer pcl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	var rs []*kgo.Record
	for i := range 10 {
		rs = append(rs, &kgo.Record{Partition: 0, Key: fmt.Appendf(nil, "a%d", i), Value: []byte("x")})
	}
	for i := range 3 {
		rs = append(rs, &kgo.Record{Partition: 1, Key: fmt.Appendf(nil, "b%d", i), Value: []byte("x")})
	}
	if err := pcl.ProduceSync(ctx, rs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	handle := func(_ context.Context, r *kgo.Record) error {
		if r.Partition == 0 && r.Offset == 1 {
			<-gate
		}
		return nil
	}
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle, WithCommitInterval(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	defer func() { close(gate); _ = stop() }()
	for tooLarge.Load() == 0 || alone.Load() == 0 || committed(t, addrs)[0] != 1 {
		select {
		case <-ctx.Done():
			t.Fatalf("no commit of partition 0 alone: refused %d, alone %d, committed %v", tooLarge.Load(), alone.Load(), committed(t, addrs))
		case <-time.After(5 * time.Millisecond):
		}
	}
	// The client counts the commit once the broker's answer is back, after
	// the broker stored it: the check waits for the count, until ctx ends,
	// not for a time.
	for s := c.Commits(); s.WithoutMetadata == 0 || s.LastMetadata == nil; s = c.Commits() {
		select {
		case <-ctx.Done():
			t.Fatalf("partition 0 committed at 1 without its metadata (%d times), yet Commits: %+v; want WithoutMetadata >= 1 and LastMetadata naming partition 0", alone.Load(), s)
		case <-time.After(5 * time.Millisecond):
		}
	}
	t.Logf("refused as too long %d times, committed alone %d times; group's commit %v", tooLarge.Load(), alone.Load(), committed(t, addrs))
}
