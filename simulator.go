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
// free earliest (ties: the lowest consumer index). The event starts when it
// has arrived and both that consumer and its lane, if the layout gives it
// one, are free, and finishes Duration rounds later; the consumer and the
// lane stay busy until then. Events are applied to their keys' states in
// order of finish time, ties by input index; an event is applied as soon as
// no later event can finish before it, so at most one event per consumer
// waits to be applied.
//
// A Simulator is made by [NewSimulator]; the zero value is not usable. It is
// not safe for concurrent use.
type Simulator struct {
	layout      Layout
	consumers   consumerQueue
	keyIndex    keyTable
	keys        []keyState     // by key index, in order of first appearance
	laneIndex   map[string]int // line and func lanes by name
	lanes       []lane
	lanesOpened int
	awayLoad    map[laneKey]int     // load keys carry outside their home lane
	running     []running           // by consumer id: its last event
	ready       []int               // scratch for applyReady
	applied     int                 // every event finished by this time is applied
	held        map[int][]heldEvent // the resequencer's held events by key

	events, work, rounds, lastArrival int

	backwardWrites, skipped, duplicates            int
	buffered, holding, maxBuffered, maxKeyBuffered int
	heldRounds                                     int

	err  error
	done bool
}

// NewSimulator returns a Simulator for layout with the given number of
// consumers, or an error when consumers < 1.
func NewSimulator(layout Layout, consumers int) (*Simulator, error) {
	if consumers < 1 {
		return nil, fmt.Errorf("konvoy: consumers is %d; want at least 1", consumers)
	}
	s := &Simulator{
		layout:    layout,
		consumers: newConsumerQueue(consumers),
		laneIndex: make(map[string]int),
		running:   make([]running, consumers),
	}
	if layout.lanes == partitionLanes {
		s.lanes = make([]lane, layout.partitions)
		for p := range s.lanes {
			s.lanes[p] = lane{name: fmt.Sprint(p), opened: -1}
		}
	}
	return s, nil
}

// Add dispatches the next event. It returns an error, naming the event's
// input index and the field, when the event is invalid (see [Simulate]); the
// error is then kept and returned by every later call and by Result, since a
// run with an event missing is not the run asked for.
//
// Add takes O(log c) time for c consumers plus one map lookup for the key
// (and one for the lane under line and custom layouts), and allocates only
// when it meets a new key or lane. Add panics when called after Result.
func (s *Simulator) Add(e Event) error {
	if s.done {
		panic("konvoy: Simulator.Add called after Result")
	}
	if s.err != nil {
		return s.err
	}
	if err := s.check(e); err != nil {
		s.err = err
		return err
	}
	k := s.key(e)
	s.applyReady(s.dispatch(e, k))
	s.events++
	s.work += e.Duration
	s.lastArrival = e.Arrival
	return nil
}

// check returns the error that event e, the next in input order, makes.
func (s *Simulator) check(e Event) error {
	i := s.events
	switch {
	case e.Key == "":
		return fmt.Errorf("konvoy: event %d: Key is empty; every event needs the key whose state it overwrites", i)
	case e.Step < 0:
		return fmt.Errorf("konvoy: event %d (key %q): Step is %d; want 0 (history only) or more", i, e.Key, e.Step)
	case e.Duration < 0:
		return fmt.Errorf("konvoy: event %d (key %q): Duration is %d; want 0 or more rounds", i, e.Key, e.Duration)
	case e.Arrival < 0:
		return fmt.Errorf("konvoy: event %d (key %q): Arrival is %d; want round 0 or later", i, e.Key, e.Arrival)
	case s.layout.lanes == lineLanes && e.Line == "":
		return fmt.Errorf("konvoy: event %d (key %q): Line is empty; layout %s puts events in lanes by line", i, e.Key, s.layout)
	case e.Duration > math.MaxInt-s.work:
		return fmt.Errorf("konvoy: event %d (key %q): Duration %d makes the total work overflow int", i, e.Key, e.Duration)
	case e.Arrival < s.lastArrival:
		return fmt.Errorf("konvoy: event %d (key %q): Arrival %d is before the previous event's %d; want events in arrival order", i, e.Key, e.Arrival, s.lastArrival)
	case e.Arrival > math.MaxInt-s.work-e.Duration:
		return fmt.Errorf("konvoy: event %d (key %q): Arrival %d plus the total work overflows int", i, e.Key, e.Arrival)
	}
	return nil
}

// key returns the index of e's key, recording a new key in order of first
// appearance, and raises the key's highest step.
func (s *Simulator) key(e Event) int {
	i, added := s.keyIndex.index(e.Key)
	if added {
		k := keyState{lane: -1, home: -1}
		if s.layout.lanes == partitionLanes {
			k.lane = int32(KafkaPartition(e.Key, s.layout.partitions))
		}
		s.keys = append(s.keys, k)
	}
	s.keys[i].highest = max(s.keys[i].highest, e.Step)
	return i
}

// Result applies the events still pending and returns the run's measures, or
// the error that stopped Add. It may be called more than once; after it, Add
// panics. It takes O(k + l) time for k distinct keys and l lanes.
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
		Lanes:          s.lanesOpened,
		Duplicates:     s.duplicates,
		Buffered:       s.buffered,
		MaxBuffered:    s.maxBuffered,
		MaxKeyBuffered: s.maxKeyBuffered,
		HeldRounds:     s.heldRounds,
		NeverApplied:   s.holding,
	}
	if ln, key, load := s.heaviest(); ln >= 0 {
		r.HeaviestLane, r.HeaviestLaneName = s.lanes[ln].load, s.lanes[ln].name
		r.HeaviestKey, r.HeaviestKeyLoad = s.keyIndex.names[key], load
	}
	for i, k := range s.keys {
		if k.state != k.highest {
			r.WrongKeys = append(r.WrongKeys, s.keyIndex.names[i])
		}
	}
	r.WrongFinal = len(r.WrongKeys)
	return r, nil
}
