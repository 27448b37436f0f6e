package kafka

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestRecordsSkippedOnRevokeRunWhenTheyComeBack: under the version stamp,
// whose store (here the default, in memory) advances a key's version
// before its record runs, records at offsets 0, 1 and 2 of one key carry
// steps 1, 2 and 3. Their partition is assigned and record 0 runs. The
// partition is revoked (as an eager assignor, range or round-robin,
// revokes every partition at every rebalance): the revocation waits for
// record 0, commits offset 1, and records 1 and 2, not started, are not
// run: "the next owner reads them again". The group assigns the
// partition back to this member, which reads from offset 1 again:
// records 1 and 2 must run now, and every record below what the member
// then commits must have run. It holds because the executor's guard
// (enter) comes before the store: a record of a revoked partition never
// advances its key, so it is not stale when read again.
func TestRecordsSkippedOnRevokeRunWhenTheyComeBack(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var ran []int64
	handle := func(_ context.Context, r *kgo.Record) error {
		mu.Lock()
		ran = append(ran, r.Offset)
		mu.Unlock()
		if r.Offset == 0 {
			<-release
		}
		return nil
	}
	event := func(r *kgo.Record) konvoy.Event {
		return konvoy.Event{Key: string(r.Key), Step: int(r.Offset) + 1}
	}
	c, err := New(offlineOpts(), konvoy.VersionStamp, 1, event, handle)
	if err != nil {
		t.Fatal(err)
	}
	defer c.cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	tp := topicPartition{testTopic, 0}
	tps := map[string][]int32{testTopic: {0}}
	records := func(from int64) []*kgo.Record {
		var rs []*kgo.Record
		for o := from; o < 3; o++ {
			rs = append(rs, &kgo.Record{Topic: testTopic, Partition: 0, Offset: o, Key: []byte("k")})
		}
		return rs
	}
	c.assign(ctx, c.cl, tps)
	if err := c.submit(ctx, tp, records(0)); err != nil {
		t.Fatal(err)
	}
	for { // until record 0 runs
		mu.Lock()
		n := len(ran)
		mu.Unlock()
		if n > 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("record 0 never ran")
		}
		time.Sleep(time.Millisecond) // a poll, bounded by ctx
	}
	// The revocation, step by step as revoke takes them: record 0 returns
	// once its partition is revoked, and the offset the commit sends is
	// read where commitParts reads it (no broker here takes the commit).
	ps := c.stop(tps)
	close(release)
	c.awaitIdle(ps, testWait)
	offsets, _, _, _ := c.pending(ps)
	c.forget(ps)
	awaitRoomBack(ctx, t, c)
	from := offsets[testTopic][0].Offset
	if from != 1 {
		t.Fatalf("the revocation commits offset %d; want 1 (record 0 ran, 1 and 2 did not)", from)
	}
	// Assigned back: the member reads from the committed offset.
	c.assign(ctx, c.cl, tps)
	if err := c.submit(ctx, tp, records(from)); err != nil {
		t.Fatal(err)
	}
	awaitRoomBack(ctx, t, c)
	offsets, _, _, _ = c.pending([]*part{c.assigned[tp]})
	mu.Lock()
	defer mu.Unlock()
	at := offsets[testTopic][0].Offset
	for o := from; o < at; o++ {
		if !slices.Contains(ran, o) {
			t.Errorf("assigned back, the member commits offset %d, but record %d never ran (records run: %v)", at, o, ran)
		}
	}
	_ = c.x.Close(ctx)
}

// New refuses the resequencer: its per-key steps live in one member's
// memory, and a partition revoked and read again, by this member or
// another, would find its keys' states ahead of the records read again
// (which it would discard unrun, and commit past) or behind them.
func TestNewRefusesTheResequencer(t *testing.T) {
	c, err := New(offlineOpts(), konvoy.Resequencer, 1, keyEvent, func(context.Context, *kgo.Record) error { return nil })
	if err == nil {
		_ = c.Run(canceled())
		t.Fatal("New took the resequencer")
	}
	if want := "kafka: New: layout resequencer"; !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("New: %v; want an error starting %q", err, want)
	}
}
