package konvoy

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
func (s *Simulator) resequence(i, key, step, finish int, k *int) {
	switch {
	case step <= *k:
		s.duplicates++
		s.outcome(i, Duplicate, -1)
	case step == *k+1:
		*k = step
		s.outcome(i, Applied, finish)
		s.release(key, finish, k)
	default:
		s.hold(key, heldEvent{step, finish, i})
	}
}

// heldAt names a held event: its key's index and its step.
type heldAt struct{ key, step int }

// hold keeps event e of the key with index key, unless its step is already
// held. It takes O(1) expected time, however many events the key holds.
func (s *Simulator) hold(key int, e heldEvent) {
	if s.held == nil {
		s.held = make(map[heldAt]heldEvent)
		s.heldByKey = make(map[int]int)
	}
	at := heldAt{key, e.step}
	if _, dup := s.held[at]; dup {
		s.duplicates++
		s.outcome(e.index, Duplicate, -1)
		return
	}
	s.held[at] = e
	s.outcome(e.index, NeverApplied, -1) // until released
	s.buffered++
	s.holding++
	s.heldByKey[key]++
	s.maxBuffered = max(s.maxBuffered, s.holding)
	s.maxKeyBuffered = max(s.maxKeyBuffered, s.heldByKey[key])
}

// release applies, at time now, the held events of key k (index key) that
// now follow on from its state, in step order, in O(1) expected time each.
func (s *Simulator) release(key, now int, k *int) {
	if s.heldByKey[key] == 0 {
		return
	}
	n := 0
	for {
		at := heldAt{key, *k + 1}
		e, ok := s.held[at]
		if !ok {
			break
		}
		delete(s.held, at)
		*k = e.step
		s.heldRounds += now - e.finish
		s.outcome(e.index, Held, now)
		n++
	}
	s.holding -= n
	if s.heldByKey[key] -= n; s.heldByKey[key] == 0 {
		delete(s.heldByKey, key)
	}
}
