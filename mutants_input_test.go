package konvoy_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// A history-only record (Step 0) is a valid event whose duration still
// counts in the total work, so a Sweep refuses the event that takes the
// total past math.MaxInt−1 even when a Step 0 record carries most of it,
// as Simulate does (Simulate's doc: an EventError for "a total work plus
// the last arrival past math.MaxInt−1"). Here a record of step 0 takes
// half the largest int and a step 1 event ten rounds more than the rest:
// together they pass it, so event 1's Duration is at fault. Mutant
// input.go:113:27 (e.Step < 0 → e.Step <= 0) lived: the sweep's shared
// check then called the record invalid, left its duration out of its total
// and passed event 1 without the runs checking it: their work wrapped
// around, and the sweep returned no error or panicked (index out of range).
func TestASweepCountsAHistoryOnlyRecordsDurationInTheWorkLimit(t *testing.T) {
	events := []konvoy.Event{
		{Key: "A", Step: 0, Duration: math.MaxInt / 2},
		{Key: "B", Step: 1, Duration: math.MaxInt/2 + 10},
	}
	configs := []konvoy.Config{{Layout: konvoy.Free, Consumers: 1}, {Layout: konvoy.Convoy, Consumers: 2}}
	_, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs)
	var ev *konvoy.EventError
	if !errors.As(err, &ev) || ev.Index != 1 || ev.Field != "Duration" || ev.Value != math.MaxInt/2+10 {
		t.Fatalf("got %v; want event 1's Duration refused, the total work past the largest int", err)
	}
}

// A Sweep refuses an event that arrives before the event before it, with
// ErrOrder (ErrOrder's doc: "a stream must come in arrival order"), also
// when the event before it takes no time: an event of Duration 0 is valid,
// and its arrival is the one the next must not precede. Here event 1
// arrives at round 5 with Duration 0, and event 2 at round 3. Mutant
// input.go:113:45 (e.Duration < 0 → e.Duration <= 0) lived: the sweep's
// shared check then called event 1 invalid and kept round 0 as the last
// arrival, so it passed event 2 without the runs checking it.
func TestASweepRefusesAnEventBeforeAZeroDurationOne(t *testing.T) {
	events := []konvoy.Event{
		{Key: "A", Step: 1, Duration: 1},
		{Key: "B", Step: 1, Duration: 0, Arrival: 5},
		{Key: "C", Step: 1, Duration: 1, Arrival: 3},
	}
	configs := []konvoy.Config{{Layout: konvoy.Free, Consumers: 1}, {Layout: konvoy.Convoy, Consumers: 2}}
	_, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs)
	var ev *konvoy.EventError
	if !errors.Is(err, konvoy.ErrOrder) || !errors.As(err, &ev) || ev.Index != 2 || ev.Field != "Arrival" || ev.Value != 3 {
		t.Fatalf("got %v; want event 2's Arrival 3 refused with ErrOrder", err)
	}
}

// An event that arrives in the same round as the one before it is valid,
// and its duration counts in the total work, so a Sweep refuses the event
// that takes the work past math.MaxInt−1 (Simulate's doc: an EventError
// for "a total work plus the last arrival past math.MaxInt−1"). Here event
// 0 arrives at round 0, the start of the stream, with half the largest
// int's duration, and event 1 a round later with ten rounds more than the
// rest: together they pass it, so event 1's Duration is at fault. Mutant
// input.go:113:62 (e.Arrival < in.last → e.Arrival <= in.last) lived: the
// sweep's shared check then called event 0 invalid, left its duration out,
// and passed event 1 without the runs checking it.
func TestASweepCountsTheWorkOfAnEventArrivingWithTheLast(t *testing.T) {
	events := []konvoy.Event{
		{Key: "A", Step: 1, Duration: math.MaxInt / 2},
		{Key: "B", Step: 1, Duration: math.MaxInt/2 + 10, Arrival: 1},
	}
	configs := []konvoy.Config{{Layout: konvoy.Free, Consumers: 1}, {Layout: konvoy.Convoy, Consumers: 2}}
	_, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs)
	var ev *konvoy.EventError
	if !errors.As(err, &ev) || ev.Index != 1 || ev.Field != "Duration" || ev.Value != math.MaxInt/2+10 {
		t.Fatalf("got %v; want event 1's Duration refused, the total work past the largest int", err)
	}
}

// An event whose arrival plus the total work is exactly math.MaxInt−1 is
// valid (Simulate's doc refuses only a total "past math.MaxInt−1"), and it
// counts in the totals that the next event's check reads. Event 0 takes 5
// rounds from round MaxInt−6, ending at MaxInt−1; event 1, of 1 round from
// the same round, would end at MaxInt, past it, so a Sweep refuses its
// Arrival. Mutant input.go:114:13 (> → >=) lived: the sweep's shared check
// then called event 0 invalid, kept a total work of 0, and passed event 1
// without the runs checking it.
func TestASweepCountsAnEventEndingAtTheLimitInTheNextOnesCheck(t *testing.T) {
	events := []konvoy.Event{
		{Key: "A", Step: 1, Duration: 5, Arrival: math.MaxInt - 6},
		{Key: "B", Step: 1, Duration: 1, Arrival: math.MaxInt - 6},
	}
	if r, err := konvoy.Simulate(events[:1], konvoy.Free, 1); err != nil || r.Rounds != math.MaxInt-1 {
		t.Fatalf("event 0 alone: %+v, %v; want it to end at round MaxInt−1", r, err)
	}
	configs := []konvoy.Config{{Layout: konvoy.Free, Consumers: 1}, {Layout: konvoy.Convoy, Consumers: 2}}
	_, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs)
	var ev *konvoy.EventError
	if !errors.As(err, &ev) || ev.Index != 1 || ev.Field != "Arrival" || ev.Value != math.MaxInt-6 {
		t.Fatalf("got %v; want event 1's Arrival refused, its end past the largest int", err)
	}
}

// A Sweep refuses an event whose arrival plus the total work passes
// math.MaxInt−1 (Simulate's doc), the work of the events before it
// included. Event 0 takes 1 round; event 1, of no duration, arrives at
// round MaxInt−1, so the arrival plus the work is MaxInt, one past the
// limit. Mutants input.go:114:28 (MaxInt−1−in.work → MaxInt−1+in.work, as
// ARITHMETIC_BASE and INVERT_NEGATIVES) lived: with a total work of 1 the
// sweep's shared check then allowed arrivals up to MaxInt, and passed
// event 1 without the runs checking it.
func TestASweepCountsTheWorkBeforeInTheArrivalLimit(t *testing.T) {
	events := []konvoy.Event{
		{Key: "A", Step: 1, Duration: 1},
		{Key: "B", Step: 1, Duration: 0, Arrival: math.MaxInt - 1},
	}
	configs := []konvoy.Config{{Layout: konvoy.Free, Consumers: 1}, {Layout: konvoy.Convoy, Consumers: 2}}
	_, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs)
	var ev *konvoy.EventError
	if !errors.As(err, &ev) || ev.Index != 1 || ev.Field != "Arrival" || ev.Value != math.MaxInt-1 {
		t.Fatalf("got %v; want event 1's Arrival refused, its arrival plus the work past the largest int", err)
	}
}
