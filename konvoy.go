package konvoy

// Event is one state update of one entity: the lesson's olay.
//
// Key names the entity whose state the event overwrites (the lesson's takip
// no, a tracking number). Line is a coarser grouping of keys (the lesson's hat,
// a route); only layouts that group by line read it. Step is the event's
// position in the key's state machine (accepted=1 … delivered=4 in the
// lesson); Step 0 marks a history-only record, which never changes state and
// is never a backward write. Duration is the time a consumer spends on the
// event, in rounds (the lesson's süre), and may be 0. Arrival is the round at
// which the event reaches the pipeline; no consumer can start it earlier. The
// lesson is a batch: every Arrival is 0 there, and 0 is the default.
// Partition is the partition, numbered from 0, that a broker recorded the
// event in, as a topic's export tells; only the [Recorded] layout reads it,
// and every other layout ignores it.
type Event struct {
	Key       string
	Line      string
	Step      int
	Duration  int
	Arrival   int
	Partition int
}

// Result holds the measures of one simulated run. The lesson's terms for
// them are in the package's glossary.
type Result struct {
	// Events and Keys count the input's events and distinct keys.
	Events int
	Keys   int
	// Work is the sum of all durations (the lesson's iş yükü).
	Work int
	// Rounds is the time the last event finishes: the makespan (tur).
	Rounds int
	// BackwardWrites counts events applied, or offered, with a step lower
	// than their key's state at that moment (geriye yazma).
	BackwardWrites int
	// WrongFinal counts keys whose state after the run differs from the
	// highest step among their events (yanlış son durum); WrongKeys names
	// them in order of their first appearance in the input.
	WrongFinal int
	WrongKeys  []string
	// Skipped counts events the version-stamp handler rejected (atlanan
	// olay), each a step missing from the key's history.
	Skipped int
	// Lanes counts the distinct lanes used (şerit), 0 for layouts without
	// lanes.
	Lanes int
	// HeaviestLane is the largest sum of durations over one lane (en yüklü
	// şerit) and HeaviestLaneName names it (among equals, the one whose
	// heaviest key carries the most, then the lane opened first);
	// HeaviestKey is the key that carried the most of its load
	// (among equals, the key seen first) and HeaviestKeyLoad that load (see
	// [Result.Collision]). All are zero for layouts without lanes.
	HeaviestLane     int
	HeaviestLaneName string
	HeaviestKey      string
	HeaviestKeyLoad  int
	// Duplicates counts the events the [Resequencer] discarded because
	// their step was already applied or held. It and the next eight fields
	// are 0 under every other layout.
	Duplicates int
	// Buffered counts the events the resequencer held, at least for a
	// while.
	Buffered int
	// MaxBuffered is the most events held at once over all keys, and
	// MaxKeyBuffered the most for one key.
	MaxBuffered    int
	MaxKeyBuffered int
	// HeldRounds is the rounds events spent held, from their finish to the
	// finish of the event that released them. A run whose HeldRounds would
	// pass the largest int ends in an error instead.
	HeldRounds int
	// NeverApplied counts the events still held when the run ended,
	// because their gap never filled; with a [ResequencerConfig].Timeout,
	// only those whose finish plus Timeout passes the largest int.
	NeverApplied int
	// GapsSkipped counts the steps the resequencer gave up waiting for:
	// when an event held past its [ResequencerConfig].Timeout, or pushed
	// out by its Capacity, was applied with steps missing before it, the
	// steps missing. 0 without a Timeout or Capacity. A run whose count
	// would pass the largest int ends in an error.
	GapsSkipped int
	// Forced counts the held events applied, or handled as old steps,
	// without their gap filling: by the Timeout or to make room under the
	// Capacity. Buffered − Forced − NeverApplied events were released when
	// their gaps filled.
	Forced int
	// RejectedOld counts the old steps the resequencer rejected under
	// [ResequencerConfig].RejectOld: steps at or below their key's state
	// that the key never applied. 0 without RejectOld.
	RejectedOld int
	// Wait is the latency from an event's arrival to its start, over every
	// event; Response from its arrival to its finish.
	Wait     Latency
	Response Latency
	// BlockedMean is the mean, over every event, of the rounds its consumer
	// held it idle, having taken it before its lane was free: head-of-line
	// blocking, a [Slot]'s Start − Taken. BlockedMean × Events is the
	// rounds the consumers spent blocked; the mean is that exact sum's,
	// rounded once, as [Latency]'s Mean is. It is 0 under [LaneAware],
	// whose consumers take only events whose lane is idle.
	BlockedMean float64
	// WorstLanes lists up to five lanes whose events waited longest.
	WorstLanes []LaneWait
	// Schedule holds one [Slot] per event when the run was made
	// [WithSchedule], and is nil otherwise.
	Schedule []Slot
}

// Collision returns the part of the heaviest lane's load that other keys put
// there: HeaviestLane − HeaviestKeyLoad. It is 0 for a convoy, whose lanes
// each hold one key, and for layouts without lanes; under [Partitioned] it is
// what hash collisions add to the heaviest partition beside its heaviest
// key. The lane-load ceiling rises by less when a heavier key runs in a
// partition of its own: the ceiling without collisions is the heaviest key's
// load over all lanes.
func (r Result) Collision() int {
	return r.HeaviestLane - r.HeaviestKeyLoad
}

// Parallelism returns the effective parallelism Work / Rounds (the lesson's
// etkin koşutluk). It is 0 for an empty run and for a run whose every event
// takes no time, where the ratio is undefined.
func (r Result) Parallelism() float64 {
	if r.Rounds == 0 {
		return 0
	}
	return float64(r.Work) / float64(r.Rounds)
}

// Simulate dispatches events in input order to consumers under layout, applies
// them in finish order and returns the run's measures, as the lesson's model
// does; [Simulator] states the rules, and opts change them (see [Option]).
//
// An empty event set gives a zero Result and a nil error. Simulate returns an
// error when consumers is not 1 to [MaxConsumers], and an [EventError] for
// the first event with an empty Key, a negative Step, Duration or Arrival,
// an Arrival before the previous event's, no Line where the layout needs
// one, or a total work plus the last arrival past math.MaxInt−1. It never
// modifies events.
//
// Simulate takes O(n log n + n log c) time for n events and c consumers and
// O(k + l + p + min(c, n)) memory beyond its input for k distinct keys, l
// lanes and p keys' shares of lanes other than their first (at most k·l, 0
// under layouts that keep each key in one lane: see [Simulator]; more
// under the policies and layouts that hold a backlog). It panics, with a "konvoy:" prefix, when an option is nil
// and consumers is 1 to MaxConsumers.
func Simulate(events []Event, layout Layout, consumers int, opts ...Option) (Result, error) {
	s, err := NewSimulator(layout, consumers, opts...)
	if err != nil {
		return Result{}, err
	}
	for i := range events { // not simulateSeq: an iterator's calls cost an event a tenth of its time
		if err := s.add(&events[i]); err != nil {
			return Result{}, err
		}
	}
	return s.Result()
}
