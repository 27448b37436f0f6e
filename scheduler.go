package konvoy

// consumer is one worker: the time it becomes free and its index.
type consumer struct {
	free int
	id   int
}

// consumerQueue finds the consumer that takes the next event: the one free
// earliest, the lowest index among ties. It is a winner tree over the
// consumers: every inner node holds the better of its two children, the
// root the best of all, so changing one consumer's free time replays the
// log₂ c matches on its way to the root, one comparison each, whichever
// consumer it is. Leaves beyond the last consumer hold -1 and lose every
// match.
type consumerQueue struct {
	free []int   // by consumer index
	win  []int32 // win[1] is the root; node i has children 2i and 2i+1
	size int     // leaves, a power of two; leaf of consumer id is size+id
}

// newConsumerQueue returns n consumers, all free at round 0.
func newConsumerQueue(n int) consumerQueue {
	size := 1
	for size < n {
		size *= 2
	}
	q := consumerQueue{free: make([]int, n), win: make([]int32, 2*size), size: size}
	for i := range size {
		q.win[size+i] = -1
		if i < n {
			q.win[size+i] = int32(i)
		}
	}
	for i := size - 1; i >= 1; i-- {
		q.win[i] = q.better(q.win[2*i], q.win[2*i+1])
	}
	return q
}

// better returns the consumer of a and b that is free earlier, the lower
// index among ties; -1 stands for no consumer.
func (q *consumerQueue) better(a, b int32) int32 {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	case q.free[b] < q.free[a] || q.free[b] == q.free[a] && b < a:
		return b
	}
	return a
}

// next returns the consumer that becomes free earliest, the lowest index
// among ties. It takes O(1) time.
func (q *consumerQueue) next() consumer {
	id := q.win[1]
	return consumer{q.free[id], int(id)}
}

// earliest returns the earliest time any consumer is free.
func (q *consumerQueue) earliest() int { return q.free[q.win[1]] }

// busyUntil makes the next consumer busy until t.
func (q *consumerQueue) busyUntil(t int) { q.busyFrom(int(q.win[1]), t) }

// busyFrom makes consumer id free at t (later than now, or, for an idle
// consumer parked at MaxInt, earlier) in O(log c) time.
func (q *consumerQueue) busyFrom(id, t int) {
	q.free[id] = t
	for i := (q.size + id) / 2; i >= 1; i /= 2 {
		q.win[i] = q.better(q.win[2*i], q.win[2*i+1])
	}
}

// dispatchHeadOfLine gives event e, of key index k and lane ln (-1: none), to
// the earliest-free consumer, as the lesson's scheduler does: it starts when
// it has arrived and both the consumer and its lane are free. A consumer
// whose lane is busy waits idle (head-of-line blocking). It returns the
// consumer's index, and takes O(log c) time for c consumers.
func (s *Simulator) dispatchHeadOfLine(e Event, k, ln int) (id int) {
	c := s.consumers.next()
	start := max(c.free, e.Arrival)
	if ln >= 0 {
		start = max(start, s.lanes[ln].free)
	}
	finish := start + e.Duration
	s.consumers.busyUntil(finish)
	s.started(e, s.events, k, ln, c.id, max(c.free, e.Arrival), start)
	s.running[c.id] = running{finish: finish, index: s.events, key: k, step: e.Step, waiting: true}
	return c.id
}

// dispatchStatic gives event e to its lane's owner, the consumer the lane
// was assigned to when it opened, or to the earliest-free consumer when it
// has no lane. It starts when it has arrived and the consumer is free; the
// lane is never busier than its owner.
func (s *Simulator) dispatchStatic(e Event, k, ln int) {
	c := s.consumers.next()
	if ln >= 0 {
		c.id = s.lanes[ln].opened % len(s.consumers.free)
		c.free = s.consumers.free[c.id]
	}
	start := max(c.free, e.Arrival)
	if ln >= 0 {
		start = max(start, s.lanes[ln].free)
	}
	s.consumers.busyFrom(c.id, start+e.Duration)
	s.started(e, s.events, k, ln, c.id, max(c.free, e.Arrival), start)
	s.pending.push(finished{finish: start + e.Duration, index: s.events, key: k, step: e.Step})
}

// started records that the event with input index i, of key index k, lane
// ln, taken by consumer id at taken, starts at start: it takes the lane
// until it finishes, and its latencies, lane load and schedule slot are
// counted.
func (s *Simulator) started(e Event, i, k, ln, id, taken, start int) {
	finish := start + e.Duration
	s.waits.add(start - e.Arrival)
	s.responses.add(finish - e.Arrival)
	if ln >= 0 {
		l := &s.lanes[ln]
		l.free = finish
		l.load += e.Duration
		l.events++
		l.maxWait = max(l.maxWait, start-e.Arrival)
		l.totalWait += start - e.Arrival
		s.addLaneLoad(k, ln, e.Duration)
	}
	s.rounds = max(s.rounds, finish)
	if s.schedule != nil {
		s.schedule[i].Consumer, s.schedule[i].Taken, s.schedule[i].Start, s.schedule[i].Finish = id, taken, start, finish
		if ln >= 0 {
			s.schedule[i].Lane = s.laneName(ln)
		}
	}
}
