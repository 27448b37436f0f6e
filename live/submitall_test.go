package live

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// SubmitAll takes a batch as that many Submit calls would, under every
// policy: each lane's items run in the batch's order, and every item runs
// once, also when the batch is larger than the executor may hold, so
// that it waits for room in the middle.
func TestSubmitAllRunsLikeSubmit(t *testing.T) {
	for _, p := range konvoy.Policies() {
		t.Run(p.String(), func(t *testing.T) {
			var mu sync.Mutex
			ran := map[string][]int{}
			x, err := New(konvoy.Convoy, 3, ev, func(_ context.Context, e konvoy.Event) error {
				mu.Lock()
				ran[e.Key] = append(ran[e.Key], e.Step)
				mu.Unlock()
				return nil
			}, WithPolicy(p), WithMaxHeld(7))
			if err != nil {
				t.Fatal(err)
			}
			var batch []konvoy.Event
			for i := range 100 {
				batch = append(batch, konvoy.Event{Key: string(rune('a' + i%4)), Step: i/4 + 1})
			}
			if n, err := x.SubmitAll(context.Background(), batch); n != len(batch) || err != nil {
				t.Fatalf("SubmitAll = %d, %v; want %d, nil", n, err, len(batch))
			}
			if err := mustClose(t, x); err != nil {
				t.Fatal(err)
			}
			for k, steps := range ran {
				for i, s := range steps {
					if s != i+1 {
						t.Fatalf("lane %s ran steps %v; want 1 to 25 in order", k, steps)
					}
				}
				if len(steps) != 25 {
					t.Fatalf("lane %s ran %d items; want 25", k, len(steps))
				}
			}
			if st := x.Stats(); st.Events != 100 || st.Done != 100 {
				t.Fatalf("Stats: %d events, %d done; want 100 and 100", st.Events, st.Done)
			}
		})
	}
}

// SubmitAll stops at the first item it cannot take, says which, and keeps
// the items before it: a line-convoy item without a line is refused with
// its submission number, and a closed executor takes none.
func TestSubmitAllStopsAtTheFirstRefusal(t *testing.T) {
	x, err := New(konvoy.LineConvoy, 2, ev, func(context.Context, konvoy.Event) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	batch := []konvoy.Event{{Key: "a", Line: "l"}, {Key: "b", Line: "l"}, {Key: "c"}, {Key: "d", Line: "m"}}
	n, err := x.SubmitAll(context.Background(), batch)
	var ee *konvoy.EventError
	if n != 2 || !errors.As(err, &ee) || ee.Index != 2 || ee.Field != "Line" {
		t.Fatalf("SubmitAll = %d, %v; want 2 and the third item's missing line, index 2", n, err)
	}
	if n, err := x.SubmitAll(context.Background(), batch[3:]); n != 1 || err != nil {
		t.Fatalf("SubmitAll of the rest = %d, %v; want 1, nil", n, err)
	}
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	if st := x.Stats(); st.Events != 3 || st.Done != 3 {
		t.Fatalf("Stats: %d events, %d done; want 3 and 3", st.Events, st.Done)
	}
	if n, err := x.SubmitAll(context.Background(), batch[:1]); n != 0 || !errors.Is(err, ErrClosed) {
		t.Fatalf("SubmitAll after Close = %d, %v; want 0, ErrClosed", n, err)
	}
}

// SubmitAll of no items does what no call of Submit does: nothing, and
// returns no error, even with a context that has ended (a review found
// it returned the context's error).
func TestSubmitAllOfNoItemsReturnsNoError(t *testing.T) {
	x, err := New(konvoy.Convoy, 1, ev, func(context.Context, konvoy.Event) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	for _, items := range [][]konvoy.Event{nil, {}} {
		if n, err := x.SubmitAll(ended, items); n != 0 || err != nil {
			t.Errorf("SubmitAll(ended, %#v) = %d, %v; want 0, nil", items, n, err)
		}
	}
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	if st := x.Stats(); st.Events != 0 {
		t.Errorf("Stats: %d events; want 0", st.Events)
	}
}

// A batch's items share one submission time, read once: with one consumer
// held on a gate, the waits of two lanes' first items, submitted
// together, are equal, while a lane submitted later waits less.
func TestSubmitAllReadsTheClockOnce(t *testing.T) {
	gate := make(chan struct{})
	started := make(chan struct{})
	x, err := New(konvoy.Convoy, 1, ev, func(_ context.Context, e konvoy.Event) error {
		if e.Key == "gate" {
			close(started)
			<-gate
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := x.Submit(ctx, konvoy.Event{Key: "gate"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, started, "the gate's start")
	if n, err := x.SubmitAll(ctx, []konvoy.Event{{Key: "a"}, {Key: "b"}}); n != 2 || err != nil {
		t.Fatalf("SubmitAll = %d, %v", n, err)
	}
	time.Sleep(time.Millisecond) // the clock moves on; nothing waits for this
	if err := x.Submit(ctx, konvoy.Event{Key: "c"}); err != nil {
		t.Fatal(err)
	}
	waits := map[string]time.Duration{}
	for _, l := range x.Lanes(10) {
		waits[l.Lane] = l.Wait
	}
	close(gate)
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	if waits["a"] != waits["b"] || waits["a"] < waits["c"]+time.Millisecond {
		t.Fatalf("waits %v; want a's and b's equal, and c's a millisecond shorter", waits)
	}
}
