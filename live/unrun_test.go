package live

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// Of the items that never started because a failure stopped the executor,
// UnrunError's Err is that failure: one consumer runs item 0, which fails
// with no dead letter, while item 1 waits in the same lane; Close returns
// an UnrunError with item 1, whose Err holds item 0's *ItemError, wrapped
// with ErrStopped.
func TestUnrunErrorOfAStopCarriesTheFailure(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	handle := func(_ context.Context, i int) error {
		if i == 0 {
			close(started)
			<-release
			return errors.New("item 0 fails")
		}
		return nil
	}
	x, err := New(konvoy.Convoy, 1, func(int) konvoy.Event { return konvoy.Event{Key: "k"} }, handle)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := x.Submit(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, started, "item 0's start")
	close(release)
	cerr := mustClose(t, x)
	var u *UnrunError[int]
	if !errors.As(cerr, &u) || len(u.Items) != 1 || u.Items[0] != 1 {
		t.Fatalf("Close: %v; want an UnrunError with item 1", cerr)
	}
	var ie *ItemError
	if !errors.As(u.Err, &ie) || ie.Seq != 0 || !errors.Is(u.Err, ErrStopped) {
		t.Fatalf("UnrunError.Err = %#v (%v); want the failure that stopped the executor, item 0's *ItemError, wrapped with ErrStopped", u.Err, u.Err)
	}
	// Said once: Close returns the UnrunError alone.
	if n := strings.Count(cerr.Error(), "item 0 fails"); n != 1 {
		t.Fatalf("Close's error names the failure %d times; want once:\n%v", n, cerr)
	}
}

// An UnrunError names how many items did not run, in the singular for
// one, and its cause.
func TestUnrunErrorCountsItsItems(t *testing.T) {
	cause := errors.New("cause")
	for n, want := range map[int]string{1: "live: 1 item not run: cause", 2: "live: 2 items not run: cause"} {
		if got := (&UnrunError[int]{Items: make([]int, n), Err: cause}).Error(); got != want {
			t.Errorf("%d items: %q; want %q", n, got, want)
		}
	}
}
