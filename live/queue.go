package live

import (
	"sync"
	"sync/atomic"
)

// queue is the executor's queue of items that can start, in submission
// order (lane-aware: the items first in their lane when submitted, and
// items without a lane; head-of-line: every item; static: items without a
// lane). One goroutine at a time pushes (Submit and the resequencer, under
// the executor's submit lock); any consumer pops, without a lock, from a
// ring of cells (a bounded queue after D. Vyukov's, one compare-and-swap a
// pop). Beyond the ring's capacity, which holds every item for the
// default WithMaxHeld and up to ringMax, items wait in an overflow list
// under a lock, after the ring's: the ring is then empty before any
// overflow item is popped, and takes no item while the overflow has one,
// so the order holds.
type queue[T any] struct {
	cells []cell[T]
	mask  uint64
	_     [64]byte
	enq   atomic.Uint64 // the next position to push (the pusher's only)
	_     [64]byte
	deq   atomic.Uint64 // the next position to pop
	_     [64]byte
	overN atomic.Int64 // items in over
	omu   sync.Mutex
	over  []task[T] // from ohead on
	ohead int
}

// cell is a place in the ring: turn tells whether it holds a job (the
// position it was pushed at, plus 1) or is free for position turn.
type cell[T any] struct {
	turn atomic.Uint64
	seq  atomic.Int64 // the job's submission number, for peek
	job  task[T]
}

// ringMax is the most cells a queue's ring has.
const ringMax = 1 << 16

// newQueue returns a queue whose ring holds n items, up to ringMax.
func newQueue[T any](n int) *queue[T] {
	c := 16
	for c < n && c < ringMax {
		c *= 2
	}
	q := &queue[T]{cells: make([]cell[T], c), mask: uint64(c - 1)}
	for i := range q.cells {
		q.cells[i].turn.Store(uint64(i))
	}
	return q
}

// push adds j at the tail, in O(1) amortised time.
func (q *queue[T]) push(j *task[T]) {
	if q.overN.Load() == 0 {
		pos := q.enq.Load()
		c := &q.cells[pos&q.mask]
		if c.turn.Load() == pos { // free: the pop of pos−len(cells) has copied its job out
			c.job = *j
			c.seq.Store(int64(j.seq))
			q.enq.Store(pos + 1)
			c.turn.Store(pos + 1)
			return
		}
	}
	q.omu.Lock()
	q.over = append(q.over, *j)
	q.overN.Add(1)
	q.omu.Unlock()
}

// pop takes the head into j and returns true, or returns false when the
// queue is empty. It takes O(1) time.
func (q *queue[T]) pop(j *task[T]) bool {
	pos := q.deq.Load()
	for {
		c := &q.cells[pos&q.mask]
		switch d := int64(c.turn.Load() - (pos + 1)); {
		case d == 0:
			if q.deq.CompareAndSwap(pos, pos+1) {
				*j = c.job
				c.job = task[T]{}
				c.turn.Store(pos + q.mask + 1)
				return true
			}
			pos = q.deq.Load()
		case d < 0: // the ring is empty
			if q.overN.Load() == 0 {
				return false
			}
			if took, empty := q.popOver(j); took || empty {
				return took
			}
			pos = q.deq.Load() // the ring took an item meanwhile
		default: // another consumer popped pos
			pos = q.deq.Load()
		}
	}
}

// popOver takes the overflow list's head into j, once the ring looked
// empty, and returns true; or it returns false, and whether the list is
// empty too. It takes nothing while the ring holds an item: a pop that
// found the ring empty may have been slow to look at the list, while push
// filled the ring and then, the ring full, the list. (An item push is
// still writing into the ring came before any item of the list: push
// fills the ring only while the list is empty.)
func (q *queue[T]) popOver(j *task[T]) (took, empty bool) {
	q.omu.Lock()
	defer q.omu.Unlock()
	if q.ohead == len(q.over) {
		return false, true
	}
	if d := q.deq.Load(); q.cells[d&q.mask].turn.Load() == d+1 {
		return false, false
	}
	*j = q.over[q.ohead]
	q.over[q.ohead] = task[T]{}
	q.ohead++
	if q.ohead == len(q.over) {
		q.over, q.ohead = q.over[:0], 0
	}
	q.overN.Add(-1)
	return true, false
}

// head returns the submission number of the head, and false when the
// queue is empty.
func (q *queue[T]) head() (int, bool) {
	pos := q.deq.Load()
	c := &q.cells[pos&q.mask]
	if c.turn.Load() == pos+1 {
		return int(c.seq.Load()), true
	}
	if q.overN.Load() == 0 {
		return 0, false
	}
	q.omu.Lock()
	defer q.omu.Unlock()
	if q.ohead == len(q.over) {
		return 0, false
	}
	return q.over[q.ohead].seq, true
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
