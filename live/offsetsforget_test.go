package live

import (
	"context"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// Forget refuses a partition whose only item still runs.
func TestForgetRefusesAPartitionWithItsOnlyItemRunning(t *testing.T) {
	gate := make(chan struct{})
	x, err := New(konvoy.Free, 1, func(offsetItem) konvoy.Event { return konvoy.Event{} },
		func(context.Context, offsetItem) error { <-gate; return nil },
		WithOffsets(func(it offsetItem) (int, int64) { return it.part, it.off }))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Submit(context.Background(), offsetItem{off: 5}); err != nil {
		t.Fatal(err)
	}
	if x.Forget(0) {
		t.Error("Forget(0) with its item running: true; want false")
	}
	close(gate)
	if err := x.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c, ok := x.Committable(0); !ok || c != 6 {
		t.Errorf("Committable(0) = %d, %v; want 6, true", c, ok)
	}
}

// A chunk of offsets reused after the head left it has none of its items
// marked finished: the committable offset stops at its last item, unfinished.
func TestReusedChunkForgetsItsLastFinishedMark(t *testing.T) {
	gate := make(chan struct{})
	last := 3*chunkLen - 1
	x, err := New(konvoy.Free, 1, func(offsetItem) konvoy.Event { return konvoy.Event{} },
		func(_ context.Context, it offsetItem) error {
			if it.id == last {
				<-gate
			}
			return nil
		}, WithOffsets(func(it offsetItem) (int, int64) { return it.part, it.off }))
	if err != nil {
		t.Fatal(err)
	}
	for c := range 3 {
		for i := c * chunkLen; i < (c+1)*chunkLen; i++ {
			if err := x.Submit(context.Background(), offsetItem{id: i, off: int64(i)}); err != nil {
				t.Fatal(err)
			}
		}
		want := min((c+1)*chunkLen, last)
		waitUntil(t, "items to finish", func() bool { return x.finished() == int64(want) })
	}
	if c, _ := x.Committable(0); c != int64(last) {
		t.Errorf("Committable(0) = %d with item %d running; want %d", c, last, last)
	}
	close(gate)
	if err := x.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// waitUntil polls cond until it holds, failing the test after 30s, far
// above what any condition here takes.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// offsetItem is item id of source partition part at offset off.
type offsetItem struct {
	id   int
	part int
	off  int64
}
