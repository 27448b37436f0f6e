package kafka

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// produceTo writes rs to the partitions they name, a thousand at a time.
func produceTo(t *testing.T, addrs []string, rs []*kgo.Record) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.DefaultProduceTopic(testTopic), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	for i := 0; i < len(rs); i += 1000 {
		if err := cl.ProduceSync(ctx, rs[i:min(i+1000, len(rs))]...).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
}

// keyLog checks what a member handled: never two records of a key at
// once, each partition's records of a key in offset order, and counts
// each record handled.
type keyLog struct {
	mu       sync.Mutex
	running  map[string]bool
	last     map[string]int64 // partition/key → offset last handled
	handled  map[[2]int64]int
	perPart  map[int32]int // records handled, by partition
	problems []string
	changed  chan struct{} // a token per record handled
}

func newKeyLog() *keyLog {
	return &keyLog{running: map[string]bool{}, last: map[string]int64{}, handled: map[[2]int64]int{},
		perPart: map[int32]int{}, changed: make(chan struct{}, 1)}
}

// begin notes that r starts.
func (k *keyLog) begin(r *kgo.Record) {
	k.mu.Lock()
	defer k.mu.Unlock()
	key, pk := string(r.Key), fmt.Sprintf("%d/%s", r.Partition, r.Key)
	if k.running[key] {
		k.problems = append(k.problems, fmt.Sprintf("key %s: %d/%d started while another ran", key, r.Partition, r.Offset))
	}
	k.running[key] = true
	if last, ok := k.last[pk]; ok && r.Offset <= last {
		k.problems = append(k.problems, fmt.Sprintf("key %s: %d/%d after offset %d", key, r.Partition, r.Offset, last))
	}
	k.last[pk] = r.Offset
}

// end notes that r finished.
func (k *keyLog) end(r *kgo.Record) {
	k.mu.Lock()
	delete(k.running, string(r.Key))
	k.handled[[2]int64{int64(r.Partition), r.Offset}]++
	k.perPart[r.Partition]++
	k.mu.Unlock()
	select {
	case k.changed <- struct{}{}:
	default:
	}
}

// check fails t for every problem seen and every record handled more than
// once.
func (k *keyLog) check(t *testing.T) {
	t.Helper()
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, p := range k.problems {
		t.Error(p)
	}
	for at, n := range k.handled {
		if n != 1 {
			t.Errorf("record %d/%d handled %d times", at[0], at[1], n)
		}
	}
}

// await waits until ok holds, read under the lock, failing t after
// testWait.
func (k *keyLog) await(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.After(testWait)
	for {
		k.mu.Lock()
		done := ok()
		k.mu.Unlock()
		if done {
			return
		}
		select {
		case <-k.changed:
		case <-deadline:
			t.Fatalf("%s: not after %v", what, testWait)
		case <-time.After(100 * time.Millisecond): // a commit, not a record, may be awaited
		}
	}
}

// metaLog checks the metadata of every commit sent: it reads back, and
// fits in MaxMetadata; and keeps the longest.
type metaLog struct {
	mu       sync.Mutex
	problems []string
	longest  int
}

// sent is the consumer's commitSent hook.
func (m *metaLog) sent(tp topicPartition, at int64, meta string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, err := ParseMetadata(at, meta); err != nil || len(meta) > MaxMetadata {
		m.problems = append(m.problems, fmt.Sprintf("%d/%d: metadata of %d bytes: %v", tp.partition, at, len(meta), err))
	}
	m.longest = max(m.longest, len(meta))
}

// longestNow returns the longest metadata committed so far.
func (m *metaLog) longestNow() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.longest
}

// check fails t for every commit whose metadata did not fit or read back.
func (m *metaLog) check(t *testing.T) {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range m.problems {
		t.Error(p)
	}
}

// halfBlocked returns n records of partition 0: the first and half the
// others at random of key A, the others each of a key of its own; and how
// many of these, up to Reach(0), are of their own key.
func halfBlocked(n int) (rs []*kgo.Record, free int) {
	rng := rand.New(rand.NewPCG(25, 2))
	rs = make([]*kgo.Record, n)
	for o := range rs {
		key := "A"
		if o > 0 && rng.IntN(2) == 0 {
			key = fmt.Sprintf("k%d", o)
			if int64(o) <= Reach(0) {
				free++
			}
		}
		rs[o] = &kgo.Record{Partition: 0, Key: []byte(key), Value: []byte("v")}
	}
	return rs, free
}

// TestThrottleKeepsMetadataWithinKafkasLimit is issue 25's "a partition
// whose finished-offset map would pass 4 KB". Partition 1's first record,
// of key A, blocks until released; then partition 0 gets 26,000 records,
// half of them at random of key A, which wait in A's lane behind it, the
// others of keys of their own, which finish: partition 0's committable
// offset stays 0 while the finished offsets above it form a random
// bitset, which no encoding shrinks below a byte per eight offsets. The
// consumer must stop taking partition 0 at Reach(0)+1, while partition 1
// goes on; every commit's metadata fits in MaxMetadata and reads back,
// none is dropped, and the largest comes near the limit; once released,
// every record is handled once, each key in order, and the commits reach
// the end.
func TestThrottleKeepsMetadataWithinKafkasLimit(t *testing.T) {
	c0, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(2, testTopic))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c0.Close)
	addrs := c0.ListenAddrs()
	const n0, n1 = 26_000, 200
	release, started := make(chan struct{}), make(chan struct{})
	log := newKeyLog()
	handle := func(_ context.Context, r *kgo.Record) error {
		log.begin(r)
		if string(r.Value) == "block" {
			close(started)
			select {
			case <-release:
			case <-time.After(2 * testWait):
			}
		}
		log.end(r)
		return nil
	}
	throttledAt := make(chan int64, 16)
	var metas metaLog
	opts := append(memberOpts(addrs), kgo.FetchMaxPartitionBytes(1<<20))
	c, err := New(opts, konvoy.Convoy, 4, keyEvent, handle, WithMaxHeld(100_000), WithCommitInterval(20*time.Millisecond),
		func(cfg *config) {
			cfg.throttling = func(topic string, partition int32, offset int64) {
				if topic != testTopic || partition != 0 {
					t.Errorf("throttled %s/%d at %d; want partition 0 only", topic, partition, offset)
				}
				throttledAt <- offset
			}
			cfg.commitSent = metas.sent
		})
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	produceTo(t, addrs, []*kgo.Record{{Partition: 1, Key: []byte("A"), Value: []byte("block")}})
	select {
	case <-started:
	case <-time.After(testWait):
		t.Fatal("the blocking record never started")
	}
	rs, free := halfBlocked(n0)
	produceTo(t, addrs, rs)
	select {
	case at := <-throttledAt:
		if at != Reach(0)+1 {
			t.Errorf("throttled at offset %d; want %d, one past Reach(0)", at, Reach(0)+1)
		}
	case <-time.After(testWait):
		t.Fatal("partition 0 never throttled")
	}
	// Partition 1 goes on while partition 0 is throttled.
	more := make([]*kgo.Record, n1)
	for i := range more {
		more[i] = &kgo.Record{Partition: 1, Key: fmt.Appendf(nil, "p1-%d", i), Value: []byte("v")}
	}
	produceTo(t, addrs, more)
	log.await(t, "partition 1's records handled", func() bool { return log.perPart[1] == n1 })
	log.await(t, "partition 0's free records up to Reach(0) handled", func() bool { return log.perPart[0] >= free })
	log.mu.Lock()
	for o := Reach(0) + 1; o < n0; o++ {
		if log.handled[[2]int64{0, o}] > 0 {
			t.Errorf("offset %d of partition 0 handled above Reach(0) while offset 0 waits", o)
			break
		}
	}
	log.mu.Unlock()
	log.await(t, "a commit with the metadata of every free record", func() bool {
		return metas.longestNow() >= MaxMetadata-100 || c.dropped.Load() > 0
	})
	if d := c.dropped.Load(); d != 0 {
		t.Errorf("%d commits dropped their metadata, too long", d)
	}
	close(release)
	log.await(t, "every record handled", func() bool { return len(log.handled) == n0+n1+1 })
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	log.check(t)
	metas.check(t)
	if d := c.dropped.Load(); d != 0 {
		t.Errorf("%d commits dropped their metadata in all", d)
	}
	t.Logf("throttled %d times; longest metadata %d bytes", c.throttled.Load(), metas.longestNow())
	checkCommitted(t, addrs, map[int32]int64{0: n0, 1: n1 + 1})
}

// TestUnthrottleResumesOnceTheGapCloses: a throttled partition stays
// paused while its committable offset is where it was, and while Reach of
// it falls short of the first offset not taken by resumeSlack; it
// resumes once Reach passes that, or once every record taken finished;
// and a partition paused but not throttled by its assignment (one
// throttled, then revoked) resumes at once.
func TestUnthrottleResumesOnceTheGapCloses(t *testing.T) {
	c, err := New(offlineOpts(), konvoy.Convoy, 1, keyEvent, func(context.Context, *kgo.Record) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.cl.Close)
	c.assign(context.Background(), c.cl, map[string][]int32{testTopic: {0, 1}})
	p0, p1 := c.assigned[topicPartition{testTopic, 0}], c.assigned[topicPartition{testTopic, 1}]
	const stopped = 30_000
	p0.last, p0.stoppedAt = stopped-1, stopped
	p1.last, p1.stoppedAt = 100, stopped
	c.cl.PauseFetchPartitions(map[string][]int32{testTopic: {0, 1, 2}})
	paused := func() []int32 {
		ps := c.cl.PauseFetchPartitions(nil)[testTopic]
		slices.Sort(ps)
		return ps
	}
	// Reach of the first committable offset takes the record not taken,
	// but a resume then would throttle again at the next record.
	given := func(m map[int]int64) func(int) (int64, bool) {
		return func(id int) (int64, bool) { o, ok := m[id]; return o, ok }
	}
	edge := stopped + resumeSlack - Reach(0) // the lowest committable offset that resumes p0
	for _, at := range []int64{0, stopped - Reach(0), edge - 1} {
		c.unthrottle(given(map[int]int64{p0.id: at, p1.id: 100}))
		if got := paused(); !slices.Equal(got, []int32{0, 1}) || p0.stoppedAt != stopped || p1.stoppedAt != stopped {
			t.Fatalf("at %d: paused %v, stopped at %d, %d; want 0 and 1 still throttled, 2 resumed", at, got, p0.stoppedAt, p1.stoppedAt)
		}
	}
	c.unthrottle(given(map[int]int64{p0.id: edge, p1.id: 101}))
	if got := paused(); len(got) != 0 || p0.stoppedAt != -1 || p1.stoppedAt != -1 {
		t.Fatalf("paused %v, stopped at %d, %d; want none", got, p0.stoppedAt, p1.stoppedAt)
	}
}

// TestNextOwnerReadsMetadataNearTheLimit: member A is throttled on a
// partition whose offset 0 never finishes (its handler waits until A's
// Close cancels it) while half the records up to Reach(0), at random,
// finish and half wait behind offset 0 in its key's lane. A's commit at
// Close is offset 0 with metadata of nearly MaxMetadata bytes naming
// exactly the records A handled. Member B, assigned the partition next,
// reads that metadata back: it handles every other record and none that
// A handled, and its commits reach the end.
func TestNextOwnerReadsMetadataNearTheLimit(t *testing.T) {
	addrs := cluster(t, 1)
	const n = 26_000
	rs, free := halfBlocked(n)
	rs[0].Value = []byte("block")
	produceTo(t, addrs, rs)
	a, b := newHandledBy(), newHandledBy()
	opts := append(memberOpts(addrs), kgo.FetchMaxPartitionBytes(1<<20))
	ca, err := New(opts, konvoy.Convoy, 4, keyEvent, func(ctx context.Context, r *kgo.Record) error {
		if string(r.Value) == "block" {
			<-ctx.Done() // Close's timeout cancels it
			return ctx.Err()
		}
		a.add(r.Offset)
		return nil
	}, WithMaxHeld(100_000), WithCloseTimeout(50*time.Millisecond), WithCommitInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	stopA := start(ca)
	deadline := time.After(testWait)
	for ca.throttled.Load() == 0 || len(a.sorted()) < free {
		select {
		case <-a.ch:
		case <-deadline:
			t.Fatalf("A handled %d of %d records, throttled %d times, after %v", len(a.sorted()), free, ca.throttled.Load(), testWait)
		case <-time.After(10 * time.Millisecond): // the throttle, not a record, may be awaited
		}
	}
	if err := stopA(); err == nil || !strings.Contains(err.Error(), "not run") {
		t.Fatalf("A's Run: %v; want the records not run", err)
	}
	meta := committedMetadata(t, addrs)
	f, err := ParseMetadata(0, meta)
	if err != nil || len(meta) > MaxMetadata || len(meta) < MaxMetadata-100 || ca.dropped.Load() != 0 {
		t.Fatalf("A committed metadata of %d bytes, %v, %d dropped; want near %d bytes, none dropped", len(meta), err, ca.dropped.Load(), MaxMetadata)
	}
	handledA := a.sorted()
	for _, o := range handledA {
		if !f.Done(o) {
			t.Fatalf("offset %d, handled by A, is not in its metadata", o)
		}
	}
	if runs := f.Runs(); len(runs) == 0 || runs[len(runs)-1].Last > Reach(0) {
		t.Fatalf("A's metadata names offsets up to %v; want up to Reach(0) = %d at most", runs, Reach(0))
	}
	cb, err := New(opts, konvoy.Convoy, 4, keyEvent, func(_ context.Context, r *kgo.Record) error {
		b.add(r.Offset)
		return nil
	}, WithMaxHeld(100_000), WithCommitInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	stopB := start(cb)
	var rest []int64
	for o := range int64(n) {
		if _, found := slices.BinarySearch(handledA, o); !found {
			rest = append(rest, o)
		}
	}
	b.await(t, rest...)
	if err := stopB(); err != nil {
		t.Fatalf("B's Run: %v", err)
	}
	if got := len(b.sorted()); got != len(rest) {
		t.Errorf("B handled %d records; want %d, those A did not", got, len(rest))
	}
	checkCommitted(t, addrs, map[int32]int64{0: n})
}

// committedMetadata returns the metadata the group committed for
// partition 0.
func committedMetadata(t *testing.T, addrs []string) string {
	t.Helper()
	got, err := groupOffsets(t, addrs)
	if err != nil {
		t.Fatal(err)
	}
	o, ok := got.Lookup(testTopic, 0)
	if !ok || o.Err != nil || o.At != 0 {
		t.Fatalf("committed %+v, %v; want offset 0", o, ok)
	}
	return o.Metadata
}

// A partition throttled at a record whose offset, from the broker, is
// near the largest stays throttled while its committable offset is far
// below: stoppedAt plus the slack overflowed, and it resumed at every
// poll, fetched the record again and was throttled again.
func TestAThrottleNearTheLargestOffsetHolds(t *testing.T) {
	c := unitConsumer(t, func(context.Context, *kgo.Record) error { return nil })
	for _, stoppedAt := range []int64{1 << 40, math.MaxInt64 - 10} {
		p := newPart(0, topicPartition{testTopic, 0}, Finished{})
		p.last, p.stoppedAt = 0, stoppedAt // record 0 held, not finished
		c.mu.Lock()
		c.assigned[p.tp] = p
		c.mu.Unlock()
		c.unthrottle(func(int) (int64, bool) { return 0, true })
		if p.stoppedAt != stoppedAt {
			t.Errorf("throttled at %d, committable offset 0: resumed", stoppedAt)
		}
	}
}
