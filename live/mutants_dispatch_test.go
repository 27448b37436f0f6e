package live_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// TestWaitOfAnItemForAnIdleConsumer: an item that a consumer idle since
// New takes waits from its submission, which SubmitAll reads before it
// calls the event function, to the consumer's start, after it was woken;
// so its wait is at least the time the event function took. A consumer
// that was parked counts its start from when it woke, not from any time
// before (found by mutation testing: the start taken as time 1 after a
// park gave every such item a wait of 0).
func TestWaitOfAnItemForAnIdleConsumer(t *testing.T) {
	const slow = 5 * time.Millisecond
	x, err := live.New(konvoy.Free, 1, func(int) konvoy.Event {
		time.Sleep(slow) // between SubmitAll's clock reading and the item's admission
		return konvoy.Event{}
	}, func(context.Context, int) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if n, err := x.SubmitAll(context.Background(), []int{0}); n != 1 || err != nil {
		t.Fatalf("SubmitAll: %d, %v", n, err)
	}
	if err := x.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := x.Stats()
	if s.Done != 1 || s.Wait.Max < int(slow) || s.Response.Max < s.Wait.Max {
		t.Fatalf("Stats: Done %d, Wait %+v, Response %+v; want a wait of %v or more", s.Done, s.Wait, s.Response, slow)
	}
}

// TestResponseIsFromSubmissionToFinish: an item's response is the time
// from its submission to its finish, so it is no longer than the time
// from the Submit call to Close's return, and no shorter than its wait,
// however long after New it was submitted (found by mutation testing:
// the finish plus the submission time, rather than less it, went
// unnoticed; the sleep puts the submission 50 ms past the executor's
// epoch, so that such a sum would pass the time measured here).
func TestResponseIsFromSubmissionToFinish(t *testing.T) {
	x, err := live.New(konvoy.Free, 1, func(int) konvoy.Event { return konvoy.Event{} },
		func(context.Context, int) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	before := time.Now()
	if err := x.Submit(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(before)
	s := x.Stats()
	if s.Done != 1 || s.Response.Max > int(elapsed) || s.Response.Max < s.Wait.Max {
		t.Fatalf("Stats: Done %d, Wait %+v, Response %+v; want a response from %d to %v", s.Done, s.Wait, s.Response, s.Wait.Max, elapsed)
	}
}

// TestStaticOwnersOfPartitionsPastTheKept: under Static, each partition's
// items run on the consumer the simulator deals it to
// (konvoy.Layout.Owner), for recorded partitions numbered past the 1,024 whose
// owners the executor keeps once found, with four and five digits, met
// between items of small partitions: the owner kept for one partition is
// never another's (found by mutation testing: a large partition's number
// read as 1, its owner kept as partition 1's, went unnoticed).
func TestStaticOwnersOfPartitionsPastTheKept(t *testing.T) {
	for _, n := range []int{2000, 20000} {
		for _, a := range []konvoy.Assignor{konvoy.RangeAssignor, konvoy.RoundRobinAssignor} {
			layout := konvoy.Recorded(n) // lanes named by Event.Partition
			parts := []int{1, 1500, 1, n - 1, 1, 1023, 1024, 1500, 0}
			ran := make([]int, len(parts))
			x, err := live.New(layout, 4, func(i int) konvoy.Event { return konvoy.Event{Key: "k", Partition: parts[i]} },
				func(ctx context.Context, i int) error {
					ran[i], _ = live.Consumer(ctx)
					return nil
				}, live.WithPolicy(konvoy.Static), live.WithAssignor(a))
			if err != nil {
				t.Fatal(err)
			}
			for i := range parts {
				if err := x.Submit(context.Background(), i); err != nil {
					t.Fatal(err)
				}
			}
			if err := x.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			for i, p := range parts {
				lane, _, _ := layout.Lane(konvoy.Event{Key: "k", Partition: p})
				if want := layout.Owner(a, lane, 0, 4); ran[i] != want {
					t.Errorf("%v of %d partitions, item %d of partition %d: consumer %d; want %d", a, n, i, p, ran[i], want)
				}
			}
		}
	}
}

// TestStoppedCloseWaitsForTheFirstItem: once a failure has stopped the
// executor, Close waits for the items still running, the very first one
// (submission number 0) included, and, when its context ends first,
// cancels them and names them among the items not run. Item 0 runs until
// its context ends; item 1, of another lane, fails once item 0 runs,
// stopping the executor; Close, with a context ended already, must cancel
// item 0 rather than take the executor for drained and wait for item 0
// for ever (found by mutation testing: a consumer holding item 0 taken
// for idle, cur > 0 for cur ≥ 0, went unnoticed).
func TestStoppedCloseWaitsForTheFirstItem(t *testing.T) {
	running := make(chan struct{})
	fail := errors.New("item 1 fails")
	x, err := live.New(konvoy.Convoy, 2, func(i int) konvoy.Event { return konvoy.Event{Key: strconv.Itoa(i)} },
		func(ctx context.Context, i int) error {
			if i == 0 {
				close(running)
				<-ctx.Done()
				return ctx.Err()
			}
			<-running
			return fail
		})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := x.Submit(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if _, err := x.Room(); errors.Is(err, live.ErrStopped) {
			break
		}
		if time.Now().After(end) {
			t.Fatal("item 1's failure never stopped the executor")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	closed := make(chan error, 1)
	go func() { closed <- x.Close(ctx) }()
	select {
	case err = <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close, its context ended, still waits for item 0, which runs until its context ends")
	}
	var u *live.UnrunError[int]
	if !errors.As(err, &u) || !slices.Equal(u.Items, []int{0}) || !errors.Is(err, context.Canceled) || !errors.Is(err, fail) {
		t.Fatalf("Close: %v; want item 0 not run, context.Canceled, and item 1's failure", err)
	}
}

// TestPoliciesUnderContention: under every policy, six consumers and
// three goroutines submitting items of seven lanes at once, with room for
// 64, run every item, three times over. Consumers park and wake all the time: under
// lane-aware the lanes' next items pass through the heap of ready items,
// which a consumer may find empty under its lock although its count, read
// before, said it held one; under static a Submit may wake the owner of
// its item's lane just as the owner, finding the item, takes itself off
// the list of parked consumers (found by mutation testing: the heap read
// as not empty when it held none, len ≥ 0 for len > 0, went unnoticed).
func TestPoliciesUnderContention(t *testing.T) {
	const submitters, each = 3, 10000
	for _, p := range konvoy.Policies() {
		for range 3 {
			x, err := live.New(konvoy.Convoy, 6, func(i int) konvoy.Event { return konvoy.Event{Key: strconv.Itoa(i % 7)} },
				func(context.Context, int) error { return nil }, live.WithMaxHeld(64), live.WithPolicy(p))
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			for s := range submitters {
				wg.Go(func() {
					for i := range each {
						if err := x.Submit(context.Background(), i*submitters+s); err != nil {
							t.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			if err := x.Close(context.Background()); err != nil {
				t.Fatal(p, err)
			}
			if s := x.Stats(); s.Done != submitters*each || s.Events != submitters*each {
				t.Fatalf("%v: Done %d of Events %d; want %d", p, s.Done, s.Events, submitters*each)
			}
		}
	}
}
