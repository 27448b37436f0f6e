// Package kafka consumes a Kafka topic as a consumer group member, on
// franz-go (github.com/twmb/franz-go), and runs every record through a
// [live.Executor] under a konvoy layout and policy, committing per
// partition only offsets below which every record has finished, so that a
// commit never skips a record (issue 25).
//
// # Which API to use
//
//   - [New] makes a [Consumer] from franz-go's options (brokers, group,
//     topics), a layout, a number of consumers, an event function that
//     reads a record as a [konvoy.Event] (its lane) and a handler;
//     [Consumer.Run] consumes until its context ends, then drains, commits
//     and leaves the group; [Consumer.Close] releases a consumer that will
//     not run, since New's client joins the group at once. Each lane's records run in offset order, never
//     two at once; when the executor is full, fetching pauses
//     (PauseFetchPartitions) instead of buffering.
//   - [WithCommitInterval], [WithRevokeTimeout], [WithCloseTimeout],
//     [WithMaxHeld], [WithDeadLetter] or [WithDeadLetterTopic] (which
//     produces [DeadLetterRecord]), and [WithExecutor] (live's own
//     options: retries, policy) tune it.
//   - [NewFinished] takes what [live.Executor.Completion] gives for one
//     partition (the committable offset and the finished offsets above it)
//     and [Finished.Metadata] encodes it as the string committed with the
//     offset, at most [MaxMetadata] bytes, Kafka's default
//     offset.metadata.max.bytes; [ParseMetadata] reads it back, as hostile
//     input: it never panics, and its memory is bounded whatever the string
//     says; [Finished.Done] tells which records to skip,
//     [Finished.Fits] whether one more finished offset would still fit,
//     and [Reach] up to where any set of finished offsets fits.
//   - [NewMapper] reads records as events the way konvoy's trace flags read
//     a kcat -J export ([AppendJSON] writes a record's line), and
//     [Mapper.Funcs] gives New's event and handle functions, a record that
//     does not map failing as its handler's error, never dropped.
//
// # Commits, rebalances and failures
//
// The consumer commits the committable offset on an interval, on revoke
// (after the revoked partitions' running handlers end, bounded by
// WithRevokeTimeout) and when Run ends; on lost partitions it commits
// nothing. Each commit carries, as metadata, the finished offsets above
// the committed one ([Finished.Metadata]); a member assigned a partition
// reads it back and does not run those records again. A partition's
// records are taken only up to [Reach] of its committable offset, the
// worst case of what the records held may leave finished: past it the
// partition is throttled (paused, its fetch offset set back) until the
// gap closes, while the others go on, so the metadata never passes
// MaxMetadata (were it to, or were the broker to refuse it as too long,
// its offset.metadata.max.bytes set lower, the offset would be committed
// alone).
// Unreadable metadata counts as none: those records run again
// (at-least-once); so does metadata whose partition's fetching was reset
// below the committed offset, as after an unclean leader election
// truncated the log, since its offsets may hold other records by then. With WithDeadLetterTopic a record whose attempts all
// failed is produced, with headers naming the error, the attempts and the
// record, to that topic, and counts as finished only once the broker
// acknowledged it; a produce that fails stops the consumer below the
// record, unless the record's partition was revoked or lost by then (the
// next owner reads it again). `konvoy replay -brokers` runs a topic
// through a Consumer and prints the simulator's prediction beside it
// (docs/replay.md).
//
// [live.Executor]: https://pkg.go.dev/github.com/sirali-konvoy/konvoy/live#Executor
// [live.Executor.Completion]: https://pkg.go.dev/github.com/sirali-konvoy/konvoy/live#Executor.Completion
package kafka
