// Package replay runs a trace live, through package live's executor, with
// handlers that take each event's duration in wall time, and compares the
// run with the simulator's prediction for the same events: the machinery
// of konvoy replay, usable by any program that wants to check a layout's
// live behaviour against the model. Its memory grows with the trace's keys
// and lanes and the events held at once, never with the trace's length:
// the trace and each event's measured service time are kept in temporary
// files, and the -applied lines written as handlers finish.
package replay

import (
	"bufio"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

// DefaultMaxHeld is the most events a replay's executor holds at once
// unless Config.MaxHeld says otherwise: the events arrived and not yet
// finished. The model's backlog is unbounded; a trace whose backlog
// outgrows the executor's room is submitted late (Run.Late says by how
// much), and a policy that chooses among the events held (lane-aware,
// static) chooses among fewer than the model's.
const DefaultMaxHeld = 1 << 16

// Config is one replay: the layout and policy the executor runs, as the
// simulator's run that predicts it, its consumers, and how long one round
// lasts.
type Config struct {
	Layout    konvoy.Layout
	Policy    konvoy.Policy
	Assignor  konvoy.Assignor // how Static deals lanes, 0 for the default
	Consumers int
	// Unit is the wall time of one round: an event of duration d is handled
	// in d·Unit, and an event arriving at round a is submitted a·Unit after
	// the replay starts. At least a microsecond.
	Unit time.Duration
	// MaxHeld is the most events the executor holds at once, 0 for
	// DefaultMaxHeld.
	MaxHeld int
	// MaxBacklog is the most events each prediction may hold at once
	// (konvoy.WithMaxBacklog): those a lane-aware run keeps waiting for a
	// consumer, say, which grow with a trace whose lanes fall behind. 0
	// sets no limit; a prediction over it is an error naming the event.
	MaxBacklog int
	// Resequencer configures the resequencer layout, as
	// konvoy.WithResequencer does the prediction's; its Timeout is in
	// rounds of Unit, the executor's in wall time.
	Resequencer konvoy.ResequencerConfig
	// Text refuses an event whose key or line is not valid UTF-8, for a
	// replay that writes them as JSON, whose strings hold only UTF-8 text
	// (two keys that differ in invalid bytes alone would read as one).
	Text bool
	// MaxNameBytes bounds what the trace's distinct keys and lines take as
	// Load reads it, their names and KeyBytes each, which the predictions
	// hold too: a trace over it is an error at the event that passes it. 0
	// sets no bound.
	MaxNameBytes int
}

// KeyBytes is what Config.MaxNameBytes counts for a key or a line beside
// its name: its place in a prediction's key table (some 88 bytes) and in
// Load's count of them.
const KeyBytes = 160

// DefaultMaxBacklog is the command's Config.MaxBacklog unless told
// otherwise: at a few hundred bytes an event held, a prediction then
// takes at most some hundreds of megabytes, whatever the trace's length.
const DefaultMaxBacklog = 1 << 20

// check returns an error when c cannot replay.
func (c Config) check() error {
	switch {
	case c.Unit < time.Microsecond:
		return fmt.Errorf("replay: one round lasts %v; want at least 1µs", c.Unit)
	case c.Consumers < 1 || c.Consumers > live.MaxConsumers:
		return fmt.Errorf("replay: %d consumers; want 1 to %d", c.Consumers, live.MaxConsumers)
	case c.MaxHeld < 0:
		return fmt.Errorf("replay: at most %d events held; want 1 or more, or 0 for %d", c.MaxHeld, DefaultMaxHeld)
	case c.MaxBacklog < 0:
		return fmt.Errorf("replay: a backlog of at most %d events; want 0 (no limit) or more", c.MaxBacklog)
	case c.Resequencer.Timeout < 0 || c.Resequencer.Capacity < 0 || c.Resequencer.Start > konvoy.StartFirstSeen:
		return fmt.Errorf("replay: the resequencer's %+v; want a known Start, and a Timeout and Capacity of 0 (none) or more", c.Resequencer)
	case int64(c.Resequencer.Timeout) > math.MaxInt64/int64(c.Unit):
		return fmt.Errorf("replay: a resequencer's timeout of %d rounds of %v passes the longest time.Duration", c.Resequencer.Timeout, c.Unit)
	}
	return nil
}

// options are the simulator's options for c.
func (c Config) options() []konvoy.Option {
	opts := []konvoy.Option{konvoy.WithPolicy(c.Policy), konvoy.WithMaxBacklog(c.MaxBacklog)}
	if c.Assignor != 0 {
		opts = append(opts, konvoy.WithAssignor(c.Assignor))
	}
	if c.Layout.Equal(konvoy.Resequencer) {
		opts = append(opts, konvoy.WithResequencer(c.Resequencer))
	}
	return opts
}

// HeldMost is the most events the executor holds: c.MaxHeld, or its
// default.
func (c Config) HeldMost() int {
	if c.MaxHeld == 0 {
		return DefaultMaxHeld
	}
	return c.MaxHeld
}

// Progress counts a replay's events as it runs, for a progress line; its
// methods may be called from any goroutine at any time.
type Progress struct{ submitted, finished atomic.Int64 }

// Submitted counts the events submitted so far, Finished those whose
// handler returned.
func (p *Progress) Submitted() int { return int(p.submitted.Load()) }

// Finished counts the events whose handler returned so far.
func (p *Progress) Finished() int { return int(p.finished.Load()) }

// Run is a replay's measured run.
type Run struct {
	// Start is when the replay started: round 0.
	Start time.Time
	// Submitted counts the events submitted, a prefix of the trace: all
	// Total of them unless the replay's context ended first, or the
	// executor stopped.
	Submitted, Total int
	// Stats are the executor's measures once it was closed.
	Stats live.Stats
	// Makespan is the time from Start to the last handler's finish; Work
	// the handlers' times summed.
	Makespan, Work time.Duration
	// Wait and Response are measured from each event's arrival (Start +
	// Arrival × Unit for a trace; for a Stream the instant it was added,
	// not rounded) to its handler's start and finish, in latencyUnit,
	// with the model's percentiles: unlike Stats.Wait, from submission,
	// they count an event submitted late, for want of room, from when it
	// was due.
	Wait, Response konvoy.Latency
	// Late counts the events submitted more than a round after their
	// arrival, because the executor held MaxHeld events or the machine was
	// busy; LateBy sums their lateness, up to the longest time.Duration.
	Late   int
	LateBy time.Duration
	// actual holds each event's service time in nanoseconds plus 1, 8 bytes
	// an event in trace order, 0 for one not handled (see timesCache.put).
	actual *tempFile
	// arrivals holds, for a Stream's run, each event's arrival since Start
	// in nanoseconds, 8 bytes an event in trace order (see Stream.Add); nil
	// for a trace's, whose arrivals are their rounds × Unit.
	arrivals *tempFile
}

// Interrupted tells whether the replay stopped before submitting every
// event.
func (r *Run) Interrupted() bool { return r.Submitted < r.Total }

// Close removes the run's temporary file.
func (r *Run) Close() error {
	err := r.actual.Close()
	if r.arrivals != nil {
		err = errors.Join(err, r.arrivals.Close())
	}
	return err
}

// item is one event of a replay, as the executor holds it: its index in
// the trace, and the partition and offset its -applied line gives.
type item struct {
	index  int
	e      konvoy.Event
	part   int
	offset int64
	// at is when the event arrived, since the run's start: its arrival ×
	// the unit for a trace; for a Stream the instant it was added, which
	// its Arrival, in whole rounds, rounds down.
	at time.Duration
}

// finished is one handled event, as a handler reports it.
type finished struct {
	item
	consumer      int
	start, finish time.Time
}

// Live replays t under c: each event is submitted to a live.Executor at
// its arrival × c.Unit after the start, and its handler takes its
// duration × c.Unit from its own start, waiting on a Clock that all
// handlers share. Each handled event is written to applied, unless nil, as
// a JSON line when its handler returns (see appendApplied). When
// ctx ends, no more events are submitted, and those submitted are run to
// the end before Live returns: the run then covers the first
// Run.Submitted events. progress, unless nil, counts the events as they
// go. The Run must be closed.
func Live(ctx context.Context, t *Trace, c Config, applied io.Writer, progress *Progress) (*Run, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if progress == nil {
		progress = new(Progress)
	}
	actual, err := newTempFile()
	if err != nil {
		return nil, err
	}
	run := &Run{Total: t.Events, actual: actual}
	clock := NewClock()
	defer clock.Close()
	h := &handlers{clock: clock, unit: c.Unit, progress: progress, done: make(chan []finished, 64), batches: make([][]finished, c.Consumers)}
	x, err := live.New(c.Layout, c.Consumers, func(it item) konvoy.Event { return it.e }, h.handle, c.LiveOptions()...)
	if err != nil {
		actual.Close()
		return nil, err
	}
	rec := newRecorder(run, c, applied)
	recorded := make(chan error, 1)
	run.Start = time.Now()
	rec.start = run.Start
	go func() { recorded <- rec.record(h.done) }()
	serr := submit(ctx, t, c, x, clock, run, progress)
	err = x.Close(context.Background())
	if unrun := (*live.UnrunError[item])(nil); errors.As(err, &unrun) && err == error(unrun) && errors.Is(unrun.Err, live.ErrNeverApplied) {
		err = nil // gaps that never filled: counted in NeverApplied, as the model counts them
	}
	h.flush()
	rerr := <-recorded
	run.Stats = x.Stats()
	if !rec.last.IsZero() {
		run.Makespan = rec.last.Sub(run.Start)
	}
	run.Work, run.Wait, run.Response = rec.work, rec.wait.Latency(), rec.response.Latency()
	for _, e := range []error{serr, rerr} {
		if err == nil {
			err = e
		}
	}
	if err != nil {
		run.Close()
		return nil, err
	}
	return run, nil
}

// handlers are a replay's handlers: each waits on clock for its event's
// duration and reports the event done, in batches by consumer.
type handlers struct {
	clock    *Clock
	unit     time.Duration
	progress *Progress
	done     chan []finished
	batches  [][]finished // by consumer, which runs one handler at a time
}

// handle is the handler of it. A handler whose ctx ends first returns its
// error, cut short: the event is not handled, and gets no -applied line
// and no service time.
func (h *handlers) handle(ctx context.Context, it item) error {
	start := time.Now()
	if err := h.clock.SleepUntil(ctx, start.Add(time.Duration(it.e.Duration)*h.unit)); err != nil {
		return err
	}
	finish := time.Now()
	h.progress.finished.Add(1)
	w, ok := live.Consumer(ctx)
	if !ok || w < 0 || w >= len(h.batches) {
		h.done <- []finished{{it, w, start, finish}}
		return nil
	}
	if h.batches[w] = append(h.batches[w], finished{it, w, start, finish}); len(h.batches[w]) == batch {
		h.done <- h.batches[w]
		h.batches[w] = make([]finished, 0, batch)
	}
	return nil
}

// flush reports the events of the batches not yet full and closes done.
// No handler may run any more.
func (h *handlers) flush() {
	for _, b := range h.batches {
		if len(b) > 0 {
			h.done <- b
		}
	}
	close(h.done)
}

// submit submits t's events to x, each at its arrival, until ctx ends or
// x stops, counting them in run.Submitted and the late ones in run.Late.
// An event is submitted once the one before it is: when the executor is
// full, the events due meanwhile are submitted late.
func submit(ctx context.Context, t *Trace, c Config, x *live.Executor[item], clock *Clock, run *Run, p *Progress) error {
	var full error // the executor full of events held for gaps
	err := t.each(t.Events, func(i int, e konvoy.Event) bool {
		due := run.Start.Add(time.Duration(e.Arrival) * c.Unit)
		if ctx.Err() != nil || clock.SleepUntil(ctx, due) != nil {
			return false
		}
		part := -1
		if t.Partitions {
			part = e.Partition
		}
		if err := x.Submit(ctx, item{index: i, e: e, part: part, offset: int64(i), at: due.Sub(run.Start)}); err != nil {
			if errors.Is(err, live.ErrGapsFull) {
				full = fmt.Errorf("replay: %s: event %d (counted from 0, as -applied's offsets): %w (raise -max-held, or give gaps up with -reseq-timeout or a -reseq-capacity below -max-held)", t.Name, i, err)
			}
			return false // stopped while it waited for room, or the executor stopped: Close says why
		}
		if late := time.Since(due); late > c.Unit {
			run.Late++
			run.LateBy += min(late, math.MaxInt64-run.LateBy) // stops at the longest time.Duration: 292 years
		}
		run.Submitted = i + 1
		p.submitted.Store(int64(run.Submitted))
		return true
	})
	return cmp.Or(err, full)
}

// batch is how many handled events a consumer reports at a time, so that
// the recorder's goroutine is woken once for many.
const batch = 256

// recorder takes the handled events from the handlers, one at a time: it
// sums their times and latencies, keeps their service times in the run's
// file and writes their -applied lines.
type recorder struct {
	run             *Run
	c               Config
	applied         *bufio.Writer // nil for none
	start, last     time.Time
	work            time.Duration
	wait, response  konvoy.LatencyCounter
	appliedErr, err error
}

// newRecorder returns the recorder of run.
func newRecorder(run *Run, c Config, applied io.Writer) *recorder {
	r := &recorder{run: run, c: c}
	if applied != nil {
		r.applied = bufio.NewWriterSize(applied, 1<<16)
	}
	return r
}

// record records each handled event from done until it is closed, and
// returns the first error of the files it writes.
func (r *recorder) record(done <-chan []finished) error {
	times := &timesCache{f: r.run.actual}
	var line []byte
	for fs := range done {
		for _, f := range fs {
			line = r.one(f, times, line)
		}
	}
	if err := times.flush(); err != nil && r.err == nil {
		r.err = fmt.Errorf("replay: keeping the service times in a temporary file: %w", err)
	}
	return r.finish()
}

// latencyUnit is what a Run's Wait and Response count: nanoseconds, or,
// where int has 32 bits and holds 2.1 s of them, microseconds, of which
// it holds 35 minutes.
var latencyUnit = map[bool]time.Duration{true: time.Nanosecond, false: time.Microsecond}[strconv.IntSize == 64]

// latencyUnits returns d, 0 if below, in latencyUnit, math.MaxInt for more.
func latencyUnits(d time.Duration) int {
	return int(min(max(d, 0)/latencyUnit, time.Duration(math.MaxInt)))
}

// one records f, using line as room for its -applied line, which it
// returns.
func (r *recorder) one(f finished, times *timesCache, line []byte) []byte {
	took := f.finish.Sub(f.start)
	r.work += took
	if f.finish.After(r.last) {
		r.last = f.finish
	}
	due := r.start.Add(f.at)
	r.wait.Add(latencyUnits(f.start.Sub(due)))
	r.response.Add(latencyUnits(f.finish.Sub(due)))
	if err := times.put(f.index, took); err != nil && r.err == nil {
		r.err = fmt.Errorf("replay: keeping the service times in a temporary file: %w", err)
	}
	if r.applied != nil && r.appliedErr == nil {
		line = appendApplied(line[:0], f, r.start)
		_, r.appliedErr = r.applied.Write(line)
	}
	return line
}

// finish flushes the -applied lines and returns the first error of the
// files the recorder wrote.
func (r *recorder) finish() error {
	if r.applied != nil && r.appliedErr == nil {
		r.appliedErr = r.applied.Flush()
	}
	if r.appliedErr != nil && r.err == nil {
		r.err = fmt.Errorf("konvoy replay: -applied: %w", r.appliedErr) // the flag is the command's: it names itself, as for the file's create and close
	}
	return r.err
}

// appliedLine is one line of the -applied file.
type appliedLine struct {
	Partition int    `json:"partition"`
	Offset    int64  `json:"offset"`
	Key       string `json:"key"`
	Step      int    `json:"step"`
	Consumer  int    `json:"consumer"`
	Attempt   int    `json:"attempt"`
	ArrivalNS int64  `json:"arrival_ns"`
	StartNS   int64  `json:"start_ns"`
	FinishNS  int64  `json:"finish_ns"`
}

// appendApplied appends f's -applied line to b: its partition and
// offset (a trace's recorded partition, or -1, and its index in the
// trace; a topic's record's own), key, step, consumer, attempt (1: a
// replay does not retry), and its arrival and its handler's start and
// finish in Unix nanoseconds: start's, the run's start, plus the time
// since on the monotonic clock, so that start_ns − arrival_ns is the wait
// the run measured, whatever the wall clock did meanwhile.
func appendApplied(b []byte, f finished, start time.Time) []byte {
	base := start.UnixNano()
	line, _ := json.Marshal(appliedLine{Partition: f.part, Offset: f.offset, Key: f.e.Key, Step: f.e.Step, Consumer: f.consumer,
		Attempt: 1, ArrivalNS: base + int64(f.at), StartNS: base + int64(f.start.Sub(start)), FinishNS: base + int64(f.finish.Sub(start))})
	return append(append(b, line...), '\n')
}

// actualTimes returns a function that gives, at each call, the service
// time of the run's next event, in trace order, and whether it was
// handled: the file holds each handled event's time plus 1 (see
// timesCache.put), and 0 for an event not handled.
func (r *Run) actualTimes() func() (took time.Duration, handled bool, err error) {
	br := bufio.NewReaderSize(io.NewSectionReader(r.actual, 0, int64(r.Total)*8), 1<<16)
	var b [8]byte
	return func() (time.Duration, bool, error) {
		_, err := io.ReadFull(br, b[:])
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return 0, false, nil // past the last written: not handled
		}
		v := binary.LittleEndian.Uint64(b[:])
		return time.Duration(v) - 1, v > 0, err
	}
}

// arrivalTimes returns a function that gives, at each call, the arrival
// since Start of the run's next event e, in trace order: a Stream's
// instant, as Add kept it, or a trace's rounds × unit.
func (r *Run) arrivalTimes(unit time.Duration) func(e konvoy.Event) (time.Duration, error) {
	if r.arrivals == nil {
		return func(e konvoy.Event) (time.Duration, error) { return time.Duration(e.Arrival) * unit, nil }
	}
	br := bufio.NewReaderSize(io.NewSectionReader(r.arrivals, 0, int64(r.Total)*8), 1<<16)
	var b [8]byte
	return func(konvoy.Event) (time.Duration, error) {
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return 0, fmt.Errorf("replay: reading the arrivals back from a temporary file: %w", err)
		}
		return time.Duration(binary.LittleEndian.Uint64(b[:])), nil
	}
}

// timesCache writes service times to a run's file, 8 bytes an event at
// the event's index, through a window of timesChunk events held in
// memory: events finish nearly in trace order, so that most writes land
// in the window, and the window is written back when a write falls
// outside it, and read afresh where it moves to.
type timesCache struct {
	f     *tempFile
	base  int // the window's first index, -1 before the first write
	buf   [timesChunk * 8]byte
	dirty bool
}

// timesChunk is how many events' times a timesCache holds.
const timesChunk = 8192

// put writes the time of event i, which its handler handled, as took+1, so
// that 0 stays the word of an event not handled.
func (c *timesCache) put(i int, took time.Duration) error {
	if !c.dirty || i < c.base || i >= c.base+timesChunk {
		if err := c.flush(); err != nil {
			return err
		}
		c.base = i / timesChunk * timesChunk
		n, err := c.f.ReadAt(c.buf[:], int64(c.base)*8)
		if err != nil && err != io.EOF {
			return err
		}
		clear(c.buf[n:])
		c.dirty = true
	}
	binary.LittleEndian.PutUint64(c.buf[(i-c.base)*8:], uint64(took)+1)
	return nil
}

// flush writes the window back.
func (c *timesCache) flush() error {
	if !c.dirty {
		return nil
	}
	c.dirty = false
	_, err := c.f.WriteAt(c.buf[:], int64(c.base)*8)
	return err
}
