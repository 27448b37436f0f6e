package konvoy

import (
	"cmp"
	"slices"
)

// headOfLine is the [HeadOfLine] policy, the lesson's scheduler: each event,
// in input order, goes to the consumer that becomes free earliest, and
// starts when it has arrived and both the consumer and its lane are free. It
// holds, for each consumer, the last event the consumer took until it is
// applied, and files those that wait by finish time.
type headOfLine struct {
	s       *Simulator
	running []running // by consumer id, its last event
	due     dueLists  // waiting events by finish time
	applied int       // every event finished by then is applied
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

// add gives event e, interned, of lane ln (-1: none), to the
// earliest-free consumer, as the lesson's scheduler does: it starts when it
// has arrived and both the consumer and its lane are free. A consumer whose
// lane is busy waits idle (head-of-line blocking). Then it applies the
// events that makes safe (see applyReady). It takes O(log c) time for c
// consumers, plus O(1) amortised for each event applied. Dispatching and
// applying are one call from Add: the policy's whole work per event sits
// behind the one dynamic call.
func (h *headOfLine) add(e task, ln int) {
	s := h.s
	c := s.consumers.next()
	start := max(c.free, e.arrival)
	if ln >= 0 {
		start = max(start, s.lanes.at(ln).free)
	}
	finish := start + e.duration
	if c.id >= s.consumers.touched {
		s.consumers.touch(c.id)
	}
	s.consumers.busyFrom(c.id, finish)
	s.started(&e, s.events, ln, c.id, max(c.free, e.arrival), start)
	if c.id >= len(h.running) {
		h.growRunning(c.id)
	}
	r := &h.running[c.id] // field by field: a struct literal goes through the stack
	r.finish, r.index, r.key, r.step, r.waiting = finish, s.events, e.key, e.step, e.step > 0
	h.applyReady(c.id)
}

// finish applies every event still waiting, at the end of a run, in order
// of finish time, ties by input index. It takes O(c log c) time for c
// consumers.
func (h *headOfLine) finish() {
	var waiting []int
	for id, r := range h.running {
		if r.waiting {
			waiting = append(waiting, id)
		}
	}
	slices.SortFunc(waiting, func(a, b int) int {
		ra, rb := h.running[a], h.running[b]
		return cmp.Or(cmp.Compare(ra.finish, rb.finish), cmp.Compare(ra.index, rb.index))
	})
	for _, id := range waiting {
		r := &h.running[id]
		r.waiting = false
		h.s.apply(r.index, r.key, r.step, r.finish)
	}
}

// held returns 0: the events waiting to be applied are the consumers' last
// ones, which the backlog counts with the consumers.
func (h *headOfLine) held() (int, string) { return 0, "" }

// holdsBacklog is false: a consumer takes the next event as soon as it is
// free, and every event but a consumer's last is applied by then.
func (h *headOfLine) holdsBacklog(Layout) bool { return false }

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
func (h *headOfLine) growRunning(id int) {
	room := min(max(2*len(h.running), id+1), h.s.consumers.n)
	h.running = slices.Grow(h.running, room-len(h.running))[:room]
	var waiting []int
	for i, r := range h.running {
		if r.waiting {
			waiting = append(waiting, i)
		}
	}
	slices.SortFunc(waiting, func(a, b int) int { return cmp.Compare(h.running[a].index, h.running[b].index) })
	h.due = newDueLists(room)
	for _, i := range waiting {
		h.file(i, h.running[i].finish)
	}
}

// file puts consumer id, whose event finishes at finish, at the tail of its
// list.
func (h *headOfLine) file(id, finish int) {
	d := &h.due
	l := d.list(finish)
	h.running[id].next = -1
	if d.tail[l] < 0 {
		d.head[l] = int32(id)
	} else {
		h.running[d.tail[l]].next = int32(id)
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
func (h *headOfLine) applyReady(id int) {
	r := &h.running[id]
	m := h.s.consumers.earliest()
	if r.waiting {
		if m == h.applied && r.finish == m {
			r.waiting = false
			h.s.apply(r.index, r.key, r.step, m)
			return
		}
		h.file(id, r.finish)
	}
	if m != h.applied {
		h.applied = m
		h.applyDue(m)
	}
}

// applyDue applies, in input order, the waiting events that finish at m and
// takes them off their list, keeping the others there in order.
func (h *headOfLine) applyDue(m int) {
	d := &h.due
	l := d.list(m)
	prev := int32(-1)
	for id := d.head[l]; id >= 0; {
		r := &h.running[id]
		next := r.next
		if r.finish != m {
			prev = id
			id = next
			continue
		}
		if prev < 0 {
			d.head[l] = next
		} else {
			h.running[prev].next = next
		}
		if d.tail[l] == id {
			d.tail[l] = prev
		}
		r.waiting = false
		h.s.apply(r.index, r.key, r.step, m)
		id = next
	}
}
