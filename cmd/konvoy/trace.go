package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/report"
)

// maxGanttEvents is the most events -gantt draws: beyond them the picture
// stops being readable, and a run keeps its schedule in memory.
const maxGanttEvents = 200

// trace is what one pass over a trace measured, and what -plot draws from.
type trace struct {
	report.Trace
	opt    options
	sample []konvoy.Event // with -plot, the first maxPlotEvents+1 events
}

// traceReport reads the trace opt names and returns its report in the asked
// format and, with -plot, its pictures. It writes nothing until the whole
// trace has been read, so a bad trace gives an error and no partial report.
func traceReport(opt options, stdin io.Reader, stderr io.Writer) (string, pictures, error) {
	var pics pictures
	var err error
	if opt.layouts, err = recordedLayouts(opt); err != nil {
		return "", pics, err
	}
	t, err := readTrace(opt, stdin, stderr)
	if err != nil {
		return "", pics, err
	}
	if opt.plot != "" {
		if pics, err = tracePictures(t); err != nil {
			return "", pics, err
		}
	}
	if t.Rounded > 0 && opt.format != "text" {
		fmt.Fprintf(stderr, "konvoy: note: %s\n", report.RoundedNote(t.Rounded, t.Unit))
	}
	for _, note := range report.ReadingNotes(&t.Trace) {
		if opt.format != "text" {
			fmt.Fprintf(stderr, "konvoy: note: %s\n", note)
		}
	}
	switch opt.format {
	case "json":
		out, err := report.TraceJSON(&t.Trace)
		return out, pics, err
	case "csv":
		out, err := report.TraceCSV(&t.Trace)
		return out, pics, err
	}
	return report.TraceText(&t.Trace, report.TraceOptions{Gantt: opt.gantt, Capacity: opt.capacity, Peak: opt.peak, Latency: opt.latency}), pics, nil
}

// readTrace reads the trace, which konvoy.Sweep feeds to one run per
// (layout, policy, consumers) triple, in memory that grows with the
// trace's keys and lines, not its events, within -max-memory: in one pass,
// or in more when the runs do not fit at once, standard input copied to a
// temporary file first so that it can be read again.
func readTrace(opt options, stdin io.Reader, stderr io.Writer) (*trace, error) {
	t := &trace{opt: opt, Trace: report.Trace{Name: opt.reader.Name, Layouts: opt.layouts, Policies: opt.policies,
		Consumers: opt.consumers[0], Counts: slices.Sorted(slices.Values(opt.consumers)), Unit: opt.reader.Resolution}}
	if t.Name == "-" {
		t.Name = "<stdin>"
	}
	t.Simulated = t.Counts
	if opt.plot != "" {
		t.Simulated = slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(t.Counts), plotCounts(opt)...))))
	}
	configs := t.configs()
	path := opt.events
	if path == "-" && len(configs) > 1 {
		var err error
		if path, err = copyStdin(stdin, "konvoy"); err != nil {
			return nil, err
		}
		defer removeTemp(path)
	}
	r := &traceReader{t: t, path: path, stdin: stdin, stderr: stderr, lines: make([]int, konvoy.SweepAhead+1)}
	// The runs plan for three quarters of -max-memory, and the garbage
	// collector keeps the heap within the whole, working harder as it
	// nears it, so that its headroom is the last quarter, not as much
	// again as the runs hold.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(opt.maxMemory)))
	var err error
	t.Results, err = konvoy.Sweep(context.Background(), r.events, configs, konvoy.WithMaxMemory(max(1, opt.maxMemory/4*3)))
	var ev *konvoy.EventError
	switch {
	case errors.As(err, &ev):
		where := fmt.Sprintf("%s:%d", t.Name, r.lines[ev.Index%len(r.lines)])
		return nil, report.BacklogHint(located{where, err}, opt.maxBacklog, len(configs))
	case err != nil:
		return nil, report.BacklogHint(err, opt.maxBacklog, len(configs))
	case t.Stats.Events() == 0:
		return nil, errNoEvents(t.Name)
	}
	t.Rounded, t.Dropped = r.rounded, r.dropped
	if opt.reader.Durations != nil {
		t.Modelled = opt.reader.Durations.String()
	}
	return t, nil
}

// traceReader reads a trace for konvoy.Sweep, once a pass.
type traceReader struct {
	t       *trace
	path    string // "-" for standard input, which has one pass
	stdin   io.Reader
	stderr  io.Writer
	passes  int
	rounded int
	dropped int
	lines   []int // the lines of the last events read, by input index
}

// events yields the trace's events, from the start, checked and counted
// on the first pass. lines keeps the lines of the last events read, enough
// of them to locate the event a run fails at: Sweep reads at most
// SweepAhead events past it, in the pass that finds it.
func (r *traceReader) events(yield func(konvoy.Event, error) bool) {
	r.passes++
	src, bar, closeTrace, err := r.t.open(r.path, r.passes, r.stdin, r.stderr)
	if err != nil {
		yield(konvoy.Event{}, err)
		return
	}
	defer closeTrace()
	if bar != nil {
		defer bar.done()
	}
	dec, err := eventlog.NewDecoder(src, r.t.opt.reader)
	if err != nil {
		yield(konvoy.Event{}, err) // checked by parse already
		return
	}
	defer func() { r.rounded, r.dropped = max(r.rounded, dec.Rounded()), max(r.dropped, dec.Dropped()) }()
	for i := 0; ; i++ {
		e, ok, err := r.t.next(dec, r.passes == 1)
		if !ok {
			return
		}
		r.lines[i%len(r.lines)] = dec.Line()
		if bar != nil {
			bar.events++
		}
		if !yield(e, err) || err != nil {
			return
		}
	}
}

// open opens the trace at path for the given pass, the first with a
// progress bar.
func (t *trace) open(path string, pass int, stdin io.Reader, stderr io.Writer) (io.Reader, *progress, func(), error) {
	if pass > 1 {
		if path == "-" {
			return nil, nil, nil, fmt.Errorf("konvoy: %s: standard input cannot be read twice", t.Name)
		}
		stderr = io.Discard
	}
	return openTrace(path, t.Name, stdin, stderr)
}

// next returns the next event dec reads, checked and counted on the first
// pass, and false when the trace has ended.
func (t *trace) next(dec *eventlog.Decoder, first bool) (e konvoy.Event, ok bool, err error) {
	e, err = dec.Next()
	if err == io.EOF {
		return e, false, nil
	}
	if err == nil && first {
		if err = t.check(e, dec.Line(), dec.Partitions()); err == nil {
			t.add(e)
		}
	}
	return e, true, err
}

// recordedLayouts returns opt's layouts with the layout recorded of as
// many partitions as the trace's highest plus one, in place of
// recordedFromTrace, and, for -layouts all, at the end when the trace has
// partitions: a pass over the trace, made only then, finds them.
func recordedLayouts(opt options) ([]konvoy.Layout, error) {
	i := slices.IndexFunc(opt.layouts, recordedFromTrace.Equal)
	if i < 0 && !(opt.all && opt.events != "-") {
		return opt.layouts, nil
	}
	f, err := eventlog.Open(opt.events)
	if err != nil {
		return nil, fmt.Errorf("konvoy: %w", err)
	}
	defer f.Close()
	dec, err := eventlog.NewDecoder(f, opt.reader)
	if err != nil {
		return nil, err
	}
	most := 0
	for e, err := range dec.All() {
		if err != nil {
			return nil, err
		}
		most = max(most, e.Partition)
	}
	layouts := slices.Clone(opt.layouts)
	switch {
	case i >= 0 && !dec.Partitions():
		return nil, errNoPartitions(opt.events, opt, 1)
	case i >= 0:
		layouts[i] = konvoy.Recorded(most + 1)
	case dec.Partitions():
		layouts = append(layouts, konvoy.Recorded(most+1))
	}
	return layouts, nil
}

// isRecorded tells whether l is a layout recorded.
func isRecorded(l konvoy.Layout) bool {
	return l.Partitions() > 0 && l.Equal(konvoy.Recorded(l.Partitions()))
}

// errNoPartitions is the error of a trace without partitions, at line,
// under the layout recorded.
func errNoPartitions(name string, opt options, line int) error {
	return &eventlog.Error{File: name, Line: line,
		Want: fmt.Sprintf("want a %q column, the partition each event was recorded in, for layout recorded; the trace has none (-partition names it)", cmp.Or(opt.reader.Columns.Partition, "partition"))}
}

// check returns why event e, read at line, cannot go on: a -gantt trace
// that outgrows its limit, an event without a line that a layout needs, or
// a trace without partitions (parts) under the layout recorded.
func (t *trace) check(e konvoy.Event, line int, parts bool) error {
	if !parts && t.Stats.Events() == 0 && slices.ContainsFunc(t.opt.layouts, isRecorded) {
		return errNoPartitions(t.Name, t.opt, line)
	}
	if t.opt.gantt && t.Stats.Events() == maxGanttEvents {
		return usagef("-gantt draws runs of at most %d events; %s has more", maxGanttEvents, t.Name)
	}
	if e.Line == "" && slices.ContainsFunc(t.opt.layouts, konvoy.Layout.NeedsLine) {
		return &eventlog.Error{File: t.Name, Line: line, Field: cmp.Or(t.opt.reader.Columns.Line, "line"), Value: e.Line,
			Want: "want a line for layout line-convoy; leave line-convoy out of -layouts for a trace without lines"}
	}
	return nil
}

// add counts event e in the trace's statistics and, with -plot, keeps it
// while the sample is small enough to draw.
func (t *trace) add(e konvoy.Event) {
	t.Stats.Add(e)
	t.LastArrival = e.Arrival
	if t.opt.plot != "" && len(t.sample) <= maxPlotEvents {
		t.sample = append(t.sample, e)
	}
}

// configs returns one run per (layout, policy, consumers) triple, in that
// order, each holding at most its share of -max-backlog; the run the
// schedule view draws keeps its schedule.
func (t *trace) configs() []konvoy.Config {
	opt := t.opt
	share := report.BacklogShare(opt.maxBacklog, len(opt.layouts)*len(opt.policies)*len(t.Simulated))
	var configs []konvoy.Config
	for _, l := range opt.layouts {
		for pi, p := range opt.policies {
			for _, c := range t.Simulated {
				opts := report.Dispatch(p, opt.assignor, konvoy.WithMaxBacklog(share), konvoy.WithResequencer(opt.reseq))
				if opt.gantt && pi == 0 && c == opt.consumers[0] {
					opts = append(opts, konvoy.WithSchedule(maxGanttEvents))
				}
				configs = append(configs, konvoy.Config{Layout: l, Consumers: c, Options: opts})
			}
		}
	}
	return configs
}

// openTrace opens the trace file, "-" for stdin, decompressed, counting what
// it reads on a progress bar, when stderr is a terminal, under name.
func openTrace(file, name string, stdin io.Reader, stderr io.Writer) (io.Reader, *progress, func(), error) {
	raw, size, closeFile := stdin, int64(-1), func() {}
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("konvoy: %w", err)
		}
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
		raw, closeFile = f, func() { f.Close() }
	}
	bar := newProgress(stderr, name, size)
	if bar != nil {
		raw = bar.reader(raw)
	}
	src, err := eventlog.Decompress(raw)
	if err != nil {
		closeFile()
		return nil, nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return src, bar, func() { src.Close(); closeFile() }, nil
}

// located is a library error err of the event at where, FILE:LINE: the
// event's own message, which has no "konvoy: " prefix, after where; any
// other error's message follows where as it is. errors.Is and As see err.
type located struct {
	where string
	err   error
}

func (e located) Error() string {
	var ev *konvoy.EventError
	if errors.As(e.err, &ev) {
		return e.where + ": " + ev.Error()
	}
	return e.where + ": " + e.err.Error()
}
func (e located) Unwrap() error { return e.err }

// errNoEvents is every command's answer to a trace with no events, a
// header alone or nothing: there is nothing to measure or plan for, and a
// report of zeros would pass for one.
func errNoEvents(name string) error {
	return fmt.Errorf("%s: the trace holds no events; want at least one", name)
}
