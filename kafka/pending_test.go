package kafka

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/memtest"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// These tests pin, one case each, the commit arithmetic the chaos tests
// found wrong: what a revoked partition's skipped records, a handler's
// result the executor has not taken yet, and the commit an assignment
// started from do to the offset and metadata committed. Each checks the
// set of records the commit calls finished against the records that did
// finish, listed by hand.

// committedSet returns the records a commit of offset at with finished
// above it calls finished, among offsets 0 to top.
func committedSet(f Finished, top int64) []int64 {
	var out []int64
	for o := int64(0); o <= top; o++ {
		if f.Done(o) {
			out = append(out, o)
		}
	}
	return out
}

// finishedOf returns the Finished of committable offset at and the
// offsets finished above it, failing t when NewFinished refuses them.
func finishedOf(t *testing.T, at int64, finished []int64) Finished {
	t.Helper()
	f, err := NewFinished(at, finished)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestUnskippedNamesNoSkippedRecord: records 10 and 12 were handled, 11
// and 13 skipped on revocation (the executor counts them finished, and
// its committable offset passed 11), 14 handled; 9 still runs. The commit
// calls finished exactly the handled records: offset 9, then 10, 12, 14.
// With the skipped record lowest below the executor's committable offset,
// the offset stops at it and the handled records above it are kept.
func TestUnskippedNamesNoSkippedRecord(t *testing.T) {
	f := unskipped(finishedOf(t, 9, []int64{10, 11, 12, 13, 14}), 11, []int64{13, 11})
	if got, want := committedSet(f, 20), []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14}; !slices.Equal(got, want) {
		t.Errorf("unskipped, committable 9: offset %d, finished %v: records %v; want %v", f.Committable(), f.Runs(), got, want)
	}
	// The executor's committable offset 15 passed the skipped 11 and 13.
	f = unskipped(finishedOf(t, 15, []int64{17}), 11, []int64{11, 13})
	if got, want := committedSet(f, 20), []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 17}; !slices.Equal(got, want) || f.Committable() != 11 {
		t.Errorf("unskipped, committable 15: offset %d, finished %v: records %v; want offset 11, records %v", f.Committable(), f.Runs(), got, want)
	}
}

// TestUnskippedTakesNoMemoryForAGap: records 0 and 2^40, at either end of
// a gap such as compaction leaves, were skipped on revocation, and the
// executor's committable offset passed both: the commit is offset 0, and
// the offsets between are one run, not 2^40 offsets listed (it took
// memory in proportion to the gap: 734 MiB for 2^24).
func TestUnskippedTakesNoMemoryForAGap(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	const gap = 1 << 40
	var f Finished
	got := memtest.Allocated(func() { f = unskipped(finishedOf(t, gap+1, nil), 0, []int64{gap, 0}) })
	if want := []Run{{1, gap - 1}}; f.Committable() != 0 || !slices.Equal(f.Runs(), want) || got > 1<<16 {
		t.Errorf("unskipped = offset %d, runs %v, in %d bytes; want 0, %v, in a few", f.Committable(), f.Runs(), got, want)
	}
	// Skipped offsets inside a run and at its ends split it.
	f = unskipped(Finished{committable: 3, runs: []Run{{5, 9}, {11, 11}}}, 1, []int64{1, 2, 5, 7, 9, 11})
	if want := []Run{{6, 6}, {8, 8}}; f.Committable() != 1 || !slices.Equal(f.Runs(), want) {
		t.Errorf("unskipped = offset %d, runs %v; want 1, %v", f.Committable(), f.Runs(), want)
	}
}

// TestWithLateCountsResultsNotTakenYet: the executor says 5 is its
// committable offset and 8 finished; the handlers of 5, 6 and 9 returned
// (7 has not), so the commit is offset 7 with 8 and 9 finished.
func TestWithLateCountsResultsNotTakenYet(t *testing.T) {
	at, fin := withLate(5, []int64{8}, []int64{9, 3, 6, 5})
	if at != 7 || !slices.Equal(fin, []int64{8, 9}) {
		t.Errorf("withLate = %d, %v; want 7, [8 9]", at, fin)
	}
}

// TestPriorMetadataKeepsThePriorFinished: the assignment started from a
// commit of offset 20 naming 22 to 24 and 30 to 1,000,000 finished; this
// member finished 20 and 21 (its executor's committable offset is 22) and
// 26. The commit is offset 25 (22 to 24 are finished too) with 26 and 30
// to 1,000,000 finished, written as runs, not as a million offsets. A
// prior run from the offset to the largest one (only hostile metadata
// says so) cannot move the offset past it: the commit leaves it out, and
// those records run again, never skipped.
func TestPriorMetadataKeepsThePriorFinished(t *testing.T) {
	prior, err := NewFinished(20, []int64{22, 23, 24})
	if err != nil {
		t.Fatal(err)
	}
	prior.runs = append(prior.runs, Run{30, 1_000_000})
	prior.runBytes = runBytes(19, prior.runs)
	at, m, err := priorMetadata(finishedOf(t, 22, []int64{26}), prior)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseMetadata(at, m)
	if err != nil {
		t.Fatalf("priorMetadata wrote %q: %v", m, err)
	}
	if want := []Run{{26, 26}, {30, 1_000_000}}; at != 25 || !slices.Equal(f.Runs(), want) {
		t.Errorf("priorMetadata = %d, %v; want 25, %v", at, f.Runs(), want)
	}
	// Nothing prior above the offset: the commit is this member's alone.
	if at, m, err := priorMetadata(finishedOf(t, 1_000_001, nil), prior); err != nil || at != 1_000_001 || m != "" {
		t.Errorf("priorMetadata past the prior runs = %d, %q, %v; want 1000001, \"\"", at, m, err)
	}
	top := Finished{committable: 5, runs: []Run{{6, math.MaxInt64}}}
	top.runBytes = runBytes(4, top.runs)
	if at, m, err := priorMetadata(finishedOf(t, 6, nil), top); err != nil || at != 6 || m != "" {
		t.Errorf("priorMetadata of a prior run from the offset to the largest = %d, %q, %v; want 6, \"\" (its records run again)", at, m, err)
	}
}

// TestCommitCountsAResultNotTakenYet: a handler has returned nil but the
// executor has not taken its result yet (simulated: begin and end are
// called for the record, as consumer 1's, while its real handler is still
// held). A commit made then counts it finished: offsets 0 and 1 finished,
// so the commit is offset 2, not 1. The same for a revoked partition,
// whose revocation commits right after its last handler returned; and in
// both cases even once many records of another partition finished since
// on the other consumer.
func TestCommitCountsAResultNotTakenYet(t *testing.T) {
	for _, revoked := range []bool{false, true} {
		release, started := make(chan struct{}), make(chan struct{})
		handle := func(_ context.Context, r *kgo.Record) error {
			if r.Offset == 1 {
				close(started)
				<-release
			}
			return nil
		}
		opts := []kgo.Opt{kgo.SeedBrokers("127.0.0.1:1"), kgo.ConsumerGroup(testGroup), kgo.ConsumeTopics(testTopic)}
		c, err := New(opts, konvoy.Convoy, 2, keyEvent, handle)
		if err != nil {
			t.Fatal(err)
		}
		p := newPart(0, topicPartition{testTopic, 0}, Finished{})
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		its := []item{{&kgo.Record{Offset: 0, Key: []byte("a")}, p, nil}, {&kgo.Record{Offset: 1, Key: []byte("b")}, p, nil}}
		for _, it := range its {
			if err := c.x.Submit(ctx, it); err != nil {
				t.Fatal(err)
			}
		}
		awaitCommittable(ctx, t, c, 1)
		select { // its real handler runs, past the guard: a revocation now cannot skip it
		case <-started:
		case <-ctx.Done():
			t.Fatal("record 1's handler never started")
		}
		if !c.begin(1, its[1]) {
			t.Fatal("begin refused a record of a partition not revoked")
		}
		if revoked {
			c.mu.Lock()
			p.revoked.Store(true)
			c.mu.Unlock()
		}
		c.end(1, its[1], true) // as run does when the handler returned nil
		other := newPart(1, topicPartition{testTopic, 1}, Finished{})
		for o := range int64(64) {
			it := item{&kgo.Record{Offset: o}, other, nil}
			c.begin(0, it)
			c.end(0, it, true)
		}
		offsets, _, sent, _ := c.pending([]*part{p})
		if len(sent) != 1 || offsets[testTopic][0].Offset != 2 {
			t.Errorf("revoked %v: pending commits %v; want offset 2, record 1's handler having returned", revoked, offsets)
		}
		close(release)
		if err := c.x.Close(ctx); err != nil {
			t.Error(err)
		}
		c.cl.Close()
		cancel()
	}
}

// awaitCommittable waits until c's executor says partition 0 may commit
// offset at, failing t when ctx ends first.
func awaitCommittable(ctx context.Context, t *testing.T, c *Consumer, at int64) {
	t.Helper()
	for {
		for _, comp := range c.x.Completion() {
			if comp.Partition == 0 && comp.Committable == at {
				return
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("completion %v after %v", c.x.Completion(), testWait)
		}
		time.Sleep(time.Millisecond) // a poll, bounded by ctx
	}
}

// TestHandingOnKeepsThePriorMetadata: the group's commit is offset 2 with
// metadata naming 3 to 19 finished. Member A takes the partition, holds
// one record at most, and its handler of offset 2 waits, so A never reads
// past offset 2; then A leaves. Its commit must keep what the metadata
// named: offset 20, and member B, which takes the partition next, handles
// record 20 alone.
func TestHandingOnKeepsThePriorMetadata(t *testing.T) {
	addrs := cluster(t, 1)
	cl := producer(t, addrs)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	for i := range 21 {
		r := &kgo.Record{Key: fmt.Appendf(nil, "k%02d", i), Partition: 0}
		if err := cl.ProduceSync(ctx, r).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	var done []int64
	for o := int64(3); o < 20; o++ {
		done = append(done, o)
	}
	prior, err := NewFinished(2, done)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := prior.Metadata()
	if err != nil {
		t.Fatal(err)
	}
	var offs kadm.Offsets
	offs.Add(kadm.Offset{Topic: testTopic, Partition: 0, At: 2, LeaderEpoch: -1, Metadata: meta})
	if err := kadm.NewClient(cl).CommitAllOffsets(ctx, testGroup, offs); err != nil {
		t.Fatal(err)
	}
	started, release := make(chan struct{}), make(chan struct{})
	a := newHandledBy()
	ca, err := New(memberOpts(addrs), konvoy.Convoy, 1, keyEvent, func(_ context.Context, r *kgo.Record) error {
		if r.Offset == 2 {
			close(started)
			<-release
		}
		a.add(r.Offset)
		return nil
	}, WithMaxHeld(1), WithCommitInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	stopA := start(ca)
	select {
	case <-started:
	case <-ctx.Done():
		t.Fatal("A never handled offset 2")
	}
	close(release)
	if err := stopA(); err != nil {
		t.Fatalf("A's Run: %v", err)
	}
	b := newHandledBy()
	cb, err := New(memberOpts(addrs), konvoy.Convoy, 1, keyEvent, func(_ context.Context, r *kgo.Record) error {
		b.add(r.Offset)
		return nil
	}, WithCommitInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	stopB := start(cb)
	b.await(t, 20)
	if err := stopB(); err != nil {
		t.Fatalf("B's Run: %v", err)
	}
	if got := b.sorted(); !slices.Equal(got, []int64{20}) {
		t.Errorf("B handled %v; want [20]: A handled %v, and the metadata named 3 to 19 finished", got, a.sorted())
	}
	checkCommitted(t, addrs, map[int32]int64{0: 21})
}

// TestUnskippedMatchesTheOffsetByOffsetRule: over random partitions of a
// few dozen offsets, unskipped's commit counts finished exactly the
// offsets below the lowest skipped one and, above it, those the executor
// counts finished but the skipped ones, offset by offset; and its runs
// are what Finished holds, increasing, apart, above the offset.
func TestUnskippedMatchesTheOffsetByOffsetRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	for range 2000 {
		exec, skipped := randomSkips(t, rng)
		if len(skipped) == 0 {
			continue
		}
		at, skipFrom := exec.Committable(), slices.Min(skipped)
		f := unskipped(exec, skipFrom, skipped)
		for o := int64(0); o < 70; o++ {
			want := o < min(at, skipFrom) || exec.Done(o) && !slices.Contains(skipped, o)
			if f.Done(o) != want {
				t.Fatalf("committable %d, finished %v, skipped %v: offset %d done %v; want %v (commit %d, runs %v)",
					at, exec.Runs(), skipped, o, f.Done(o), want, f.Committable(), f.Runs())
			}
		}
		for i, r := range f.runs {
			if r.First > r.Last || i == 0 && r.First <= f.committable || i > 0 && r.First <= f.runs[i-1].Last+1 {
				t.Fatalf("runs %v of commit %d: want increasing runs apart, above it", f.runs, f.committable)
			}
		}
	}
}

// randomSkips returns what an executor may count finished of a partition
// of 60 offsets, and a random share of those offsets, in random order, as
// skipped on a revocation.
func randomSkips(t *testing.T, rng *rand.Rand) (Finished, []int64) {
	at := rng.Int64N(30)
	var finished, skipped []int64
	for o := at + 1; o < 60; o++ {
		if rng.IntN(2) == 0 {
			finished = append(finished, o)
		}
	}
	exec := finishedOf(t, at, finished)
	for o := int64(0); o < 60; o++ {
		if exec.Done(o) && rng.IntN(4) == 0 {
			skipped = append(skipped, o)
		}
	}
	rng.Shuffle(len(skipped), func(i, j int) { skipped[i], skipped[j] = skipped[j], skipped[i] })
	return exec, skipped
}

// TestUnskippedAtTheLargestOffset: a record skipped at the largest offset
// ends its run there; stepping past it overflowed into a run of every
// offset, the skipped one among them.
func TestUnskippedAtTheLargestOffset(t *testing.T) {
	f := unskipped(Finished{committable: 3, runs: []Run{{math.MaxInt64 - 3, math.MaxInt64}}}, 1, []int64{1, math.MaxInt64})
	if want := []Run{{2, 2}, {math.MaxInt64 - 3, math.MaxInt64 - 1}}; f.Committable() != 1 || !slices.Equal(f.Runs(), want) {
		t.Errorf("unskipped = offset %d, runs %v; want 1, %v", f.Committable(), f.Runs(), want)
	}
}
