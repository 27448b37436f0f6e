package kafka

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A committed offset of no leader epoch past the end of the partition's
// log is out of range: the log was cut below it since, or made again
// under its name. Fetching starts where franz-go's reset starts a
// partition that has consumed nothing (kgo.ConsumeResetOffset: here the
// log's start, and for kgo.RewindOffset, franz-go's default, the log's
// start too), though the log grows past the commit before the member's
// first fetch, which then found no offset out of range and resumed at
// the commit (found by a review: 10 to 14 never ran, nor 17, which the
// commit's metadata named, and the group committed 20). Commits counts the
// reset, with metadata or none, and the commit reaches the end with none.
func TestACommitPastTheLogsEndResetsAsOutOfRange(t *testing.T) {
	for _, tc := range []struct {
		name     string
		finished []int64 // above the commit, offset 15
		reset    kgo.Offset
	}{
		{"with metadata", []int64{17}, kgo.NewOffset().AtStart()},
		{"without metadata", nil, kgo.NewOffset().AtStart()},
		{"rewound", []int64{17}, kgo.RewindOffset(time.Minute)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kf := fakeCluster(t, 1)
			fetching, grown := holdNth(kf, kmsg.Fetch, 1) // the member's first fetch waits for the log to grow
			addrs := kf.ListenAddrs()
			ctx, cancel := context.WithTimeout(context.Background(), testWait)
			defer cancel()
			commitPastTheEnd(ctx, t, addrs, tc.finished)
			handled, handle := offsetsHandled()
			c, err := New(append(memberOpts(addrs), kgo.ConsumeResetOffset(tc.reset)), konvoy.Convoy, 2, keyEvent, handle)
			if err != nil {
				t.Fatal(err)
			}
			stop := start(c)
			awaitHeld(ctx, t, fetching)
			produce(t, addrs, 10, 3, 2) // offsets 10 to 19, before the first fetch is answered
			close(grown)
			ran := caughtUpThenStopped(ctx, t, c, stop, handled)
			if want := []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}; !slices.Equal(ran, want) {
				t.Errorf("records run: %v; want %v, from the log's start", ran, want)
			}
			if s := c.Commits(); s.Reset != 1 || s.Unread != 0 || s.Diverged != 0 {
				t.Errorf("Commits: %d reset, %d unread, %d diverged; want 1, 0 and 0", s.Reset, s.Unread, s.Diverged)
			}
			if o := lookup0(t, addrs); o.At != 20 || o.Metadata != "" {
				t.Errorf("committed %d with metadata %q; want 20 and none", o.At, o.Metadata)
			}
		})
	}
}

// A commit past the log's end is set aside wherever the reset starts:
// here at the log's end (kgo.ConsumeResetOffset AtEnd), which the log
// has grown to 17, past the commit, by the time it is listed as fetching
// starts. The
// first record, 17, comes from above the commit, and the commit's
// metadata, which names 17 finished, was trusted: 17 never ran, and the
// group committed 20 (found by a review).
func TestACommitPastTheLogsEndIsSetAsideWhereverTheResetStarts(t *testing.T) {
	kf := fakeCluster(t, 1)
	listing, grown := holdNth(kf, kmsg.ListOffsets, 2) // the listing of the end as fetching starts, after the assignment's
	addrs := kf.ListenAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	commitPastTheEnd(ctx, t, addrs, []int64{17})
	handled, handle := offsetsHandled()
	c, err := New(append(memberOpts(addrs), kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd())), konvoy.Convoy, 2, keyEvent, handle)
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	awaitHeld(ctx, t, listing)
	produce(t, addrs, 7, 3, 2) // offsets 10 to 16, before the reset lists the end
	close(grown)
	produce(t, addrs, 3, 3, 3) // offsets 17 to 19, once the member starts at 17
	ran := caughtUpThenStopped(ctx, t, c, stop, handled)
	if want := []int64{17, 18, 19}; !slices.Equal(ran, want) {
		t.Errorf("records run: %v; want %v, from where the reset started", ran, want)
	}
	if s := c.Commits(); s.Reset != 1 {
		t.Errorf("Commits: %d reset; want 1", s.Reset)
	}
	if o := lookup0(t, addrs); o.At != 20 || o.Metadata != "" {
		t.Errorf("committed %d with metadata %q; want 20 and none", o.At, o.Metadata)
	}
}

// A member that finds its commit past the log's end replaces it at once,
// before any record comes: here it stops before its first fetch is
// answered, and the log grows past the commit meanwhile. Its commit
// leaves the next owner to run every record its reset could have: from 0
// for a reset to the log's start, and from the end it listed, 10, for a
// reset to the end, which skips what lies below. (Before, it committed
// nothing, and the next owner, finding the commit of 15 within the grown
// log, resumed there and took its metadata: 10 to 14 and 17 never ran;
// found by a review.)
func TestACommitPastTheLogsEndIsReplacedBeforeAnyRecord(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reset kgo.Offset
		at    int64 // committed before any record
	}{
		{"reset to the start", kgo.NewOffset().AtStart(), 0},
		{"reset to the end", kgo.NewOffset().AtEnd(), 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kf := fakeCluster(t, 1)
			fetching, grown := holdNth(kf, kmsg.Fetch, 1)
			addrs := kf.ListenAddrs()
			ctx, cancel := context.WithTimeout(context.Background(), testWait)
			defer cancel()
			commitPastTheEnd(ctx, t, addrs, []int64{17})
			handled, handle := offsetsHandled()
			a, err := New(append(memberOpts(addrs), kgo.ConsumeResetOffset(tc.reset)), konvoy.Convoy, 2, keyEvent, handle,
				WithCommitInterval(time.Hour)) // no commit but those asked for
			if err != nil {
				t.Fatal(err)
			}
			stopA := start(a)
			awaitHeld(ctx, t, fetching)
			waitUntil(t, "the commit past the end replaced", func() bool { return lookup0(t, addrs).At != 15 })
			if o := lookup0(t, addrs); o.At != tc.at || o.Metadata != "" {
				t.Errorf("the first member committed %d with metadata %q; want %d and none", o.At, o.Metadata, tc.at)
			}
			produce(t, addrs, 10, 3, 2) // offsets 10 to 19
			if err := stopA(); err != nil {
				t.Fatal(err)
			}
			close(grown)
			b, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle)
			if err != nil {
				t.Fatal(err)
			}
			ran := caughtUpThenStopped(ctx, t, b, start(b), handled)
			for o := tc.at; o < 20; o++ {
				if !slices.Contains(ran, o) {
					t.Errorf("record %d never ran", o)
				}
			}
		})
	}
}

// A member whose commit lies past the log's end is not caught up while
// the records its reset starts at wait: the lag of a commit past the end
// is 0, and CaughtUp said true before the member ran records 0 to 9
// (found by a review). Its first fetch is held here.
func TestACommitPastTheLogsEndIsNotCaughtUp(t *testing.T) {
	kf := fakeCluster(t, 1)
	fetching, release := holdNth(kf, kmsg.Fetch, 1)
	defer close(release)
	addrs := kf.ListenAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	commitPastTheEnd(ctx, t, addrs, nil)
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, func(context.Context, *kgo.Record) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	defer stop()
	awaitHeld(ctx, t, fetching)
	if up, err := c.CaughtUp(ctx, testTopic); up || err != nil {
		t.Errorf("caught up: %v, %v; want false: records 0 to 9 are to run", up, err)
	}
}

// commitPastTheEnd writes 10 records to partition 0 of the cluster at
// addrs, and commits for the group offset 15, of no leader epoch, naming
// finished finished (no metadata for nil).
func commitPastTheEnd(ctx context.Context, t *testing.T, addrs []string, finished []int64) {
	t.Helper()
	if ends := produce(t, addrs, 10, 3, 1); ends[0] != 10 {
		t.Fatalf("partition 0 ends at %d; want 10", ends[0])
	}
	m := ""
	if finished != nil {
		f, err := NewFinished(15, finished)
		if err != nil {
			t.Fatal(err)
		}
		if m, err = f.Metadata(); err != nil {
			t.Fatal(err)
		}
	}
	commitAt(ctx, t, addrs, 15, m)
}

// holdNth has kf hold its nth request of key, of any client (kfake's
// SleepControl, serving the others meanwhile), until release is closed,
// and close held as it begins to.
func holdNth(kf *kfake.Cluster, key kmsg.Key, n int32) (held, release chan struct{}) {
	held, release = make(chan struct{}), make(chan struct{})
	var seen atomic.Int32
	kf.ControlKey(int16(key), func(kmsg.Request) (kmsg.Response, error, bool) {
		kf.KeepControl()
		if seen.Add(1) == n {
			close(held)
			kf.SleepControl(func() { <-release })
		}
		return nil, nil, false
	})
	return held, release
}

// awaitHeld waits until held is closed, failing t when ctx ends first.
func awaitHeld(ctx context.Context, t *testing.T, held <-chan struct{}) {
	t.Helper()
	select {
	case <-held:
	case <-ctx.Done():
		t.Fatal("the request was never held")
	}
}

// A commit whose metadata could not be checked against the log, its
// end unlisted, is replaced at once all the same when fetching starts
// below it, as setAside replaces one it drops the metadata of: here the
// group committed 25 naming 27 to 29 over a log of 20 records, the
// leader answers no ListOffsets of the member's, and record 0 blocks.
// (Before, the metadata, unread, was no longer there to set aside, and
// the commit of 25 stood until the interval's next commit, an hour: a
// crash meanwhile left the next owner to fetch from 25, which the log
// may have grown past.)
func TestACommitUncheckedIsReplacedAtOnceAsItsFetchResetsBelow(t *testing.T) {
	kf := fakeCluster(t, 1)
	kf.ControlKey(int16(kmsg.ListOffsets), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kf.KeepControl()
		if r := req.(*kmsg.ListOffsetsRequest); latestOnly(r) { // the member's check; not franz-go's reset to the start
			return listOffsetsAnswer(r, func(sp *kmsg.ListOffsetsResponseTopicPartition) {
				sp.ErrorCode = kerr.UnknownServerError.Code // not retried
			}), nil, true
		}
		return nil, nil, false
	})
	addrs := kf.ListenAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	commitPastTheLog(ctx, t, addrs)
	c, end := startBlockedAtZero(t, addrs)
	defer end()
	waitUntil(t, "a reset", func() bool { return c.Commits().Reset >= 1 })
	waitUntil(t, "the commit of 25 naming 27 to 29 replaced", func() bool { return lookup0(t, addrs).At != 25 })
	o := lookup0(t, addrs)
	if f, err := ParseMetadata(o.At, o.Metadata); o.At != 0 || err != nil || f.Done(27) {
		t.Errorf("committed %d with metadata %q (%v); want 0, below record 0, which has not finished, naming no finished offset of the old log", o.At, o.Metadata, err)
	}
	if s := c.Commits(); s.Unread != 1 {
		t.Errorf("Commits: %d unread; want 1, the metadata unchecked", s.Unread)
	}
}

// A commit of no leader epoch whose end the assignment could not list is
// checked again as fetching starts: found past the end then, it is reset
// as TestACommitPastTheLogsEndResetsAsOutOfRange's is, though the log
// grows past it before the first fetch. (Before, one refused listing let
// franz-go resume at the commit, and 10 to 14 never ran; found by a
// review.) When the second listing is refused too, fetching resumes at
// the commit, counted as unread, its partition named.
func TestACommitWhoseEndWasUnlistedIsCheckedAsFetchingStarts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		refused int32 // the member's listings of the end refused, of 2
	}{
		{"listed the second time", 1},
		{"never listed", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kf := fakeCluster(t, 1)
			var listings atomic.Int32
			kf.ControlKey(int16(kmsg.ListOffsets), func(req kmsg.Request) (kmsg.Response, error, bool) {
				kf.KeepControl()
				if r := req.(*kmsg.ListOffsetsRequest); latestOnly(r) && listings.Add(1) <= tc.refused {
					return listOffsetsAnswer(r, func(sp *kmsg.ListOffsetsResponseTopicPartition) {
						sp.ErrorCode = kerr.UnknownServerError.Code // not retried
					}), nil, true
				}
				return nil, nil, false
			})
			fetching, grown := holdNth(kf, kmsg.Fetch, 1)
			addrs := kf.ListenAddrs()
			ctx, cancel := context.WithTimeout(context.Background(), testWait)
			defer cancel()
			commitPastTheEnd(ctx, t, addrs, nil)
			handled, handle := offsetsHandled()
			c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle)
			if err != nil {
				t.Fatal(err)
			}
			stop := start(c)
			awaitHeld(ctx, t, fetching)
			produce(t, addrs, 10, 3, 2) // offsets 10 to 19
			close(grown)
			ran := caughtUpThenStopped(ctx, t, c, stop, handled)
			s := c.Commits()
			var pe *PartitionError
			if tc.refused == 2 {
				if s.Unread != 1 || s.Reset != 0 || !errors.As(s.LastMetadata, &pe) || pe.Partition != 0 {
					t.Errorf("Commits: %d unread, %d reset, last %v; want 1 and 0, naming partition 0", s.Unread, s.Reset, s.LastMetadata)
				}
				return
			}
			for o := range int64(20) {
				if !slices.Contains(ran, o) {
					t.Errorf("record %d never ran", o)
				}
			}
			if s.Unread != 0 || s.Reset != 1 {
				t.Errorf("Commits: %d unread, %d reset; want 0 and 1", s.Unread, s.Reset)
			}
		})
	}
}

// A reset to the end of a commit past the log's end starts, and commits,
// at the end the member lists as fetching starts: a group with nothing to
// run then has no lag. Here the log grows to 17 before that listing, and
// no record comes after. (Before, the member committed the end it listed
// at the assignment, 10, while franz-go's reset started at 17: the lag
// stayed 7, and CaughtUp false, for as long as no record came; found by a
// review.)
func TestAResetToTheEndOfACommitPastTheLogsEndIsCaughtUp(t *testing.T) {
	kf := fakeCluster(t, 1)
	listing, listed := holdNth(kf, kmsg.ListOffsets, 2) // as fetching starts, after the assignment's
	addrs := kf.ListenAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	commitPastTheEnd(ctx, t, addrs, nil)
	var ran atomic.Int32
	c, err := New(append(memberOpts(addrs), kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd())), konvoy.Convoy, 2, keyEvent,
		func(context.Context, *kgo.Record) error { ran.Add(1); return nil })
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	awaitHeld(ctx, t, listing)
	produce(t, addrs, 7, 3, 2) // offsets 10 to 16
	close(listed)
	if up, err := awaitCaughtUp(ctx, c); !up || err != nil {
		t.Errorf("caught up: %v, %v; want true", up, err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if n := ran.Load(); n != 0 {
		t.Errorf("%d records ran; want none, below the end the reset starts at", n)
	}
	if o := lookup0(t, addrs); o.At != 17 {
		t.Errorf("committed %d; want 17, the end", o.At)
	}
}

// offsetsHandled returns a handler that sends the offset of each record it
// runs on the channel it returns too, which holds 64.
func offsetsHandled() (chan int64, func(context.Context, *kgo.Record) error) {
	handled := make(chan int64, 64)
	return handled, func(_ context.Context, r *kgo.Record) error {
		handled <- r.Offset
		return nil
	}
}

// caughtUpThenStopped waits until c, started by start (whose stop is
// stop), is caught up, stops it, and returns the offsets its handler,
// made by offsetsHandled, sent on handled, sorted.
func caughtUpThenStopped(ctx context.Context, t *testing.T, c *Consumer, stop func() error, handled chan int64) []int64 {
	t.Helper()
	if up, err := awaitCaughtUp(ctx, c); !up || err != nil {
		t.Errorf("caught up: %v, %v; want true", up, err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	close(handled)
	var ran []int64
	for o := range handled {
		ran = append(ran, o)
	}
	slices.Sort(ran)
	return ran
}
