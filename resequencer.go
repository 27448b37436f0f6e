package konvoy

import "slices"

// heldEvent is an event the resequencer holds until its key's gap fills.
type heldEvent struct {
	step   int
	finish int
	index  int
}

// resequence is the resequencer's handler for event i of key k (index key)
// with the given step, finished at finish: apply it when it is the key's
// next step and then every held step that follows on; hold it when it is
// ahead; discard it as a duplicate when its step is already applied or
// already held. The time an event spends held runs from its own finish to
// the finish of the event that releases it.
func (s *Simulator) resequence(i, key, step, finish int, k *keyState) {
	switch {
	case step <= k.state:
		s.duplicates++
		s.outcome(i, Duplicate, -1)
	case step == k.state+1:
		k.state = step
		s.outcome(i, Applied, finish)
		s.release(key, finish, k)
	default:
		s.hold(key, heldEvent{step, finish, i})
	}
}

// hold keeps event e of the key with index key, in step order, unless its
// step is already held.
func (s *Simulator) hold(key int, e heldEvent) {
	if s.held == nil {
		s.held = make(map[int][]heldEvent)
	}
	h := s.held[key]
	i, found := slices.BinarySearchFunc(h, e.step, func(h heldEvent, step int) int { return h.step - step })
	if found {
		s.duplicates++
		s.outcome(e.index, Duplicate, -1)
		return
	}
	s.held[key] = slices.Insert(h, i, e)
	s.outcome(e.index, NeverApplied, -1) // until released
	s.buffered++
	s.holding++
	s.maxBuffered = max(s.maxBuffered, s.holding)
	s.maxKeyBuffered = max(s.maxKeyBuffered, len(h)+1)
}

// release applies, at time now, the held events of key k (index key) that
// now follow on from its state.
func (s *Simulator) release(key, now int, k *keyState) {
	h, ok := s.held[key]
	if !ok {
		return
	}
	n := 0
	for n < len(h) && h[n].step == k.state+1 {
		k.state = h[n].step
		s.heldRounds += now - h[n].finish
		s.outcome(h[n].index, Held, now)
		n++
	}
	s.holding -= n
	if n == len(h) {
		delete(s.held, key)
		return
	}
	s.held[key] = h[n:]
}
