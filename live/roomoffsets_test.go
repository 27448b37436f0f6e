package live

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// hasRoom's recount (after the first, stale count leaves no room) must
// still count items finished above their partition's committable offset.
func TestRecountKeepsFinishedAboveCommittable(t *testing.T) {
	gate := make(chan struct{})
	x, err := New(konvoy.Free, 2, func(offsetItem) konvoy.Event { return konvoy.Event{} },
		func(_ context.Context, it offsetItem) error {
			if it.id == 0 {
				<-gate
			}
			return nil
		}, WithMaxHeld(2), WithOffsets(func(it offsetItem) (int, int64) { return it.part, it.off }))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 2 {
		if err := x.Submit(ctx, offsetItem{id: i, off: int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	waitUntil(t, "item 1 to finish", func() bool { return x.finished() == 1 })
	// Held: item 0 running and item 1 finished above the committable offset 0.
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if err := x.Submit(short, offsetItem{id: 2, off: 2}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Submit with 2 held of WithMaxHeld(2): %v; want it to wait until its context ends", err)
	}
	close(gate)
	if err := x.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// A Submit that got room passes what is left of it to the next waiter:
// one finish that makes room for several lets every waiter in.
func TestRoomForTwoLetsTwoWaitersIn(t *testing.T) {
	gate, hold := make(chan struct{}), make(chan struct{})
	x, err := New(konvoy.Free, 2, func(offsetItem) konvoy.Event { return konvoy.Event{} },
		func(_ context.Context, it offsetItem) error {
			switch it.id {
			case 0:
				<-gate
			case 3, 4:
				<-hold
			}
			return nil
		}, WithMaxHeld(3), WithOffsets(func(it offsetItem) (int, int64) { return it.part, it.off }))
	if err != nil {
		t.Fatal(err)
	}
	defer close(hold)
	ctx := context.Background()
	for i := range 3 {
		if err := x.Submit(ctx, offsetItem{id: i, off: int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	waitUntil(t, "items 1 and 2 to finish", func() bool { return x.finished() == 2 })
	errs := make(chan error, 2)
	for i := 3; i <= 4; i++ {
		go func() {
			c, cancel := context.WithTimeout(ctx, 30*time.Second) // far above a wake-up: a lost one fails
			defer cancel()
			errs <- x.Submit(c, offsetItem{id: i, part: i}) // partitions 3 and 4
		}()
	}
	waitUntil(t, "two waiting Submits", func() bool { return x.waitingN.Load() == 2 })
	close(gate) // item 0 finishes: the committable offset passes 0 to 2, room for 3
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("waiting Submit: %v; want nil, with room for both", err)
		}
	}
}
