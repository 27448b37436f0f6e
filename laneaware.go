package konvoy

import (
	"cmp"
	"math"
	"slices"
)

// queued is an event the lane-aware dispatcher holds until a consumer takes
// it, in a slot of its held events; a vacant slot links to the next vacant
// one through next.
type queued struct {
	index                   int // its input index
	key, lane               int
	step, duration, arrival int
	next                    int32 // the slot of the next event of the lane; -1: none
	wake                    bool  // heads its lane, which is free, and the event can run, when the lane's running event finishes
}

// laneQueue is one lane's events not taken yet, in input order, linked
// through queued.next: a lane costs no allocation of its own, and nothing
// the garbage collector must scan. A lane with events waiting is in fresh,
// ready or later, or waits for the lane's running event to finish (its
// head's wake), one without in none, so the queue says which, in 16 bytes.
type laneQueue struct {
	head, tail int // slots; head -1: empty, and tail then means nothing
}

// laneAware is the [LaneAware] policy: a free consumer takes the oldest
// arrived event whose lane is free. It holds the events not yet taken, in
// input order and per lane, the lanes by when they can run, and the events
// running, one for each busy consumer, until they finish and are applied:
// an event taken is let go of at once, so an event that waits long for its
// lane holds no event but itself, and the run's memory grows with the
// events waiting, not with those that came after them.
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
	s       *Simulator
	now     int              // the time of the current decision; never decreases
	slots   paged[queued]    // the events not taken yet, each in a slot, and vacant slots
	vacant  int32            // the first vacant slot; -1, as newDispatcher makes it: none
	waiting int              // the events not taken yet: the slots not vacant
	queues  paged[laneQueue] // by lane
	// fresh holds the slots of the events that can run from their arrival
	// on, in input order, which is their arrivals' order: those without a
	// lane, and those that came to a lane with none waiting and free by
	// then. They need no heap, which is most events under layouts of many
	// lanes.
	fresh     []int32
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

// at returns the held event in slot h, which must not be vacant; the
// pointer is good until the next event is held.
func (a *laneAware) at(h int32) *queued { return a.slots.at(int(h)) }

// hold puts event q, not taken yet, in a vacant slot, or a new one when
// none is vacant, and returns the slot, in O(1) time amortised.
func (a *laneAware) hold(q queued) int32 {
	a.waiting++
	if h := a.vacant; h >= 0 {
		p := a.at(h)
		a.vacant = p.next
		*p = q
		return h
	}
	if a.slots.len() == math.MaxInt32 {
		panic("konvoy: lane-aware dispatch holds 2³¹−1 events not taken yet, the most it can")
	}
	return int32(a.slots.add(q))
}

// let makes slot h, whose event a consumer has taken, vacant.
func (a *laneAware) let(h int32) {
	a.waiting--
	a.at(h).next, a.vacant = a.vacant, h
}

// add holds event e, interned, of lane ln (-1: none), for the
// consumers, and runs the policy forward as far as no event yet to be
// added could change a choice (see run). It takes O(log c + log l) time
// amortised for c consumers and l lanes with events waiting, and O(log c)
// for an event that can run at its arrival.
func (a *laneAware) add(e task, ln int) {
	h := a.hold(queued{index: a.s.events, key: e.key, lane: ln, step: e.step, duration: e.duration, arrival: e.arrival, next: -1})
	if ln < 0 {
		a.fresh = append(a.fresh, h)
	} else {
		a.enqueue(h, ln, e.arrival)
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

// held returns the events held that no consumer has taken yet, and what
// they are.
func (a *laneAware) held() (int, string) {
	return a.waiting, "no consumer could take yet"
}

// holdsBacklog is true for layouts with lanes, whose events wait for their
// lanes while consumers fall behind.
func (a *laneAware) holdsBacklog(l Layout) bool { return l.lanes != noLanes }

// enqueue puts the held event in slot h, which arrives at arrival, at
// the tail of lane ln's queue, and, if the lane had no event
// waiting, schedules it for when it can run: at arrival, in fresh, when
// the lane is free by then; when the lane's running event finishes, if it
// runs still; else in later.
func (a *laneAware) enqueue(h int32, ln, arrival int) {
	for a.queues.len() <= ln {
		a.queues.add(laneQueue{head: -1})
	}
	q := a.queues.at(ln)
	if q.head >= 0 {
		a.at(int32(q.tail)).next = h
		q.tail = int(h)
		return
	}
	q.head, q.tail = int(h), int(h)
	switch free := a.s.lanes.at(ln).free; {
	case free <= arrival:
		a.fresh = append(a.fresh, h)
	case free > a.now: // the lane's last event runs until then: see finishAt
		a.at(h).wake = true
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
			a.ready.push(a.at(int32(a.queues.at(ln).head)).index, 0, ln)
		}
		for a.busy < n {
			h, ln, ready := a.oldestEligible(t)
			if h < 0 {
				break
			}
			a.take(t, h, ln, ready)
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
			if h := int32(a.queues.at(r.lane).head); h >= 0 && a.at(h).wake {
				a.at(h).wake = false
				a.ready.push(a.at(h).index, 0, r.lane)
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

// oldestEligible returns the slot of the oldest held event that can run
// at t, its lane (-1: none) and whether it heads ready rather than fresh,
// or -1 and -1.
func (a *laneAware) oldestEligible(t int) (h int32, ln int, ready bool) {
	h, ln = -1, -1
	var i int // the input index of ready's head, read only when there is one
	if len(a.ready) > 0 {
		i, ln, ready = a.ready[0].key, a.ready[0].val, true
		h = int32(a.queues.at(ln).head)
	}
	if a.freshHead < len(a.fresh) {
		if f := a.at(a.fresh[a.freshHead]); f.arrival <= t && (h < 0 || f.index < i) {
			h, ln, ready = a.fresh[a.freshHead], f.lane, false
		}
	}
	return h, ln, ready
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

// take gives the held event in slot h, in lane ln (-1: none), at the
// head of ready or else of fresh, to a free consumer at time t, and lets
// go of it.
func (a *laneAware) take(t int, h int32, ln int, ready bool) {
	s := a.s
	q := *a.at(h)
	a.let(h)
	i := q.index
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
		a.queues.at(ln).head = int(q.next)
		a.reschedule(ln, finish, t)
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
	head := int32(a.queues.at(ln).head)
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
		a.ready.push(h.index, 0, ln)
	}
}
