package live

import "sync"

// Under the static policy each consumer has its own queue, an inbox, of
// the items of the lanes dealt to it: Submit puts an item there, and the
// consumer runs its inbox's items one after another, so that a lane's
// items never overlap and consumers never contend for an item. Items
// without a lane wait in the executor's queue, as under the other
// policies, for any consumer; a consumer takes the older of its inbox's
// head and the queue's.

// inbox is a consumer's queue under the static policy, and the item it
// runs, for Lanes.
type inbox[T any] struct {
	mu      sync.Mutex
	q       []task[T] // from head on, in submission order
	head    int
	running bool // the consumer runs an item of its inbox
	cur     T    // and this is the item
	_       [64]byte
}

// push puts j at the inbox's tail.
func (c *inbox[T]) push(j *task[T]) {
	if c.head > 0 && c.head == len(c.q) {
		c.q, c.head = c.q[:0], 0
	} else if c.head > 32 && 2*c.head > len(c.q) { // keep the queue's memory that of the items held
		n := copy(c.q, c.q[c.head:])
		clear(c.q[n:])
		c.q, c.head = c.q[:n], 0
	}
	c.q = append(c.q, *j)
}

// pop takes the inbox's head, which it must have.
func (c *inbox[T]) pop() task[T] {
	j := c.q[c.head]
	c.q[c.head] = task[T]{}
	c.head++
	return j
}

// empty tells whether the inbox has no item waiting.
func (c *inbox[T]) empty() bool { return c.head == len(c.q) }

// deliver puts j in consumer o's inbox and wakes o if it is parked.
func (x *Executor[T]) deliver(o int, j *task[T]) {
	c := &x.inboxes[o]
	c.mu.Lock()
	c.push(j)
	c.mu.Unlock()
	x.wakeOne(int32(o))
}
