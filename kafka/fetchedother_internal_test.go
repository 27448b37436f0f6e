package kafka

import (
	"context"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestAFetchedCommitOtherThanAssignsIsLeftAsItIs: assign found the
// group's commit of partition 0 at 15, of no leader epoch, past the log's
// end (10), and set it aside (pastEnd: reset to 0). franz-go then fetched
// another commit, made since: 10 (epoch 0). The hook leaves it as it is,
// fetching starts there, and no commit follows while no record comes: the
// part kept pastEnd's reset, and its next commit set the group's commit
// back to 0, below where fetching resumed (found by a review).
func TestAFetchedCommitOtherThanAssignsIsLeftAsItIs(t *testing.T) {
	c, err := New(offlineOpts(), konvoy.Convoy, 1, keyEvent, func(context.Context, *kgo.Record) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tp := topicPartition{testTopic, 0}
	c.mu.Lock()
	q := newPart(c.nextID, tp, Finished{})
	c.nextID++
	q.from = 15      // the commit assign found
	c.pastEnd(q, 10) // as assign does for a commit of no epoch past the end (checkEnds's s.end)
	c.assigned[tp] = q
	c.assignedBy = c.cl
	c.resetTo = kgo.NewOffset().AtStart()
	c.mu.Unlock()

	fetched := kgo.NewOffset().At(10).WithEpoch(0) // the commit franz-go fetched: made since
	got, err := c.resetPastEnd(context.Background(), map[string]map[int32]kgo.Offset{testTopic: {0: fetched}})
	if err != nil {
		t.Fatal(err)
	}
	if eo := got[testTopic][0].EpochOffset(); eo.Offset != 10 {
		t.Fatalf("the hook started partition 0 at %v; want the fetched commit, 10, left as it is", eo)
	}
	c.commitMu.Lock()
	offsets, _, sent, _ := c.pending([]*part{q})
	c.commitMu.Unlock()
	if len(sent) > 0 {
		t.Errorf("fetching starts at the fetched commit 10, but the next commit sets the group's commit to %v (resetFrom %d, resetGen %d, stale %d)",
			offsets[testTopic][0], q.resetFrom, q.resetGen, q.stale)
	}
}
