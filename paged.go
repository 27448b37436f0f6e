package konvoy

// paged is a growable array kept in pages of 4096 elements, so that
// growing it never copies what it already holds. The simulator keeps one
// element per key or lane in them, and lane-aware dispatch its backlog:
// with millions of keys or events held, an ordinary slice would copy tens
// of megabytes at every growth, hold the old copy and the new at once, and
// the garbage collector would wait for each copy to finish. The first page
// grows like a slice, so that a small run stays small.
type paged[T any] struct {
	pages [][]T
	n     int
}

const (
	pagedBits = 12
	pagedSize = 1 << pagedBits
	pagedMask = pagedSize - 1
)

// len returns the number of elements.
func (v *paged[T]) len() int { return v.n }

// at returns a pointer to element i, valid until the next add: the first
// page moves while it grows.
func (v *paged[T]) at(i int) *T { return &v.pages[i>>pagedBits][i&pagedMask] }

// add appends x and returns its index. It takes O(1) amortised time and
// allocates only at the start of a page or while the first page grows.
func (v *paged[T]) add(x T) int {
	if v.n&pagedMask == 0 {
		size := pagedSize
		if v.n == 0 {
			size = 16
		}
		v.pages = append(v.pages, make([]T, 0, size))
	}
	p := &v.pages[len(v.pages)-1]
	if len(*p) == cap(*p) { // the first page, growing: double it, up to a whole page
		*p = append(make([]T, 0, min(2*cap(*p), pagedSize)), *p...)
	}
	*p = append(*p, x)
	v.n++
	return v.n - 1
}

// keySteps is each key's state, the last step applied to it, by key index,
// from step 0. The resequencer's handler follows a key's state through a
// pointer (at), so under it a key takes 8 bytes (wide); under the other
// handlers 4, a step of 2³²−1 or more kept in a map beside and marked
// 2³²−1 in place, so that a run's state of a million keys is 4 MB, and
// exact for any step.
type keySteps struct {
	wide   bool
	words  paged[int]    // when wide
	small  paged[uint32] // when not
	large  map[int]int   // when not: the steps of 2³²−1 or more, by key
	length int
}

// inMap marks, in keySteps.small, a step kept in keySteps.large.
const inMap = 1<<32 - 1

// len returns the number of keys.
func (v *keySteps) len() int { return v.length }

// add adds a key at step 0, in O(1) amortised time.
func (v *keySteps) add() {
	if v.wide {
		v.words.add(0)
	} else {
		v.small.add(0)
	}
	v.length++
}

// get returns key k's step.
func (v *keySteps) get(k int) int {
	if v.wide {
		return *v.words.at(k)
	}
	return v.read(k, v.slot(k))
}

// slot returns where key k's step is kept, or marked (inMap), when not
// wide; valid until the next add.
func (v *keySteps) slot(k int) *uint32 { return v.small.at(k) }

// read returns key k's step, whose slot is p.
func (v *keySteps) read(k int, p *uint32) int {
	if *p != inMap {
		return int(*p)
	}
	return v.large[k]
}

// put makes key k's step, whose slot is p, step, which is not negative. It
// leaves a step the key had in the map there, unread (read reads the map
// only for a mark): one entry a key at most.
func (v *keySteps) put(k int, p *uint32, step int) {
	if uint64(step) < inMap {
		*p = uint32(step)
		return
	}
	if v.large == nil {
		v.large = make(map[int]int)
	}
	*p = inMap
	v.large[k] = step
}

// at returns a pointer to key k's step, valid until the next add; only
// when wide.
func (v *keySteps) at(k int) *int { return v.words.at(k) }

// fifo is a first-in, first-out queue kept in pages as paged is: pushing
// never copies what it holds beyond one page, and a page is let go of once
// every element on it was popped, so that a queue's memory follows what it
// holds, within a page and one spare, not what went through it. Its first
// page grows like a slice while it is the only one, so that a small queue
// stays small, and keeps the room the queue needed once it empties.
type fifo[T any] struct {
	pages [][]T // pages[0][head:], then every other page whole
	head  int
	n     int
	spare []T // a whole page, emptied, kept for the next
}

// len returns the number of elements.
func (q *fifo[T]) len() int { return q.n }

// front returns a pointer to the first element, valid until the next push
// or pop; the queue must not be empty.
func (q *fifo[T]) front() *T { return &q.pages[0][q.head] }

// push appends x, in O(1) time amortised; it allocates only at the start
// of a page or while the first page grows, which it does only when more
// than half of that page is held.
func (q *fifo[T]) push(x T) {
	if len(q.pages) == 0 {
		q.pages = append(q.pages, make([]T, 0, 16))
	}
	last := &q.pages[len(q.pages)-1]
	if len(*last) == cap(*last) {
		switch {
		case len(q.pages) == 1 && len(*last)-q.head <= cap(*last)/2:
			// The only page, mostly popped: what it holds moves to its
			// front, so that a queue that never empties stays as small as
			// what it holds.
			n := copy(*last, (*last)[q.head:])
			clear((*last)[n:])
			*last, q.head = (*last)[:n], 0
		case cap(*last) < pagedSize: // the only page, growing: double it, up to a whole page
			*last = append(make([]T, 0, min(2*cap(*last), pagedSize)), (*last)[q.head:]...)
			q.head = 0
		case q.spare != nil:
			q.pages, q.spare = append(q.pages, q.spare), nil
		default:
			q.pages = append(q.pages, make([]T, 0, pagedSize))
		}
		last = &q.pages[len(q.pages)-1]
	}
	*last = append(*last, x)
	q.n++
}

// pop removes the first element and returns it, in O(1) time amortised
// (O(p) for p pages once a page is let go of); the queue must not be
// empty.
func (q *fifo[T]) pop() T {
	p := q.pages[0]
	x := p[q.head]
	q.head++
	q.n--
	if q.head < len(p) {
		return x
	}
	q.head = 0
	clear(p) // what its elements point to, if anything, is let go of too
	if len(q.pages) == 1 {
		// Empty: the page stays for what comes next.
		q.pages[0] = p[:0]
		return x
	}
	q.spare = p[:0] // a whole page: only the first page of one grows
	q.pages = append(q.pages[:0], q.pages[1:]...)
	return x
}
