package kafka

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

const (
	testTopic = "events"
	testGroup = "konvoy"
	// testWait bounds every wait of these tests: far above what they
	// take, so that reaching it is a failure, never a slow machine.
	testWait = 30 * time.Second
)

// cluster starts an in-process Kafka on loopback with one topic of
// partitions partitions, closed when the test ends.
func cluster(t *testing.T, partitions int32) []string {
	t.Helper()
	return fakeCluster(t, partitions).ListenAddrs()
}

// fakeCluster starts a one-broker kfake cluster with the test topic of
// partitions partitions, closed when t ends, for a test that controls it.
func fakeCluster(t *testing.T, partitions int32) *kfake.Cluster {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(partitions, testTopic))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// producer returns a client of the cluster at addrs that produces to the
// test topic, closed when t ends.
func producer(t *testing.T, addrs []string) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.DefaultProduceTopic(testTopic))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// produce writes n records with keys drawn from keys keys (seeded by
// seed), each record's value its number, and returns how many records
// each partition got.
func produce(t *testing.T, addrs []string, n, keys int, seed uint64) map[int32]int64 {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.DefaultProduceTopic(testTopic))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close() // before any check of the goroutines a test leaves
	rng := rand.New(rand.NewPCG(seed, 1))
	rs := make([]*kgo.Record, n)
	for i := range rs {
		rs[i] = &kgo.Record{Key: fmt.Appendf(nil, "k%03d", rng.IntN(keys)), Value: fmt.Appendf(nil, "%d", i)}
	}
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	for i := 0; i < n; i += 10 { // small batches, which fetches take a few at a time
		if err := cl.ProduceSync(ctx, rs[i:min(i+10, n)]...).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	ends := map[int32]int64{}
	for _, r := range rs {
		ends[r.Partition] = max(ends[r.Partition], r.Offset+1)
	}
	return ends
}

// memberOpts are a member's client options: quick heartbeats and fetches,
// so that rebalances and resumes take milliseconds, and small fetches, so
// that a member reads all its partitions at once.
func memberOpts(addrs []string) []kgo.Opt {
	return []kgo.Opt{
		kgo.SeedBrokers(addrs...), kgo.ConsumerGroup(testGroup), kgo.ConsumeTopics(testTopic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.HeartbeatInterval(50 * time.Millisecond), kgo.FetchMaxWait(50 * time.Millisecond),
		kgo.FetchMaxPartitionBytes(256), // a few records of each partition a fetch
	}
}

// offlineOpts are the client options of a member that never reaches a
// broker, so that no rebalance runs: for a test that assigns the
// member's partitions itself (Consumer.assign) and submits its records.
// A member of a live cluster joins its group as its client starts, and
// the group's assignment would replace the test's parts while it runs.
func offlineOpts() []kgo.Opt {
	return []kgo.Opt{kgo.SeedBrokers("127.0.0.1:1"), kgo.ConsumerGroup(testGroup), kgo.ConsumeTopics(testTopic)}
}

// keyEvent reads a record as an event of its key.
func keyEvent(r *kgo.Record) konvoy.Event { return konvoy.Event{Key: string(r.Key)} }

// ledger records what every member handled, and what went wrong: two
// handlers of one key at once (in one member or across members), or a
// member's run handling a key's records out of offset order.
type ledger struct {
	mu       sync.Mutex
	running  map[string]int           // key → the run handling it now
	last     map[int]map[string]int64 // run → key → offset last handled
	handled  map[[2]int64]int         // partition, offset → times handled
	byRun    map[int]int              // run → records handled
	problems []string
	want     int           // records produced
	all      chan struct{} // closed once every record was handled
	progress chan struct{} // a token per record handled
}

func newLedger(want int) *ledger {
	return &ledger{
		running: map[string]int{}, last: map[int]map[string]int64{}, handled: map[[2]int64]int{},
		byRun: map[int]int{}, want: want, all: make(chan struct{}), progress: make(chan struct{}, 1),
	}
}

// handler returns run's handler: it checks the key is not running and its
// offset is above the last its run handled, pauses a little now and then,
// and records the record as handled.
func (l *ledger) handler(run int, gate func()) func(context.Context, *kgo.Record) error {
	rng := rand.New(rand.NewPCG(uint64(run), 7))
	var rngMu sync.Mutex
	return func(_ context.Context, r *kgo.Record) error {
		key := string(r.Key)
		l.mu.Lock()
		if other, ok := l.running[key]; ok {
			l.problems = append(l.problems, fmt.Sprintf("key %s: run %d started %d/%d while run %d ran one", key, run, r.Partition, r.Offset, other))
		}
		l.running[key] = run
		if l.last[run] == nil {
			l.last[run] = map[string]int64{}
		}
		if last, ok := l.last[run][key]; ok && r.Offset <= last {
			l.problems = append(l.problems, fmt.Sprintf("key %s: run %d handled offset %d after %d", key, run, r.Offset, last))
		}
		l.last[run][key] = r.Offset
		l.mu.Unlock()
		if gate != nil {
			gate()
		}
		rngMu.Lock()
		pause := time.Duration(rng.IntN(4)) * 50 * time.Microsecond
		rngMu.Unlock()
		time.Sleep(pause) // the handler's work: lets others overlap it
		l.mu.Lock()
		delete(l.running, key)
		at := [2]int64{int64(r.Partition), r.Offset}
		l.handled[at]++
		l.byRun[run]++
		if l.handled[at] == 1 && len(l.handled) == l.want {
			close(l.all)
		}
		l.mu.Unlock()
		select {
		case l.progress <- struct{}{}:
		default:
		}
		return nil
	}
}

// distinct returns how many records were handled at least once.
func (l *ledger) distinct() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.handled)
}

// check fails t for every problem seen and every record never handled; with
// once, also for a record handled more than once.
func (l *ledger) check(t *testing.T, ends map[int32]int64, once bool) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, p := range l.problems {
		if i == 10 {
			t.Errorf("… and %d problems more", len(l.problems)-10)
			break
		}
		t.Error(p)
	}
	for p, end := range ends {
		for o := range end {
			n := l.handled[[2]int64{int64(p), o}]
			if n == 0 || (once && n > 1) {
				t.Errorf("record %d/%d handled %d times", p, o, n)
			}
		}
	}
}

// awaitAll waits until every record was handled, failing t after testWait.
func (l *ledger) awaitAll(t *testing.T) {
	t.Helper()
	select {
	case <-l.all:
	case <-time.After(testWait):
		t.Fatalf("%d of %d records handled after %v", l.distinct(), l.want, testWait)
	}
}

// awaitHandled waits until n records were handled, failing t after testWait.
func (l *ledger) awaitHandled(t *testing.T, n int) {
	t.Helper()
	deadline := time.After(testWait)
	for l.distinct() < n {
		select {
		case <-l.progress:
		case <-l.all:
		case <-deadline:
			t.Fatalf("%d of %d records handled after %v", l.distinct(), n, testWait)
		}
	}
}

// checkCommitted fails t unless the group committed every partition's end.
func checkCommitted(t *testing.T, addrs []string, ends map[int32]int64) {
	t.Helper()
	got := committed(t, addrs)
	for p, end := range ends {
		if at, ok := got[p]; !ok || at != end {
			t.Errorf("partition %d: committed %d (found %v); want offset %d, the end", p, at, ok, end)
		}
	}
}

// start runs c in a goroutine; the returned function ends it and returns
// Run's error.
func start(c *Consumer) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	return func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(testWait):
			return errors.New("Run did not return")
		}
	}
}

// TestOneMemberConsumesInKeyOrder: one member with four handlers reads a
// topic of four partitions whose records have random keys. Every record is
// handled once, each key's records in offset order and never two at once;
// fetching pauses when the executor is full (its first handlers wait for
// that pause); and the commit made when Run ends (the interval is an hour)
// reaches every partition's end.
func TestOneMemberConsumesInKeyOrder(t *testing.T) {
	addrs := cluster(t, 4)
	const n = 1200
	ends := produce(t, addrs, n, 40, 1)
	l := newLedger(n)
	paused := make(chan struct{})
	var once sync.Once
	gate := func() {
		select {
		case <-paused:
		case <-time.After(testWait):
		}
	}
	c, err := New(memberOpts(addrs), konvoy.Convoy, 4, keyEvent, l.handler(0, gate),
		WithMaxHeld(32), WithCommitInterval(time.Hour),
		func(c *config) {
			c.blocked = func(tps map[string][]int32) {
				if len(tps[testTopic]) > 0 { // the client says they are paused
					once.Do(func() { close(paused) })
				}
			}
		})
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	l.awaitAll(t)
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	select {
	case <-paused:
	default:
		t.Error("fetching never paused, though 32 records fill the executor")
	}
	l.check(t, ends, true)
	checkCommitted(t, addrs, ends)
}

// TestMembersJoinAndLeave: a member reads alone; once a third of the
// records were handled its handlers wait until a revocation starts, and a
// second member joins, which revokes some of the first's partitions; once
// two thirds were handled the first leaves. Every record is handled, each
// member's run keeps each key's records in offset order, no key runs in
// two handlers at once across the members, both members handled records,
// and the commits reach every partition's end.
func TestMembersJoinAndLeave(t *testing.T) {
	addrs := cluster(t, 6)
	const n = 1800
	ends := produce(t, addrs, n, 60, 2)
	l := newLedger(n)
	revoked := make(chan struct{})
	var once sync.Once
	var slow atomic.Int64
	// The first member's handlers, past a third, wait for the revocation,
	// and then a while more: long enough for the second member to take
	// the revoked partitions, unless the revocation waits for them.
	hold := func() {
		if l.distinct() < n/3 {
			return
		}
		select {
		case <-revoked:
			// The handler started after the revocation: the first ones are
			// slow, so that one of a revoked partition, which must not
			// run, would still run when the second member starts.
			if slow.Add(1) <= 100 {
				time.Sleep(5 * time.Millisecond)
			}
			return
		default:
		}
		select {
		case <-revoked:
			time.Sleep(100 * time.Millisecond)
		case <-time.After(testWait):
		}
	}
	a, err := New(memberOpts(addrs), konvoy.Convoy, 4, keyEvent, l.handler(1, hold),
		WithMaxHeld(64), WithCommitInterval(20*time.Millisecond),
		func(c *config) {
			c.revoking = func(m map[string][]int32) {
				if len(m) > 0 { // not the end of a session that revoked nothing
					once.Do(func() { close(revoked) })
				}
			}
		})
	if err != nil {
		t.Fatal(err)
	}
	stopA := start(a)
	l.awaitHandled(t, n/3)
	b, err := New(memberOpts(addrs), konvoy.Convoy, 4, keyEvent, l.handler(2, nil),
		WithMaxHeld(64), WithCommitInterval(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stopB := start(b)
	l.awaitHandled(t, 2*n/3)
	if err := stopA(); err != nil {
		t.Errorf("first member's Run: %v", err)
	}
	l.awaitAll(t)
	if err := stopB(); err != nil {
		t.Errorf("second member's Run: %v", err)
	}
	l.check(t, ends, false)
	l.mu.Lock()
	if l.byRun[1] == 0 || l.byRun[2] == 0 {
		t.Errorf("records handled by member: %v; want both members to handle some", l.byRun)
	}
	l.mu.Unlock()
	checkCommitted(t, addrs, ends)
}

// TestNewRefusesBadArguments: New says what is wrong with a client without
// a group, nil functions and bad options, and makes no client then.
func TestNewRefusesBadArguments(t *testing.T) {
	handle := func(context.Context, *kgo.Record) error { return nil }
	addrs := []string{"127.0.0.1:1"} // never dialled: New fails first
	group := []kgo.Opt{kgo.SeedBrokers(addrs...), kgo.ConsumerGroup(testGroup), kgo.ConsumeTopics(testTopic)}
	for _, tc := range []struct {
		name string
		make func() (*Consumer, error)
		want string
	}{
		{"no group", func() (*Consumer, error) {
			return New([]kgo.Opt{kgo.SeedBrokers(addrs...), kgo.ConsumeTopics(testTopic)}, konvoy.Convoy, 1, keyEvent, handle)
		}, "want kgo.ConsumerGroup among the client options"},
		{"nil handle", func() (*Consumer, error) { return New(group, konvoy.Convoy, 1, keyEvent, nil) }, "must not be nil"},
		{"nil event", func() (*Consumer, error) { return New(group, konvoy.Convoy, 1, nil, handle) }, "must not be nil"},
		{"no consumers", func() (*Consumer, error) { return New(group, konvoy.Convoy, 0, keyEvent, handle) }, "0 consumers"},
		{"interval", func() (*Consumer, error) {
			return New(group, konvoy.Convoy, 1, keyEvent, handle, WithCommitInterval(0))
		}, "WithCommitInterval(0s)"},
		{"revoke", func() (*Consumer, error) {
			return New(group, konvoy.Convoy, 1, keyEvent, handle, WithRevokeTimeout(-time.Second))
		}, "WithRevokeTimeout(-1s)"},
		{"close", func() (*Consumer, error) {
			return New(group, konvoy.Convoy, 1, keyEvent, handle, WithCloseTimeout(0))
		}, "WithCloseTimeout(0s)"},
		{"held", func() (*Consumer, error) { return New(group, konvoy.Convoy, 1, keyEvent, handle, WithMaxHeld(0)) }, "WithMaxHeld(0)"},
		{"dead letter", func() (*Consumer, error) {
			return New(group, konvoy.Convoy, 1, keyEvent, handle, WithDeadLetter(nil))
		}, "WithDeadLetter"},
		{"nil option", func() (*Consumer, error) { return New(group, konvoy.Convoy, 1, keyEvent, handle, nil) }, "option 0 is nil"},
		{"live dead letter", func() (*Consumer, error) {
			return New(group, konvoy.Convoy, 1, keyEvent, handle,
				WithExecutor(live.WithDeadLetter(func(context.Context, *kgo.Record, error) error { return nil })))
		}, "WithDeadLetter's function"},
	} {
		c, err := tc.make()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "kafka: New: ") {
			t.Errorf("%s: New returned %v, %v; want an error naming %q", tc.name, c, err, tc.want)
		}
	}
}
