package live

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// An attempt whose handler calls runtime.Goexit is a failed attempt, and
// Stats.Errors counts it: Stats says "Errors counts the failed attempts",
// and the item's ItemError counts the attempt among its Attempts, failed
// with ErrGoexit. run counts an attempt in errorsN only when attempt
// returns an error; an attempt that exits the goroutine never returns, and
// exited (dispatch.go) fails the item without counting it, so Stats shows
// one item Failed and no error at all.
func TestGoexitCountsAsAFailedAttempt(t *testing.T) {
	x, err := New(konvoy.Convoy, 1, func(k string) konvoy.Event { return konvoy.Event{Key: k} },
		func(context.Context, string) error {
			runtime.Goexit()
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	cerr := mustClose(t, x)
	var ie *ItemError
	if !errors.As(cerr, &ie) || ie.Attempts != 1 || !errors.Is(cerr, ErrGoexit) {
		t.Fatalf("Close: %v; want item a's ItemError, 1 attempt, ErrGoexit", cerr)
	}
	if s := x.Stats(); s.Failed != 1 || s.Errors != ie.Attempts {
		t.Errorf("Stats: Failed %d, Errors %d; want 1 and %d, the failed attempts the ItemError counts", s.Failed, s.Errors, ie.Attempts)
	}
}
