// Package kafka will consume a Kafka topic as a consumer group member and
// run every record through a [live.Executor] (issue 25), committing per
// partition only offsets below which every record has finished, so that a
// commit never skips a record.
//
// What exists now is the first, self-contained piece: the commit metadata
// that carries the finished offsets above a partition's committable
// offset, so that a member taking the partition over (or the same member
// after a restart) skips records already finished instead of running them
// again.
//
//   - [NewFinished] takes what [live.Executor.Completion] gives for one
//     partition (the committable offset and the finished offsets above it)
//     and [Finished.Metadata] encodes it as the string committed with the
//     offset, at most [MaxMetadata] bytes, Kafka's default
//     offset.metadata.max.bytes.
//   - [ParseMetadata] reads a committed offset's metadata back, as hostile
//     input: it never panics, and its memory is bounded whatever the
//     string says; [Finished.Done] then tells which records to skip.
//   - [Finished.Fits] tells, cheaply, whether one more finished offset
//     would still let the metadata fit: the consumer stops taking records
//     of a partition when it would not, until the gap closes.
//
// The package imports only the standard library for now; the consumer on
// franz-go (github.com/twmb/franz-go) comes later.
//
// [live.Executor]: https://pkg.go.dev/github.com/sirali-konvoy/konvoy/live#Executor
// [live.Executor.Completion]: https://pkg.go.dev/github.com/sirali-konvoy/konvoy/live#Executor.Completion
package kafka
