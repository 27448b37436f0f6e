package live

import (
	"context"
	"math"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// Submit refuses an item at offset math.MaxInt64, as it refuses one
// below 0: the committable offset once it finished, the last offset plus
// 1, would not fit, and would wrap below every offset. The offset below
// it is taken, and is committable past once finished.
func TestSubmitRefusesTheLargestOffset(t *testing.T) {
	x, err := New(konvoy.Convoy, 1, func(int64) konvoy.Event { return konvoy.Event{Key: "k"} },
		func(context.Context, int64) error { return nil }, WithOffsets(func(o int64) (int, int64) { return 0, o }))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), math.MaxInt64); err == nil {
		t.Error("Submit took offset math.MaxInt64")
	}
	if err := x.Submit(context.Background(), math.MaxInt64-1); err != nil {
		t.Errorf("Submit of offset math.MaxInt64−1: %v", err)
	}
	if err := x.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c, ok := x.Committable(0); !ok || c != math.MaxInt64 {
		t.Errorf("Committable(0) = %d, %v; want math.MaxInt64", c, ok)
	}
}
