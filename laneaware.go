package konvoy

import "math"

// queued is an event the lane-aware dispatcher holds until a consumer takes
// it.
type queued struct {
	key, lane               int
	step, duration, arrival int
	next                    int // the next event of the lane, by input index; -1: none
	taken                   bool
}

// laneQueue is one lane's events not taken yet, in input order, linked
// through queued.next: a lane costs no allocation of its own, and nothing
// the garbage collector must scan. A lane with events waiting is in ready
// or later, one without in neither, so the queue says which, in 16 bytes.
type laneQueue struct {
	head, tail int // input indices; head -1: empty, and tail then means nothing
}

// laneAware is the [LaneAware] policy: a free consumer takes the oldest
// arrived event whose lane is free. It holds the events not yet taken, in
// input order and per lane, the lanes by when they can run, the consumers
// with nothing to do, and the events taken but not yet applied.
type laneAware struct {
	s        *Simulator
	now      int      // the time of the current decision; never decreases
	fifo     []queued // events from input index base on, taken or not
	base     int
	front    int              // fifo[front] is the oldest event not taken
	queues   paged[laneQueue] // by lane
	free     []int            // events without a lane, not taken, in input order
	freeHead int
	ready    minHeap[int]      // free lanes with an arrived head: lane by its head's input index
	later    minHeap[int]      // lanes that cannot run before a time: lane by that time
	idle     minHeap[struct{}] // idle consumers by index
	pending  minHeap[finished] // events not applied yet, by finish and input index
	ended    bool
}

// at returns the held event with input index i, which must not be taken
// yet or be behind the oldest one not taken; the pointer is good until the
// next event is held or taken.
func (a *laneAware) at(i int) *queued { return &a.fifo[i-a.base] }

// add holds event e, interned, of lane ln (-1: none), for the
// consumers, and runs the policy forward as far as no event yet to be
// added could change a choice (see run). It takes O(log(c + l)) time
// amortised for c consumers and l lanes with waiting events.
func (a *laneAware) add(e internedEvent, ln int) {
	k := e.key
	i := a.s.events
	a.fifo = append(a.fifo, queued{key: k, lane: ln, step: e.step, duration: e.duration, arrival: e.arrival, next: -1})
	if ln < 0 {
		a.free = append(a.free, i)
	} else {
		a.enqueue(i, ln, e.arrival)
	}
	a.s.lastArrival = e.arrival
	a.run()
}

// finish runs the policy to the end of the input, every held event taken,
// and applies every event still pending, in order of finish time, ties by
// input index.
func (a *laneAware) finish() {
	a.ended = true
	a.run()
	a.s.applyPending(&a.pending, math.MaxInt)
}

// held returns the events held from the oldest not yet taken on, taken or
// not, and what they are.
func (a *laneAware) held() (int, string) {
	return len(a.fifo) - a.front, "from the oldest no consumer could take yet on"
}

// holdsBacklog is true for layouts with lanes, whose events wait for their
// lanes while consumers fall behind.
func (a *laneAware) holdsBacklog(l Layout) bool { return l.lanes != noLanes }

// enqueue puts the held event with input index i, which arrives at
// arrival, at the tail of lane ln's queue, and schedules the lane for when
// it can run if it had no event waiting.
func (a *laneAware) enqueue(i, ln, arrival int) {
	for a.queues.len() <= ln {
		a.queues.add(laneQueue{head: -1})
	}
	q := a.queues.at(ln)
	if q.head >= 0 {
		a.at(q.tail).next = i
		q.tail = i
		return
	}
	q.head, q.tail = i, i // the lane had no event waiting: it was in neither ready nor later
	a.later.push(max(a.s.lanes.at(ln).free, arrival), 0, ln)
}

// run runs the lane-aware policy forward in time for as long as no
// event yet to be added could change a choice. At each decision time, while
// a consumer is free (idle, just finishing, or done at once with an event
// that took no time), the free consumer with the lowest index takes the
// oldest arrived event whose lane is free; a consumer with
// nothing to take stays idle until the next arrival or the next lane to come
// free. An event yet to come is younger than every event held, so it matters
// only to a consumer that would stay idle, and only if it could arrive by
// then: the run stops there until the next Add, or the end of the input.
// After the decisions at a time t, every event held can start only after t,
// or at t if it arrives later and is younger than every event taken, so
// every event taken that finishes by t is applied then: what waits to be
// applied is what runs, not the whole backlog.
func (a *laneAware) run() {
	s := a.s
	for {
		t := math.MaxInt
		if c := s.consumers.nextTouched(); c.free != math.MaxInt {
			t = c.free
		}
		if a.anyIdle() {
			t = min(t, max(a.nextEligible(), a.now))
			if !a.ended {
				t = min(t, max(s.lastArrival, a.now))
			}
		}
		if t == math.MaxInt {
			return
		}
		a.now = t
		for len(a.later) > 0 && a.later[0].key <= t {
			ln := a.later.pop().val
			a.ready.push(a.queues.at(ln).head, 0, ln)
		}
		for {
			i, ln := a.oldestEligible(t)
			if i < 0 {
				break
			}
			id, ok := a.nextFree(t)
			if !ok {
				break
			}
			a.take(id, t, i, ln)
		}
		// The consumers still free at t, with nothing to take, wait idle.
		for c := s.consumers.nextTouched(); c.free == t; c = s.consumers.nextTouched() {
			a.idle.push(c.id, 0, struct{}{})
			s.consumers.busyFrom(c.id, math.MaxInt)
		}
		s.applyPending(&a.pending, t)
		if a.anyIdle() && !a.ended && t >= s.lastArrival {
			return
		}
	}
}

// anyIdle tells whether a consumer is idle: one parked in the idle heap, or
// one that has never taken an event.
func (a *laneAware) anyIdle() bool {
	return len(a.idle) > 0 || a.s.consumers.touched < a.s.consumers.n
}

// nextFree returns the free consumer with the lowest index at t, and false
// when none is free: one parked in the idle heap, which it takes off the
// heap, one whose event finishes at t (or took no time), or else the first
// consumer never touched, all of whose indices are above the others'. A
// consumer that finishes at t and takes an event at once goes from t to its
// new finish in the consumers' tree, without being parked in the heap and
// at MaxInt in between: one tree update an event, not two. It takes
// O(log c) time for c consumers.
func (a *laneAware) nextFree(t int) (int, bool) {
	q := &a.s.consumers
	c := q.nextTouched()
	if len(a.idle) > 0 && (c.free != t || a.idle[0].key < c.id) {
		return a.idle.pop().key, true
	}
	if c.free == t {
		return c.id, true
	}
	return q.touched, q.touched < q.n
}

// nextEligible returns the earliest time after now at which a held event can
// run, or MaxInt.
func (a *laneAware) nextEligible() int {
	next := math.MaxInt
	if len(a.later) > 0 {
		next = a.later[0].key
	}
	if a.freeHead < len(a.free) {
		next = min(next, a.at(a.free[a.freeHead]).arrival)
	}
	return next
}

// oldestEligible returns the oldest held event that can run at t, and its
// lane (-1: none), or -1 and -1.
func (a *laneAware) oldestEligible(t int) (i, ln int) {
	i, ln = -1, -1
	if len(a.ready) > 0 {
		i, ln = a.ready[0].key, a.ready[0].val
	}
	if a.freeHead < len(a.free) {
		if f := a.free[a.freeHead]; a.at(f).arrival <= t && (i < 0 || f < i) {
			i, ln = f, -1
		}
	}
	return i, ln
}

// take gives the held event with input index i, in lane ln (-1: none), to
// free consumer id at time t.
func (a *laneAware) take(id, t, i, ln int) {
	s := a.s
	q := *a.at(i)
	a.at(i).taken = true
	if ln >= 0 {
		a.ready.pop()
		a.queues.at(ln).head = q.next
	} else {
		a.freeHead++
	}
	finish := t + q.duration
	s.consumers.busy(id, finish)
	s.started(&internedEvent{key: q.key, step: q.step, duration: q.duration, arrival: q.arrival}, i, ln, id, t, t)
	if q.step > 0 {
		a.pending.push(finish, i, finished{finish: finish, index: i, key: q.key, step: q.step})
	}
	if ln >= 0 {
		a.reschedule(ln, finish, t)
	}
	if a.freeHead == len(a.free) {
		a.free, a.freeHead = a.free[:0], 0
	}
	for a.front < len(a.fifo) && a.fifo[a.front].taken {
		a.front++
	}
	if a.front > 1024 && 2*a.front > len(a.fifo) {
		a.fifo = append(a.fifo[:0], a.fifo[a.front:]...)
		a.base += a.front
		a.front = 0
	}
}

// reschedule puts lane ln, busy until finish, back among the lanes with
// events to run, or takes it out when it has none; a lane that can run at
// once (its event took no time) is ready at t.
func (a *laneAware) reschedule(ln, finish, t int) {
	q := a.queues.at(ln)
	if q.head < 0 {
		return
	}
	head := q.head
	if at := max(finish, a.at(head).arrival); at > t {
		a.later.push(at, 0, ln)
		return
	}
	a.ready.push(head, 0, ln)
}
