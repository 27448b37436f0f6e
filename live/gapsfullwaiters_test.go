package live

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// gapItem is an item of the gaps-full tests: a key's step, and its source
// partition and offset.
type gapItem struct {
	key  string
	step int
	part int
	off  int64
}

// TestEveryWaitingSubmitLearnsTheGapsAreFull checks that when the
// executor comes to hold nothing but items waiting for gaps with no
// timeout, every Submit waiting for room returns ErrGapsFull, not the
// first woken alone: the others waited for a finish that never comes, for
// as long as their contexts lasted (found by a stress test). Items a and b
// wait for their step 1 (the resequencer starts before step 1), c runs;
// two Submits wait; c finishes, above its partition's committable offset
// (with offsets) or not, and in the second case one waiter's item is held
// for its gap too, filling the executor.
func TestEveryWaitingSubmitLearnsTheGapsAreFull(t *testing.T) {
	for _, offsets := range []bool{true, false} {
		x, started, release := gapExecutor(t, 3, offsets)
		bg := context.Background()
		for _, it := range []gapItem{{"a", 2, 0, 0}, {"b", 2, 0, 1}, {"c", 1, 0, 2}} {
			if err := x.Submit(bg, it); err != nil {
				t.Fatal(err)
			}
		}
		<-started
		errs := make(chan error, 2)
		waiting := []gapItem{{"d", 1, 1, 0}, {"e", 1, 2, 0}} // with offsets: both run, but there is no room
		if !offsets {
			waiting = []gapItem{{key: "e", step: 2}, {key: "f", step: 2}} // one is taken, and held
		}
		for _, it := range waiting {
			go func() {
				ctx, cancel := context.WithTimeout(bg, 10*time.Second)
				defer cancel()
				errs <- x.Submit(ctx, it)
			}()
		}
		waitUntil(t, "both Submits to wait", func() bool { return x.waitingN.Load() == 2 })
		close(release)
		full := 0
		for range 2 {
			switch err := <-errs; {
			case errors.Is(err, ErrGapsFull):
				full++
			case err != nil || offsets:
				t.Errorf("offsets %v: Submit: %v; want ErrGapsFull", offsets, err)
			}
		}
		if want := map[bool]int{true: 2, false: 1}[offsets]; full != want {
			t.Errorf("offsets %v: %d Submits told the gaps are full; want %d", offsets, full, want)
		}
		_ = x.Close(bg)
	}
}

// gapExecutor returns an executor of the resequencer, on one consumer,
// holding at most maxHeld items, with WithOffsets when offsets is true,
// whose handler of key c closes started and waits for release to close.
func gapExecutor(t *testing.T, maxHeld int, offsets bool) (x *Executor[gapItem], started, release chan struct{}) {
	t.Helper()
	started, release = make(chan struct{}), make(chan struct{})
	opts := []Option{WithMaxHeld(maxHeld)}
	if offsets {
		opts = append(opts, WithOffsets(func(i gapItem) (int, int64) { return i.part, i.off }))
	}
	x, err := New(konvoy.Resequencer, 1, func(i gapItem) konvoy.Event { return konvoy.Event{Key: i.key, Step: i.step} },
		func(_ context.Context, i gapItem) error {
			if i.key == "c" {
				close(started)
				<-release
			}
			return nil
		}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return x, started, release
}
