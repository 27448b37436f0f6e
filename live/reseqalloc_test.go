package live

import (
	"context"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// Submit allocates nothing once the executor has held as many items and
// lanes, under the resequencer too: one key whose steps come in pairs out
// of order (step s+2, held for its gap, then s+1, which releases both)
// holds at most one item for a gap and runs in one lane, so after 1,000
// such pairs a pair allocates nothing: the key keeps its small map of
// held steps once it is empty.
func TestResequencerGapAllocatesNothingInSteadyState(t *testing.T) {
	x, err := New(konvoy.Resequencer, 1, func(e konvoy.Event) konvoy.Event { return e },
		func(context.Context, konvoy.Event) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	step := 0
	pair := func() {
		for _, s := range []int{step + 2, step + 1} {
			if err := x.Submit(ctx, konvoy.Event{Key: "k", Step: s}); err != nil {
				t.Fatal(err)
			}
		}
		step += 2
	}
	for range 1000 {
		pair()
	}
	allocs := testing.AllocsPerRun(1000, pair)
	if err := x.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if allocs > 0 {
		t.Errorf("%v allocations a pair of Submits (a gap held, then filled) in steady state; want 0", allocs)
	}
}

// A key's map of held steps is let go once empty when it grew past
// smallHeld, so that a key that once held many does not keep their
// memory; a smaller one is kept, for the next gap.
func TestABigMapOfHeldStepsIsLetGo(t *testing.T) {
	x, err := New(konvoy.Resequencer, 1, func(e konvoy.Event) konvoy.Event { return e },
		func(context.Context, konvoy.Event) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tt := range []struct {
		key  string
		held int
		kept bool
	}{{"small", smallHeld, true}, {"big", smallHeld + 1, false}} {
		for s := tt.held + 1; s >= 1; s-- { // steps held + 1 down to 2 are held; step 1 releases them all
			if err := x.Submit(ctx, konvoy.Event{Key: tt.key, Step: s}); err != nil {
				t.Fatal(err)
			}
		}
		x.subMu.Lock()
		k := x.reseq[tt.key]
		kept, n := k.held != nil, len(k.held)
		x.subMu.Unlock()
		if kept != tt.kept || n != 0 {
			t.Errorf("key %s, %d steps held at most: map kept %v with %d steps; want kept %v, empty", tt.key, tt.held, kept, n, tt.kept)
		}
	}
	if err := x.Close(ctx); err != nil {
		t.Fatal(err)
	}
}
