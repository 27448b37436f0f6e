package live

import (
	"context"
	"runtime"
	"testing"
	"weak"

	"github.com/sirali-konvoy/konvoy"
)

// A partition Forget drops is no longer reachable from the executor: once
// its items finished and Forget returned true, the next collection frees
// its source, with the chunks of offsets it held. Unlike a reading of the
// heap, this does not depend on how far the consumers lagged Submit.
func TestAForgottenPartitionIsCollected(t *testing.T) {
	x, err := New(konvoy.Convoy, 2, func(it offsetItem) konvoy.Event { return konvoy.Event{Key: string(rune('a' + it.id%7))} },
		func(context.Context, offsetItem) error { return nil },
		WithOffsets(func(it offsetItem) (int, int64) { return it.part, it.off }))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close(context.Background())
	const n = 3*chunkLen + 5
	for i := range n {
		if err := x.Submit(context.Background(), offsetItem{id: i, off: int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	waitUntil(t, "every item committable", func() bool { c, _ := x.Committable(0); return c == n })
	x.subMu.Lock()
	w := weak.Make(x.partOf(0))
	x.subMu.Unlock()
	if !x.Forget(0) {
		t.Fatal("Forget(0) with every item finished: false")
	}
	runtime.GC()
	if w.Value() != nil {
		t.Error("the forgotten partition's source is still reachable after a collection")
	}
}
