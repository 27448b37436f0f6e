package konvoy

// consumer is one worker: the time it becomes free and its index.
type consumer struct {
	free int
	id   int
}

// consumerQueue is a binary min-heap of consumers ordered by free time, ties
// by the lower index: its root is the consumer that takes the next event.
type consumerQueue []consumer

// newConsumerQueue returns n consumers, all free at round 0. Consumers in
// index order already form a heap.
func newConsumerQueue(n int) consumerQueue {
	q := make(consumerQueue, n)
	for i := range q {
		q[i].id = i
	}
	return q
}

func (q consumerQueue) less(i, j int) bool {
	if q[i].free != q[j].free {
		return q[i].free < q[j].free
	}
	return q[i].id < q[j].id
}

// next returns the consumer that becomes free earliest, the lowest index
// among ties. It takes O(1) time.
func (q consumerQueue) next() consumer { return q[0] }

// busyUntil makes the next consumer busy until finish, which is never earlier
// than its free time, and restores the heap order in O(log n) time.
func (q consumerQueue) busyUntil(finish int) {
	q[0].free = finish
	i := 0
	for {
		l := 2*i + 1
		if l >= len(q) {
			return
		}
		m := l
		if r := l + 1; r < len(q) && q.less(r, l) {
			m = r
		}
		if !q.less(m, i) {
			return
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
}

// dispatch gives event e, whose key has index k, to the earliest-free
// consumer, as the lesson's scheduler does: it starts when it has arrived and
// both the consumer and the event's lane (if any) are free, and both stay
// busy until it finishes. A consumer whose lane is busy waits idle
// (head-of-line blocking). The event waits with its consumer to be applied.
// dispatch returns the consumer's index; it takes O(log c) time for c
// consumers plus the cost of finding the lane.
func (s *Simulator) dispatch(e Event, k int) (id int) {
	c := s.consumers.next()
	start := max(c.free, e.Arrival)
	ln := s.laneOf(e, k)
	if ln >= 0 {
		start = max(start, s.lanes[ln].free)
	}
	finish := start + e.Duration
	s.running[c.id] = running{finish: finish, index: s.events, key: k, step: e.Step, waiting: true}
	s.consumers.busyUntil(finish)
	if ln >= 0 {
		s.lanes[ln].free = finish
		s.lanes[ln].load += e.Duration
		s.addLaneLoad(k, ln, e.Duration)
	}
	s.rounds = max(s.rounds, finish)
	return c.id
}
