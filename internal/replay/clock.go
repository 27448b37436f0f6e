package replay

import (
	"container/heap"
	"context"
	"runtime"
	"sync"
	"time"
)

// Clock wakes many goroutines at their deadlines with the precision of
// SleepUntil but one goroutine's cost: its own goroutine sleeps on a timer
// until coarseMargin before the nearest deadline, then yields the
// processor (runtime.Gosched) until it passes and wakes the goroutines
// waiting for it. Sixteen goroutines each yielding until their own
// deadline keep both cores of a small machine busy and run late (measured
// on a loaded 2-core machine: 0–5ms waits took 3.4 times as long, against
// 1.26 times with time.Sleep); one does not. A Clock must be closed.
type Clock struct {
	mu      sync.Mutex
	waiting deadlines
	kick    chan struct{} // a new nearest deadline, or Close
	done    chan struct{}
	stopped sync.WaitGroup
}

// alarm is one goroutine waiting: closing wake wakes it.
type alarm struct {
	at   time.Time
	wake chan struct{}
}

// deadlines is a min-heap of alarms by time.
type deadlines []alarm

func (d deadlines) Len() int           { return len(d) }
func (d deadlines) Less(i, j int) bool { return d[i].at.Before(d[j].at) }
func (d deadlines) Swap(i, j int)      { d[i], d[j] = d[j], d[i] }
func (d *deadlines) Push(x any)        { *d = append(*d, x.(alarm)) }
func (d *deadlines) Pop() any {
	old := *d
	a := old[len(old)-1]
	*d = old[:len(old)-1]
	return a
}

// NewClock starts a Clock.
func NewClock() *Clock {
	c := &Clock{kick: make(chan struct{}, 1), done: make(chan struct{})}
	c.stopped.Add(1)
	go c.run()
	return c
}

// Close stops the clock's goroutine; goroutines still waiting on it wait
// for their contexts. Close must be called once.
func (c *Clock) Close() {
	close(c.done)
	c.stopped.Wait()
}

// SleepUntil returns at deadline, never before, or when ctx ends first,
// with ctx's error.
func (c *Clock) SleepUntil(ctx context.Context, deadline time.Time) error {
	if !time.Now().Before(deadline) {
		return ctx.Err()
	}
	a := alarm{at: deadline, wake: make(chan struct{})}
	c.mu.Lock()
	heap.Push(&c.waiting, a)
	first := c.waiting[0].wake == a.wake
	c.mu.Unlock()
	if first {
		select {
		case c.kick <- struct{}{}:
		default:
		}
	}
	select {
	case <-a.wake:
		return nil
	case <-ctx.Done():
		return ctx.Err() // the alarm stays, and rings for no one
	}
}

// run is the clock's goroutine.
func (c *Clock) run() {
	defer c.stopped.Done()
	for {
		next, ok := c.ring(time.Now())
		var t *time.Timer
		var timer <-chan time.Time
		switch d := time.Until(next) - coarseMargin; {
		case !ok:
		case d > 0:
			t = time.NewTimer(d)
			timer = t.C
		default:
			select {
			case <-c.done:
				return
			default:
			}
			runtime.Gosched()
			continue
		}
		select {
		case <-timer:
		case <-c.kick:
		case <-c.done:
		}
		if t != nil {
			t.Stop()
		}
		select {
		case <-c.done:
			return
		default:
		}
	}
}

// ring wakes the goroutines whose deadline is not after now, and returns
// the nearest deadline left, if any.
func (c *Clock) ring(now time.Time) (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.waiting) > 0 && !c.waiting[0].at.After(now) {
		close(heap.Pop(&c.waiting).(alarm).wake)
	}
	if len(c.waiting) == 0 {
		return time.Time{}, false
	}
	return c.waiting[0].at, true
}
