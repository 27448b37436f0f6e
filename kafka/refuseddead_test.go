package kafka

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
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
			ctx, cancel := context.WithTimeout(context.Background(), testWait)
			defer cancel()
			ran := make(chan error, 1)
			go func() { ran <- c.Run(ctx) }()
			select {
			case <-done:
				cancel()
				err = <-ran
			case err = <-ran: // stopped before it ran the three
			}
			if err != nil {
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
