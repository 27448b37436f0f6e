package live

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Submit does not wait for room that nothing can make: with every item
// held waiting for a gap and no Timeout to give gaps up, only the steps
// the gaps wait for could make room, and Submit would wait for room to
// take them. It returns ErrGapsFull at once instead; Close then reports the
// items held as never applied. With a Timeout it waits, as the timer makes
// room: the held step is given up and the next item is taken.
func TestSubmitRefusesWhenGapsFillTheExecutor(t *testing.T) {
	for _, timeout := range []int{0, 1} {
		x, err := New(konvoy.Resequencer, 2, ev, func(context.Context, konvoy.Event) error { return nil },
			WithMaxHeld(1), WithResequencer(konvoy.ResequencerConfig{Timeout: timeout}, time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		if err := x.Submit(ctx, konvoy.Event{Key: "k", Step: 2}); err != nil { // held: step 1 has not come
			t.Fatal(err)
		}
		err = x.Submit(ctx, konvoy.Event{Key: "j", Step: 1})
		cancel()
		if timeout == 0 && !errors.Is(err, ErrGapsFull) || timeout > 0 && err != nil {
			t.Errorf("Timeout %d: the second Submit: %v; want ErrGapsFull without a timeout, nil with one", timeout, err)
		}
		cerr := mustClose(t, x)
		if timeout == 0 && !errors.Is(cerr, ErrNeverApplied) || timeout > 0 && cerr != nil {
			t.Errorf("Timeout %d: Close: %v; want ErrNeverApplied without a timeout, nil with one", timeout, cerr)
		}
	}
}
