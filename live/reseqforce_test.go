package live

import (
	"context"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Giving up the gaps of a key that holds many steps takes time in
// proportion to those steps, not to their square. WithResequencer's doc
// says "Timeout and Capacity cost a queue of the held items in the order
// held, O(1) amortised time per item held", Submit's "O(log n) for n items
// held when the resequencer releases held items", and the model finds a
// key's lowest held step in a heap (konvoy's lowestHeld). But force
// (resequencer.go) scans the key's whole map of held steps for its lowest
// each time it gives one up; a key holding n steps with gaps between them
// (2, 4, 6, …), each given up in turn by its timeout, by the Capacity, or
// by Close releasing them all, costs n²/2 map steps: measured, 10,000
// steps take 0.9 s to release, 40,000 take 13 s. Here key k holds 2^17
// such steps and Close releases them (nothing else is held, the handler
// does nothing): in O(n log n) that is well under a second, in O(n²)
// minutes; the test gives Close the package's deadline (20 s) and, if
// Close has not returned by then, fails (leaving Close to finish in the
// background: it holds the submit lock and looks at no context).
func TestReleasingHeldStepsIsNotQuadratic(t *testing.T) {
	const n = 1 << 17
	x, err := New(konvoy.Resequencer, 1, func(e konvoy.Event) konvoy.Event { return e },
		func(context.Context, konvoy.Event) error { return nil },
		WithMaxHeld(n+1), WithResequencer(konvoy.ResequencerConfig{Timeout: 1}, time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := x.Submit(context.Background(), konvoy.Event{Key: "k", Step: 2 * (i + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		if err := x.Close(context.Background()); err != nil {
			t.Errorf("Close: %v; want nil: Close releases every held step, skipping the gaps", err)
		}
	}()
	waitFor(t, closed, "Close releasing 2^17 held steps of one key")
}
