package konvoy

import (
	"cmp"
	"math"
	"slices"
)

// keyState is what the simulator knows of one key: its name, its current
// state, the highest step among its events so far, its partition's lane
// under partition lanes, and, except under key lanes (whose lane is the key's
// alone), the lane it first ran in with the load it carried there. The
// name's header lies beside the state, so finding a key and updating it
// touch the same few bytes.
type keyState struct {
	name     string
	state    int
	highest  int
	partLane int32
	home     int32
	homeLoad int
}

// running is the last event a consumer took under the head-of-line policy,
// until it is applied: only a consumer's last event can be waiting, because
// the consumer took its next event at the earliest free time, when
// everything finished by then had been applied.
type running struct {
	finish  int
	index   int // input index
	key     int // index into Simulator.keys
	step    int
	next    int32 // the next consumer in the same due list; -1: none
	waiting bool  // not applied yet
}

// dueLists files the consumers whose events wait to be applied by finish
// time, so that those due at a time are found without a search and come out
// in input order without a sort. A waiting event (one not applied as soon
// as its consumer takes it) is filed then, at the tail of the list its
// finish time hashes to; since events are taken in input order, every list,
// and every part of one, is in input order. Lists outnumber consumers at
// least twice, and the hash spreads finish times as a random one would, so
// a list is seldom shared by two finish times; a shared one is scanned
// whole, which costs up to O(c) for c consumers when many share it.
type dueLists struct {
	head, tail []int32 // by list; -1: empty
	shift      uint    // 64 − log₂ len(head)
}

// list returns the list that finish time t is filed in: the top bits of a
// multiply-xorshift-multiply mix of t, which spreads arithmetic
// progressions of times as well as random hashing would.
func (d *dueLists) list(t int) int {
	h := uint64(t) * 0x9e3779b97f4a7c15
	h ^= h >> 29
	return int(h * 0xbf58476d1ce4e5b9 >> d.shift)
}

// newDueLists returns empty lists for c consumers.
func newDueLists(c int) dueLists {
	n, shift := 2, uint(63)
	for n < 2*c {
		n, shift = 2*n, shift-1
	}
	d := dueLists{head: make([]int32, n), tail: make([]int32, n), shift: shift}
	for i := range n {
		d.head[i], d.tail[i] = -1, -1
	}
	return d
}

// growRunning makes room for consumer id's last event, at least doubling
// the room, and files the waiting events again in lists for the new room,
// in input order. It takes O(c log c) time for a room of c consumers, so
// O(log c) amortised over the consumers added.
func (s *Simulator) growRunning(id int) {
	room := min(max(2*len(s.running), id+1), s.consumers.n)
	s.running = slices.Grow(s.running, room-len(s.running))[:room]
	var waiting []int
	for i, r := range s.running {
		if r.waiting {
			waiting = append(waiting, i)
		}
	}
	slices.SortFunc(waiting, func(a, b int) int { return cmp.Compare(s.running[a].index, s.running[b].index) })
	s.due = newDueLists(room)
	for _, i := range waiting {
		s.file(i, s.running[i].finish)
	}
}

// file puts consumer id, whose event finishes at finish, at the tail of its
// list.
func (s *Simulator) file(id, finish int) {
	d := &s.due
	l := d.list(finish)
	s.running[id].next = -1
	if d.tail[l] < 0 {
		d.head[l] = int32(id)
	} else {
		s.running[d.tail[l]].next = int32(id)
	}
	d.tail[l] = int32(id)
}

// applyReady applies, after consumer id took an event (which, if it is a
// history-only record, does not wait), every event that no
// later event can finish before: those finished by the earliest free time m
// of any consumer. Every later event starts no earlier than m, since the
// earliest free time never decreases, and one that finishes exactly at m has
// a higher input index. So applying them now gives the lesson's order, by
// (finish, index), without sorting the run.
//
// Waiting events are the consumers' last ones, finished when their
// consumers become free, and none finished by the previous earliest free
// time. If m has not moved, only the event just taken can be ready, and it
// comes after every other event finished at m. If m has moved on, the ready
// events are those filed under m, taken from its list in input order.
func (s *Simulator) applyReady(id int) {
	r := &s.running[id]
	m := s.consumers.earliest()
	if r.waiting {
		if m == s.applied && r.finish == m {
			r.waiting = false
			s.apply(r.index, r.key, r.step, m)
			return
		}
		s.file(id, r.finish)
	}
	if m != s.applied {
		s.applied = m
		s.applyDue(m)
	}
}

// applyDue applies, in input order, the waiting events that finish at m and
// takes them off their list, keeping the others there in order.
func (s *Simulator) applyDue(m int) {
	d := &s.due
	l := d.list(m)
	prev := int32(-1)
	for id := d.head[l]; id >= 0; {
		r := &s.running[id]
		next := r.next
		if r.finish != m {
			prev = id
			id = next
			continue
		}
		if prev < 0 {
			d.head[l] = next
		} else {
			s.running[prev].next = next
		}
		if d.tail[l] == id {
			d.tail[l] = prev
		}
		r.waiting = false
		s.apply(r.index, r.key, r.step, m)
		id = next
	}
}

// finished is an event that has finished, or will, but may not be applied
// yet, because an event dispatched later could still finish before it. The
// lane-aware policy keeps them in a heap, the static one in its consumers'
// queues.
type finished struct {
	finish int
	index  int
	key    int
	step   int
}

// applyPending applies, in apply order, the pending events that finish by
// until: no event dispatched later finishes before until, and one that
// finishes at until has a higher input index.
func (s *Simulator) applyPending(until int) {
	for len(s.pending) > 0 {
		f := s.pending[0].val
		if f.finish > until {
			return
		}
		s.pending.pop()
		s.apply(f.index, f.key, f.step, f.finish)
	}
}

// applyAll applies every event still waiting, at the end of a run, in order
// of finish time, ties by input index.
func (s *Simulator) applyAll() {
	s.applyOwned(math.MaxInt)
	for len(s.pending) > 0 {
		f := s.pending.pop().val
		s.apply(f.index, f.key, f.step, f.finish)
	}
	if s.running == nil {
		return
	}
	var waiting []int
	for id, r := range s.running {
		if r.waiting {
			waiting = append(waiting, id)
		}
	}
	slices.SortFunc(waiting, func(a, b int) int {
		ra, rb := s.running[a], s.running[b]
		return cmp.Or(cmp.Compare(ra.finish, rb.finish), cmp.Compare(ra.index, rb.index))
	})
	for _, id := range waiting {
		r := &s.running[id]
		r.waiting = false
		s.apply(r.index, r.key, r.step, r.finish)
	}
}

// apply runs the layout's handler on the event with input index i, of the
// key with index key and a step above 0, finished at time finish (the
// lesson's uygula); history-only records never wait to be applied (see
// started). A step lower than the key's state is a backward write, which
// the version-stamp handler skips and the last-writer-wins handler writes
// anyway; the resequencer never lets one happen.
func (s *Simulator) apply(i, key, step, finish int) {
	k := s.keys.at(key)
	switch s.layout.handler {
	case resequence:
		s.resequence(i, key, step, finish, k)
		return
	case versionStamp:
		if step < k.state {
			s.backwardWrites++
			s.skipped++
			s.outcome(i, Skipped, -1)
			return
		}
	default:
		if step < k.state {
			s.backwardWrites++
			s.outcome(i, WrittenBackward, finish)
			k.state = step
			return
		}
	}
	s.outcome(i, Applied, finish)
	k.state = step
}
