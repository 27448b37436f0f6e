package konvoy

// keyState is what the simulator knows of one key: its current state, the
// highest step among its events so far, its lane (for key lanes; its
// partition for partition lanes; -1 before it has one), and the lane it first
// ran in with the load it carried there. Keys are held in order of first
// appearance.
type keyState struct {
	key      string
	state    int
	highest  int
	lane     int32
	home     int32
	homeLoad int
}

// finished is an event that has finished but may not be applied yet, because
// an event dispatched later could still finish before it.
type finished struct {
	finish int
	index  int
	key    int // index into Simulator.keys
	step   int
}

// finishQueue is a binary min-heap of finished events in apply order: by
// finish time, ties by input index.
type finishQueue []finished

func (q finishQueue) less(i, j int) bool {
	if q[i].finish != q[j].finish {
		return q[i].finish < q[j].finish
	}
	return q[i].index < q[j].index
}

func (q *finishQueue) push(f finished) {
	*q = append(*q, f)
	h := *q
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *finishQueue) pop() finished {
	h := *q
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		m := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	*q = h
	return top
}

// applyUpTo applies, in apply order, every finished event whose finish time
// is at most until. No event dispatched later can finish before until: every
// later event starts no earlier than the earliest-free consumer, whose free
// time never decreases, and one that finishes exactly at until has a higher
// input index. So applying them now gives the same order as sorting the whole
// run by (finish, index), as the lesson does.
func (s *Simulator) applyUpTo(until int) {
	for len(s.pending) > 0 && s.pending[0].finish <= until {
		s.apply(s.pending.pop())
	}
}

// applyAll applies every finished event still pending, at the end of a run.
func (s *Simulator) applyAll() {
	for len(s.pending) > 0 {
		s.apply(s.pending.pop())
	}
}

// apply runs the layout's handler on one event (the lesson's uygula). Step 0
// is a history-only record and leaves the state alone under every handler.
// Otherwise a step lower than the key's state is a backward write, which the
// version-stamp handler skips and the last-writer-wins handler writes
// anyway; the resequencer never lets one happen.
func (s *Simulator) apply(f finished) {
	if f.step == 0 {
		return
	}
	k := &s.keys[f.key]
	switch s.layout.handler {
	case resequence:
		s.resequence(f, k)
		return
	case versionStamp:
		if f.step < k.state {
			s.backwardWrites++
			s.skipped++
			return
		}
	default:
		if f.step < k.state {
			s.backwardWrites++
		}
	}
	k.state = f.step
}
