package konvoy

import "math"

// consumer is one worker: the time it becomes free and its index.
type consumer struct {
	free int
	id   int
}

// consumerQueue finds the consumer that takes the next event: the one free
// earliest, the lowest index among ties.
//
// Consumers that have never been made busy are all free at round 0, and
// being the highest indices, the first of them is the one that comes next
// among all those free at round 0; so they need no storage. The queue keeps
// only consumers 0 … touched−1, the ones made busy so far, and a run costs
// what the consumers its events took need, however many there are.
//
// The touched consumers are a winner tree: every inner node holds the better
// of its two children, the root the best of all, so changing one consumer's
// free time replays the log₂ c matches on its way to the root, whichever
// consumer it is. Every consumer in a node's left subtree has a lower index
// than every one in its right subtree, so a match is one comparison of free
// times, won by the right child only when it is free strictly earlier; the
// compiler turns it into conditional moves, with no branch to mispredict.
// Leaves beyond the last touched consumer are free at MaxInt and, being
// rightmost, lose every match against a touched consumer, even one parked
// at MaxInt. The tree doubles when a consumer beyond its leaves is touched.
type consumerQueue struct {
	node    []match // by node: its winner; node 1 is the root, i's children 2i and 2i+1
	size    int     // leaves, a power of two; leaf of consumer id is size+id
	touched int     // consumers made busy so far: 0 … touched−1
	n       int     // consumers
}

// match is a node of the winner tree: the earliest free time below it and
// the consumer free then. The two sit side by side, so a match loads one
// node.
type match struct {
	free int
	id   int32
}

// newConsumerQueue returns n consumers, all free at round 0.
func newConsumerQueue(n int) consumerQueue {
	q := consumerQueue{n: n}
	q.resize(1)
	return q
}

// resize makes the tree hold at least leaves leaves, keeping the touched
// consumers' free times, in O(size) time.
func (q *consumerQueue) resize(leaves int) {
	size := 1
	for size < leaves {
		size *= 2
	}
	node := make([]match, 2*size)
	for i := range size {
		node[size+i] = match{math.MaxInt, int32(i)}
		if i < q.touched {
			node[size+i].free = q.node[q.size+i].free
		}
	}
	for i := size - 1; i >= 1; i-- {
		l, r := 2*i, 2*i+1
		if node[r].free < node[l].free {
			l = r
		}
		node[i] = node[l]
	}
	q.node, q.size = node, size
}

// next returns the consumer that becomes free earliest, the lowest index
// among ties. It takes O(1) time.
func (q *consumerQueue) next() consumer {
	if q.node[1].free > 0 && q.touched < q.n {
		return consumer{0, q.touched}
	}
	return consumer{q.node[1].free, int(q.node[1].id)}
}

// nextTouched returns the touched consumer that becomes free earliest, the
// lowest index among ties, free at MaxInt when none is touched.
func (q *consumerQueue) nextTouched() consumer { return consumer{q.node[1].free, int(q.node[1].id)} }

// earliest returns the earliest time any consumer is free.
func (q *consumerQueue) earliest() int { return q.earliestOf(q.n) }

// earliestOf returns the earliest time any of consumers 0 … k−1 is free,
// for a run that never makes a consumer from k on busy.
func (q *consumerQueue) earliestOf(k int) int {
	if q.touched < k {
		return 0
	}
	return q.node[1].free
}

// freeAt returns the time consumer id becomes free.
func (q *consumerQueue) freeAt(id int) int {
	if id >= q.touched {
		return 0
	}
	return q.node[q.size+id].free
}

// busy makes consumer id free at t, as busyFrom does, touching it, and
// every untouched consumer below it, first if it has never been busy.
func (q *consumerQueue) busy(id, t int) {
	if id >= q.touched {
		q.touch(id)
	}
	q.busyFrom(id, t)
}

// busyFrom makes consumer id, which has been busy before, free at t (later
// than now, or, for an idle consumer parked at MaxInt, earlier) in O(log c)
// time. It replays the matches on the way to the root carrying the winner
// so far, so each level loads only the sibling: a left sibling wins ties, a
// right one must be free strictly earlier.
func (q *consumerQueue) busyFrom(id, t int) {
	node := q.node
	f, w := t, int32(id)
	i := q.size + id
	node[i].free = t
	for ; i > 1; i /= 2 {
		left := i & 1 // 1 when the sibling, i^1, is the left child
		s := &node[i^1]
		if sf, sw := s.free, s.id; sf-left < f {
			f, w = sf, sw
		}
		p := &node[i/2]
		p.free, p.id = f, w
	}
}

// touch brings consumers touched … id into the tree, free at round 0 but
// id, whose free time the caller sets, doubling the tree as it must.
func (q *consumerQueue) touch(id int) {
	if id >= q.size {
		q.resize(min(max(2*q.size, id+1), q.n))
	}
	for q.touched < id { // never under the built-in policies: see static.add
		c := q.touched
		q.touched++
		q.busyFrom(c, 0)
	}
	q.touched = id + 1 // the caller's busyFrom sets its leaf
}
