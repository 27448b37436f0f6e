package konvoy

import (
	"math"
	"slices"
)

// static is the [Static] policy: each lane runs on its owner, the consumer
// its [Assignor] deals it to, as a Kafka consumer group assigns
// partitions; an event without a lane goes to the consumer
// that becomes free earliest. It holds the events taken but not yet
// applied, by consumer, except under layouts whose lanes pin keys, where
// an event is applied as soon as it is taken.
//
// The consumers' queue numbers consumers in the order they are first
// used, and costs what that many need; first-seen owners come in that
// order. An assignor of partitions deals a lane to any member of the
// group, so its owners take the queue's numbers in the order they are
// first used, and the schedule shows their member numbers: consumers are
// alike, so the run is the same.
type static struct {
	s       *Simulator
	owned   ownedQueues // events not applied yet, by consumer
	owners  []owner     // by lane, once it has run an event
	members map[int]int // under an assignor of partitions: queue numbers by member
}

// owner is the consumer that runs a lane: its number in the consumers'
// queue, and as a member of the group; set is false until it is known.
type owner struct {
	id, member int32
	set        bool
}

// add gives event e, interned, of lane ln (-1: none), to its lane's
// owner (see owner), or to the
// earliest-free consumer when it has no lane. It starts when it has
// arrived and the consumer is free: only the owner runs the lane's events,
// so the lane is free by then. Under a layout whose lanes pin keys it is
// applied at once; otherwise it waits in its consumer's queue until no
// later event can finish before it. Then add applies the queued events
// that no later event can finish before: those finished by the time the
// next event could start, the earliest free time of a consumer that can
// take one (see takers) or e's arrival, whichever is later. It takes
// O(log c) time for c consumers, plus O(log c) for each event applied.
func (st *static) add(e task, ln int) {
	k := e.key
	s := st.s
	c := s.consumers.next()
	member := c.id
	if ln >= 0 {
		o := st.owner(ln)
		c.id, member = int(o.id), int(o.member)
		c.free = s.consumers.freeAt(c.id)
	}
	start := max(c.free, e.arrival)
	s.consumers.busy(c.id, start+e.duration)
	s.started(&e, s.events, ln, member, max(c.free, e.arrival), start)
	switch {
	case e.step == 0:
	case s.layout.pinsKeys():
		// Every event of the key that changes its state runs in the key's
		// one lane, on the lane's owner, after the one before it: the key's
		// events finish in apply order, and applying one touches no other
		// key's state (the resequencer's handler, whose measures depend on
		// every key's applies in time, has no lanes). So applying it now
		// does what applying it in order of finish would, and a hot key's
		// events need not wait in memory.
		s.apply(s.events, k, e.step, start+e.duration)
	default:
		st.owned.push(c.id, finished{finish: start + e.duration, index: s.events, key: k, step: e.step})
	}
	st.applyOwned(max(s.consumers.earliestOf(st.takers()), e.arrival))
}

// pinnedMost returns the most work the lanes a consumer owns brought it,
// at the run's end, from the lanes' loads, in O(l) time for l lanes: a
// consumer runs its lanes' events one after another, whatever the others
// do. Every lane has run an event by then, so that its owner is known. A
// layout without lanes (the resequencer's) owns none: 0.
func (st *static) pinnedMost() int {
	t := st.s.table
	if t == nil {
		return 0
	}
	var work []int // by queue number
	most := 0
	for ln := range t.lanes.len() {
		id := int(st.owner(ln).id)
		if id >= len(work) {
			work = slices.Grow(work, id+1-len(work))[:id+1]
		}
		work[id] = satAdd(work[id], t.lanes.at(ln).load)
		most = max(most, work[id])
	}
	return most
}

// takers returns how many consumers can take an event: all of them, but
// under a layout of n partitions, in which every event has a lane, only
// the first n in the consumers' queue, since each of its n lanes runs on
// one owner and a consumer dealt no partition never runs an event. So a
// consumer that cannot take one does not hold back the applies as if it
// were free at round 0 for ever.
func (st *static) takers() int {
	if n := st.s.layout.partitions; n > 0 {
		return min(n, st.s.consumers.n)
	}
	return st.s.consumers.n
}

// owner returns the consumer that lane ln, opened, runs on: by its
// partition's number under [RangeAssignor] (the default for partitions) and
// [RoundRobinAssignor], and by the order in which it opened otherwise. It
// takes O(1) time once the lane has run an event.
func (st *static) owner(ln int) owner {
	s := st.s
	n, c := s.layout.partitions, s.consumers.n
	if n == 0 || s.opts.assignor == FirstSeenAssignor {
		m := int32(ln % c) // lanes are numbered in the order they opened
		return owner{id: m, member: m, set: true}
	}
	if ln < len(st.owners) && st.owners[ln].set {
		return st.owners[ln]
	}
	o := st.queued(s.opts.assignor.deal(s.table.lanes.at(ln).of, n, c))
	if ln >= len(st.owners) {
		st.owners = slices.Grow(st.owners, ln+1-len(st.owners))[:ln+1]
	}
	st.owners[ln] = o
	return o
}

// queued returns member as an owner, with its number in the consumers'
// queue: the next one free when the member is first used.
func (st *static) queued(member int) owner {
	if st.members == nil {
		st.members = make(map[int]int)
	}
	id, ok := st.members[member]
	if !ok {
		id = len(st.members)
		st.members[member] = id
	}
	return owner{id: int32(id), member: int32(member), set: true}
}

// rangeOwner returns the consumer, of c, to which Kafka's RangeAssignor
// deals partition p of n: the first n mod c consumers take ⌊n/c⌋+1
// partitions each, in order, and the others ⌊n/c⌋.
func rangeOwner(p, n, c int) int {
	q, r := n/c, n%c
	if long := r * (q + 1); p >= long {
		return r + (p-long)/q
	}
	return p / (q + 1)
}

// finish applies every event still queued, at the end of a run, in order of
// finish time, ties by input index.
func (st *static) finish() { st.applyOwned(math.MaxInt) }

// held returns the events taken but not yet applied, and what they are:
// none beyond the consumers' own under a layout without lanes, whose
// events go to the earliest free consumer, so that a consumer's event
// before its last has finished by the time it takes the last, and is
// applied then; the one it runs is counted as the consumer's.
func (st *static) held() (int, string) {
	if !st.holdsBacklog(st.s.layout) {
		return 0, "taken but not yet applied"
	}
	return st.owned.n, "taken but not yet applied"
}

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
	queue []fifo[finished] // by consumer
	n     int              // events waiting, in all the queues
	heads minHeap[int]     // consumers whose queue is not empty, by their head's finish and input index
}

// push queues event f, the latest consumer id took, at the tail of its
// queue. It takes O(log c) time when the queue was empty, else O(1)
// amortised (see fifo).
func (o *ownedQueues) push(id int, f finished) {
	if id >= len(o.queue) {
		o.queue = slices.Grow(o.queue, id+1-len(o.queue))[:id+1]
	}
	q := &o.queue[id]
	if q.len() == 0 {
		o.heads.push(f.finish, f.index, id)
	}
	q.push(f)
	o.n++
}

// next returns the next event to apply, and false when no event waits.
func (o *ownedQueues) next() (finished, bool) {
	if len(o.heads) == 0 {
		return finished{}, false
	}
	return *o.queue[o.heads[0].val].front(), true
}

// pop takes the next event to apply off its queue, in O(log c) time.
func (o *ownedQueues) pop() {
	q := &o.queue[o.heads[0].val]
	q.pop()
	o.n--
	if q.len() > 0 {
		f := q.front()
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
