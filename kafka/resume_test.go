package kafka

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestCommitMetadataRoundTrips: what Finished.Metadata writes, ParseMetadata
// reads back as the same finished offsets; none finished is the empty
// string; and offsets too scattered for MaxMetadata give "" and an error,
// so that the offset is committed alone.
func TestCommitMetadataRoundTrips(t *testing.T) {
	cases := []struct {
		at       int64
		finished []int64
	}{
		{0, nil},
		{7, []int64{9}},
		{7, []int64{8, 9, 10, 12, 40, 41}},
		{1 << 40, []int64{1<<40 + 1, 1<<40 + 3, 1 << 41}},
	}
	for _, tc := range cases {
		m, err := finishedOf(t, tc.at, tc.finished).Metadata()
		if err != nil {
			t.Fatalf("the metadata of %d, %v: %v", tc.at, tc.finished, err)
		}
		if (m == "") != (len(tc.finished) == 0) {
			t.Errorf("the metadata of %d, %v = %q; want empty exactly when nothing finished", tc.at, tc.finished, m)
		}
		f, err := ParseMetadata(tc.at, m)
		if err != nil {
			t.Fatalf("ParseMetadata(%d, %q): %v", tc.at, m, err)
		}
		checkDone(t, f, tc.at, tc.finished)
	}
	// 10,000 offsets at random among a million: far more than fit.
	if m, err := finishedOf(t, 0, scattered(0, 10_000, 1_000_000, 1)).Metadata(); err == nil || m != "" {
		t.Errorf("the metadata of 10,000 scattered offsets = %d bytes, %v; want \"\" and an error", len(m), err)
	}
}

// checkDone fails t unless f says done exactly the offsets below at and
// those of finished, probed at at-1, at, at+1 and each finished offset
// and its neighbours.
func checkDone(t *testing.T, f Finished, at int64, finished []int64) {
	t.Helper()
	in := map[int64]bool{}
	probes := []int64{at - 1, at, at + 1}
	for _, o := range finished {
		in[o] = true
		probes = append(probes, o-1, o, o+1)
	}
	for _, x := range probes {
		if want := x < at || in[x]; f.Done(x) != want {
			t.Errorf("committable %d: offset %d read back done %v; want %v", at, x, f.Done(x), want)
		}
	}
}

// awaitFinished waits until c's executor counts, per partition, the
// records of want finished above committable offset 0 (it does once run
// returned), failing t when ctx ends first.
func awaitFinished(ctx context.Context, t *testing.T, c *Consumer, want map[int]int) {
	t.Helper()
	for {
		settled := true
		for _, comp := range c.x.Completion() {
			settled = settled && comp.Committable == 0 && len(comp.Finished) == want[comp.Partition]
		}
		if settled {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("completion %v after %v", c.x.Completion(), testWait)
		}
		time.Sleep(time.Millisecond) // a poll, bounded by ctx
	}
}

// handledBy records the offsets one member handled, and signals each.
type handledBy struct {
	mu      sync.Mutex
	offsets map[int64]int
	ch      chan struct{}
}

func newHandledBy() *handledBy {
	return &handledBy{offsets: map[int64]int{}, ch: make(chan struct{}, 1)}
}

func (h *handledBy) add(o int64) {
	h.mu.Lock()
	h.offsets[o]++
	h.mu.Unlock()
	select {
	case h.ch <- struct{}{}:
	default:
	}
}

// await waits until every offset of want was handled, failing t after
// testWait.
func (h *handledBy) await(t *testing.T, want ...int64) {
	t.Helper()
	deadline := time.After(testWait)
	for {
		h.mu.Lock()
		all := true
		for _, o := range want {
			all = all && h.offsets[o] > 0
		}
		h.mu.Unlock()
		if all {
			return
		}
		select {
		case <-h.ch:
		case <-deadline:
			t.Fatalf("offsets %v not all handled after %v: handled %v", want, testWait, h.sorted())
		}
	}
}

func (h *handledBy) sorted() []int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	var os []int64
	for o := range h.offsets {
		os = append(os, o)
	}
	slices.Sort(os)
	return os
}

// TestNextOwnerSkipsRecordsTheMetadataNamesFinished: member A reads one
// partition of 20 records of distinct keys; its handler of offset 2 waits
// until A closes, so that records 3 to 19 finish above it. A's closing
// cancels that handler (the record fails, unfinished) and commits offset 2
// with metadata naming 3 to 19 finished. Then record 20 is written and
// member B joins: it handles offsets 2 and 20 and nothing else, and
// commits 21, the end. In "interval", A commits every 10 ms and records
// 10 to 19 wait until offset 2 was committed: the metadata must follow
// the finished records though the offset stays 2.
func TestNextOwnerSkipsRecordsTheMetadataNamesFinished(t *testing.T) {
	t.Run("close", func(t *testing.T) { nextOwnerSkips(t, false) })
	t.Run("interval", func(t *testing.T) { nextOwnerSkips(t, true) })
}

// nextOwnerSkips is TestNextOwnerSkipsRecordsTheMetadataNamesFinished,
// committing on the interval or when A closes.
func nextOwnerSkips(t *testing.T, interval bool) {
	addrs := cluster(t, 1)
	cl := producer(t, addrs)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	write := func(from, to int) {
		t.Helper()
		for i := from; i < to; i++ {
			r := &kgo.Record{Key: fmt.Appendf(nil, "k%02d", i), Partition: 0}
			if err := cl.ProduceSync(ctx, r).FirstErr(); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(0, 20)
	every, gate := time.Hour, func() {}
	if interval {
		every = 10 * time.Millisecond
		var once sync.Once
		gate = func() { once.Do(func() { awaitCommitted(ctx, t, cl, 2) }) }
	}

	a := newHandledBy()
	ca, err := New(memberOpts(addrs), konvoy.Convoy, 4, keyEvent, func(ctx context.Context, r *kgo.Record) error {
		if r.Offset == 2 {
			<-ctx.Done() // cancelled once A's close timeout passed
			return ctx.Err()
		}
		if r.Offset >= 10 {
			gate()
		}
		a.add(r.Offset)
		return nil
	}, WithCommitInterval(every), WithCloseTimeout(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stopA := start(ca)
	want := []int64{0, 1}
	for o := int64(3); o < 20; o++ {
		want = append(want, o)
	}
	a.await(t, want...)
	// A's Run reports record 2, which it did not finish.
	if err, u := stopA(), (*live.UnrunError[*kgo.Record])(nil); !errors.As(err, &u) {
		t.Fatalf("A's Run: %v; want record 2 reported not run", err)
	}
	if n := ca.dropped.Load(); n != 0 {
		t.Errorf("A dropped the metadata of %d commits", n)
	}

	checkAsMetadata(ctx, t, cl)

	write(20, 21)
	b := newHandledBy()
	cb, err := New(memberOpts(addrs), konvoy.Convoy, 4, keyEvent, func(_ context.Context, r *kgo.Record) error {
		b.add(r.Offset)
		return nil
	}, WithCommitInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	stopB := start(cb)
	b.await(t, 2, 20)
	if err := stopB(); err != nil {
		t.Fatalf("B's Run: %v", err)
	}
	if h := b.sorted(); !slices.Equal(h, []int64{2, 20}) {
		t.Errorf("B handled offsets %v; want [2 20]: the others A's metadata names finished", h)
	}
	if n := cb.unread.Load(); n != 0 {
		t.Errorf("B could not read %d assignments' metadata", n)
	}
	checkCommitted(t, addrs, map[int32]int64{0: 21})
}

// checkAsMetadata fails t unless the group committed offset 2 of
// partition 0 with metadata naming offsets 3 to 19 finished, and no other.
func checkAsMetadata(ctx context.Context, t *testing.T, cl *kgo.Client) {
	t.Helper()
	got, err := kadm.NewClient(cl).FetchOffsets(ctx, testGroup)
	if err != nil {
		t.Fatal(err)
	}
	o, ok := got.Lookup(testTopic, 0)
	if !ok || o.Err != nil || o.At != 2 {
		t.Fatalf("A committed %+v (found %v); want offset 2", o, ok)
	}
	f, err := ParseMetadata(o.At, o.Metadata)
	if err != nil {
		t.Fatalf("A's metadata %q: %v", o.Metadata, err)
	}
	for off := int64(2); off < 21; off++ {
		if f.Done(off) != (off >= 3 && off < 20) {
			t.Errorf("A's metadata %q: offset %d done %v", o.Metadata, off, f.Done(off))
		}
	}
}

// awaitCommitted waits until the group committed offset at of partition
// 0, failing t when ctx ends first.
func awaitCommitted(ctx context.Context, t *testing.T, cl *kgo.Client, at int64) {
	for {
		got, err := kadm.NewClient(cl).FetchOffsets(ctx, testGroup)
		if o, ok := got.Lookup(testTopic, 0); err == nil && ok && o.At == at {
			return
		}
		select {
		case <-ctx.Done():
			t.Errorf("offset %d not committed: %v", at, ctx.Err())
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestBadMetadataRunsEveryRecord: a commit of offset 3 whose metadata is
// not the consumer's (another client's, or damaged) is read as naming
// nothing finished: the member handles every record from offset 3,
// counts the metadata it could not read, and commits the end.
func TestBadMetadataRunsEveryRecord(t *testing.T) {
	addrs := cluster(t, 1)
	ends := produce(t, addrs, 10, 10, 5)
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	var offs kadm.Offsets
	offs.Add(kadm.Offset{Topic: testTopic, Partition: 0, At: 3, LeaderEpoch: -1, Metadata: "1r" + "not base64!"})
	if err := kadm.NewClient(cl).CommitAllOffsets(ctx, testGroup, offs); err != nil {
		t.Fatal(err)
	}
	h := newHandledBy()
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, func(_ context.Context, r *kgo.Record) error {
		h.add(r.Offset)
		return nil
	}, WithCommitInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	var want []int64
	for o := int64(3); o < ends[0]; o++ {
		want = append(want, o)
	}
	h.await(t, want...)
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got := h.sorted(); !slices.Equal(got, want) {
		t.Errorf("handled %v; want %v", got, want)
	}
	if n := c.unread.Load(); n != 1 {
		t.Errorf("%d assignments' metadata counted unread; want 1", n)
	}
	checkCommitted(t, addrs, ends)
}

// TestTooMuchMetadataCommitsTheOffsetAlone: with offset 0 of a partition
// still running and 10,000 offsets scattered among a million finished
// above it, more than MaxMetadata holds, the commit made is offset 0 with
// no metadata, counted in dropped; it is not sent again while nothing
// changes, nor counted again; and a partition with few finished offsets
// gets its metadata.
func TestTooMuchMetadataCommitsTheOffsetAlone(t *testing.T) {
	finished := scattered(0, 10_000, 1_000_000, 1)
	release := make(chan struct{})
	var handled atomic.Int64
	all := make(chan struct{})
	c, err := New(memberOpts(cluster(t, 1)), konvoy.Convoy, 4, func(r *kgo.Record) konvoy.Event {
		return konvoy.Event{Key: fmt.Sprint(r.Offset)}
	}, func(_ context.Context, r *kgo.Record) error {
		if r.Offset == 0 {
			<-release
			return nil
		}
		if handled.Add(1) == int64(len(finished))+1 {
			close(all)
		}
		return nil
	}, WithMaxHeld(20_000))
	if err != nil {
		t.Fatal(err)
	}
	defer c.cl.Close()
	defer func() {
		close(release)
		if err := c.x.Close(context.Background()); err != nil {
			t.Error(err)
		}
	}()
	big := newPart(0, topicPartition{testTopic, 0}, Finished{})
	small := newPart(1, topicPartition{testTopic, 1}, Finished{})
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	its := []item{{&kgo.Record{Offset: 0}, big, nil}, {&kgo.Record{Offset: 0}, small, nil}, {&kgo.Record{Offset: 5}, small, nil}}
	for _, o := range finished {
		its = append(its, item{&kgo.Record{Offset: o}, big, nil})
	}
	for _, it := range its {
		if err := c.x.Submit(ctx, it); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-all:
	case <-ctx.Done():
		t.Fatalf("%d records handled after %v", handled.Load(), testWait)
	}
	awaitFinished(ctx, t, c, map[int]int{0: len(finished), 1: 1})
	offsets, meta, sent, stripped := c.pending([]*part{big, small})
	if len(sent) != 2 || offsets[testTopic][0].Offset != 0 || offsets[testTopic][1].Offset != 0 {
		t.Fatalf("pending: offsets %v, %d partitions; want offset 0 of both", offsets, len(sent))
	}
	// Counted in dropped once the commit is made (commitParts), not when
	// read: a commit that fails is read again.
	if meta[big.tp] != "" || len(stripped) != 1 || stripped[big] == nil || c.dropped.Load() != 0 {
		t.Errorf("the big partition's metadata %d bytes, %v stripped, %d dropped; want none, the big partition stripped, 0 dropped before a commit", len(meta[big.tp]), stripped, c.dropped.Load())
	}
	if f, err := ParseMetadata(0, meta[small.tp]); err != nil || !f.Done(5) || f.Done(0) {
		t.Errorf("the small partition's metadata %q reads %v, %v; want offset 5 done", meta[small.tp], f.Runs(), err)
	}
	for _, p := range sent { // as a commit that went through does
		p.committed, p.committedMeta = 0, meta[p.tp]
	}
	if _, _, again, stripped := c.pending([]*part{big, small}); len(again) != 0 || len(stripped) != 0 {
		t.Errorf("pending sends %d partitions again, nothing having changed, %d without metadata; want none", len(again), len(stripped))
	}
}
