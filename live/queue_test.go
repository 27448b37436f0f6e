package live

import (
	"context"
	"runtime"
	"sync"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"pgregory.net/rapid"
)

// The queue gives its items back in the order pushed, however pushes and
// pops interleave, also past a segment's capacity: beyond it push links a
// new segment, and pops reach it only once the one before is empty. The
// test gives the queue segments of 16 cells and holds up to 200 items, so
// that segments fill, chain and drain many times over, and checks head
// against every pop.
func TestQueueKeepsOrderPastItsRing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := newQueue[int](1)
		next, want := 0, 0
		for _, op := range rapid.SliceOfN(rapid.IntRange(0, 9), 300, 3000).Draw(t, "ops") {
			if op < 6 && next-want < 200 { // a push, more often than a pop
				q.push(&task[int]{item: next, seq: int64(next)})
				next++
				continue
			}
			s, ok := q.head()
			var j task[int]
			if got := q.pop(&j); got != (next > want) || ok != got {
				t.Fatalf("pop = %v, head %v, with %d held", got, ok, next-want)
			}
			if next > want {
				if j.item != want || j.seq != int64(want) || s != int64(want) {
					t.Fatalf("popped %d (head said %d); want %d", j.item, s, want)
				}
				want++
			}
		}
		if q.empty() != (next == want) {
			t.Fatalf("empty = %v with %d held", q.empty(), next-want)
		}
		if left := q.drain(nil); len(left) != next-want || len(left) > 0 && left[0].item != want {
			t.Fatalf("drain gave %d items; want %d from %d", len(left), next-want, want)
		}
	})
}

// Consumers popping at once while one goroutine pushes each take every
// item exactly once, each in increasing order, through a chain of
// segments of 16 cells. A pop that finds a segment empty, and is slow to
// look for the next one while push fills the segment and links the next,
// must look at the segment again before it moves on: items would be lost
// otherwise. That interleaving needs a pop to stall between two loads
// while 16 items are pushed, which this test seldom meets;
// TestQueuePopLooksAgainBeforeMovingOn plays it step by step.
func TestQueueGivesEachItemOnceToConcurrentPops(t *testing.T) {
	const items, poppers = 5000, 4
	q := newQueue[int](1)
	var wg sync.WaitGroup
	got := make([][]int, poppers)
	done := make(chan struct{})
	for p := range poppers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var j task[int]
			for {
				if q.pop(&j) {
					got[p] = append(got[p], j.item)
					continue
				}
				select {
				case <-done:
					for q.pop(&j) {
						got[p] = append(got[p], j.item)
					}
					return
				default:
					runtime.Gosched()
				}
			}
		}()
	}
	for i := range items {
		q.push(&task[int]{item: i, seq: int64(i)})
	}
	close(done)
	wg.Wait()
	seen := make([]bool, items)
	for p, g := range got {
		for k, v := range g {
			if seen[v] {
				t.Fatalf("item %d popped twice", v)
			}
			seen[v] = true
			if k > 0 && g[k-1] > v {
				t.Fatalf("popper %d took %d after %d", p, v, g[k-1])
			}
		}
	}
	for i, s := range seen {
		if !s {
			t.Fatalf("item %d never popped", i)
		}
	}
}

// An executor holding more items that can start than a segment of its
// queue holds (WithMaxHeld above ringMax) runs them all, in submission
// order on one consumer: chained segments keep WithMaxHeld's meaning.
func TestExecutorHoldsMoreThanTheRing(t *testing.T) {
	const n = ringMax + 1000
	gate := make(chan struct{})
	var order []int
	x, err := New(konvoy.Free, 1, func(int) konvoy.Event { return konvoy.Event{} }, func(_ context.Context, i int) error {
		if i == 0 {
			<-gate
		}
		order = append(order, i)
		return nil
	}, WithMaxHeld(n))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := x.Submit(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	if room, _ := x.Room(); room != 0 {
		t.Fatalf("Room() = %d with %d held; want 0", room, n)
	}
	close(gate)
	if err := mustClose(t, x); err != nil {
		t.Fatal(err)
	}
	for i, v := range order {
		if v != i {
			t.Fatalf("item %d ran %dth", v, i)
		}
	}
	if len(order) != n {
		t.Fatalf("%d items ran; want %d", len(order), n)
	}
}

// A pop that found the first segment empty, and then finds a segment
// linked after it, takes what the first segment holds after all before it
// moves on: push filled it (16 items) and linked the next (the 17th)
// between the pop's two looks. Moving on would skip items 0 to 15.
func TestQueuePopLooksAgainBeforeMovingOn(t *testing.T) {
	q := newQueue[int](1)
	first := q.first.Load()
	var j task[int]
	if first.pop(&j) {
		t.Fatal("an empty segment gave an item")
	}
	for i := range 17 {
		q.push(&task[int]{item: i, seq: int64(i)})
	}
	if first.next.Load() == nil {
		t.Fatal("17 items pushed into 16 cells linked no segment")
	}
	if took, moved := q.next(first, &j); !took || !moved || j.item != 0 {
		t.Fatalf("next = %v, %v, item %d; want item 0 from the first segment", took, moved, j.item)
	}
	for want := 1; want < 17; want++ {
		if !q.pop(&j) || j.item != want {
			t.Fatalf("popped %d; want %d", j.item, want)
		}
	}
	if q.pop(&j) || q.first.Load() == first {
		t.Fatalf("after 17 pops: an item left, or the first segment not moved on")
	}
}
