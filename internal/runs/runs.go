// Package runs makes a report's runs, one per (layout, policy, consumers)
// triple, over a trace or the lesson's events, into the report.Trace that
// package report renders: what konvoy -events and konvoy serve both do, so
// that the command and the server print the same report for the same run.
package runs

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/report"
)

// LinesKept is how many of the last events read a trace's reader keeps the
// lines of, to name the line of an event a run fails at: one more than the
// 12,288 events konvoy.Sweep's doc says it reads, at most, past that event.
const LinesKept = 12_288 + 1

// MaxGanttEvents is the most events a run keeps the schedule of
// (Options.Gantt): beyond them a drawing stops being readable, and a run
// keeps its schedule in memory.
const MaxGanttEvents = 200

// RecordedFromTrace stands, in Options.Layouts, for the layout recorded of
// as many partitions as the trace's highest plus one, which Trace finds in
// a pass of its own. It is a layout of its own, named "recorded", equal to
// no layout that konvoy.ParseLayout gives, so that a count a user names,
// recorded:2147483647 among them, is never taken for it (it was
// Recorded(MaxPartitions), which a user could type, and then got the
// trace's count: found by a review); were it run, its lanes would be the
// recorded partitions.
var RecordedFromTrace = konvoy.NewLayout("recorded", func(e konvoy.Event) (string, bool) { return strconv.Itoa(e.Partition), true })

// Options are a report's runs and how its trace is read.
type Options struct {
	Name      string          // the trace as reports and errors name it
	Layouts   []konvoy.Layout // in report order; RecordedFromTrace may stand among them
	All       bool            // Layouts are all of them: recorded joins them when the trace has partitions
	Policies  []konvoy.Policy // the first is the report's
	Assignor  konvoy.Assignor // how static deals lanes, 0 for the default
	Consumers []int           // without repeats; the first is the first table's
	More      []int           // further consumer counts to run, for pictures
	Reader    eventlog.Reader // how the trace is read
	// MaxBacklog is the most events all runs may hold at once, shared
	// equally; 0 for no limit.
	MaxBacklog int
	// MaxMemory is the bytes all runs may take: three quarters for their
	// state, a quarter for the garbage collector, whose limit the process
	// sets once (LimitMemory); 0 for konvoy.DefaultMaxMemory. With a
	// Reader.Reorder window and no Reader.MaxReorderBytes, the window may
	// take half of the three quarters, and the runs the other half.
	MaxMemory int
	// Expected is about how many events the trace holds, 0 if unknown:
	// told it, a sweep's first pass does not start runs it could not
	// finish (konvoy.WithExpectedEvents). CountLines finds it for a trace
	// that can be read twice.
	Expected int
	Reseq    konvoy.ResequencerConfig
	Gantt    bool // the first policy's runs at the first count keep their schedules, at most MaxGanttEvents events
	// Check, when not nil, is asked about each event of the first pass,
	// with the number of events before it, before the event is counted:
	// an error stops the runs.
	Check func(e konvoy.Event, n int) error
	// Add, when not nil, is given each event of the first pass once
	// counted.
	Add func(e konvoy.Event)
}

// Source opens the trace for a pass, from its start, decompressed; pass 0
// finds the partitions of the layout recorded, and the passes of the runs
// are 1 and on. The function returned closes it.
type Source func(pass int) (io.Reader, func(), error)

// ErrNoEvents is every command's answer to a trace with no events, a header
// alone or nothing: there is nothing to measure or plan for, and a report
// of zeros would pass for one.
func ErrNoEvents(name string) error {
	return fmt.Errorf("%s: the trace holds no events; want at least one", name)
}

// Trace reads the trace that src opens, which konvoy.Sweep feeds to one
// run per (layout, policy, consumers) triple, in memory that grows with the
// trace's keys and lines, not its events, within o.MaxMemory: in one pass,
// or in more when the runs do not fit at once. A bad event is an error
// naming the trace's NAME:LINE; a run that alone outgrows the runs' memory
// is one wrapping konvoy.ErrMemory, to which the caller adds what its user
// can do (the command names -max-memory, the server cannot). ctx stops the
// runs.
func Trace(ctx context.Context, src Source, o Options) (*report.Trace, error) {
	runsMemory, window := Memory(o)
	if window > 0 {
		o.Reader.MaxReorderBytes = window
	}
	var err error
	if o.Layouts, err = recordedLayouts(ctx, src, o); err != nil {
		return nil, err
	}
	t := newTrace(o)
	if err := report.BacklogTooSmall("konvoy", o.MaxBacklog, runCount(t, o)); err != nil {
		return nil, err
	}
	configs := configs(t, o)
	r := &reader{t: t, o: o, src: src, lines: make([]int, LinesKept), names: LongNames{}}
	opts := []konvoy.SweepOption{konvoy.WithMaxMemory(runsMemory), konvoy.WithExpectedEvents(o.Expected)}
	t.Results, err = konvoy.Sweep(ctx, r.events, configs, opts...)
	var ev *konvoy.EventError
	switch {
	case errors.As(err, &ev):
		where := t.Name
		if line := r.lineOf(ev.Index); line > 0 {
			where = fmt.Sprintf("%s:%d", t.Name, line)
		}
		return nil, besideWindow(report.BacklogHint(Located{where, err}, o.MaxBacklog, len(configs)), window)
	case err != nil:
		return nil, besideWindow(report.BacklogHint(err, o.MaxBacklog, len(configs)), window)
	case t.Stats.Events() == 0:
		return nil, ErrNoEvents(t.Name)
	}
	t.Rounded, t.Dropped = r.rounded, r.dropped
	t.StatusesUnused = report.StatusesUnused(o.Reader, r.status)
	if o.Reader.Durations != nil {
		t.Modelled = o.Reader.Durations.String()
	}
	return t, nil
}

// Memory returns the bytes of o.MaxMemory (0: konvoy.DefaultMaxMemory)
// that Trace gives o's runs, konvoy.WithMaxMemory, and those it gives their
// Reader.Reorder window, Reader.MaxReorderBytes: the runs take three
// quarters, and the garbage collector the last quarter; with a window and
// no Reader.MaxReorderBytes the window takes half of the three quarters and
// the runs the other half, three eighths each. window is 0 when Trace sets
// no window's bound.
func Memory(o Options) (runsMemory, window int) {
	runsMemory = max(1, cmp.Or(o.MaxMemory, konvoy.DefaultMaxMemory)/4*3)
	if o.Reader.Reorder > 0 && o.Reader.MaxReorderBytes == 0 {
		// The reorder window holds events while the runs hold their
		// state: each may take half of the runs' memory.
		runsMemory, window = HalveForWindow(runsMemory)
	}
	return runsMemory, window
}

// HalveForWindow returns the halves of share bytes that a Reader.Reorder
// window takes, window, and what it leaves, left, each at least 1: the
// split of Memory, and of konvoy plan's and konvoy replay's shares.
func HalveForWindow(share int) (left, window int) {
	window = max(1, share/2)
	return max(1, share-window), window
}

// windowShare is the phrase in which the error of a run over the sweep's
// memory names its budget, in place of konvoy's " (WithMaxMemory)", when
// Trace gave half of the runs' memory to a Reorder window (see Memory): the
// budget is then not the share of Options.MaxMemory it would be without
// one. report.CommandWords and report.PageWords put it in their words.
const windowShare = " (WithMaxMemory, beside a Reorder window as large)"

// besideWindow returns err, when it is a run's over the sweep's memory
// (konvoy.ErrMemory) and a Reorder window of window bytes took half of the
// runs' memory, as an error whose message names that budget as
// windowShare does; it returns any other error as it is.
func besideWindow(err error, window int) error {
	if window == 0 || !errors.Is(err, konvoy.ErrMemory) {
		return err
	}
	return windowShared{err}
}

// WindowShared reports whether err is a run's over the sweep's memory
// (konvoy.ErrMemory) whose budget Trace had halved for a Reorder window (see
// Memory): what its caller tells the user to raise is then twice the runs'.
func WindowShared(err error) bool {
	var w windowShared
	return errors.As(err, &w)
}

// windowShared is a run's error over the sweep's memory that a Reorder
// window shared (see besideWindow).
type windowShared struct{ err error }

func (e windowShared) Error() string {
	return strings.Replace(e.err.Error(), " (WithMaxMemory)", windowShare, 1)
}

// Unwrap returns the run's error.
func (e windowShared) Unwrap() error { return e.err }

// Events makes the runs of o over events, a slice such as the lesson's,
// named o.Name: the report Trace makes of a trace holding them. o.Reader
// and o.Check are not used.
func Events(ctx context.Context, events []konvoy.Event, o Options) (*report.Trace, error) {
	t := newTrace(o)
	if len(events) == 0 {
		return nil, ErrNoEvents(t.Name)
	}
	for _, e := range events {
		t.Stats.Add(e)
		t.LastArrival = e.Arrival
		if o.Add != nil {
			o.Add(e)
		}
	}
	if err := report.BacklogTooSmall("konvoy", o.MaxBacklog, runCount(t, o)); err != nil {
		return nil, err
	}
	var err error
	t.Results, err = konvoy.Sweep(ctx, konvoy.Values(events), configs(t, o))
	if err != nil {
		return nil, err
	}
	return t, nil
}

// LimitMemory sets the garbage collector's limit of the whole process to
// maxMemory bytes (0: konvoy.DefaultMaxMemory), the memory Options.MaxMemory
// gives the runs, and returns the function that puts the limit back. The
// runs plan for three quarters of it, and the collector keeps the heap
// within the whole, working harder as it nears it, so that its headroom is
// the last quarter, not as much again as the runs hold. The limit is the
// process's, not a run's: a program calls LimitMemory once, as the command
// does before its runs and the server when it starts, never per request.
func LimitMemory(maxMemory int) (restore func()) {
	was := debug.SetMemoryLimit(int64(cmp.Or(maxMemory, konvoy.DefaultMaxMemory)))
	return func() { debug.SetMemoryLimit(was) }
}

// newTrace is the report of o's runs before they are made.
func newTrace(o Options) *report.Trace {
	t := &report.Trace{Name: o.Name, Layouts: o.Layouts, Policies: o.Policies, Consumers: o.Consumers[0],
		Counts: slices.Sorted(slices.Values(o.Consumers)), Unit: o.Reader.Resolution, Assignor: o.Assignor}
	t.Simulated = t.Counts
	if len(o.More) > 0 {
		t.Simulated = slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(t.Counts), o.More...))))
	}
	return t
}

// runCount returns how many runs configs makes.
func runCount(t *report.Trace, o Options) int {
	return len(t.Layouts) * len(o.Policies) * len(t.Simulated)
}

// configs returns one run per (layout, policy, consumers) triple, in that
// order, each holding at most its share of o.MaxBacklog; with o.Gantt the
// runs the schedule view draws keep their schedules.
func configs(t *report.Trace, o Options) []konvoy.Config {
	share := report.BacklogShare(o.MaxBacklog, runCount(t, o))
	var configs []konvoy.Config
	for _, l := range t.Layouts {
		for pi, p := range o.Policies {
			for _, c := range t.Simulated {
				opts := report.Dispatch(p, o.Assignor, konvoy.WithMaxBacklog(share), konvoy.WithResequencer(o.Reseq))
				if o.Gantt && pi == 0 && c == o.Consumers[0] {
					opts = append(opts, konvoy.WithSchedule(MaxGanttEvents))
				}
				configs = append(configs, konvoy.Config{Layout: l, Consumers: c, Options: opts})
			}
		}
	}
	return configs
}

// reader reads a trace for konvoy.Sweep, once a pass.
type reader struct {
	t       *report.Trace
	o       Options
	src     Source
	passes  int
	rounded int
	dropped int
	status  int   // events whose step came from a status
	lines   []int // the lines of the last events read, by input index
	read    int   // the events the last pass read
	names   LongNames
}

// events yields the trace's events, from the start, checked and counted
// on the first pass. lines keeps the lines of the last events read, enough
// of them to locate the event a run fails at in a pass that reads the
// trace: Sweep reads at most LinesKept−1 events past it (see lineOf).
func (r *reader) events(yield func(konvoy.Event, error) bool) {
	r.passes++
	src, closeTrace, err := r.src(r.passes)
	if err != nil { // lines still hold the last pass's, for lineOf
		yield(konvoy.Event{}, err)
		return
	}
	defer closeTrace()
	dec, err := eventlog.NewDecoder(src, r.o.Reader)
	if err != nil {
		yield(konvoy.Event{}, err)
		return
	}
	r.read = 0
	defer func() {
		r.rounded, r.dropped, r.status = max(r.rounded, dec.Rounded()), max(r.dropped, dec.Dropped()), max(r.status, dec.StatusSteps())
	}()
	for i := 0; ; i++ {
		e, err := dec.Next()
		if err == io.EOF {
			return
		}
		switch {
		case err != nil:
		case r.passes == 1:
			if err = r.add(e, dec.Line(), dec.Partitions()); err == nil {
				r.names.Keep(e.Key)
				r.names.Keep(e.Line)
			}
		default:
			e.Key, e.Line = r.names.Same(e.Key), r.names.Same(e.Line)
		}
		r.lines[i%len(r.lines)] = dec.Line()
		r.read = i + 1
		if !yield(e, err) || err != nil {
			return
		}
	}
}

// lineOf returns the line of the event with input index i, 0 when it
// cannot be found: from lines when the last pass that read the trace read
// it among its last events, else from a pass of its own that reads the
// trace up to it. A sweep's later passes replay the first, so a run that
// fails in one fails at an event its reader read long before.
func (r *reader) lineOf(i int) int {
	if i < r.read && i >= r.read-len(r.lines) {
		return r.lines[i%len(r.lines)]
	}
	r.passes++
	src, closeTrace, err := r.src(r.passes)
	if err != nil {
		return 0
	}
	defer closeTrace()
	dec, err := eventlog.NewDecoder(src, r.o.Reader)
	if err != nil {
		return 0
	}
	for j := 0; j <= i; j++ {
		if _, err := dec.Next(); err != nil {
			return 0
		}
	}
	return dec.Line()
}

// add checks event e, read at line, and counts it: an event without a line
// that a layout needs, or a trace without partitions (parts) under the
// layout recorded, cannot go on, nor one that o.Check refuses.
func (r *reader) add(e konvoy.Event, line int, parts bool) error {
	t, o := r.t, r.o
	if t.Stats.Events() == 0 {
		if !parts && slices.ContainsFunc(t.Layouts, IsRecorded) {
			return errNoPartitions(t.Name, o)
		}
		t.Partitioned = parts
	}
	if o.Check != nil {
		if err := o.Check(e, t.Stats.Events()); err != nil {
			return err
		}
	}
	if e.Line == "" && slices.ContainsFunc(t.Layouts, konvoy.Layout.NeedsLine) {
		return NoLine(t.Name, o.Reader, line)
	}
	t.Stats.Add(e)
	t.LastArrival = e.Arrival
	if o.Add != nil {
		o.Add(e)
	}
	return nil
}

// CountLines returns the lines of the trace that src opens, at pass 0, as
// many as its events or one more: Options.Expected. It reads the whole
// trace, so it is for one that can be read again, such as a file, not a
// pipe. It returns 0, unknown, as soon as it meets what the runs' pass
// refuses at once, a NUL byte or a line longer than maxLine bytes (a
// decompressed bomb of zeros is not read to its end), or when the trace
// cannot be read; the pass then says why.
func CountLines(src Source, maxLine int) int {
	f, closeTrace, err := src(0)
	if err != nil {
		return 0
	}
	defer closeTrace()
	buf := make([]byte, 1<<16)
	lines, line := 0, 0 // line: the bytes of the last line so far
	for {
		n, err := f.Read(buf)
		chunk := buf[:n]
		if bytes.IndexByte(chunk, 0) >= 0 {
			return 0
		}
		for {
			i := bytes.IndexByte(chunk, '\n')
			if i < 0 {
				line += len(chunk)
				break
			}
			if line+i > maxLine {
				return 0
			}
			lines, line, chunk = lines+1, 0, chunk[i+1:]
		}
		switch {
		case line > maxLine:
			return 0
		case err == io.EOF:
			return lines + 1
		case err != nil:
			return 0
		}
	}
}

// WithRecorded returns o with its layouts as Trace runs them over the
// trace src opens: the layout recorded given its partition count in place
// of RecordedFromTrace, and, for o.All, joining the rest when the trace
// has partitions, All then cleared. A caller that bounds the runs counts
// them so; Trace, given its result, makes no pass of its own to find
// them. ctx stops the pass, as it stops Trace's runs.
func WithRecorded(ctx context.Context, src Source, o Options) (Options, error) {
	var err error
	if o.Layouts, err = recordedLayouts(ctx, src, o); err != nil {
		return o, err
	}
	o.All = false
	return o, nil
}

// highestPartition reads dec to its end and returns the highest partition
// its events name, or 0 once its first event says it has none; or the
// error of an event, or ctx's once ctx is done: dec reads through a
// ctxReader, which fails once ctx is done, whatever the decoder does with
// the events (a Reorder window's DropLate hands back none of those it
// drops).
func highestPartition(ctx context.Context, dec *eventlog.Decoder) (int, error) {
	most := 0
	for e, err := range dec.All() {
		if err := ctx.Err(); err != nil {
			return 0, err // the decoder's error, if any, is the reader's: ctx's
		}
		if err != nil {
			return 0, err
		}
		if !dec.Partitions() {
			break // known at the first event: the rest need not be read
		}
		most = max(most, e.Partition)
	}
	return most, ctx.Err()
}

// ctxReader reads r until ctx is done, then fails with ctx's error.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// recordedLayouts returns o's layouts with the layout recorded of as many
// partitions as the trace's highest plus one, in place of
// RecordedFromTrace, and, for o.All, at the end when the trace has
// partitions: a pass over the trace, pass 0, made only then, and read past
// its first event only when the trace has partitions. It returns ctx's
// error once ctx is done (see highestPartition).
func recordedLayouts(ctx context.Context, src Source, o Options) ([]konvoy.Layout, error) {
	i := slices.IndexFunc(o.Layouts, RecordedFromTrace.Equal)
	if i < 0 && !o.All {
		return o.Layouts, nil
	}
	f, closeTrace, err := src(0)
	if err != nil {
		return nil, err
	}
	defer closeTrace()
	ro := o.Reader
	if _, window := Memory(o); window > 0 {
		ro.MaxReorderBytes = window // as Trace bounds the runs' window: this pass, before them, is bound by it too
	}
	dec, err := eventlog.NewDecoder(ctxReader{ctx, f}, ro)
	if err != nil {
		return nil, err
	}
	most, err := highestPartition(ctx, dec)
	if err != nil {
		return nil, err
	}
	layouts := slices.Clone(o.Layouts)
	switch {
	case i >= 0 && !dec.Partitions():
		return nil, errNoPartitions(o.Name, o)
	case i >= 0:
		layouts[i] = konvoy.Recorded(most + 1)
	case dec.Partitions():
		layouts = append(layouts, konvoy.Recorded(most+1))
	}
	if err := RecordedTwice(layouts); err != nil {
		return nil, fmt.Errorf("konvoy: %w", err)
	}
	return layouts, nil
}

// RecordedTwice returns an error when layouts, with the layout recorded
// given its partition count from the trace, name one layout twice, as
// -layouts recorded:8,recorded does on a trace whose highest partition is
// 7; nil otherwise.
func RecordedTwice(layouts []konvoy.Layout) error {
	for i, l := range layouts {
		if IsRecorded(l) && slices.ContainsFunc(layouts[:i], l.Equal) {
			return fmt.Errorf("-layouts names %s twice: recorded is %s on this trace, whose highest partition is %d", l, l, l.Partitions()-1)
		}
	}
	return nil
}

// NoRecordedLesson returns an error when layouts hold a layout recorded,
// for a command that runs the lesson: its events record no partition.
func NoRecordedLesson(layouts []konvoy.Layout) error {
	if i := slices.IndexFunc(layouts, IsRecorded); i >= 0 {
		name := layouts[i].String() // "recorded" for RecordedFromTrace
		return fmt.Errorf("-layouts %s runs each event in the partition its trace recorded, and the lesson's events record none: give a trace with a partition column (-events)", name)
	}
	return nil
}

// IsRecorded tells whether l is a layout recorded, of any partition
// count, RecordedFromTrace among them.
func IsRecorded(l konvoy.Layout) bool {
	return l.Equal(RecordedFromTrace) || l.Partitions() > 0 && l.Equal(konvoy.Recorded(l.Partitions()))
}

// errNoPartitions is the error of a trace without partitions under the
// layout recorded.
func errNoPartitions(name string, o Options) error {
	return NoPartitions(name, o.Reader)
}

// NoPartitions is the error of the trace name, read with r, that records
// no partitions, under the layout recorded, for every command that reads
// a trace. It is at line 1: a CSV trace's header, or a JSON Lines trace's
// first record (in all but a file that begins with blank lines), is what
// says the trace records none.
func NoPartitions(name string, r eventlog.Reader) error {
	c := r.Columns
	if c.Partition == "" && slices.Contains([]string{c.Key, c.Line, c.Status, c.Step, c.Duration, c.At}, "partition") {
		return &eventlog.Error{File: name, Line: 1,
			Want: `want each event's recorded partition, for layout recorded; the column "partition" is named for another role, and so not read as the partition: -partition partition reads it as both`}
	}
	if c.Partition == eventlog.NoColumn {
		return &eventlog.Error{File: name, Line: 1,
			Want: "want each event's recorded partition, for layout recorded; -partition - reads none"}
	}
	return &eventlog.Error{File: name, Line: 1,
		Want: fmt.Sprintf("want a column %q (in JSON Lines, a field), the partition each event was recorded in, for layout recorded; the trace has none (-partition names it)", cmp.Or(r.Columns.Partition, "partition"))}
}

// NoLine is the error of an event without a line, at line of the trace
// name read with r, under the layout line-convoy, for konvoy and konvoy
// plan (konvoy replay's is the simulator's EventError for the event).
// Under the default column name it says that -line reads another, as a
// trace's lines are often a route or a customer.
func NoLine(name string, r eventlog.Reader, line int) error {
	want := "want a line for layout line-convoy; leave line-convoy out of -layouts for a trace without lines"
	if r.Columns.Line == "" {
		want = "want a line for layout line-convoy; -line COLUMN reads the lines from another column, or leave line-convoy out of -layouts for a trace without lines"
	}
	return &eventlog.Error{File: name, Line: line, Field: cmp.Or(r.Columns.Line, "line"), Want: want}
}

// Located is a library error Err of the event at Where, FILE:LINE: the
// event's own message, which has no "konvoy: " prefix, after Where; any
// other error's message follows Where as it is. errors.Is and As see Err.
type Located struct {
	Where string
	Err   error
}

func (e Located) Error() string {
	var ev *konvoy.EventError
	if errors.As(e.Err, &ev) {
		return e.Where + ": " + ev.Error()
	}
	return e.Where + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e Located) Unwrap() error { return e.Err }

// NamesRecorded tells whether layouts, a flag's or a query's
// comma-separated layout names, name the layout recorded, with or without
// its count, or all of them.
func NamesRecorded(layouts string) bool {
	return NamesLayout(layouts, func(name string) bool { return name == "recorded" || strings.HasPrefix(name, "recorded:") })
}

// NamesLayout tells whether layouts, comma-separated layout names, name
// all of them, or one that match says it looks for.
func NamesLayout(layouts string, match func(name string) bool) bool {
	for _, name := range strings.Split(layouts, ",") {
		if name = strings.TrimSpace(name); name == "all" || match(name) {
			return true
		}
	}
	return false
}
