package main

import (
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A partition leader that is briefly unavailable (LEADER_NOT_AVAILABLE,
// which Kafka calls retriable) while -idle asks for the topic's end
// offsets is, as a commit refused for a moment is in CaughtUp, "not caught
// up yet": the replay goes on, stops by itself once idle, exits 0 and
// reports the records it handled. (Before, the lag check's error stopped
// the replay with status 1 and no report, after every record ran and was
// committed; found by a review.) So does a partition's
// UNKNOWN_TOPIC_OR_PARTITION, as a broker that no longer hosts the
// partition answers after a reassignment, with the client's metadata
// stale: only the topic's own is a topic that is not there.
func TestIdleOutlastsAMomentaryEndOffsetError(t *testing.T) {
	for _, code := range []*kerr.Error{kerr.LeaderNotAvailable, kerr.UnknownTopicOrPartition} {
		t.Run(code.Message, func(t *testing.T) { idleOutlasts(t, code) })
	}
}

// idleOutlasts replays 10 records with -idle, the first listing of the
// topic's end offsets answered with code for every partition.
func idleOutlasts(t *testing.T, code *kerr.Error) {
	if !code.Retriable {
		t.Fatalf("%s is not retriable", code.Message)
	}
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(3, "orders"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	var mu sync.Mutex
	refusals := 1 // the first listing of end offsets only
	c.ControlKey(int16(kmsg.ListOffsets), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		r := req.(*kmsg.ListOffsetsRequest)
		mu.Lock()
		defer mu.Unlock()
		latest := false
		for _, tp := range r.Topics {
			for _, p := range tp.Partitions {
				latest = latest || p.Timestamp == -1
			}
		}
		if !latest || refusals == 0 {
			return nil, nil, false
		}
		refusals--
		resp := r.ResponseKind().(*kmsg.ListOffsetsResponse)
		resp.SetVersion(r.Version)
		for _, tp := range r.Topics {
			st := kmsg.NewListOffsetsResponseTopic()
			st.Topic = tp.Topic
			for _, p := range tp.Partitions {
				sp := kmsg.NewListOffsetsResponseTopicPartition()
				sp.Partition, sp.ErrorCode = p.Partition, code.Code
				st.Partitions = append(st.Partitions, sp)
			}
			resp.Topics = append(resp.Topics, st)
		}
		return resp, nil, true
	})
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.DefaultProduceTopic("orders"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	produceExport(t, cl, 10)
	out, errOut, status := runTopicCommand(t, topicArgs(c.ListenAddrs()[0], "g")...)
	if status != 0 || !strings.HasPrefix(out, "replay of topic orders: 10 events") {
		t.Errorf("a momentary %s on the end offsets: status %d, stdout %q, stderr %q; want 0 and the report of the 10 records", code.Message, status, out, errOut)
	}
}
