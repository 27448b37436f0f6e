package kafka

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kerr"
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
			fetching, grown := make(chan struct{}), make(chan struct{})
			var once atomic.Bool
			kf.ControlKey(int16(kmsg.Fetch), func(kmsg.Request) (kmsg.Response, error, bool) {
				kf.KeepControl()
				if once.CompareAndSwap(false, true) { // the member's first fetch waits for the log to grow
					close(fetching)
					kf.SleepControl(func() { <-grown })
				}
				return nil, nil, false
			})
			addrs := kf.ListenAddrs()
			ctx, cancel := context.WithTimeout(context.Background(), testWait)
			defer cancel()
			if ends := produce(t, addrs, 10, 3, 1); ends[0] != 10 {
				t.Fatalf("partition 0 ends at %d; want 10", ends[0])
			}
			m := ""
			if tc.finished != nil {
				f, err := NewFinished(15, tc.finished)
				if err != nil {
					t.Fatal(err)
				}
				if m, err = f.Metadata(); err != nil {
					t.Fatal(err)
				}
			}
			commitAt(ctx, t, addrs, 15, m)
			handled := make(chan int64, 64)
			opts := append(memberOpts(addrs), kgo.ConsumeResetOffset(tc.reset))
			c, err := New(opts, konvoy.Convoy, 2, keyEvent, func(_ context.Context, r *kgo.Record) error {
				handled <- r.Offset
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			stop := start(c)
			select {
			case <-fetching:
			case <-ctx.Done():
				t.Fatal("the member never fetched")
			}
			produce(t, addrs, 10, 3, 2) // offsets 10 to 19, before the first fetch is answered
			close(grown)
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
	if o := lookup0(t, addrs); o.At != 0 || o.Metadata != "" {
		t.Errorf("committed %d with metadata %q; want 0, below record 0, which has not finished, and none", o.At, o.Metadata)
	}
	if s := c.Commits(); s.Unread != 1 {
		t.Errorf("Commits: %d unread; want 1, the metadata unchecked", s.Unread)
	}
}
