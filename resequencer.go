package konvoy

import "math"

// heldEvent is an event the resequencer holds until its key's gap fills.
type heldEvent struct {
	step   int
	finish int
	index  int
}

// heldRef is an entry of the resequencer's queue of held events in finish
// order, kept under a Timeout or a Capacity: a held event's key, step and
// input index. An entry whose event was released since is stale, and is
// dropped when met.
type heldRef struct {
	key, finish int
	heldEvent
}

// reseqKey is what the resequencer keeps of one key beyond its state, under
// a [ResequencerConfig] other than the zero one, in 8 bytes: the lowest
// step applied without a gap since the key's start or its last gap skipped
// (low), and whether an old step was written last, backward, in its sign:
// low itself, or ^low, below 0, when backward. Under StartFirstSeen, low is
// 0 until the key's first step sets its start, and at least 1 from then
// on, so it says whether the start is set too.
type reseqKey int

// low returns the lowest step applied without a gap since the key's start
// or its last gap skipped.
func (r reseqKey) low() int {
	if r < 0 {
		return int(^r)
	}
	return int(r)
}

// backward tells whether an old step was written last, backward.
func (r reseqKey) backward() bool { return r < 0 }

// reseqKeys tells whether the resequencer keeps a reseqKey for each key:
// when its configuration can make old steps.
func (s *Simulator) reseqKeys() bool { return reseqKeys(s.layout, s.opts) }

// reseqKeys is Simulator.reseqKeys for a run of layout l and options o.
func reseqKeys(l Layout, o options) bool {
	c := o.reseq
	return l.handler == resequence && (c.Start == StartFirstSeen || c.Timeout > 0 || c.Capacity > 0)
}

// startKey notes, for the key with index k, the event e about to be
// dispatched: under StartFirstSeen the first with a step sets where the
// key starts, one below it.
func (s *Simulator) startKey(e *Event, k int) {
	for s.rkeys.len() <= k {
		s.rkeys.add(0)
	}
	if rk := s.rkeys.at(k); s.opts.reseq.Start == StartFirstSeen && rk.low() == 0 && e.Step > 0 {
		*rk = reseqKey(e.Step) // the start is set, nothing written backward yet
		*s.state.at(k) = e.Step - 1
	}
}

// resequence is the resequencer's handler for event i of key k (index key)
// with the given step, finished at finish: apply it when it is the key's
// next step and then every held step that follows on; hold it when it is
// ahead; discard it as a duplicate when its step is already applied or
// already held, and handle it as an old step (see [ResequencerConfig]) when
// it is at or below the key's state but was never applied. The time an
// event spends held runs from its own finish to the finish of the event
// that releases it, or to its timeout. Under a Timeout, held events whose
// time is up are applied first.
func (s *Simulator) resequence(i, key, step, finish int, k *int) {
	if s.opts.reseq.Timeout > 0 {
		s.expire(finish)
	}
	switch {
	case step <= *k:
		s.old(i, key, step, finish)
	case step == *k+1:
		s.advance(i, key, step, finish, k, Applied)
	default:
		s.hold(key, heldEvent{step, finish, i}, k)
	}
}

// old handles event i of key index key, whose step is at or below the
// key's state, at time now: a duplicate when the key applied it or still
// holds it (held, then passed by a gap skipped), else rejected or written
// backward.
func (s *Simulator) old(i, key, step, now int) {
	_, held := s.held[heldAt{key, step}]
	switch {
	case !s.reseqKeys() || step >= s.rkeys.at(key).low() || held:
		s.duplicates++
		s.outcome(i, Duplicate, -1)
	case s.opts.reseq.RejectOld:
		s.rejectedOld++
		s.outcome(i, RejectedOld, -1)
	default:
		s.backwardWrites++
		rk := s.rkeys.at(key)
		*rk = ^reseqKey(rk.low())
		s.outcome(i, WrittenBackward, now)
	}
}

// advance applies event i of key index key, at a step above the key's
// state, at time now, as outcome o, skipping the steps between, and then
// every held step that follows on.
func (s *Simulator) advance(i, key, step, now int, k *int, o Outcome) {
	if s.reseqKeys() {
		rk := s.rkeys.at(key)
		low := rk.low()
		if step > *k+1 {
			if s.gapsSkipped > math.MaxInt-(step-*k-1) {
				s.overflow("the steps skipped (GapsSkipped)", i, key)
			}
			s.gapsSkipped = satAdd(s.gapsSkipped, step-*k-1)
			low = step
		}
		*rk = reseqKey(low) // not backward
	}
	*k = step
	s.outcome(i, o, now)
	s.release(key, now, k)
}

// heldAt names a held event: its key's index and its step.
type heldAt struct{ key, step int }

// hold keeps event e of the key with index key, unless its step is already
// held. It takes O(1) expected time, however many events the key holds,
// and under a Timeout or Capacity O(log n) amortised for the n steps the
// key holds (see lowestHeld); a full Capacity first gives up gaps (see
// forceFirst) until there is room.
func (s *Simulator) hold(key int, e heldEvent, k *int) {
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
	if c := s.opts.reseq.Capacity; c > 0 && s.holding >= c {
		s.forceFirst(e.finish)
		s.resequence(e.index, key, e.step, e.finish, k) // the key's state may have moved
		return
	}
	s.held[at] = e
	s.outcome(e.index, NeverApplied, -1) // until released
	s.buffered++
	s.holding++
	s.heldByKey[key]++
	s.maxBuffered = max(s.maxBuffered, s.holding)
	s.maxKeyBuffered = max(s.maxKeyBuffered, s.heldByKey[key])
	if s.opts.reseq.Timeout > 0 || s.opts.reseq.Capacity > 0 {
		s.enqueue(heldRef{key, e.finish, e})
		if s.heldSteps == nil {
			s.heldSteps = make(map[int]*minHeap[struct{}])
		}
		h := s.heldSteps[key]
		if h == nil {
			h = new(minHeap[struct{}])
			s.heldSteps[key] = h
		}
		h.push(e.step, 0, struct{}{})
	}
}

// lowestHeld returns the held event of the lowest step of the key of r,
// itself held, dropping the steps released since from the key's heap, in
// O(log n) amortised time for the n steps the key holds.
func (s *Simulator) lowestHeld(r heldRef) heldRef {
	h := s.heldSteps[r.key]
	for h != nil && len(*h) > 0 {
		if e, ok := s.held[heldAt{r.key, (*h)[0].key}]; ok {
			return heldRef{r.key, e.finish, e}
		}
		h.pop()
	}
	return r
}

// enqueue adds r to the queue of held events, dropping the stale entries
// when they outnumber the live ones, and the entries first has passed
// when they are half the queue (a queue that never empties would
// otherwise keep them all), in O(1) amortised time.
func (s *Simulator) enqueue(r heldRef) {
	s.queue = append(s.queue, r)
	if !dueForCompaction(len(s.queue), s.head, s.holding) {
		return
	}
	live := s.queue[:0]
	for _, q := range s.queue[s.head:] {
		if s.live(q) {
			live = append(live, q)
		}
	}
	clear(s.queue[len(live):])
	s.queue, s.head = live, 0
}

// dueForCompaction tells whether a queue of held events of n entries, the
// first head of them passed, while held events are held, is to drop its
// stale and passed entries: when those after head outnumber twice the
// held ones and 64, or the passed ones are more than half. Either way the
// entries dropped pay for the compaction: O(1) amortised time an entry.
func dueForCompaction(n, head, held int) bool { return n-head > 2*held+64 || 2*head > n }

// live tells whether queue entry r is still held.
func (s *Simulator) live(r heldRef) bool {
	e, ok := s.held[heldAt{r.key, r.step}]
	return ok && e.index == r.index
}

// first returns the held event that finished first, dropping the stale
// entries before it, and false when none is held.
func (s *Simulator) first() (heldRef, bool) {
	for s.head < len(s.queue) {
		if r := s.queue[s.head]; s.live(r) {
			return r, true
		}
		s.queue[s.head] = heldRef{}
		s.head++
	}
	s.queue, s.head = s.queue[:0], 0
	return heldRef{}, false
}

// expire applies, each at its timeout, the held events whose timeout comes
// before now; now math.MaxInt applies them all, as at the end of a run, but
// for those whose finish plus Timeout passes the largest int, a time that
// never comes.
func (s *Simulator) expire(now int) {
	t := s.opts.reseq.Timeout
	for {
		r, ok := s.first()
		if !ok || r.finish > now-t || r.finish == now-t && now < math.MaxInt {
			return
		}
		s.force(r, satAdd(r.finish, t))
	}
}

// forceFirst gives up, at time now, the gap before the lowest step of the
// key whose held event finished first (see force).
func (s *Simulator) forceFirst(now int) {
	if r, ok := s.first(); ok {
		s.force(r, now)
	}
}

// force gives up, at time now, for held event r, the gap before the lowest
// step its key holds: it applies that step's event, r's or one below it,
// skipping the steps missing before it, or handles it as an old step when
// a gap skipped since has passed it. So a key's held steps apply in step
// order, and only the steps that never came are skipped; r, if still
// held, is given up again, until it applies.
func (s *Simulator) force(r heldRef, now int) {
	r = s.lowestHeld(r)
	delete(s.held, heldAt{r.key, r.step})
	s.holding--
	if s.heldByKey[r.key]--; s.heldByKey[r.key] == 0 {
		delete(s.heldByKey, r.key)
		delete(s.heldSteps, r.key)
	}
	s.heldFor(now-r.finish, r.index, r.key)
	s.forced++
	k := s.state.at(r.key)
	if r.step <= *k {
		s.old(r.index, r.key, r.step, now)
		return
	}
	s.advance(r.index, r.key, r.step, now, k, Held)
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
		s.heldFor(now-e.finish, e.index, key)
		s.outcome(e.index, Held, now)
		n++
	}
	s.holding -= n
	if s.heldByKey[key] -= n; s.heldByKey[key] == 0 {
		delete(s.heldByKey, key)
		delete(s.heldSteps, key)
	} else if h := s.heldSteps[key]; h != nil {
		for len(*h) > 0 && (*h)[0].key <= *k { // the steps just applied, lowest in the heap
			h.pop()
		}
	}
}

// heldFor counts d more rounds event i, of key index key, spent held; a
// sum past the largest int, which timeouts near it or many long holds can
// reach, is noted, and Result returns an error rather than a wrong
// HeldRounds.
func (s *Simulator) heldFor(d, i, key int) {
	if s.heldRounds > math.MaxInt-d {
		s.overflow("the rounds events spent held (HeldRounds)", i, key)
	}
	s.heldRounds = satAdd(s.heldRounds, d)
}

// overflow notes that the measure what passed the largest int at event i,
// of key index key, unless one passed it before: the run's end returns
// the error of the first.
func (s *Simulator) overflow(what string, i, key int) {
	if s.overflowed == "" {
		s.overflowed, s.overflowAt = what, [2]int{i, key}
	}
}
