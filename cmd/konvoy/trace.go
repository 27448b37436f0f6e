package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
)

// trace is what one pass over a trace measured: its statistics and one
// result per (layout, policy, consumers) triple.
type trace struct {
	name        string
	opt         options
	counts      []int               // the consumer counts simulated, ascending
	shown       []int               // the consumer counts the report shows, ascending
	results     [][][]konvoy.Result // [layout][policy][index in counts]
	sample      []konvoy.Event      // with -plot, the first maxPlotEvents+1 events
	stats       eventlog.Stats
	rounded     int
	lastArrival int // the last event's arrival: 0 for a batch
}

// result returns the run of layout index li at c consumers under the
// report's policy, the first.
func (t *trace) result(li, c int) konvoy.Result { return t.run(li, 0, c) }

// run returns the run of layout index li under policy index pi at c
// consumers.
func (t *trace) run(li, pi, c int) konvoy.Result {
	return t.results[li][pi][slices.Index(t.counts, c)]
}

// traceReport reads the trace opt names and returns its report in the asked
// format and, with -plot, its pictures. It writes nothing until the whole
// trace has been read, so a bad trace gives an error and no partial report.
func traceReport(opt options, stdin io.Reader, stderr io.Writer) (string, pictures, error) {
	var pics pictures
	t, err := readTrace(opt, stdin, stderr)
	if err != nil {
		return "", pics, err
	}
	if t.stats.Events() == 0 {
		return "", pics, errNoEvents(t.name)
	}
	if opt.plot != "" {
		if pics, err = tracePictures(t); err != nil {
			return "", pics, err
		}
	}
	if t.rounded > 0 && opt.format != "text" {
		fmt.Fprintf(stderr, "konvoy: note: %s rounded to whole rounds%s\n", plural(t.rounded, "duration or arrival", "durations and arrivals"), resolutionNote(opt.reader.Resolution))
	}
	var out string
	switch opt.format {
	case "json":
		out, err = jsonReport(t)
	case "csv":
		out, err = csvReport(t)
	default:
		out = textReport(t)
	}
	return out, pics, err
}

// readTrace reads the trace in one pass, feeding every event to one
// simulator per (layout, consumers) pair, in memory that grows with the
// trace's keys and lines, not its events.
func readTrace(opt options, stdin io.Reader, stderr io.Writer) (*trace, error) {
	t := &trace{name: opt.reader.Name, opt: opt, shown: slices.Sorted(slices.Values(opt.consumers))}
	if t.name == "-" {
		t.name = "<stdin>"
	}
	t.counts = slices.Clone(t.shown)
	if opt.plot != "" {
		t.counts = slices.Compact(slices.Sorted(slices.Values(append(t.counts, plotCounts(opt)...))))
	}

	var raw io.Reader = stdin
	size := int64(-1)
	if opt.events != "-" {
		f, err := os.Open(opt.events)
		if err != nil {
			return nil, fmt.Errorf("konvoy: %w", err)
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
		raw = f
	}
	bar := newProgress(stderr, t.name, size)
	if bar != nil {
		raw = bar.reader(raw)
		defer bar.done()
	}
	src, err := eventlog.Decompress(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.name, err)
	}
	defer src.Close()
	dec, err := eventlog.NewDecoder(src, opt.reader)
	if err != nil {
		return nil, err // checked by parse already
	}

	sims, all, holders, err := t.simulators()
	if err != nil {
		return nil, err
	}
	needsLine := slices.ContainsFunc(opt.layouts, func(l konvoy.Layout) bool { return l.String() == konvoy.LineConvoy.String() })
	lineColumn := opt.reader.Columns.Line
	if lineColumn == "" {
		lineColumn = "line"
	}

	f := newFanOut(all, runtime.GOMAXPROCS(0))
	b := f.batch()
	var stop error // the error that ended reading, if any
	for e, err := range dec.All() {
		if err != nil {
			stop = err
			break
		}
		if opt.gantt && t.stats.Events() == maxGanttEvents {
			stop = usagef("-gantt draws runs of at most %d events; %s has more", maxGanttEvents, t.name)
			break
		}
		if needsLine && e.Line == "" {
			stop = &eventlog.Error{File: t.name, Line: dec.Line(), Field: lineColumn, Value: e.Line,
				Want: "want a line for layout line-convoy; leave line-convoy out of -layouts for a trace without lines"}
			break
		}
		t.stats.Add(e)
		t.lastArrival = e.Arrival
		if opt.plot != "" && len(t.sample) <= maxPlotEvents {
			t.sample = append(t.sample, e)
		}
		if b.add(e, dec.Line()) {
			ok := f.send(b)
			b = nil
			if !ok {
				break // a simulator failed; its error comes first
			}
			b = f.batch()
		}
		if bar != nil {
			bar.events++
		}
	}
	if b != nil {
		f.send(b)
	}
	if err := f.wait(); err != nil {
		return nil, backlogHint(located{fmt.Sprintf("%s:%d", t.name, err.line), err.err}, opt.maxBacklog, holders)
	}
	if stop != nil {
		return nil, stop
	}
	t.rounded = dec.Rounded()
	t.results = make([][][]konvoy.Result, len(sims))
	for i, byPolicy := range sims {
		t.results[i] = make([][]konvoy.Result, len(byPolicy))
		for pi, row := range byPolicy {
			for _, s := range row {
				r, err := s.Result()
				if err != nil {
					return nil, backlogHint(located{t.name, err}, opt.maxBacklog, holders)
				}
				t.results[i][pi] = append(t.results[i][pi], r)
			}
		}
	}
	return t, nil
}

// located is a simulator's error err at where, FILE or FILE:LINE, printed
// without the library's "konvoy: " prefix; errors.Is and As see err.
type located struct {
	where string
	err   error
}

func (e located) Error() string {
	return e.where + ": " + strings.TrimPrefix(e.err.Error(), "konvoy: ")
}
func (e located) Unwrap() error { return e.err }

// errNoEvents is every command's answer to a trace with no events, a
// header alone or nothing: there is nothing to measure or plan for, and a
// report of zeros would pass for one.
func errNoEvents(name string) error {
	return fmt.Errorf("%s: the trace holds no events; want at least one", name)
}

// simulators makes one simulator per (layout, policy, consumers) triple of
// the options, each holding at most its share of -max-backlog, and returns
// them by layout, policy and count, all of them in that order, and how
// many share -max-backlog.
func (t *trace) simulators() (sims [][][]*konvoy.Simulator, all []*konvoy.Simulator, runs int, err error) {
	opt := t.opt
	runs = len(opt.layouts) * len(opt.policies) * len(t.counts)
	share := backlogShare(opt.maxBacklog, runs)
	sims = make([][][]*konvoy.Simulator, len(opt.layouts))
	for i, l := range opt.layouts {
		sims[i] = make([][]*konvoy.Simulator, len(opt.policies))
		for pi, p := range opt.policies {
			for _, c := range t.counts {
				opts := []konvoy.Option{konvoy.WithPolicy(p), konvoy.WithMaxBacklog(share)}
				if opt.gantt && pi == 0 && c == opt.consumers[0] {
					opts = append(opts, konvoy.WithSchedule(maxGanttEvents))
				}
				s, err := konvoy.NewSimulator(l, c, opts...)
				if err != nil {
					return nil, nil, 0, err
				}
				sims[i][pi] = append(sims[i][pi], s)
				all = append(all, s)
			}
		}
	}
	return sims, all, runs, nil
}

// plural is "1 thing" or "n things".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
