// Package konvoy tells what per-key ordering costs an event pipeline, before
// it is built.
//
// Events that overwrite an entity's state must be applied in order per key.
// konvoy runs a set of [Event] values through a [Layout] on a number of
// consumers and measures, in a [Result], what the layout breaks (backward
// writes, keys left in a wrong final state, events skipped) and what it
// costs (rounds, lanes, the heaviest lane, parallelism, latency). The model
// is the one of the lesson "Sıralı Konvoy" (sequential convoy), whose data
// is in package lesson; [Simulate] on it reproduces every figure the lesson
// prints.
//
// # Which function to use
//
//   - [Simulate] runs a slice of events under one layout and consumer count.
//   - [Simulator] does the same for a stream too large to hold, one event at
//     a time, in memory that grows with the keys and lanes, not the events.
//   - [Sweep] runs many configurations ([Config]) over a stream
//     (iter.Seq2[Event, error], as package eventlog reads it; [Values] turns
//     a slice into one), in parallel, each event interned once for all of
//     them, in as many passes as [WithMaxMemory] needs, the later ones
//     replaying the first from a temporary file (see [Sweep]) and
//     [WithExpectedEvents] keeping the first from starting runs it cannot
//     finish: the way to run one stream many ways.
//   - [PlanConsumers] finds how many consumers keep up with a peak rate, and
//     the rate no number of consumers beats; [PlanLatency] finds the fewest
//     that keep a latency percentile within an objective ([SLO]).
//   - [PartitionsFor] finds how many Kafka partitions keep hash collisions
//     within a share of the heaviest partition; [KafkaPartition] places a key
//     as Kafka's default partitioner does.
//   - [CompareSelective] sets the selective convoy's simulated cost beside
//     the lesson's formula, [SelectiveMultiplier]; [Cost] and [SplitRate]
//     are the lesson's other capacity figures.
//   - [Layout.Lane] and [Layout.Owner] tell which lane an event runs in and,
//     under [Static], which consumer runs the lane; [LatencyCounter] sums up
//     latencies as a run does ([ExactLatency] below which it is exact;
//     [PercentileName] names a percentile as the reports do); [QuoteKey]
//     writes a key as the reports do. Package live runs real handlers with
//     them, as the model runs events.
//
// # Layouts, policies and options
//
// The lesson's layouts are [Free], [Convoy], [LineConvoy] and
// [VersionStamp]; beyond them, [SelectiveConvoy], [Partitioned] (keys
// hashed as Kafka does), [Recorded] (the partitions an export recorded,
// [Event].Partition) and [Resequencer], and [NewLayout] for any grouping of
// events into lanes; [AllLayouts] lists them, [ParseLayout] reads one's
// name, and [Layout.Equal], [Layout.Partitions], [Layout.NeedsLine] and
// [Layout.HoldsBacklog] tell what a layout is and needs. A [Policy], set
// by [WithPolicy], chooses how free consumers pick events:
// [HeadOfLine] (the lesson's rule), [LaneAware] (Service Bus sessions, SQS
// FIFO message groups) or [Static] (Kafka consumer groups, whose partitions
// [WithAssignor] deals as Kafka's assignors do); [Policies] lists them,
// and [ParsePolicy] and [ParseAssignor] read their names.
// [WithResequencer] sets the resequencer's start ([ParseResequencerStart]
// reads one), timeout, capacity and handling of old steps.
// [WithSchedule] keeps every event's [Slot] for pictures; [WithMaxBacklog]
// bounds what a run holds, and [WithMaxMemory] what a sweep holds
// ([DefaultMaxMemory] unless given). [MaxConsumers] and [MaxPartitions]
// are the most consumers and partitions a run takes.
//
// # Errors
//
// An invalid event is an [EventError], found with errors.As, naming the
// event's index, key and field; [ErrOrder], [ErrBacklog], [ErrMemory],
// [ErrTooManyKeys] and [ErrScheduleFull] tell, with errors.Is, why a run
// stopped. A bad
// argument is an error too. Misuse that only a programmer can make panics
// with a "konvoy:" prefix, as each function's doc says: a nil option,
// stream or context; an option given a value out of its range ([WithMaxBacklog],
// [WithMaxMemory], [WithSchedule], [WithAssignor], [WithResequencer]);
// [KafkaPartition] of fewer than one partition; [Partitioned], [Recorded]
// or [AllLayouts] of a count out of range; [SelectiveMultiplier] or
// [SplitRate] of a share out of range; [Layout.Owner] of no consumer, an
// unknown assignor or a lane that is no partition's; [NewLayout] with no name; a negative latency to
// [LatencyCounter].Add; a [Simulator] not made by [NewSimulator], or given
// events after its Result.
//
// # Glossary
//
// The lesson is in Turkish; these are its terms and the names that stand for
// them here.
//
//	olay                 event               Event
//	takip no             key                 Event.Key
//	hat                  line                Event.Line
//	durum / adım         status / step       Event.Step (kabul=1 … teslim=4)
//	süre                 duration, rounds    Event.Duration
//	tüketici             consumer            the consumers argument of Simulate
//	şerit                lane                LaneFunc, Result.Lanes
//	tur                  round; rounds       Result.Rounds (the makespan)
//	iş yükü              work                Result.Work
//	etkin koşutluk       effective parallelism  Result.Parallelism
//	serbest              free layout         Free
//	konvoy               convoy layout       Convoy
//	konvoy-hat           line convoy layout  LineConvoy
//	sürüm damgası        version stamp       VersionStamp
//	geriye yazma         backward write      Result.BackwardWrites
//	yanlış son durum     wrong final state   Result.WrongFinal, Result.WrongKeys
//	atlanan olay         skipped event       Result.Skipped
//	en yüklü şerit       heaviest lane       Result.HeaviestLane
//	maliyet              cost                Cost
//	KK1                  ordered share       the orderedShare of SelectiveMultiplier
//	tepe yazma hızı      peak write rate     SplitRate, lesson.PeakRate
//	seçici konvoy        selective convoy    SelectiveConvoy, SelectiveMultiplier
package konvoy
