package live

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Under lane-aware, an item the resequencer's timeout releases takes its
// place among the items that can start by its submission number, as any
// other does: here x (submitted first, held for a gap, released while
// the one consumer is busy) starts before b's next item (submitted
// second, ready when b's first finishes) and d (submitted third, ready at
// once). When released items joined the queue of items that can start at
// its tail, behind younger ones, b's next started first and x last
// (found by a review).
func TestAReleasedItemStartsInItsSubmissionsOrder(t *testing.T) {
	gate := make(chan struct{})
	var mu sync.Mutex
	var started []string
	handle := func(_ context.Context, e konvoy.Event) error {
		mu.Lock()
		started = append(started, e.Key)
		mu.Unlock()
		if e.Key == "b" && e.Step == 1 {
			<-gate
		}
		return nil
	}
	x, err := New(konvoy.Resequencer, 1, ev, handle, WithResequencer(konvoy.ResequencerConfig{Timeout: 1}, 5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, e := range []konvoy.Event{{Key: "b", Step: 1}, {Key: "x", Step: 2}, {Key: "b", Step: 2}, {Key: "d", Step: 1}} {
		if err := x.Submit(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	end := time.Now().Add(deadline)
	for x.Stats().Forced == 0 {
		if time.Now().After(end) {
			t.Fatalf("x was not released by its timeout within %v", deadline)
		}
		time.Sleep(time.Millisecond)
	}
	close(gate)
	if err := mustClose(t, x); err != nil {
		t.Fatalf("Close: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"b", "x", "b", "d"}; !slices.Equal(started, want) {
		t.Errorf("started %v; want %v: x, submitted before b's second and d, first once b's first ends", started, want)
	}
}
