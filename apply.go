package konvoy

import (
	"cmp"
	"slices"
)

// keyState is what the simulator knows of one key: its current state, the
// highest step among its events so far, its lane (for key lanes; its
// partition for partition lanes; -1 before it has one), and the lane it first
// ran in with the load it carried there. It holds no pointer, so that the
// garbage collector need not scan millions of them.
type keyState struct {
	state    int
	highest  int
	lane     int32
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
	waiting bool // not applied yet
}

// applyReady applies, after consumer id took an event, every event that no
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
// events are those of the consumers free at m, at the top of the consumer
// heap; ties are applied in input order.
func (s *Simulator) applyReady(id int) {
	m := s.consumers.earliest()
	if m == s.applied {
		if r := &s.running[id]; r.waiting && r.finish == m {
			s.applyInOrder([]int{id}, m)
		}
		return
	}
	s.applied = m
	s.ready = s.ready[:0]
	s.collectReady(1, m)
	s.applyInOrder(s.ready, m)
}

// collectReady gathers the waiting events of the consumers below node i of
// the consumer tree that are free at m: a node whose winner is free later
// has none.
func (s *Simulator) collectReady(i, m int) {
	q := &s.consumers
	id := q.win[i]
	if id < 0 || q.free[id] != m {
		return
	}
	if i >= q.size {
		if s.running[id].waiting {
			s.ready = append(s.ready, int(id))
		}
		return
	}
	s.collectReady(2*i, m)
	s.collectReady(2*i+1, m)
}

// applyInOrder applies the waiting events of the given consumers, all
// finished at time finish, in input order. A handful of ties is the common
// case, sorted by insertion in place.
func (s *Simulator) applyInOrder(ids []int, finish int) {
	if len(ids) > 64 {
		slices.SortFunc(ids, func(a, b int) int { return s.running[a].index - s.running[b].index })
	}
	for i := 1; i < len(ids); i++ {
		id, index := ids[i], s.running[ids[i]].index
		j := i
		for ; j > 0 && s.running[ids[j-1]].index > index; j-- {
			ids[j] = ids[j-1]
		}
		ids[j] = id
	}
	for _, id := range ids {
		r := &s.running[id]
		r.waiting = false
		s.apply(r.index, r.key, r.step, finish)
	}
}

// finished is an event that has finished, or will, but may not be applied
// yet, because an event dispatched later could still finish before it. The
// static and lane-aware policies keep them in a heap.
type finished struct {
	finish int
	index  int
	key    int
	step   int
}

// before orders finished events in apply order: by finish time, ties by
// input index.
func (f finished) before(g finished) bool {
	return f.finish < g.finish || f.finish == g.finish && f.index < g.index
}

// applyPending applies, in apply order, the pending events that finish by
// until: no event dispatched later finishes before until, and one that
// finishes at until has a higher input index.
func (s *Simulator) applyPending(until int) {
	for len(s.pending) > 0 {
		f := s.pending[0]
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
	for len(s.pending) > 0 {
		f := s.pending.pop()
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
		s.applyInOrder([]int{id}, s.running[id].finish)
	}
}

// apply runs the layout's handler on the event with input index i, of the
// key with index key, finished at time finish (the lesson's uygula). Step 0
// is a history-only record and leaves the state alone under every handler.
// Otherwise a step lower than the key's state is a backward write, which the
// version-stamp handler skips and the last-writer-wins handler writes
// anyway; the resequencer never lets one happen.
func (s *Simulator) apply(i, key, step, finish int) {
	if step == 0 {
		s.outcome(i, HistoryOnly, finish)
		return
	}
	k := &s.keys[key]
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
