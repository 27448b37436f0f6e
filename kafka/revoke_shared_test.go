package kafka

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestRevokedRecordsOfASharedLaneAreNotLost: member A reads topics "events" and
// "other"; key k's lane is busy with other/0 (a slow handler, within any
// timeout) when events/0, also of key k, arrives, so events/0 waits in
// its lane. events/1 (key j) runs on A's second handler; events/2..4 wait
// for a handler. Member B joins, reading "events" only, so events/0 moves
// to B. On the revocation A's second handler returns, then takes
// events/2..4 and skips them (revoked). A's revoke commit must not name
// them finished: B must handle them.
func TestRevokedRecordsOfASharedLaneAreNotLost(t *testing.T) {
	const other = "other"
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, testTopic, other))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	addrs := cluster.ListenAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	prod, err := kgo.NewClient(kgo.SeedBrokers(addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer prod.Close()
	write := func(topic string, keys ...string) {
		for _, k := range keys {
			if err := prod.ProduceSync(ctx, &kgo.Record{Topic: topic, Key: []byte(k)}).FirstErr(); err != nil {
				t.Fatal(err)
			}
		}
	}
	opts := func(topics ...string) []kgo.Opt {
		return []kgo.Opt{
			kgo.SeedBrokers(addrs...), kgo.ConsumerGroup(testGroup), kgo.ConsumeTopics(topics...),
			kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
			kgo.HeartbeatInterval(50 * time.Millisecond), kgo.FetchMaxWait(50 * time.Millisecond),
		}
	}
	var mu sync.Mutex
	handled := map[int64]string{} // events offset → member
	note := func(who string, r *kgo.Record) {
		mu.Lock()
		handled[r.Offset] += who
		mu.Unlock()
	}
	startedK, startedJ, releaseK, revoked := make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{})
	var once sync.Once
	var a *Consumer
	a, err = New(opts(testTopic, other), konvoy.Convoy, 2, keyEvent, func(_ context.Context, r *kgo.Record) error {
		switch {
		case r.Topic == other:
			close(startedK)
			<-releaseK
			return nil
		case r.Offset == 1:
			close(startedJ)
			<-revoked
		}
		note("A", r)
		return nil
	}, WithCommitInterval(20*time.Millisecond), func(c *config) {
		c.revoking = func(m map[string][]int32) {
			if len(m[testTopic]) == 0 {
				return
			}
			once.Do(func() { close(revoked) })
			// The interleaving under test: A's freed handler skips
			// events/2..4 before the revoke reads the completion.
			for {
				comps := a.x.Completion()
				n := 0
				for _, comp := range comps {
					n += len(comp.Finished)
				}
				if n >= 4 || ctx.Err() != nil {
					return
				}
				time.Sleep(time.Millisecond)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	stopA := start(a)
	defer func() { _ = stopA() }()
	defer close(releaseK)
	write(other, "k")
	select {
	case <-startedK:
	case <-ctx.Done():
		t.Fatal("other/0 never started")
	}
	write(testTopic, "k", "j", "a", "b", "c")
	select {
	case <-startedJ:
	case <-ctx.Done():
		t.Fatal("events/1 never started")
	}
	b, err := New(opts(testTopic), konvoy.Convoy, 2, keyEvent, func(_ context.Context, r *kgo.Record) error {
		note("B", r)
		return nil
	}, WithCommitInterval(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stopB := start(b)
	defer func() { _ = stopB() }()
	adm := kadm.NewClient(prod)
	for { // until the group committed events' end, 5
		got, err := adm.FetchOffsets(ctx, testGroup)
		if o, ok := got.Lookup(testTopic, 0); err == nil && ok && o.At == 5 {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("events' end never committed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	var never []int64
	for o := int64(0); o < 5; o++ {
		if handled[o] == "" {
			never = append(never, o)
		}
	}
	if len(never) > 0 {
		slices.Sort(never)
		t.Errorf("events offsets %v never handled, yet the group committed 5 (handled: %v)", never, handled)
	}
}
