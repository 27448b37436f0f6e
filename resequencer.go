package konvoy

import "slices"

// heldEvent is an event the resequencer holds until its key's gap fills.
type heldEvent struct {
	step   int
	finish int
}

// resequence is the resequencer's handler for event f of key k: apply it
// when it is the key's next step and then every held step that follows on;
// hold it when it is ahead; discard it as a duplicate when its step is
// already applied or already held. The time an event spends held runs from
// its own finish to the finish of the event that releases it.
func (s *Simulator) resequence(f finished, k *keyState) {
	switch {
	case f.step <= k.state:
		s.duplicates++
	case f.step == k.state+1:
		k.state = f.step
		s.release(f, k)
	default:
		s.hold(f, k)
	}
}

// hold keeps event f of key k, in step order, unless its step is already
// held.
func (s *Simulator) hold(f finished, k *keyState) {
	if s.held == nil {
		s.held = make(map[int][]heldEvent)
	}
	h := s.held[f.key]
	i, found := slices.BinarySearchFunc(h, f.step, func(e heldEvent, step int) int { return e.step - step })
	if found {
		s.duplicates++
		return
	}
	s.held[f.key] = slices.Insert(h, i, heldEvent{f.step, f.finish})
	s.buffered++
	s.holding++
	s.maxBuffered = max(s.maxBuffered, s.holding)
	s.maxKeyBuffered = max(s.maxKeyBuffered, len(h)+1)
}

// release applies, at the finish time of event f, the held events of key k
// that now follow on from its state.
func (s *Simulator) release(f finished, k *keyState) {
	h, ok := s.held[f.key]
	if !ok {
		return
	}
	n := 0
	for n < len(h) && h[n].step == k.state+1 {
		k.state = h[n].step
		s.heldRounds += f.finish - h[n].finish
		n++
	}
	s.holding -= n
	if n == len(h) {
		delete(s.held, f.key)
		return
	}
	s.held[f.key] = h[n:]
}
