package konvoy

import "fmt"

// Policy is the rule by which a free consumer chooses its next event: a
// choice separate from the layout, since real brokers with the same lanes
// dispatch differently. The zero Policy is [HeadOfLine], the lesson's rule.
// Under a layout without lanes the three policies give the same Result but
// for which consumer took each event (a [Slot]'s Consumer, with
// [WithSchedule]), since each gives every event, in input order, to a
// consumer free when it arrives or as soon as one frees; a run that shows
// neither which consumer took an event nor a backlog limit it could reach
// is then dispatched as HeadOfLine, the cheapest.
type Policy uint8

const (
	// HeadOfLine gives the next event in input order to the consumer that
	// becomes free first, which waits idle when the event's lane is busy:
	// the lesson's rule, and the dispatch of a shared queue whose consumers
	// lock a key before they work on it.
	HeadOfLine Policy = iota

	// LaneAware lets a free consumer take the oldest arrived event whose
	// lane is free, skipping events whose lanes are busy, as Azure Service
	// Bus sessions, SQS FIFO message groups and Confluent's parallel
	// consumer in key order do. A consumer with nothing to take waits for
	// the next arrival or the next lane to come free.
	LaneAware

	// Static assigns lanes to consumers up front, as a Kafka consumer
	// group assigns partitions, by an [Assignor] ([WithAssignor]): Kafka's
	// [RangeAssignor] for the partitions of [Partitioned] and [Recorded],
	// and [FirstSeenAssignor], round-robin in the order the lanes are first
	// seen, for other lanes. A lane always runs on its owner, which takes
	// its events in input order. Events without a lane go to the consumer
	// that becomes free first.
	Static
)

// String returns the policy's name: "head-of-line", "lane-aware" or
// "static".
func (p Policy) String() string {
	switch p {
	case HeadOfLine:
		return "head-of-line"
	case LaneAware:
		return "lane-aware"
	case Static:
		return "static"
	}
	return fmt.Sprintf("Policy(%d)", uint8(p))
}

// Policies returns the three dispatch policies in the order of their
// constants.
func Policies() []Policy { return []Policy{HeadOfLine, LaneAware, Static} }

// ParsePolicy returns the policy whose String is name. Its error says which
// names are known, to follow a caller's context, as [ParseLayout]'s does.
func ParsePolicy(name string) (Policy, error) {
	return byName(name, "policy", "head-of-line, lane-aware or static", Policies()...)
}

// byName returns the one of all whose String is name, or an error naming
// the kind of thing sought and the names wanted.
func byName[T fmt.Stringer](name, kind, want string, all ...T) (T, error) {
	for _, v := range all {
		if v.String() == name {
			return v, nil
		}
	}
	var zero T
	return zero, fmt.Errorf("unknown %s %q; want %s", kind, name, want)
}

// Option changes how [Simulate] and [NewSimulator] run; options compose, and
// a later one overrides an earlier one of the same kind.
type Option func(*options)

type options struct {
	policy        Policy
	assignor      Assignor // 0: the layout's default
	scheduleLimit int      // 0: no schedule kept
	maxBacklog    int      // 0: no limit
	reseq         ResequencerConfig

	consumerPerEvent bool // the planner's unlimited dispatch, see withConsumerPerEvent
	percentile       int  // basis points of the latency Result.at reads, 0 for none; see withPercentile
	percentileOfWait bool // the wait's, not the response's
}

// collect returns the options opts set, later ones over earlier ones. It
// panics, with a "konvoy:" prefix, when an option is nil.
func collect(opts []Option) options {
	var o options
	for i, opt := range opts {
		if opt == nil {
			panic(fmt.Sprintf("konvoy: option %d is nil", i))
		}
		opt(&o)
	}
	return o
}

// WithPolicy sets the dispatch policy; the default is [HeadOfLine].
func WithPolicy(p Policy) Option {
	return func(o *options) { o.policy = p }
}

// WithMaxBacklog limits the events a run may hold in memory at once to n:
// one for each consumer that has taken an event (its last, until applied),
// which grows with the events when consumers are many and events overlap;
// and what a run holds while consumers fall behind (see
// [Layout.HoldsBacklog]): under [LaneAware], the events that no consumer
// could take yet, every event behind a hot lane's head in a batch; under
// [Static] with lanes that do not pin each key to one lane, the events
// taken but not yet applied; under the [Resequencer], the events held
// until their gaps fill. A run that would hold more than n
// fails, at that event, with an error that wraps [ErrBacklog] and says what
// it holds, rather than grow without bound. 0, the default, sets no limit;
// the limit costs a comparison an event.
//
// WithMaxBacklog panics, with a "konvoy:" prefix, when n < 0.
func WithMaxBacklog(n int) Option {
	if n < 0 {
		panic(fmt.Sprintf("konvoy: WithMaxBacklog(%d): want 0 (no limit) or more events", n))
	}
	return func(o *options) { o.maxBacklog = n }
}

// WithSchedule keeps the full schedule of a run in [Result].Schedule, one
// [Slot] per event, for runs of at most limit events: the basis for
// pictures of small runs. A run with more events fails with an error rather
// than return part of its schedule. It costs O(limit) memory, and each
// [Simulator.Result] a copy of the schedule.
//
// WithSchedule panics, with a "konvoy:" prefix, when limit < 1.
func WithSchedule(limit int) Option {
	if limit < 1 {
		panic(fmt.Sprintf("konvoy: WithSchedule(%d): want a limit of at least 1 event", limit))
	}
	return func(o *options) { o.scheduleLimit = limit }
}

// Assignor is how the [Static] policy deals lanes to its consumers,
// numbered 0 to C−1 as a consumer group's members are in member order.
// [RangeAssignor] and [RoundRobinAssignor] deal a topic's partitions,
// numbered 0 to N−1, exactly as Kafka's assignors of those names do for a
// group that subscribes to one topic; a layout without partitions has no
// numbering before its lanes are seen, so under every assignor its lanes
// are dealt in the order they are first seen ([FirstSeenAssignor]), which
// is RoundRobinAssignor over lanes numbered in that order.
type Assignor uint8

const (
	// FirstSeenAssignor deals lanes round-robin in the order they are
	// first seen: the k-th lane to carry an event (from 0) runs on
	// consumer k mod C. It is the default for layouts without partitions.
	FirstSeenAssignor Assignor = iota + 1

	// RangeAssignor is Kafka's RangeAssignor, its default: consumer i takes
	// a contiguous run of ⌊N/C⌋ partitions, one more for each of the first
	// N mod C consumers, in partition order, so that consumer 0 has
	// partition 0. It is the default for [Partitioned] and [Recorded].
	RangeAssignor

	// RoundRobinAssignor is Kafka's RoundRobinAssignor: partition p runs on
	// consumer p mod C.
	RoundRobinAssignor
)

// String returns the assignor's name: "first-seen", "range" or
// "round-robin".
func (a Assignor) String() string {
	switch a {
	case FirstSeenAssignor:
		return "first-seen"
	case RangeAssignor:
		return "range"
	case RoundRobinAssignor:
		return "round-robin"
	}
	return fmt.Sprintf("Assignor(%d)", uint8(a))
}

// ParseAssignor returns the assignor whose String is name. Its error says
// which names are known, to follow a caller's context, as [ParseLayout]'s
// does.
func ParseAssignor(name string) (Assignor, error) {
	return byName(name, "assignor", "range, round-robin or first-seen", FirstSeenAssignor, RangeAssignor, RoundRobinAssignor)
}

// WithAssignor sets how the [Static] policy deals lanes to consumers (see
// [Assignor]); the default is [RangeAssignor] for the partitions of
// [Partitioned] and [Recorded] and [FirstSeenAssignor] for other lanes.
// Other policies assign no lanes and ignore it.
//
// WithAssignor panics, with a "konvoy:" prefix, on an Assignor that is not
// one of the three.
func WithAssignor(a Assignor) Option {
	if a < FirstSeenAssignor || a > RoundRobinAssignor {
		panic(fmt.Sprintf("konvoy: WithAssignor(%v): want FirstSeenAssignor, RangeAssignor or RoundRobinAssignor", a))
	}
	return func(o *options) { o.assignor = a }
}

// ResequencerStart is where the [Resequencer] takes a key's lifecycle to
// begin: the step it expects first.
type ResequencerStart uint8

const (
	// StartZero expects every key's first step to be 1, as if its state
	// were 0 before the run: the lesson's rule, and the default. A key whose
	// events begin later, as in a trace cut from a longer stream, holds
	// them all, never applied.
	StartZero ResequencerStart = iota

	// StartFirstSeen expects, for each key, the step of its first event in
	// input order that has one (Step above 0): a lifecycle cut by a trace's
	// window is then no gap. A later event of the key with a lower step is
	// an old step (see [ResequencerConfig]).
	StartFirstSeen
)

// String returns the start's name: "zero" or "first-seen".
func (s ResequencerStart) String() string {
	switch s {
	case StartZero:
		return "zero"
	case StartFirstSeen:
		return "first-seen"
	}
	return fmt.Sprintf("ResequencerStart(%d)", uint8(s))
}

// ParseResequencerStart returns the start whose String is name. Its error
// says which names are known, as [ParseLayout]'s does.
func ParseResequencerStart(name string) (ResequencerStart, error) {
	return byName(name, "start", "zero or first-seen", StartZero, StartFirstSeen)
}

// ResequencerConfig sets how the [Resequencer] works, as the knobs of
// Apache Camel's stream resequencer do. The zero ResequencerConfig is the
// lesson's resequencer: keys start at step 1, a gap is waited for forever,
// what is held is unbounded, and a step at or below its key's state is a
// duplicate, discarded.
type ResequencerConfig struct {
	// Start is where each key's lifecycle begins; see [ResequencerStart].
	Start ResequencerStart

	// Timeout, in rounds, bounds how long an event is held: when one's gap
	// has not filled Timeout rounds after it finished, its key's held steps
	// up to it are applied then, in step order, each skipping only the
	// steps missing before it (counted in [Result].GapsSkipped). 0 waits
	// forever. With a Timeout, none is held longer than Timeout, and none
	// is still held when a run ends unless its finish plus Timeout passes
	// the largest int, a time that never comes ([Result].NeverApplied
	// counts it).
	Timeout int

	// Capacity bounds the events held at once over all keys: when holding
	// one more would exceed it, the lowest step held by the key of the
	// held event that finished first is applied, skipping the steps
	// missing before it, and so on until there is room. 0 sets no
	// bound; 1 or more bounds [Result].MaxBuffered, and the resequencer's
	// memory, by Capacity.
	Capacity int

	// RejectOld rejects an old step, counting it in [Result].RejectedOld,
	// as Camel's rejectOld does. An old step is one at or below its key's
	// state that the key never applied: below its first step under
	// [StartFirstSeen], or in a gap skipped by Timeout or Capacity (or
	// applied before the last gap skipped: the resequencer remembers only
	// the steps applied since). Without RejectOld an old step is written,
	// backward, as a last-writer-wins handler would ([Result].BackwardWrites),
	// so that the cost of not rejecting shows: the key's state is wrong
	// until its next step is applied. A step applied already, or held, is a
	// duplicate either way.
	RejectOld bool
}

// WithResequencer configures the [Resequencer] (see [ResequencerConfig]);
// other layouts ignore it. Timeout and Capacity cost a queue of the held
// events in finish order and a heap of each key's held steps, O(log n)
// amortised time per event held for the n its key holds; Start and
// RejectOld cost nothing beyond a few bytes per key.
//
// WithResequencer panics, with a "konvoy:" prefix, on an unknown Start or a
// negative Timeout or Capacity.
func WithResequencer(c ResequencerConfig) Option {
	switch {
	case c.Start > StartFirstSeen:
		panic(fmt.Sprintf("konvoy: WithResequencer: unknown %v; want StartZero or StartFirstSeen", c.Start))
	case c.Timeout < 0:
		panic(fmt.Sprintf("konvoy: WithResequencer: Timeout is %d; want 0 (wait forever) or more rounds", c.Timeout))
	case c.Capacity < 0:
		panic(fmt.Sprintf("konvoy: WithResequencer: Capacity is %d; want 0 (no bound) or more events", c.Capacity))
	}
	return func(o *options) { o.reseq = c }
}

// deal returns the member, of c, that assignor a deals partition p of n to:
// p mod c under [RoundRobinAssignor], Kafka's range otherwise (the default
// for partitions). It is the one home of the partition assignors, for the
// simulator's [Static] policy and for [Layout.Owner].
func (a Assignor) deal(p, n, c int) int {
	if a == RoundRobinAssignor {
		return p % c
	}
	return rangeOwner(p, n, c)
}
