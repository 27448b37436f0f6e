package kafka

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kgo"
)

// lineOfRecordsAfterTheFirst is an event function whose record 0 has no
// line, which line-convoy refuses; the others have one.
func lineOfRecordsAfterTheFirst(r *kgo.Record) konvoy.Event {
	if r.Offset == 0 {
		return konvoy.Event{Key: "k"}
	}
	return konvoy.Event{Key: "k", Line: "l", Step: 1}
}

// awaitStopped waits until a failure stopped c's executor.
func awaitStopped(t *testing.T, c *Consumer) {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for {
		if _, stopped := c.room(); stopped {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the executor never stopped")
		}
		time.Sleep(time.Millisecond)
	}
}

// Under a dead letter, once a refused record's dead letter failed and
// stopped the executor, the next submit must return the executor's stop
// (an error wrapping live.ErrStopped). The stop error wraps the failed
// record's error, the refusal (*konvoy.EventError, Field "Line"), so
// submitAll takes it for a new refusal and submits the same record again,
// for ever: submit never returns while its context lasts.
// TestASubmitAfterARefusedRecordsDeadLetterFailedReturns: once the dead
// letter of a record the executor refused has failed, the executor has
// stopped, and its error wraps the refusal; a submit then returns that
// stop, rather than take it for a record refused again and submit the
// record for ever (a review found submit spinning until its context
// ended).
func TestASubmitAfterARefusedRecordsDeadLetterFailedReturns(t *testing.T) {
	c, err := New(offlineOpts(), konvoy.LineConvoy, 1, lineOfRecordsAfterTheFirst, func(context.Context, *kgo.Record) error { return nil },
		WithDeadLetter(func(context.Context, *kgo.Record, error) error { return errors.New("dead letter down") }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.cl.Close)
	c.assign(context.Background(), c.cl, map[string][]int32{testTopic: {0}})
	tp := topicPartition{testTopic, 0}
	if err := c.submit(context.Background(), tp, []*kgo.Record{{Topic: testTopic, Offset: 0, Key: []byte("k")}}); err != nil {
		t.Fatal(err) // the refused record is taken, to be dead-lettered
	}
	awaitStopped(t, c) // its dead letter failed
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- c.submit(ctx, tp, []*kgo.Record{{Topic: testTopic, Offset: 1, Key: []byte("k")}}) }()
	select {
	case err := <-done:
		if !errors.Is(err, live.ErrStopped) {
			t.Errorf("submit: %v; want the executor's stop", err)
		}
	case <-time.After(5 * time.Second):
		cancel() // ends the loop: SubmitAll checks ctx first
		err := <-done
		t.Errorf("submit into the stopped executor did not return within 5 s (it returned %v once its context ended): submitAll takes the stop, which wraps the refused record's *konvoy.EventError, for a refusal and submits the record again and again", err)
	}
}

// The same through Run: the refused record 0's dead letter fails once
// record 1 was polled, and record 1 is submitted after the executor
// stopped. Run must return the failure (the dead letter's error) at once;
// it spins in the poll loop instead until its context ends.
// TestRunStopsWhenARefusedRecordsDeadLetterFails: Run returns the dead
// letter's failure at once, though the records polled after it are
// submitted once the executor stopped (a review found Run spinning until
// its context's deadline).
func TestRunStopsWhenARefusedRecordsDeadLetterFails(t *testing.T) {
	addrs := cluster(t, 1)
	produceTo(t, addrs, []*kgo.Record{{Topic: testTopic, Key: []byte("k")}})
	release := make(chan struct{})
	var once sync.Once
	var c *Consumer
	event := func(r *kgo.Record) konvoy.Event {
		if r.Offset == 1 {
			once.Do(func() {
				close(release) // the dead letter of record 0 fails now
				awaitStopped(t, c)
			})
		}
		return lineOfRecordsAfterTheFirst(r)
	}
	inDead := make(chan struct{})
	var err error
	c, err = New(memberOpts(addrs), konvoy.LineConvoy, 1, event, func(context.Context, *kgo.Record) error { return nil },
		WithDeadLetter(func(context.Context, *kgo.Record, error) error {
			close(inDead)
			<-release
			return errors.New("dead letter down")
		}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	ran := make(chan error, 1)
	go func() { ran <- c.Run(ctx) }()
	select {
	case <-inDead:
	case <-time.After(testWait):
		t.Fatal("record 0 was never dead-lettered")
	}
	produceTo(t, addrs, []*kgo.Record{{Topic: testTopic, Key: []byte("k")}})
	start := time.Now()
	err = <-ran
	took := time.Since(start)
	if took > 5*time.Second || err == nil || !strings.Contains(err.Error(), "dead letter down") {
		t.Errorf("Run returned after %v: %v; want it at once, with the dead letter's error", took.Round(time.Millisecond), err)
	}
}
