package live

import (
	"context"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Items the resequencer's timer releases make room as they finish, and a
// Submit waiting for room takes it (WithMaxHeld: "Submit waits while it
// holds that many"). Under a Timeout with RejectOld and WithMaxHeld(2), key
// k's step 5 and step 3 are held for their gaps, filling the executor, and
// a third Submit waits. The timer then releases step 3, the lowest held,
// skipping steps 1 and 2, and step 5, held as long, skipping step 4 (its
// handler runs until the test ends): both are forced, none is rejected as
// old, and step 3's finish leaves room for the waiting Submit.
// The Submit's context is 2 s, 20 rounds past both timeouts; a Submit that
// starts waiting only after the timer fired finds the room itself, so the
// test cannot fail for a slow machine.
func TestTimerReleaseLetsAWaitingSubmitIn(t *testing.T) {
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
	err = x.Submit(ctx, konvoy.Event{Key: "z", Step: 1})
	if s := x.Stats(); err == nil && (s.Forced != 2 || s.RejectedOld != 0) {
		t.Errorf("Forced %d, RejectedOld %d; want steps 3 and 5 forced, none rejected", s.Forced, s.RejectedOld)
	}
	if err != nil {
		room, rerr := x.Room()
		s := x.Stats()
		t.Fatalf("Submit waiting for room: %v, while Room() = %d, %v (RejectedOld %d, Forced %d, InFlight %d); want nil: the timer's discard made room",
			err, room, rerr, s.RejectedOld, s.Forced, s.InFlight)
	}
}
