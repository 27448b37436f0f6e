package konvoy

// consumer is one worker: the time it becomes free and its index.
type consumer struct {
	free int
	id   int
}

// consumerQueue is a binary min-heap of consumers ordered by free time, ties
// by the lower index: its root is the consumer that takes the next event.
// Under the static policy it also keeps each consumer's place in the heap,
// so that a consumer other than the root can be made busy.
type consumerQueue struct {
	heap []consumer
	pos  []int // pos[id] is consumer id's place in heap; nil unless tracked
}

// newConsumerQueue returns n consumers, all free at round 0. Consumers in
// index order already form a heap.
func newConsumerQueue(n int, track bool) consumerQueue {
	q := consumerQueue{heap: make([]consumer, n)}
	if track {
		q.pos = make([]int, n)
	}
	for i := range q.heap {
		q.heap[i].id = i
		if track {
			q.pos[i] = i
		}
	}
	return q
}

func (q *consumerQueue) less(i, j int) bool {
	if q.heap[i].free != q.heap[j].free {
		return q.heap[i].free < q.heap[j].free
	}
	return q.heap[i].id < q.heap[j].id
}

// next returns the consumer that becomes free earliest, the lowest index
// among ties. It takes O(1) time.
func (q *consumerQueue) next() consumer { return q.heap[0] }

// busyUntil makes the next consumer busy until t, which is never earlier
// than its free time, and restores the heap order in O(log n) time.
func (q *consumerQueue) busyUntil(t int) { q.set(0, t) }

// busyFrom makes consumer id busy until t (free at t, for an idle consumer
// that was parked at MaxInt). It needs the places that newConsumerQueue
// keeps when asked to track them.
func (q *consumerQueue) busyFrom(id, t int) { q.set(q.pos[id], t) }

// set changes the free time of the consumer at place i to t and moves it to
// its place.
func (q *consumerQueue) set(i, t int) {
	q.heap[i].free = t
	for i > 0 {
		p := (i - 1) / 2
		if !q.less(i, p) {
			break
		}
		q.swap(i, p)
		i = p
	}
	for {
		l := 2*i + 1
		if l >= len(q.heap) {
			return
		}
		m := l
		if r := l + 1; r < len(q.heap) && q.less(r, l) {
			m = r
		}
		if !q.less(m, i) {
			return
		}
		q.swap(i, m)
		i = m
	}
}

func (q *consumerQueue) swap(i, j int) {
	q.heap[i], q.heap[j] = q.heap[j], q.heap[i]
	if q.pos != nil {
		q.pos[q.heap[i].id], q.pos[q.heap[j].id] = i, j
	}
}

// earliest returns the earliest time any consumer is free.
func (q *consumerQueue) earliest() int { return q.heap[0].free }

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
	s.started(e, s.events, k, ln, c.id, start)
	s.running[c.id] = running{finish: finish, index: s.events, key: k, step: e.Step, waiting: true}
	return c.id
}

// dispatchStatic gives event e to its lane's owner, the consumer the lane
// was assigned to when it opened, or to the earliest-free consumer when it
// has no lane. It starts when it has arrived and the consumer is free; the
// lane is never busier than its owner.
func (s *Simulator) dispatchStatic(e Event, k, ln int) {
	var c consumer
	if ln >= 0 {
		id := s.lanes[ln].opened % len(s.consumers.heap)
		c = s.consumers.heap[s.consumers.pos[id]]
	} else {
		c = s.consumers.next()
	}
	start := max(c.free, e.Arrival)
	if ln >= 0 {
		start = max(start, s.lanes[ln].free)
	}
	s.consumers.busyFrom(c.id, start+e.Duration)
	s.started(e, s.events, k, ln, c.id, start)
	s.pending.push(finished{finish: start + e.Duration, index: s.events, key: k, step: e.Step})
}

// started records that the event with input index i, of key index k, lane
// ln and consumer id, starts at start: it takes the lane until it finishes,
// and its latencies, lane load and schedule slot are counted.
func (s *Simulator) started(e Event, i, k, ln, id, start int) {
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
		s.schedule[i].Consumer, s.schedule[i].Start, s.schedule[i].Finish = id, start, finish
		if ln >= 0 {
			s.schedule[i].Lane = s.lanes[ln].name
		}
	}
}
