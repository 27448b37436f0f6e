package live

// An ItemError names the lane its item ran in, as the executor placed it:
// under the resequencer, whose layout has no lanes in the model, its key's.

import (
	"context"
	"errors"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// TestItemErrorNamesTheResequencersLane: item {Key k, Step 1} runs in lane
// k under the resequencer and fails with no dead letter; Close's ItemError
// must name lane k.
func TestItemErrorNamesTheResequencersLane(t *testing.T) {
	x, err := New(konvoy.Resequencer, 1, func(e konvoy.Event) konvoy.Event { return e },
		func(context.Context, konvoy.Event) error { return errors.New("handler") })
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), konvoy.Event{Key: "k", Step: 1}); err != nil {
		t.Fatal(err)
	}
	err = mustClose(t, x)
	var ie *ItemError
	if !errors.As(err, &ie) {
		t.Fatalf("Close: %v; want an ItemError", err)
	}
	if ie.Lane != "k" {
		t.Fatalf("ItemError.Lane %q; want %q, the lane the item ran in; message: %v", ie.Lane, "k", ie)
	}
}
