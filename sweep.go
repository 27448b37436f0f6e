package konvoy

import (
	"context"
	"errors"
	"iter"
	"runtime"
	"sync"
	"sync/atomic"
)

// Config is one run of a [Sweep]: a layout on a number of consumers, with
// options such as [WithPolicy].
type Config struct {
	Layout    Layout
	Consumers int
	Options   []Option

	orderedOnly bool // runs only the events that change state (Step > 0)
}

// sweepBatch is how many events go to the configurations at a time, and
// sweepBatchBytes how many bytes of keys and lines at most, give or take
// one event's, so that the batches in flight hold a few megabytes however
// long the keys; sweepBatches is how many batches are in flight.
const (
	sweepBatch      = 4096
	sweepBatchBytes = 1 << 20
	sweepBatches    = 3
)

// SweepAhead is the most events [Sweep] reads past the slowest of its
// runs: when a run fails at an event, Sweep has read at most SweepAhead
// events beyond it, so a caller that keeps the last SweepAhead events'
// positions (lines of a file) can say where the failing one is.
const SweepAhead = sweepBatch * sweepBatches

// Sweep runs every configuration over one pass of events, in parallel on
// up to GOMAXPROCS goroutines, and returns their results in the order of
// configs, the same whatever the goroutines' timing; no configurations give
// no results, and the stream is not read. It reads the stream once,
// whatever the number of configurations, and holds at most
// [SweepAhead] events beyond what each run holds itself.
//
// Sweep returns the error of the first event, in input order, that a run
// fails at, of the first such run in configs (an invalid configuration
// fails at the first event); or, when every run took every event, the
// stream's first error; or ctx's error when ctx is done first. Each run's
// memory is its [Simulator]'s. Sweep panics, with a "konvoy:" prefix, when
// events or an option is nil.
func Sweep(ctx context.Context, events iter.Seq2[Event, error], configs []Config) ([]Result, error) {
	if events == nil {
		panic("konvoy: Sweep: events is nil")
	}
	if len(configs) == 0 {
		return nil, nil
	}
	sims := make([]*Simulator, len(configs))
	ordered := make([]bool, len(configs))
	var first *sweepError
	for i, c := range configs {
		s, err := NewSimulator(c.Layout, c.Consumers, c.Options...)
		if err != nil && first == nil {
			first = &sweepError{index: 0, run: i, err: err}
		}
		sims[i], ordered[i] = s, c.orderedOnly
	}
	if first != nil {
		return nil, first.err
	}
	f := newFanOut(sims, ordered, runtime.GOMAXPROCS(0))
	err := f.feed(ctx, events)
	if first = f.wait(); first != nil {
		return nil, first.err
	}
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(sims))
	for i, s := range sims {
		r, err := s.Result()
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// sweepEvents is a run of consecutive events of the stream.
type sweepEvents struct {
	start   int // the input index of events[0]
	events  []Event
	bytes   int          // of the events' keys and lines
	pending atomic.Int32 // workers yet to finish with it
}

// sweepError is the error of the run with index run at input index index.
type sweepError struct {
	index, run int
	err        error
}

// before orders errors by input index, then by run, so that the error
// returned does not depend on how runs are spread over workers.
func (e *sweepError) before(o *sweepError) bool {
	return o == nil || e.index < o.index || e.index == o.index && e.run < o.run
}

// fanOut feeds every event to every simulator, in input order, spreading
// the simulators over worker goroutines: each simulator belongs to one
// worker, which feeds it each batch in turn while the reader fills the next
// one. The batches are recycled, so memory does not grow with the events.
type fanOut struct {
	workers []chan *sweepEvents
	free    chan *sweepEvents
	next    int // the input index of the next batch's first event
	failed  atomic.Bool
	wg      sync.WaitGroup
	errs    []*sweepError // per worker: its first error
}

// newFanOut starts up to n workers, at least one, for sims; a simulator
// marked ordered takes only the events that change state.
func newFanOut(sims []*Simulator, ordered []bool, n int) *fanOut {
	n = max(1, min(n, len(sims)))
	f := &fanOut{free: make(chan *sweepEvents, sweepBatches), errs: make([]*sweepError, n)}
	for range sweepBatches {
		f.free <- &sweepEvents{events: make([]Event, 0, sweepBatch)}
	}
	for w := range n {
		in := make(chan *sweepEvents, sweepBatches)
		f.workers = append(f.workers, in)
		var mine []int
		for i := w; i < len(sims); i += n {
			mine = append(mine, i)
		}
		f.wg.Add(1)
		go f.work(w, sims, ordered, mine, in)
	}
	return f
}

// work feeds the batches that arrive on in to the simulators mine of sims,
// recording the first error, at the lowest input index.
func (f *fanOut) work(w int, sims []*Simulator, ordered []bool, mine []int, in <-chan *sweepEvents) {
	defer f.wg.Done()
	for b := range in {
		for _, si := range mine {
			if sims[si].err != nil {
				continue
			}
			for i, e := range b.events {
				if ordered[si] && e.Step == 0 {
					continue
				}
				if err := sims[si].Add(e); err != nil {
					var ev *EventError
					if ordered[si] && errors.As(err, &ev) {
						ev.Index = b.start + i // not the index among the events it took
					}
					if e := (&sweepError{index: b.start + i, run: si, err: err}); e.before(f.errs[w]) {
						f.errs[w] = e
					}
					f.failed.Store(true)
					break
				}
			}
		}
		if b.pending.Add(-1) == 0 {
			b.events, b.bytes = b.events[:0], 0
			f.free <- b
		}
	}
}

// feed reads events in batches and hands each to every worker, until the
// stream ends or fails, a simulator fails, or ctx is done; it returns the
// stream's error or ctx's.
func (f *fanOut) feed(ctx context.Context, events iter.Seq2[Event, error]) error {
	b := <-f.free
	for e, err := range events {
		if err != nil {
			f.send(b)
			return err
		}
		b.events = append(b.events, e)
		b.bytes += len(e.Key) + len(e.Line)
		if len(b.events) < sweepBatch && b.bytes < sweepBatchBytes {
			continue
		}
		if !f.send(b) {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		b = <-f.free
		// A run fails before the batch it fails in is freed, and batches
		// are freed in the order sent: so a free batch found after a
		// failure is the failing one, and reading on would go more than
		// SweepAhead events past the failing event.
		if f.failed.Load() {
			f.free <- b
			return nil
		}
	}
	f.send(b)
	return ctx.Err()
}

// send hands b to every worker, and reports whether the simulators are all
// still well; an empty b goes back to the free list.
func (f *fanOut) send(b *sweepEvents) bool {
	if len(b.events) == 0 {
		f.free <- b
		return !f.failed.Load()
	}
	b.start = f.next
	f.next += len(b.events)
	b.pending.Store(int32(len(f.workers)))
	for _, in := range f.workers {
		in <- b
	}
	return !f.failed.Load()
}

// wait lets the workers finish and returns the error at the lowest input
// index, if any simulator failed, of the first simulator among equals.
func (f *fanOut) wait() *sweepError {
	for _, in := range f.workers {
		close(in)
	}
	f.wg.Wait()
	var first *sweepError
	for _, e := range f.errs {
		if e != nil && e.before(first) {
			first = e
		}
	}
	return first
}
