package kafka

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Lag is an error when the broker cannot list a partition's end offset,
// or its start offset, the other listing answering: a lag counted from an
// offset the broker did not give (-1) is no lag at all, and CaughtUp
// would read a partition whose end is unknown as caught up. The broker
// answers UNKNOWN_SERVER_ERROR, which franz-go does not retry.
func TestLagIsAnErrorWhenEitherListingFails(t *testing.T) {
	for _, tc := range []struct {
		timestamp int64 // -1 the end offsets, -2 the start offsets
		want      string
	}{
		{-1, "the end offsets of topic events"},
		{-2, "the start offsets of topic events"},
	} {
		kf := fakeCluster(t, 2)
		addrs := kf.ListenAddrs()
		produce(t, addrs, 10, 3, 1)
		kf.ControlKey(int16(kmsg.ListOffsets), func(req kmsg.Request) (kmsg.Response, error, bool) {
			kf.KeepControl()
			r := req.(*kmsg.ListOffsetsRequest)
			for _, rt := range r.Topics {
				for _, rp := range rt.Partitions {
					if rp.Timestamp != tc.timestamp {
						return nil, nil, false
					}
				}
			}
			return listOffsetsAnswer(r, func(sp *kmsg.ListOffsetsResponseTopicPartition) {
				sp.ErrorCode = kerr.UnknownServerError.Code
			}), nil, true
		})
		cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		lag, err := Lag(ctx, cl, testGroup, testTopic)
		cancel()
		cl.Close()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, kerr.UnknownServerError) {
			t.Errorf("Lag with the listing of timestamp %d refused: %v, %v; want an error saying %q and the broker's", tc.timestamp, lag, err, tc.want)
		}
	}
}

// A PartitionError names its partition, partition 0 included, and says
// "every partition assigned" for partition -1 only.
func TestPartitionErrorNamesPartitionZero(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		partition int32
		want      string
	}{
		{0, `kafka: topic "t" partition 0: boom`},
		{3, `kafka: topic "t" partition 3: boom`},
		{-1, `kafka: topic "t", every partition assigned: boom`},
	} {
		if got := (&PartitionError{Topic: "t", Partition: tc.partition, Err: boom}).Error(); got != tc.want {
			t.Errorf("partition %d: %q; want %q", tc.partition, got, tc.want)
		}
	}
}

// A listing's error for one partition, partition 0 included, names the
// partition and is no topic-wide error: a partition's leader moving
// (NOT_LEADER_FOR_PARTITION, retriable) leaves CaughtUp saying not yet,
// where a topic-wide UNKNOWN_TOPIC_OR_PARTITION (partition -1) is the
// topic not there.
func TestAListingsPartitionZeroErrorIsNotTopicWide(t *testing.T) {
	listed := func(p int32, err error) kadm.ListedOffsets {
		return kadm.ListedOffsets{testTopic: {
			p:     {Topic: testTopic, Partition: p, Offset: -1, Err: err},
			p + 2: {Topic: testTopic, Partition: p + 2, Offset: 5},
		}}
	}
	err := listError(listed(0, kerr.NotLeaderForPartition), testTopic)
	if err == nil || errors.As(err, new(topicWide)) || !strings.HasPrefix(err.Error(), "partition 0: ") || !transient(err) {
		t.Errorf("partition 0 refused: %v (topic-wide %v); want partition 0 named, transient, not topic-wide", err, errors.As(err, new(topicWide)))
	}
	err = listError(listed(-1, kerr.UnknownTopicOrPartition), testTopic)
	if !errors.As(err, new(topicWide)) || !errors.Is(err, kerr.UnknownTopicOrPartition) {
		t.Errorf("the topic refused: %v; want a topic-wide error", err)
	}
}
