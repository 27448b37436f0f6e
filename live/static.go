package live

import (
	"slices"
	"sync"
	"sync/atomic"
)

// Under the static policy each consumer has its own queue, an inbox, of
// the items of the lanes dealt to it: Submit puts an item there, and the
// consumer runs its inbox's items one after another, so that a lane's
// items never overlap and consumers never contend for an item. Items
// without a lane wait in the executor's queue, as under the other
// policies, for any consumer; a consumer takes the older of its inbox's
// head and the queue's.

// inbox is a consumer's queue under the static policy, in two parts, so
// that Submit and the consumer seldom take the same lock: Submit appends
// to q under mu; the consumer runs its batch, the items it took from q at
// once, in turn, and takes q's items as its next batch only once it ran
// them all, swapping the two under mu. The batch is written only under mu
// and by the consumer alone, so that Lanes, under mu, may read what it
// holds while the consumer reads it too.
type inbox[T any] struct {
	mu      sync.Mutex
	q       []owned[T]   // submitted since the consumer's last swap, in submission order
	_       pad          // what Submit writes, above, apart from what the consumer writes for every item
	batch   []owned[T]   // the consumer's batch, in submission order: before next, taken
	next    atomic.Int32 // the place in batch of the consumer's next item
	running atomic.Bool  // the consumer runs batch[next-1]
	_       pad
}

// owned is an item in an inbox: of its task, what its consumer needs. An
// item crosses from Submit's core to its consumer's in the inbox, so its
// size is what a no-op handler's item costs: 32 bytes for an int32 item,
// whose task takes 80.
type owned[T any] struct {
	item      T
	entry     int32 // WithOffsets: its place in chunk
	seq       int64
	submitted int64
	chunk     *offChunk
}

// ownedOf returns j as an item of an inbox.
func ownedOf[T any](j *task[T]) owned[T] {
	return owned[T]{item: j.item, entry: j.entry, seq: j.seq, submitted: j.submitted, chunk: j.chunk}
}

// task returns the task of an item of consumer w's inbox, as Submit made
// it but for its lane's name and hash, which no consumer under static
// reads.
func (o *owned[T]) task(w int32) task[T] {
	return task[T]{item: o.item, seq: o.seq, submitted: o.submitted, hasLane: true,
		own: w, queued: -1, entry: o.entry, chunk: o.chunk}
}

// deliver puts j in consumer o's inbox and wakes o if it is parked.
func (x *Executor[T]) deliver(o int, j *task[T]) {
	c := &x.inboxes[o]
	c.mu.Lock()
	c.q = append(c.q, ownedOf(j))
	c.mu.Unlock()
	x.wakeOne(int32(o))
}

// head returns the place in its batch of the inbox's consumer's next item,
// taking the items submitted since as its batch when it ran the batch out,
// and false when it has none. Only the inbox's consumer calls it.
func (c *inbox[T]) head() (int32, bool) {
	n := c.next.Load()
	if int(n) < len(c.batch) {
		return n, true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.q) == 0 {
		return n, false
	}
	clear(c.batch) // the items run: their memory is the next q's
	c.batch, c.q = c.q, c.batch[:0]
	c.next.Store(0)
	return 0, true
}

// held returns the items of the inbox held and not started, and the item
// its consumer runs, if it runs one of the inbox's, under mu.
func (c *inbox[T]) held() (waiting []owned[T], cur owned[T], running bool) {
	n := c.next.Load()
	waiting = append(slices.Clone(c.batch[n:]), c.q...)
	if c.running.Load() && n > 0 {
		cur, running = c.batch[n-1], true
	}
	return waiting, cur, running
}
