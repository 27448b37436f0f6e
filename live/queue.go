package live

import "sync/atomic"

// queue is the executor's queue of items that can start, in submission
// order (lane-aware: the items first in their lane when submitted, and
// items without a lane; head-of-line: every item; static: items without a
// lane). One goroutine at a time pushes (Submit and the resequencer, under
// the executor's submit lock); any consumer pops, without a lock, one
// compare-and-swap a pop. It is a chain of segments, each a ring of cells
// after D. Vyukov's bounded queue: push fills the last segment, and when
// it is full links a new one, twice as large up to ringMax cells; pops
// take from the first, and move on to the next once it is empty. So its
// memory is that of the most items it held at once, and it allocates only
// when it holds more items than ever before (or, beyond ringMax, a
// segment for every ringMax items pushed while it holds that many).
type queue[T any] struct {
	first atomic.Pointer[segment[T]] // the segment pops take from
	_     [64]byte
	tail  *segment[T] // the segment push fills: the pusher's alone
	max   int         // the most cells a segment has
}

// segment is a ring of cells, and the segment linked after it once it was
// full; no item is pushed into it after that.
type segment[T any] struct {
	cells []cell[T]
	mask  uint64
	next  atomic.Pointer[segment[T]]
	_     [64]byte
	enq   uint64 // the next position to push: the pusher's alone, under the submit lock (see push)
	_     [64]byte
	deq   atomic.Uint64 // the next position to pop
	_     [64]byte
}

// cell is a place in a ring: turn tells whether it holds an item (the
// position it was pushed at, plus 1) or is free for position turn.
type cell[T any] struct {
	turn atomic.Uint64
	seq  atomic.Int64 // the item's submission number, for head
	task task[T]
}

// ringMax is the most cells a queue's segment has.
const ringMax = 1 << 16

// newQueue returns an empty queue whose segments have at most as many
// cells as n items need, at least 16 and at most ringMax; its first has
// 64 at most.
func newQueue[T any](n int) *queue[T] {
	m := 16
	for m < n && m < ringMax {
		m *= 2
	}
	q := &queue[T]{max: m}
	q.tail = newSegment[T](min(m, 64))
	q.first.Store(q.tail)
	return q
}

// newSegment returns an empty segment of n cells, a power of 2.
func newSegment[T any](n int) *segment[T] {
	s := &segment[T]{cells: make([]cell[T], n), mask: uint64(n - 1)}
	for i := range s.cells {
		s.cells[i].turn.Store(uint64(i))
	}
	return s
}

// push adds j at the tail, in O(1) amortised time.
func (q *queue[T]) push(j *task[T]) {
	if q.tail.push(j) {
		return
	}
	n := newSegment[T](min(2*len(q.tail.cells), q.max))
	n.push(j)
	q.tail.next.Store(n) // after its last item: see pop
	q.tail = n
}

// push adds j to the segment and returns true, or returns false when the
// segment is full. Its stores of the cell's number and turn are atomic,
// for the consumers that read them; enq, which no consumer reads, is a
// plain word: on amd64 an atomic store is a full fence, and a third in
// every push showed in Submit's cost (3 to 7% of a no-op item's).
func (s *segment[T]) push(j *task[T]) bool {
	pos := s.enq
	c := &s.cells[pos&s.mask]
	if c.turn.Load() != pos { // the pop of pos−len(cells) has not copied its item out
		return false
	}
	c.task = *j
	c.seq.Store(j.seq)
	s.enq = pos + 1
	c.turn.Store(pos + 1)
	return true
}

// pop takes the head into j and returns true, or returns false when the
// queue is empty. It takes O(1) time.
func (q *queue[T]) pop(j *task[T]) bool {
	for {
		s := q.first.Load()
		if s.pop(j) {
			return true
		}
		if took, moved := q.next(s, j); took || !moved {
			return took
		}
	}
}

// next is pop's step once segment s, the first, held no item: when a
// segment is linked after s, it takes the item that s holds after all into
// j (every item of s was pushed before the link, so one that s seemed not
// to hold a moment ago is there now), or else moves the first segment on.
// It reports whether it took an item, and whether there is a next segment.
func (q *queue[T]) next(s *segment[T], j *task[T]) (took, moved bool) {
	n := s.next.Load()
	if n == nil {
		return false, false
	}
	if s.pop(j) {
		return true, true
	}
	q.first.CompareAndSwap(s, n)
	return false, true
}

// pop takes the segment's head into j and returns true, or returns false
// when the segment holds no item.
func (s *segment[T]) pop(j *task[T]) bool {
	pos := s.deq.Load()
	for {
		c := &s.cells[pos&s.mask]
		switch d := int64(c.turn.Load() - (pos + 1)); {
		case d == 0:
			if s.deq.CompareAndSwap(pos, pos+1) {
				*j = c.task
				c.task = task[T]{}
				c.turn.Store(pos + s.mask + 1)
				return true
			}
			pos = s.deq.Load()
		case d < 0:
			return false
		default: // another consumer popped pos
			pos = s.deq.Load()
		}
	}
}

// head returns the submission number of the head, and false when the
// queue is empty.
func (q *queue[T]) head() (int64, bool) {
	s := q.first.Load()
	for {
		next := s.next.Load() // before the cell: see pop
		pos := s.deq.Load()
		c := &s.cells[pos&s.mask]
		switch d := int64(c.turn.Load() - (pos + 1)); {
		case d == 0:
			return c.seq.Load(), true
		case d < 0 && next == nil:
			return 0, false
		case d < 0:
			s = next // s is empty for good
		}
	}
}

// empty tells whether the queue has no item.
func (q *queue[T]) empty() bool {
	_, ok := q.head()
	return !ok
}

// drain appends every item left to out, for Close once the consumers
// have ended.
func (q *queue[T]) drain(out []task[T]) []task[T] {
	var j task[T]
	for q.pop(&j) {
		out = append(out, j)
	}
	return out
}
