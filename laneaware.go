package konvoy

import (
	"cmp"
	"math"
	"slices"
)

// queued is an event the lane-aware dispatcher holds until a consumer takes
// it.
type queued struct {
	key, lane               int
	step, duration, arrival int
	next                    int // the next event of the lane, by input index; -1: none
	taken                   bool
	wake                    bool // heads its lane, which is free, and the event can run, when the lane's running event finishes
}

// laneQueue is one lane's events not taken yet, in input order, linked
// through queued.next: a lane costs no allocation of its own, and nothing
// the garbage collector must scan. A lane with events waiting is in fresh,
// ready or later, or waits for the lane's running event to finish (its
// head's wake), one without in none, so the queue says which, in 16 bytes.
type laneQueue struct {
	head, tail int // input indices; head -1: empty, and tail then means nothing
}

// laneAware is the [LaneAware] policy: a free consumer takes the oldest
// arrived event whose lane is free. It holds the events not yet taken, in
// input order and per lane, the lanes by when they can run, and the events
// running, one for each busy consumer, until they finish and are applied.
//
// Consumers are alike: which one takes an event changes nothing but the
// number the schedule shows. So without [WithSchedule] an event takes the
// consumer freed last, from a stack, and with it the lowest free, from a
// heap. Either way a consumer is added only when every one is busy, so
// they are as many as were ever busy at once, the count that the
// lowest-index rule touches. The consumers' tree holds each busy
// consumer's finish time: its root is the next time one frees, and the
// events that finish then are applied in input order.
type laneAware struct {
	s      *Simulator
	now    int      // the time of the current decision; never decreases
	fifo   []queued // events from input index base on, taken or not
	base   int
	front  int              // fifo[front] is the oldest event not taken
	queues paged[laneQueue] // by lane
	// fresh holds the events that can run from their arrival on, by input
	// index, which is their arrivals' order: those without a lane, and
	// those that came to a lane with none waiting and free by then. They
	// need no heap, which is most events under layouts of many lanes.
	fresh     []int
	freshHead int
	ready     minHeap[int]      // lanes with an arrived head, free, not in fresh: lane by its head's input index
	later     minHeap[int]      // lanes that cannot run before a time: lane by that time
	runs      []runningEvent    // by consumer: the event it runs, while it is busy in the consumers' tree
	busy      int               // consumers running an event that finishes after now
	done      []finished        // events finished at now, to apply then
	unsorted  bool              // done is out of input order
	idle      minHeap[struct{}] // with a schedule: consumers that ran an event and are free, by index
	spare     []int32           // without: the same, in no order
	ended     bool
}

// runningEvent is what the lane-aware dispatcher keeps of an event a
// consumer runs, beside its finish time in the consumers' tree.
type runningEvent struct {
	index, key, step, lane int
}

// at returns the held event with input index i, which must not be taken
// yet or be behind the oldest one not taken; the pointer is good until the
// next event is held or taken.
func (a *laneAware) at(i int) *queued { return &a.fifo[i-a.base] }

// add holds event e, interned, of lane ln (-1: none), for the
// consumers, and runs the policy forward as far as no event yet to be
// added could change a choice (see run). It takes O(log c + log l) time
// amortised for c consumers and l lanes with events waiting, and O(log c)
// for an event that can run at its arrival.
func (a *laneAware) add(e task, ln int) {
	i := a.s.events
	a.fifo = append(a.fifo, queued{key: e.key, lane: ln, step: e.step, duration: e.duration, arrival: e.arrival, next: -1})
	if ln < 0 {
		a.fresh = append(a.fresh, i)
	} else {
		a.enqueue(i, ln, e.arrival)
	}
	a.s.lastArrival = e.arrival
	a.run()
}

// finish runs the policy to the end of the input, every held event taken
// and applied.
func (a *laneAware) finish() {
	a.ended = true
	a.run()
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
// arrival, at the tail of lane ln's queue, and, if the lane had no event
// waiting, schedules it for when it can run: at arrival, in fresh, when
// the lane is free by then; when the lane's running event finishes, if it
// runs still; else in later.
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
	q.head, q.tail = i, i
	switch free := a.s.lanes.at(ln).free; {
	case free <= arrival:
		a.fresh = append(a.fresh, i)
	case free > a.now: // the lane's last event runs until then: see finishAt
		a.at(i).wake = true
	default:
		a.later.push(free, 0, ln)
	}
}

// run runs the lane-aware policy forward in time for as long as no
// event yet to be added could change a choice. At each decision time, while
// a consumer is free (idle, just finishing, or done at once with an event
// that took no time), a free consumer takes the oldest arrived event whose
// lane is free; a consumer with nothing to take stays idle until the next
// arrival or the next lane to come free. An event yet to come is younger
// than every event held, so it matters only to a consumer that would stay
// idle, and only if it could arrive by then: the run stops there until the
// next Add, or the end of the input. After the decisions at a time t, every
// event held can start only after t, or at t if it arrives later and is
// younger than every event taken, so every event taken that finishes by t
// is applied then: what waits to be applied is what runs, not the whole
// backlog.
func (a *laneAware) run() {
	s := a.s
	n := s.consumers.n
	for {
		t := math.MaxInt
		if c := s.consumers.nextTouched(); c.free != math.MaxInt {
			t = c.free
		}
		if a.busy < n {
			t = min(t, max(a.nextEligible(), a.now))
			if !a.ended {
				t = min(t, max(s.lastArrival, a.now))
			}
		}
		if t == math.MaxInt {
			return
		}
		a.now = t
		a.finishAt(t)
		for len(a.later) > 0 && a.later[0].key <= t {
			ln := a.later.pop().val
			a.ready.push(a.queues.at(ln).head, 0, ln)
		}
		for a.busy < n {
			i, ln, ready := a.oldestEligible(t)
			if i < 0 {
				break
			}
			a.take(t, i, ln, ready)
		}
		a.applyDone()
		if a.busy < n && !a.ended && t >= s.lastArrival {
			return
		}
	}
}

// finishAt takes the events that finish at t, the earliest finish time in
// the consumers' tree, off their consumers, which it frees, readies the
// lanes whose heads wake then, and keeps the events that change state to
// apply. It takes O(log c) time an event for c consumers.
func (a *laneAware) finishAt(t int) {
	q := &a.s.consumers
	for c := q.nextTouched(); c.free == t; c = q.nextTouched() {
		r := a.runs[c.id]
		if r.lane >= 0 {
			if h := a.queues.at(r.lane).head; h >= 0 && a.at(h).wake {
				a.at(h).wake = false
				a.ready.push(h, 0, r.lane)
			}
		}
		a.finished(finished{finish: t, index: r.index, key: r.key, step: r.step})
		q.busyFrom(c.id, math.MaxInt)
		a.busy--
		a.release(c.id)
	}
}

// applyDone applies the events that finished at now, in input order.
func (a *laneAware) applyDone() {
	if a.unsorted {
		slices.SortFunc(a.done, func(f, g finished) int { return cmp.Compare(f.index, g.index) })
		a.unsorted = false
	}
	for _, f := range a.done {
		a.s.apply(f.index, f.key, f.step, f.finish)
	}
	a.done = a.done[:0]
}

// nextEligible returns the earliest time after now at which a held event can
// run, or MaxInt.
func (a *laneAware) nextEligible() int {
	next := math.MaxInt
	if len(a.later) > 0 {
		next = a.later[0].key
	}
	if a.freshHead < len(a.fresh) {
		next = min(next, a.at(a.fresh[a.freshHead]).arrival)
	}
	return next
}

// oldestEligible returns the oldest held event that can run at t, its
// lane (-1: none) and whether it heads ready rather than fresh, or -1 and
// -1.
func (a *laneAware) oldestEligible(t int) (i, ln int, ready bool) {
	i, ln = -1, -1
	if len(a.ready) > 0 {
		i, ln, ready = a.ready[0].key, a.ready[0].val, true
	}
	if a.freshHead < len(a.fresh) {
		if f := a.at(a.fresh[a.freshHead]); f.arrival <= t && (i < 0 || a.fresh[a.freshHead] < i) {
			i, ln, ready = a.fresh[a.freshHead], f.lane, false
		}
	}
	return i, ln, ready
}

// consumer returns a free consumer to take the next event: the lowest
// index with a schedule, which shows it, and any otherwise, the last one
// freed, without a heap. A consumer is added only when every one is busy,
// so the consumers are as many as were ever busy at once, the count the
// lowest-index rule would touch. It takes O(log c) time for c consumers
// with a schedule, O(1) amortised without.
func (a *laneAware) consumer() int {
	switch {
	case a.s.schedule != nil && len(a.idle) > 0:
		return a.idle.pop().key
	case a.s.schedule == nil && len(a.spare) > 0:
		id := a.spare[len(a.spare)-1]
		a.spare = a.spare[:len(a.spare)-1]
		return int(id)
	}
	a.runs = append(a.runs, runningEvent{})
	a.s.consumers.touch(len(a.runs) - 1) // at MaxInt in the tree until it runs an event
	return len(a.runs) - 1
}

// release frees consumer id.
func (a *laneAware) release(id int) {
	if a.s.schedule != nil {
		a.idle.push(id, 0, struct{}{})
		return
	}
	a.spare = append(a.spare, int32(id))
}

// take gives the held event with input index i, in lane ln (-1: none), at
// the head of ready or else of fresh, to a free consumer at time t.
func (a *laneAware) take(t, i, ln int, ready bool) {
	s := a.s
	q := *a.at(i)
	a.at(i).taken = true
	if ready {
		a.ready.pop()
	} else if a.freshHead++; a.freshHead == len(a.fresh) {
		a.fresh, a.freshHead = a.fresh[:0], 0
	}
	id := a.consumer()
	finish := t + q.duration
	s.started(&task{key: q.key, step: q.step, duration: q.duration, arrival: q.arrival}, i, ln, id, t, t)
	if finish > t {
		a.runs[id] = runningEvent{index: i, key: q.key, step: q.step, lane: ln}
		s.consumers.busyFrom(id, finish)
		a.busy++
	} else {
		a.release(id)
		a.finished(finished{finish: finish, index: i, key: q.key, step: q.step})
	}
	if ln >= 0 {
		a.queues.at(ln).head = q.next
		a.reschedule(ln, finish, t)
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

// finished keeps event f, finished at now, to apply with the others that
// finish then, if it changes state.
func (a *laneAware) finished(f finished) {
	if f.step > 0 {
		a.unsorted = a.unsorted || len(a.done) > 0 && a.done[len(a.done)-1].index > f.index
		a.done = append(a.done, f)
	}
}

// reschedule puts lane ln, busy until finish, back among the lanes with
// events to run, or leaves it out when it has none: its head wakes when
// the event just taken finishes, if it has arrived by then and that event
// runs; a lane that can run at once (its event took no time) is ready at
// t.
func (a *laneAware) reschedule(ln, finish, t int) {
	head := a.queues.at(ln).head
	if head < 0 {
		return
	}
	h := a.at(head)
	switch at := max(finish, h.arrival); {
	case finish > t && at == finish:
		h.wake = true
	case at > t:
		a.later.push(at, 0, ln)
	default:
		a.ready.push(head, 0, ln)
	}
}
