package konvoy

// finished is an event that has finished, or will, but may not be applied
// yet, because an event dispatched later could still finish before it. The
// unlimited policy keeps them in a heap, the static one in its consumers'
// queues, and the lane-aware one, which applies an event when its finish
// time comes, only those that finish then.
type finished struct {
	finish int
	index  int
	key    int
	step   int
}

// apply runs the layout's handler on the event with input index i, of the
// key with index key and a step above 0, finished at time finish (the
// lesson's uygula); history-only records never wait to be applied (see
// started). A step lower than the key's state is a backward write, which
// the version-stamp handler skips and the last-writer-wins handler writes
// anyway; the resequencer never lets one happen.
func (s *Simulator) apply(i, key, step, finish int) {
	if s.layout.handler == resequence {
		s.resequence(i, key, step, finish, s.state.at(key))
		return
	}
	p := s.state.slot(key)
	if step < s.state.read(key, p) {
		s.backwardWrites++
		if s.layout.handler == versionStamp {
			s.skipped++
			s.outcome(i, Skipped, -1)
			return
		}
		s.outcome(i, WrittenBackward, finish)
		s.state.put(key, p, step)
		return
	}
	s.outcome(i, Applied, finish)
	s.state.put(key, p, step)
}
