package kafka

import (
	"context"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// TestAFetchedCommitMadeSinceIsNotSetBackToZero: the group's commit of
// partition 0 is 15, of no epoch, past the log's end (10): assign sets it
// aside (pastEnd). Before franz-go fetches the group's commits itself (its
// OffsetFetch, held here), a member of the group commits 10. The hook
// (resetPastEnd) sees a commit other than the one assign found and leaves
// it as it is: fetching starts at 10, and nothing runs. A commit then
// made set the group's commit to 0 (pastEnd's resetFrom), where it stayed:
// the group's lag was 10 for good, CaughtUp never true, and the
// partition's next owner ran 0..9 again (found by a review). A record
// then produced, offset 10, runs once, and is committed with no reset
// counted but assign's.
func TestAFetchedCommitMadeSinceIsNotSetBackToZero(t *testing.T) {
	kf := fakeCluster(t, 1)
	addrs := kf.ListenAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	commitPastTheEnd(ctx, t, addrs, nil)              // log 0..9, commit 15 of no epoch
	held, release := holdNth(kf, kmsg.OffsetFetch, 2) // franz-go's own fetch, after assign's
	handled, handle := offsetsHandled()
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle, WithCommitInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	awaitHeld(ctx, t, held)
	member, gen := c.cl.GroupMetadata()
	commitAsMember(ctx, t, addrs, member, gen, 10) // a commit made since assign's fetch
	close(release)
	waitUntil(t, "the hook ran for partition 0", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		p := c.assigned[topicPartition{testTopic, 0}]
		return p != nil && p.stale < 0
	})
	if err := c.commit(ctx); err != nil { // what the next tick would commit
		t.Fatal(err)
	}
	o := lookup0(t, addrs)
	up, uerr := c.CaughtUp(ctx, testTopic)
	if o.At != 10 || !up || uerr != nil {
		t.Errorf("fetching resumed at the commit made since (10), but the group's commit is %d and CaughtUp says %v, %v; want 10 and true", o.At, up, uerr)
	}
	produce(t, addrs, 1, 1, 2)
	if off := <-handled; off != 10 {
		t.Errorf("ran offset %d; want 10, the record produced", off)
	}
	waitUntil(t, "offset 10's finish counted", func() bool { return c.Stats().Done == 1 })
	if err := c.commit(ctx); err != nil {
		t.Fatal(err)
	}
	if o := lookup0(t, addrs); o.At != 11 || o.Metadata != "" {
		t.Errorf("group's commit %d %q after offset 10 ran; want 11, no metadata", o.At, o.Metadata)
	}
	if got := c.Commits().Reset; got != 1 {
		t.Errorf("Reset %d; want 1: assign set aside the commit past the end, and fetching was never reset", got)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	close(handled)
	for off := range handled {
		t.Errorf("ran offset %d again", off)
	}
}

// commitAsMember commits offset at of partition 0 for the group as the
// member of ID member in generation gen.
func commitAsMember(ctx context.Context, t *testing.T, addrs []string, member string, gen int32, at int64) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.MaxVersions(kversion.V3_0_0())) // topics by name
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	req := kmsg.NewPtrOffsetCommitRequest()
	req.Group, req.Generation, req.MemberID = testGroup, gen, member
	rt := kmsg.NewOffsetCommitRequestTopic()
	rt.Topic = testTopic
	rp := kmsg.NewOffsetCommitRequestTopicPartition()
	m := ""
	rp.Partition, rp.Offset, rp.LeaderEpoch, rp.Metadata = 0, at, -1, &m
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		t.Fatal(err)
	}
	if code := resp.Topics[0].Partitions[0].ErrorCode; code != 0 {
		t.Fatalf("commit as member %s generation %d: error code %d", member, gen, code)
	}
}
