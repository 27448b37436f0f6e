package live

import (
	"context"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// An item the resequencer's timer discards makes room, and a Submit
// waiting for room takes it (WithMaxHeld: "Submit waits while it holds
// that many"). Under a Timeout with RejectOld and WithMaxHeld(2), key k's
// step 5 and step 3 are held for their gaps, filling the executor, and a
// third Submit waits. The timer then releases step 5, skipping steps 1 to
// 4 (its handler runs until the test ends), and step 3, now an old step,
// is rejected: the executor holds one item of two, Room says 1, and the
// waiting Submit must get in. The Submit's context is 2 s, 20 rounds past
// both timeouts; a Submit that starts waiting only after the timer fired
// finds the room itself, so the test cannot fail for a slow machine.
func TestTimerDiscardLetsAWaitingSubmitIn(t *testing.T) {
	release := make(chan struct{})
	x, err := New(konvoy.Resequencer, 2, func(e konvoy.Event) konvoy.Event { return e },
		func(_ context.Context, e konvoy.Event) error {
			if e.Step == 5 {
				<-release
			}
			return nil
		}, WithMaxHeld(2), WithResequencer(konvoy.ResequencerConfig{Timeout: 1, RejectOld: true}, 100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		close(release)
		if err := x.Close(context.Background()); err != nil {
			t.Errorf("Close: %v", err)
		}
	}()
	for _, e := range []konvoy.Event{{Key: "k", Step: 5}, {Key: "k", Step: 3}} {
		if err := x.Submit(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := x.Submit(ctx, konvoy.Event{Key: "z", Step: 1}); err != nil {
		room, rerr := x.Room()
		s := x.Stats()
		t.Fatalf("Submit waiting for room: %v, while Room() = %d, %v (RejectedOld %d, Forced %d, InFlight %d); want nil: the timer's discard made room",
			err, room, rerr, s.RejectedOld, s.Forced, s.InFlight)
	}
}
