package main

import (
	"sync"
	"sync/atomic"

	"github.com/sirali-konvoy/konvoy"
)

// batchSize is how many events go to the simulators at a time, and
// batchBytes how many bytes of keys and lines at most, give or take one
// event's: so that the batches in flight hold a few megabytes, however long
// the keys.
const (
	batchSize  = 4096
	batchBytes = 1 << 20
)

// batch is a run of consecutive events of the trace and the line of each.
type batch struct {
	start   int // the input index of events[0]
	events  []konvoy.Event
	lines   []int
	bytes   int          // of the events' keys and lines
	pending atomic.Int32 // workers yet to finish with it
}

// add adds event e, read at line, and reports whether b is full.
func (b *batch) add(e konvoy.Event, line int) (full bool) {
	b.events = append(b.events, e)
	b.lines = append(b.lines, line)
	b.bytes += len(e.Key) + len(e.Line)
	return len(b.events) == batchSize || b.bytes >= batchBytes
}

// simError is the error of simulator sim, by its place among all, at an
// input index and line.
type simError struct {
	index, line, sim int
	err              error
}

// before orders errors by input index, then by simulator, so that the
// error reported does not depend on how simulators are spread over
// workers.
func (e *simError) before(o *simError) bool {
	return o == nil || e.index < o.index || e.index == o.index && e.sim < o.sim
}

// fanOut feeds every event to every simulator, in input order, spreading
// the simulators over worker goroutines: each simulator belongs to one
// worker, which feeds it each batch in turn, while the reader fills the next
// batch. The batches are recycled, so memory does not grow with the events.
type fanOut struct {
	workers []chan *batch
	free    chan *batch
	next    int // the input index of the next batch's first event
	failed  atomic.Bool
	wg      sync.WaitGroup
	errs    []*simError // per worker: its first error
}

// newFanOut starts up to n workers, at least one, for sims.
func newFanOut(sims []*konvoy.Simulator, n int) *fanOut {
	n = max(1, min(n, len(sims)))
	f := &fanOut{free: make(chan *batch, 3), errs: make([]*simError, n)}
	for range cap(f.free) {
		f.free <- &batch{events: make([]konvoy.Event, 0, batchSize), lines: make([]int, 0, batchSize)}
	}
	for w := range n {
		in := make(chan *batch, cap(f.free))
		f.workers = append(f.workers, in)
		var mine []int
		for i := w; i < len(sims); i += n {
			mine = append(mine, i)
		}
		f.wg.Add(1)
		go f.work(w, sims, mine, in)
	}
	return f
}

// work feeds the batches that arrive on in to the simulators mine of sims,
// recording the first error, at the lowest input index.
func (f *fanOut) work(w int, sims []*konvoy.Simulator, mine []int, in <-chan *batch) {
	defer f.wg.Done()
	for b := range in {
		for _, si := range mine {
			for i, e := range b.events {
				if err := sims[si].Add(e); err != nil {
					if e := (&simError{index: b.start + i, line: b.lines[i], sim: si, err: err}); e.before(f.errs[w]) {
						f.errs[w] = e
					}
					f.failed.Store(true)
					break
				}
			}
		}
		if b.pending.Add(-1) == 0 {
			b.events, b.lines, b.bytes = b.events[:0], b.lines[:0], 0
			f.free <- b
		}
	}
}

// batch returns an empty batch to fill, waiting for one to be free.
func (f *fanOut) batch() *batch { return <-f.free }

// send hands b to every worker, and reports whether the simulators are all
// still well; an empty b goes back to the free list.
func (f *fanOut) send(b *batch) bool {
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
func (f *fanOut) wait() *simError {
	for _, in := range f.workers {
		close(in)
	}
	f.wg.Wait()
	var first *simError
	for _, e := range f.errs {
		if e != nil && e.before(first) {
			first = e
		}
	}
	return first
}
