package konvoy

import "math"

// consumer is one worker: the time it becomes free and its index.
type consumer struct {
	free int
	id   int
}

// consumerQueue finds the consumer that takes the next event: the one free
// earliest, the lowest index among ties. It is a winner tree over the
// consumers: every inner node holds the better of its two children, the
// root the best of all, so changing one consumer's free time replays the
// log₂ c matches on its way to the root, whichever consumer it is. Every
// consumer in a node's left subtree has a lower index than every one in its
// right subtree, so a match is one comparison of free times, won by the
// right child only when it is free strictly earlier; the compiler turns it
// into conditional moves, with no branch to mispredict. Leaves beyond the
// last consumer are free at MaxInt and, being rightmost, lose every match
// against a real consumer, even one parked at MaxInt.
type consumerQueue struct {
	free []int   // by node: the earliest free time below it
	id   []int32 // by node: the consumer free then
	size int     // leaves, a power of two; leaf of consumer id is size+id
	n    int     // consumers
}

// newConsumerQueue returns n consumers, all free at round 0.
func newConsumerQueue(n int) consumerQueue {
	size := 1
	for size < n {
		size *= 2
	}
	q := consumerQueue{free: make([]int, 2*size), id: make([]int32, 2*size), size: size, n: n}
	for i := range size {
		q.free[size+i], q.id[size+i] = math.MaxInt, int32(i)
		if i < n {
			q.free[size+i] = 0
		}
	}
	// All are free at round 0, so every match goes to the left child, the
	// lower index, and padding, always on the right, loses.
	for i := size - 1; i >= 1; i-- {
		q.free[i], q.id[i] = q.free[2*i], q.id[2*i]
	}
	return q
}

// next returns the consumer that becomes free earliest, the lowest index
// among ties. It takes O(1) time.
func (q *consumerQueue) next() consumer { return consumer{q.free[1], int(q.id[1])} }

// earliest returns the earliest time any consumer is free.
func (q *consumerQueue) earliest() int { return q.free[1] }

// freeAt returns the time consumer id becomes free.
func (q *consumerQueue) freeAt(id int) int { return q.free[q.size+id] }

// busyUntil makes the next consumer busy until t.
func (q *consumerQueue) busyUntil(t int) { q.busyFrom(int(q.id[1]), t) }

// busyFrom makes consumer id free at t (later than now, or, for an idle
// consumer parked at MaxInt, earlier) in O(log c) time. It replays the
// matches on the way to the root carrying the winner so far, so each level
// loads only the sibling: a left sibling wins ties, a right one must be
// free strictly earlier.
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
	s.consumers.busyUntil(finish)
	s.started(e, s.events, k, ln, c.id, max(c.free, e.Arrival), start)
	r := &s.running[c.id] // field by field: a struct literal goes through the stack
	r.finish, r.index, r.key, r.step, r.waiting = finish, s.events, k, e.Step, e.Step > 0
	return c.id
}

// dispatchStatic gives event e to its lane's owner, the consumer the lane
// was assigned to when it opened, or to the earliest-free consumer when it
// has no lane. It starts when it has arrived and the consumer is free: only
// the owner runs the lane's events, so the lane is free by then.
func (s *Simulator) dispatchStatic(e *Event, k, ln int) {
	c := s.consumers.next()
	if ln >= 0 {
		c.id = s.lanes.at(ln).opened % s.consumers.n
		c.free = s.consumers.freeAt(c.id)
	}
	start := max(c.free, e.Arrival)
	s.consumers.busyFrom(c.id, start+e.Duration)
	s.started(e, s.events, k, ln, c.id, max(c.free, e.Arrival), start)
	if e.Step > 0 {
		s.owned.push(c.id, finished{finish: start + e.Duration, index: s.events, key: k, step: e.Step})
	}
}

// started records that the event with input index i, of key index k, lane
// ln, taken by consumer id at taken, starts at start: it takes the lane
// until it finishes, and its latencies, lane load and schedule slot are
// counted. A history-only record is done there and then.
func (s *Simulator) started(e *Event, i, k, ln, id, taken, start int) {
	finish := start + e.Duration
	s.waits.add(start - e.Arrival)
	s.responses.add(finish - e.Arrival)
	if ln >= 0 {
		l := s.lanes.at(ln)
		l.free = finish
		l.load += e.Duration
		l.events++
		l.maxWait = max(l.maxWait, start-e.Arrival)
		l.totalWait += start - e.Arrival
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
