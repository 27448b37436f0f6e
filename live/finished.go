package live

import "sync/atomic"

// Under lane-aware the consumer of an item that took a slot (see
// slotTable) does not clear the slot: it adds the item to the log of
// finished items, a ring that consumers append to without a lock, and the
// holder of the submit lock clears the slots of the items in it
// (drainFinished). Submit does so every drainEvery items, and before it
// finds a slot held by one item (see joinLane). So when lanes seldom have
// a second item, the common case with many keys, Submit and the consumers
// write no slot's memory both: the slots are read and written on Submit's
// core, and a finish reaches it through the ring, whose cells are written
// and read in order, which the processors' prefetchers follow, where a
// word that both sides wrote cost each side a cache miss for every item.
//
// A lane whose item took a slot may have a next item waiting, moved with it
// to the shard, which must not wait long for that item's finish to be read.
// While any item waits in a lane (x.laneWaitN > 0: it counts the lanes with
// items waiting, not the items, so that a lane's later items write no word
// that every consumer reads), the consumer looks at its slot, and frees its
// lane itself, under its shard's lock, when the lane has moved to the
// shard. Otherwise it adds its item to the log and looks again (logged):
// when the lane has moved meanwhile, it drains the log under the submit
// lock. And whoever lets go of the submit lock drains what came meanwhile,
// when an item waits (unlockSub). A consumer adds its item before it reads
// x.laneWaitN and its slot, and the holder moves the lane and raises
// x.laneWaitN before it reads the log after letting go: so one of the two
// sees the other's writes. A cell taken and not yet written stops every
// reader, hiding the cells after it: its writer, once it has written it,
// drains the log when it was the next to read and later cells are taken
// (logged). So no finish is left in the log while an item waits for it with
// the lock free.

// finishLog is the log of finished items that took slots: a bounded ring
// of cells after D. Vyukov's queue, appended to by any consumer with one
// compare-and-swap and read, in order, under the submit lock. A cell is 16
// bytes, four to a cache line.
type finishLog struct {
	cells []finCell
	mask  uint32
	_     pad
	enq   atomic.Uint32 // the next position to append at
	_     pad
	deq   atomic.Uint32 // the next position to read: written under the submit lock
	_     pad
}

// finCell is a place in the log, holding a finished item's lane's hash:
// turn is the position it was appended at plus 1 once it holds one, and
// the position it is free for otherwise. Positions wrap around 2^32,
// which their differences, far smaller, bear.
type finCell struct {
	turn atomic.Uint32
	hash uint64
}

// newFinishLog returns a log of n cells, at least 64 and at most ringMax,
// rounded up to a power of 2.
func newFinishLog(n int) *finishLog {
	m := 64
	for m < n && m < ringMax {
		m *= 2
	}
	l := &finishLog{cells: make([]finCell, m), mask: uint32(m - 1)}
	for i := range l.cells {
		l.cells[i].turn.Store(uint32(i))
	}
	return l
}

// add appends the finished item of lane hash h and returns its position
// and true, or returns false when the log is full. It takes O(1) time,
// but for retries when consumers race.
func (l *finishLog) add(h uint64) (uint32, bool) {
	pos := l.enq.Load()
	for {
		c := &l.cells[pos&l.mask]
		switch diff := int32(c.turn.Load() - pos); {
		case diff == 0:
			if l.enq.CompareAndSwap(pos, pos+1) {
				c.hash = h
				c.turn.Store(pos + 1)
				return pos, true
			}
			pos = l.enq.Load()
		case diff < 0:
			return 0, false
		default: // another consumer took pos
			pos = l.enq.Load()
		}
	}
}

// take reads the oldest finished item's lane hash and returns true, or
// returns false when there is none yet, under the submit lock.
func (l *finishLog) take() (uint64, bool) {
	pos := l.deq.Load()
	c := &l.cells[pos&l.mask]
	if c.turn.Load() != pos+1 {
		return 0, false
	}
	h := c.hash
	c.turn.Store(pos + l.mask + 1)
	l.deq.Store(pos + 1)
	return h, true
}

// ready tells whether take would read an item.
func (l *finishLog) ready() bool {
	pos := l.deq.Load()
	return l.cells[pos&l.mask].turn.Load() == pos+1
}

// leaveSlot frees the lane of j, which took its slot and has finished, as
// leaveLane does (see above): itself, when an item waits in a lane and j's
// lane has moved to its shard; or by adding j to the log, then draining
// the log under the submit lock when j's lane has moved meanwhile, with
// an item waiting; or, when the log is full, under the submit lock.
func (x *Executor[T]) leaveSlot(j, next *task[T]) bool {
	w := x.slots.at(j.hash)
	if x.laneWaitN.Load() > 0 && w.Load() != slotOne { // it left slotOne for the shard, for good
		s := x.shardOf(j.hash)
		s.mu.Lock()
		return x.leaveShard(s, j.hash, x.slots.entry[j.hash&x.slots.mask].li, next)
	}
	pos, added := x.finLog.add(j.hash)
	if added {
		return x.logged(pos, j, next)
	}
	x.subMu.Lock() // the log is full: free j's slot, and drain for the next
	carry := x.freeSlot(j.hash, next)
	x.drainFinished(nil, nil)
	x.unlockSub()
	return carry
}

// logged drains the log under the submit lock, after the consumer of j
// wrote j to it at pos, when an item waits in a lane and either j's lane
// has moved to its shard since the consumer first looked (the holder that
// moved it may have read the log before j was there), or j's cell was the
// next to read and later cells are taken: the holder may have found the
// log not ready at j's cell, which hid those behind it. The writer of each
// cell that stopped a reader so sees to the cells after it. It returns
// true with the next item of j's lane in next when it freed that lane.
func (x *Executor[T]) logged(pos uint32, j, next *task[T]) bool {
	if x.laneWaitN.Load() == 0 {
		return false
	}
	l := x.finLog
	if x.slots.at(j.hash).Load() == slotOne && (l.deq.Load() != pos || l.enq.Load() == pos+1) {
		return false
	}
	x.subMu.Lock()
	carry := x.drainFinished(j, next)
	x.unlockSub()
	return carry
}

// unlockSub lets go of the submit lock, and then, when an item waits in a
// lane, drains the finished items that came while it was held: their
// consumers may have left them to it (see leaveSlot). It takes the lock
// again to drain, rather than trying it: sync.Mutex's TryLock may fail
// with the lock free, as it reads the lock's state with a plain load.
func (x *Executor[T]) unlockSub() {
	x.subMu.Unlock()
	if x.finLog != nil && x.laneWaitN.Load() > 0 && x.finLog.ready() {
		x.subMu.Lock()
		x.drainFinished(nil, nil)
		x.subMu.Unlock()
	}
}

// drainFinished frees the slots, or lanes, of the finished items in the
// log, under the submit lock, making their lanes' next items ready. The
// next item of the lane of mine, when not nil, goes in next, and
// drainFinished returns true, when mine is among them; the rest go in the
// heap of ready items. It takes O(1) time an item, and O(log n) for a next
// item made ready with n ready.
func (x *Executor[T]) drainFinished(mine, next *task[T]) bool {
	if x.finLog == nil {
		return false
	}
	carry := false
	var n task[T]
	for {
		h, ok := x.finLog.take()
		if !ok {
			return carry
		}
		if !x.freeSlot(h, &n) {
			continue
		}
		if mine != nil && h == mine.hash {
			*next, carry = n, true // no other item of its slot is in the log meanwhile
		} else {
			x.pushReady(&n)
		}
		n = task[T]{}
	}
}

// lockSub takes the submit lock and frees the slots of the items finished
// so far, for a reader of the lanes.
func (x *Executor[T]) lockSub() {
	x.subMu.Lock()
	x.drainFinished(nil, nil)
}
