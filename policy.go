package konvoy

import "fmt"

// Policy is the rule by which a free consumer chooses its next event: a
// choice separate from the layout, since real brokers with the same lanes
// dispatch differently. The zero Policy is [HeadOfLine], the lesson's rule.
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
	for _, p := range Policies() {
		if p.String() == name {
			return p, nil
		}
	}
	return 0, fmt.Errorf("unknown policy %q; want head-of-line, lane-aware or static", name)
}

// Option changes how [Simulate] and [NewSimulator] run; options compose, and
// a later one overrides an earlier one of the same kind.
type Option func(*options)

type options struct {
	policy        Policy
	assignor      Assignor // 0: the layout's default
	scheduleLimit int      // 0: no schedule kept
	maxBacklog    int      // 0: no limit

	consumerPerEvent bool // the planner's unlimited dispatch, see withConsumerPerEvent
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
// [Layout.HoldsBacklog]): under [LaneAware], the events from the oldest
// that no consumer could take yet on, every event behind a hot lane's head
// in a batch; under [Static] with lanes that do not pin each key to one
// lane, the events taken but not yet applied; under the [Resequencer], the
// events held until their gaps fill. A run that would hold more than n
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
// than return part of its schedule. It costs O(limit) memory.
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
	for _, a := range []Assignor{FirstSeenAssignor, RangeAssignor, RoundRobinAssignor} {
		if a.String() == name {
			return a, nil
		}
	}
	return 0, fmt.Errorf("unknown assignor %q; want range, round-robin or first-seen", name)
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
