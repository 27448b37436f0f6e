package live

// Submit refuses an event whose Step is below 0, as the model does
// (konvoy.Simulate: "Step ...; want 0 (history only) or more"), naming the
// field, rather than run it as history.

import (
	"context"
	"errors"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// TestSubmitRefusesANegativeStep: under VersionStamp and Resequencer, an
// item of Step −1 must be refused by Submit with a *konvoy.EventError
// naming Step, as the model refuses the event.
func TestSubmitRefusesANegativeStep(t *testing.T) {
	bad := konvoy.Event{Key: "k", Step: -1}
	if _, err := konvoy.Simulate([]konvoy.Event{bad}, konvoy.VersionStamp, 1); err == nil {
		t.Fatal("the model takes a negative step; this test's premise is wrong")
	}
	for _, layout := range []konvoy.Layout{konvoy.VersionStamp, konvoy.Resequencer} {
		ran := false
		x, err := New(layout, 1, func(e konvoy.Event) konvoy.Event { return e },
			func(context.Context, konvoy.Event) error { ran = true; return nil })
		if err != nil {
			t.Fatal(err)
		}
		serr := x.Submit(context.Background(), bad)
		if err := mustClose(t, x); err != nil {
			t.Fatal(err)
		}
		var ee *konvoy.EventError
		if !errors.As(serr, &ee) || ee.Field != "Step" {
			t.Errorf("%s: Submit of %+v: %v (handled: %v); want an EventError naming Step", layout, bad, serr, ran)
		}
	}
}
