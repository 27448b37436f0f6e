package live

import (
	"math"
	"sync"
)

// Under the static policy each consumer has its own queue, an inbox, of
// the items of the lanes dealt to it: Submit puts an item there, under the
// executor's lock and the inbox's, and the consumer runs its inbox's items
// one after another taking only the inbox's lock, so that consumers do not
// contend for the executor's lock item by item. What a consumer counts
// while it runs them (items done, their latencies, the room they leave) it
// adds to the executor's measures under the executor's lock when it
// settles (settle): when its inbox is empty, when an older item without a
// lane waits, when the executor stops, when a Submit waits for room, and
// when Stats asks. Items without a lane wait in the executor's fifo, as
// under the other policies, for any consumer.

// entry is an item in an inbox, with what its slot held.
type entry[T any] struct {
	item      T
	seq       int
	submitted int64 // nanoseconds since the executor's epoch
	part      int32 // WithOffsets: the source partition's index
	off       int   // and the item's entry in it
}

// inbox is a consumer's queue under the static policy, and what the
// consumer counted and has not settled. Its lock is taken after the
// executor's, never before.
type inbox[T any] struct {
	mu      sync.Mutex
	q       []entry[T] // from head on, in submission order
	head    int
	running bool  // the consumer runs one of its items
	cur     T     // and this is the item, for Lanes
	done    int   // items handled, not settled
	lat     []int // wait and response of each item done, not settled
	_       [64]byte
}

// settleEvery is the most items a consumer runs from its inbox before it
// settles: it bounds the latencies an inbox keeps.
const settleEvery = 256

// push puts e at the inbox's tail.
func (c *inbox[T]) push(e entry[T]) {
	if c.head > 0 && c.head == len(c.q) {
		c.q, c.head = c.q[:0], 0
	} else if c.head > 32 && 2*c.head > len(c.q) { // keep the queue's memory that of the items held
		n := copy(c.q, c.q[c.head:])
		clear(c.q[n:])
		c.q, c.head = c.q[:n], 0
	}
	c.q = append(c.q, e)
}

// pop takes the inbox's head, which it must have.
func (c *inbox[T]) pop() entry[T] {
	e := c.q[c.head]
	c.q[c.head] = entry[T]{}
	c.head++
	return e
}

// empty tells whether the inbox has no item waiting.
func (c *inbox[T]) empty() bool { return c.head == len(c.q) }

// noFree is freeSeq when the fifo is empty.
const noFree = math.MaxInt64

// toInbox moves slot i, an item of a lane dealt to consumer o, into o's
// inbox, and frees the slot; the item stays held.
func (x *Executor[T]) toInbox(i int32, o int) {
	s := &x.slots[i]
	x.deliver(o, entry[T]{item: s.item, seq: s.seq, submitted: s.submitted, part: s.part, off: s.entry})
	x.slots[i] = slot[T]{}
	x.free = append(x.free, i)
}

// holdOwn holds item, submitted at time t, of a lane dealt to consumer o,
// in o's inbox, as alloc and toInbox would without the slot between.
func (x *Executor[T]) holdOwn(item T, t int64, o int) {
	x.deliver(o, entry[T]{item: item, seq: x.seq, submitted: t})
	x.seq++
	x.events++
	x.held++
}

// deliver puts e in consumer o's inbox and wakes o if it is parked.
func (x *Executor[T]) deliver(o int, e entry[T]) {
	c := &x.inboxes[o]
	c.mu.Lock()
	c.push(e)
	c.mu.Unlock()
	x.wakeOne(int32(o))
}

// setFreeSeq records the submission number of the fifo's head, which the
// consumers read outside the lock, under the static policy.
func (x *Executor[T]) setFreeSeq() {
	if h := x.fifo.head; h >= 0 {
		x.freeSeq.Store(int64(x.slots[h].seq))
	} else {
		x.freeSeq.Store(noFree)
	}
}

// countRun counts, under the static policy, a consumer's run of an item
// begun (d = 1) or ended (d = −1) in running, and the most running at once
// in peak.
func (x *Executor[T]) countRun(d int64) {
	if n := x.running.Add(d); d > 0 {
		for p := x.peak.Load(); n > p && !x.peak.CompareAndSwap(p, n); p = x.peak.Load() {
		}
	}
}

// runOwn runs consumer w's inbox items, from time t when the consumer
// became free, without the executor's lock, until its inbox is empty, an
// older item without a lane waits, the executor stops, a Submit waits for
// the room its items done left, or it has run settleEvery items. An item whose outcome needs more
// than counting (a failure, a dead letter, a skip, an offset) it returns
// with its outcome, the time it started, and true, still counted as
// running, for finishOwn. It returns the time the consumer last became
// free.
func (x *Executor[T]) runOwn(w int32, t int64) (e entry[T], r outcome, start, now int64, ok bool) {
	c := &x.inboxes[w]
	c.mu.Lock()
	for {
		if c.empty() || len(c.lat) >= 2*settleEvery || x.halt.Load() || c.done > 0 && x.waitingN.Load() > 0 ||
			x.freeSeq.Load() < int64(c.q[c.head].seq) {
			if c.running {
				c.running = false
				c.cur = *new(T)
				x.countRun(-1)
			}
			c.mu.Unlock()
			return e, r, t, t, false
		}
		if !c.running {
			c.running = true
			x.countRun(1)
		}
		e = c.pop()
		c.cur = e.item
		c.mu.Unlock()
		start = t
		r = x.run(w, e.item, e.seq)
		t = x.now()
		if r.err != nil || r.dead || r.skipped || x.offsets != nil {
			return e, r, start, t, true
		}
		c.mu.Lock()
		c.done++
		c.lat = append(c.lat, int(max(start-e.submitted, 0)), int(max(t-e.submitted, 0)))
	}
}

// finishOwn ends, under the executor's lock, the run of inbox item e of
// consumer w, started at time start and finished at t with outcome r, as
// finish does a slot's.
func (x *Executor[T]) finishOwn(w int32, e entry[T], r outcome, start, t int64) {
	x.settle(w)
	x.wait.Add(int(max(start-e.submitted, 0)))
	if x.offsets != nil && r.err == nil {
		x.finishOffsetAt(e.part, e.off)
	}
	x.account(e.seq, e.item, e.submitted, r, t)
	x.held--
	c := &x.inboxes[w]
	c.mu.Lock()
	c.running = false
	c.cur = *new(T)
	x.countRun(-1)
	c.mu.Unlock()
	if x.waiting > 0 {
		x.passSpace()
	}
	x.checkDrained()
}

// settle adds what consumer w counted and has not settled to the
// executor's measures, under the executor's lock.
func (x *Executor[T]) settle(w int32) {
	c := &x.inboxes[w]
	c.mu.Lock()
	for j := 0; j < len(c.lat); j += 2 {
		x.wait.Add(c.lat[j])
		x.response.Add(c.lat[j+1])
	}
	x.done += c.done
	x.held -= c.done
	n := c.done
	c.lat, c.done = c.lat[:0], 0
	c.mu.Unlock()
	if n > 0 && x.waiting > 0 {
		x.passSpace()
	}
	x.checkDrained() // also when another settled w's items while it ran them
}

// settleAll settles every consumer, under the static policy.
func (x *Executor[T]) settleAll() {
	for w := range x.inboxes {
		x.settle(int32(w))
	}
}

// inFlightNow returns the items running now.
func (x *Executor[T]) inFlightNow() int {
	if x.inboxes != nil {
		return int(x.running.Load())
	}
	return x.inFlight
}

// maxInFlightNow returns the most items that ran at once.
func (x *Executor[T]) maxInFlightNow() int {
	if x.inboxes != nil {
		return int(x.peak.Load())
	}
	return x.maxInFlight
}

// unrunOwn appends the items left in the inboxes to left.
func (x *Executor[T]) unrunOwn(left []unrun[T]) []unrun[T] {
	for w := range x.inboxes {
		c := &x.inboxes[w]
		c.mu.Lock()
		for _, e := range c.q[c.head:] {
			left = append(left, unrun[T]{e.seq, e.item})
		}
		c.mu.Unlock()
	}
	return left
}
