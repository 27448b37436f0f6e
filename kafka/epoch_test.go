package kafka

import (
	"context"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A commit carries the leader epoch of the last record below it (as
// franz-go's own MarkCommitRecords does), so that the next owner's
// franz-go validates it (KIP-320, OffsetForLeaderEpoch) and detects a log
// truncated and regrown past it; with -1 it resumes blindly.
func TestACommitCarriesTheLeaderEpoch(t *testing.T) {
	addrs := cluster(t, 1)
	ends := produce(t, addrs, 10, 2, 1)
	var epoch int32 = -2
	l := newLedger(10)
	h := l.handler(0, nil)
	c, err := New(memberOpts(addrs), konvoy.Convoy, 1, keyEvent, func(ctx context.Context, r *kgo.Record) error {
		epoch = r.LeaderEpoch // one consumer: no race
		return h(ctx, r)
	})
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	l.awaitAll(t)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	got, err := groupOffsets(t, addrs)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := got.Lookup(testTopic, 0)
	if o.At != ends[0] || o.LeaderEpoch != epoch {
		t.Errorf("committed offset %d epoch %d; want %d epoch %d (the records')", o.At, o.LeaderEpoch, ends[0], epoch)
	}
}

// A commit of offset at carries the epoch of the record at at-1, the
// highest below it: noted from the first record of each epoch on, once
// per change, and forgotten once a commit passed the next epoch's first.
// No record below at: -1, as franz-go sends for an epoch unknown.
func TestEpochBelowIsThatOfTheRecordBelowTheCommit(t *testing.T) {
	var c Consumer
	p := newPart(0, topicPartition{testTopic, 0}, Finished{})
	for _, r := range []struct {
		offset int64
		epoch  int32
	}{{3, 1}, {4, 1}, {10, 2}, {11, 2}, {20, 4}} {
		c.noteEpoch(p, &kgo.Record{Offset: r.offset, LeaderEpoch: r.epoch})
	}
	if len(p.epochs) != 3 {
		t.Fatalf("epochs noted %v; want one for each change, 3", p.epochs)
	}
	for _, tc := range []struct {
		at   int64
		want int32
		kept int
	}{{3, -1, 3}, {4, 1, 3}, {10, 1, 3}, {11, 2, 2}, {20, 2, 2}, {21, 4, 1}, {30, 4, 1}} {
		if got := p.epochBelow(tc.at); got != tc.want || len(p.epochs) != tc.kept {
			t.Errorf("epochBelow(%d) = %d, keeping %v; want %d, keeping %d", tc.at, got, p.epochs, tc.want, tc.kept)
		}
	}
}
