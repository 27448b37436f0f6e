package live

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// A handler that calls runtime.Goexit, as t.FailNow does in a test, ends
// its consumer's goroutine: its item fails with ErrGoexit, with no retry
// and no dead letter, stopping the executor, and a consumer takes the
// place of the one that ended, so that Close returns, with the failure,
// rather than wait for the item for ever; and no goroutine is left after.
// Here item 0 of key a exits on its second attempt (a retry is allowed),
// on the only consumer.
func TestAHandlerThatExitsItsGoroutineFailsItsItem(t *testing.T) {
	before := runtime.NumGoroutine()
	var attempts atomic.Int32
	x, err := New(konvoy.Convoy, 1, func(k string) konvoy.Event { return konvoy.Event{Key: k} },
		func(context.Context, string) error {
			if attempts.Add(1) == 2 {
				runtime.Goexit()
			}
			return errors.New("a fails once")
		}, WithRetry(Retry{Attempts: 3}), withSleep(func(context.Context, time.Duration) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	// Close's context never ends: Close returns once the executor drained.
	cerr := x.Close(context.Background())
	var ie *ItemError
	if !errors.Is(cerr, ErrStopped) || !errors.Is(cerr, ErrGoexit) || !errors.As(cerr, &ie) || ie.Attempts != 2 || ie.Seq != 0 {
		t.Fatalf("Close: %v; want item 0's ItemError, after 2 attempts, wrapping ErrGoexit, with ErrStopped", cerr)
	}
	if s := x.Stats(); s.Failed != 1 || s.InFlight != 0 {
		t.Errorf("Stats: %d failed, %d in flight; want 1 and 0", s.Failed, s.InFlight)
	}
	if n := settledGoroutines(before); n > before {
		t.Errorf("%d goroutines after Close; want %d, as before New", n, before)
	}
}

// A guard hears of an attempt that ends its goroutine: WithGuard's exit is
// called once for each enter that returned true, the last time with the
// item's ItemError wrapping ErrGoexit, so that a runtime built on the
// guard (a Kafka consumer's partitions in flight) never waits for an
// attempt that will not return. A Goexit in the dead letter is heard the
// same way, and is not counted a failed attempt.
func TestAGuardHearsOfAnAttemptThatExits(t *testing.T) {
	for _, inDead := range []bool{false, true} {
		var enters, exits atomic.Int32
		var last atomic.Pointer[error]
		opts := []Option{WithGuard(func(context.Context, string) bool { enters.Add(1); return true },
			func(_ context.Context, _ string, err error) {
				exits.Add(1)
				last.Store(&err)
			})}
		if inDead {
			opts = append(opts, WithDeadLetter(func(context.Context, string, error) error { runtime.Goexit(); return nil }))
		}
		x, err := New(konvoy.Convoy, 1, func(k string) konvoy.Event { return konvoy.Event{Key: k} },
			func(context.Context, string) error {
				if inDead {
					return errors.New("fails")
				}
				runtime.Goexit()
				return nil
			}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if err := x.Submit(context.Background(), "a"); err != nil {
			t.Fatal(err)
		}
		if cerr := x.Close(context.Background()); !errors.Is(cerr, ErrGoexit) {
			t.Fatalf("Goexit in the dead letter %v: Close: %v; want an error wrapping ErrGoexit", inDead, cerr)
		}
		if s := x.Stats(); s.Errors != 1 {
			t.Errorf("Goexit in the dead letter %v: Stats.Errors %d; want 1, the attempt's (a dead letter's failure is not an attempt)", inDead, s.Errors)
		}
		if p := last.Load(); p != nil {
			err = *p
		}
		if e, x := enters.Load(), exits.Load(); e != x || !errors.Is(err, ErrGoexit) {
			t.Errorf("Goexit in the dead letter %v: %d enters, %d exits, the last with %v; want as many exits, the last with ErrGoexit", inDead, e, x, err)
		}
	}
}

// A guard's exit that calls runtime.Goexit too, hearing of a handler's
// Goexit (as a test's guard calling t.Fatalf on an error does), ends the
// goroutine a second time, within exited: the item is finished and a
// consumer started in its place all the same, so Close drains and
// reports the item. (Before, the second Goexit left exited before the
// finish: the item was never finished, Close waited for ever, and one
// with a deadline returned nil; found by a review.)
func TestAGuardsGoexitAfterAHandlersGoexitLosesNoItem(t *testing.T) {
	var ran atomic.Int32
	// Item a exits once both items are held: before, it could fail
	// between SubmitAll's two items, which then met the stopped executor.
	submitted := make(chan struct{})
	x, err := New(konvoy.Convoy, 1, func(k string) konvoy.Event { return konvoy.Event{Key: k} },
		func(_ context.Context, k string) error {
			ran.Add(1)
			if k == "a" {
				<-submitted
				runtime.Goexit()
			}
			return nil
		},
		WithGuard(func(context.Context, string) bool { return true },
			func(_ context.Context, _ string, err error) {
				if err != nil {
					runtime.Goexit()
				}
			}))
	if err != nil {
		t.Fatal(err)
	}
	_, serr := x.SubmitAll(context.Background(), []string{"a", "b"})
	close(submitted)
	if serr != nil {
		t.Fatal(serr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cerr := x.Close(ctx)
	var ie *ItemError
	if !errors.As(cerr, &ie) || ie.Seq != 0 || !errors.Is(cerr, ErrGoexit) || errors.Is(cerr, context.DeadlineExceeded) {
		t.Fatalf("Close: %v; want item 0's ItemError wrapping ErrGoexit, drained", cerr)
	}
	if s := x.Stats(); s.Failed != 1 || s.InFlight != 0 {
		t.Errorf("Stats: %d failed, %d in flight; want 1 and 0", s.Failed, s.InFlight)
	}
}
