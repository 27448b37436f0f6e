package konvoy

// minHeap is a binary min-heap of values ordered by an integer key, ties by
// a second integer: its first item has the least (key, tie). Ordering by
// plain integers, rather than by a method of the value's type, lets the
// compiler inline every comparison. push and pop take O(log n) time.
type minHeap[T any] []heapItem[T]

// heapItem is one value of a minHeap with its order.
type heapItem[T any] struct {
	key, tie int
	val      T
}

// before orders items by key, then tie.
func (a *heapItem[T]) before(b *heapItem[T]) bool {
	return a.key < b.key || a.key == b.key && a.tie < b.tie
}

// push adds v with order (key, tie).
func (h *minHeap[T]) push(key, tie int, v T) {
	*h = append(*h, heapItem[T]{key, tie, v})
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if !q[i].before(&q[p]) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

// pop removes the first item and returns it; it panics when h is empty.
func (h *minHeap[T]) pop() heapItem[T] {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	q.down(0)
	*h = q
	return top
}

// down moves item i down to its place.
func (h minHeap[T]) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r].before(&h[l]) {
			m = r
		}
		if !h[m].before(&h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
