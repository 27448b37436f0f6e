package konvoy

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// LaneFunc names the lane an event runs in. Events of one lane never overlap
// in time; ok false means the event takes no lane and runs free. A LaneFunc
// must be deterministic: the same event always gets the same answer.
type LaneFunc func(e Event) (lane string, ok bool)

// Layout is a way of arranging events for consumers: which lane, if any, each
// event runs in, and what the handler does with an event that arrives out of
// step order.
//
// The zero Layout is [Free]. The lesson's four layouts are [Free], [Convoy],
// [LineConvoy] and [VersionStamp]; [SelectiveConvoy], [Partitioned] and
// [Resequencer] model what real brokers and integration platforms offer
// beyond them; [NewLayout] builds one from any grouping of events into lanes.
type Layout struct {
	name        string
	lanes       laneKind
	laneFunc    LaneFunc // lanes == funcLanes
	partitions  int      // lanes == partitionLanes or recordedLanes
	orderedOnly bool     // history-only events (Step 0) take no lane
	handler     handler
}

// laneKind says how a layout finds an event's lane. The lesson's layouts have
// kinds of their own so that the simulator can find a key's lane without a
// second map lookup.
type laneKind uint8

const (
	noLanes        laneKind = iota
	keyLanes                // one lane per key
	lineLanes               // one lane per line
	partitionLanes          // one lane per hash partition of the key
	funcLanes               // a user's LaneFunc
	recordedLanes           // one lane per partition an event was recorded in
)

// handler says what the handler does with an event whose step is not the
// key's next.
type handler uint8

const (
	lastWriterWins handler = iota // write it anyway
	versionStamp                  // skip a step lower than the state
	resequence                    // hold a step ahead of the next until the gap fills
)

// The lesson's four layouts.
var (
	// Free dispatches every event to the earliest-free consumer with no lane
	// (the lesson's serbest): the fastest layout and the one that writes
	// backward.
	Free = Layout{name: "free"}

	// Convoy runs every key in a lane of its own (the lesson's konvoy): the
	// sequential convoy, in order per key at the cost of parallelism. It is
	// what Service Bus sessions, SQS FIFO message groups and a Kafka topic
	// with a partition per key give.
	Convoy = Layout{name: "convoy", lanes: keyLanes}

	// LineConvoy runs every line in a lane of its own (the lesson's
	// konvoy-hat): a coarser key that puts unrelated keys behind each other.
	// Every event must have a Line.
	LineConvoy = Layout{name: "line-convoy", lanes: lineLanes}

	// VersionStamp dispatches like Free, but its handler skips an event whose
	// step is lower than its key's state (the lesson's sürüm damgası): right
	// final states, at the cost of steps missing from history. It is an
	// optimistic-concurrency check on a version column.
	VersionStamp = Layout{name: "version-stamp", handler: versionStamp}
)

// Layouts beyond the lesson.
var (
	// SelectiveConvoy runs a key's ordered events (Step > 0) in the key's
	// lane and lets its history-only events (Step 0) run free: the lesson's
	// seçici konvoy, which the lesson only estimates on paper with
	// [SelectiveMultiplier]. With no history-only events it is [Convoy].
	SelectiveConvoy = Layout{name: "selective-convoy", lanes: keyLanes, orderedOnly: true}

	// Resequencer dispatches like Free; its handler holds an event whose step
	// is ahead of its key's next expected step (state + 1, starting at 1)
	// until the gap fills, then applies the run in step order, as the
	// Enterprise Integration Patterns resequencer (Apache Camel's stream
	// resequencer) does. It never writes backward and keeps history whole;
	// its costs are events held ([Result].Buffered, MaxBuffered,
	// MaxKeyBuffered, HeldRounds). An event held when the run ends, because
	// its gap never filled, is counted in [Result].NeverApplied and leaves
	// its key in a wrong final state. A step already applied or already held
	// is a duplicate, as at-least-once delivery produces: the resequencer
	// discards it and counts it in [Result].Duplicates. History-only events
	// (Step 0) are never held. By default the resequencer assumes each key's
	// steps start at 1 and rise by 1, and a key whose steps skip one waits
	// for it forever; [WithResequencer] sets where keys start, a timeout, a
	// capacity, and whether old steps are rejected.
	Resequencer = Layout{name: "resequencer", handler: resequence}
)

// NewLayout returns a layout named name whose lanes are given by lanes, with
// the last-writer-wins handler of [Convoy]. A nil lanes puts no event in a
// lane, like [Free]. Layouts are told apart by name (see [Layout.Equal]):
// two made with one name must have one lane function, or [Sweep] runs
// both with the first's lanes. NewLayout panics, with a "konvoy:" prefix,
// when name is empty: reports and pictures tell layouts apart by name.
func NewLayout(name string, lanes LaneFunc) Layout {
	if name == "" {
		panic("konvoy: NewLayout: the name is empty")
	}
	if lanes == nil {
		return Layout{name: name}
	}
	return Layout{name: name, lanes: funcLanes, laneFunc: lanes}
}

// MaxPartitions is the most partitions a [Partitioned] layout can have, as
// many as Kafka's 32-bit partition numbers allow.
const MaxPartitions = math.MaxInt32

// Partitioned returns the layout of a Kafka topic with n partitions: a key's
// events all go to partition toPositive(murmur2(key)) % n, computed exactly
// as Kafka's default partitioner does for a key of the key's UTF-8 bytes
// (see [KafkaPartition]), and each partition is one lane. Keys that hash to
// one partition wait for each other though they need no order between them;
// [Result.Collision] measures that. Its name is "partitioned:n" and its lanes
// are named by partition number. A partition costs memory only once a key
// lands in it.
//
// Partitioned panics, with a "konvoy:" prefix, when n is not 1 to
// [MaxPartitions].
func Partitioned(n int) Layout {
	if n < 1 || n > MaxPartitions {
		panic(fmt.Sprintf("konvoy: Partitioned(%d): want 1 to %d partitions", n, MaxPartitions))
	}
	return Layout{name: "partitioned:" + strconv.Itoa(n), lanes: partitionLanes, partitions: n}
}

// Recorded returns the layout of a topic of n partitions as it ran: each
// event runs in the lane of the partition it was recorded in, its
// [Event.Partition], which must be 0 to n−1, so that the partitioning a
// topic has can be compared with a convoy or another partition count. A
// key whose events were recorded in more than one partition (its producer
// changed partitioner, or the topic its count) runs in each of them. Its
// name is "recorded:n" and its lanes are named by partition number, as
// [Partitioned]'s are, and [RangeAssignor] deals them by that number.
//
// Recorded panics, with a "konvoy:" prefix, when n is not 1 to
// [MaxPartitions].
func Recorded(n int) Layout {
	if n < 1 || n > MaxPartitions {
		panic(fmt.Sprintf("konvoy: Recorded(%d): want 1 to %d partitions", n, MaxPartitions))
	}
	return Layout{name: "recorded:" + strconv.Itoa(n), lanes: recordedLanes, partitions: n}
}

// pinsKeys tells whether every event of a key that can change its state
// (Step > 0) runs in one lane, the same for all of the key's events: a
// lane per key, or per partition of keys.
func (l Layout) pinsKeys() bool { return l.lanes == keyLanes || l.lanes == partitionLanes }

// HoldsBacklog tells whether a run of layout l under dispatch policy p can
// hold more events in memory at once than it has consumers, a backlog that
// grows while consumers fall behind: under [LaneAware], a layout with lanes,
// whose events wait for their lane; under [Static], a layout whose lanes do
// not pin each key to one lane ([LineConvoy], [Recorded], a [NewLayout]
// with lanes),
// whose events wait to be applied; and the [Resequencer] under every policy,
// whose events wait for their gaps. [WithMaxBacklog] limits it.
func (l Layout) HoldsBacklog(p Policy) bool {
	return l.handler == resequence || newDispatcher(nil, l, 0, options{policy: p}).holdsBacklog(l)
}

// Partitions returns the number of partitions of a [Partitioned] or
// [Recorded] layout, and 0 for every other layout.
func (l Layout) Partitions() int { return l.partitions }

// String returns the layout's name: "free", "convoy", "line-convoy",
// "version-stamp", "selective-convoy", "resequencer", "partitioned:N",
// "recorded:N", the
// name given to [NewLayout], and "free" for the zero Layout.
func (l Layout) String() string {
	if l.name == "" && l.lanes == noLanes && l.handler == lastWriterWins {
		return "free"
	}
	return l.name
}

// AllLayouts returns every built-in layout, with a topic of the given number
// of partitions: the lesson's four, then [SelectiveConvoy],
// [Partitioned](partitions) and [Resequencer]. It panics like [Partitioned]
// when partitions is not 1 to [MaxPartitions].
func AllLayouts(partitions int) []Layout {
	return []Layout{Free, Convoy, LineConvoy, VersionStamp, SelectiveConvoy, Partitioned(partitions), Resequencer}
}

// ParseLayout returns the built-in layout named name: one of the names
// [Layout.String] gives, with "partitioned:N" and "recorded:N" for any N
// from 1 to [MaxPartitions], written as [Layout.String] writes it (no sign,
// no leading zero), so that every name it takes reads back as itself.
// Its error says which names are known, or, for "partitioned" or
// "recorded" alone, that the name needs its count; like strconv's, it is
// meant to follow a caller's context, such as a flag's name.
func ParseLayout(name string) (Layout, error) {
	for prefix, layout := range map[string]func(int) Layout{"partitioned": Partitioned, "recorded": Recorded} {
		if n, ok := strings.CutPrefix(name, prefix+":"); ok {
			p, err := strconv.Atoi(n)
			if err != nil || p < 1 || p > MaxPartitions || strconv.Itoa(p) != n {
				return Layout{}, fmt.Errorf("layout %q: want %s:N with N a whole number from 1 to %d, in decimal digits without a sign or leading zeros", name, prefix, MaxPartitions)
			}
			return layout(p), nil
		}
	}
	for _, l := range AllLayouts(1) {
		if l.lanes != partitionLanes && l.name == name {
			return l, nil
		}
	}
	if name == "partitioned" || name == "recorded" {
		return Layout{}, fmt.Errorf("layout %q needs its partition count: want %s:N with N from 1 to %d", name, name, MaxPartitions)
	}
	return Layout{}, fmt.Errorf("unknown layout %q; want free, convoy, line-convoy, version-stamp, selective-convoy, resequencer, partitioned:N or recorded:N", name)
}

// NeedsLine tells whether every event run under l must have a Line: true
// for [LineConvoy] alone.
func (l Layout) NeedsLine() bool { return l.lanes == lineLanes }

// Equal tells whether l and m are the same layout: the same built-in one
// ([Partitioned] with the same partitions), or two made by [NewLayout] with
// the same name, both with lane functions or both without, whose lane
// functions are taken to agree as their names do; a NewLayout without
// lanes is Equal to a built-in one without lanes of its name ([Free]).
// [Sweep] reads one lane function for layouts that are Equal.
func (l Layout) Equal(m Layout) bool {
	return l.String() == m.String() && l.lanes == m.lanes && l.partitions == m.partitions &&
		l.orderedOnly == m.orderedOnly && l.handler == m.handler
}

// Lane returns the lane that a run under l puts event e in, named as
// [Result].WorstLanes names lanes: the key under [Convoy] and
// [SelectiveConvoy], the line under [LineConvoy], the partition's number
// under [Partitioned] (the key hashed by [KafkaPartition]) and [Recorded]
// (e.Partition), the name a [NewLayout]'s LaneFunc gives. ok is false when
// e takes no lane and runs free: under a layout without lanes, for an empty
// Key, for a history-only event (Step 0) under SelectiveConvoy, and when a
// LaneFunc says so. err, an [*EventError] whose Index is 0 for a caller to
// set, tells an event the layout cannot place: no Line under LineConvoy, a
// Partition outside 0 to n−1 under Recorded(n). Lane reads no other field.
//
// It takes the time of the LaneFunc, or of hashing the key under
// Partitioned, and allocates only the name of a partition numbered 100 or
// more.
func (l Layout) Lane(e Event) (lane string, ok bool, err error) {
	if e.Key == "" || l.lanes == noLanes || l.orderedOnly && e.Step == 0 {
		return "", false, nil
	}
	switch l.lanes {
	case keyLanes:
		return e.Key, true, nil
	case lineLanes:
		if e.Line == "" {
			return "", false, &EventError{Key: e.Key, Field: "Line", Want: "a line: layout " + l.String() + " puts events in lanes by line"}
		}
		return e.Line, true, nil
	case partitionLanes:
		return strconv.Itoa(KafkaPartition(e.Key, l.partitions)), true, nil
	case recordedLanes:
		if e.Partition < 0 || e.Partition >= l.partitions {
			return "", false, &EventError{Key: e.Key, Field: "Partition", Value: e.Partition,
				Want: fmt.Sprintf("0 to %d: layout %s has %d partitions", l.partitions-1, l, l.partitions)}
		}
		return strconv.Itoa(e.Partition), true, nil
	}
	if lane, ok = l.laneFunc(e); !ok {
		return "", false, nil
	}
	return lane, true, nil
}

// Owner returns the consumer, numbered from 0 to consumers−1, that the
// [Static] policy runs a lane of l on under assignor a (0 for the layout's
// default, as [WithAssignor] tells), as a simulated run deals it. The
// partitions of [Partitioned] and [Recorded] are dealt by their number,
// lane being the name [Layout.Lane] gives, under [RangeAssignor] and
// [RoundRobinAssignor]; other lanes, and every lane under
// [FirstSeenAssignor], by seen, the lane's number, from 0, in the order
// lanes were first seen: consumer seen mod consumers. It takes O(1) time.
//
// Owner panics, with a "konvoy:" prefix, when consumers < 1, seen < 0, a
// is not 0 or one of the three, or, under RangeAssignor or
// RoundRobinAssignor, which read it, a partition's lane is not a number
// from 0 to n−1 written as [Layout.Lane] writes it (no sign, no leading
// zero).
func (l Layout) Owner(a Assignor, lane string, seen, consumers int) int {
	switch {
	case consumers < 1 || seen < 0:
		panic(fmt.Sprintf("konvoy: Owner: want consumers ≥ 1 and seen ≥ 0, not %d and %d", consumers, seen))
	case a > RoundRobinAssignor:
		panic(fmt.Sprintf("konvoy: Owner: unknown %v", a))
	case l.partitions == 0 || a == FirstSeenAssignor:
		return seen % consumers
	}
	p, err := strconv.Atoi(lane)
	if err != nil || p < 0 || p >= l.partitions || strconv.Itoa(p) != lane {
		panic(fmt.Sprintf("konvoy: Owner: lane %q is not a partition of %s", lane, l))
	}
	return a.deal(p, l.partitions, consumers)
}
