package konvoy

// ordered is a type whose values have an order of their own.
type ordered[T any] interface {
	before(T) bool
}

// minHeap is a binary min-heap: its first element is the least by before.
// push and pop take O(log n) time.
type minHeap[T ordered[T]] []T

func (h *minHeap[T]) push(x T) {
	*h = append(*h, x)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if !q[i].before(q[p]) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

func (h *minHeap[T]) pop() T {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	q.down(0)
	*h = q
	return top
}

// down moves element i down to its place.
func (h minHeap[T]) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r].before(h[l]) {
			m = r
		}
		if !h[m].before(h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
