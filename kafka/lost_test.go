package kafka

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestLostPartitionsRecordsHeldDoNotRun: records of a partition held when
// it is lost never reach the handler, the partition is forgotten, and what
// may be committed for it stops below the first record not run.
func TestLostPartitionsRecordsHeldDoNotRun(t *testing.T) {
	release := make(chan struct{})
	ran := make(chan int64, 8)
	handle := func(_ context.Context, r *kgo.Record) error {
		ran <- r.Offset
		if r.Offset == 0 {
			<-release // holds the only handler, so that the rest wait
		}
		return nil
	}
	c, err := New(offlineOpts(), konvoy.Convoy, 1, keyEvent, handle)
	if err != nil {
		t.Fatal(err)
	}
	defer c.cl.Close()
	tps := map[string][]int32{testTopic: {0}}
	c.assign(context.Background(), c.cl, tps)
	p := c.assigned[topicPartition{testTopic, 0}]
	for o := range int64(3) {
		if err := c.submit(context.Background(), topicPartition{testTopic, 0}, []*kgo.Record{{Topic: testTopic, Partition: 0, Offset: o, Key: []byte("k")}}); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-ran:
	case <-time.After(testWait):
		t.Fatal("the first record never ran")
	}
	c.lose(context.Background(), c.cl, tps)
	close(release)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	if err := c.x.Close(ctx); err != nil {
		t.Fatal(err)
	}
	close(ran)
	for o := range ran {
		t.Errorf("record at offset %d ran after its partition was lost", o)
	}
	if _, ok := c.assigned[topicPartition{testTopic, 0}]; ok {
		t.Error("the lost partition is still assigned")
	}
	if p.skipFrom != 1 {
		t.Errorf("first offset not run: %d; want 1", p.skipFrom)
	}
}

// TestRevokeWaitsForRunningHandlers: a revocation's wait ends when the
// last handler of its partitions returns, whatever other partitions'
// handlers run, and, when one never does, once the revoke timeout passed.
func TestRevokeWaitsForRunningHandlers(t *testing.T) {
	c := &Consumer{seats: make([]seat, 3)}
	c.idle = sync.NewCond(&c.mu)
	p := revokedRunning(c, 2)
	c.seats[2].on.Store(&part{}) // another partition's record runs on
	done := make(chan struct{})
	go func() {
		c.awaitIdle([]*part{p}, testWait)
		close(done)
	}()
	// Time for a wait that does not wait to end: none must.
	time.Sleep(20 * time.Millisecond)
	for w := range 2 { // as run does when a handler returns
		select {
		case <-done:
			t.Fatal("the wait ended while a handler ran")
		default:
		}
		c.leave(w, p)
	}
	select {
	case <-done:
	case <-time.After(testWait):
		t.Fatal("the wait did not end when the last handler returned")
	}
	stuck := revokedRunning(c, 1)
	timedOut := make(chan struct{})
	go func() {
		c.awaitIdle([]*part{stuck}, 10*time.Millisecond)
		close(timedOut)
	}()
	select {
	case <-timedOut:
	case <-time.After(testWait):
		t.Fatal("the wait for a handler that never returns did not end at its timeout")
	}
}

// revokedRunning returns a revoked assignment with records running on
// c's consumers 0 to n-1.
func revokedRunning(c *Consumer, n int) *part {
	p := &part{}
	p.revoked.Store(true)
	for w := range n {
		c.seats[w].on.Store(p)
	}
	return p
}
