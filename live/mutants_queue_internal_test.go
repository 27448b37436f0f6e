package live

import (
	"fmt"
	"math/bits"
	"testing"
)

// A queue made for n items has segments of at most the cells n items
// need: n rounded up to a power of 2, at least 16 and at most ringMax; its
// first has 64 at most, and each segment linked after a full one twice
// the cells of that one, up to that bound. Pushing three times n items,
// none popped, links segments up to the bound and no further.
func TestQueueSegmentsFitTheItemsHeld(t *testing.T) {
	for _, n := range []int{1, 15, 16, 17, 63, 64, 65, 100, 128, 1000, ringMax - 1, ringMax, ringMax + 1, 4 * ringMax} {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			bound := 16
			if n > 16 {
				bound = 1 << bits.Len(uint(n-1)) // the least power of 2 not below n
			}
			bound = min(bound, ringMax)
			q := newQueue[int](n)
			if q.max != bound {
				t.Fatalf("newQueue(%d): segments of up to %d cells; want %d", n, q.max, bound)
			}
			if n > 1000 {
				return // pushing them would take memory and time for nothing more
			}
			for i := range 3 * n {
				q.push(&task[int]{item: i, seq: int64(i)})
			}
			want, sizes := min(64, bound), []int(nil)
			for s := q.first.Load(); s != nil; s = s.next.Load() {
				if len(s.cells) != want {
					t.Fatalf("segment %d of %d cells; want %d", len(sizes), len(s.cells), want)
				}
				sizes = append(sizes, len(s.cells))
				want = min(2*want, bound)
			}
			held := 0
			for _, c := range sizes {
				held += c
			}
			if held < 3*n || held-sizes[len(sizes)-1] >= 3*n {
				t.Fatalf("segments %v for %d items: want the last to be needed", sizes, 3*n)
			}
		})
	}
}

// A queue that never holds more items than its first segment's cells
// uses that segment's ring over and over, linking no other: a pop frees
// its cell for the push one ring later. Items are pushed and popped in
// turn, one held and then 16 (the first segment's cells for n = 1), for
// many rounds of the ring.
func TestQueueReusesItsRing(t *testing.T) {
	for _, held := range []int{1, 16} {
		q := newQueue[int](1)
		first := q.tail
		next, want := 0, 0
		for range 20 * len(first.cells) {
			for next-want < held {
				q.push(&task[int]{item: next, seq: int64(next)})
				next++
			}
			var j task[int]
			if !q.pop(&j) || j.item != want {
				t.Fatalf("holding %d: pop gave %d; want %d", held, j.item, want)
			}
			want++
		}
		if q.tail != first || q.first.Load() != first || first.next.Load() != nil {
			t.Errorf("holding at most %d items, the queue linked a segment after its first of %d cells", held, len(first.cells))
		}
	}
}
