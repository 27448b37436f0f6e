package kafka

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// An interval's commit does not replace a commit past the log's end
// before the hook that starts its fetch has run: here a reset to the end,
// whose listing as fetching starts a second member's joining cuts short.
// (Before, the interval committed the assignment's 0 meanwhile; franz-go
// fetched that in the next session, the hook left it, and the member ran
// the whole log a reset to the end skips; found by a review.)
func TestAnIntervalsCommitWaitsForTheResetsStart(t *testing.T) {
	kf := fakeCluster(t, 1)
	listings, second := rejoinCutsListing(kf, false, 300*time.Millisecond)
	addrs := kf.ListenAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	commitPastTheEnd(ctx, t, addrs, nil) // log 0..9, commit 15
	handled, handle := offsetsHandled()
	opts := append(memberOpts(addrs), kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd()))
	a, err := New(opts, konvoy.Convoy, 2, keyEvent, handle, WithCommitInterval(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stopA := start(a)
	waitUntil(t, "the hook's listing", func() bool { return listings.Load() >= 2 })
	second.Store(true)
	b, err := New(opts, konvoy.Convoy, 2, keyEvent, handle)
	if err != nil {
		t.Fatal(err)
	}
	stopB := start(b)
	time.Sleep(2 * time.Second)
	_ = stopB()
	ran := caughtUpThenStopped(ctx, t, a, stopA, handled)
	for _, o := range ran {
		if o < 10 {
			t.Errorf("records run: %v; a reset to the end (10) ran record %d", ran, o)
			break
		}
	}
}

// rejoinCutsListing has kf refuse the listings of the end as fetching
// starts, retriably (NOT_LEADER_OR_FOLLOWER: franz-go retries them until
// the hook's context ends), until the first member to join joins again
// once another began to (second set), after pause; with refuseFirst, the
// first listing, the assignment's, is refused too, with an error
// franz-go does not retry. It returns the count of listings, and second.
func rejoinCutsListing(kf *kfake.Cluster, refuseFirst bool, pause time.Duration) (*atomic.Int32, *atomic.Bool) {
	var listings atomic.Int32
	var failing, second atomic.Bool
	failing.Store(true)
	kf.ControlKey(int16(kmsg.ListOffsets), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kf.KeepControl()
		r := req.(*kmsg.ListOffsetsRequest)
		if !latestOnly(r) {
			return nil, nil, false
		}
		code := int16(0)
		switch n := listings.Add(1); {
		case n == 1 && refuseFirst:
			code = kerr.UnknownServerError.Code
		case n > 1 && failing.Load():
			code = kerr.NotLeaderForPartition.Code
		default:
			return nil, nil, false
		}
		return listOffsetsAnswer(r, func(sp *kmsg.ListOffsetsResponseTopicPartition) { sp.ErrorCode = code }), nil, true
	})
	var first atomic.Value
	kf.ControlKey(int16(kmsg.JoinGroup), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kf.KeepControl()
		r := req.(*kmsg.JoinGroupRequest)
		switch {
		case r.MemberID == "":
		case !second.Load():
			first.Store(r.MemberID)
		case first.Load() == r.MemberID:
			time.Sleep(pause) // a slow rejoin
			failing.Store(false)
		}
		return nil, nil, false
	})
	return &listings, &second
}
