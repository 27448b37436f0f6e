package live

import (
	"context"
	"errors"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// NeverApplied is 0 before Close, and counts the items the resequencer
// still holds once Close returned.
func TestNeverAppliedOnlyAfterClose(t *testing.T) {
	x, err := New(konvoy.Resequencer, 1, func(e konvoy.Event) konvoy.Event { return e },
		func(context.Context, konvoy.Event) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), konvoy.Event{Key: "k", Step: 2}); err != nil {
		t.Fatal(err)
	}
	if s := x.Stats(); s.NeverApplied != 0 || s.Buffered != 1 {
		t.Errorf("before Close: NeverApplied %d, Buffered %d; want 0, 1", s.NeverApplied, s.Buffered)
	}
	if err := x.Close(context.Background()); !errors.Is(err, ErrNeverApplied) {
		t.Errorf("Close: %v; want ErrNeverApplied", err)
	}
	if s := x.Stats(); s.NeverApplied != 1 {
		t.Errorf("after Close: NeverApplied %d; want 1", s.NeverApplied)
	}
}
