package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
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

// readTrace reads the trace in one pass, which konvoy.Sweep feeds to one
// run per (layout, policy, consumers) triple, in memory that grows with the
// trace's keys and lines, not its events.
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
	src, bar, closeTrace, err := openTrace(opt.events, t.Name, stdin, stderr)
	if err != nil {
		return nil, err
	}
	defer closeTrace()
	if bar != nil {
		defer bar.done()
	}
	dec, err := eventlog.NewDecoder(src, opt.reader)
	if err != nil {
		return nil, err // checked by parse already
	}
	// lines holds the lines of the last events read, enough of them to
	// locate the event a run fails at: Sweep reads at most SweepAhead
	// events past it.
	lines := make([]int, konvoy.SweepAhead+1)
	events := func(yield func(konvoy.Event, error) bool) {
		for e, err := range dec.All() {
			if err == nil {
				err = t.check(e, dec.Line(), dec.Partitions())
			}
			if err != nil {
				yield(e, err)
				return
			}
			lines[t.Stats.Events()%len(lines)] = dec.Line()
			t.add(e)
			if bar != nil {
				bar.events++
			}
			if !yield(e, nil) {
				return
			}
		}
	}
	configs := t.configs()
	t.Results, err = konvoy.Sweep(context.Background(), events, configs)
	var ev *konvoy.EventError
	switch {
	case errors.As(err, &ev):
		where := fmt.Sprintf("%s:%d", t.Name, lines[ev.Index%len(lines)])
		return nil, report.BacklogHint(located{where, err}, opt.maxBacklog, len(configs))
	case err != nil:
		return nil, report.BacklogHint(err, opt.maxBacklog, len(configs))
	case t.Stats.Events() == 0:
		return nil, errNoEvents(t.Name)
	}
	t.read(dec)
	return t, nil
}

// read records what dec did to the trace as it read it: values rounded,
// events dropped as late, durations modelled.
func (t *trace) read(dec *eventlog.Decoder) {
	t.Rounded, t.Dropped = dec.Rounded(), dec.Dropped()
	if t.opt.reader.Durations != nil {
		t.Modelled = t.opt.reader.Durations.String()
	}
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
				opts := report.Dispatch(p, opt.assignor, konvoy.WithMaxBacklog(share))
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
