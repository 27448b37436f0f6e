package live

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// WithGuard's exit follows every attempt that enter let run, even one
// that ends in runtime.Goexit: the guard is for "a runtime built on the
// executor that must know what runs" (options.go, WithGuard), such as
// package kafka, which counts a record running from enter to exit so that
// a revocation waits for it; and ErrGoexit's doc says such an attempt
// fails its item at once, so it no longer runs. run calls guard.exit only
// after attempt returns; a Goexit unwinds through run straight to work's
// deferred exited, which fails the item without calling exit, so the
// runtime counts the item running for ever.
func TestGuardExitFollowsAnAttemptThatExitsItsGoroutine(t *testing.T) {
	var entered, exited atomic.Int32
	var exitErr atomic.Value
	x, err := New(konvoy.Convoy, 1, func(k string) konvoy.Event { return konvoy.Event{Key: k} },
		func(context.Context, string) error {
			runtime.Goexit()
			return nil
		},
		WithGuard(func(context.Context, string) bool { entered.Add(1); return true },
			func(_ context.Context, _ string, err error) {
				exited.Add(1)
				if err != nil {
					exitErr.Store(err)
				}
			}))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	if cerr := mustClose(t, x); !errors.Is(cerr, ErrGoexit) {
		t.Fatalf("Close: %v; want item a's failure with ErrGoexit", cerr)
	}
	if entered.Load() != 1 || exited.Load() != 1 {
		t.Errorf("guard: %d enters, %d exits; want 1 and 1: the attempt that exited its goroutine no longer runs", entered.Load(), exited.Load())
	}
	if e, _ := exitErr.Load().(error); exited.Load() == 1 && e == nil {
		t.Errorf("guard exit with a nil error; want the attempt's failure (ErrGoexit): the item did not finish")
	}
}
