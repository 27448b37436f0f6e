package kafka

import (
	"errors"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// A commit request franz-go sends after the partitions it was made for
// were lost (or revoked) names none of them: franz-go may send a commit
// made before a loss with the generation the member joined after it, when
// another member owns those partitions. owned, the commit's last word,
// takes out the partitions forgotten since the commit was read, sets the
// rest's metadata, "" included, and refuses a request left with none.
func TestACommitSendsNoPartitionLostMeanwhile(t *testing.T) {
	lost := &part{tp: topicPartition{"t", 0}, gone: true}
	kept := &part{tp: topicPartition{"t", 1}}
	meta := map[topicPartition]string{lost.tp: "lost", kept.tp: ""}
	req := func() *kmsg.OffsetCommitRequest {
		r := kmsg.NewPtrOffsetCommitRequest()
		rt := kmsg.NewOffsetCommitRequestTopic()
		rt.Topic = "t"
		for _, p := range []int32{0, 1} {
			rp := kmsg.NewOffsetCommitRequestTopicPartition()
			rp.Partition = p
			rt.Partitions = append(rt.Partitions, rp)
		}
		r.Topics = append(r.Topics, rt)
		return r
	}
	var c Consumer
	r := req()
	if got, err := c.owned(r, meta, []*part{lost, kept}); err != nil || len(got) != 1 || got[0] != kept {
		t.Fatalf("owned: kept %v, %v; want partition 1 alone", got, err)
	}
	if len(r.Topics) != 1 || len(r.Topics[0].Partitions) != 1 || r.Topics[0].Partitions[0].Partition != 1 {
		t.Fatalf("owned left %+v; want partition 1 alone", r.Topics)
	}
	if m := r.Topics[0].Partitions[0].Metadata; m == nil || *m != "" {
		t.Errorf("partition 1's metadata %v; want \"\", not franz-go's member ID", m)
	}
	kept.gone = true
	if _, err := c.owned(req(), meta, []*part{lost, kept}); !errors.Is(err, errAllGone) {
		t.Errorf("owned with both partitions lost: %v; want errAllGone", err)
	}
}
