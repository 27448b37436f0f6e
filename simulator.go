package konvoy

import (
	"fmt"
	"math"
)

// Simulator runs the lesson's model on a stream of events, one at a time, in
// memory proportional to the distinct keys, the lanes and the consumers, not
// to the events.
//
// Add dispatches each event, in the order given, to the consumer that becomes
// free earliest (ties: the lowest consumer index). The event starts when both
// that consumer and its lane, if the layout gives it one, are free, and
// finishes Duration rounds later; the consumer and the lane stay busy until
// then. Events are applied to their keys' states in order of finish time,
// ties by input index; an event is applied as soon as no later event can
// finish before it, so at most one event per consumer waits to be applied.
//
// A Simulator is made by [NewSimulator]; the zero value is not usable. It is
// not safe for concurrent use.
type Simulator struct {
	layout    Layout
	consumers consumerQueue
	laneIndex map[string]int
	lanes     []lane
	keyIndex  map[string]int
	keys      []keyState
	pending   finishQueue

	events, work, rounds, heaviestLane int
	lastArrival                        int
	backwardWrites, skipped            int

	err  error
	done bool
}

// NewSimulator returns a Simulator for layout with the given number of
// consumers, or an error when consumers < 1.
func NewSimulator(layout Layout, consumers int) (*Simulator, error) {
	if consumers < 1 {
		return nil, fmt.Errorf("konvoy: consumers is %d; want at least 1", consumers)
	}
	return &Simulator{
		layout:    layout,
		consumers: newConsumerQueue(consumers),
		laneIndex: make(map[string]int),
		keyIndex:  make(map[string]int),
		pending:   make(finishQueue, 0, consumers+1),
	}, nil
}

// Add dispatches the next event. It returns an error, naming the event's
// input index and the field, when the event is invalid (see [Simulate]); the
// error is then kept and returned by every later call and by Result, since a
// run with an event missing is not the run asked for.
//
// Add takes O(log c) time for c consumers plus two map lookups, and
// allocates only when it meets a new key or lane. Add panics when called
// after Result.
func (s *Simulator) Add(e Event) error {
	if s.done {
		panic("konvoy: Simulator.Add called after Result")
	}
	if s.err != nil {
		return s.err
	}
	if err := validate(e, s.events, s.layout); err != nil {
		s.err = err
		return err
	}
	if e.Duration > math.MaxInt-s.work {
		s.err = fmt.Errorf("konvoy: event %d (key %q): Duration %d makes the total work overflow int", s.events, e.Key, e.Duration)
		return s.err
	}
	if e.Arrival < s.lastArrival {
		s.err = fmt.Errorf("konvoy: event %d (key %q): Arrival %d is before the previous event's %d; want events in arrival order", s.events, e.Key, e.Arrival, s.lastArrival)
		return s.err
	}
	if e.Arrival > math.MaxInt-s.work-e.Duration {
		s.err = fmt.Errorf("konvoy: event %d (key %q): Arrival %d plus the total work overflows int", s.events, e.Key, e.Arrival)
		return s.err
	}
	s.lastArrival = e.Arrival
	key := s.key(e)
	finish := s.dispatch(e)
	s.pending.push(finished{finish: finish, index: s.events, key: key, step: e.Step})
	s.applyUpTo(s.consumers.next().free)
	s.events++
	s.work += e.Duration
	return nil
}

// key returns the index of e's key, recording a new key in order of first
// appearance, and raises the key's highest step.
func (s *Simulator) key(e Event) int {
	i, ok := s.keyIndex[e.Key]
	if !ok {
		i = len(s.keys)
		s.keyIndex[e.Key] = i
		s.keys = append(s.keys, keyState{key: e.Key})
	}
	s.keys[i].highest = max(s.keys[i].highest, e.Step)
	return i
}

// Result applies the events still pending and returns the run's measures, or
// the error that stopped Add. It may be called more than once; after it, Add
// panics. It takes O(k) time for k distinct keys.
func (s *Simulator) Result() (Result, error) {
	if s.err != nil {
		return Result{}, s.err
	}
	s.done = true
	s.applyAll()
	r := Result{
		Events:         s.events,
		Keys:           len(s.keys),
		Work:           s.work,
		Rounds:         s.rounds,
		BackwardWrites: s.backwardWrites,
		Skipped:        s.skipped,
		Lanes:          len(s.lanes),
		HeaviestLane:   s.heaviestLane,
	}
	for _, k := range s.keys {
		if k.state != k.highest {
			r.WrongKeys = append(r.WrongKeys, k.key)
		}
	}
	r.WrongFinal = len(r.WrongKeys)
	return r, nil
}
