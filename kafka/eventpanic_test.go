package kafka

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A panic of the event function reaches Run's caller, but Run ends what it
// started first: its commit goroutine, the executor, and the client, a
// member of the group, which leaves it, so that its partitions go to
// another member. Here the event function panics on a record; once Run
// passed the panic on, the group has no member and the consumer's
// goroutines (its commit loop, the client's) are gone.
func TestAnEventPanicLeavesNothingRunning(t *testing.T) {
	addrs := cluster(t, 1)
	produce(t, addrs, 5, 1, 1)
	before := runtime.NumGoroutine()
	event := func(r *kgo.Record) konvoy.Event {
		if string(r.Value) == "3" {
			panic("event function")
		}
		return keyEvent(r)
	}
	noop := func(context.Context, *kgo.Record) error { return nil }
	c, err := New(memberOpts(addrs), konvoy.Convoy, 1, event, noop, WithCommitInterval(10*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	panicked := make(chan any, 1)
	go func() {
		defer func() { panicked <- recover() }()
		_ = c.Run(context.Background())
	}()
	select {
	case v := <-panicked:
		if v == nil {
			t.Fatal("Run returned without the event function's panic")
		}
	case <-time.After(testWait):
		t.Fatal("the event function's panic did not reach Run's caller")
	}

	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...))
	if err != nil {
		t.Fatal(err)
	}
	adm := kadm.NewClient(cl)
	members := func() int {
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		defer cancel()
		gs, err := adm.DescribeGroups(ctx, testGroup)
		if err != nil {
			return -1
		}
		return len(gs[testGroup].Members)
	}
	// Well past a heartbeat (50 ms) and a leave: a consumer released
	// leaves at once.
	deadline := time.Now().Add(5 * time.Second)
	for members() != 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := members(); n != 0 {
		t.Errorf("after Run panicked, the group has %d members; want 0 (the panicking member left)", n)
	}
	cl.Close()
	deadline = time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines left after Run panicked, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}
