// Package replay runs a trace live, through package live's executor, with
// handlers that take each event's duration in wall time, and compares the
// run with the simulator's prediction for the same events: the machinery
// of konvoy replay, usable by any program that wants to check a layout's
// live behaviour against the model.
package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/live"
)

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
}

// Handled is what became of one event in a replay: the consumer that ran
// its handler, the attempt (1: replays do not retry), and when the handler
// started and finished. A zero Finish means the event was not handled (its
// replay was stopped before it was submitted, or the version stamp skipped
// it).
type Handled struct {
	Consumer, Attempt int
	Start, Finish     time.Time
}

// Run is a replay's measured run.
type Run struct {
	// Start is when the replay started: round 0.
	Start time.Time
	// Submitted counts the events submitted, a prefix of the trace: all of
	// them unless the replay's context ended first.
	Submitted int
	// Handled holds, by event index, what became of each event.
	Handled []Handled
	// Stats are the executor's measures once it was closed.
	Stats live.Stats
	// Makespan is the time from Start to the last handler's finish.
	Makespan time.Duration
}

// Interrupted tells whether the replay stopped before submitting every
// event.
func (r *Run) Interrupted() bool { return r.Submitted < len(r.Handled) }

// check returns an error when c cannot replay events.
func (c Config) check(events []konvoy.Event) error {
	switch {
	case len(events) == 0:
		return errors.New("replay: no events; want at least one")
	case c.Unit < time.Microsecond:
		return fmt.Errorf("replay: one round lasts %v; want at least 1µs", c.Unit)
	case c.Consumers < 1 || c.Consumers > live.MaxConsumers:
		return fmt.Errorf("replay: %d consumers; want 1 to %d", c.Consumers, live.MaxConsumers)
	}
	last := events[len(events)-1].Arrival
	var work int
	for _, e := range events {
		work += e.Duration
	}
	if rounds := float64(last) + float64(work); rounds*float64(c.Unit) > math.MaxInt64/2 {
		return fmt.Errorf("replay: %v rounds of %v each are longer than a time.Duration can say", rounds, c.Unit)
	}
	return nil
}

// Live replays events, which must be in arrival order and valid for the
// simulator (see Predict), under c: each event is submitted to a
// live.Executor at its arrival × c.Unit after the start, and its handler
// takes its duration × c.Unit from its own start, waiting on a Clock that
// all handlers share.
// The executor holds as many events as arrive, as the model's consumers'
// backlog is unbounded. When ctx ends, no more events are submitted, and
// those submitted are run to the end before Live returns: the run then
// covers events[:Run.Submitted]. Live holds O(len(events)) memory.
func Live(ctx context.Context, events []konvoy.Event, c Config) (*Run, error) {
	if err := c.check(events); err != nil {
		return nil, err
	}
	run := &Run{Handled: make([]Handled, len(events))}
	clock := NewClock()
	defer clock.Close()
	var mu sync.Mutex
	var last time.Time
	handle := func(hctx context.Context, i int) error {
		start := time.Now()
		err := clock.SleepUntil(hctx, start.Add(time.Duration(events[i].Duration)*c.Unit))
		finish := time.Now()
		w, _ := live.Consumer(hctx)
		run.Handled[i] = Handled{Consumer: w, Attempt: 1, Start: start, Finish: finish}
		mu.Lock()
		if finish.After(last) {
			last = finish
		}
		mu.Unlock()
		return err
	}
	opts := []live.Option{live.WithPolicy(c.Policy), live.WithMaxHeld(len(events))}
	if c.Assignor != 0 {
		opts = append(opts, live.WithAssignor(c.Assignor))
	}
	x, err := live.New(c.Layout, c.Consumers, func(i int) konvoy.Event { return events[i] }, handle, opts...)
	if err != nil {
		return nil, err
	}
	run.Start = time.Now()
	for i, e := range events {
		if ctx.Err() != nil || clock.SleepUntil(ctx, run.Start.Add(time.Duration(e.Arrival)*c.Unit)) != nil {
			break
		}
		if err := x.Submit(context.Background(), i); err != nil {
			break // the executor stopped: Close says why
		}
		run.Submitted = i + 1
	}
	err = x.Close(context.Background())
	run.Stats = x.Stats()
	if !last.IsZero() {
		run.Makespan = last.Sub(run.Start)
	}
	return run, err
}

// appliedLine is one line of WriteApplied.
type appliedLine struct {
	Partition int    `json:"partition"`
	Offset    int    `json:"offset"`
	Key       string `json:"key"`
	Step      int    `json:"step"`
	Consumer  int    `json:"consumer"`
	Attempt   int    `json:"attempt"`
	StartNS   int64  `json:"start_ns"`
	FinishNS  int64  `json:"finish_ns"`
}

// WriteApplied writes run's handled events to w as JSON Lines, one object
// per handled event in trace order: its partition (the event's recorded
// Partition when partitions is true, else -1), its offset (its index in
// the trace), key, step, consumer, attempt, and its handler's start and
// finish in Unix nanoseconds.
func WriteApplied(w io.Writer, events []konvoy.Event, run *Run, partitions bool) error {
	enc := json.NewEncoder(w)
	for i, h := range run.Handled {
		if h.Finish.IsZero() {
			continue
		}
		p := -1
		if partitions {
			p = events[i].Partition
		}
		line := appliedLine{Partition: p, Offset: i, Key: events[i].Key, Step: events[i].Step, Consumer: h.Consumer,
			Attempt: h.Attempt, StartNS: h.Start.UnixNano(), FinishNS: h.Finish.UnixNano()}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	return nil
}
