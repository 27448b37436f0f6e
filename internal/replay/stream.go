package replay

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/runs"
	"github.com/sirali-konvoy/konvoy/live"
)

// Stream replays events that come from outside as they come, such as a
// Kafka topic's records: the source submits each to its own executor, and
// the Stream stamps its arrival, keeps it for the prediction and times its
// handler. The events are kept as a Trace is, in a temporary file, and
// the handlers' times as a Run's, so that its memory grows with keys and
// lanes, never with the events; once the source has stopped, Close gives
// the Trace and the Run that [Compare] sets side by side.
//
// Its methods are safe for concurrent use.
type Stream struct {
	c        Config
	progress *Progress
	clock    *Clock
	h        *handlers
	rec      *recorder
	recorded chan error

	mu       sync.Mutex // guards what follows
	w        *traceWriter
	run      *Run
	arrivals *bufio.Writer // to run.arrivals, in the order added
	at       [8]byte       // room for an arrival
	err      error         // the first error of Add, which ends the stream
	closed   bool
	// unrun are the last items added, by partition and offset, that are
	// not handled, each with how many of its Handles run: a source that
	// fetches a record again whose last copy it finished without running
	// it (revoked before it ran) adds it again, and it is the same event
	// (see Add). It holds the items held, and those finished unrun and
	// not fetched again: at most the items held at each revocation.
	unrun   map[[2]int64]*pendingItem
	fetched int // Adds of an item already added and not run: see Close

	handled atomic.Int64 // the Handle calls that returned nil: see Handled
}

// StreamItem is one event of a Stream, as Add returns it for Handle.
type StreamItem struct{ it item }

// pendingItem is an item added to a Stream and not handled, and how many
// of its Handles run.
type pendingItem struct {
	it      item
	running int
}

// Event returns the event, its arrival stamped.
func (s StreamItem) Event() konvoy.Event { return s.it.e }

// NewStream starts a Stream named name (as the comparison names it) under
// c, whose round 0 is now. Each handled event is written to applied,
// unless nil, as a JSON line when its handler returns; progress, unless
// nil, counts the events as they go. The Stream must be closed.
func NewStream(name string, c Config, applied io.Writer, progress *Progress) (*Stream, error) {
	w, err := newTraceWriter(name, c)
	if err != nil {
		return nil, err
	}
	actual, err := newTempFile()
	if err != nil {
		w.t.Close()
		return nil, err
	}
	arrivals, err := newTempFile()
	if err != nil {
		w.t.Close()
		actual.Close()
		return nil, err
	}
	if progress == nil {
		progress = new(Progress)
	}
	s := &Stream{c: c, w: w, progress: progress, recorded: make(chan error, 1), clock: NewClock(),
		run: &Run{actual: actual, arrivals: arrivals, Start: time.Now()}, arrivals: bufio.NewWriterSize(arrivals, 1<<16)}
	s.h = &handlers{clock: s.clock, unit: c.Unit, progress: progress, done: make(chan []finished, 64), batches: make([][]finished, c.Consumers)}
	s.rec = newRecorder(s.run, c, applied)
	s.rec.start = s.run.Start
	go func() { s.recorded <- s.rec.record(s.h.done) }()
	return s, nil
}

// Add takes e, arrived now: its arrival becomes the whole rounds of c.Unit
// since the Stream started, rounded down, while the measured run and both
// predictions take the instant itself (the predictions to the microsecond
// or finer; see Compare), and it is checked as the simulator takes it and
// kept for the prediction; part and offset are what its -applied line
// names. It returns the item to hand to Handle, or the simulator's error
// for e, which ends the stream: every later Add returns it too. An event
// of a part and offset added before, whose last item's Handle neither
// runs nor returned nil, is the same event fetched again, its last copy
// finished unrun (a record revoked before it ran, fetched again once its
// partition came back): Add returns that item, e aside, so that the
// prediction and the report count it once, at its first arrival. One
// whose last item runs, or ran, is a second event: it runs twice.
// rounded is how many of e's duration and arrival its reader rounded to
// whole rounds (-round): the Trace's Rounded counts them for an event,
// not for a copy fetched again, which is no event of its own.
func (s *Stream) Add(e konvoy.Event, part int, offset int64, rounded int) (StreamItem, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		panic("konvoy: replay.Stream.Add after Close")
	case s.err != nil:
		return StreamItem{}, s.err
	}
	key := [2]int64{int64(part), offset}
	if p, ok := s.unrun[key]; ok && p.running == 0 {
		s.fetched++
		return StreamItem{p.it}, nil
	}
	at := time.Since(s.run.Start)
	e.Arrival = whole(at / s.c.Unit) // which the simulator refuses past an int
	if err := s.w.add(e); err != nil {
		s.err = fmt.Errorf("%s: event %d: %w", s.w.t.Name, s.w.t.Events, err)
		if ev := (*konvoy.EventError)(nil); errors.As(err, &ev) {
			// The event's message names it by its index, without the
			// simulator's "konvoy: ", as Load's do.
			s.err = runs.Located{Where: s.w.t.Name, Err: err}
		}
		return StreamItem{}, s.err
	}
	if _, err := s.arrivals.Write(binary.LittleEndian.AppendUint64(s.at[:0], uint64(at))); err != nil {
		s.err = fmt.Errorf("replay: keeping the arrivals in a temporary file: %w", err)
		return StreamItem{}, s.err
	}
	s.run.Submitted++
	s.w.t.Rounded += rounded
	s.progress.submitted.Add(1)
	it := item{index: s.w.t.Events - 1, e: e, part: part, offset: offset, at: at}
	if s.unrun == nil {
		s.unrun = map[[2]int64]*pendingItem{}
	}
	s.unrun[key] = &pendingItem{it: it}
	return StreamItem{it}, nil
}

// Handle is the handler of it: it takes it's duration × c.Unit from its
// own start on the Stream's clock, and records it. It returns ctx's error
// when ctx ends first.
func (s *Stream) Handle(ctx context.Context, it StreamItem) error {
	s.mark(it.it, 1, false)
	err := s.h.handle(ctx, it.it)
	if err == nil {
		s.handled.Add(1)
	}
	s.mark(it.it, -1, err == nil) // cut short: it may be fetched again
	return err
}

// mark counts a Handle of it that starts (by 1) or returns (by -1), and
// forgets it once one returned nil (handled), unless a later copy of its
// record was added since, whose own Handles count.
func (s *Stream) mark(it item, by int, handled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := [2]int64{int64(it.part), it.offset}
	switch p, ok := s.unrun[key]; {
	case !ok || p.it.index != it.index: // a later copy's, or forgotten
	case handled:
		delete(s.unrun, key)
	default:
		p.running += by
	}
}

// Close ends the stream once no handler runs any more and no event is
// added: stats are its executor's measures once it was closed. It returns
// the Trace of the events added and their Run, both to be closed, or the
// error of the files the Stream wrote. With no events added, as from a
// source stopped before any came, both are empty: the Run's Submitted is
// 0, and [Compare] predicts nothing. notRun counts the events the executor
// counts done (stats.Done) whose Handle was never called: a source that
// finishes an item without handling it, as package kafka does a record
// revoked before it ran or finished by an earlier member; they take no
// time in the run, their planned time in the prediction. A copy fetched
// again of an item finished unrun is the same event (see Add), counted
// once, as the executor took each copy; one the executor turned away, as
// it closed, is taken for taken all the same (the Stream cannot tell), so
// that the run covers an event fewer, "stopped early", and counts one
// fewer not run.
//
// The source adds each event as its executor places it (its event
// function), in order, and the executor takes the first stats.Events of
// them: when fewer than were added, as when the executor closed while it
// placed a batch ([live.Executor.SubmitAll]) and turned the rest away,
// the Run's Submitted counts those taken, and the comparison covers them
// alone, as a file's replay stopped early does ("stopped early: N of M").
func (s *Stream) Close(stats live.Stats) (t *Trace, run *Run, notRun int, err error) {
	s.mu.Lock()
	s.closed = true
	added, addErr, fetched := s.run.Submitted, s.err, s.fetched
	s.unrun = nil
	s.mu.Unlock()
	s.h.flush()
	rerr := <-s.recorded
	s.clock.Close()
	run, rec := s.run, s.rec
	run.Stats, run.Total = stats, added
	run.Submitted = min(added, max(stats.Events-fetched, 0)) // the executor took each copy fetched again
	if !rec.last.IsZero() {
		run.Makespan = rec.last.Sub(run.Start)
	}
	run.Work, run.Wait, run.Response = rec.work, rec.wait.Latency(), rec.response.Latency()
	err = rerr
	if ferr := s.arrivals.Flush(); ferr != nil && err == nil {
		err = fmt.Errorf("replay: keeping the arrivals in a temporary file: %w", ferr)
	}
	switch {
	case err != nil:
	case addErr != nil:
		err = addErr
	case added == 0:
		err = s.w.end() // a source stopped before any event came: an empty run
	default:
		err = s.w.finish()
	}
	if err != nil {
		s.w.t.Close()
		run.Close()
		return nil, nil, 0, err
	}
	return s.w.t, run, max(0, stats.Done-s.Handled()-fetched), nil // a copy fetched again: its first finished unrun
}

// Handled counts the Handle calls that returned nil so far: the events
// handled, as the executor counts them done, but for those it finished
// without calling Handle. A handler cut short, its context ended, counts
// in neither.
func (s *Stream) Handled() int { return int(s.handled.Load()) }

// LiveOptions are the executor options a source running the Stream's
// handlers should pass under c: its policy, assignor and the most events
// held; under the version stamp, a store of versions of its own that only
// advances (see advancing).
func (c Config) LiveOptions() []live.Option {
	opts := []live.Option{live.WithPolicy(c.Policy), live.WithMaxHeld(c.HeldMost())}
	if c.Assignor != 0 {
		opts = append(opts, live.WithAssignor(c.Assignor))
	}
	switch {
	case c.Layout.Equal(konvoy.Resequencer):
		opts = append(opts, live.WithResequencer(c.Resequencer, c.Unit))
	case c.Layout.Equal(konvoy.VersionStamp):
		opts = append(opts, live.WithVersions(advancing{new(live.MemoryVersions)}))
	}
	return opts
}

// advancing is a version store that only advances, no live.VersionReader,
// so that the executor runs a stale step's handler and skips only its
// write, at Advance, as the model runs a stale event for its duration and
// drops its write. Package live's default, a VersionReader, skips a stale
// step without running it: the measured run would then not be the run
// predicted, its gap put on dispatch.
type advancing struct{ versions *live.MemoryVersions }

// Advance advances key's version to step unless it is past it.
func (a advancing) Advance(ctx context.Context, key string, step int) (bool, error) {
	return a.versions.Advance(ctx, key, step)
}
