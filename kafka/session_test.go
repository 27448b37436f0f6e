package kafka

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestALostSessionRejoins: when the member's session is lost (the
// coordinator answers a heartbeat UNKNOWN_MEMBER_ID, as after a long
// pause), franz-go calls OnPartitionsLost and rejoins. The consumer
// drops the lost partitions and goes on consuming after the rejoin; it does
// not end Run with the group-session notification PollRecords returns.
func TestALostSessionRejoins(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, testTopic))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	addrs := c.ListenAddrs()
	prod := producer(t, addrs)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	write := func(i int) {
		if err := prod.ProduceSync(ctx, &kgo.Record{Key: fmt.Appendf(nil, "k%d", i)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	handled := make(chan int64, 100)
	cons, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, func(_ context.Context, r *kgo.Record) error {
		handled <- r.Offset
		return nil
	}, WithCommitInterval(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stopRun := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cons.Run(runCtx) }()
	defer stopRun()
	write(0)
	select {
	case <-handled:
	case err := <-done:
		t.Fatalf("Run ended: %v", err)
	case <-ctx.Done():
		t.Fatal("record 0 not handled")
	}
	c.ControlKey(kmsg.Heartbeat.Int16(), func(req kmsg.Request) (kmsg.Response, error, bool) {
		resp := req.(*kmsg.HeartbeatRequest).ResponseKind().(*kmsg.HeartbeatResponse)
		resp.ErrorCode = kerr.UnknownMemberID.Code
		return resp, nil, true
	})
	rejoined := make(chan struct{})
	var once sync.Once
	c.ControlKey(kmsg.JoinGroup.Int16(), func(kmsg.Request) (kmsg.Response, error, bool) {
		once.Do(func() { close(rejoined) }) // the member joins again after the loss
		return nil, nil, false
	})
	select {
	case <-rejoined:
	case err := <-done:
		t.Fatalf("Run ended after the session was lost: %v", err)
	case <-ctx.Done():
		t.Fatal("the member never rejoined")
	}
	write(1)
	for {
		select {
		case o := <-handled:
			if o == 1 {
				return
			}
		case err := <-done:
			t.Fatalf("Run ended after the session was lost: %v", err)
		case <-ctx.Done():
			t.Fatal("record 1 not handled")
		}
	}
}
