package kafka

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Lag is an error, naming the group, the topic and the broker's error,
// when the broker answers the group's committed offset of a partition
// with an error: the lag of that partition is then unknown, and counting
// it from the log's start would overstate it as if the group had never
// committed. Here the broker answers every offset fetch with an
// authorization error for partition 0.
func TestLagIsAnErrorWhenAPartitionsCommitIsUnreadable(t *testing.T) {
	kf, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(2, testTopic))
	if err != nil {
		t.Fatal(err)
	}
	defer kf.Close()
	refuseOffsetFetch(kf, -1)
	addrs := kf.ListenAddrs()
	produce(t, addrs, 10, 3, 1)
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	lag, err := Lag(ctx, cl, testGroup, testTopic)
	if err == nil || !strings.Contains(err.Error(), "group konvoy committed on topic events") || !strings.Contains(err.Error(), "TOPIC_AUTHORIZATION_FAILED") {
		t.Fatalf("Lag with partition 0's commit unreadable: %v, %v; want an error naming the group, the topic and the broker's error", lag, err)
	}
}

// refuseOffsetFetch has kf answer its first n offset fetches (every one
// for n < 0) with an authorization error for partition 0 of the test
// topic, and nothing else.
func refuseOffsetFetch(kf *kfake.Cluster, n int) {
	kf.ControlKey(int16(kmsg.OffsetFetch), func(req kmsg.Request) (kmsg.Response, error, bool) {
		if n == 0 {
			return nil, nil, false
		}
		n--
		kf.KeepControl()
		r := req.(*kmsg.OffsetFetchRequest)
		resp := r.ResponseKind().(*kmsg.OffsetFetchResponse)
		resp.SetVersion(r.Version)
		sp := kmsg.NewOffsetFetchResponseTopicPartition()
		sp.Partition, sp.Offset, sp.ErrorCode = 0, -1, kerr.TopicAuthorizationFailed.Code
		st := kmsg.NewOffsetFetchResponseTopic()
		st.Topic, st.Partitions = testTopic, []kmsg.OffsetFetchResponseTopicPartition{sp}
		resp.Topics = []kmsg.OffsetFetchResponseTopic{st}
		for _, g := range r.Groups { // v8 on: a group each
			rg := kmsg.NewOffsetFetchResponseGroup()
			rg.Group = g.Group
			gp := kmsg.NewOffsetFetchResponseGroupTopicPartition()
			gp.Partition, gp.Offset, gp.ErrorCode = 0, -1, kerr.TopicAuthorizationFailed.Code
			gt := kmsg.NewOffsetFetchResponseGroupTopic()
			gt.Topic, gt.Partitions = testTopic, []kmsg.OffsetFetchResponseGroupTopicPartition{gp}
			rg.Topics = []kmsg.OffsetFetchResponseGroupTopic{gt}
			resp.Groups = append(resp.Groups, rg)
		}
		return resp, nil, true
	})
}

// An assignment whose committed offsets cannot be fetched counts as
// unread, each one, as one whose metadata cannot be read does: its
// records from the commit on run again. Here the member is assigned two
// partitions, and Kafka answers the first fetch of the group's commits,
// the consumer's own on assignment (before franz-go's, which then finds
// where to start), with an error for partition 0, which fails the fetch.
func TestAnUnfetchableCommitCountsAsUnread(t *testing.T) {
	kf, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(2, testTopic))
	if err != nil {
		t.Fatal(err)
	}
	defer kf.Close()
	refuseOffsetFetch(kf, 1)
	addrs := kf.ListenAddrs()
	produce(t, addrs, 10, 3, 1)
	handle, all := closeAfter(10)
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle, WithCommitInterval(testWait))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	select {
	case <-all:
	case <-time.After(testWait):
		t.Fatal("the records were not all handled")
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if s := c.Commits(); s.Unread != 2 {
		t.Errorf("Commits: %+v; want 2 unread, both assignments'", s)
	}
}
