package live

import "github.com/sirali-konvoy/konvoy"

// The three policies, as the model defines them (see konvoy.Policy). All
// of it runs under the executor's lock.

// takeReady is the lane-aware policy: consumer takes the oldest item that
// can start, one without a lane or the first of an idle lane. Items that
// could start when submitted wait in a queue, in submission order; the
// next items of lanes freed later, older than the queue's tail, in a heap:
// the oldest is the head of one of the two.
func (x *Executor[T]) takeReady() (int32, action) {
	var i int32
	switch f := x.fresh.head; {
	case f < 0 && len(x.ready) == 0:
		return -1, park
	case f >= 0 && (len(x.ready) == 0 || x.slots[f].seq < x.ready[0].seq):
		i = pop(&x.fresh, x.slots)
	default:
		i = x.popReady()
	}
	if ln := x.slots[i].lane; ln >= 0 {
		l := &x.laneAt[ln]
		l.busy = true
		x.popLane(l)
	}
	x.start(i)
	return i, run
}

// takeHeadOfLine is the head-of-line policy: consumer w takes the next item
// in submission order; when its lane is busy, it blocks, holding the item,
// until the lane is handed to it (see leaveLane).
func (x *Executor[T]) takeHeadOfLine(w int32) (int32, action) {
	i := pop(&x.fifo, x.slots)
	if i < 0 {
		return -1, park
	}
	if ln := x.slots[i].lane; ln >= 0 {
		l := &x.laneAt[ln]
		if l.busy {
			x.slots[i].waiter = w
			return i, block
		}
		l.busy = true
		x.popLane(l)
	}
	x.start(i)
	return i, run
}

// takeOwned is the static policy: consumer w takes the older of the next
// item of its own lanes, in its inbox, and the next item without a lane.
// A lane's items all run on its owner, one after another, so they never
// overlap.
func (x *Executor[T]) takeOwned(w int32) (int32, action) {
	c := &x.inboxes[w]
	c.mu.Lock()
	mine := !c.empty()
	older := mine && (x.fifo.head < 0 || c.q[c.head].seq < x.slots[x.fifo.head].seq)
	c.mu.Unlock()
	switch {
	case older:
		return -1, own
	case !mine && x.fifo.head < 0:
		return -1, park
	}
	i := pop(&x.fifo, x.slots)
	x.setFreeSeq()
	x.start(i)
	return i, run
}

// owner returns the consumer that runs the lane named name under the
// static policy, as the simulator deals it (konvoy.Layout.Owner). Lanes
// not dealt by a partition's number are numbered in the order first seen,
// which the executor remembers for every lane it has seen.
func (x *Executor[T]) owner(name string) int {
	seen := 0
	if x.layout.Partitions() == 0 || x.assignor == konvoy.FirstSeenAssignor {
		n, ok := x.seen[name]
		if !ok {
			n = len(x.seen)
			x.seen[name] = n
		}
		seen = n
	}
	return x.layout.Owner(x.assignor, name, seen, x.consumers)
}

// fixedOwner returns, outside the lock, the consumer that runs the lane
// named name under the static policy when the executor's state does not
// decide it (the partitions of konvoy.Partitioned and konvoy.Recorded,
// dealt by their number), and -1 otherwise.
// The owners of the partitions numbered below len(x.owners) are kept
// once found, since Owner parses the lane's name each time.
func (x *Executor[T]) fixedOwner(name string) int {
	if x.policy != konvoy.Static || x.layout.Partitions() == 0 || x.assignor == konvoy.FirstSeenAssignor {
		return -1
	}
	p := smallNumber(name)
	if p < 0 || p >= len(x.owners) {
		return x.layout.Owner(x.assignor, name, 0, x.consumers)
	}
	if o := x.owners[p].Load(); o > 0 {
		return int(o) - 1
	}
	o := x.layout.Owner(x.assignor, name, 0, x.consumers)
	x.owners[p].Store(int32(o) + 1)
	return o
}

// ownersKept is the most partitions whose owners fixedOwner keeps.
const ownersKept = 1024

// smallNumber returns the number that name writes in decimal digits, when
// it is below ownersKept, and -1 otherwise.
func smallNumber(name string) int {
	if len(name) == 0 || len(name) > 4 {
		return -1
	}
	n := 0
	for i := 0; i < len(name); i++ {
		d := name[i] - '0'
		if d > 9 {
			return -1
		}
		n = 10*n + int(d)
	}
	if n >= ownersKept {
		return -1
	}
	return n
}

// joinLane puts slot i at the tail of the lane named name, of hash h
// (laneTable.hash), making the lane when it holds no item, and returns the
// lane.
func (x *Executor[T]) joinLane(i int32, name string, h uint64) *lane {
	ln, ok := x.lanes.find(x.laneAt, name, h)
	if !ok {
		j := ln
		if n := len(x.laneFree); n > 0 {
			ln = x.laneFree[n-1]
			x.laneFree = x.laneFree[:n-1]
		} else {
			x.laneAt = append(x.laneAt, lane{})
			ln = int32(len(x.laneAt) - 1)
		}
		x.laneAt[ln] = lane{name: name, hash: h, head: -1, tail: -1}
		x.lanes.add(x.laneAt, j, ln)
	}
	l := &x.laneAt[ln]
	x.slots[i].lane = ln
	if l.tail < 0 {
		l.head = i
	} else {
		x.slots[l.tail].laneNext = i
	}
	l.tail = i
	return l
}

// popLane takes the first item off lane l's queue.
func (x *Executor[T]) popLane(l *lane) {
	i := l.head
	l.head = x.slots[i].laneNext
	if l.head < 0 {
		l.tail = -1
	}
}

// leaveLane frees the lane of slot i, which has finished, for its next
// item: under head-of-line, the item a blocked consumer holds, handed to
// it; under lane-aware, its next item becomes ready. A lane with no item
// left is forgotten.
func (x *Executor[T]) leaveLane(i int32) {
	ln := x.slots[i].lane
	l := &x.laneAt[ln]
	l.busy = false
	if h := l.head; h >= 0 {
		switch {
		case x.slots[h].waiter >= 0 && !x.stopping && !x.aborted:
			l.busy = true
			x.popLane(l)
			x.start(h)
			x.wake[x.slots[h].waiter] <- struct{}{}
		case x.policy == konvoy.LaneAware:
			x.pushReady(h)
		}
		return
	}
	x.lanes.remove(x.laneAt, ln)
	*l = lane{}
	x.laneFree = append(x.laneFree, ln)
}

// wakeAny wakes a parked consumer, if one is and none woken is on its way
// to take an item: the one on its way wakes the next when it finds more
// (see work), so that a fast stream of short items does not wake a
// consumer for each.
func (x *Executor[T]) wakeAny() {
	if n := len(x.idle); n > 0 && x.waking == 0 {
		w := x.idle[n-1]
		x.idle = x.idle[:n-1]
		x.parked[w] = false
		x.waking++
		x.wake[w] <- struct{}{}
	}
}

// more tells whether an item is left that any consumer could take.
func (x *Executor[T]) more() bool {
	switch x.policy {
	case konvoy.LaneAware:
		return x.fresh.head >= 0 || len(x.ready) > 0
	}
	return x.fifo.head >= 0
}

// wakeOne wakes consumer w if it is parked.
func (x *Executor[T]) wakeOne(w int32) {
	if !x.parked[w] {
		return
	}
	for j, v := range x.idle {
		if v == w {
			x.idle[j] = x.idle[len(x.idle)-1]
			x.idle = x.idle[:len(x.idle)-1]
			break
		}
	}
	x.parked[w] = false
	x.waking++
	x.wake[w] <- struct{}{}
}

// push puts slot i at the tail of q.
func push[T any](q *list, slots []slot[T], i int32) {
	if q.tail < 0 {
		q.head = i
	} else {
		slots[q.tail].next = i
	}
	q.tail = i
}

// pop takes the head off q, -1 when it is empty.
func pop[T any](q *list, slots []slot[T]) int32 {
	i := q.head
	if i >= 0 {
		q.head = slots[i].next
		if q.head < 0 {
			q.tail = -1
		}
	}
	return i
}

// pushReady adds slot i, the next item of a lane just freed, to the
// lane-aware heap of such items, ordered by submission number.
func (x *Executor[T]) pushReady(i int32) {
	x.ready = append(x.ready, ready{x.slots[i].seq, i})
	h := x.ready
	j := len(h) - 1
	for j > 0 {
		p := (j - 1) / 2
		if h[p].seq <= h[j].seq {
			break
		}
		h[p], h[j] = h[j], h[p]
		j = p
	}
}

// popReady takes the oldest item off the heap of lanes' next items.
func (x *Executor[T]) popReady() int32 {
	h := x.ready
	top := h[0].i
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	x.ready = h
	for j := 0; ; {
		c := 2*j + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1].seq < h[c].seq {
			c++
		}
		if h[j].seq <= h[c].seq {
			break
		}
		h[j], h[c] = h[c], h[j]
		j = c
	}
	return top
}

// ready is an item in the heap of lanes' next items.
type ready struct {
	seq int
	i   int32
}
