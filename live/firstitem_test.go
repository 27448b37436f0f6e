package live

import (
	"context"
	"strconv"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// The first item of a partition the executor has not seen is at its head
// from the start, so the consumer that finishes it passes it at once: Room
// gives its place back with no Submit, Committable or Close to move the
// head. Each item here is the first of its own partition.
func TestAPartitionsFirstItemIsPassedWhenItFinishes(t *testing.T) {
	for _, p := range konvoy.Policies() {
		t.Run(p.String(), func(t *testing.T) {
			x, err := New(konvoy.Convoy, 2, func(k int) konvoy.Event { return konvoy.Event{Key: "k"} },
				func(context.Context, int) error { return nil },
				WithMaxHeld(4), WithPolicy(p), WithOffsets(func(k int) (int, int64) { return k, 7 }))
			if err != nil {
				t.Fatal(err)
			}
			for k := range 3 {
				if err := x.Submit(context.Background(), k); err != nil {
					t.Fatal(err)
				}
				awaitRoom(t, x, 4, "after the first item of partition "+strconv.Itoa(k))
			}
			if err := x.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
	}
}
