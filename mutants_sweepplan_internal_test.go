package konvoy

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// keyedPass returns a first pass of three convoy runs, without a memory
// limit, told the stream holds expected events, that has read n events of
// a new key each, and those events.
func keyedPass(t *testing.T, n, expected int) ([]Event, *sweepPass) {
	t.Helper()
	events := make([]Event, n)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("k", i), Step: 1, Duration: 1, Arrival: i}
	}
	configs := []Config{{Layout: Convoy, Consumers: 1}, {Layout: Convoy, Consumers: 1}, {Layout: Convoy, Consumers: 1}}
	p := newSweepPass(configs, []int{0, 1, 2}, sweepOptions{maxMemory: math.MaxInt, expected: expected}, sweepSizes{}, nil)
	if err := p.feed(context.Background(), Values(events), n); err != nil {
		t.Fatal(err)
	}
	if e := p.wait(); e != nil {
		t.Fatal(e.err)
	}
	return events, p
}

// A first pass stops a run for the trend only when the runs would take
// more than the memory by the stream's end: runs that take exactly the
// memory there all go on, and a byte less stops the last. Here the trend
// is set by hand, at half the keys and half the events read, so the
// projection is at the pass's own rate, and the budget is what two runs
// take at its end. Mutant sweep.go:1026
// (`planned(&end, …) > p.maxMemory` → `>=`) lived: it stopped a run that
// fits to the byte, for a pass it did not need.
func TestTheTrendStopsNoRunThatFitsToTheByte(t *testing.T) {
	const n, expected = 1000, 4000
	_, p := keyedPass(t, n, expected)
	z := p.sizes()
	has, tables := p.inputsOf()
	half := sweepSizes{events: n / 2, keys: [2]int{z.keys[0] / 2, 0}, layouts: z.layouts, lanes: []int{z.lanes[0] / 2}}
	p.trend = sizeTrend{before: half, last: z}
	end, ok := p.trend.at(z, expected)
	if !ok || end.keys[0] <= z.keys[0] {
		t.Fatalf("the trend projects %d keys (%v) from %d; want more", end.keys[0], ok, z.keys[0])
	}
	twoGoOnToTheByte(t, p, planned(&end, p.runs[:2], has, tables), "what two runs take by the end")
}

// twoGoOnToTheByte plans p, of three runs, in a budget of two, what two
// of its runs take (what), and a byte less: two runs go on, then one,
// with no error.
func twoGoOnToTheByte(t *testing.T, p *sweepPass, two int, what string) {
	t.Helper()
	for _, c := range []struct{ budget, active int }{{two, 2}, {two - 1, 1}} {
		p.maxMemory, p.active = c.budget, 3
		p.plan(&sweepEvents{})
		if p.active != c.active || p.memErr != nil {
			t.Errorf("a budget of %d bytes, %d of them %s: %d runs go on (error %v); want %d",
				c.budget, two, what, p.active, p.memErr, c.active)
		}
	}
}

// A first pass that stops runs early for the trend keeps its spool, which
// the later passes replay: the stream is read once. Only when every run
// goes on, as one pass will do, is the spool dropped. Mutant sweep.go:1029
// (`p.active == len(p.runs)` → `!=`) lived: it dropped the spool of a
// pass that left runs for later, so each later pass read the stream again
// (a stream read once, as from a pipe, would have failed).
func TestAFirstPassThatStopsRunsEarlyKeepsItsSpool(t *testing.T) {
	const n = 20 * sweepBatch
	events := make([]Event, n)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("k", i), Step: 1, Duration: 1, Arrival: i}
	}
	configs := []Config{{Layout: Convoy, Consumers: 1}, {Layout: Convoy, Consumers: 1}, {Layout: Convoy, Consumers: 1}}
	// The budget: what one run takes at the stream's end, as a pass of it
	// alone reads it, and half a run more: one run a pass.
	all := newSweepPass(configs[:1], []int{0}, sweepOptions{maxMemory: math.MaxInt}, sweepSizes{}, nil)
	if err := all.feed(context.Background(), Values(events), n); err != nil {
		t.Fatal(err)
	}
	if e := all.wait(); e != nil {
		t.Fatal(e.err)
	}
	z := all.sizes()
	has, tables := all.inputsOf()
	budget := planned(&z, all.runs, has, tables) + all.runs[0].bytes(n, n, n)/2
	want, err := Sweep(context.Background(), Values(events), configs[:1])
	if err != nil {
		t.Fatal(err)
	}
	reads := 0
	got, err := Sweep(context.Background(), readsCounted(events, &reads), configs, WithMaxMemory(budget), WithExpectedEvents(n))
	if err != nil {
		t.Fatal(err)
	}
	if reads != 1 {
		t.Errorf("three runs, one a pass, the first pass told the stream's length: the stream is read %d times; want once, the later passes replaying the spool", reads)
	}
	for i := range got {
		if fmt.Sprint(got[i]) != fmt.Sprint(want[0]) {
			t.Errorf("run %d: %v; want %v", i, got[i], want[0])
		}
	}
}

// A pass stops runs only when they take more than its memory at the sizes
// read: two runs that take exactly the memory both go on, and a byte less
// stops the second. Mutant sweep.go:1036 (`used <= p.maxMemory` → `<`)
// lived: it stopped a run that fits to the byte, for a pass it did not
// need.
func TestAPassStopsNoRunThatFitsToTheByte(t *testing.T) {
	_, p := keyedPass(t, 1000, 0)
	z := p.sizes()
	has, tables := p.inputsOf()
	twoGoOnToTheByte(t, p, planned(&z, p.runs[:2], has, tables), "what two runs take")
}

// A first pass whose runs the trend finds will all fit by the stream's
// end drops its spool at once: one pass will do, and nothing is to be
// replayed, so it keeps no copy of the stream in memory or in a file.
// Mutant sweep.go:1029 (`p.spool != nil` → `== nil`) lived: it kept
// recording the spool of a pass that needs none (and, for a sweep of one
// run, which has no spool, dereferenced nil: see
// TestASweepOfOneRunToldTheStreamsLength).
func TestAFirstPassThatOneWillDoDropsItsSpool(t *testing.T) {
	const n = 4 * sweepBatch
	events := make([]Event, n)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("k", i), Step: 1, Duration: 1, Arrival: i}
	}
	configs := []Config{{Layout: Free, Consumers: 1}, {Layout: Free, Consumers: 2}}
	sp := newSweepSpool(len(configs))
	p := newSweepPass(configs, []int{0, 1}, sweepOptions{maxMemory: math.MaxInt, expected: n}, sweepSizes{}, sp)
	if err := p.feed(context.Background(), Values(events), n); err != nil {
		t.Fatal(err)
	}
	if e := p.wait(); e != nil {
		t.Fatal(e.err)
	}
	if p.active != 2 || !sp.broken || sp.buf != nil || sp.file != nil {
		t.Errorf("%d of 2 runs fit, told the stream's length: the spool is dropped %v, keeps %d bytes in memory, a file %v; want dropped, none",
			p.active, sp.broken, len(sp.buf), sp.file != nil)
	}
}

// A sweep of one run, which keeps no spool, told how many events the
// stream holds, projects its sizes as any first pass does, and gives the
// results it gives untold. Mutant sweep.go:1029 (`p.spool != nil` →
// `== nil`) lived: such a sweep dereferenced its nil spool once the trend
// had two points.
func TestASweepOfOneRunToldTheStreamsLength(t *testing.T) {
	const n = 4 * sweepBatch
	events := make([]Event, n)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("k", i%1000), Step: i/1000 + 1, Duration: 1, Arrival: i}
	}
	configs := []Config{{Layout: Convoy, Consumers: 2}}
	want, err := Sweep(context.Background(), Values(events), configs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Sweep(context.Background(), Values(events), configs, WithExpectedEvents(n))
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("told the stream holds %d events: %v, %v; want %v, as untold", n, got, err, want)
	}
}

// twoLayoutPass returns 100 backlogged events and a first pass, with a
// spool, of a lane-aware line-convoy run and a convoy run after it,
// without a memory limit, that has read them all, left with its first run
// alone: one lane table each run's, and one (the convoy's) the first
// run does not need.
func twoLayoutPass(t *testing.T) ([]Event, *sweepPass) {
	t.Helper()
	events := backloggedEvents(100)
	configs := []Config{{Layout: LineConvoy, Consumers: 3, Options: []Option{WithPolicy(LaneAware)}}, {Layout: Convoy, Consumers: 1}}
	p := newSweepPass(configs, []int{0, 1}, sweepOptions{maxMemory: math.MaxInt}, sweepSizes{}, newSweepSpool(len(configs)))
	if err := p.feed(context.Background(), Values(events), len(events)); err != nil {
		t.Fatal(err)
	}
	if e := p.wait(); e != nil {
		t.Fatal(e.err)
	}
	p.active = 1
	return events, p
}

// A run alone fails by what it takes in this pass: its plan with its
// backlog so far (holds) in place of held, and without the reserve an
// earlier pass left it, nor its result, which it has not made; at exactly
// that many bytes it goes on, a byte less fails, and the error names
// them. It kills, at the byte, mutants sweep.go:1045 (`- r.reserve` →
// `+`, `- r.result` → `+`, `+ r.holds` → `-`), which fail a run alone
// that fits, at the reserve or result it would not take; the test of this
// (TestARunAloneFailsByWhatItTakesInThisPass) leaves reserve and result
// 0, and gremlins found them killed only by sweeps whose runs give way
// (TestARunWhoseBacklogOutgrowsItsShareGivesWay, for the reserve).
func TestARunAloneFailsWithoutItsReserveAndResult(t *testing.T) {
	events, p := fedBackloggedPass(t)
	r := p.runs[0]
	has, tables := p.inputsOf()
	z := p.sizesNow()
	r.held, r.holds = 1000, 1000 // its backlog so far, as it stands in this pass
	now := planned(&z, p.runs[:1], has, tables)
	r.held, r.reserve, r.result = 4000, 5000, 7000 // an earlier pass's
	b := &sweepEvents{events: events[:1]}
	p.maxMemory = now
	if p.plan(b); p.memErr != nil || p.active != 1 {
		t.Fatalf("a run alone that takes %d bytes in this pass fails a budget of as much: %v", now, p.memErr.err)
	}
	p.maxMemory = now - 1
	if p.plan(b); p.memErr == nil || !strings.Contains(p.memErr.err.Error(), fmt.Sprintf("needs some %d bytes", now)) {
		t.Fatalf("a run alone that takes %d bytes in this pass, in a budget of a byte less: %v; want ErrMemory, naming %d bytes", now, p.memErr, now)
	}
}

// A run alone that fails beside the inputs of the runs after it, but would
// fit with its own alone, is marked so (alone), when the pass records a
// spool, for the next pass to read the stream with its own inputs: at a
// budget of what it takes less the other runs' lane table it is, at a
// byte less it is not, and without a spool it never is. Mutant
// sweep.go:1050 (`taken-others <= p.maxMemory` → `<`) lived: no test read
// alone at its bound, and a run that fits to the byte with its own inputs
// failed where a sweep of it alone would not. (The test also kills, at
// the unit, 1048 `-` → `+`, 1049 `taken+others` and the negations of
// `p.spool != nil`, which whole sweeps kill too.)
func TestARunAloneThatFitsWithItsOwnInputsIsMarked(t *testing.T) {
	events, p := twoLayoutPass(t)
	r := p.runs[0]
	has, tables := p.inputsOf()
	if !has[0] || len(tables[0]) != 2 {
		t.Fatalf("the pass's inputs: %v, %v; want group 0 with two lane tables", has, tables)
	}
	z := p.sizesNow()
	r.held = r.holds
	taken := planned(&z, p.runs[:1], has, tables)
	own := planned(&z, p.runs[:1], has, [2][]Layout{{LineConvoy}})
	if own >= taken {
		t.Fatalf("the run with its own table takes %d bytes, beside the convoy's %d; want fewer", own, taken)
	}
	b := &sweepEvents{events: events[:1]}
	for _, c := range []struct {
		budget int
		spool  bool
		alone  bool
	}{{own, true, true}, {own - 1, true, false}, {taken - 1, true, true}, {own, false, false}} {
		sp := p.spool
		if !c.spool {
			p.spool = nil
		}
		p.maxMemory, p.memErr, p.alone = c.budget, nil, false
		p.failed.Store(false)
		p.plan(b)
		p.spool = sp
		if p.memErr == nil || p.alone != c.alone {
			t.Errorf("a run alone that takes %d bytes, %d with its own inputs, a budget of %d, a spool %v: fails %v, alone %v; want true, %v",
				taken, own, c.budget, c.spool, p.memErr != nil, p.alone, c.alone)
		}
	}
}

// A run alone that fails names the bytes the results made so far keep
// among what it needs when there are some, and no results when there are
// none: an error that named "0 of them" would send its reader after
// results the sweep never kept. It kills, at the unit, mutants
// sweep.go:1166 (`n > 0` → `>= 0`, `<= 0`), which gremlins found killed
// only by whole sweeps.
func TestAMemoryErrorNamesTheResultsOnlyWhenThereAreSome(t *testing.T) {
	events, p := fedBackloggedPass(t)
	b := &sweepEvents{events: events[len(events)-1:]}
	for _, c := range []struct {
		results int
		want    string
	}{{0, ""}, {48, " and the results (48 of them for the names of keys left in a wrong final state),"}} {
		p.seen.results = c.results
		msg := p.tooBig(b, 12345).err.Error()
		if has := strings.Contains(msg, "results"); has != (c.want != "") || !strings.Contains(msg, c.want) {
			t.Errorf("results kept %d bytes: the error is %q; want it to name them %q", c.results, msg, c.want)
		}
	}
}

// A projection reads each layout's keys away from their first lanes and
// lane names only where the sizes count them: sizes whose away and named
// are shorter than their layouts (none counted, as awayOf reads them) are
// projected without them, not read past their end. Mutants sweep.go:1144
// and :1146 (`i < len(z.away)` → `<=`, `i < len(z.named)` → `<=`) lived:
// they indexed past the end and panicked.
func TestSizeTrendProjectsSizesWithoutAwayOrNames(t *testing.T) {
	at := func(events, keys, lanes int) sweepSizes {
		return sweepSizes{events: events, keys: [2]int{keys, 0}, layouts: []Layout{LineConvoy}, lanes: []int{lanes}}
	}
	tr := sizeTrend{before: at(1000, 500, 50), last: at(2000, 1000, 100)}
	end, ok := tr.at(at(2000, 1000, 100), 4000)
	if !ok || end.keys[0] != 2000 || end.lanesOf(LineConvoy) != 200 || end.awayOf(LineConvoy) != 0 || end.namedOf(LineConvoy) != 0 {
		t.Errorf("projected to 4,000 events: %d keys, %d lanes, %d away, %d bytes of names (%v); want 2,000, 200, 0 and 0",
			end.keys[0], end.lanesOf(LineConvoy), end.awayOf(LineConvoy), end.namedOf(LineConvoy), ok)
	}
}

// A trend gives no projection from sizes no later than its earlier point:
// no events read since then, no rate to grow at (it would divide by
// none). A pass never asks so, as its trend's earlier point is at most
// half the events read; the guard is at's own. Mutant sweep.go:1126
// (`z.events <= from.events` → `<`) lived: it projected from a rate of
// 0/0 and returned counts made of NaN.
func TestSizeTrendProjectsNothingFromItsEarlierPoint(t *testing.T) {
	at := func(events, keys int) sweepSizes { return sweepSizes{events: events, keys: [2]int{keys, 0}} }
	tr := sizeTrend{before: at(1000, 500), last: at(2000, 1000)}
	if end, ok := tr.at(at(1000, 500), 4000); ok {
		t.Errorf("projected from the trend's earlier point itself: %d keys; want no projection", end.keys[0])
	}
}

// The plan leaves the workers, as room, the memory less what the runs that
// go on take at the sizes read, without what the plan counts them to have
// grown (held and reserve), and a sixteenth of the memory: after every
// batch, and after it stops runs, for those left. Removing the plan's
// `defer p.leaveRoom(…)` (sweep.go:1022) lived: the workers kept the room
// of the pass's start, before any key, and runs whose histograms grow
// fast went on past the memory rather than give way.
func TestThePlanLeavesTheWorkersTheRoomOfTheRunsThatGoOn(t *testing.T) {
	_, p := keyedPass(t, 1000, 0)
	for i, r := range p.runs {
		r.held, r.reserve = 1000*(i+1), 100*(i+1)
	}
	z := p.sizes()
	has, tables := p.inputsOf()
	bare := func(n int) int { // what n runs take, without what they grew
		var runs []*sweepRun
		for _, r := range p.runs[:n] {
			c := *r
			c.held, c.reserve = 0, 0
			runs = append(runs, &c)
		}
		return planned(&z, runs, has, tables)
	}
	for _, c := range []struct{ budget, active int }{{math.MaxInt / 2, 3}, {planned(&z, p.runs[:2], has, tables), 2}} {
		p.maxMemory, p.active = c.budget, 3
		p.room.Store(0)
		p.plan(&sweepEvents{})
		want := c.budget - bare(c.active) + c.budget/lateGrowth
		if p.active != c.active || p.room.Load() != int64(want) {
			t.Errorf("a budget of %d bytes: %d runs go on, leaving the workers %d bytes; want %d, %d", c.budget, p.active, p.room.Load(), c.active, want)
		}
	}
}

// The plan takes no run that a worker stopped (stopFrom) as going on: a
// first pass told the stream's length whose workers stopped its last run
// keeps its spool for the pass that runs it, rather than drop it as if
// one pass will do, and plans for the runs left. Removing the plan's
// `p.active = min(p.active, int(p.stopFrom.Load()))` (sweep.go:1019)
// lived: the plan went on counting the stopped run, left the workers too
// little room, and dropped the spool the next pass replays (a stream read
// once, as from a pipe, then fails).
func TestThePlanTakesNoRunAWorkerStopped(t *testing.T) {
	const n, expected = 1000, 4000
	_, p := keyedPass(t, n, expected)
	z := p.sizes()
	p.trend = sizeTrend{before: sweepSizes{events: n / 2, keys: [2]int{z.keys[0] / 2, 0}}, last: z}
	sp := newSweepSpool(3)
	p.spool, p.maxMemory, p.active = sp, math.MaxInt/2, 3
	p.stopFrom.Store(2)
	p.plan(&sweepEvents{})
	if p.active != 2 || sp.broken {
		t.Errorf("a worker stopped the last of 3 runs: the plan goes on with %d, the spool dropped %v; want 2, kept", p.active, sp.broken)
	}
}

// wrongPass returns a pass of runs free runs, on 2 consumers, 3, and so
// on, without a memory limit, that has read the events of keys keys each
// written backward (step 2, then step 1), which such runs leave in a
// wrong final state, each run's result naming them all.
func wrongPass(t *testing.T, runs, keys int) *sweepPass {
	t.Helper()
	var events []Event
	for i := range keys {
		k := fmt.Sprint("w", i)
		events = append(events, Event{Key: k, Step: 2, Duration: 1, Arrival: 2 * i}, Event{Key: k, Step: 1, Duration: 5, Arrival: 2*i + 1})
	}
	configs := make([]Config, runs)
	todo := make([]int, runs)
	for i := range configs {
		configs[i], todo[i] = Config{Layout: Free, Consumers: 2 + i}, i
	}
	p := newSweepPass(configs, todo, sweepOptions{maxMemory: math.MaxInt}, sweepSizes{}, nil)
	if err := p.feed(context.Background(), Values(events), len(events)); err != nil {
		t.Fatal(err)
	}
	if e := p.wait(); e != nil {
		t.Fatal(e.err)
	}
	return p
}

// endAt returns what the results of a wrongPass of runs runs and keys keys
// do in a budget found by budget, from the pass's sizes before any result
// and a function that plans runs from i to j with the results of those
// before them kept and the first's own made: the runs that went through,
// the pass, one with room after its results, and the error.
func endAt(t *testing.T, runs, keys int, budget func(plan func(i, j int) int) int) (int, *sweepPass, *sweepPass, error) {
	t.Helper()
	ref := wrongPass(t, runs, keys) // the results each run keeps
	if _, err := ref.results(make([]Result, runs), nil); err != nil || ref.active != runs {
		t.Fatalf("with room: %d results, %v", ref.active, err)
	}
	p := wrongPass(t, runs, keys)
	z := p.sizes()
	has, tables := p.inputsOf()
	plan := func(i, j int) int {
		kept := 0
		for _, r := range ref.runs[:i] {
			kept += r.result
		}
		p.runs[i].result = ref.runs[i].result
		defer func() { p.runs[i].result = 0 }()
		return planned(&z, p.runs[i:j], has, tables) + kept
	}
	p.maxMemory = budget(plan)
	_, err := p.results(make([]Result, runs), nil)
	return p.active, p, ref, err
}

// A run's result is made when it fits, to the byte, beside the runs left
// and the results before it: two runs whose first result takes exactly the
// memory beside them both end in the pass, and a byte less the pass ends
// neither, for a later one. Mutant sweep.go:1240
// (`planned(…)+p.kept > p.maxMemory` → `>=`) lived: a result that fits
// to the byte gave way, for a pass the sweep did not need.
func TestAResultThatFitsToTheByteIsMade(t *testing.T) {
	for _, c := range []struct{ less, active int }{{0, 2}, {1, 0}} {
		active, _, _, err := endAt(t, 2, 500, func(plan func(i, j int) int) int { return plan(0, 2) - c.less })
		if err != nil || active != c.active {
			t.Errorf("the memory the first result takes beside both runs, less %d: %d runs end, %v; want %d, no error", c.less, active, err, c.active)
		}
	}
}

// A run's result that does not fit beside the runs after it, but fits
// beside the results before it alone, to the byte, gives way with them
// for a later pass; a byte less it fails with ErrMemory. Mutant
// sweep.go:1241 (`alone > p.maxMemory` → `>=`) lived: a run whose result
// fits alone to the byte failed the sweep.
func TestAResultThatFitsAloneToTheByteGivesWay(t *testing.T) {
	active, _, _, err := endAt(t, 2, 500, func(plan func(i, j int) int) int { return plan(0, 1) })
	if err != nil || active != 0 {
		t.Errorf("the memory the first result takes alone: %d runs end, %v; want none, for a later pass, and no error", active, err)
	}
	if _, _, _, err := endAt(t, 2, 500, func(plan func(i, j int) int) int { return plan(0, 1) - 1 }); !errors.Is(err, ErrMemory) {
		t.Errorf("a byte less than the first result takes alone: %v; want ErrMemory", err)
	}
}

// A run whose result does not fit beside the results made before it
// fails with ErrMemory: the results kept count. Here the second of two
// runs' result, 40,000 keys, fits alone but not beside the first's.
// Mutant sweep.go:1241 (`planned(…) + p.kept` → `-`) lived: it gave way
// for a later pass where the result cannot fit in any, beside the results
// the sweep keeps.
func TestAResultThatDoesNotFitBesideTheResultsBeforeFails(t *testing.T) {
	active, _, _, err := endAt(t, 2, 40_000, func(plan func(i, j int) int) int {
		if plan(0, 2) > plan(1, 2)-1 {
			t.Fatalf("two runs and the first result take %d bytes, more than the second result beside the first, %d: the test's keys are too few", plan(0, 2), plan(1, 2))
		}
		return plan(1, 2) - 1
	})
	if !errors.Is(err, ErrMemory) || active != 2 {
		t.Errorf("a byte less than the second result beside the first: %d runs, %v; want ErrMemory", active, err)
	}
}

// Runs whose results give way for a later pass leave it what their results
// keep, for its plan, and let their state go; runs that end in the pass
// let theirs go as each result is made, as the plan of the results after
// them counts only the runs left (planned(&z, runs[i:], …)). Mutants
// sweep.go:1246 (`q.sim.end() == nil` → `!=`) and :1246 (removed, or
// `*` → `/`) lived: the next pass planned for no result, or a sliver of
// one, took runs whose results do not fit, and gave way again; removing
// :1261 (`r.sim = nil`) lived: each run's state stayed while the results
// after it were made, past the memory the plan counts.
//
// The test needs a first result that fits beside the three runs while the
// second's does not, beside the last two: with 10,000 keys where int has
// 64 bits, but 100,000 where it has 32, as a result's keys then take half
// as much beside the runs' state; it takes the first count that does.
func TestResultsLeaveTheirSizesAndLetTheirStateGo(t *testing.T) {
	var active int
	var p, ref *sweepPass
	var err error
	found := false
	for _, keys := range []int{10_000, 100_000} {
		active, p, ref, err = endAt(t, 3, keys, func(plan func(i, j int) int) int {
			all, rest, second := plan(0, 3), plan(1, 3), plan(1, 2)
			found = rest > all && second <= all // the first the most but the second
			return all
		})
		if found {
			break
		}
	}
	if !found {
		t.Fatal("no key count tried makes a first result that fits beside the three runs and a second that does not beside the last two")
	}
	if err != nil || active != 1 {
		t.Fatalf("the memory three runs and the first result take: %d runs end, %v; want 1, no error", active, err)
	}
	for i, r := range p.runs {
		if r.sim != nil || i > 0 && (r.result == 0 || r.result != ref.runs[i].result) {
			t.Errorf("run %d, of 3 with one ended: its state kept %v, its result planned at %d bytes; want let go, and %d", i, r.sim != nil, r.result, ref.runs[i].result)
		}
	}
}

// A sweep's error is at the first event any run fails at, whatever the
// passes, so every event error a run meets carries its index in the
// stream: the start of its batch and its place there. Here, in a memory
// that takes one run a pass, the recorded run fails first, in its pass,
// at event 5000, past the first batch; the line convoy run after it fails
// at event 3000, and the sweep reports that one, reading the next pass
// up to event 5000. Removing send's `b.start = p.read - len(b.events)`
// (sweep.go:1184) lived: every batch started at 0, the recorded run's
// error was at event 904 by its pass, the next pass read no further, and
// the sweep reported event 5000, not the first.
func TestASweepsErrorIsAtTheFirstEventPastTheFirstBatch(t *testing.T) {
	const n = 3 * sweepBatch
	events := make([]Event, n)
	for i := range events {
		events[i] = Event{Key: fmt.Sprint("k", i%100), Line: "L", Step: i/100 + 1, Duration: 1, Arrival: i}
	}
	events[3000].Line = ""     // no line: the line convoy fails
	events[5000].Partition = 5 // past Recorded(2)'s partitions
	configs := []Config{{Layout: Recorded(2), Consumers: 1}, {Layout: LineConvoy, Consumers: 1}}
	one := runOf(&Simulator{layout: LineConvoy, consumers: consumerQueue{n: 1}})
	budget := sweepOwnBytes + 100*keyBytes + 2*one.bytes(100, 2, n) // one run, not two
	for _, o := range [][]SweepOption{nil, {WithMaxMemory(budget)}} {
		_, err := Sweep(context.Background(), Values(events), configs, o...)
		var ev *EventError
		if !errors.As(err, &ev) || ev.Index != 3000 || ev.Field != "Line" {
			t.Errorf("%d options: %v; want the line convoy's error at event 3000, the first", len(o), err)
		}
	}
}

// A projection grows the bytes of the keys' and lines' names at their
// recent rate, as it grows the keys: names of up to kilobytes can take
// more than the keys themselves, and a first pass that projected none
// would keep runs that will not fit by the stream's end. Here names come
// at 40 bytes an event since the earlier point, and are projected so.
// Removing at's `end.names[g] = grow(…)` (sweep.go:1140) lived: the
// projection counted no names at all.
func TestSizeTrendProjectsTheNamesOfKeys(t *testing.T) {
	at := func(events, keys, names int) sweepSizes {
		return sweepSizes{events: events, keys: [2]int{keys, keys / 2}, names: [2]int{names, names / 2}}
	}
	tr := sizeTrend{before: at(1000, 500, 20_000), last: at(2000, 1000, 60_000)}
	end, ok := tr.at(at(2000, 1000, 60_000), 4000)
	if !ok || end.names != [2]int{140_000, 70_000} || end.keys != [2]int{2000, 1000} {
		t.Errorf("projected to 4,000 events: %v bytes of names, %v keys (%v); want [140000 70000] and [2000 1000]", end.names, end.keys, ok)
	}
}
