package live_test

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/memtest"
	"github.com/sirali-konvoy/konvoy/live"
)

// heapHeld returns the bytes the heap holds once collected.
func heapHeld() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// A resequencer whose Capacity is full holds what the Capacity lets it,
// in memory that does not grow with the items it forced out: here one key
// submits steps 2, 4, 6 …, each leaving a gap, and each Submit forces out
// the one item held to hold its own. The queue of held items in the order
// held dropped the entries it had passed only when it emptied, which a
// full Capacity never lets it do: some 40 bytes an item.
func TestAFullCapacityDoesNotGrowWithTheItemsForced(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	x, err := live.New(konvoy.Resequencer, 1, func(s int) konvoy.Event { return konvoy.Event{Key: "k", Step: s} },
		func(context.Context, int) error { return nil }, live.WithResequencer(konvoy.ResequencerConfig{Capacity: 1}, 0))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const n = 400_000
	var early uint64
	for i := 1; i <= n; i++ {
		if err := x.Submit(ctx, 2*i); err != nil {
			t.Fatal(err)
		}
		if i == n/10 {
			early = heapHeld()
		}
	}
	late := heapHeld()
	if err := x.Close(ctx); !errors.Is(err, live.ErrNeverApplied) {
		t.Fatalf("Close: %v; want ErrNeverApplied, for the last item held", err)
	}
	if s := x.Stats(); s.MaxBuffered != 1 || s.Forced != n-1 || late > early+1<<20 {
		t.Errorf("the heap held %d bytes after %d items and %d after %d; MaxBuffered %d, Forced %d; want 1 held, %d forced, and at most 1 MiB more",
			early, n/10, late, n, s.MaxBuffered, s.Forced, n-1)
	}
}
