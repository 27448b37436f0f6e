package konvoy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"testing"
)

// A pass makes its batches only as the stream needs them, sweepBatches at
// most, each empty with room for sweepBatch events and a backlog entry a
// run, and after that reuses the first to come free: the batches in
// flight bound what Sweep holds beyond its runs, and what it reads past a
// run's failure (sweepAhead). Mutants sweep.go:914 (`p.made <
// sweepBatches` → `<=`) and sweep.go:915 (`p.made++` → `p.made--`, or
// removed) made new batches past sweepBatches; the suite caught the first
// only by a deadlock on the free list (a 200 s timeout).
func TestAPassMakesSweepBatchesThenReusesTheFreeOnes(t *testing.T) {
	p := &sweepPass{runs: make([]*sweepRun, 2), free: make(chan *sweepEvents, sweepBatches)}
	freed := &sweepEvents{}
	p.free <- freed // as a worker hands a batch back
	made := map[*sweepEvents]bool{}
	for i := range sweepBatches {
		b := p.batch()
		if b == freed || made[b] || len(b.events) != 0 || cap(b.events) != sweepBatch || len(b.held) != 2 {
			t.Fatalf("batch %d: %p (freed one %p), %d events of room %d, held for %d runs; want a new empty one, room %d, held for 2",
				i, b, freed, len(b.events), cap(b.events), len(b.held), sweepBatch)
		}
		made[b] = true
	}
	if b := p.batch(); b != freed {
		t.Fatalf("batch %d: %p; want the one that came free, %p, not a new one", sweepBatches, b, freed)
	}
}

// noteHeld takes, for the plan, the most each active run's backlog took
// by the end of a batch its workers are done with: held keeps the larger
// of what an earlier pass found (seen.held) and this pass's, and holds
// this pass's part alone, the most of it over the batches, which a run
// alone fails by (plan). A fresh batch (active 0) tells nothing, and runs
// the reader stopped since the batch went out are left as they are.
// Mutants sweep.go:932 (`max(r.held, b.held[i])` → `b.held[i]`, and
// `max(r.holds, b.held[i])` → `b.held[i]`) and sweep.go:931
// (`min(p.active, b.active)` → `b.active`) lived: only the passes a sweep
// makes showed them. It also kills, faster than the suite did, 927
// (`== 0` → `!=`) and 931 with either field not updated.
func TestNoteHeldKeepsTheMostEachActiveRunTook(t *testing.T) {
	runs := []*sweepRun{{held: 100}, {held: 0}, {held: 7}}
	p := &sweepPass{runs: runs, active: 2}
	for _, held := range [][]int{{60, 30, 99}, {80, 20, 99}, {50, 40, 99}} {
		p.noteHeld(&sweepEvents{active: 3, held: held}) // sent before the third run stopped
	}
	p.noteHeld(&sweepEvents{held: []int{500, 500, 500}}) // fresh: its held are none
	if r := runs[0]; r.held != 100 || r.holds != 80 {
		t.Errorf("run 0, held 100 before the pass, then 60, 80, 50: held %d, holds %d; want 100 and 80", r.held, r.holds)
	}
	if r := runs[1]; r.held != 40 || r.holds != 40 {
		t.Errorf("run 1, held nothing before, then 30, 20, 40: held %d, holds %d; want 40 and 40", r.held, r.holds)
	}
	if r := runs[2]; r.held != 7 || r.holds != 0 {
		t.Errorf("run 2, stopped: held %d, holds %d; want 7 and 0, as before", r.held, r.holds)
	}
}

// A pass after the first takes, in order, the runs that fit together at
// the sizes an earlier pass read, with the key table of each group they
// take and a lane table for each of their layouts, the first run always,
// and puts the others after them for the next pass, without their
// simulators, made again there. Here the line convoy's lane table and its
// keys' loads away from their first lines do not fit beside the convoy,
// while a second convoy run, which shares the convoy's table, fits
// exactly: the budget is what the two convoy runs take with the group's
// key table and the convoy's lane table, stated here rather than taken
// from fit. Mutants sweep.go:977 (`<= p.maxMemory` → `<`: a run that
// fits exactly left out) and sweep.go:984 (`r.sim = nil` removed: a
// left-out run's simulator kept through the pass) lived, and 976
// (`len(in) == 0 ||` removed: a first run that does not fit left out, a
// pass with no run) was caught only by a hung test's timeout. It also
// kills 972 (`h[g] = true` removed), 973 (`!slices.ContainsFunc` →
// `slices.ContainsFunc`), 977 (has and tables not kept from the runs
// taken) and 985 (`p.active = len(p.runs)`), which the suite caught.
func TestFitTakesTheRunsThatFitInOrderAndTheFirstAlways(t *testing.T) {
	seen := sweepSizes{keys: [2]int{1000, 0}, names: [2]int{5000, 0}, events: 10_000,
		layouts: []Layout{Convoy, LineConvoy}, lanes: []int{1000, 50}, away: []int{0, 200}, named: []int{0, 0}}
	configs := []Config{{Layout: Convoy, Consumers: 1}, {Layout: LineConvoy, Consumers: 1}, {Layout: Convoy, Consumers: 2}}
	run := func(c Config) *sweepRun {
		s, err := NewSimulator(c.Layout, c.Consumers)
		if err != nil {
			t.Fatal(err)
		}
		return runOf(s)
	}
	convoys := planned(&seen, []*sweepRun{run(configs[0]), run(configs[2])}, [2]bool{true, false}, [2][]Layout{{Convoy}})
	lines := planned(&seen, []*sweepRun{run(configs[0]), run(configs[1])}, [2]bool{true, false}, [2][]Layout{{Convoy, LineConvoy}})
	if lines <= convoys {
		t.Fatalf("the convoy and the line convoy plan %d bytes, the two convoys %d; want more", lines, convoys)
	}
	for _, tc := range []struct {
		budget int
		order  []int
		active int
	}{
		{convoys, []int{0, 2, 1}, 2},
		{convoys - 1, []int{0, 1, 2}, 1},
		{lines + convoys, []int{0, 1, 2}, 3},
		{1, []int{0, 1, 2}, 1}, // the first run never fits: it goes first all the same
	} {
		p := newSweepPass(configs, []int{0, 1, 2}, sweepOptions{maxMemory: tc.budget}, seen, nil)
		var order []int
		for i, r := range p.runs {
			order = append(order, r.config)
			if taken := i < tc.active; (r.sim != nil) != taken {
				t.Errorf("budget %d: run of configuration %d has a simulator %v; want %v (taken %v)", tc.budget, r.config, r.sim != nil, taken, taken)
			}
		}
		if p.active != tc.active || !slices.Equal(order, tc.order) {
			t.Errorf("budget %d: runs %v, %d taken; want %v, %d taken", tc.budget, order, p.active, tc.order, tc.active)
		}
		p.wait()
	}
}

// A pass that replays the first pass's spool after a run failed at event
// i, in a pass after the first, replays it only up to that event (limit),
// as a pass that reads the stream reads it only so far: its runs need no
// more to tell whether they fail first, and the rest is work for nothing,
// the whole spool in every later pass. Here the first pass keeps 10,000
// events, and the next replays the first 100 of them. Mutant sweep.go:869
// (`min(sp.events, limit)` → `sp.events`) lived.
func TestAReplayStopsAtItsLimit(t *testing.T) {
	var events []Event
	for i := range 10_000 {
		events = append(events, Event{Key: fmt.Sprint("K", i%7), Line: fmt.Sprint("L", i%3), Step: 1 + i/7, Duration: 1, Arrival: i})
	}
	configs := []Config{{Layout: Convoy, Consumers: 3}, {Layout: Free, Consumers: 3}}
	o := sweepOptions{maxMemory: DefaultMaxMemory}
	ctx := context.Background()
	sp := newSweepSpool(len(configs))
	defer sp.drop()
	first := newSweepPass(configs, []int{0, 1}, o, sweepSizes{}, sp)
	if err := first.takeOrStop(ctx, Values(events), math.MaxInt); err != nil {
		t.Fatal(err)
	}
	if e := first.wait(); e != nil {
		t.Fatal(e.err)
	}
	if sp = sp.after(first, true); sp == nil || !sp.kept || sp.events != len(events) {
		t.Fatalf("the first pass's spool: %+v; want it kept, with %d events", sp, len(events))
	}
	const limit = 100
	p := newSweepPass(configs, []int{1}, o, first.sizes(), sp)
	if p.replays() == nil {
		t.Fatal("the second pass reads the stream; want it to replay the spool")
	}
	if err := p.takeOrStop(ctx, nil, limit); err != nil {
		t.Fatal(err)
	}
	if e := p.wait(); e != nil {
		t.Fatal(e.err)
	}
	if p.read != limit || p.runs[0].sim.events != limit {
		t.Errorf("replayed %d events, the run took %d; want %d, the limit", p.read, p.runs[0].sim.events, limit)
	}
}

// A pass that meets an error replaying the spool (a file cut short or
// changed under it) still hands its runs the events it replayed before
// it, as a pass that reads the stream does before the stream's error: a
// run that fails at one of them fails at it, and Sweep returns that
// earlier error, not the spool's. Here the spool is cut in half, and the
// second pass's run, its schedule full at event 10, fails in the batch
// the spool's error ends. Mutant sweep.go:871 (`p.send(b)` removed before
// replay returns the error) lived: the run's failure was never seen.
func TestAReplaysErrorComesAfterTheEventsBeforeIt(t *testing.T) {
	var events []Event
	for i := range 1000 {
		events = append(events, Event{Key: fmt.Sprint("K", i%7), Line: fmt.Sprint("L", i%3), Step: 1 + i/7, Duration: 1, Arrival: i})
	}
	configs := []Config{{Layout: Convoy, Consumers: 3}, {Layout: Free, Consumers: 3, Options: []Option{WithSchedule(10)}}}
	o := sweepOptions{maxMemory: DefaultMaxMemory}
	ctx := context.Background()
	sp := newSweepSpool(len(configs))
	defer sp.drop()
	first := newSweepPass(configs, []int{0}, o, sweepSizes{}, sp)
	if err := first.takeOrStop(ctx, Values(events), math.MaxInt); err != nil {
		t.Fatal(err)
	}
	if e := first.wait(); e != nil {
		t.Fatal(e.err)
	}
	if sp = sp.after(first, true); sp == nil || sp.file != nil {
		t.Fatalf("the first pass's spool: %+v; want it kept in memory", sp)
	}
	sp.buf = sp.buf[:len(sp.buf)/2]
	p := newSweepPass(configs, []int{1}, o, first.sizes(), sp)
	err := p.takeOrStop(ctx, nil, math.MaxInt)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("replaying a spool cut short: %v; want io.ErrUnexpectedEOF", err)
	}
	if e := p.wait(); e == nil || e.index != 10 || !errors.Is(e.err, ErrScheduleFull) {
		t.Errorf("the run's error %+v; want its schedule full at event 10, before the spool's error", e)
	}
}
