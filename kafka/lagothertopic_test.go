package kafka

import (
	"context"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// Lag looks at the errors of the group's commits on its topic only: an
// error on another topic's commit (here UNSTABLE_OFFSET_COMMIT) does not
// fail it, where it did, naming the wrong topic (found by a review); one
// on its topic's is an error naming the partition. The client asks for
// offsets by topic name (Kafka 3.6's versions), which the cluster's
// answer, made here, gives.
func TestLagLooksOnlyAtItsTopicsCommits(t *testing.T) {
	for _, failing := range []string{"other", testTopic} {
		addrs := fetchAnsweringCluster(t, failing)
		produce(t, addrs, 3, 1, 1)
		cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.MaxVersions(kversion.V3_6_0()))
		if err != nil {
			t.Fatal(err)
		}
		lag, err := Lag(context.Background(), cl, testGroup, testTopic)
		cl.Close()
		switch {
		case failing == "other" && (err != nil || !gocmp.Equal(lag, map[int32]int64{0: 0})):
			t.Errorf("another topic's commit failing: %v, %v; want a lag of 0, committed at 3 of 3", lag, err)
		case failing == testTopic && (err == nil || !strings.Contains(err.Error(), testTopic+"/0: UNSTABLE_OFFSET_COMMIT")):
			t.Errorf("the topic's own commit failing: %v; want an error naming %s/0", err, testTopic)
		}
	}
}

// fetchAnsweringCluster returns the addresses of a cluster of one
// partition whose answer to a fetch of committed offsets is offset 3 on
// the test topic's partition 0 and on another topic's, the one of topic
// failing with UNSTABLE_OFFSET_COMMIT instead.
func fetchAnsweringCluster(t *testing.T, failing string) []string {
	t.Helper()
	kf, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, testTopic))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kf.Close)
	kf.ControlKey(int16(kmsg.OffsetFetch), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kf.KeepControl()
		r := req.(*kmsg.OffsetFetchRequest)
		resp := r.ResponseKind().(*kmsg.OffsetFetchResponse)
		resp.SetVersion(r.Version)
		rg := kmsg.NewOffsetFetchResponseGroup()
		for _, topic := range []string{testTopic, "other"} {
			gp, sp := kmsg.NewOffsetFetchResponseGroupTopicPartition(), kmsg.NewOffsetFetchResponseTopicPartition()
			gp.Offset, sp.Offset = 3, 3
			if topic == failing {
				gp.Offset, gp.ErrorCode, sp.Offset, sp.ErrorCode = -1, kerr.UnstableOffsetCommit.Code, -1, kerr.UnstableOffsetCommit.Code
			}
			gt, st := kmsg.NewOffsetFetchResponseGroupTopic(), kmsg.NewOffsetFetchResponseTopic()
			gt.Topic, gt.Partitions = topic, []kmsg.OffsetFetchResponseGroupTopicPartition{gp}
			st.Topic, st.Partitions = topic, []kmsg.OffsetFetchResponseTopicPartition{sp}
			rg.Topics, resp.Topics = append(rg.Topics, gt), append(resp.Topics, st)
		}
		for _, g := range r.Groups {
			rg.Group = g.Group
			resp.Groups = append(resp.Groups, rg)
		}
		return resp, nil, true
	})
	return kf.ListenAddrs()
}
