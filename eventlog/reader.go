package eventlog

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/synth"
)

// Format is the encoding of a trace.
type Format int

// The trace formats.
const (
	// Auto picks the format from the trace's name (see [FormatOf]), or, when
	// the name does not tell, from its first byte after white space: '{'
	// is JSON Lines, anything else CSV; a trace whose first 64 KiB are all
	// white space is an [*Error] that asks for the format by name.
	Auto Format = iota
	// CSV is comma-separated values with a header row (RFC 4180).
	CSV
	// JSONL is JSON Lines: one JSON object per line.
	JSONL
)

// String returns "auto", "csv" or "jsonl".
func (f Format) String() string {
	switch f {
	case Auto:
		return "auto"
	case CSV:
		return "csv"
	case JSONL:
		return "jsonl"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat returns the Format whose String is s; it also accepts "ndjson"
// for JSONL.
func ParseFormat(s string) (Format, error) {
	switch s {
	case "auto":
		return Auto, nil
	case "csv":
		return CSV, nil
	case "jsonl", "ndjson":
		return JSONL, nil
	}
	return Auto, fmt.Errorf("eventlog: format %q; want auto, csv or jsonl", s)
}

// FormatOf returns the format a file name's extension tells, after any
// ".gz": ".csv" is CSV, and ".jsonl", ".ndjson" and ".json" are JSON Lines. It
// returns false for any other name.
func FormatOf(name string) (Format, bool) {
	name = strings.TrimSuffix(strings.ToLower(name), ".gz")
	switch filepath.Ext(name) {
	case ".csv":
		return CSV, true
	case ".jsonl", ".ndjson", ".json":
		return JSONL, true
	}
	return Auto, false
}

// Columns names the columns of a CSV trace, or the fields of a JSON Lines
// trace. An empty name stands for the default, which is the field's own name
// in lower case: "key", "line", "status", "step", "duration", "at" and
// "partition".
//
// A name given must be in the trace: a CSV header without it, or a JSON
// Lines record without it, is an [*Error] naming it and the flag of konvoy's
// command that sets it (-at for At), even where the default column is
// optional, as line, at and partition are; only Duration, which is not read
// when [Reader.Durations] is set, may then be absent.
//
// One column may serve two roles: -line key, Columns{Line: "key"}, reads
// the key as the line, in CSV and JSON Lines alike.
//
// A trace's column that has a role's default name but means something
// else (a "partition" column of regions, a "step" column of statuses) is
// read for that role unless told otherwise. [NoColumn] for an optional
// role (line, status, step, at, partition) reads no column for it:
// Columns{Partition: NoColumn} reads no partitions, whatever the trace's
// columns. And the step, the arrival and the partition, whose values are
// numbers, are not read by default from a column named for another role:
// Columns{Status: "step"} reads the step column's values as statuses, and
// the steps from them. NoColumn for the key, for the duration unless
// [Reader.Durations] draws durations, or for the status where no step
// column is read, is an error from [NewDecoder].
//
// In JSON Lines, a name with dots, such as "payload.status", is a path into
// nested objects when no field has the whole name; where a field on the
// path holds a string that is itself a JSON object, as kcat writes a
// record's payload, the path goes on inside it. A record that lacks the
// path, or has something other than an object on its way, is an [*Error]
// naming the path.
type Columns struct {
	Key, Line, Status, Step, Duration, At, Partition string
}

// NoColumn, as a name in [Columns], reads no column for its role, as
// konvoy's command's -partition - does: see Columns.
const NoColumn = "-"

// namedColumn is a column named in Columns: its name, the flag of
// konvoy's command that names it, and the field, counted from 0 in the
// order of Columns' fields.
type namedColumn struct {
	name, flag string
	field      int
}

// named returns the columns c names explicitly, that a trace must have: all
// but those left empty, and the duration when durations are drawn (read
// is false), which is not read. Each is paired with its flag.
func (c Columns) named(readDuration bool) []namedColumn {
	var out []namedColumn
	for i, name := range []string{c.Key, c.Line, c.Status, c.Step, c.Duration, c.At, c.Partition} {
		flag := []string{"key", "line", "status", "step", "duration", "at", "partition"}[i]
		if name != "" && name != NoColumn && (flag != "duration" || readDuration) {
			out = append(out, namedColumn{name, "-" + flag, i})
		}
	}
	return out
}

// withDefaults returns the names the decoder reads: c's, with every empty
// name replaced by its default, but "" for an optional role that reads no
// column (see [Columns]): NoColumn's, and a step's, arrival's or
// partition's left empty whose default c names for another role.
func (c Columns) withDefaults() Columns {
	given := []string{c.Key, c.Line, c.Status, c.Step, c.Duration, c.At, c.Partition}
	def := func(s, d string) string {
		if s == "" {
			return d
		}
		return s
	}
	optional := func(s, d string) string {
		if s == NoColumn {
			return ""
		}
		return def(s, d)
	}
	number := func(s, d string) string {
		if s == "" && slices.Contains(given, d) {
			return "" // named for another role
		}
		return optional(s, d)
	}
	return Columns{
		Key:       def(c.Key, "key"),
		Line:      optional(c.Line, "line"),
		Status:    optional(c.Status, "status"),
		Step:      number(c.Step, "step"),
		Duration:  def(c.Duration, "duration"),
		At:        number(c.At, "at"),
		Partition: number(c.Partition, "partition"),
	}
}

// Reader holds the options for reading a trace. Its zero value reads CSV or
// JSON Lines, by name or content, with the default columns, steps given in a
// step column, durations in whole rounds, and records of at most
// [DefaultMaxRecordBytes].
type Reader struct {
	// Name is the trace's name in error messages, and tells its format when
	// Format is Auto. "" and "-" stand for standard input, shown as
	// "<stdin>".
	Name string
	// Format is the trace's encoding; Auto picks it as [Auto] says.
	Format Format
	// Columns names the columns; empty names take the defaults.
	Columns Columns
	// Steps are the ordered statuses: Steps[0] maps to step 1, Steps[1] to
	// step 2, and so on. They are used only when the trace has no step
	// column.
	Steps []string
	// History are the statuses that only append to a key's history; each
	// maps to step 0.
	History []string
	// Resolution is the length of one round. When it is 0, durations and
	// arrivals are whole numbers of rounds; when it is positive, they are
	// durations with units, such as "150ms" or "2.5s", and each must be a
	// whole multiple of Resolution unless Round is set.
	Resolution time.Duration
	// BareRounds, with a Resolution, reads a duration or a round-number
	// arrival written as a bare whole number, with no unit, as that many
	// rounds rather than rejecting it; a value with a unit is still read as
	// Resolution says. A trace in whole rounds and one with units then read
	// alike, one round lasting Resolution: konvoy replay sets it, as its
	// -unit gives every round a wall time. Without it a bare number under a
	// Resolution is an [*Error], since "150" might mean 150ms. It changes
	// nothing without a Resolution or for timestamp arrivals.
	BareRounds bool
	// Round rounds durations and arrivals that are not whole multiples of
	// Resolution to the nearest round (halves away from zero) instead of
	// rejecting them; [Decoder.Rounded] counts them.
	Round bool
	// MaxRecordBytes is the longest record a decoder accepts, in bytes: a
	// CSV row, the header included, or a JSON Lines line. A record's length
	// counts every byte from its first to its last, quoted line breaks
	// included, but not the line end (LF or CRLF) that ends it. A longer
	// record is an [*Error]; one of exactly MaxRecordBytes is read. 0 means
	// [DefaultMaxRecordBytes]; a negative value is an error from
	// [NewDecoder]. A decoder holds a few times MaxRecordBytes in memory at
	// most, however long the input's lines are: some 5 times for a CSV
	// record, whose parser, encoding/csv, grows its buffers by a quarter at
	// a time, and 3 times for a JSON Lines line, and a column's path
	// through strings that hold JSON (a kcat payload) twice more at most:
	// a path whose strings within strings take more, as written with their
	// escapes, is an [*Error].
	MaxRecordBytes int
	// AtFormat is how arrivals are written; the default, [Rounds], reads
	// round numbers. A timestamp format needs a Resolution, and makes the
	// at column required: each arrival becomes whole rounds of Resolution
	// counted from the trace's earliest arrival, the first one released,
	// rounded as Round says.
	AtFormat TimeFormat
	// Reorder, when positive, sorts arrivals within a window of that
	// length, as a stream processor does with a watermark: an event is
	// released, in arrival order, ties in input order, once an arrival
	// more than Reorder later has been read, and at the end of the trace.
	// An event that arrives earlier than one already released is an
	// [*Error], or dropped with DropLate. It needs a Resolution, and an
	// arrival for every event (the at column or field). When 0,
	// arrivals must come in order: a timestamp earlier than the one before
	// it is an [*Error], and round numbers are left for konvoy to check.
	Reorder time.Duration
	// DropLate drops an event that arrives too late for the Reorder
	// window, instead of failing; [Decoder.Dropped] counts them.
	DropLate bool
	// MaxReorderBytes bounds the memory the Reorder window holds, its
	// events with their keys and lines counted; a window that needs more is
	// an [*Error] at the event that overflows it. 0 means
	// [DefaultMaxReorderBytes]; a negative value is an error from
	// [NewDecoder].
	MaxReorderBytes int
	// Durations, when not nil, gives every event a duration drawn from it,
	// in rounds, deterministically from Seed, in input order; the trace
	// then needs no duration column, and one it has is not read. A draw
	// past synth.MaxDuration is an [*Error] at its event, never cut.
	Durations *synth.Dist
	// Seed seeds the draws of Durations: the same trace, Durations and
	// Seed give the same durations on every platform.
	Seed uint64
	// MaxNameBytes is the longest key or line a decoder accepts, in bytes;
	// a longer one is an [*Error] naming its field. 0 means
	// [DefaultMaxNameBytes]; a negative value is an error from [NewDecoder].
	// A simulation keeps every distinct key and line for the whole run, so
	// this bounds what each costs, however the trace is compressed.
	MaxNameBytes int
}

// stdinName is the name standard input has in error messages.
const stdinName = "<stdin>"

// displayName is the name the trace has in error messages.
func (r Reader) displayName() string {
	if r.Name == "" || r.Name == "-" {
		return stdinName
	}
	return r.Name
}

// statusSteps checks the status lists and maps each status to its step.
func (r Reader) statusSteps() (map[string]int, error) {
	m := make(map[string]int, len(r.Steps)+len(r.History))
	in := make(map[string]string, len(r.Steps)+len(r.History)) // the list that named each status first
	add := func(list string, s string, step int) error {
		if s == "" {
			return fmt.Errorf("eventlog: an empty status in %s", list)
		}
		switch first, dup := in[s]; {
		case dup && first == list:
			return fmt.Errorf("eventlog: status %q is named twice in %s", s, list)
		case dup:
			return fmt.Errorf("eventlog: status %q is named in %s and in %s", s, first, list)
		}
		m[s], in[s] = step, list
		return nil
	}
	for i, s := range r.Steps {
		if err := add("the ordered statuses", s, i+1); err != nil {
			return nil, err
		}
	}
	for _, s := range r.History {
		if err := add("the history statuses", s, 0); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Events returns the trace read from src as a stream; see [Decoder.All]. An
// invalid option is yielded as the stream's only error.
func (r Reader) Events(src io.Reader) iter.Seq2[konvoy.Event, error] {
	d, err := NewDecoder(src, r)
	if err != nil {
		return func(yield func(konvoy.Event, error) bool) { yield(konvoy.Event{}, err) }
	}
	return d.All()
}

// bufferSize is the size of a decoder's read buffer.
const bufferSize = 64 << 10

// DefaultMaxRecordBytes is the longest record a decoder accepts when
// [Reader.MaxRecordBytes] is 0: 16 MiB.
const DefaultMaxRecordBytes = 16 << 20

// DefaultMaxReorderBytes is the most memory a Reorder window holds when
// [Reader.MaxReorderBytes] is 0: 256 MiB, some 1.5 million events of short
// keys, at some 110 bytes each and up to 180 counted.
const DefaultMaxReorderBytes = 256 << 20

// DefaultMaxNameBytes is the longest key or line a decoder accepts when
// [Reader.MaxNameBytes] is 0: 4 KiB, far beyond a Kafka key, a Service Bus
// session or an SQS message group (128 characters).
const DefaultMaxNameBytes = 4 << 10

// MaxColumns is the most columns a CSV header may have. A decoder refuses a
// longer header, and a row with more fields than its header, without letting
// the parser hold more than MaxColumns fields of it: encoding/csv spends some
// 40 bytes on each field, so a record of nothing but commas would otherwise
// take some 40 times [Reader.MaxRecordBytes].
const MaxColumns = 1 << 16

// Decoder reads the events of one trace, one at a time, holding no more than
// one record, of at most [Reader.MaxRecordBytes], in memory. It is made by
// [NewDecoder] and is not safe for concurrent use.
type Decoder struct {
	opt      Reader
	name     string
	cols     Columns
	statuses map[string]int
	br       *bufio.Reader
	format   Format
	started  bool
	err      error // sticky: the error that ended the stream, or io.EOF

	line     int // where the last record returned starts
	rounded  int
	statused int // records whose step a status gave
	maxBytes int // the longest record accepted
	maxName  int // the longest key or line accepted
	lastKey  string
	lastLine string
	offset   int64 // the bytes read before the current record, BOM included

	csv      *csvState
	json     *jsonState
	looksCSV bool          // a trace read as JSON Lines by its name starts like CSV
	named    []namedColumn // the columns the trace must have, as named

	draw     func() (int, bool) // Durations' draws, or nil (see drawn)
	drawLast bool               // an ObjectDecoder's: an object's duration is drawn once it is taken, none for a refused one
	seq      int64              // records read
	released bool               // an event was released: origin and last are set
	origin   int64              // the ticks of a timestamp's round 0
	last     int64              // the ticks of the last event released
	window   window             // the Reorder window
	eof      bool               // the trace's records are all read
	dropped  int
	maxHeld  int // the most bytes the Reorder window holds
}

// NewDecoder returns a Decoder that reads a trace from src with the options
// of r. It returns an error, before reading anything, when the options are
// invalid: a status named twice or empty, a negative Resolution, Round
// without a Resolution, a negative MaxRecordBytes or MaxNameBytes, or
// [NoColumn] for the key, the duration (unless Durations draws it), the
// status where no step column is read, or arrivals that AtFormat or
// Reorder needs.
func NewDecoder(src io.Reader, r Reader) (*Decoder, error) {
	statuses, err := r.statusSteps()
	if err != nil {
		return nil, err
	}
	if err := r.check(); err != nil {
		return nil, err
	}
	maxBytes := r.MaxRecordBytes
	if maxBytes == 0 {
		maxBytes = DefaultMaxRecordBytes
	}
	r.Steps = append([]string(nil), r.Steps...)
	r.History = append([]string(nil), r.History...)
	var draw func() (int, bool)
	if r.Durations != nil {
		if _, err := synth.ParseDist(r.Durations.String()); err != nil {
			return nil, fmt.Errorf("eventlog: Durations: %w", err)
		}
		draw = r.Durations.DrawsChecked(r.Seed)
	}
	return &Decoder{
		draw:     draw,
		maxHeld:  cmp.Or(r.MaxReorderBytes, DefaultMaxReorderBytes),
		opt:      r,
		name:     r.displayName(),
		cols:     r.Columns.withDefaults(),
		named:    r.Columns.named(draw == nil),
		statuses: statuses,
		br:       bufio.NewReaderSize(&stickyReader{r: src}, bufferSize),
		format:   r.Format,
		maxBytes: maxBytes,
		maxName:  cmp.Or(r.MaxNameBytes, DefaultMaxNameBytes),
	}, nil
}

// check returns the error of an invalid option beyond the statuses.
func (r Reader) check() error {
	switch {
	case r.Resolution < 0:
		return fmt.Errorf("eventlog: Resolution is %v; want 0 (whole rounds) or more", r.Resolution)
	case r.Round && r.Resolution == 0:
		return errors.New("eventlog: Round needs a Resolution: whole rounds are never rounded")
	case r.Format < Auto || r.Format > JSONL:
		return fmt.Errorf("eventlog: unknown %v", r.Format)
	case r.MaxRecordBytes < 0:
		return fmt.Errorf("eventlog: MaxRecordBytes is %d; want 0 (the default, %d) or more", r.MaxRecordBytes, DefaultMaxRecordBytes)
	case r.MaxNameBytes < 0:
		return fmt.Errorf("eventlog: MaxNameBytes is %d; want 0 (the default, %d) or more", r.MaxNameBytes, DefaultMaxNameBytes)
	case r.Columns.Key == NoColumn:
		return errors.New("eventlog: Columns.Key is NoColumn; every event needs a key, from a column")
	case r.Columns.Duration == NoColumn && r.Durations == nil:
		return errors.New("eventlog: Columns.Duration is NoColumn; every event needs a duration, from a column or drawn from Durations")
	}
	if cols := r.Columns.withDefaults(); cols.Step == "" && cols.Status == "" {
		return fmt.Errorf("eventlog: no column gives the step: %s; every event needs a step, from a step or a status column", noStepWhy(r.Columns))
	}
	return r.checkArrivals()
}

// noStepWhy says why c reads no step column and no status column (see
// withDefaults), for check's error.
func noStepWhy(c Columns) string {
	step := "Columns.Step is NoColumn"
	if c.Step == "" {
		step = `the column "step" is named for another role`
	}
	return step + ", and Columns.Status is NoColumn"
}

// checkArrivals returns the error of an invalid option of arrivals.
func (r Reader) checkArrivals() error {
	switch {
	case r.AtFormat < Rounds || r.AtFormat > UnixNS:
		return fmt.Errorf("eventlog: unknown %v", r.AtFormat)
	case r.AtFormat.timestamp() && r.Resolution == 0:
		return fmt.Errorf("eventlog: AtFormat %v needs a Resolution, the length of one round", r.AtFormat)
	case r.Reorder < 0:
		return fmt.Errorf("eventlog: Reorder is %v; want 0 (arrivals in order) or more", r.Reorder)
	case r.Reorder > 0 && r.Resolution == 0:
		return errors.New("eventlog: Reorder needs a Resolution: a window of time over arrivals in whole rounds has no length")
	case r.Columns.At == NoColumn && r.AtFormat.timestamp():
		return fmt.Errorf("eventlog: AtFormat %v reads arrivals from a column, and Columns.At is NoColumn", r.AtFormat)
	case r.Columns.At == NoColumn && r.Reorder > 0:
		return errors.New("eventlog: Reorder sorts arrivals, and Columns.At is NoColumn: there are none")
	case r.DropLate && r.Reorder == 0:
		return errors.New("eventlog: DropLate needs a Reorder window")
	case r.MaxReorderBytes < 0:
		return fmt.Errorf("eventlog: MaxReorderBytes is %d; want 0 (the default, %d) or more", r.MaxReorderBytes, DefaultMaxReorderBytes)
	}
	return nil
}

// Next returns the next event. At the end of the trace it returns io.EOF;
// any other error is an [*Error] and ends the stream: every later call
// returns it again.
func (d *Decoder) Next() (konvoy.Event, error) {
	if d.err != nil {
		return konvoy.Event{}, d.err
	}
	if !d.started {
		d.started = true
		if err := d.start(); err != nil {
			d.err = err
			return konvoy.Event{}, err
		}
	}
	e, err := d.next()
	if err != nil {
		d.err = err
	}
	return e, err
}

// record reads the next record: its event, with its arrival in ticks (see
// readAt), or io.EOF.
func (d *Decoder) record() (arrival, error) {
	var a arrival
	var err error
	rounded, statused := d.rounded, d.statused
	if d.format == CSV {
		a, err = d.nextCSV()
	} else {
		a, err = d.nextJSON()
	}
	a.rounded, a.statused = d.rounded-rounded, d.statused-statused
	a.seq = d.seq
	d.seq++
	return a, err
}

// Partitions tells whether the trace records each event's partition, in
// the partition column (see [Columns]): a CSV trace's header, or a JSON
// Lines trace's first record, says so, and a later record that says
// otherwise is an [*Error]. It is known once Next has returned an event.
func (d *Decoder) Partitions() bool {
	if d.csv != nil {
		return d.csv.part >= 0
	}
	return d.json != nil && d.json.hasPart > 0
}

// Dropped returns how many events arrived too late for the Reorder window
// and were dropped (see [Reader.DropLate]).
func (d *Decoder) Dropped() int { return d.dropped }

// All returns the rest of the trace as a stream: each event with a nil
// error, then, if the trace is bad, one zero Event with the [*Error], after
// which the stream ends. Stopping the loop early leaves the Decoder where it
// stopped.
func (d *Decoder) All() iter.Seq2[konvoy.Event, error] {
	return func(yield func(konvoy.Event, error) bool) {
		for {
			e, err := d.Next()
			if err == io.EOF {
				return
			}
			if !yield(e, err) || err != nil {
				return
			}
		}
	}
}

// Line returns the 1-based line where the record of the last event returned,
// or of the last error, starts; 0 before the first. With a Reorder window,
// it is the line of the event returned, not of the last record read.
func (d *Decoder) Line() int { return d.line }

// Format returns the trace's format, known once Next has been called.
func (d *Decoder) Format() Format { return d.format }

// Rounded returns how many durations and arrivals of the records read so
// far were rounded (see [Reader.Round]), but for those of events dropped
// as late ([Reader.DropLate]); under [Reader.Reorder] it may count a
// duration of an event the window still holds.
func (d *Decoder) Rounded() int { return d.rounded }

// StatusSteps returns how many records so far had their step from a
// status ([Reader.Steps], [Reader.History]) rather than a step column: 0,
// with statuses named, says the statuses went unused.
func (d *Decoder) StatusSteps() int { return d.statused }

// start refuses input that starts like a binary file (see [binaryStart]),
// skips a byte-order mark and settles the format.
func (d *Decoder) start() error {
	if what := binaryStart(d.br); what != "" {
		d.line = 1
		return d.lineErr("want a CSV or JSON Lines trace; the input starts with " + what)
	}
	if b, err := d.br.Peek(3); err == nil && string(b) == "\uFEFF" {
		d.br.Discard(3)
		d.offset = 3
	}
	if d.format == Auto {
		if f, ok := FormatOf(d.opt.Name); ok {
			d.format = f
		} else if d.format = d.sniff(); d.format == Auto {
			d.line = 1
			return d.lineErr(fmt.Sprintf("want the trace's first record within its first %d bytes, to tell its format by; the input starts with more blank space: name the format, -input csv or jsonl (Reader.Format)", bufferSize))
		}
	}
	if d.format == CSV {
		looksJSON := d.opt.Format == Auto && d.sniff() == JSONL // a .csv file of JSON Lines
		err := d.startCSV()
		if e, ok := err.(*Error); ok && looksJSON {
			e.Want += "; the input looks like JSON Lines, which -input jsonl reads"
		}
		return err
	}
	d.looksCSV = d.opt.Format == Auto && d.startsLikeCSV() // a .jsonl file of CSV: see nextJSON
	d.json = newJSONState(d.cols, d.named)
	return nil
}

// stickyReader returns the first error of its reader, io.EOF included, to
// every later call: a bufio.Reader hands an error to one call only, and some
// readers, such as a terminal, give more data after an end of file.
type stickyReader struct {
	r   io.Reader
	err error
}

func (s *stickyReader) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.r.Read(p)
	s.err = err
	return n, err
}

// sniff tells the format from the first byte that is not white space, or
// returns Auto when the read buffer holds none but white space.
func (d *Decoder) sniff() Format {
	for n := 1; ; n++ {
		b, err := d.br.Peek(n)
		if errors.Is(err, bufio.ErrBufferFull) {
			return Auto
		}
		if len(b) < n {
			return CSV
		}
		switch b[n-1] {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return JSONL
		}
		return CSV
	}
}

// startsLikeCSV tells whether the input's first non-blank line, within
// the read buffer, looks like a CSV header or row: it has a comma, and
// starts with no '{' or '[' and holds no NUL byte.
func (d *Decoder) startsLikeCSV() bool {
	b, _ := d.br.Peek(bufferSize)
	for {
		line, rest, _ := bytes.Cut(b, []byte("\n"))
		line = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(line), []byte("\uFEFF"))) // a stray byte-order mark before a JSON object is no CSV
		switch {
		case len(line) == 0 && len(rest) > 0:
			b = rest
			continue
		case len(line) == 0 || line[0] == '{' || line[0] == '[' || bytes.IndexByte(line, 0) >= 0:
			return false
		}
		return bytes.IndexByte(line, ',') >= 0
	}
}

// readErr wraps an error from the underlying reader, met in the record that
// starts at line.
func (d *Decoder) readErr(line int, err error) *Error {
	d.line = line
	return &Error{File: d.name, Line: line, Want: "reading", Err: err}
}

// fieldErr is a problem with one value.
func (d *Decoder) fieldErr(field, value, want string) *Error {
	return &Error{File: d.name, Line: d.line, Field: field, Value: value, Want: want}
}

// drawn returns the next duration drawn from Reader.Durations for the
// record at d.line, or the error of a draw past synth.MaxDuration.
func (d *Decoder) drawn() (int, error) {
	n, ok := d.draw()
	if !ok {
		return 0, d.lineErr(fmt.Sprintf("want a duration of at most %d rounds (synth.MaxDuration); the one drawn for this event from %v (Reader.Durations) passes it",
			synth.MaxDuration, d.opt.Durations))
	}
	return n, nil
}

// csvFieldErr is a problem with the value in column i, counted from 0, of
// a CSV row.
func (d *Decoder) csvFieldErr(i int, value, want string) *Error {
	e := d.fieldErr(d.csv.header[i], value, want)
	e.Column = i + 1
	return e
}

// inColumn records on err, when it is an *Error, that the problem is in
// column i, counted from 0, of a CSV row, and returns err.
func inColumn(err error, i int) error {
	if e, ok := err.(*Error); ok {
		e.Column = i + 1
	}
	return err
}

// lineErr is a problem with the whole record.
func (d *Decoder) lineErr(want string) *Error {
	return &Error{File: d.name, Line: d.line, Want: want}
}

// tooLongErr is the problem with a record, starting at line, that is longer
// than the decoder accepts.
func (d *Decoder) tooLongErr(line int) *Error {
	return &Error{File: d.name, Line: line,
		Want: fmt.Sprintf("want a record of at most %d bytes (Reader.MaxRecordBytes); this one is longer", d.maxBytes)}
}

// nameValue returns the key or line value, of the field named field, as a string
// of its own, so that one kept by a consumer of the stream does not keep
// the whole record alive: the one it returned last time, in *last, when the
// two are equal, as a hot key's are. A value longer than maxName is an
// error.
func (d *Decoder) nameValue(field, value string, last *string) (string, error) {
	if len(value) > d.maxName {
		return "", d.fieldErr(field, value, fmt.Sprintf("want at most %d bytes (Reader.MaxNameBytes); it has %d", d.maxName, len(value)))
	}
	if value != *last {
		*last = strings.Clone(value)
	}
	return *last, nil
}

// orNone returns want, what a value of an optional role's column must
// be, and, when the column is the role's default (named is false) and the
// value does not start as a number does (see numberLike), how to read no
// column for the role: a column of that name may mean something else,
// such as a "partition" column of regions ("eu-west-1"). role names the
// role as an event's, and flag as konvoy's command does.
func orNone(want, value, role, flag string, named bool) string {
	if named || numberLike(value) {
		return want
	}
	return fmt.Sprintf("%s; if this column is not the %s, -%s - (NoColumn) reads none", want, role, flag)
}

// numberLike tells whether s, spaces and a quote before it aside, starts
// as a number, a duration or a timestamp does: with a digit, or a sign or
// a point before one ("-1", "1e400", "150ms", "2024-05-01T12:00:00Z"). A
// value that does, but is not of the kind a column wants, means the role
// all the same.
func numberLike(s string) bool {
	s = strings.TrimPrefix(strings.TrimSpace(s), `"`)
	s = strings.TrimLeft(s, "+-.")
	return s != "" && s[0] >= '0' && s[0] <= '9'
}

// stepWant returns want, what a step must be, for value, a bad step in
// the step column: as orNone says, but, for a value that is a status the
// options name, that the column holds statuses, which -status STEP reads
// (-step - would leave no column for them but a status column).
func (d *Decoder) stepWant(want, value string) string {
	if _, ok := d.statuses[strings.Trim(value, `"`)]; ok && d.opt.Columns.Step == "" {
		return fmt.Sprintf("%s; it is a status -steps or -history names: -status %s reads this column's statuses", want, d.cols.Step)
	}
	return orNone(want, value, "step", "step", d.opt.Columns.Step != "")
}

// atNamed tells whether the options name the arrival column as one, by
// its name or by a timestamp format for it, for orNone.
func (d *Decoder) atNamed() bool { return d.opt.Columns.At != "" || d.opt.AtFormat != Rounds }

// unknownStatus describes what an unknown status should have been.
func (d *Decoder) unknownStatus() string {
	switch {
	case len(d.opt.Steps) > 0 || len(d.opt.History) > 0:
	case d.cols.Step == "":
		return "want the statuses named as ordered (-steps) or history (-history); none are named, and no step column is read"
	default:
		return fmt.Sprintf("want a column %q of whole numbers, or the statuses named as ordered (-steps) or history (-history); none are named", d.cols.Step)
	}
	return "want an ordered status (-steps: " + list(d.opt.Steps) + ") or a history status (-history: " + list(d.opt.History) + ")"
}

// reads tells whether the decoder reads the column of index f, in
// Columns' order (key, line, status, step, duration, at, partition),
// given whether the header or record has a step column: a status only
// without one, a duration only when durations are not drawn. A column it
// does not read may be named twice.
func (d *Decoder) reads(f int, hasStep bool) bool {
	switch f {
	case statusField:
		return !hasStep
	case durationField:
		return d.draw == nil
	}
	return true
}

// statusField and durationField are the places of the status and the
// duration among the columns, in Columns' order, as reads counts them.
const (
	statusField   = 2
	durationField = 4
)

// list names up to eight statuses, quoting one with spaces at its ends,
// a comma or nothing, which would read as another.
func list(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	shown := make([]string, 0, min(len(s), 8))
	for _, v := range s[:min(len(s), 8)] {
		if v != strings.TrimSpace(v) || v == "" || strings.Contains(v, ",") {
			v = strconv.Quote(v) // " paid", from -steps 'created, paid', is not paid
		}
		shown = append(shown, v)
	}
	if len(s) > 8 {
		shown = append(shown, "…")
	}
	return strings.Join(shown, ",")
}
