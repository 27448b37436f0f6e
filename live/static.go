package live

import (
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

// inbox is a consumer's queue under the static policy: Submit pushes its
// items, under the submit lock, and the consumer alone pops them, so that
// the two share no lock (see queue). The consumer pops under mu, which
// only Lanes and Close also take, to read what the inbox holds.
type inbox[T any] struct {
	q       atomic.Pointer[queue[T]] // made when the first item is delivered
	mu      sync.Mutex
	cur     task[T]     // under mu: the item the consumer took from q last
	running atomic.Bool // the consumer runs cur
	_       pad
}

// inboxFirst is the cells of an inbox's first segment: it grows as its
// consumer's items held do (see queue).
const inboxFirst = 16

// deliver puts j in consumer o's inbox, under the submit lock, and wakes o
// if it is parked.
func (x *Executor[T]) deliver(o int, j *task[T]) {
	x.inboxes[o].put(j, x.maxHeld)
	x.wakeOne(int32(o))
}

// put adds j to the inbox, under the submit lock, making its queue for an
// executor holding up to maxHeld items when it has none.
func (c *inbox[T]) put(j *task[T], maxHeld int) {
	q := c.q.Load()
	if q == nil {
		q = newQueue[T](maxHeld, inboxFirst)
		c.q.Store(q)
	}
	q.push(j)
}

// head returns the submission number of the inbox's next item, and false
// when it has none.
func (c *inbox[T]) head() (int, bool) {
	if q := c.q.Load(); q != nil {
		return q.head()
	}
	return 0, false
}

// take pops the inbox's next item, which head found, into j, and marks it
// running. Only the inbox's consumer calls it.
func (c *inbox[T]) take(j *task[T]) {
	c.mu.Lock()
	c.q.Load().pop(j)
	c.cur = *j
	c.mu.Unlock()
	c.running.Store(true)
}

// idle marks the inbox's consumer as running none of its items.
func (c *inbox[T]) idle() {
	if c.running.Load() {
		c.running.Store(false)
	}
}

// held returns the items of the inbox held and not started, and the item
// its consumer runs, if it runs one of the inbox's, under mu and the
// submit lock.
func (c *inbox[T]) held() (waiting []task[T], cur task[T], running bool) {
	if q := c.q.Load(); q != nil {
		waiting = q.held(nil)
	}
	return waiting, c.cur, c.running.Load()
}
