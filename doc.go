// Package konvoy tells what per-key ordering costs an event pipeline, before
// it is built.
//
// Events that overwrite an entity's state must be applied in order per key.
// konvoy runs one set of events through a [Layout] — free consumption, a
// sequential convoy with one lane per key or per coarser line, or free
// consumption with a version-stamped handler — on a number of consumers, and
// measures, in a [Result], what each layout breaks (backward writes, keys
// left in a wrong final state, events skipped) and what it costs (rounds,
// lanes, the heaviest lane, effective parallelism). [Cost],
// [SelectiveMultiplier] and [SplitRate] turn those measures into a capacity
// plan for a peak write rate.
//
// The model is the one of the lesson "Sıralı Konvoy" (sequential convoy), and
// [Simulate] on the lesson's events (package lesson) reproduces every figure the lesson prints.
// [Simulator] runs the same model on a stream of events in memory that grows
// with the keys and lanes, not the events, at about ten million events a
// second on one core. Consumers and partitions cost memory only once events
// use them, up to [MaxConsumers] and [MaxPartitions].
//
// Beyond the lesson: [SelectiveConvoy] puts only ordered events in lanes,
// [Partitioned] hashes keys onto partitions exactly as Kafka's default
// partitioner does ([KafkaPartition], [PartitionsFor]), and [Resequencer]
// holds early events back instead of rejecting them. Events may arrive over
// time ([Event].Arrival), and a [Result] reports wait and response
// percentiles ([Latency]), exact below [ExactLatency] rounds and within
// 1/1024 above, in bounded memory. [WithPolicy] chooses how free consumers pick
// events: [HeadOfLine] (the lesson's rule), [LaneAware] (Service Bus
// sessions, SQS FIFO message groups) or [Static] (Kafka consumer groups);
// [WithSchedule] keeps every event's [Slot] for pictures. [PlanConsumers]
// answers how many consumers keep up with a peak rate, and where no number
// of consumers helps.
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
//	tepe yazma hızı      peak write rate     lesson.PeakRate, SplitRate
//	seçici konvoy        selective convoy    SelectiveConvoy, SelectiveMultiplier
//
// # The model
//
// Events are dispatched one by one in input order to the consumer that
// becomes free earliest (ties: the lowest index). An event starts when both
// that consumer and its lane, if any, are free, and both stay busy until it
// finishes; a consumer whose lane is busy waits idle (head-of-line blocking).
// Events are then applied in order of finish time, ties by input index. A
// step lower than the key's state is a backward write: the version stamp
// skips it, every other handler writes it (last writer wins). Step 0 marks a
// history-only record that never changes state. A key's final state is wrong
// when it differs from the highest step among its events.
package konvoy
