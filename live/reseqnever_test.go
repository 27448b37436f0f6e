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

// A Timeout so long that an item's submission time plus it passes the
// largest time the clock reads is a time that never comes, as the model
// never applies an event whose finish plus Timeout passes the largest
// int: Close leaves the item held, never applied, where it released it
// with its gap skipped and ran it (found by a review), and counts it as
// the model does; a shorter one releases it at Close with its gap
// skipped, as the model does at the end of its run.
func TestATimeoutThatNeverComesLeavesItsItemsNeverApplied(t *testing.T) {
	for _, timeout := range []int{math.MaxInt, 1 << 40} {
		cfg := konvoy.ResequencerConfig{Timeout: timeout}
		events := []konvoy.Event{{Key: "a", Step: 2, Duration: 1}, {Key: "a", Step: 4, Duration: 1}}
		r, err := konvoy.Simulate(events, konvoy.Resequencer, 1, konvoy.WithResequencer(cfg))
		if err != nil {
			t.Fatal(err)
		}
		var ran []int
		x, err := live.New(konvoy.Resequencer, 1, func(e konvoy.Event) konvoy.Event { return e },
			func(_ context.Context, e konvoy.Event) error { ran = append(ran, e.Step); return nil },
			live.WithResequencer(cfg, time.Nanosecond))
		if err != nil {
			t.Fatal(err)
		}
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
			t.Errorf("Timeout %d: Close = %v; want the two items never applied: %v", timeout, cerr, never)
		}
		if s.NeverApplied != r.NeverApplied || s.GapsSkipped != r.GapsSkipped || s.Forced != r.Forced || len(ran) != len(events)-r.NeverApplied {
			t.Errorf("Timeout %d: NeverApplied %d, GapsSkipped %d, Forced %d, ran %v; want the model's %d, %d, %d and %d applied",
				timeout, s.NeverApplied, s.GapsSkipped, s.Forced, ran, r.NeverApplied, r.GapsSkipped, r.Forced, len(events)-r.NeverApplied)
		}
		if want := []int{2, 4}; !never && !slices.Equal(ran, want) {
			t.Errorf("Timeout %d: ran %v; want %v", timeout, ran, want)
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
