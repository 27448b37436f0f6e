package konvoy

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
)

// Simulator runs the model on a stream of events, one at a time: make one
// with [NewSimulator], call Add with each event in arrival order, then
// Result. [Simulate] does all three for a slice; [Sweep] runs many
// configurations over one pass of a stream.
//
// Under the default [HeadOfLine] policy, Add dispatches each event, in the
// order given, to the consumer that becomes free earliest (ties: the lowest
// consumer index). The event starts when it has arrived and both that
// consumer and its lane, if the layout gives it one, are free, and finishes
// Duration rounds later; the consumer and the lane stay busy until then.
// Events are applied to their keys' states in order of finish time, ties by
// input index, each as soon as no later event can finish before it.
// [LaneAware] and [Static] dispatch differently (see [Policy]).
//
// Memory grows with the distinct keys, the lanes and the consumers that have
// taken an event, and, under layouts whose keys may run in more than one
// lane (lines, [Recorded]'s partitions, a [LaneFunc]'s lanes), with each
// key's share of a lane other than its first, which the heaviest lane's
// heaviest key is found from: at most keys × lanes, which a key on every
// line makes as many as the events. It does not grow with the events
// otherwise, or with how long they wait (see [Latency]), but for what the
// modelled broker or handler would hold too: under LaneAware, the events
// no consumer could take yet; under Static with lanes that do not pin each
// key to one lane, the events taken but not yet applied; under the
// [Resequencer], the events held until their gaps fill (at most its
// [ResequencerConfig].Capacity); and one event for each consumer that has
// taken one. [WithMaxBacklog] bounds those events.
//
// Add and Result panic, with a "konvoy:" prefix, on a Simulator not made by
// NewSimulator. A Simulator is not safe for concurrent use.
type Simulator struct {
	layout    Layout
	opts      options
	consumers consumerQueue
	in        *inputs    // the stream's keys, lines and lanes: the Simulator's own, or a Sweep's
	table     *laneTable // in's table of the layout; nil for a layout without lanes
	state     keySteps   // by key index: the key's state (the last step applied)
	lanes     paged[laneRun]
	laneCarry map[int]uint64             // by lane: the high 64 bits of its total wait, when not 0
	slotLanes []int                      // with a schedule, each slot's lane (-1: none), named in Result
	held      map[heldAt]heldEvent       // the resequencer's held events by key and step
	heldByKey map[int]int                // how many events each key has held
	heldSteps map[int]*minHeap[struct{}] // under a Timeout or Capacity, each key's held steps, lowest first (see lowestHeld)
	rkeys     paged[reseqKey]            // by key index, under a ResequencerConfig that can make old steps
	queue     []heldRef                  // under a Timeout or Capacity, the held events in finish order from head
	head      int

	dispatch dispatcher // the policy's own state: headOfLine, laneAware, static or unlimited

	waits, responses histogram
	waitHi, waitLo   uint64 // the exact sum of the waits; the responses' is it plus the work
	blockHi, blockLo uint64 // the exact sum of the rounds blocked, Start − Taken
	maxWait          int
	maxResponse      int
	schedule         []Slot

	events, work, rounds, lastArrival int

	backwardWrites, skipped, duplicates            int
	buffered, holding, maxBuffered, maxKeyBuffered int
	heldRounds, gapsSkipped, rejectedOld, forced   int

	err        error
	done       bool
	wrongN     int    // the keys in a wrong final state, once done (see end)
	overflowed string // the measure that passed the largest int, as the error names it; "" for none
	overflowAt [2]int // the event, and its key's index, at which overflowed first passed it
	subset     bool   // the run takes a subset of a sweep's stream (Config.orderedOnly): its event indices are not the stream's
}

// MaxConsumers is the most consumers a run can have.
const MaxConsumers = math.MaxInt32

// NewSimulator returns a Simulator for layout with the given number of
// consumers and options, or an error when consumers is not 1 to
// [MaxConsumers] or the policy is unknown. Consumers cost memory only once
// they take an event, at most 208 bytes each, so a run costs what its events
// need however many consumers it has. NewSimulator panics, with a "konvoy:"
// prefix, when an option is nil and consumers is 1 to MaxConsumers.
func NewSimulator(layout Layout, consumers int, opts ...Option) (*Simulator, error) {
	if consumers < 1 || consumers > MaxConsumers {
		return nil, fmt.Errorf("konvoy: consumers is %d; want 1 to %d", consumers, MaxConsumers)
	}
	s := &Simulator{layout: layout, opts: collect(opts)}
	s.state.wide = layout.handler == resequence
	if s.opts.policy > Static {
		return nil, fmt.Errorf("konvoy: unknown %v", s.opts.policy)
	}
	in, at := newInputs([]Layout{layout})
	s.use(in, at[0])
	s.consumers = newConsumerQueue(consumers)
	s.dispatch = newDispatcher(s, layout, consumers, s.opts)
	if s.opts.scheduleLimit > 0 {
		s.schedule = make([]Slot, 0, min(s.opts.scheduleLimit, 1024))
	}
	return s, nil
}

// use makes s take its events from in, interned, with the lanes of in's
// table t (-1: none).
func (s *Simulator) use(in *inputs, t int) {
	s.in, s.table = in, nil
	if t >= 0 {
		s.table = in.tables[t]
	}
}

// Add dispatches the next event. An invalid event (see [Simulate]), a key
// beyond the 3·2³⁰ a run holds, or a run that outgrows a limit of its
// options is an [EventError]; the error is kept and returned by every later
// call and by Result, since a run with an event missing is not the run
// asked for. Add panics when called after Result, unless it has an error
// to return.
//
// Add takes O(log c) time for c consumers (amortised O(log(c + l)) under
// LaneAware, for l lanes with waiting events) plus one key lookup, and one
// lane lookup under line and custom layouts. It allocates only when it meets
// a new key, lane or consumer, a key in a lane other than its first, a latency in a block of 256 rounds below
// [ExactLatency] or a power of two above it not met before, a larger
// backlog than before, or, with [WithSchedule], a longer schedule.
func (s *Simulator) Add(e Event) error { return s.add(&e) }

// add is Add for an event the caller holds, which it reads and does not
// keep: Simulate passes its slice's events without copying them.
func (s *Simulator) add(e *Event) error {
	s.mustBeMade()
	if s.err != nil { // kept, even once Result found it: a call after Result has it to return
		return s.err
	}
	if s.done {
		panic("konvoy: Simulator.Add called after Result")
	}
	if err := s.check(e); err != nil {
		s.err = err
		return err
	}
	var ie internedEvent
	added := s.in.intern(e, &ie)
	ln := -1
	if s.table != nil {
		ln = s.table.lane(e, &ie, added)
	}
	return s.take(e, &ie, ln)
}

// addInterned is Add for a run that shares its inputs with others: event
// e, interned already as ie, in lane ln (-1: none).
// The run checks in full only an event that its inputs found invalid, or
// that its own checks concern: a line under line lanes, a recorded
// partition, the schedule's limit.
func (s *Simulator) addInterned(e *Event, ie *internedEvent, ln int) error {
	if s.err != nil {
		return s.err
	}
	if !ie.valid || s.schedule != nil || s.layout.lanes == lineLanes && ie.line < 0 || s.layout.lanes == recordedLanes {
		if err := s.check(e); err != nil {
			s.err = err
			return err
		}
	}
	return s.take(e, ie, ln)
}

// take dispatches event e, checked and interned as ie, in lane ln.
func (s *Simulator) take(e *Event, ie *internedEvent, ln int) error {
	k := ie.key
	if k < 0 {
		s.err = s.tooManyKeys(e)
		return s.err
	}
	if s.schedule != nil {
		s.schedule = append(s.schedule, Slot{Index: s.events, Key: e.Key, Arrival: e.Arrival})
		s.slotLanes = append(s.slotLanes, ln)
	}
	for s.state.len() <= k {
		s.state.add()
	}
	if s.reseqKeys() {
		s.startKey(e, k)
	}
	if ln >= s.lanes.len() {
		s.lane(ln)
	}
	s.dispatch.add(ie.task, ln)
	s.events++
	s.work += ie.duration
	s.lastArrival = ie.arrival
	if s.opts.maxBacklog > 0 && s.backlog() > s.opts.maxBacklog {
		s.err = eventError(s.events-1, e.Key, "", 0, s.backlogHeld(), ErrBacklog)
		return s.err
	}
	return nil
}

// started records that event e, interned, with input index i and lane
// ln, taken by consumer id at taken, starts at start: it takes the lane
// until it finishes, and its latencies, lane load and schedule slot are
// counted. A history-only record is done there and then.
func (s *Simulator) started(e *task, i, ln, id, taken, start int) {
	finish := start + e.duration
	wait := start - e.arrival
	if !s.waits.addNear(wait) { // add, with its fast path inlined
		s.waits.addElsewhere(wait)
	}
	if !s.responses.addNear(wait + e.duration) {
		s.responses.addElsewhere(wait + e.duration)
	}
	s.maxWait = max(s.maxWait, wait)
	s.maxResponse = max(s.maxResponse, wait+e.duration)
	var carry uint64
	s.waitLo, carry = bits.Add64(s.waitLo, uint64(wait), 0)
	s.waitHi += carry
	s.blockLo, carry = bits.Add64(s.blockLo, uint64(start-taken), 0) // start ≥ taken
	s.blockHi += carry
	if ln >= 0 {
		l := s.lanes.at(ln)
		l.free = finish
		s.addWait(ln, l, wait)
	}
	s.rounds = max(s.rounds, finish)
	if e.step == 0 {
		// A history-only record changes no state under any handler, so it
		// is done when it finishes and never waits to be applied.
		s.outcome(i, HistoryOnly, finish)
	}
	if s.schedule != nil {
		s.schedule[i].Consumer, s.schedule[i].Taken, s.schedule[i].Start, s.schedule[i].Finish = id, taken, start, finish
	}
}

// blockedMean is Result.BlockedMean.
func (s *Simulator) blockedMean() float64 {
	if s.events == 0 {
		return 0
	}
	return mean(s.blockHi, s.blockLo, s.events)
}

// pinnedMost returns, under Static, the most work the lanes one consumer
// owns brought it (see static.pinnedMost); 0 under the other policies,
// whose consumers are pinned to no lane.
func (s *Simulator) pinnedMost() int {
	if st, ok := s.dispatch.(*static); ok {
		return st.pinnedMost()
	}
	return 0
}

// percentile returns the percentile withPercentile asks for, 0 when none.
func (s *Simulator) percentile() int {
	switch o := s.opts; {
	case o.percentile == 0 || s.events == 0:
		return 0
	case o.percentileOfWait:
		return s.waits.rank(s.events, o.percentile, s.maxWait)
	}
	return s.responses.rank(s.events, s.opts.percentile, s.maxResponse)
}

// backlog returns the events the run holds, or may have held at its peak:
// one for each consumer that has taken an event (its last, or its place in
// the consumers' tree), the policy's own (the lane-aware dispatcher's not
// yet taken, the static queues'), and the most the
// resequencer has held at once (its peak may have come within the last
// Add, and gone).
func (s *Simulator) backlog() int {
	n, _ := s.dispatch.held()
	return s.consumers.touched + n + s.maxBuffered
}

// backlogHeld says what a run that holds more than its backlog limit
// holds, part by part.
func (s *Simulator) backlogHeld() string {
	var parts []string
	held, what := s.dispatch.held()
	for _, p := range []struct {
		n    int
		what string
	}{
		{s.consumers.touched, "for the consumers that have taken one"},
		{held, what},
		{s.maxBuffered, "held until their gaps fill, at the most"},
	} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	return fmt.Sprintf("%s dispatch of %s at %s holds %d events, more than the %d it may (WithMaxBacklog): %s",
		s.opts.policy, s.layout, counted(s.consumers.n, "consumer", "consumers"), s.backlog(), s.opts.maxBacklog, strings.Join(parts, ", "))
}

// responseSum returns the exact sum of the responses: each is the event's
// wait plus its duration, so theirs is the waits' plus the work.
func (s *Simulator) responseSum() (hi, lo uint64) {
	lo, carry := bits.Add64(s.waitLo, uint64(s.work), 0)
	return s.waitHi + carry, lo
}

// mustBeMade panics unless s was made by NewSimulator.
func (s *Simulator) mustBeMade() {
	if s == nil || s.consumers.n == 0 {
		panic("konvoy: Simulator not made by NewSimulator")
	}
}

// check returns the error that event e, the next in input order, makes.
func (s *Simulator) check(e *Event) error {
	i, key := s.events, e.Key
	switch {
	case e.Key == "":
		return eventError(i, "", "Key", 0, "the key whose state the event overwrites", nil)
	case e.Step < 0:
		return eventError(i, key, "Step", e.Step, "0 (history only) or more", nil)
	case e.Duration < 0:
		return eventError(i, key, "Duration", e.Duration, "0 or more rounds", nil)
	case e.Arrival < 0:
		return eventError(i, key, "Arrival", e.Arrival, "round 0 or later", nil)
	case s.layout.lanes == recordedLanes && (e.Partition < 0 || e.Partition >= s.layout.partitions):
		return eventError(i, key, "Partition", e.Partition, fmt.Sprintf("0 to %d: layout %s has %d partitions", s.layout.partitions-1, s.layout, s.layout.partitions), nil)
	case s.layout.lanes == lineLanes && e.Line == "":
		return eventError(i, key, "Line", 0, "a line: layout "+s.layout.String()+" puts events in lanes by line", nil)
	case e.Duration > math.MaxInt-1-s.work:
		return eventError(i, key, "Duration", e.Duration, fmt.Sprintf("at most %d, so that the total work stays below the largest int", math.MaxInt-1-s.work), nil)
	case e.Arrival < s.lastArrival:
		return eventError(i, key, "Arrival", e.Arrival, fmt.Sprintf("%d or later: the previous event arrived then, and events come in arrival order", s.lastArrival), ErrOrder)
	case e.Arrival > math.MaxInt-1-s.work-e.Duration:
		return eventError(i, key, "Arrival", e.Arrival, fmt.Sprintf("at most %d, so that the arrival plus the total work stays below the largest int", math.MaxInt-1-s.work-e.Duration), nil)
	case s.schedule != nil && i >= s.opts.scheduleLimit:
		return eventError(i, key, "", 0, fmt.Sprintf("WithSchedule(%d) keeps the schedule of runs of at most %d %s", s.opts.scheduleLimit, s.opts.scheduleLimit, map[bool]string{true: "event", false: "events"}[s.opts.scheduleLimit == 1]), ErrScheduleFull)
	}
	return nil
}

// tooManyKeys returns the error for event e, whose key is one more than a
// simulator holds.
func (s *Simulator) tooManyKeys(e *Event) error {
	return eventError(s.events, e.Key, "", 0, fmt.Sprintf("the run has %d distinct keys already, the most one simulator holds", s.in.keys.len()), ErrTooManyKeys)
}

// laneCount returns the lanes opened over the run.
func (s *Simulator) laneCount() int {
	if s.table == nil {
		return 0
	}
	return s.table.len()
}

// Result finishes the run, applies the events still pending and returns the
// run's measures, or the error that stopped Add, or one that the end of the
// run found: a backlog over WithMaxBacklog's limit, or a [Result].HeldRounds
// or GapsSkipped past the largest int. It may be called more than once;
// after it, Add panics, unless it has an error to return. Each Result it
// returns is the caller's own: changing its slices changes neither the
// simulator nor a later Result. It takes O(k + l + p + s) time for k
// distinct keys, l lanes, p keys' shares of lanes other than their first
// (see [Simulator]) and s slots of [WithSchedule]'s schedule, and reads
// the latency histograms' counts, at most 55,296 of each.
func (s *Simulator) Result() (Result, error) {
	s.mustBeMade()
	if err := s.end(); err != nil {
		return Result{}, err
	}
	responseHi, responseLo := s.responseSum()
	r := Result{
		Events:         s.events,
		Keys:           s.in.keys.len(),
		Work:           s.work,
		Rounds:         s.rounds,
		BackwardWrites: s.backwardWrites,
		Skipped:        s.skipped,
		Lanes:          s.laneCount(),
		Duplicates:     s.duplicates,
		Buffered:       s.buffered,
		MaxBuffered:    s.maxBuffered,
		MaxKeyBuffered: s.maxKeyBuffered,
		HeldRounds:     s.heldRounds,
		NeverApplied:   s.holding,
		GapsSkipped:    s.gapsSkipped,
		RejectedOld:    s.rejectedOld,
		Forced:         s.forced,
		Wait:           s.waits.latency(s.waitHi, s.waitLo, s.maxWait),
		Response:       s.responses.latency(responseHi, responseLo, s.maxResponse),
		BlockedMean:    s.blockedMean(),
		WorstLanes:     s.worstLanes(5),
	}
	if s.events > 0 { // an empty run's Result is the zero Result, Schedule nil
		r.Schedule = slices.Clone(s.schedule) // each Result's own: see Result
	}
	if s.table != nil {
		if ln, key, load := s.table.heaviest(); ln >= 0 {
			r.HeaviestLane, r.HeaviestLaneName = s.table.lanes.at(ln).load, s.table.name(s.in, ln)
			r.HeaviestKey, r.HeaviestKeyLoad = s.in.keyName(key), load
		}
	}
	for i, ln := range s.slotLanes {
		if ln >= 0 {
			r.Schedule[i].Lane = s.table.name(s.in, ln)
		}
	}
	if s.wrongN > 0 {
		r.WrongKeys = make([]string, 0, s.wrongN)
		for i := range s.in.keys.len() {
			if s.wrong(i) {
				r.WrongKeys = append(r.WrongKeys, s.in.keys.at(i).name)
			}
		}
	}
	r.WrongFinal = len(r.WrongKeys)
	return r, nil
}

// overflowError returns the error of a measure that passed the largest
// int: an [EventError] naming the event from which it did, unless the run
// took a subset of the stream, whose indices are its own.
func (s *Simulator) overflowError() error {
	i, key := s.overflowAt[0], s.overflowAt[1]
	if s.subset {
		return prefixed{fmt.Errorf("at the end of the run: %s add up past %d, the largest int, from key %q's event on", s.overflowed, math.MaxInt, s.in.keyName(key))}
	}
	return eventError(i, s.in.keyName(key), "", 0, fmt.Sprintf("%s add up past %d, the largest int, from this event on", s.overflowed, math.MaxInt), nil)
}

// end ends the run, once: it applies the events still pending, checks
// what the end may find past its limits, and counts the keys in a wrong
// final state (wrongN), which Result names and a sweep plans memory for.
// It returns the error that stopped the run, or that its end found. It
// takes O(k) time for k keys, the first time.
func (s *Simulator) end() error {
	if s.err != nil || s.done {
		return s.err
	}
	s.done = true
	s.dispatch.finish()
	if s.opts.reseq.Timeout > 0 {
		s.expire(math.MaxInt)
	}
	if s.overflowed != "" {
		s.err = s.overflowError()
		return s.err
	}
	// Applying what still waits can only make the resequencer hold
	// more; the dispatchers' backlogs only drain.
	if s.opts.maxBacklog > 0 && s.backlog() > s.opts.maxBacklog {
		s.err = prefixed{fmt.Errorf("at the end of the run: %w: %s", ErrBacklog, s.backlogHeld())}
		return s.err
	}
	for i := range s.in.keys.len() {
		if s.wrong(i) {
			s.wrongN++
		}
	}
	return nil
}

// wrong tells whether the key of index i is in a wrong final state: its
// state is not its highest step, or the resequencer wrote it backward.
func (s *Simulator) wrong(i int) bool {
	return s.state.get(i) != s.in.keys.at(i).highest || s.reseqKeys() && s.rkeys.at(i).backward()
}
