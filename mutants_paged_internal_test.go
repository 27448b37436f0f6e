package konvoy

import (
	"slices"
	"testing"
)

// A fifo's only page, full but with exactly half of it popped, makes room
// by moving what it holds to its front, not by growing or taking a second
// page: push's doc says it allocates while the first page grows only when
// more than half of that page is held. Worked by hand for a first page of
// 16 (16 pushed, 8 popped, one more pushed: 9 held in the same 16) and for
// a whole page of pagedSize (pagedSize pushed, half popped, one more: one
// page of pagedSize still).
func TestFifoCompactsAnOnlyPageHeldExactlyHalf(t *testing.T) {
	for _, size := range []int{16, pagedSize} {
		var q fifo[int]
		for i := range size {
			q.push(i)
		}
		if len(q.pages) != 1 || cap(q.pages[0]) != size {
			t.Fatalf("%d pushed: %d pages, the first of room %d; want one page of %d", size, len(q.pages), cap(q.pages[0]), size)
		}
		for i := range size / 2 {
			if got := q.pop(); got != i {
				t.Fatalf("popped %d; want %d", got, i)
			}
		}
		q.push(size)
		if len(q.pages) != 1 || cap(q.pages[0]) != size {
			t.Errorf("page of %d, half popped, one pushed: %d pages, the first of room %d; want one page of room %d", size, len(q.pages), cap(q.pages[0]), size)
		}
		var want []int
		for i := size / 2; i <= size; i++ {
			want = append(want, i)
		}
		if got := q.elements(); !slices.Equal(got, want) {
			t.Errorf("page of %d: holds %v; want %d to %d", size, got, size/2, size)
		}
	}
}
