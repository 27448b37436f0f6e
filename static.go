package konvoy

import "slices"

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

// applyOwned applies, in apply order, the static policy's queued events
// that finish by until: no event dispatched later finishes before until,
// and one that finishes at until has a higher input index.
func (s *Simulator) applyOwned(until int) {
	for {
		f, ok := s.owned.next()
		if !ok || f.finish > until {
			return
		}
		s.owned.pop()
		s.apply(f.index, f.key, f.step, f.finish)
	}
}
