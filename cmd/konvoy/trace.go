package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/report"
	"github.com/sirali-konvoy/konvoy/internal/runs"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// maxGanttEvents is the most events -gantt draws.
const maxGanttEvents = runs.MaxGanttEvents

// trace is what one pass over a trace measured, and what -plot draws from.
type trace struct {
	report.Trace
	opt    options
	sample []konvoy.Event // with -plot, the first maxPlotEvents+1 events
}

// traceReport reads the trace opt names, or the lesson's events for the
// lesson's -format json or csv, and returns the function that writes its
// report in the asked format and, with -plot, its pictures. It writes
// nothing until the whole trace has been read, so a bad trace gives an
// error and no partial report. When the pictures alone cannot be drawn, it
// returns the report with a *picturesError.
func traceReport(opt options, stdin io.Reader, stderr io.Writer) (func(io.Writer) error, pictures, error) {
	var pics pictures
	t, err := readTrace(opt, stdin, stderr)
	if err != nil {
		return nil, pics, err
	}
	if opt.all && streamed(opt.events) && t.Partitioned {
		fmt.Fprintln(stderr, "konvoy: note: -layouts all left out recorded, whose partition count a trace read as it streams (standard input, a pipe) gives only once read whole; read the trace from a file, or name recorded:N")
	}
	var undrawn error
	if opt.plot != "" {
		draw := func() (pictures, error) { return tracePictures(t) }
		if opt.events == "" { // the lesson's, whatever -format prints the report
			draw = func() (pictures, error) { return lessonPictures(opt) }
		}
		if pics, err = draw(); err != nil {
			undrawn = &picturesError{err}
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
	out, err := report.Render(&t.Trace, opt.format, report.TraceOptions{Gantt: opt.gantt, Capacity: opt.capacity, Peak: opt.peak, Latency: opt.latency})
	if err != nil {
		return nil, pics, fmt.Errorf("konvoy: %w", err)
	}
	return out, pics, undrawn
}

// picturesError is traceReport's error when the report is whole but its
// pictures cannot be drawn, as when a figure passes what a picture takes:
// the report is written, and no picture.
type picturesError struct{ err error }

func (e *picturesError) Error() string {
	return e.err.Error() + "; the report was written, and no picture"
}

func (e *picturesError) Unwrap() error { return e.err }

// runs are the runs opt asks for, over the trace named -events ("<stdin>"
// for "-"), which -layouts all joins recorded when it does not stream.
func (opt options) runs() runs.Options { return opt.runsOf(streamed(opt.events)) }

// runsOf are the runs opt asks for, over a trace that streams or not: one
// that streams is read once, and -layouts all leaves recorded out.
func (opt options) runsOf(streams bool) runs.Options {
	o := runs.Options{Name: opt.reader.Name, Layouts: opt.layouts, All: opt.all && !streams, Policies: opt.policies, Assignor: opt.assignor,
		Consumers: opt.consumers, Reader: opt.reader, MaxBacklog: opt.maxBacklog, MaxMemory: opt.maxMemory, Reseq: opt.reseq, Gantt: opt.gantt}
	if o.Name == "-" {
		o.Name = "<stdin>"
	}
	return o
}

// readTrace makes the report's runs (package runs) over the trace, or the
// lesson's events. Standard input is read as it arrives, and copied as it
// is read when the runs may need more than one pass (see runs.Reread).
func readTrace(opt options, stdin io.Reader, stderr io.Writer) (*trace, error) {
	t := &trace{opt: opt}
	o := opt.runs()
	if opt.plot != "" {
		o.More = plotCounts(opt)
	}
	var bar *progress
	o.Check = func(_ konvoy.Event, n int) error {
		if opt.gantt && n == maxGanttEvents {
			return usagef("-gantt draws runs of at most %d events; %s has more", maxGanttEvents, o.Name)
		}
		return nil
	}
	o.Add = func(e konvoy.Event) {
		if bar != nil {
			bar.events++
		}
		if opt.plot != "" && len(t.sample) <= maxPlotEvents {
			t.sample = append(t.sample, e)
		}
	}
	var r *report.Trace
	var err error
	if opt.events == "" {
		o.Name = "the lesson"
		r, err = runs.Events(context.Background(), lesson.Events(), o)
	} else {
		path, counts := opt.events, slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(opt.consumers), o.More...))))
		passes := len(opt.layouts)*len(opt.policies)*len(counts) > 1 // the runs may need more than one
		var in *runs.Reread
		if streamed(path) {
			raw, closeRaw, err := openStream(path, stdin)
			if err != nil {
				return nil, fmt.Errorf("konvoy: %w", err)
			}
			defer closeRaw()
			in = rereadStdin(raw, passes, "konvoy")
			defer in.Close()
		}
		src := traceSource(path, o.Name, in, stderr, &bar)
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && passes {
			// A file, which can be read again: a sweep told its length
			// plans its first pass better (konvoy.WithExpectedEvents).
			o.Expected = runs.CountLines(src, cmp.Or(o.Reader.MaxRecordBytes, eventlog.DefaultMaxRecordBytes))
		}
		defer runs.LimitMemory(o.MaxMemory)()
		r, err = runs.Trace(context.Background(), src, o)
		err = memoryHint(err, cmp.Or(o.MaxMemory, konvoy.DefaultMaxMemory))
	}
	if err != nil {
		return nil, err
	}
	t.Trace = *r
	return t, nil
}

// rereadStdin is standard input, stdin, to be read as it arrives, and
// copied as it is read into a temporary file, which an interrupt removes,
// when copy is true; cmd, the command's name, names the file.
func rereadStdin(stdin io.Reader, copy bool, cmd string) *runs.Reread {
	create := func() (*os.File, error) { return createTemp("", strings.ReplaceAll(cmd, " ", "-")+"-*") }
	return runs.NewReread(stdin, copy, create, func(path string) { removeTemp(path) })
}

// traceSource opens the trace at path, named name, for each pass: the
// first with a progress bar, which *bar holds while it is read, and a
// trace read as it streams (see streamed) from in, its copy.
func traceSource(path, name string, in *runs.Reread, stderr io.Writer, bar **progress) runs.Source {
	return func(pass int) (io.Reader, func(), error) {
		w := stderr
		if pass != 1 {
			w = io.Discard
		}
		var stdin io.Reader
		if in != nil {
			var err error
			if stdin, err = in.Open(); err != nil {
				return nil, nil, fmt.Errorf("konvoy: %s: %w", name, err)
			}
			path = "-"
		}
		src, b, closeTrace, err := openTrace(path, name, stdin, w)
		if *bar = b; b == nil {
			return src, closeTrace, err
		}
		return src, func() { b.done(); closeTrace() }, err
	}
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

// streamed tells whether the trace at path is read as it streams, once:
// standard input ("-"), or a path that is not a regular file, such as a
// named pipe or /dev/stdin, which a second opening would find drained, or
// wait on for ever. A command copies such a trace as it reads it, for its
// later passes.
func streamed(path string) bool {
	if path == "-" {
		return true
	}
	st, err := os.Stat(path)
	return err == nil && !st.Mode().IsRegular()
}

// openStream opens a trace that streams (see streamed): standard input, or
// the file at path.
func openStream(path string, stdin io.Reader) (io.Reader, func(), error) {
	if path == "-" {
		return stdin, func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// errNoEvents is every command's answer to a trace with no events.
var errNoEvents = runs.ErrNoEvents
