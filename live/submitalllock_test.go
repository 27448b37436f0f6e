package live

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// SubmitAll calls the event function, and WithOffsets's, with the submit
// lock free, for every item of a batch longer than submitChunk: so that
// no consumer, which may take the lock to free a lane (leaveSlot), waits
// for them, as SubmitAll's doc says. A few calls of each check that
// another goroutine gets the lock meanwhile (within 2 s).
func TestSubmitAllCallsTheEventFunctionWithTheLockFree(t *testing.T) {
	var x *Executor[int]
	var held atomic.Int32
	var lockers sync.WaitGroup
	lockable := func() {
		got := make(chan struct{})
		lockers.Add(1)
		go func() {
			defer lockers.Done()
			x.subMu.Lock()
			close(got)
			x.subMu.Unlock()
		}()
		select {
		case <-got:
		case <-time.After(2 * time.Second):
			held.Add(1) // the goroutine gets the lock once the function returns
		}
	}
	x, err := New(konvoy.Convoy, 2, func(i int) konvoy.Event {
		if i%submitChunk == submitChunk-1 {
			lockable()
		}
		return konvoy.Event{Key: fmt.Sprint(i % 7)}
	}, func(context.Context, int) error { return nil }, WithOffsets(func(i int) (int, int64) {
		if i%submitChunk == 1 {
			lockable()
		}
		return 0, int64(i)
	}))
	if err != nil {
		t.Fatal(err)
	}
	items := make([]int, 2*submitChunk+5)
	for i := range items {
		items[i] = i
	}
	n, err := x.SubmitAll(context.Background(), items)
	lockers.Wait()
	if n != len(items) || err != nil {
		t.Fatalf("SubmitAll: %d, %v", n, err)
	}
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	if n := held.Load(); n > 0 {
		t.Errorf("the event or offsets function ran %d times with the submit lock held", n)
	}
}
