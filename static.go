package konvoy

import (
	"math"
	"slices"
)

// static is the [Static] policy: each lane runs on its owner, the consumer
// it was assigned to, round-robin, when it opened, as a Kafka consumer
// group assigns partitions; an event without a lane goes to the consumer
// that becomes free earliest. It holds the events taken but not yet
// applied, by consumer, except under layouts whose lanes pin keys, where
// an event is applied as soon as it is taken.
type static struct {
	s     *Simulator
	owned ownedQueues // events not applied yet, by consumer
}

// add gives event e, of key index k and lane ln (-1: none), to its lane's
// owner, the consumer the lane was assigned to when it opened, or to the
// earliest-free consumer when it has no lane. It starts when it has
// arrived and the consumer is free: only the owner runs the lane's events,
// so the lane is free by then. Under a layout whose lanes pin keys it is
// applied at once; otherwise it waits in its consumer's queue until no
// later event can finish before it. Then add applies the queued events
// that no later event can finish before: those finished by the time the
// next event could start, the earliest free time or e's arrival,
// whichever is later. It takes O(log c) time for c consumers, plus
// O(log c) for each event applied.
func (st *static) add(e Event, k, ln int) {
	s := st.s
	c := s.consumers.next()
	if ln >= 0 {
		c.id = ln % s.consumers.n // lanes are numbered in the order they opened
		c.free = s.consumers.freeAt(c.id)
	}
	start := max(c.free, e.Arrival)
	s.consumers.busy(c.id, start+e.Duration)
	s.started(&e, s.events, k, ln, c.id, max(c.free, e.Arrival), start)
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
		st.owned.push(c.id, finished{finish: start + e.Duration, index: s.events, key: k, step: e.Step})
	}
	st.applyOwned(max(s.consumers.earliest(), e.Arrival))
}

// finish applies every event still queued, at the end of a run, in order of
// finish time, ties by input index.
func (st *static) finish() { st.applyOwned(math.MaxInt) }

// held returns the events taken but not yet applied, and what they are.
func (st *static) held() (int, string) { return st.owned.n, "taken but not yet applied" }

// holdsBacklog is true for lanes that do not pin each key to one lane,
// whose events wait in their owners' queues to be applied in order.
func (st *static) holdsBacklog(l Layout) bool { return l.lanes != noLanes && !l.pinsKeys() }

// ownedQueues holds, under the static policy, each consumer's events that
// are not applied yet. A consumer runs its events one after another in
// input order, each starting no earlier than the last one finished, so its
// queue is already in apply order, by finish time, ties by input index. The
// next event to apply is then at the head of one of the queues: a heap of
// the queues' heads finds it in O(log c) time for c consumers, however many
// events a consumer that runs ahead of the others has queued.
type ownedQueues struct {
	queue [][]finished // by consumer; the events from head on wait
	head  []int
	n     int          // events waiting, in all the queues
	heads minHeap[int] // consumers whose queue is not empty, by their head's finish and input index
}

// push queues event f, the latest consumer id took, at the tail of its
// queue. It takes O(log c) time when the queue was empty, else O(1)
// amortised: the applied part of a queue is dropped once it is more than
// half of it. A queue keeps the room its longest backlog needed.
func (o *ownedQueues) push(id int, f finished) {
	if id >= len(o.queue) {
		o.queue = slices.Grow(o.queue, id+1-len(o.queue))[:id+1]
		o.head = slices.Grow(o.head, id+1-len(o.head))[:id+1]
	}
	q, h := o.queue[id], o.head[id]
	switch {
	case h == len(q):
		q, h = q[:0], 0
		o.heads.push(f.finish, f.index, id)
	case h > len(q)/2:
		q, h = q[:copy(q, q[h:])], 0
	}
	o.queue[id], o.head[id] = append(q, f), h
	o.n++
}

// next returns the next event to apply, and false when no event waits.
func (o *ownedQueues) next() (finished, bool) {
	if len(o.heads) == 0 {
		return finished{}, false
	}
	id := o.heads[0].val
	return o.queue[id][o.head[id]], true
}

// pop takes the next event to apply off its queue, in O(log c) time.
func (o *ownedQueues) pop() {
	id := o.heads[0].val
	o.head[id]++
	o.n--
	if h := o.head[id]; h < len(o.queue[id]) {
		f := o.queue[id][h]
		o.heads[0].key, o.heads[0].tie = f.finish, f.index
		o.heads.down(0)
		return
	}
	o.heads.pop()
}

// applyOwned applies, in apply order, the queued events that finish by
// until: no event dispatched later finishes before until, and one that
// finishes at until has a higher input index.
func (st *static) applyOwned(until int) {
	for {
		f, ok := st.owned.next()
		if !ok || f.finish > until {
			return
		}
		st.owned.pop()
		st.s.apply(f.index, f.key, f.step, f.finish)
	}
}
