package kafka

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// error counts as unread.
func TestAPartitionsFetchErrorCountsAsUnread(t *testing.T) {
	kf, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, testTopic))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kf.Close)
	admCl, err := kgo.NewClient(kgo.SeedBrokers(kf.ListenAddrs()...))
	if err != nil {
		t.Fatal(err)
	}
	tds, err := kadm.NewClient(admCl).ListTopics(context.Background(), testTopic)
	admCl.Close()
	if err != nil {
		t.Fatal(err)
	}
	topicID := tds[testTopic].ID
	var answered atomic.Bool
	kf.ControlKey(int16(kmsg.OffsetFetch), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kf.KeepControl()
		r := req.(*kmsg.OffsetFetchRequest)
		if r.Version < 8 || len(r.Groups) != 1 || r.Groups[0].Topics != nil {
			return nil, nil, false // franz-go's own fetch, which names its topics
		}
		answered.Store(true)
		resp := r.ResponseKind().(*kmsg.OffsetFetchResponse)
		resp.SetVersion(r.Version)
		g := kmsg.NewOffsetFetchResponseGroup()
		g.Group = r.Groups[0].Group
		rt := kmsg.NewOffsetFetchResponseGroupTopic()
		rt.Topic, rt.TopicID = testTopic, topicID
		rp := kmsg.NewOffsetFetchResponseGroupTopicPartition()
		rp.Partition, rp.Offset, rp.ErrorCode = 0, -1, kerr.UnknownServerError.Code
		rt.Partitions = append(rt.Partitions, rp)
		g.Topics = append(g.Topics, rt)
		resp.Groups = append(resp.Groups, g)
		return resp, nil, true
	})
	addrs := kf.ListenAddrs()
	produce(t, addrs, 3, 2, 1)
	handle, all := closeAfter(3)
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle, WithCommitInterval(testWait))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	<-all
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !answered.Load() {
		t.Fatal("the group's fetch was never answered with the error")
	}
	s := c.Commits()
	var pe *PartitionError
	if s.Unread != 1 || !errors.As(s.LastMetadata, &pe) || pe.Topic != testTopic || pe.Partition != 0 || !errors.Is(pe, kerr.UnknownServerError) {
		t.Errorf("Commits: %+v; want 1 unread, the last naming partition 0 and the broker's error", s)
	}
}
