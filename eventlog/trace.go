package eventlog

import (
	byteorder "encoding/binary"
	"fmt"
	"hash/maphash"
	"io"
	"iter"
	"os"
	"reflect"

	"github.com/sirali-konvoy/konvoy"
)

// Trace is a trace file that a program reads many times, as
// konvoy.PlanConsumers ranges over its stream once for every consumer count
// it tries. [Trace.Scan] reads it once, holding its events in memory when
// they fit in a budget; [Trace.Events] then yields them again and again,
// from memory, or from the file read afresh each time when they did not
// fit, in memory that grows with the trace's keys, not its events.
type Trace struct {
	openRaw    func() (io.ReadCloser, error) // the trace from its start, as stored
	reader     Reader
	held       [][]konvoy.Event // the events, in chunks, when holding
	holding    bool
	rounded    int
	dropped    int
	statused   int
	partitions bool
	scanned    int // the events the last Scan read, -1 before one
	seed       maphash.Seed
	digest     uint64 // a hash of the events the last Scan read (see digester)
}

// heldChunk is the most events a Trace holds in one slice: held events are
// never copied as they grow, and a chunk is no larger than what is left of
// the budget, so holding costs what it holds.
const heldChunk = 4096

// eventBytes is what an event takes in memory, its key and line aside.
var eventBytes = int(reflect.TypeFor[konvoy.Event]().Size())

// NewTrace returns the trace in the file at path, to be read, gzipped or
// not, with the options of r, whose Name names the trace in errors: a copy
// of standard input can keep the name "-". It reads nothing yet.
func NewTrace(path string, r Reader) *Trace {
	return NewTraceOf(func() (io.ReadCloser, error) { return os.Open(path) }, r)
}

// NewTraceOf returns the trace that open opens, from its start, each time
// it is read, gzipped or not, with the options of r, whose Name names the
// trace in errors: standard input, say, copied as it is first read, so
// that a bad record stops the reading at once. The trace is read as
// [NewTrace]'s file is, open's errors as the file's. It reads nothing yet.
func NewTraceOf(open func() (io.ReadCloser, error), r Reader) *Trace {
	return &Trace{openRaw: open, reader: r, scanned: -1, seed: maphash.MakeSeed()}
}

// Scan reads the whole trace from its file, calling f, unless nil, with
// each event and the line where its record starts, and holds the events
// while they take at most maxBytes bytes: the size of an event each, and
// each distinct key and line once, give or take 64 bytes, as
// [Trace.Events] then yields them. It returns the first error: the file's
// when it cannot be opened, an [*Error] for the trace's content, or the
// error f returns, as f returns it, which stops the reading.
func (t *Trace) Scan(maxBytes int, f func(e konvoy.Event, line int) error) error {
	t.held, t.holding, t.rounded, t.dropped, t.statused, t.partitions, t.scanned = nil, false, 0, 0, 0, false, -1
	dec, closeAll, err := t.open()
	if err != nil {
		return err
	}
	defer closeAll()
	h := holder{budget: maxBytes, names: make(map[string]string)}
	n := 0
	d := t.digester()
	for e, err := range dec.All() {
		if err != nil {
			return err
		}
		n++
		d.add(e)
		t.partitions = dec.Partitions() // known from the first event on: see Partitions
		if f != nil {
			if err := f(e, dec.Line()); err != nil {
				return err
			}
		}
		h.hold(e)
	}
	t.held, t.holding, t.rounded, t.dropped, t.partitions, t.scanned = h.events, !h.over, dec.Rounded(), dec.Dropped(), dec.Partitions(), n
	t.digest = d.Sum64()
	t.statused = dec.StatusSteps()
	return nil
}

// StatusSteps returns how many events the last Scan read had their step
// from a status (see [Decoder.StatusSteps]).
func (t *Trace) StatusSteps() int { return t.statused }

// Rounded returns how many durations and arrivals the last Scan rounded
// (see [Reader.Round]).
func (t *Trace) Rounded() int { return t.rounded }

// Dropped returns how many events the last Scan dropped as late (see
// [Reader.DropLate]): events it neither held nor passed to its function.
func (t *Trace) Dropped() int { return t.dropped }

// Partitions tells whether the trace the last Scan read records each
// event's partition (see [Decoder.Partitions]); during a Scan, from its
// first event on, whether the trace does.
func (t *Trace) Partitions() bool { return t.partitions }

// Events returns the trace as a stream that can be ranged over any number
// of times, by several goroutines at once: the events the last Scan held,
// or else the file, opened and read afresh each time, whose errors, such
// as those of a file that changed since, end the stream; so does an
// [*Error] when the file yields more or fewer events than Scan read, or,
// after its last event, other events (a file rewritten in place: a hash
// of the events, computed as they are read, tells). Scan must not run
// while the stream is ranged over.
func (t *Trace) Events() iter.Seq2[konvoy.Event, error] {
	return func(yield func(konvoy.Event, error) bool) {
		if t.holding {
			for _, chunk := range t.held {
				for _, e := range chunk {
					if !yield(e, nil) {
						return
					}
				}
			}
			return
		}
		t.reread(yield)
	}
}

// reread yields the trace read afresh from its file, as Events says.
func (t *Trace) reread(yield func(konvoy.Event, error) bool) {
	dec, closeAll, err := t.open()
	if err != nil {
		yield(konvoy.Event{}, err)
		return
	}
	defer closeAll()
	n := 0
	d := t.digester()
	for e, err := range dec.All() {
		if n++; err == nil && t.scanned >= 0 && n > t.scanned {
			err = t.changed(dec.Line(), "more")
		}
		d.add(e)
		if !yield(e, err) || err != nil {
			return
		}
	}
	switch {
	case t.scanned >= 0 && n < t.scanned:
		yield(konvoy.Event{}, t.changed(0, "fewer"))
	case t.scanned >= 0 && d.Sum64() != t.digest:
		yield(konvoy.Event{}, &Error{File: t.reader.displayName(),
			Want: fmt.Sprintf("want the %d events the trace had when first read; it has as many, but other events now", t.scanned)})
	}
}

// digester hashes the events of a read of the trace, in order: every
// field of each, so that a read that yields other events than Scan did
// has another hash, but for a collision of 64-bit hashes. It takes O(1)
// memory, and time in proportion to the events' bytes.
type digester struct{ maphash.Hash }

// digester returns a digester of t's reads, all seeded alike.
func (t *Trace) digester() *digester {
	d := &digester{}
	d.SetSeed(t.seed)
	return d
}

// add hashes e: its key and line, each after its length, and its numbers.
func (d *digester) add(e konvoy.Event) {
	var b [8 * 6]byte
	byteorder.LittleEndian.PutUint64(b[0:], uint64(len(e.Key)))
	byteorder.LittleEndian.PutUint64(b[8:], uint64(len(e.Line)))
	byteorder.LittleEndian.PutUint64(b[16:], uint64(e.Step))
	byteorder.LittleEndian.PutUint64(b[24:], uint64(e.Duration))
	byteorder.LittleEndian.PutUint64(b[32:], uint64(e.Arrival))
	byteorder.LittleEndian.PutUint64(b[40:], uint64(e.Partition))
	d.Write(b[:])
	d.WriteString(e.Key)
	d.WriteString(e.Line)
}

// changed is the error, at line (0 for the whole trace), of a trace read
// afresh that yields more or fewer events than the last Scan read.
func (t *Trace) changed(line int, what string) *Error {
	return &Error{File: t.reader.displayName(), Line: line,
		Want: fmt.Sprintf("want the %d events the trace had when first read; it has %s now", t.scanned, what)}
}

// Line returns the line where the record of the event at index i (from 0,
// in the order Events yields them) starts, 0 when the trace has no such
// event or cannot be read: it reads the trace afresh up to that event, in
// O(i) time, for an error message about it.
func (t *Trace) Line(i int) int {
	dec, closeAll, err := t.open()
	if err != nil {
		return 0
	}
	defer closeAll()
	n := 0
	for _, err := range dec.All() {
		if err != nil {
			return 0
		}
		if n == i {
			return dec.Line()
		}
		n++
	}
	return 0
}

// open opens the trace afresh and returns its decoder and what closes it.
func (t *Trace) open() (*Decoder, func(), error) {
	f, err := t.openRaw()
	if err != nil {
		return nil, nil, err
	}
	src, err := Decompress(f)
	if err != nil {
		f.Close()
		return nil, nil, &Error{File: t.reader.displayName(), Err: err}
	}
	closeAll := func() { src.Close(); f.Close() }
	dec, err := NewDecoder(src, t.reader)
	if err != nil {
		closeAll()
		return nil, nil, err
	}
	return dec, closeAll, nil
}

// holder holds events within a budget of bytes, each distinct key and line
// once, in chunks of heldChunk, and gives them all up once they outgrow it.
type holder struct {
	events [][]konvoy.Event
	names  map[string]string // the keys and lines held, each by itself
	used   int
	budget int
	over   bool
}

// hold holds e, unless the events held, e included, would take more than
// the budget; then it holds none, from then on.
func (h *holder) hold(e konvoy.Event) {
	if h.over {
		return
	}
	e.Key, e.Line = h.name(e.Key), h.name(e.Line)
	h.used += eventBytes
	if h.used > h.budget {
		h.events, h.names, h.over = nil, nil, true
		return
	}
	if n := len(h.events); n == 0 || len(h.events[n-1]) == cap(h.events[n-1]) {
		// A chunk no larger than what is left of the budget, e included.
		room := min(heldChunk, (h.budget-h.used)/eventBytes+1)
		h.events = append(h.events, make([]konvoy.Event, 0, room))
	}
	last := &h.events[len(h.events)-1]
	*last = append(*last, e)
}

// name returns the held string equal to s, holding s if there is none.
func (h *holder) name(s string) string {
	if held, ok := h.names[s]; ok {
		return held
	}
	h.names[s] = s
	h.used += len(s) + 64 // the string and its entry in names, give or take
	return s
}
