package live_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// A Timeout so long that an item's submission time, in rounds, plus it
// passes the largest int is a time that never comes, as the model never
// applies an event whose finish plus Timeout passes the largest int:
// Close leaves the item held, never applied, where it released it with
// its gap skipped and ran it (found by a review), and counts it as the
// model does. The test is in rounds, not in the clock's nanoseconds: a
// Timeout of math.MaxInt64/10⁶ rounds of 1 ms passes the largest time
// the clock reads within a millisecond, yet comes, in rounds, and the
// model applies the event at the end of its run, as Close does (found by
// a review of the first fix, which counted in nanoseconds). Where int
// has 32 bits that Timeout is math.MaxInt, which never comes.
func TestATimeoutThatNeverComesLeavesItsItemsNeverApplied(t *testing.T) {
	for _, c := range []struct {
		round   time.Duration
		timeout int
	}{
		{time.Nanosecond, math.MaxInt},
		{time.Millisecond, int(min(int64(math.MaxInt), math.MaxInt64/int64(time.Millisecond)))},
		{time.Nanosecond, 1 << 20},
	} {
		cfg := konvoy.ResequencerConfig{Timeout: c.timeout}
		events := []konvoy.Event{{Key: "a", Step: 2, Duration: 1}, {Key: "a", Step: 4, Duration: 1}}
		r, err := konvoy.Simulate(events, konvoy.Resequencer, 1, konvoy.WithResequencer(cfg))
		if err != nil {
			t.Fatal(err)
		}
		var ran []int
		x, err := live.New(konvoy.Resequencer, 1, func(e konvoy.Event) konvoy.Event { return e },
			func(_ context.Context, e konvoy.Event) error { ran = append(ran, e.Step); return nil },
			live.WithResequencer(cfg, c.round))
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond) // past the largest time the clock reads, for the second Timeout
		for _, e := range events {
			if err := x.Submit(context.Background(), e); err != nil {
				t.Fatal(err)
			}
		}
		cerr := x.Close(context.Background())
		s := x.Stats()
		var ue *live.UnrunError[konvoy.Event]
		never := r.NeverApplied > 0
		if errors.Is(cerr, live.ErrNeverApplied) != never || never && (!errors.As(cerr, &ue) || len(ue.Items) != 2) {
			t.Errorf("Timeout %d of %v: Close = %v; want the two items never applied: %v", c.timeout, c.round, cerr, never)
		}
		if s.NeverApplied != r.NeverApplied || s.GapsSkipped != r.GapsSkipped || s.Forced != r.Forced || len(ran) != len(events)-r.NeverApplied {
			t.Errorf("Timeout %d of %v: NeverApplied %d, GapsSkipped %d, Forced %d, ran %v; want the model's %d, %d, %d and %d applied",
				c.timeout, c.round, s.NeverApplied, s.GapsSkipped, s.Forced, ran, r.NeverApplied, r.GapsSkipped, r.Forced, len(events)-r.NeverApplied)
		}
		if want := []int{2, 4}; !never && !slices.Equal(ran, want) {
			t.Errorf("Timeout %d of %v: ran %v; want %v", c.timeout, c.round, ran, want)
		}
	}
}

// Gaps whose Timeout never comes fill the executor as gaps with no
// Timeout do: Submit returns ErrGapsFull, not wait for room for ever.
func TestGapsWhoseTimeoutNeverComesFillTheExecutor(t *testing.T) {
	x, err := live.New(konvoy.Resequencer, 1, func(e konvoy.Event) konvoy.Event { return e },
		func(context.Context, konvoy.Event) error { return nil },
		live.WithResequencer(konvoy.ResequencerConfig{Timeout: math.MaxInt}, time.Nanosecond), live.WithMaxHeld(2))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for step := 2; step <= 3; step++ {
		if err := x.Submit(ctx, konvoy.Event{Key: "a", Step: step}); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Submit(ctx, konvoy.Event{Key: "a", Step: 4}); !errors.Is(err, live.ErrGapsFull) {
		t.Errorf("Submit of a third item = %v; want ErrGapsFull", err)
	}
	if err := x.Close(context.Background()); !errors.Is(err, live.ErrNeverApplied) {
		t.Errorf("Close = %v; want ErrNeverApplied", err)
	}
}
