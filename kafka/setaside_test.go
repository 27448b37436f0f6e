package kafka

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The group's commit, offset 25 naming 27 to 29 finished, lies past the
// end of a partition of 20 records, as when an unclean leader election
// truncated the log below it. Fetching resets to the start, and the
// records produced next take offsets 20 to 39: new records, which the old
// metadata's offsets name by chance. Each runs, Commits counts the
// metadata set aside, and the commit reaches the end with nothing named
// finished. (Found by a review: the metadata was applied to the new
// records, so 27 to 29 never ran and the group committed past them.)
func TestMetadataOfACommitFetchingResetBelowIsSetAside(t *testing.T) {
	addrs := cluster(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	commitPastTheLog(ctx, t, addrs)
	handled := make(chan int64, 64)
	handle := func(_ context.Context, r *kgo.Record) error {
		handled <- r.Offset
		return nil
	}
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle)
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	seen := map[int64]bool{}
	awaitOffsets(ctx, t, handled, seen, 20)
	produce(t, addrs, 20, 3, 2) // offsets 20 to 39
	awaitOffsets(ctx, t, handled, seen, 40)
	if up, err := awaitCaughtUp(ctx, c); !up || err != nil {
		t.Errorf("caught up: %v, %v; want true", up, err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if s := c.Commits(); s.Reset != 1 || s.Unread != 0 {
		t.Errorf("Commits: %d reset, %d unread; want 1 and 0", s.Reset, s.Unread)
	}
	got, err := groupOffsets(t, addrs)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := got.Lookup(testTopic, 0)
	if o.At != 40 || o.Metadata != "" {
		t.Errorf("committed %d with metadata %q; want 40 and none", o.At, o.Metadata)
	}
}

// commitAt commits offset at of the test topic's partition 0 for the test
// group, with metadata m and no leader epoch, as another member would
// have.
func commitAt(ctx context.Context, t *testing.T, addrs []string, at int64, m string) {
	t.Helper()
	commitAtEpoch(ctx, t, addrs, at, -1, m)
}

// awaitOffsets reads offsets handled into seen until it holds every
// offset below n, failing t, with the offsets missing, when ctx ends
// first.
func awaitOffsets(ctx context.Context, t *testing.T, handled <-chan int64, seen map[int64]bool, n int64) {
	t.Helper()
	for {
		var missing []int64
		for o := range n {
			if !seen[o] {
				missing = append(missing, o)
			}
		}
		if len(missing) == 0 {
			return
		}
		select {
		case o := <-handled:
			seen[o] = true
		case <-ctx.Done():
			t.Fatalf("records never handled: %v", missing)
		}
	}
}

// The commit whose metadata setAside drops is replaced at once, not at the
// interval's next commit: until then it names offsets of the log as it
// was, and a crash followed by a log grown past them loses the records
// there (as after resetPart: TestAResetLeavesNoStaleMetadataOfTheOldLog).
// Here the group committed 25 naming 27 to 29 over a log of 20 records,
// record 0 blocks, and the interval is an hour.
func TestASetAsideCommitIsReplacedAtOnce(t *testing.T) {
	addrs := cluster(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	commitPastTheLog(ctx, t, addrs)
	c, end := startBlockedAtZero(t, addrs)
	defer end()
	waitUntil(t, "a reset", func() bool { return c.Commits().Reset >= 1 })
	waitUntil(t, "the commit of 25 naming 27 to 29 replaced", func() bool { return lookup0(t, addrs).At != 25 })
	if o := lookup0(t, addrs); o.At != 0 {
		t.Errorf("committed %d; want 0, below record 0, which has not finished", o.At)
	}
}

// commitPastTheLog writes 20 records to partition 0 of the cluster at
// addrs, and commits for the group offset 25 naming 27 to 29 finished: a
// commit of a log as it was before it was cut below it.
func commitPastTheLog(ctx context.Context, t *testing.T, addrs []string) {
	t.Helper()
	if ends := produce(t, addrs, 20, 3, 1); ends[0] != 20 {
		t.Fatalf("partition 0 ends at %d; want 20", ends[0])
	}
	f, err := NewFinished(25, []int64{27, 28, 29})
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.Metadata()
	if err != nil {
		t.Fatal(err)
	}
	commitAt(ctx, t, addrs, 25, m)
}

// A set-aside commit that fails is made again soon, not at the interval's
// next commit: until it lands, the group's commit names offsets of the log
// as it was. Here the broker refuses the member's first commit, record 0
// blocks, and the interval is an hour. (Before, the commit waited for the
// next tick.)
func TestAFailedSetAsideCommitIsMadeAgainSoon(t *testing.T) {
	var refused atomic.Int32
	addrs := commitControlledCluster(t, func(r *kmsg.OffsetCommitRequest) kmsg.Response {
		if r.Generation < 0 || refused.Add(1) > 1 { // kadm's commit, of another member, or a later one
			return nil
		}
		return refusal(r, kerr.UnknownServerError.Code)
	})
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	commitPastTheLog(ctx, t, addrs)
	c, end := startBlockedAtZero(t, addrs)
	defer end()
	waitUntil(t, "a commit refused", func() bool { return refused.Load() >= 1 })
	waitUntil(t, "the commit of 25 naming 27 to 29 replaced", func() bool { return lookup0(t, addrs).At != 25 })
	o := lookup0(t, addrs)
	f, err := ParseMetadata(o.At, o.Metadata)
	if o.At != 0 || err != nil || f.Done(27) || f.Done(28) || f.Done(29) {
		t.Errorf("committed %d with metadata %q (%v, %v); want 0, naming none of 27 to 29 finished, "+
			"which no record of this log has reached", o.At, o.Metadata, f.Runs(), err)
	}
	if s := c.Commits(); s.Failed < 1 {
		t.Errorf("Commits: %d failed; want the refused one", s.Failed)
	}
}

// startBlockedAtZero starts a member of the cluster at addrs whose handler
// blocks on record 0 and which commits every hour, and returns it and the
// function that releases record 0 and stops it, failing t when Run fails.
func startBlockedAtZero(t *testing.T, addrs []string) (*Consumer, func()) {
	t.Helper()
	release := make(chan struct{})
	handle := func(_ context.Context, r *kgo.Record) error {
		if r.Offset == 0 {
			<-release
		}
		return nil
	}
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle, WithCommitInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	return c, func() {
		close(release)
		if err := stop(); err != nil {
			t.Errorf("Run: %v", err)
		}
	}
}
