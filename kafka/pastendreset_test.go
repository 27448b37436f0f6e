package kafka

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// R1. A read_committed member resetting to the end: the hook lists the
// high watermark (read uncommitted) and hands franz-go At(HWM), while
// franz-go's own reset to the end starts at the LSO. An open
// transaction's records below the HWM, committed later, never run.
// A reset to the end of a commit past the log's end, under
// kgo.ReadCommitted, starts, and commits, at the last stable offset, as
// franz-go's reset does: the records of a transaction open then run once
// it commits. (Before, the member listed the high watermark, 13, started
// there and committed it, and 10 to 12 never ran; found by a review.)
func TestAResetToTheEndUnderReadCommittedStartsAtTheLastStableOffset(t *testing.T) {
	kf := fakeCluster(t, 1)
	addrs := kf.ListenAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	commitPastTheEnd(ctx, t, addrs, nil) // log 0..9, commit 15
	pr, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.DefaultProduceTopic(testTopic), kgo.TransactionalID("review-txn"))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	if err := pr.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	for range 3 { // offsets 10 to 12, open: LSO 10, HWM 13
		if err := pr.ProduceSync(ctx, &kgo.Record{Key: []byte("k"), Value: []byte("v")}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	handled, handle := offsetsHandled()
	opts := append(memberOpts(addrs), kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd()), kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	c, err := New(opts, konvoy.Convoy, 2, keyEvent, handle)
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	waitUntil(t, "the commit past the end replaced", func() bool { return lookup0(t, addrs).At != 15 })
	if o := lookup0(t, addrs); o.At != 10 {
		t.Errorf("committed %d before any record; want 10, the last stable offset", o.At)
	}
	if err := pr.EndTransaction(ctx, kgo.TryCommit); err != nil { // 10 to 12 committed, marker at 13
		t.Fatal(err)
	}
	ran := caughtUpThenStopped(ctx, t, c, stop, handled)
	if want := []int64{10, 11, 12}; !slices.Equal(ran, want) {
		t.Errorf("records run: %v; want %v: franz-go's reset to the end under read_committed starts at the LSO, 10", ran, want)
	}
}

// R2. The hook hands franz-go At(end), end listed as fetching starts (17
// here), and commits it. The log is cut to 16 before the fetch (an
// unclean leader election; simulated by answering the hook's listing
// with 17): franz-go gets OFFSET_OUT_OF_RANGE and resets to the end, 16.
// The first record, 16, is not below the old commit (15), so setAside
// does not replace the commit of 17: the group's commit stands above
// record 16 while it runs; a crash leaves 16 unrun.
// A reset to the end that the log was cut below before the first fetch
// (franz-go then finds the offset out of range, and resets to the end
// again) replaces the commit of the end it listed at the first record,
// which comes from below it, though at or above the commit past the end.
// (Before, the commit of 17 stood while record 16 ran: a crash then lost
// it; found by a review.) kfake cannot cut a log: the listing as fetching
// starts is answered 17 while the log ends at 10, then at 16.
func TestAResetBelowTheEndItListedIsCommittedAtItsFirstRecord(t *testing.T) {
	kf := fakeCluster(t, 1)
	var listings atomic.Int32
	kf.ControlKey(int16(kmsg.ListOffsets), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kf.KeepControl()
		if r := req.(*kmsg.ListOffsetsRequest); latestOnly(r) && listings.Add(1) == 2 { // the hook's listing
			return listOffsetsAnswer(r, func(sp *kmsg.ListOffsetsResponseTopicPartition) { sp.Offset = 17 }), nil, true
		}
		return nil, nil, false
	})
	fetching, grown := holdNth(kf, kmsg.Fetch, 1)
	addrs := kf.ListenAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	commitPastTheEnd(ctx, t, addrs, nil) // log 0..9, commit 15
	started, gate := make(chan int64, 64), make(chan struct{})
	c, err := New(append(memberOpts(addrs), kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd())), konvoy.Convoy, 1, keyEvent,
		func(_ context.Context, r *kgo.Record) error {
			started <- r.Offset
			<-gate
			return nil
		}, WithCommitInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	defer func() { close(gate); _ = stop() }()
	awaitHeld(ctx, t, fetching)
	produce(t, addrs, 6, 3, 2) // offsets 10 to 15: the log ends at 16 < 17
	close(grown)
	waitUntil(t, "franz-go's own reset listing", func() bool { return listings.Load() >= 3 })
	produce(t, addrs, 4, 3, 3) // offsets 16 to 19
	var first int64
	select {
	case first = <-started:
	case <-ctx.Done():
		t.Fatal("no record ran")
	}
	time.Sleep(300 * time.Millisecond) // any commit asked for at once
	if o := lookup0(t, addrs); o.At > first {
		t.Errorf("the group committed %d while record %d, below it, runs unfinished; a crash now loses it", o.At, first)
	}
}

// R3. The hook's context is cancelled as the session begins revoking
// (here: a second member joins) while it lists the end of a commit
// whose end the assignment could not list. The hook takes that as a
// refusal and hands franz-go the commit, 15; under the cooperative
// balancer the member keeps the partition, and nothing checks the
// commit again. The log grows past 15 before the first fetch: 10 to 14
// never run. (Returning ctx.Err() lets franz-go fetch the commits again
// in the next session and call the hook again.)
// A listing as fetching starts that the session's revocation cuts short
// leaves the commit to be checked in the next session: franz-go calls the
// hook again. (Before, a cut-short listing counted as a refused one:
// fetching resumed at the commit past the end, and nothing checked it
// again while the member kept the partition, so that once the log grew
// past it 10 to 14 never ran; found by a review.) Here the member's
// listings fail until it joins again after a second member.
func TestAListingCutShortByARevocationIsMadeAgain(t *testing.T) {
	kf := fakeCluster(t, 1)
	listings, second := rejoinCutsListing(kf, true, 0)
	fetching, grown := holdNth(kf, kmsg.Fetch, 1)
	addrs := kf.ListenAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	commitPastTheEnd(ctx, t, addrs, nil) // log 0..9, commit 15
	handled, handle := offsetsHandled()
	a, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle)
	if err != nil {
		t.Fatal(err)
	}
	stopA := start(a)
	waitUntil(t, "the hook's listing", func() bool { return listings.Load() >= 2 })
	second.Store(true)
	b, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle)
	if err != nil {
		t.Fatal(err)
	}
	stopB := start(b)
	awaitHeld(ctx, t, fetching)
	produce(t, addrs, 10, 3, 2) // offsets 10 to 19
	close(grown)
	seen := map[int64]bool{}
	deadline := time.After(testWait)
loop:
	for {
		select {
		case o := <-handled:
			seen[o] = true
			if seen[19] && len(seen) >= 10 {
				break loop
			}
		case <-deadline:
			break loop
		}
	}
	time.Sleep(500 * time.Millisecond)
	for len(handled) > 0 {
		seen[<-handled] = true
	}
	if s := a.Commits(); s.Unread != 0 || s.Reset != 1 {
		t.Errorf("the first member's Commits: %d unread, %d reset; want 0 and 1", s.Unread, s.Reset)
	}
	_ = stopB()
	_ = stopA()
	for o := int64(10); o < 20; o++ {
		if !seen[o] {
			t.Errorf("record %d never ran", o)
		}
	}
}
