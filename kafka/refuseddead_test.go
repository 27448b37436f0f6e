package kafka

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestARecordTheExecutorRefusesIsDeadLettered: under a dead letter a
// record whose event the executor refuses, by its contents (an empty line
// under line-convoy, a Step below 0), fails as a handler's failure does,
// with the refusal, and is dead-lettered; the records after it run, and
// the commits reach the end. WithDeadLetter's doc says so: a review found
// that such a record stopped the consumer, dead letter or not, so that a
// consumer restarted stopped on it again, for ever. (Without a dead
// letter it stops Run: TestARecordTheLayoutRefusesIsNamed.)
func TestARecordTheExecutorRefusesIsDeadLettered(t *testing.T) {
	for _, tc := range []struct {
		name   string
		layout konvoy.Layout
		bad    konvoy.Event // record 1's event; records 0 and 2 are good
		want   string       // in the dead letter's error
	}{
		{"empty line", konvoy.LineConvoy, konvoy.Event{Key: "k", Step: 1}, "Line is empty"},
		{"step below 0", konvoy.Convoy, konvoy.Event{Key: "k", Line: "l", Step: -1}, "Step is -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addrs := cluster(t, 1)
			produceTo(t, addrs, []*kgo.Record{
				{Topic: testTopic, Key: []byte("k")}, {Topic: testTopic, Key: []byte("k")}, {Topic: testTopic, Key: []byte("k")},
			})
			event := func(r *kgo.Record) konvoy.Event {
				if r.Offset == 1 {
					return tc.bad
				}
				return konvoy.Event{Key: "k", Line: "l", Step: 1}
			}
			var mu sync.Mutex
			var handled, dead []int64
			var deadErr error
			done := make(chan struct{})
			note := func() {
				if len(handled)+len(dead) == 3 {
					close(done)
				}
			}
			c, err := New(memberOpts(addrs), tc.layout, 2, event, func(_ context.Context, r *kgo.Record) error {
				mu.Lock()
				defer mu.Unlock()
				handled = append(handled, r.Offset)
				note()
				return nil
			}, WithCommitInterval(20*time.Millisecond), WithDeadLetter(func(_ context.Context, r *kgo.Record, err error) error {
				mu.Lock()
				defer mu.Unlock()
				dead, deadErr = append(dead, r.Offset), err
				note()
				return nil
			}))
			if err != nil {
				t.Fatal(err)
			}
			if err := runUntil(c, done); err != nil {
				t.Errorf("Run: %v; want nil", err)
			}
			mu.Lock()
			defer mu.Unlock()
			slices.Sort(handled)
			if !slices.Equal(handled, []int64{0, 2}) || !slices.Equal(dead, []int64{1}) {
				t.Fatalf("handled %v, dead-lettered %v; want 0 and 2 handled, 1 dead-lettered", handled, dead)
			}
			var ee *konvoy.EventError
			if !errors.As(deadErr, &ee) || !strings.Contains(deadErr.Error(), tc.want) || !strings.Contains(deadErr.Error(), "at offset 1") {
				t.Errorf("the dead letter's error: %v; want the refusal, an *konvoy.EventError saying %q, naming the record at offset 1", deadErr, tc.want)
			}
			checkCommitted(t, addrs, map[int32]int64{0: 3})
		})
	}
}

// TestALayoutThatDoesNotFitTheTopicStopsRunUnderADeadLetter: a Partition
// that recorded:N lacks tells a layout that does not fit the topic, not a
// bad record, so it stops Run, dead letter or not, rather than
// dead-letter every record of the partitions the layout lacks (a review
// found records of partitions 2 and 3 of 4 all dead-lettered under
// recorded:2, and Run returning nil).
func TestALayoutThatDoesNotFitTheTopicStopsRunUnderADeadLetter(t *testing.T) {
	addrs := cluster(t, 4)
	produceTo(t, addrs, []*kgo.Record{{Topic: testTopic, Partition: 3, Key: []byte("k")}})
	event := func(r *kgo.Record) konvoy.Event { return konvoy.Event{Key: "k", Partition: int(r.Partition)} }
	var dead atomic.Int64
	c, err := New(memberOpts(addrs), konvoy.Recorded(2), 1, event, func(context.Context, *kgo.Record) error { return nil },
		WithDeadLetter(func(context.Context, *kgo.Record, error) error { dead.Add(1); return nil }))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	err = c.Run(ctx)
	if ctx.Err() != nil {
		t.Fatalf("Run did not stop on the partition recorded:2 lacks within %v (%v)", testWait, err)
	}
	var ee *konvoy.EventError
	if !errors.As(err, &ee) || ee.Field != "Partition" || !strings.Contains(err.Error(), "events [3] at offset 0") || dead.Load() != 0 {
		t.Errorf("Run: %v, %d dead-lettered; want the layout's refusal of partition 3, naming the record, and none dead-lettered", err, dead.Load())
	}
}

// TestARefusedRecordsEventIsReadAtMostTwice: the executor reads the
// events of up to 64 records ahead of the one it refuses; the records
// from a refusal on go to it one a call, so that each record's event is
// read at most twice, however many are refused (a review counted 10,648
// reads for 200 refused records, up to 64 for one, where each record was
// submitted again after each refusal before it).
func TestARefusedRecordsEventIsReadAtMostTwice(t *testing.T) {
	addrs := cluster(t, 1)
	const n = 200
	rs := make([]*kgo.Record, n)
	for i := range rs {
		rs[i] = &kgo.Record{Topic: testTopic, Key: []byte("k")}
	}
	produceTo(t, addrs, rs)
	var mu sync.Mutex
	reads := map[int64]int{}
	handled, dead := 0, 0
	done := make(chan struct{})
	note := func() {
		if handled+dead == n {
			close(done)
		}
	}
	event := func(r *kgo.Record) konvoy.Event {
		mu.Lock()
		defer mu.Unlock()
		reads[r.Offset]++
		if r.Offset%3 == 0 {
			return konvoy.Event{Key: "k", Line: "l"}
		}
		return konvoy.Event{Key: "k"} // no line: line-convoy refuses it
	}
	c, err := New(memberOpts(addrs), konvoy.LineConvoy, 2, event, func(context.Context, *kgo.Record) error {
		mu.Lock()
		defer mu.Unlock()
		handled++
		note()
		return nil
	}, WithDeadLetter(func(context.Context, *kgo.Record, error) error {
		mu.Lock()
		defer mu.Unlock()
		dead++
		note()
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := runUntil(c, done); err != nil {
		t.Fatalf("Run: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if handled != (n+2)/3 || dead != n-(n+2)/3 {
		t.Errorf("%d handled, %d dead-lettered; want %d and %d", handled, dead, (n+2)/3, n-(n+2)/3)
	}
	most, total := 0, 0
	for _, k := range reads {
		most, total = max(most, k), total+k
	}
	if len(reads) != n || most > 2 {
		t.Errorf("the event function read %d records %d times, up to %d times for one; want %d records, at most twice each", len(reads), total, most, n)
	}
}

// runUntil runs c until done is closed, or testWait passes, and returns
// Run's error; or Run's error when it stops first.
func runUntil(c *Consumer, done <-chan struct{}) error {
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	ran := make(chan error, 1)
	go func() { ran <- c.Run(ctx) }()
	select {
	case <-done:
		cancel()
		return <-ran
	case err := <-ran: // stopped first
		return err
	}
}
