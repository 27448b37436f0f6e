// Package eventlog reads and writes event traces — CSV files with a header
// row and JSON Lines files — as streams of [konvoy.Event], for running a real
// event stream (a Kafka topic's export, a database table, a broker's archive)
// through konvoy's layouts.
//
// A [Decoder] reads one trace an event at a time, in memory that does not grow
// with the number of events: [Decoder.Next] returns the next event, and
// [Decoder.All] and [Reader.Events] give the same stream as an
// iter.Seq2[konvoy.Event, error]. [Open] opens a file by name, reads standard
// input for "-" and decompresses gzip input transparently. A [Reader] holds
// the options: the names of the columns, the statuses that map to steps, and
// how durations are written. An [ObjectDecoder] reads JSON objects handed
// to it one at a time, as a JSON Lines trace's lines, for a source that
// delivers records rather than a file (package kafka's records).
//
// # Columns
//
// A trace has, by default, the columns (or, in JSON Lines, the fields) key,
// line, status, duration and step, and optionally at and partition (the
// partition an event was recorded in, see [Columns]):
//
//   - key (required) is the entity whose state the event overwrites; it must
//     not be empty. In JSON Lines a key, line or status given as a number
//     is taken as written: 1 and "1" are one key, 1 and 1.0 two, as they
//     are in CSV.
//   - line is a coarser grouping of keys, such as a route; it may be absent or
//     empty, but konvoy's line convoy needs it.
//   - step is the event's position in the key's state machine, a whole number
//     ≥ 0, where 0 marks a history-only record. When a step column exists it
//     is used, and a status column, if there is one too, is not read.
//   - status, when there is no step column, is mapped to a step through
//     [Reader.Steps] (the ordered statuses, step 1 first) and
//     [Reader.History] (statuses that only append to history, step 0). A
//     status in neither list is an error, never a guess.
//   - duration (required unless [Reader.Durations] draws it) is the time a
//     consumer spends on the event: whole rounds, or, when
//     [Reader.Resolution] is set, a duration with units such
//     as "150ms" or "2.5s" that is a whole multiple of the resolution
//     (or, under [Reader.BareRounds], a bare whole number of rounds).
//   - at is the round at which the event arrives ([konvoy.Event.Arrival]),
//     written like durations; it is 0 when absent. In JSON Lines a
//     trace records every event's arrival, or none, as the first record
//     tells: a later record that differs is an error (as an empty cell of
//     a CSV arrival column is), never an arrival at 0.
//
// Other columns and fields are ignored. [Columns] names other columns for any
// of these; a column named there must be in the trace, even where the
// default is optional. A column with a role's default name that means
// something else, such as a partition column of regions, is left unread
// by [NoColumn] for the role (see [Columns]).
//
// # Bad input
//
// Every problem with the input is an [*Error] naming the file, the line, and
// for a bad value the field, the value and what was expected; in CSV its
// Column numbers the field at fault. A column the decoder reads named twice
// in a CSV header, or a field it reads named twice in a JSON Lines record
// (or on the way along a path, see [Columns]), is an error: which value
// counts would be a guess. A decoder never panics on bad input
// and never guesses. In a CSV trace the line is the
// physical line where the record starts (a quoted field may span lines).
//
// Valid but tricky input reads correctly: quoted fields with commas and
// newlines, CRLF line ends, a UTF-8 byte-order mark, blank lines, and extra
// columns. A CRLF inside a quoted CSV field is read as a single newline, as
// line ends are; see [Writer].
//
// # Limits
//
// A decoder reads any input, however long its lines, in memory bounded by a
// cap on records, and refuses what breaks a limit as soon as the bytes read
// show it, with an [*Error] naming the file and the line where the record
// starts:
//
//   - A record, a CSV row (the header included) or a JSON Lines line, longer
//     than [Reader.MaxRecordBytes], 16 MiB unless set
//     ([DefaultMaxRecordBytes]), not counting its line end. A decoder holds a
//     few times the cap at most: some 64 MiB at the default.
//   - A key or a line longer than [Reader.MaxNameBytes], 4 KiB unless set
//     ([DefaultMaxNameBytes]): a simulation keeps every distinct one.
//   - A CSV header of more than [MaxColumns] columns, and a row with more
//     fields than its header, before the row is parsed.
//   - Binary input: input that starts with the magic number of a compressed
//     file or an archive (gzip, zip, bzip2, xz, zstd, lz4, 7z, compress) or
//     with a UTF-16 or UTF-32 byte-order mark, before anything is parsed; and
//     a NUL byte anywhere, which no text trace holds, where it is read. [Open]
//     and [Decompress] undo one layer of gzip, so a trace compressed twice is
//     refused at its first bytes.
//
// Byte offsets in messages count from 0 at the input's first byte, after
// decompression, a byte-order mark included.
//
// # Writing
//
// A [Writer] writes events back as CSV or JSON Lines with a step column, so
// that reading its output with a zero [Reader] gives the same events, but
// their partitions and the exceptions its doc lists.
//
// # Reading again
//
// A [Trace] is a trace file read many times, as konvoy.PlanConsumers ranges
// over its stream once for every consumer count it tries: [Trace.Scan] reads
// it once and holds its events in memory when they fit in a budget, and
// [Trace.Events] yields them again and again, from memory or from the file.
//
// [Stats] counts a stream's keys and lines and the keys whose steps arrive out
// of order, which changes what a "correct" final state means.
package eventlog
