package konvoy

import (
	"math"
	"math/bits"
)

// consumer is one worker: the time it becomes free and its index.
type consumer struct {
	free int
	id   int
}

// consumerQueue finds the consumer that takes the next event: the one free
// earliest, the lowest index among ties.
//
// Consumers that have never been made busy are all free at round 0, and
// being the highest indices, the first of them is the one that comes next
// among all those free at round 0; so they need no storage. The queue keeps
// only consumers 0 … touched−1, the ones made busy so far, and a run costs
// what the consumers its events took need, however many there are.
//
// The touched consumers are a winner tree: every inner node holds the better
// of its two children, the root the best of all, so changing one consumer's
// free time replays the log₂ c matches on its way to the root, whichever
// consumer it is. Every consumer in a node's left subtree has a lower index
// than every one in its right subtree, so a match is one comparison of free
// times, won by the right child only when it is free strictly earlier; the
// compiler turns it into conditional moves, with no branch to mispredict.
// Leaves beyond the last touched consumer are free at MaxInt and, being
// rightmost, lose every match against a touched consumer, even one parked
// at MaxInt. The tree doubles when a consumer beyond its leaves is touched.
type consumerQueue struct {
	free    []int   // by node: the earliest free time below it
	id      []int32 // by node: the consumer free then
	size    int     // leaves, a power of two; leaf of consumer id is size+id
	touched int     // consumers made busy so far: 0 … touched−1
	n       int     // consumers
}

// newConsumerQueue returns n consumers, all free at round 0.
func newConsumerQueue(n int) consumerQueue {
	q := consumerQueue{n: n}
	q.resize(1)
	return q
}

// resize makes the tree hold at least leaves leaves, keeping the touched
// consumers' free times, in O(size) time.
func (q *consumerQueue) resize(leaves int) {
	size := 1
	for size < leaves {
		size *= 2
	}
	free, id := make([]int, 2*size), make([]int32, 2*size)
	for i := range size {
		free[size+i], id[size+i] = math.MaxInt, int32(i)
		if i < q.touched {
			free[size+i] = q.free[q.size+i]
		}
	}
	for i := size - 1; i >= 1; i-- {
		l, r := 2*i, 2*i+1
		if free[r] < free[l] {
			l = r
		}
		free[i], id[i] = free[l], id[l]
	}
	q.free, q.id, q.size = free, id, size
}

// next returns the consumer that becomes free earliest, the lowest index
// among ties. It takes O(1) time.
func (q *consumerQueue) next() consumer {
	if q.free[1] > 0 && q.touched < q.n {
		return consumer{0, q.touched}
	}
	return consumer{q.free[1], int(q.id[1])}
}

// nextTouched returns the touched consumer that becomes free earliest, the
// lowest index among ties, free at MaxInt when none is touched.
func (q *consumerQueue) nextTouched() consumer { return consumer{q.free[1], int(q.id[1])} }

// earliest returns the earliest time any consumer is free.
func (q *consumerQueue) earliest() int {
	if q.touched < q.n {
		return 0
	}
	return q.free[1]
}

// freeAt returns the time consumer id becomes free.
func (q *consumerQueue) freeAt(id int) int {
	if id >= q.touched {
		return 0
	}
	return q.free[q.size+id]
}

// busy makes consumer id free at t, as busyFrom does, touching it, and
// every untouched consumer below it, first if it has never been busy.
func (q *consumerQueue) busy(id, t int) {
	if id >= q.touched {
		q.touch(id)
	}
	q.busyFrom(id, t)
}

// busyFrom makes consumer id, which has been busy before, free at t (later
// than now, or, for an idle consumer parked at MaxInt, earlier) in O(log c)
// time. It replays the matches on the way to the root carrying the winner
// so far, so each level loads only the sibling: a left sibling wins ties, a
// right one must be free strictly earlier.
func (q *consumerQueue) busyFrom(id, t int) {
	free, ids := q.free, q.id
	f, w := t, int32(id)
	i := q.size + id
	free[i] = t
	for ; i > 1; i /= 2 {
		left := i & 1 // 1 when the sibling, i^1, is the left child
		sf, sw := free[i^1], ids[i^1]
		if sf-left < f {
			f, w = sf, sw
		}
		free[i/2], ids[i/2] = f, w
	}
}

// touch brings consumers touched … id into the tree, free at round 0 but
// id, whose free time the caller sets, doubling the tree as it must.
func (q *consumerQueue) touch(id int) {
	if id >= q.size {
		q.resize(min(max(2*q.size, id+1), q.n))
	}
	for q.touched < id { // never under the built-in policies: see dispatchStatic
		c := q.touched
		q.touched++
		q.busyFrom(c, 0)
	}
	q.touched = id + 1 // the caller's busyFrom sets its leaf
}

// dispatchHeadOfLine gives event e, of key index k and lane ln (-1: none), to
// the earliest-free consumer, as the lesson's scheduler does: it starts when
// it has arrived and both the consumer and its lane are free. A consumer
// whose lane is busy waits idle (head-of-line blocking). It returns the
// consumer's index, and takes O(log c) time for c consumers.
func (s *Simulator) dispatchHeadOfLine(e *Event, k, ln int) (id int) {
	c := s.consumers.next()
	start := max(c.free, e.Arrival)
	if ln >= 0 {
		start = max(start, s.lanes.at(ln).free)
	}
	finish := start + e.Duration
	if c.id >= s.consumers.touched {
		s.consumers.touch(c.id)
	}
	s.consumers.busyFrom(c.id, finish)
	s.started(e, s.events, k, ln, c.id, max(c.free, e.Arrival), start)
	if c.id >= len(s.running) {
		s.growRunning(c.id)
	}
	r := &s.running[c.id] // field by field: a struct literal goes through the stack
	r.finish, r.index, r.key, r.step, r.waiting = finish, s.events, k, e.Step, e.Step > 0
	return c.id
}

// dispatchStatic gives event e to its lane's owner, the consumer the lane
// was assigned to when it opened, or to the earliest-free consumer when it
// has no lane. It starts when it has arrived and the consumer is free: only
// the owner runs the lane's events, so the lane is free by then. Under a
// layout whose lanes pin keys it is applied at once; otherwise it waits in
// its consumer's queue until no later event can finish before it.
func (s *Simulator) dispatchStatic(e *Event, k, ln int) {
	c := s.consumers.next()
	if ln >= 0 {
		c.id = s.lanes.at(ln).opened % s.consumers.n
		c.free = s.consumers.freeAt(c.id)
	}
	start := max(c.free, e.Arrival)
	s.consumers.busy(c.id, start+e.Duration)
	s.started(e, s.events, k, ln, c.id, max(c.free, e.Arrival), start)
	switch {
	case e.Step == 0:
	case s.layout.pinsKeys():
		// Every event of the key that changes its state runs in the key's
		// one lane, on the lane's owner, after the one before it: the key's
		// events finish in apply order, and applying one touches no other
		// key's state (the resequencer's handler, whose measures depend on
		// every key's applies in time, has no lanes). So applying it now
		// does what applying it in order of finish would, and a hot key's
		// events need not wait in memory.
		s.apply(s.events, k, e.Step, start+e.Duration)
	default:
		s.owned.push(c.id, finished{finish: start + e.Duration, index: s.events, key: k, step: e.Step})
	}
}

// started records that the event with input index i, of key index k, lane
// ln, taken by consumer id at taken, starts at start: it takes the lane
// until it finishes, and its latencies, lane load and schedule slot are
// counted. A history-only record is done there and then.
func (s *Simulator) started(e *Event, i, k, ln, id, taken, start int) {
	finish := start + e.Duration
	wait := start - e.Arrival
	if !s.waits.addNear(wait) { // add, with its fast path inlined
		s.waits.addElsewhere(wait)
	}
	if !s.responses.addNear(wait + e.Duration) {
		s.responses.addElsewhere(wait + e.Duration)
	}
	s.maxWait = max(s.maxWait, wait)
	s.maxResponse = max(s.maxResponse, wait+e.Duration)
	var carry uint64
	s.waitLo, carry = bits.Add64(s.waitLo, uint64(wait), 0)
	s.waitHi += carry
	if ln >= 0 {
		l := s.lanes.at(ln)
		l.free = finish
		l.load += e.Duration
		l.addWait(wait)
		if s.layout.lanes != keyLanes {
			s.addLaneLoad(k, ln, e.Duration)
		}
	}
	s.rounds = max(s.rounds, finish)
	if e.Step == 0 {
		// A history-only record changes no state under any handler, so it
		// is done when it finishes and never waits to be applied.
		s.outcome(i, HistoryOnly, finish)
	}
	if s.schedule != nil {
		s.schedule[i].Consumer, s.schedule[i].Taken, s.schedule[i].Start, s.schedule[i].Finish = id, taken, start, finish
		if ln >= 0 {
			s.schedule[i].Lane = s.laneName(ln)
		}
	}
}
