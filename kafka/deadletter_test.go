package kafka

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

const deadTopic = "events.dead"

// withHeaders returns n records over partitions partitions, each record's
// value its number and a header "trace" naming it, keys from 15.
func withHeaders(n int, partitions int32) []*kgo.Record {
	rs := make([]*kgo.Record, n)
	for i := range rs {
		rs[i] = &kgo.Record{
			Partition: int32(i) % partitions, Key: fmt.Appendf(nil, "k%02d", i%15), Value: fmt.Appendf(nil, "%d", i),
			Headers: []kgo.RecordHeader{{Key: "trace", Value: fmt.Appendf(nil, "t%d", i)}},
		}
	}
	return rs
}

// readTopic returns every record of topic, reading until the topic's end
// offsets, which it lists first.
func readTopic(t *testing.T, addrs []string, topic string) []*kgo.Record {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	ends, err := kadm.NewClient(cl).ListEndOffsets(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	want := int64(0)
	ends.Each(func(o kadm.ListedOffset) { want += o.Offset })
	var out []*kgo.Record
	for int64(len(out)) < want {
		fs := cl.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			t.Fatalf("read %d of %d records of %s: %v", len(out), want, topic, err)
		}
		out = append(out, fs.Records()...)
	}
	return out
}

// awaitEnds waits until the group committed ends, failing t after
// testWait; before the group's first commit, fetching its offsets fails.
func awaitEnds(t *testing.T, addrs []string, ends map[int32]int64) {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for {
		got, err := groupOffsets(t, addrs)
		at := topicOffsets(got)
		if err == nil && equalOffsets(at, ends) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("committed %v, %v after %v; want %v", at, err, testWait, ends)
		}
		time.Sleep(10 * time.Millisecond) // a poll, bounded by the deadline
	}
}

// checkDeadRecord fails t unless d is DeadLetterRecord's record of src,
// failed after attempts attempts with the error boom.
func checkDeadRecord(t *testing.T, d, src *kgo.Record, attempts int) {
	t.Helper()
	if string(d.Key) != string(src.Key) || string(d.Value) != string(src.Value) {
		t.Errorf("dead letter %q=%q; want the record's %q=%q", d.Key, d.Value, src.Key, src.Value)
	}
	want := []string{"trace=" + string(src.Headers[0].Value), "konvoy-error=boom", "konvoy-attempts=" + strconv.Itoa(attempts),
		"konvoy-topic=" + testTopic, fmt.Sprintf("konvoy-partition=%d", src.Partition), fmt.Sprintf("konvoy-offset=%d", src.Offset),
		fmt.Sprintf("konvoy-timestamp=%d", src.Timestamp.UnixMilli())}
	var got []string
	for _, h := range d.Headers {
		got = append(got, h.Key+"="+string(h.Value))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("dead letter of %s: headers %q; want %q", src.Value, got, want)
	}
}

// TestDeadLetterTopicTakesFailedRecords: a handler fails every seventh
// record on every attempt; with three attempts and a dead-letter topic,
// each of those records is in the topic once, with its key, value and
// headers and the headers naming the error, the attempts and the record,
// and the commits reach every partition's end.
func TestDeadLetterTopicTakesFailedRecords(t *testing.T) {
	kc, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(3, testTopic), kfake.SeedTopics(2, deadTopic))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kc.Close)
	addrs := kc.ListenAddrs()
	const n = 210
	rs := withHeaders(n, 3)
	produceTo(t, addrs, rs)
	var mu sync.Mutex
	tries := map[string]int{}
	handle := func(_ context.Context, r *kgo.Record) error {
		mu.Lock()
		defer mu.Unlock()
		tries[string(r.Value)]++
		if failing(r) {
			return errors.New("boom")
		}
		return nil
	}
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle, WithDeadLetterTopic(deadTopic),
		WithExecutor(live.WithRetry(live.Retry{Attempts: 3})), WithCommitInterval(5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	awaitEnds(t, addrs, map[int32]int64{0: n / 3, 1: n / 3, 2: n / 3})
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	dead := readTopic(t, addrs, deadTopic)
	if len(dead) != n/7 {
		t.Errorf("%d records in the dead-letter topic; want %d", len(dead), n/7)
	}
	seen := map[string]bool{}
	for _, d := range dead {
		i, err := strconv.Atoi(string(d.Value))
		if err != nil || i < 0 || i >= n || !failing(rs[i]) || seen[string(d.Value)] {
			t.Errorf("dead letter %q: not a failing record, or twice", d.Value)
			continue
		}
		seen[string(d.Value)] = true
		checkDeadRecord(t, d, rs[i], 3)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, r := range rs {
		if want := map[bool]int{true: 3, false: 1}[failing(r)]; tries[string(r.Value)] != want {
			t.Errorf("record %s tried %d times; want %d", r.Value, tries[string(r.Value)], want)
		}
	}
}

// TestDeadLetterTopicFailureStops: when the dead-letter topic does not
// exist, the produce of the one failing record fails (after franz-go's
// retries), and the consumer stops: Run returns an error naming the
// record and the broker's error, and its partition's commit stays at or
// below it, while no commit passes a record that did not finish.
func TestDeadLetterTopicFailureStops(t *testing.T) {
	addrs := cluster(t, 2)
	const n = 60
	rs := withHeaders(n, 2)
	produceTo(t, addrs, rs)
	var mu sync.Mutex
	done := map[[2]int64]bool{}
	handle := func(_ context.Context, r *kgo.Record) error {
		if string(r.Value) == "31" {
			return errors.New("boom")
		}
		mu.Lock()
		done[[2]int64{int64(r.Partition), r.Offset}] = true
		mu.Unlock()
		return nil
	}
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle, WithDeadLetterTopic(deadTopic),
		WithCommitInterval(5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	err = c.Run(ctx) // ends by itself: the executor stops
	bad := rs[31]
	name := fmt.Sprintf("record %s/%d at offset %d to dead-letter topic %q", testTopic, bad.Partition, bad.Offset, deadTopic)
	if !errors.Is(err, live.ErrStopped) || !errors.Is(err, kerr.UnknownTopicOrPartition) || !strings.Contains(err.Error(), name) {
		t.Fatalf("Run: %v; want live.ErrStopped, the unknown topic and %q", err, name)
	}
	mu.Lock()
	defer mu.Unlock()
	got := committed(t, addrs)
	if at, ok := got[bad.Partition]; ok && at > bad.Offset {
		t.Errorf("partition %d committed at %d, past the failed record at %d", bad.Partition, at, bad.Offset)
	}
	for p, at := range got {
		for o := range at {
			if !done[[2]int64{int64(p), o}] {
				t.Errorf("partition %d committed at %d past record %d, which did not finish", p, at, o)
			}
		}
	}
}

// TestNewRefusesBadDeadLetterTopics: New refuses an empty topic, and a
// dead-letter topic with a dead-letter function.
func TestNewRefusesBadDeadLetterTopics(t *testing.T) {
	handle := func(context.Context, *kgo.Record) error { return nil }
	group := []kgo.Opt{kgo.SeedBrokers("127.0.0.1:1"), kgo.ConsumerGroup(testGroup), kgo.ConsumeTopics(testTopic)}
	for _, tc := range []struct {
		opts []Option
		want string
	}{
		{[]Option{WithDeadLetterTopic("")}, "WithDeadLetterTopic: the topic is empty"},
		{[]Option{WithDeadLetterTopic("x"), WithDeadLetter(func(context.Context, *kgo.Record, error) error { return nil })},
			"WithDeadLetter and WithDeadLetterTopic"},
	} {
		if c, err := New(group, konvoy.Convoy, 1, keyEvent, handle, tc.opts...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New returned %v, %v; want an error naming %q", c, err, tc.want)
		}
	}
}

// TestNewRefusesADeadLetterTopicItReads: a dead-letter topic the consumer
// also reads would run each failed record again, and its dead letter, for
// ever: New refuses one named among the topics, or matched by a pattern
// under ConsumeRegex (anywhere in the name, as franz-go matches) and not
// excluded, and takes any other.
func TestNewRefusesADeadLetterTopicItReads(t *testing.T) {
	handle := func(context.Context, *kgo.Record) error { return nil }
	for _, tc := range []struct {
		name  string
		opts  []kgo.Opt
		reads bool
	}{
		{"named", []kgo.Opt{kgo.ConsumeTopics("orders", "orders-dlt")}, true},
		{"another", []kgo.Opt{kgo.ConsumeTopics("orders")}, false},
		{"matched", []kgo.Opt{kgo.ConsumeRegex(), kgo.ConsumeTopics("^orders")}, true},
		{"matched inside", []kgo.Opt{kgo.ConsumeRegex(), kgo.ConsumeTopics("ders-d")}, true},
		{"excluded", []kgo.Opt{kgo.ConsumeRegex(), kgo.ConsumeTopics("^orders"), kgo.ConsumeExcludeTopics("-dlt$")}, false},
		{"not matched", []kgo.Opt{kgo.ConsumeRegex(), kgo.ConsumeTopics("^orders$")}, false},
		{"named, not a pattern", []kgo.Opt{kgo.ConsumeTopics("orders.dlt")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := append([]kgo.Opt{kgo.SeedBrokers("127.0.0.1:1"), kgo.ConsumerGroup(testGroup)}, tc.opts...)
			c, err := New(opts, konvoy.Convoy, 1, keyEvent, handle, WithDeadLetterTopic("orders-dlt"))
			if err == nil {
				defer c.Close()
			}
			if refused := err != nil && strings.Contains(err.Error(), `WithDeadLetterTopic("orders-dlt")`); refused != tc.reads {
				t.Errorf("New returned %v; want it refused: %v", err, tc.reads)
			}
		})
	}
}

// TestDeadLetterRecordWithoutItemError: an error that is no
// *live.ItemError goes in the error header as it is, with no attempts
// header; a nil one leaves both out, and an ItemError without its cause
// the error header; the record given is not changed.
func TestDeadLetterRecordWithoutItemError(t *testing.T) {
	r := &kgo.Record{Topic: "t", Partition: 2, Offset: 9, Key: []byte("k"), Value: []byte("v"), Timestamp: time.UnixMilli(1234),
		Headers: []kgo.RecordHeader{{Key: "h", Value: []byte("1")}}}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{errors.New("plain"), "h=1 konvoy-error=plain konvoy-topic=t konvoy-partition=2 konvoy-offset=9 konvoy-timestamp=1234"},
		{nil, "h=1 konvoy-topic=t konvoy-partition=2 konvoy-offset=9 konvoy-timestamp=1234"},
		{fmt.Errorf("wrapped: %w", &live.ItemError{Attempts: 4, Err: errors.New("inner")}),
			"h=1 konvoy-error=inner konvoy-attempts=4 konvoy-topic=t konvoy-partition=2 konvoy-offset=9 konvoy-timestamp=1234"},
		{&live.ItemError{Attempts: 2}, "h=1 konvoy-attempts=2 konvoy-topic=t konvoy-partition=2 konvoy-offset=9 konvoy-timestamp=1234"},
	} {
		d := DeadLetterRecord("dlt", r, tc.err)
		var got []string
		for _, h := range d.Headers {
			got = append(got, h.Key+"="+string(h.Value))
		}
		if d.Topic != "dlt" || string(d.Key) != "k" || string(d.Value) != "v" || strings.Join(got, " ") != tc.want {
			t.Errorf("DeadLetterRecord(%v): topic %s, %s=%s, headers %q; want %q", tc.err, d.Topic, d.Key, d.Value, got, tc.want)
		}
	}
	if len(r.Headers) != 1 || r.Topic != "t" {
		t.Errorf("the record given changed: %+v", r)
	}
}

// A record read from a dead-letter topic that fails again carries each
// of konvoy's headers once, naming its new failure and where it was read,
// and keeps its other headers in their order.
func TestDeadLetterRecordReplacesAnEarlierFailuresHeaders(t *testing.T) {
	first := DeadLetterRecord("dlt", &kgo.Record{Topic: "t", Partition: 2, Offset: 9, Timestamp: time.UnixMilli(1234),
		Headers: []kgo.RecordHeader{{Key: "h", Value: []byte("1")}}}, &live.ItemError{Attempts: 3, Err: errors.New("first")})
	first.Partition, first.Offset, first.Timestamp = 0, 4, time.UnixMilli(5678)
	first.Headers = append(first.Headers, kgo.RecordHeader{Key: "after", Value: []byte("2")})
	d := DeadLetterRecord("dlt2", first, errors.New("second"))
	var got []string
	for _, h := range d.Headers {
		got = append(got, h.Key+"="+string(h.Value))
	}
	want := "h=1 after=2 konvoy-error=second konvoy-topic=dlt konvoy-partition=0 konvoy-offset=4 konvoy-timestamp=5678"
	if strings.Join(got, " ") != want {
		t.Errorf("headers %q; want %q", got, want)
	}
}

// deadLetterMember returns a consumer, not running and offline (see
// offlineOpts), assigned partition 0, whose handler fails every record
// after telling started, once failing is closed; dead is its dead letter.
func deadLetterMember(t *testing.T, started, failing chan struct{}, dead func(context.Context, *kgo.Record, error) error) (*Consumer, *part) {
	t.Helper()
	handle := func(context.Context, *kgo.Record) error {
		started <- struct{}{}
		<-failing
		return errors.New("boom")
	}
	c, err := New(offlineOpts(), konvoy.Convoy, 1, keyEvent, handle, WithDeadLetter(dead))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.cl.Close)
	c.assign(context.Background(), c.cl, map[string][]int32{testTopic: {0}})
	p := c.assigned[topicPartition{testTopic, 0}]
	if err := c.submit(context.Background(), topicPartition{testTopic, 0}, []*kgo.Record{{Topic: testTopic, Partition: 0, Offset: 0, Key: []byte("k")}}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(testWait):
		t.Fatal("the record never started")
	}
	return c, p
}

// TestRevokedRecordIsNotDeadLettered: a record whose partition is revoked
// while its last attempt runs is not given to the dead letter, since its
// next owner reads it again; its offset is the lowest not run.
func TestRevokedRecordIsNotDeadLettered(t *testing.T) {
	started, failing := make(chan struct{}, 1), make(chan struct{})
	var called int
	c, p := deadLetterMember(t, started, failing, func(context.Context, *kgo.Record, error) error {
		called++ // only the executor's goroutine calls it; Close orders it before the read
		return nil
	})
	c.stop(map[string][]int32{testTopic: {0}})
	close(failing)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	if err := c.x.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if called != 0 || p.skipFrom != 0 {
		t.Errorf("dead letter called %d times, first offset not run %d; want 0 calls, offset 0", called, p.skipFrom)
	}
}

// TestRevocationWaitsForTheDeadLetter: while a record's dead letter runs,
// its partition counts as busy, so a revocation waits for it; once it
// returns, the wait ends.
func TestRevocationWaitsForTheDeadLetter(t *testing.T) {
	started, failing := make(chan struct{}, 1), make(chan struct{})
	inDead, release := make(chan struct{}), make(chan struct{})
	close(failing)
	c, p := deadLetterMember(t, started, failing, func(context.Context, *kgo.Record, error) error {
		close(inDead)
		<-release
		return nil
	})
	select {
	case <-inDead:
	case <-time.After(testWait):
		t.Fatal("the dead letter never ran")
	}
	c.stop(map[string][]int32{testTopic: {0}})
	if !c.busy([]*part{p}) {
		t.Error("the partition is idle while its record's dead letter runs")
	}
	waited := make(chan struct{})
	go func() {
		c.awaitIdle([]*part{p}, 2*testWait)
		close(waited)
	}()
	time.Sleep(20 * time.Millisecond) // time for a wait that does not wait to end: none must
	select {
	case <-waited:
		t.Fatal("the revocation's wait ended while the dead letter ran")
	default:
	}
	close(release)
	select {
	case <-waited:
	case <-time.After(testWait):
		t.Fatal("the revocation still waits after the dead letter returned")
	}
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	if err := c.x.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestNewRefusesALiveDeadLetterBesideItsOwn: New refuses a
// live.WithDeadLetter, whose item is not a record, also beside
// WithDeadLetter or WithDeadLetterTopic: the consumer places its own dead
// letter before the caller's live options, so the caller's replaces it and
// live.New refuses its type, rather than the consumer's silently dropping
// the caller's.
func TestNewRefusesALiveDeadLetterBesideItsOwn(t *testing.T) {
	handle := func(context.Context, *kgo.Record) error { return nil }
	theirs := WithExecutor(live.WithDeadLetter(func(context.Context, *kgo.Record, error) error { return nil }))
	for _, tc := range []struct {
		name string
		ours Option
	}{
		{"WithDeadLetter", WithDeadLetter(func(context.Context, *kgo.Record, error) error { return nil })},
		{"WithDeadLetterTopic", WithDeadLetterTopic("dead")},
	} {
		name, ours := tc.name, tc.ours
		c, err := New(offlineOpts(), konvoy.Convoy, 1, keyEvent, handle, theirs, ours)
		if err == nil {
			_ = c.Run(canceled()) // release the client
			t.Errorf("New with live.WithDeadLetter and %s: no error; want New to refuse the live dead letter, which is never called", name)
		}
	}
}

// canceled returns a context already done.
func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// New refuses a live.WithGuard given through WithExecutor, as it does a
// live.WithDeadLetter: its item type is not the consumer's, and the
// consumer's own guard, which keeps revoked records from running, must
// not be replaced, nor the caller's dropped without a word.
func TestNewRefusesALiveGuard(t *testing.T) {
	called := false
	theirs := live.WithGuard(
		func(context.Context, *kgo.Record) bool { called = true; return true },
		func(context.Context, *kgo.Record, error) { called = true })
	c, err := New(offlineOpts(), konvoy.Convoy, 1, keyEvent, func(context.Context, *kgo.Record) error { return nil }, WithExecutor(theirs))
	if err == nil {
		_ = c.Run(canceled()) // release the client
		t.Errorf("New with WithExecutor(live.WithGuard(...)): no error; want New to refuse the guard, which is never called (called: %v)", called)
	} else if !strings.Contains(err.Error(), "WithGuard") {
		t.Errorf("New: %v; want an error naming WithGuard", err)
	}
}

// TestADeadLetterFailingAfterARevocationDropsTheRecord: a record's dead
// letter starts while its partition is owned and fails once the partition
// was revoked. The record is the next owner's by then, which reads it
// again, so the member drops it and goes on, as it does a record whose
// last attempt fails after a revocation; its offset is the lowest not run,
// so no commit names it finished.
func TestADeadLetterFailingAfterARevocationDropsTheRecord(t *testing.T) {
	started, failing := make(chan struct{}, 1), make(chan struct{})
	inDead, revoked := make(chan struct{}), make(chan struct{})
	close(failing)
	c, p := deadLetterMember(t, started, failing, func(context.Context, *kgo.Record, error) error {
		close(inDead)
		<-revoked
		return errors.New("produce: broker unreachable")
	})
	select {
	case <-inDead:
	case <-time.After(testWait):
		t.Fatal("the dead letter never started")
	}
	c.stop(map[string][]int32{testTopic: {0}})
	close(revoked)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	if err := c.x.Close(ctx); err != nil {
		t.Fatalf("Close: %v; want nil: the revoked partition's record is the next owner's", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p.skipFrom != 0 {
		t.Errorf("first offset not run %d; want 0", p.skipFrom)
	}
}
