package replay

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/runs"
)

// spoolPattern names a replay's temporary files, as os.CreateTemp reads a
// pattern. Where the system lets an open file be removed, as Unix does, a
// file is removed as soon as it is made and read through its descriptor, so
// that nothing is left behind however the process ends.
const spoolPattern = "konvoy-replay-*.spool"

// tempFile is a temporary file, removed at once where the system allows.
type tempFile struct {
	*os.File
	named bool // not removed yet: Close removes it
}

// newTempFile makes a temporary file and removes its name where it can.
func newTempFile() (*tempFile, error) {
	f, err := os.CreateTemp("", spoolPattern)
	if err != nil {
		return nil, fmt.Errorf("replay: a temporary file: %w", err)
	}
	return &tempFile{File: f, named: os.Remove(f.Name()) != nil}, nil
}

// Close closes the file, and removes it if its name was left.
func (f *tempFile) Close() error {
	err := f.File.Close()
	if f.named {
		os.Remove(f.Name())
	}
	return err
}

// Trace is a trace read once and checked, kept on disk for a replay: the
// events in trace order, some 10 to 30 bytes each with their key and line
// and the line of the trace each was read at,
// in a temporary file (on a tmpfs, memory), so that a replay's memory
// grows with its keys and the events it holds at once, never with the
// trace's length, and standard input can be read more than once. A Trace
// must be closed.
type Trace struct {
	Name       string // as errors and the comparison name it ("<stdin>" for standard input)
	Events     int    // how many
	Partitions bool   // whether the trace records each event's partition
	Dropped    int    // events the reader dropped as late (-late drop), not in Events
	Rounded    int    // durations and arrivals the reader rounded to whole rounds (-round)
	// Layout is the layout the trace was checked under, and is to be
	// replayed under: the Config's, or, for runs.RecordedFromTrace, the
	// layout recorded of as many partitions as the trace's highest plus
	// one (see Load).
	Layout konvoy.Layout
	// StatusSteps is how many events had their step from a status
	// (Reader.Steps, Reader.History) rather than the step column.
	StatusSteps int
	file        *tempFile
	size        int64
	// names are the long keys and lines as the trace was read, which the
	// events read back share (see readString) rather than each holding a
	// copy: a replay holds thousands at once, in the executor and the
	// predictions.
	names runs.LongNames
}

// Load reads the trace r names (standard input, stdin, for "-") into a
// Trace, checking as it goes that c's simulator takes each event, in
// arrival order: an event that arrives before the one before it is an
// error naming its line (Reader.Reorder sorts arrivals within a window,
// in bounded memory, for a trace that is nearly in order). Errors name the
// trace and the line of a bad record or event; under the layout recorded,
// a trace that records no partitions is an error at its first line, and a
// trace whose prediction outgrows c.MaxBacklog is an error at the event
// that outgrew it, before anything runs. Load holds no events in memory,
// only the simulator's keys and lanes and its backlog, at most
// c.MaxBacklog events (unbounded for 0). Under runs.RecordedFromTrace,
// the layout recorded without its count (-layout recorded), Load first
// reads the trace in a pass of its own to find its highest partition, as
// konvoy -layouts recorded does, and checks and keeps the trace under the
// layout recorded of that many partitions plus one (Trace.Layout); a
// trace that streams, standard input or a file that is not a regular one
// (a named pipe, /dev/stdin), is then opened once and copied to a
// temporary file as it is first read.
func Load(r eventlog.Reader, stdin io.Reader, c Config) (*Trace, error) {
	fromTrace := c.Layout.Equal(runs.RecordedFromTrace)
	name, source, closeSource, err := openSource(r, stdin, fromTrace)
	if err != nil {
		return nil, err
	}
	defer closeSource()
	if fromTrace {
		if c.Layout, err = recordedOf(name, r, source); err != nil {
			return nil, err
		}
	}
	w, err := newTraceWriter(name, c)
	if err != nil {
		return nil, err
	}
	recorded := c.Layout.Partitions() > 0 && c.Layout.Equal(konvoy.Recorded(c.Layout.Partitions()))
	err = source.Scan(0, w.scanned(name, r, source, recorded))
	if err == nil {
		err = w.finish()
	}
	if err == nil && w.t.Events == 0 && recorded && !source.Partitions() {
		err = runs.NoPartitions(name, r)
	}
	if err != nil {
		w.t.Close()
		return nil, err
	}
	w.t.Partitions, w.t.Dropped, w.t.Rounded, w.t.StatusSteps = source.Partitions(), source.Dropped(), source.Rounded(), source.StatusSteps()
	return w.t, nil
}

// openSource returns the trace r names, as Load reads it, and the name
// its errors give: standard input for "-", read as it streams; and, when
// twice is true (a pass to count its partitions before Load's), a trace
// that streams, standard input or a file that is not a regular one,
// opened once and copied to a temporary file as it is first read. The
// function returned closes what it opened.
func openSource(r eventlog.Reader, stdin io.Reader, twice bool) (string, *eventlog.Trace, func(), error) {
	name, closeAll := r.Name, func() {}
	var in io.Reader // a trace read as it streams
	switch {
	case r.Name == "-":
		name, in = "<stdin>", stdin
	case twice && !regular(r.Name):
		f, err := os.Open(r.Name)
		if err != nil {
			return "", nil, nil, err
		}
		in, closeAll = f, func() { f.Close() }
	default:
		return name, eventlog.NewTrace(r.Name, r), closeAll, nil
	}
	open := func() (io.Reader, error) { return in, nil }
	if twice {
		copied := runs.NewReread(in, true, func() (*os.File, error) {
			f, err := newTempFile()
			if err != nil {
				return nil, err
			}
			return f.File, nil
		}, func(string) {}) // removed once made, where the system allows (see newTempFile)
		closeFile := closeAll
		open, closeAll = copied.Open, func() { copied.Close(); closeFile() }
	}
	return name, eventlog.NewTraceOf(func() (io.ReadCloser, error) {
		in, err := open()
		return io.NopCloser(in), err
	}, r), closeAll, nil
}

// recordedOf returns the layout recorded of as many partitions as the
// highest partition of the events of source (the trace named name, read
// with r) plus one, reading it to its end; or the error of a bad record, or,
// when the trace records no partitions, runs.NoPartitions's at its line 1
// (see runs.NoPartitions). A trace with no events gives recorded:1, for Load to refuse as it
// refuses any empty trace.
func recordedOf(name string, r eventlog.Reader, source *eventlog.Trace) (konvoy.Layout, error) {
	most := 0
	err := source.Scan(0, func(e konvoy.Event, line int) error {
		if !source.Partitions() {
			return runs.NoPartitions(name, r)
		}
		most = max(most, e.Partition)
		return nil
	})
	if err != nil {
		return konvoy.Layout{}, err
	}
	return konvoy.Recorded(most + 1), nil
}

// TraceOf keeps events as a Trace named name, checked as Load checks a
// trace's, for a program (or a test) that holds its events already.
func TraceOf(name string, events []konvoy.Event, c Config) (*Trace, error) {
	w, err := newTraceWriter(name, c)
	if err != nil {
		return nil, err
	}
	for _, e := range events {
		if err = w.add(e); err != nil {
			break
		}
	}
	if err == nil {
		err = w.finish()
	}
	if err != nil {
		w.t.Close()
		return nil, err
	}
	return w.t, nil
}

// traceWriter writes a Trace and checks its events.
type traceWriter struct {
	t          *Trace
	c          Config
	w          *bufio.Writer
	sim        *konvoy.Simulator
	work, last float64 // rounds, for the check that the replay's times fit a time.Duration
	buf        []byte
	// Under c.MaxNameBytes, the keys and lines seen, and what they take.
	names eventlog.Stats
	room  runs.NameRoom
	// line is the line of the event add writes, which it keeps beside it,
	// to name the line of an event the run fails at once all are read; 0
	// for TraceOf's events, which have none.
	line int
}

// scanned returns Load's function for each event of source, the trace
// named name read by r: it adds the event to w, or returns the event's
// error after FILE:LINE; under the layout recorded (recorded), a trace
// without partitions is an error at its line 1, as konvoy -events says
// it (see runs.NoPartitions).
func (w *traceWriter) scanned(name string, r eventlog.Reader, source *eventlog.Trace, recorded bool) func(konvoy.Event, int) error {
	return func(e konvoy.Event, line int) error {
		if w.t.Events == 0 && recorded && !source.Partitions() {
			return runs.NoPartitions(name, r)
		}
		w.line = line
		err := w.add(e)
		if err == nil {
			return nil
		}
		// The event's message after FILE:LINE, without the simulator's
		// "konvoy: ", as konvoy -events and plan write it.
		located := runs.Located{Where: fmt.Sprintf("%s:%d", name, line), Err: err}
		if errors.Is(err, konvoy.ErrOrder) && r.Reorder == 0 {
			return fmt.Errorf("%w (-reorder WINDOW sorts arrivals within a window of time)", located)
		}
		return located
	}
}

// newTraceWriter starts a Trace named name for c.
func newTraceWriter(name string, c Config) (*traceWriter, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	sim, err := konvoy.NewSimulator(c.Layout, c.Consumers, c.options()...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f, err := newTempFile()
	if err != nil {
		return nil, err
	}
	return &traceWriter{t: &Trace{Name: name, Layout: c.Layout, file: f, names: runs.LongNames{}}, c: c, w: bufio.NewWriterSize(f, 1<<16), sim: sim}, nil
}

// add checks e and writes it.
func (w *traceWriter) add(e konvoy.Event) error {
	if w.c.Text && !(utf8.ValidString(e.Key) && utf8.ValidString(e.Line)) {
		return fmt.Errorf("key %q, line %q: want UTF-8 text: -applied writes JSON, whose strings hold nothing else", e.Key, e.Line)
	}
	// The replay's own bound first: the simulator's, far above it, named
	// a duration the replay then refused too (found by a review).
	work, last := w.work+float64(e.Duration), float64(e.Arrival)
	if err := tooLong(last, work, w.c.Unit); err != nil {
		return err
	}
	if err := w.sim.Add(e); err != nil {
		return err
	}
	if err := w.countNames(e); err != nil {
		return err
	}
	w.t.names.Keep(e.Key)
	w.t.names.Keep(e.Line)
	w.work, w.last = work, last
	b := w.buf[:0]
	b = binary.AppendUvarint(b, uint64(len(e.Key)))
	b = append(b, e.Key...)
	b = binary.AppendUvarint(b, uint64(len(e.Line)))
	b = append(b, e.Line...)
	for _, v := range [...]int{e.Step, e.Duration, e.Arrival, e.Partition} {
		b = binary.AppendVarint(b, int64(v))
	}
	b = binary.AppendUvarint(b, uint64(max(w.line, 0)))
	w.buf = b
	if _, err := w.w.Write(b); err != nil {
		return fmt.Errorf("replay: writing the trace to a temporary file: %w", err)
	}
	w.t.Events++
	return nil
}

// countNames counts e's key and line, each the first time, under
// c.MaxNameBytes, and returns an error once they take more.
func (w *traceWriter) countNames(e konvoy.Event) error {
	if w.c.MaxNameBytes <= 0 {
		return nil
	}
	w.room.Most, w.room.Each = w.c.MaxNameBytes, KeyBytes
	keys, lines := w.names.Keys(), w.names.Lines()
	w.names.Add(e)
	if !w.room.Add(e.Key, e.Line, w.names.Keys() > keys, w.names.Lines() > lines) {
		return fmt.Errorf("the keys and lines so far take some %d bytes with their names, more than the %d they may (MaxNameBytes): the predictions hold them all", w.room.Took(), w.c.MaxNameBytes)
	}
	return nil
}

// finish ends the writing: an error for no events, or for a run the
// simulator fails at its end, after the trace's name and, when it names an
// event read with its line, that line, read back from the trace's file.
func (w *traceWriter) finish() error {
	if w.t.Events == 0 {
		return fmt.Errorf("%s: the trace holds no events; want at least one", w.t.Name)
	}
	if _, err := w.sim.Result(); err != nil {
		var ee *konvoy.EventError
		if errors.As(err, &ee) && ee.Index >= 0 && ee.Index < w.t.Events && w.end() == nil {
			if line, lerr := w.t.lineOf(ee.Index); lerr == nil && line > 0 {
				return runs.Located{Where: fmt.Sprintf("%s:%d", w.t.Name, line), Err: err}
			}
		}
		return runs.Located{Where: w.t.Name, Err: err}
	}
	return w.end()
}

// end ends the writing of the events written, none or more.
func (w *traceWriter) end() error {
	if err := w.w.Flush(); err != nil {
		return fmt.Errorf("replay: writing the trace to a temporary file: %w", err)
	}
	size, err := w.t.file.Seek(0, io.SeekCurrent)
	w.t.size = size
	return err
}

// Close removes the trace's file.
func (t *Trace) Close() error { return t.file.Close() }

// each calls f with each of the first n events in trace order, with its
// index, until f returns false. Readers of a Trace may run at once.
func (t *Trace) each(n int, f func(i int, e konvoy.Event) bool) error {
	r := bufio.NewReaderSize(io.NewSectionReader(t.file, 0, t.size), 1<<16)
	var buf []byte
	for i := range min(n, t.Events) {
		e, _, err := readEvent(r, &buf, t.names)
		if err != nil {
			return fmt.Errorf("replay: reading the trace back from its temporary file, event %d: %w", i, err)
		}
		if !f(i, e) {
			return nil
		}
	}
	return nil
}

// lineOf returns the line event i was read at, 0 for an event given
// without one (TraceOf), reading the file up to it: O(i) time.
func (t *Trace) lineOf(i int) (int, error) {
	r := bufio.NewReaderSize(io.NewSectionReader(t.file, 0, t.size), 1<<16)
	var buf []byte
	for j := 0; ; j++ {
		_, line, err := readEvent(r, &buf, t.names)
		if err != nil || j == i {
			return line, err
		}
	}
}

// errCorrupt is the error of a temporary file that does not hold what was
// written to it.
var errCorrupt = errors.New("a value out of range: the file changed")

// readEvent reads one event as traceWriter.add wrote it, its key and
// line as readString reads them, and the line of the trace it was read
// at (0 for none).
func readEvent(r *bufio.Reader, buf *[]byte, names runs.LongNames) (konvoy.Event, int, error) {
	var e konvoy.Event
	var err error
	if e.Key, err = readString(r, buf, names); err != nil {
		return e, 0, err
	}
	if e.Line, err = readString(r, buf, names); err != nil {
		return e, 0, err
	}
	for _, p := range [...]*int{&e.Step, &e.Duration, &e.Arrival, &e.Partition} {
		v, err := binary.ReadVarint(r)
		if err != nil {
			return e, 0, err
		}
		if v < math.MinInt || v > math.MaxInt {
			return e, 0, errCorrupt
		}
		*p = int(v)
	}
	line, err := binary.ReadUvarint(r)
	if err == nil && line > math.MaxInt {
		err = errCorrupt
	}
	return e, int(line), err
}

// readString reads a length and as many bytes, into buf, and returns
// them as the long name of names they spell, or as a new string.
func readString(r *bufio.Reader, buf *[]byte, names runs.LongNames) (string, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return "", err
	}
	if n > math.MaxInt32 {
		return "", errCorrupt
	}
	b := slices.Grow((*buf)[:0], int(n))[:n]
	*buf = b
	if _, err = io.ReadFull(r, b); err != nil {
		return "", err
	}
	return names.Spelled(b), nil
}

// tooLong returns the error of a trace whose events, to one arriving at
// round last, its work and theirs summed in work, would take longer than
// maxReplay in rounds of unit; nil when they fit. The rounds are named
// exactly up to 2^53, and to 4 digits past it, where a float64 sum of
// whole numbers may be off.
func tooLong(last, work float64, unit time.Duration) error {
	if (last+work)*float64(unit) > float64(maxReplay) {
		n := fmt.Sprintf("%.0f", last+work)
		if last+work > 1<<53 {
			n = fmt.Sprintf("about %.4g", last+work)
		}
		return fmt.Errorf("replay: %s rounds of %v each, to this event, take longer than a replay can: want at most %v in all, half the longest time.Duration", n, unit, maxReplay)
	}
	return nil
}

// maxReplay is the longest a replay's events may take, arrivals and work
// in all: half the longest time.Duration, so that sums of its times have
// room to spare.
const maxReplay = time.Duration(math.MaxInt64 / 2)

// regular tells whether path names a regular file, which can be read
// again; false when it does not stat.
func regular(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
