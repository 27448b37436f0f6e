package live

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"pgregory.net/rapid"
)

// ev is the event of an item that is its own event.
func ev(e konvoy.Event) konvoy.Event { return e }

// mustClose closes x with a deadline and returns Close's error.
func mustClose[T any](_ any, x *Executor[T]) error {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	return x.Close(ctx)
}

// waitFor waits until ch is closed, failing t at the deadline.
func waitFor(t testing.TB, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(deadline):
		t.Fatalf("%s never happened", what)
	}
}

// The policies differ where the model says they do: two consumers, a1
// running, a2 after it in lane a, b1 in lane b. a1's handler returns,
// under lane-aware, once b1 has started, and under head-of-line once a2's
// consumer is blocked on lane a (either wait bounded by deadline).
// Lane-aware gives b1 to the free consumer at once; head-of-line gives it
// a2 and blocks it until a1 finishes, so b1 starts only after a1 has
// finished, and the blocked time shows in the Stats.
func TestHeadOfLineBlocksWhereLaneAwareDoesNot(t *testing.T) {
	for _, p := range []konvoy.Policy{konvoy.LaneAware, konvoy.HeadOfLine} {
		var mu sync.Mutex
		var order []string
		bStarted := make(chan struct{})
		var x *Executor[konvoy.Event]
		var err error
		x, err = New(konvoy.Convoy, 2, ev, func(ctx context.Context, e konvoy.Event) error {
			name := fmt.Sprint(e.Key, e.Step)
			mu.Lock()
			order = append(order, "start "+name)
			mu.Unlock()
			switch name {
			case "b1":
				close(bStarted)
			case "a1":
				if p == konvoy.HeadOfLine {
					// b1 cannot start: a1 waits until a2's consumer blocks
					// behind it (a wait of 10 ms ran out first under load,
					// and nothing blocked)
					for end := time.Now().Add(deadline); !laneWaiterBlocked(x, "a"); runtime.Gosched() {
						if time.Now().After(end) {
							t.Error("a2's consumer never blocked on lane a")
							break
						}
					}
					break
				}
				select { // lane-aware: b1 starts while a1 runs
				case <-bStarted:
				case <-time.After(deadline):
				}
			}
			mu.Lock()
			order = append(order, "end "+name)
			mu.Unlock()
			return nil
		}, WithPolicy(p))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []konvoy.Event{{Key: "a", Step: 1}, {Key: "a", Step: 2}, {Key: "b", Step: 1}} {
			if err := x.Submit(context.Background(), e); err != nil {
				t.Fatal(err)
			}
		}
		if err := mustClose(t, x); err != nil {
			t.Fatal(err)
		}
		bStart, aEnd := slices.Index(order, "start b1"), slices.Index(order, "end a1")
		if p == konvoy.LaneAware && bStart > aEnd || p == konvoy.HeadOfLine && bStart < aEnd {
			t.Errorf("%v: %v", p, order)
		}
		if st := x.Stats(); (st.Blocked > 0) != (p == konvoy.HeadOfLine) {
			t.Errorf("%v: blocked %v", p, st.Blocked)
		}
	}
}

// Under Static every lane runs on the consumer the simulator deals it to
// (konvoy.Layout.Owner, lanes numbered in the order first seen), for the
// partitions of a topic under each assignor and for key lanes.
func TestStaticRunsLanesOnTheirOwners(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		layout := rapid.SampledFrom([]konvoy.Layout{konvoy.Convoy, konvoy.Partitioned(5), konvoy.Recorded(4)}).Draw(t, "layout")
		c := rapid.IntRange(1, 4).Draw(t, "consumers")
		a := rapid.SampledFrom([]konvoy.Assignor{0, konvoy.FirstSeenAssignor, konvoy.RangeAssignor, konvoy.RoundRobinAssignor}).Draw(t, "assignor")
		events := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) konvoy.Event {
			return konvoy.Event{Key: rapid.SampledFrom([]string{"a", "b", "c", "d", "e", "f", "g"}).Draw(t, "key"), Partition: rapid.IntRange(0, 3).Draw(t, "partition")}
		}), 0, 30).Draw(t, "events")
		var mu sync.Mutex
		ran := map[int]int{} // by submission number: the consumer
		type item struct {
			seq int
			e   konvoy.Event
		}
		opts := []Option{WithPolicy(konvoy.Static)}
		if a != 0 {
			opts = append(opts, WithAssignor(a))
		}
		x, err := New(layout, c, func(it item) konvoy.Event { return it.e }, func(ctx context.Context, it item) error {
			w, ok := Consumer(ctx)
			if !ok {
				return errors.New("no consumer in the context")
			}
			mu.Lock()
			ran[it.seq] = w
			mu.Unlock()
			return nil
		}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range events {
			if err := x.Submit(context.Background(), item{i, e}); err != nil {
				t.Fatal(err)
			}
		}
		if err := mustClose(t, x); err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for i, e := range events {
			lane, _, _ := layout.Lane(e)
			if _, ok := seen[lane]; !ok {
				seen[lane] = len(seen)
			}
			if want := layout.Owner(a, lane, seen[lane], c); ran[i] != want {
				t.Fatalf("item %d, lane %q of %s under %v: ran on consumer %d; the simulator deals it to %d", i, lane, layout, a, ran[i], want)
			}
		}
	})
}

// Submit waits while the executor holds its most, and gives up when its
// context ends; Submit after Close, and a second Close, return ErrClosed.
func TestSubmitWaitsWhileFull(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	x, err := New(konvoy.Convoy, 1, ev, func(ctx context.Context, e konvoy.Event) error {
		started <- struct{}{}
		<-release
		return nil
	}, WithMaxHeld(2))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b"} {
		if err := x.Submit(context.Background(), konvoy.Event{Key: k}); err != nil {
			t.Fatal(err)
		}
	}
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := x.Submit(ctx, konvoy.Event{Key: "c"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Submit with an ended context: %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if err := x.Submit(ctx, konvoy.Event{Key: "c"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Submit to a full executor: %v; want the context's deadline", err)
	}
	if st := x.Stats(); st.Events != 2 || st.Held != 1 || st.InFlight != 1 {
		t.Fatalf("full: %+v", st)
	}
	done := make(chan error)
	go func() { done <- x.Submit(context.Background(), konvoy.Event{Key: "c"}) }()
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("Submit once room was made: %v", err)
	}
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), konvoy.Event{Key: "d"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Submit after Close: %v", err)
	}
	if err := mustClose(t, x); !errors.Is(err, ErrClosed) {
		t.Fatalf("second Close: %v", err)
	}
	if st := x.Stats(); st.Done != 3 || st.Events != 3 {
		t.Fatalf("after Close: %+v", st)
	}
}

// A panic becomes an ItemError naming the item, holding a PanicError;
// without a dead letter it stops the executor: Submit then returns
// ErrStopped, the failed lane runs nothing more, and Close returns the
// failure with the items that did not run.
func TestFailureStopsTheExecutor(t *testing.T) {
	started, proceed := make(chan struct{}), make(chan struct{})
	var once sync.Once
	x, err := New(konvoy.Convoy, 1, ev, func(ctx context.Context, e konvoy.Event) error {
		if e.Step == 1 {
			once.Do(func() { close(started); <-proceed })
			panic("boom")
		}
		return nil
	}, WithRetry(Retry{Attempts: 2}))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), konvoy.Event{Key: "k", Step: 1}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, started, "the first attempt")
	for range 5 { // held behind the failing item: never run
		if err := x.Submit(context.Background(), konvoy.Event{Key: "k", Step: 2}); err != nil {
			t.Fatal(err)
		}
	}
	close(proceed)
	for {
		err := x.Submit(context.Background(), konvoy.Event{Key: "k", Step: 2})
		if errors.Is(err, ErrStopped) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	err = mustClose(t, x)
	var ie *ItemError
	var pe *PanicError
	if !errors.Is(err, ErrStopped) || !errors.As(err, &ie) || !errors.As(err, &pe) || ie.Seq != 0 || ie.Attempts != 2 || pe.Value != "boom" {
		t.Fatalf("Close: %v", err)
	}
	if !strings.Contains(err.Error(), `item 0 (key "k", step 1, lane "k"): 2 attempts: panic: boom`) {
		t.Errorf("Close's message: %v", err)
	}
	st := x.Stats()
	if st.Done != 0 || st.Failed != 1 || st.Errors != 2 || st.Retries != 1 {
		t.Errorf("stats: %+v", st)
	}
	var u *UnrunError[konvoy.Event]
	if n := st.Events - 1; n < 5 || (!errors.As(err, &u) || len(u.Items) != n || !errors.Is(u, ErrStopped)) {
		t.Errorf("%d submitted after the failed item; Close: %v", n, err)
	}
}

// New refuses what it cannot run, with an error rather than a panic.
func TestNewRefuses(t *testing.T) {
	h := func(context.Context, konvoy.Event) error { return nil }
	for name, f := range map[string]func() error{
		"no consumers": func() error { _, err := New(konvoy.Convoy, 0, ev, h); return err },
		"nil event":    func() error { _, err := New(konvoy.Convoy, 1, nil, h); return err },
		"nil handle":   func() error { _, err := New[konvoy.Event](konvoy.Convoy, 1, ev, nil); return err },
		"nil option":   func() error { _, err := New(konvoy.Convoy, 1, ev, h, nil); return err },
		"policy":       func() error { _, err := New(konvoy.Convoy, 1, ev, h, WithPolicy(7)); return err },
		"assignor":     func() error { _, err := New(konvoy.Convoy, 1, ev, h, WithAssignor(9)); return err },
		"max held":     func() error { _, err := New(konvoy.Convoy, 1, ev, h, WithMaxHeld(0)); return err },
		"retry":        func() error { _, err := New(konvoy.Convoy, 1, ev, h, WithRetry(Retry{Jitter: 2})); return err },
		"dead letter":  func() error { _, err := New(konvoy.Convoy, 1, ev, h, WithDeadLetter[konvoy.Event](nil)); return err },
		"dead type": func() error {
			_, err := New(konvoy.Convoy, 1, ev, h, WithDeadLetter(func(context.Context, int, error) error { return nil }))
			return err
		},
		"versions":       func() error { _, err := New(konvoy.VersionStamp, 1, ev, h, WithVersions(nil)); return err },
		"many consumers": func() error { _, err := New(konvoy.Convoy, MaxConsumers+1, ev, h); return err },
	} {
		if err := f(); err == nil || !strings.HasPrefix(err.Error(), "live: New") {
			t.Errorf("%s: %v; want a live: New error", name, err)
		}
	}
}

// Submit refuses an item whose event the layout cannot place, naming its
// field and the submission number it would have had.
func TestSubmitRefusesAnUnplaceableEvent(t *testing.T) {
	x, err := New(konvoy.LineConvoy, 1, ev, func(context.Context, konvoy.Event) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), konvoy.Event{Key: "a", Line: "l"}); err != nil {
		t.Fatal(err)
	}
	err = x.Submit(context.Background(), konvoy.Event{Key: "b"})
	var ee *konvoy.EventError
	if !errors.As(err, &ee) || ee.Field != "Line" || ee.Index != 1 {
		t.Fatalf("Submit without a line: %v", err)
	}
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
}

// A retry's pauses double from Base up to Cap, less a jitter drawn from
// the seed, the item and the attempt alone: the same for the same three,
// within the bounds, and different seeds draw differently.
func TestRetryPauses(t *testing.T) {
	r := Retry{Attempts: 6, Base: time.Millisecond, Cap: 5 * time.Millisecond}
	var got []time.Duration
	for k := 1; k < 6; k++ {
		got = append(got, r.pause(7, k))
	}
	want := []time.Duration{1, 2, 4, 5, 5}
	for i := range want {
		want[i] *= time.Millisecond
	}
	if !slices.Equal(got, want) {
		t.Fatalf("pauses %v; want %v", got, want)
	}
	r.Jitter, r.Seed = 0.5, 1
	s2 := r
	s2.Seed = 2
	differ := false
	for seq := range uint64(50) {
		for k := 1; k < 6; k++ {
			p := r.pause(seq, k)
			if p != r.pause(seq, k) || p > want[k-1] || p < want[k-1]/2 {
				t.Fatalf("item %d attempt %d: pause %v; want the same each time, from %v to %v", seq, k, p, want[k-1]/2, want[k-1])
			}
			differ = differ || p != s2.pause(seq, k)
		}
	}
	if !differ {
		t.Error("seeds 1 and 2 draw the same jitter")
	}
	if p := (Retry{Base: time.Duration(1) << 61}).pause(0, 60); p <= 0 {
		t.Errorf("a long backoff overflows: %v", p)
	}
	// A pause takes at most 63 doublings, whatever the attempt: with Base
	// 0, which never doubles, the last of math.MaxInt attempts pauses 0
	// at once, not after a loop over every attempt before it.
	if p := (Retry{Attempts: math.MaxInt}).pause(0, math.MaxInt); p != 0 {
		t.Errorf("Base 0: pause %v; want 0", p)
	}
}

// The executor pauses between attempts as Retry says, per item: the
// pauses it asks for are Retry.pause's for the item and attempt.
func TestRetryAsksForItsPauses(t *testing.T) {
	r := Retry{Attempts: 3, Base: time.Millisecond, Jitter: 1, Seed: 9}
	var mu sync.Mutex
	var asked []time.Duration
	x, err := New(konvoy.Convoy, 1, ev, func(ctx context.Context, e konvoy.Event) error {
		return errors.New("no")
	}, WithRetry(r), WithDeadLetter(func(context.Context, konvoy.Event, error) error { return nil }),
		withSleep(func(ctx context.Context, d time.Duration) error {
			mu.Lock()
			asked = append(asked, d)
			mu.Unlock()
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := x.Submit(context.Background(), konvoy.Event{Key: "k"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{r.pause(0, 1), r.pause(0, 2), r.pause(1, 1), r.pause(1, 2)}
	if !slices.Equal(asked, want) {
		t.Errorf("pauses %v; want %v", asked, want)
	}
	if st := x.Stats(); st.DeadLetters != 2 || st.Errors != 6 || st.Retries != 4 || st.Done != 0 {
		t.Errorf("stats %+v", st)
	}
}

// A dead letter that fails stops the executor as a failed item would, and
// its error says both.
func TestFailingDeadLetterStops(t *testing.T) {
	x, err := New(konvoy.Free, 1, ev, func(context.Context, konvoy.Event) error { return errors.New("handler") },
		WithDeadLetter(func(context.Context, konvoy.Event, error) error { panic("dead letter") }))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), konvoy.Event{Key: "k"}); err != nil {
		t.Fatal(err)
	}
	err = mustClose(t, x)
	var pe *PanicError
	if !errors.Is(err, ErrStopped) || !errors.As(err, &pe) || !strings.Contains(err.Error(), "dead letter: panic: dead letter; after handler") {
		t.Fatalf("Close: %v", err)
	}
}

// Under head-of-line a consumer blocked on its item's lane leaves the next
// item to the next free consumer, as the model dispatches: on three
// consumers a1 runs, a2's consumer blocks behind it, and b1 starts on the
// third while a1 still runs (a1 waits for b1 to start).
func TestHeadOfLineGivesTheNextItemToTheNextConsumer(t *testing.T) {
	bStarted := make(chan struct{})
	var aWaited time.Duration
	x, err := New(konvoy.Convoy, 3, ev, func(ctx context.Context, e konvoy.Event) error {
		switch {
		case e.Key == "b":
			close(bStarted)
		case e.Step == 1:
			t0 := time.Now()
			select {
			case <-bStarted:
			case <-time.After(deadline):
			}
			aWaited = time.Since(t0)
		}
		return nil
	}, WithPolicy(konvoy.HeadOfLine))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []konvoy.Event{{Key: "a", Step: 1}, {Key: "a", Step: 2}, {Key: "b", Step: 1}} {
		if err := x.Submit(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	if aWaited >= deadline {
		t.Errorf("b1 never started while a1 ran")
	}
}

// WithMaxHeld takes no more items than a slot's int32 number can count,
// where an int can say more.
func TestMaxHeldFitsInt32(t *testing.T) {
	if math.MaxInt == math.MaxInt32 {
		t.Skip("an int holds no more than int32 here")
	}
	n := math.MaxInt
	if _, err := New(konvoy.Convoy, 1, ev, func(context.Context, konvoy.Event) error { return nil }, WithMaxHeld(n)); err == nil {
		t.Errorf("WithMaxHeld(%d) taken", n)
	}
}

// Submit allocates nothing once the executor has held as many items and
// lanes as it holds now, under each policy: the zero allocations
// per item in steady state, which an escaping local once broke unseen.
func TestSubmitAllocatesNothingInSteadyState(t *testing.T) {
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprint("key-", i)
	}
	for _, tc := range []struct {
		layout konvoy.Layout
		policy konvoy.Policy
	}{{konvoy.Convoy, konvoy.LaneAware}, {konvoy.Convoy, konvoy.HeadOfLine}, {konvoy.Partitioned(8), konvoy.Static}} {
		x, err := New(tc.layout, 4, func(i int) konvoy.Event { return konvoy.Event{Key: keys[i%len(keys)]} },
			func(context.Context, int) error { return nil }, WithPolicy(tc.policy))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		i := 0
		submit := func() {
			if err := x.Submit(ctx, i); err != nil {
				t.Fatal(err)
			}
			i++
		}
		for range 20_000 { // the executor grows to what it holds
			submit()
		}
		if n := testing.AllocsPerRun(5_000, submit); n > 0 {
			t.Errorf("%s, %s: %v allocations a Submit", tc.layout, tc.policy, n)
		}
		if err := x.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// Under lane-aware one consumer runs items in the order submitted,
// whatever their lanes: when it finishes an item, every older item has run
// or can start, so the oldest that can start is the next submitted. So the
// consumer that frees a lane takes the lane's next item only when nothing
// older can start, not because it holds it (see takeReady). The first
// item's handler waits until every item is submitted, so that the lanes
// have items waiting behind it.
func TestOneLaneAwareConsumerRunsItemsInSubmissionOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOfN(rapid.SampledFrom([]string{"a", "b", "c", ""}), 1, 30).Draw(t, "keys")
		release := make(chan struct{})
		var ran []int
		x, err := New(konvoy.Convoy, 1, ev, func(_ context.Context, e konvoy.Event) error {
			if len(ran) == 0 {
				<-release
			}
			ran = append(ran, e.Step)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range keys {
			if err := x.Submit(context.Background(), konvoy.Event{Key: k, Step: i}); err != nil {
				t.Fatal(err)
			}
		}
		close(release)
		if err := mustClose(t, x); err != nil {
			t.Fatal(err)
		}
		for i, s := range ran {
			if s != i {
				t.Fatalf("ran %v; want items in the order submitted", ran)
			}
		}
	})
}

// String names the layout, the policy and the consumers, one as "1
// consumer" (found by a review: "1 consumers").
func TestStringNamesTheExecutor(t *testing.T) {
	for n, want := range map[int]string{1: "live.Executor(convoy, lane-aware, 1 consumer)", 8: "live.Executor(convoy, lane-aware, 8 consumers)"} {
		x, err := New(konvoy.Convoy, n, func(int) konvoy.Event { return konvoy.Event{Key: "k"} }, func(context.Context, int) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		if got := x.String(); got != want {
			t.Errorf("%d consumers: %q; want %q", n, got, want)
		}
		if err := x.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}
