package eventlog

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sirali-konvoy/konvoy"
)

// Writer writes events as a trace that a zero [Reader] reads back to the
// same events: CSV with the header key,line,step,duration,at, or JSON Lines
// objects with the fields key, line, step, duration and at. Durations and
// arrivals are written in whole rounds.
//
// CSV reads a CRLF inside a value as a newline, so a value holding one does
// not survive a trip through CSV; a decoder refuses a NUL byte as binary
// data, so a CSV Writer rejects a key or line that holds one (JSON Lines
// writes it escaped, as \u0000); JSON Lines holds only UTF-8 text, so a
// JSONL Writer rejects a key or line that is not valid UTF-8. Values read
// from CSV never hold a CRLF or a NUL byte; values read from JSON Lines
// keep the bytes their strings hold, UTF-8 or not (as CSV keeps them), so
// one that is not UTF-8 goes back out through CSV only. A Writer rejects a key or line longer than
// [DefaultMaxNameBytes], which a zero Reader refuses. A record longer than
// [DefaultMaxRecordBytes] is written, but a zero Reader refuses it. An
// event's Partition is not written: it reads back as 0.
//
// A Writer buffers its output; call Flush at the end. It is not safe for
// concurrent use.
type Writer struct {
	format Format
	csv    *csv.Writer
	bw     *bufio.Writer
	header bool // the CSV header is written
	rec    []string
	buf    []byte
	err    error
}

// NewWriter returns a Writer of the given format, CSV or JSONL, to w. Any
// other format makes every Write fail.
func NewWriter(w io.Writer, f Format) *Writer {
	wr := &Writer{format: f}
	switch f {
	case CSV:
		wr.csv = csv.NewWriter(w)
		wr.rec = make([]string, 5)
	case JSONL:
		wr.bw = bufio.NewWriterSize(w, bufferSize)
	default:
		wr.err = fmt.Errorf("eventlog: NewWriter: format %v; want csv or jsonl", f)
	}
	return wr
}

// Write writes one event. It returns an error when the event is one a
// [Decoder] would reject (an empty Key, or a negative Step, Duration or
// Arrival, or a Key or Line longer than [DefaultMaxNameBytes]), when a CSV
// Writer is given a Key or Line that holds a NUL byte,
// when a JSONL Writer is given a Key or Line that is not valid UTF-8, or when
// writing fails; a failed write makes every later call fail.
func (w *Writer) Write(e konvoy.Event) error {
	if w.err != nil {
		return w.err
	}
	switch {
	case e.Key == "":
		return fmt.Errorf("eventlog: Write: empty Key")
	case e.Step < 0 || e.Duration < 0 || e.Arrival < 0:
		return fmt.Errorf("eventlog: Write: key %q: Step %d, Duration %d, Arrival %d; want each ≥ 0", e.Key, e.Step, e.Duration, e.Arrival)
	case len(e.Key) > DefaultMaxNameBytes || len(e.Line) > DefaultMaxNameBytes:
		return fmt.Errorf("eventlog: Write: a key of %d bytes, a line of %d; want at most %d each (DefaultMaxNameBytes), which a zero Reader reads", len(e.Key), len(e.Line), DefaultMaxNameBytes)
	case w.format == JSONL && !(utf8.ValidString(e.Key) && utf8.ValidString(e.Line)):
		return fmt.Errorf("eventlog: Write: key %q, line %q: JSON Lines holds only UTF-8 text", e.Key, e.Line)
	case w.format == CSV && (strings.IndexByte(e.Key, 0) >= 0 || strings.IndexByte(e.Line, 0) >= 0):
		return fmt.Errorf("eventlog: Write: key %q, line %q: a NUL byte in CSV is binary data, which a Decoder refuses", e.Key, e.Line)
	}
	if w.format == CSV {
		w.writeHeader()
		w.rec[0], w.rec[1] = e.Key, e.Line
		w.rec[2], w.rec[3], w.rec[4] = strconv.Itoa(e.Step), strconv.Itoa(e.Duration), strconv.Itoa(e.Arrival)
		w.err = w.csv.Write(w.rec)
		return w.err
	}
	b := append(w.buf[:0], `{"key":`...)
	b = appendString(b, e.Key)
	b = append(b, `,"line":`...)
	b = appendString(b, e.Line)
	b = append(b, `,"step":`...)
	b = strconv.AppendInt(b, int64(e.Step), 10)
	b = append(b, `,"duration":`...)
	b = strconv.AppendInt(b, int64(e.Duration), 10)
	b = append(b, `,"at":`...)
	b = strconv.AppendInt(b, int64(e.Arrival), 10)
	b = append(b, "}\n"...)
	w.buf = b
	_, w.err = w.bw.Write(b)
	return w.err
}

// Flush writes any buffered output, and the CSV header when no event was
// written, and reports any error so far.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if w.format == CSV {
		w.writeHeader()
		w.csv.Flush()
		w.err = w.csv.Error()
	} else {
		w.err = w.bw.Flush()
	}
	return w.err
}

func (w *Writer) writeHeader() {
	if !w.header {
		w.header = true
		w.err = w.csv.Write([]string{"key", "line", "step", "duration", "at"})
	}
}

// WriteAll writes every event of events to w in the format f, CSV or JSONL,
// and flushes; see [Writer]. The stream's first error stops it, after what
// came before is flushed, and is returned. It panics, with an "eventlog:"
// prefix, when events is nil.
func WriteAll(w io.Writer, f Format, events iter.Seq2[konvoy.Event, error]) error {
	if events == nil {
		panic("eventlog: WriteAll: events is nil")
	}
	wr := NewWriter(w, f)
	for e, err := range events {
		if err == nil {
			err = wr.Write(e)
		}
		if err != nil {
			wr.Flush() // what came before, whose own error would come second
			return err
		}
	}
	return wr.Flush()
}

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			q, _ := json.Marshal(s) // a string always marshals; s is valid UTF-8
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
