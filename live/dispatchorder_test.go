package live

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// Under static a consumer takes the older of its inbox's next item and the
// next item without a lane.
func TestStaticTakesTheOlderOfInboxAndQueue(t *testing.T) {
	gate := make(chan struct{})
	var mu sync.Mutex
	var order []int
	x, err := New(konvoy.Convoy, 1, func(i int) konvoy.Event {
		if i == 2 {
			return konvoy.Event{} // no lane
		}
		return konvoy.Event{Key: "k"}
	}, func(_ context.Context, i int) error {
		if i == 0 {
			<-gate
		}
		mu.Lock()
		order = append(order, i)
		mu.Unlock()
		return nil
	}, WithPolicy(konvoy.Static))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := x.Submit(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	close(gate)
	if err := x.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(order, []int{0, 1, 2}) {
		t.Errorf("order %v; want [0 1 2]", order)
	}
}

// Under lane-aware one consumer runs the next items of freed lanes, kept
// in the heap of ready items, oldest first.
func TestLaneAwareReadyHeapPopsOldestFirst(t *testing.T) {
	const lanes = 8
	gate := make(chan struct{})
	var order []int
	x, err := New(konvoy.Convoy, 1, func(i int) konvoy.Event { return konvoy.Event{Key: string(rune('a' + i%lanes))} },
		func(_ context.Context, i int) error {
			if i == 0 {
				<-gate
			}
			order = append(order, i)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 * lanes {
		if err := x.Submit(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	close(gate)
	if err := x.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i, v := range order {
		if v != i {
			t.Fatalf("order %v; want submission order", order)
		}
	}
}
