package main

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"runtime"
	"slices"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/report"
	"github.com/sirali-konvoy/konvoy/internal/runs"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// planHeldBytes is the most memory konvoy plan spends holding a trace's
// events (see eventlog.Trace.Scan); a larger trace is read again for every
// pass. A variable, so that tests can take the longer way.
var planHeldBytes = 64 << 20

// planHeld returns the memory konvoy plan spends holding a trace's events
// under -max-memory maxMemory: planHeldBytes, or an eighth of maxMemory
// when that is less, so that the events held stay within the quarter of
// it left to the garbage collector (see runs.LimitMemory), which would
// otherwise run without end below a live heap it cannot free.
func planHeld(maxMemory int) int {
	return min(planHeldBytes, maxMemory/8)
}

// planSource is the trace konvoy plan answers for, which the planner ranges
// over many times, and what its first reading counted.
type planSource struct {
	report.PlanSource
	stdin         *runs.Reread // standard input, and its copy, which close removes
	partitions    bool         // the trace records each event's partition
	lastPartition int          // the highest partition an event was recorded in
	statused      int          // events whose step came from a status
}

// readingNotes are what reading the trace with r changed, which the plan
// does not say itself: the durations modelled, the events dropped as
// late, and the durations and arrivals rounded. The text plan's header
// says them all (see report.PlanSource.Notes), and the JSON plan counts
// the events dropped (late_dropped) and those rounded (rounded): a JSON
// plan (text false) is given them on standard error too.
func (s *planSource) readingNotes(r eventlog.Reader, text bool) []string {
	t := &report.Trace{Dropped: s.Dropped, StatusesUnused: report.StatusesUnused(r, s.statused)}
	if r.Durations != nil {
		t.Modelled = r.Durations.String()
	}
	notes := report.ReadingNotes(t)
	if text {
		s.Notes = notes
		return nil
	}
	if s.Rounded > 0 {
		notes = append(notes, report.RoundedNote(s.Rounded, s.Unit))
	}
	return notes
}

// lessonSource is the lesson's twenty events.
func lessonSource() *planSource {
	events := lesson.Events()
	src := &planSource{PlanSource: report.PlanSource{Name: `the lesson "Sıralı Konvoy"`, Lesson: true, Events: konvoy.Values(events)}}
	for _, e := range events {
		src.Stats.Add(e)
		src.Work += e.Duration
	}
	return src
}

// readSource reads the trace r names once, before any answer is worked out,
// and returns its first problem as FILE:LINE and what was wrong: a bad
// record, an event konvoy cannot simulate, an event without a line when
// a layout needs one, or keys and lines that take more than three
// quarters of maxMemory (see runs.NameRoom). Standard input ("-") is read as it
// arrives, and copied to a temporary file as it is read, for the
// planner's later passes when its events take more than planHeld. It
// counts what the report tells of the trace on the way.
func readSource(r eventlog.Reader, stdin io.Reader, needsLine bool, maxMemory int) (*planSource, error) {
	src := &planSource{PlanSource: report.PlanSource{Name: r.Name, Unit: r.Resolution}}
	// A -reorder window takes half of the names' share, split among the
	// readings that hold one at once: the first, then a pass a processor.
	nameRoom, window := reorderShare(&r, maxMemory/4*3, runtime.GOMAXPROCS(0))
	share := "three quarters"
	if window {
		share = "three eighths" // and a -reorder window as much
	}
	trace := eventlog.NewTrace(r.Name, r)
	if streamed(r.Name) { // read once, copied for the planner's passes
		raw, closeRaw, err := openStream(r.Name, stdin)
		if err != nil {
			return nil, fmt.Errorf("konvoy plan: %w", err)
		}
		defer closeRaw()
		if r.Name == "-" {
			src.Name = "<stdin>"
		}
		src.stdin = rereadStdin(raw, true, "konvoy plan")
		trace = eventlog.NewTraceOf(func() (io.ReadCloser, error) {
			in, err := src.stdin.Open()
			return io.NopCloser(in), err
		}, r)
	}
	sim, err := konvoy.NewSimulator(konvoy.Free, 1)
	if err != nil {
		return nil, err
	}
	names := runs.LongNames{} // the planner's passes, some at once, share the first's
	room := runs.NameRoom{Most: nameRoom, Each: planKeyBytes(runtime.GOMAXPROCS(0))}
	err = trace.Scan(planHeld(maxMemory), func(e konvoy.Event, line int) error {
		if needsLine && e.Line == "" {
			return runs.NoLine(src.Name, r, line)
		}
		if err := sim.Add(e); err != nil {
			return inTrace(src.Name, line, err)
		}
		if src.Stats.Events() == 0 {
			src.FirstArrival = e.Arrival
		}
		keys, lines := src.Stats.Keys(), src.Stats.Lines()
		src.Stats.Add(e)
		names.Keep(e.Key)
		names.Keep(e.Line)
		if !room.Add(e.Key, e.Line, src.Stats.Keys() > keys, src.Stats.Lines() > lines) {
			return &eventlog.Error{File: src.Name, Line: line, Err: fmt.Errorf(
				"the keys and lines so far take some %d bytes with their names, more than the %s of -max-memory %s that konvoy plan gives them: raise -max-memory",
				room.Took(), share, formatSize(maxMemory))}
		}
		src.Work += e.Duration
		src.LastArrival = e.Arrival
		src.lastPartition = max(src.lastPartition, e.Partition)
		return nil
	})
	if err == nil {
		if _, err = sim.Result(); err != nil {
			err = inTrace(src.Name, 0, err)
		}
	}
	if err != nil {
		src.close()
		if window {
			err = windowHint(err, "-max-memory", "the three quarters of it that the trace's keys and lines may take, split among the passes at once")
		}
		return nil, planError(err)
	}
	src.Rounded, src.partitions, src.Dropped, src.statused = trace.Rounded(), trace.Partitions(), trace.Dropped(), trace.StatusSteps()
	src.Events, src.LineOf = reread(trace.Events(), names), trace.Line
	return src, nil
}

// recorded returns layouts with the layout recorded, where it stands as
// recordedFromTrace, of as many partitions as the trace's highest plus
// one, as konvoy's report takes it; an error names a trace that records
// no partitions.
func (s *planSource) recorded(layouts func(int) ([]konvoy.Layout, error), r eventlog.Reader) (func(int) ([]konvoy.Layout, error), error) {
	ls, err := layouts(1)
	if err != nil || !slices.ContainsFunc(ls, runs.IsRecorded) {
		return layouts, nil
	}
	if !s.partitions {
		return nil, runs.NoPartitions(s.Name, r)
	}
	recorded := konvoy.Recorded(s.lastPartition + 1)
	resolved := func(partitions int) ([]konvoy.Layout, error) {
		ls, err := layouts(partitions)
		for i, l := range ls {
			if l.Equal(recordedFromTrace) {
				ls[i] = recorded
			}
		}
		return ls, err
	}
	ls, _ = resolved(1)
	if err := runs.RecordedTwice(ls); err != nil {
		return nil, usageIn("konvoy plan", "%v", err)
	}
	return resolved, nil
}

// close removes the copy of standard input, if any.
func (s *planSource) close() {
	if s.stdin != nil {
		s.stdin.Close()
	}
}

// inTrace is err, a simulator's, as the error of the trace at line (0 for
// the trace as a whole), which says what was wrong with the event.
func inTrace(name string, line int, err error) error {
	var ev *konvoy.EventError
	if errors.As(err, &ev) {
		err = ev
	}
	return &eventlog.Error{File: name, Line: line, Err: err}
}

// planError is err with konvoy plan's name unless it names the trace.
func planError(err error) error {
	if le := (*eventlog.Error)(nil); errors.As(err, &le) {
		return err
	}
	return fmt.Errorf("konvoy plan: %w", err)
}

// planKeyBytes is what a key or line takes in konvoy plan beside its
// name, when its plans run passes at once: its place in the first
// reading's counts (some 60 bytes), and in the key table and state of
// each simulator that holds it at once (some 128 bytes, as konvoy.Sweep
// counts a key, 88, and its state and lane): the first reading's, then
// one for each pass (a review found 1,350,000 keys counted at 160 bytes
// each within -max-memory 300MiB end konvoy plan in the fatal
// out-of-memory error under ulimit -v 2200000).
func planKeyBytes(passes int) int { return 60 + 128*(1+passes) }

// reread is a stream of the trace read again, whose errors say that the
// trace changed since it was first read, and whose long names are those
// of names, the first reading's.
func reread(events iter.Seq2[konvoy.Event, error], names runs.LongNames) iter.Seq2[konvoy.Event, error] {
	return func(yield func(konvoy.Event, error) bool) {
		for e, err := range events {
			e.Key, e.Line = names.Same(e.Key), names.Same(e.Line)
			if le := (*eventlog.Error)(nil); errors.As(err, &le) {
				err = fmt.Errorf("%w (the trace changed while konvoy plan read it again)", err)
			} else if err != nil {
				err = planError(err)
			}
			if !yield(e, err) {
				return
			}
		}
	}
}
