package live

import "sync/atomic"

// Under lane-aware the lanes are Submit's: only a holder of the submit
// lock reads or changes them. A consumer that finishes an item of a lane
// does not free the lane itself: it adds the item to the log of finished
// items, a ring that consumers append to without a lock, and the holder of
// the submit lock frees their lanes (drainFinished), as Submit does before
// it places each item. So Submit and the consumers share no lane's memory:
// the lanes are read and written on Submit's core, and a finish crosses
// to it through the ring, whose cells are written and read in order,
// which the processors' prefetchers follow.
//
// An item whose lane has a next item waiting must not wait long for its
// finish to be read. While any item waits in a lane (lanes.waiting), a
// consumer that adds to the log drains it itself if it wins the submit
// lock, and whoever lets go of the submit lock drains what came meanwhile
// (unlockSub). A consumer adds its item before it reads the count, and a
// holder counts a waiting item before it reads the log after letting go:
// so one of the two sees the other's write, and no finish is left in the
// log while an item waits for it with the lock free.

// finishLog is the log of finished items of lanes: a bounded ring of
// cells after D. Vyukov's queue, appended to by any consumer with one
// compare-and-swap and read, in order, under the submit lock.
type finishLog struct {
	cells []finCell
	mask  uint64
	_     pad
	enq   atomic.Uint64 // the next position to append at
	_     pad
	deq   atomic.Uint64 // the next position to read: written under the submit lock
	_     pad
}

// finCell is a place in the log: turn is the position it was appended at
// plus 1 once it holds a finished item, and the position it is free for
// otherwise.
type finCell struct {
	turn atomic.Uint64
	done finDone
}

// finDone is a finished item as its lane needs it: the lane's hash, its
// index in its shard, and the item's submission number.
type finDone struct {
	hash uint64
	seq  int
	li   int32
}

// newFinishLog returns a log of n cells, at least 64 and at most ringMax,
// rounded up to a power of 2.
func newFinishLog(n int) *finishLog {
	m := 64
	for m < n && m < ringMax {
		m *= 2
	}
	l := &finishLog{cells: make([]finCell, m), mask: uint64(m - 1)}
	for i := range l.cells {
		l.cells[i].turn.Store(uint64(i))
	}
	return l
}

// add appends d and returns true, or returns false when the log is full.
// It takes O(1) time, but for retries when consumers race.
func (l *finishLog) add(d finDone) bool {
	pos := l.enq.Load()
	for {
		c := &l.cells[pos&l.mask]
		switch diff := int64(c.turn.Load() - pos); {
		case diff == 0:
			if l.enq.CompareAndSwap(pos, pos+1) {
				c.done = d
				c.turn.Store(pos + 1)
				return true
			}
			pos = l.enq.Load()
		case diff < 0:
			return false
		default: // another consumer took pos
			pos = l.enq.Load()
		}
	}
}

// take reads the oldest finished item into d and returns true, or returns
// false when there is none yet, under the submit lock.
func (l *finishLog) take(d *finDone) bool {
	pos := l.deq.Load()
	c := &l.cells[pos&l.mask]
	if c.turn.Load() != pos+1 {
		return false
	}
	*d = c.done
	c.turn.Store(pos + l.mask + 1)
	l.deq.Store(pos + 1)
	return true
}

// ready tells whether take would read an item.
func (l *finishLog) ready() bool {
	pos := l.deq.Load()
	return l.cells[pos&l.mask].turn.Load() == pos+1
}

// logFinish adds j, of a lane, which consumer has finished, to the log,
// and drains the log when an item waits in a lane (see above). When the
// log is full it frees j's lane itself, under the submit lock. It returns
// true with the next item of j's lane in next when this consumer freed the
// lane (see takeReady).
func (x *Executor[T]) logFinish(j, next *task[T]) bool {
	d := finDone{hash: j.hash, seq: j.seq, li: j.li}
	if !x.finLog.add(d) {
		x.subMu.Lock()
		x.drainFinished(-1, nil)
		carry := x.freeLane(d.hash, d.li, next)
		x.unlockSub()
		return carry
	}
	if x.laneWaitN.Load() == 0 {
		return false
	}
	return x.tryDrain(j.seq, next)
}

// tryDrain drains the log while it has items and the submit lock is free.
// It returns true with the next item of the lane of item mine in next
// when it freed that lane.
func (x *Executor[T]) tryDrain(mine int, next *task[T]) bool {
	carry := false
	for x.finLog.ready() && x.subMu.TryLock() {
		carry = x.drainFinished(mine, next) || carry
		mine = -1
		x.subMu.Unlock()
	}
	return carry
}

// unlockSub lets go of the submit lock, and then drains the finished items
// that came while it was held, when an item waits in a lane: a consumer
// that found the lock held left them to its holder.
func (x *Executor[T]) unlockSub() {
	x.subMu.Unlock()
	if x.finLog != nil && x.laneWaitN.Load() > 0 {
		x.tryDrain(-1, nil)
	}
}

// drainFinished frees the lanes of the finished items in the log, under
// the submit lock, making their next items ready. The next item of the
// lane of item mine goes in next, and drainFinished returns true, when
// mine is among them; the rest go in the heap of ready items. It takes
// O(1) time an item, and O(log n) for a next item made ready with n ready.
func (x *Executor[T]) drainFinished(mine int, next *task[T]) bool {
	if x.finLog == nil {
		return false
	}
	carry := false
	var d finDone
	var n task[T]
	for x.finLog.take(&d) {
		if !x.freeLane(d.hash, d.li, &n) {
			continue
		}
		if d.seq == mine {
			*next, carry = n, true
		} else {
			x.pushReady(&n)
		}
		n = task[T]{}
	}
	return carry
}

// lockSub takes the submit lock and frees the lanes of the items finished
// so far, for a reader of the lanes.
func (x *Executor[T]) lockSub() {
	x.subMu.Lock()
	x.drainFinished(-1, nil)
}
