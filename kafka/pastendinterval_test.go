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

// A reset to the end whose hook listing a revocation cuts short: between
// the sessions the interval's commit sends pastEnd's 0; the next
// session's fetch of the commits finds 0, not the commit past the end,
// and the member, told to reset to the end, runs the log from 0.
// An interval's commit does not replace a commit past the log's end
// before the hook that starts its fetch has run: here a reset to the end,
// whose listing as fetching starts a second member's joining cuts short.
// (Before, the interval committed the assignment's 0 meanwhile; franz-go
// fetched that in the next session, the hook left it, and the member ran
// the whole log a reset to the end skips; found by a review.)
func TestAnIntervalsCommitWaitsForTheResetsStart(t *testing.T) {
	kf := fakeCluster(t, 1)
	var listings atomic.Int32
	var failing atomic.Bool
	failing.Store(true)
	kf.ControlKey(int16(kmsg.ListOffsets), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kf.KeepControl()
		r := req.(*kmsg.ListOffsetsRequest)
		if !latestOnly(r) {
			return nil, nil, false
		}
		if n := listings.Add(1); n > 1 && failing.Load() { // the hook's: retried until its context ends
			return listOffsetsAnswer(r, func(sp *kmsg.ListOffsetsResponseTopicPartition) { sp.ErrorCode = kerr.NotLeaderForPartition.Code }), nil, true
		}
		return nil, nil, false
	})
	var aID atomic.Value
	var bStarted atomic.Bool
	kf.ControlKey(int16(kmsg.JoinGroup), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kf.KeepControl()
		r := req.(*kmsg.JoinGroupRequest)
		switch {
		case r.MemberID == "":
		case !bStarted.Load():
			aID.Store(r.MemberID)
		case aID.Load() == r.MemberID:
			time.Sleep(300 * time.Millisecond) // a slow rejoin
			failing.Store(false)
		}
		return nil, nil, false
	})
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
	bStarted.Store(true)
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
