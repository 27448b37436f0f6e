package live

import (
	"context"
	"errors"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// Once Close has returned, no item runs, so Lanes reports no lane as
// Running. Under Static, with two consumers and items a0 and a1 of lane
// a: a0 fails with no dead letter, stopping the executor once both are
// submitted, while a1 waits behind it in its consumer's inbox; the
// consumer that takes a1 then sees the stop and keeps a1 as not started,
// and its inbox no longer says it runs an item.
func TestStaticLanesAfterCloseRunNothing(t *testing.T) {
	submitted := make(chan struct{})
	x, err := New(konvoy.Convoy, 2, func(s string) konvoy.Event { return konvoy.Event{Key: s[:1]} },
		func(_ context.Context, s string) error {
			if s == "a0" {
				<-submitted
				return errors.New("a0 fails")
			}
			return nil
		}, WithPolicy(konvoy.Static))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"a0", "a1"} {
		if err := x.Submit(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	close(submitted)
	cerr := x.Close(context.Background())
	var u *UnrunError[string]
	if !errors.As(cerr, &u) || len(u.Items) != 1 || u.Items[0] != "a1" {
		t.Fatalf("Close: %v; want an UnrunError of a1", cerr)
	}
	for _, l := range x.Lanes(10) {
		if l.Running {
			t.Errorf("after Close, Lanes says lane %q runs an item (%+v); a1 never started, and nothing runs after Close", l.Lane, l)
		}
	}
}
