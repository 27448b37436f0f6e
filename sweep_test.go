package konvoy_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"math/bits"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/memtest"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// manyEvents returns n events of 7 keys, in arrival order, enough to span
// several of a sweep's batches.
func manyEvents(n int) []konvoy.Event {
	events := make([]konvoy.Event, n)
	for i := range events {
		events[i] = konvoy.Event{Key: fmt.Sprintf("K%d", i%7), Line: "L", Step: 1 + i/7, Duration: 1 + i%3, Arrival: i / 5}
	}
	return events
}

// sweepAhead is the most events Sweep's doc says it reads past the event
// a run fails at.
const sweepAhead = 12_288

// steadyEvents returns manyEvents(n) arriving one a round over three
// lines, a key's events on each in turn: every layout keeps up on 3
// consumers, so that no run holds a backlog that grows with n, and a run
// fits a pass of onePerPass alone.
func steadyEvents(n int) []konvoy.Event {
	events := manyEvents(n)
	for i := range events {
		events[i].Line, events[i].Arrival = fmt.Sprint("L", i%3), i
	}
	return events
}

// The error a sweep returns is the one at the earliest event, of the first
// run in the configurations among those failing there, however the runs
// are spread over workers: here a run that fails late comes first, and two
// that fail at the same, earlier, event come after it.
// The same holds when a memory budget gives each run a pass of its own.
func TestSweepReturnsTheEarliestError(t *testing.T) {
	t.Parallel()
	events := manyEvents(30000)
	events[20000].Arrival = 0 // every run fails here
	for i := range 6 {
		budget := konvoy.DefaultMaxMemory
		if i%2 == 1 {
			budget = onePerPass
		}
		_, err := konvoy.Sweep(context.Background(), konvoy.Values(events), []konvoy.Config{
			{Layout: konvoy.Free, Consumers: 2, Options: []konvoy.Option{konvoy.WithMaxBacklog(2)}},        // event 25000's backlog: never reached
			{Layout: konvoy.LineConvoy, Consumers: 4, Options: []konvoy.Option{konvoy.WithSchedule(9000)}}, // event 9000
			{Layout: konvoy.Convoy, Consumers: 3, Options: []konvoy.Option{konvoy.WithSchedule(9000)}},     // event 9000 too
		}, konvoy.WithMaxMemory(budget))
		var ev *konvoy.EventError
		if !errors.As(err, &ev) || ev.Index != 9000 || !errors.Is(err, konvoy.ErrScheduleFull) ||
			err.Error() != `konvoy: event 9000 (key "K5"): schedule limit reached: WithSchedule(9000) keeps the schedule of runs of at most 9000 events` {
			t.Fatalf("error %v; want line-convoy's schedule limit at event 9000", err)
		}
	}
}

// A run that fails at an event is the sweep's error before a run whose end
// fails (Simulator.Result), whichever pass each ran in: the resequencer's
// held rounds, under a Timeout near the largest int, pass it at the end,
// and the free run's schedule is full at event 1. One pass a run used to
// give the first pass's end error, returned before the second pass ran.
func TestSweepsEventErrorBeatsAnEndErrorInAnyPass(t *testing.T) {
	events := []konvoy.Event{{Key: "k", Step: 3, Duration: 1}, {Key: "k", Step: 5, Duration: 1}, {Key: "k", Step: 7, Duration: 1}}
	configs := []konvoy.Config{
		{Layout: konvoy.Resequencer, Consumers: 1, Options: []konvoy.Option{konvoy.WithResequencer(konvoy.ResequencerConfig{Timeout: math.MaxInt - 10})}},
		{Layout: konvoy.Free, Consumers: 1, Options: []konvoy.Option{konvoy.WithSchedule(1)}},
	}
	if _, err := konvoy.Simulate(events, configs[0].Layout, 1, configs[0].Options...); err == nil || !strings.Contains(err.Error(), "(HeldRounds) add up past") {
		t.Fatalf("the resequencer alone: %v; want its end to fail", err)
	}
	for _, budget := range []int{konvoy.DefaultMaxMemory, onePerPass} {
		_, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs, konvoy.WithMaxMemory(budget))
		var ev *konvoy.EventError
		if !errors.As(err, &ev) || ev.Index != 1 || !errors.Is(err, konvoy.ErrScheduleFull) {
			t.Errorf("WithMaxMemory(%d): %v; want the free run's schedule limit at event 1", budget, err)
		}
	}
	// Without the event error, the end error is the sweep's, in any pass.
	for _, budget := range []int{konvoy.DefaultMaxMemory, onePerPass} {
		_, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs[:1], konvoy.WithMaxMemory(budget))
		if err == nil || !strings.Contains(err.Error(), "(HeldRounds) add up past") {
			t.Errorf("the resequencer, WithMaxMemory(%d): %v; want its end's error", budget, err)
		}
	}
}

// A stream's error ends the sweep and is its error, unless a run failed at
// an earlier event; a bad configuration fails before the stream is read.
func TestSweepStopsAtTheStreamsError(t *testing.T) {
	t.Parallel()
	broken := errors.New("disk on fire")
	read := 0
	stream := func(yield func(konvoy.Event, error) bool) {
		for i, e := range manyEvents(10000) {
			read++
			if i == 7000 {
				yield(konvoy.Event{}, broken)
				return
			}
			if !yield(e, nil) {
				return
			}
		}
	}
	configs := []konvoy.Config{{Layout: konvoy.Convoy, Consumers: 2}, {Layout: konvoy.Free, Consumers: 1}}
	if rs, err := konvoy.Sweep(context.Background(), stream, configs); !errors.Is(err, broken) || rs != nil {
		t.Fatalf("results %v, error %v; want none and the stream's", rs, err)
	}
	configs[1].Options = []konvoy.Option{konvoy.WithSchedule(6999)}
	if _, err := konvoy.Sweep(context.Background(), stream, configs); !errors.Is(err, konvoy.ErrScheduleFull) {
		t.Fatalf("error %v; want the schedule limit at event 6999, before the stream's", err)
	}
	read = 0
	configs[0].Consumers = 0
	if _, err := konvoy.Sweep(context.Background(), stream, configs); err == nil || err.Error() != "konvoy: Sweep: configs[0]: consumers is 0; want 1 to 2147483647" || read != 0 {
		t.Fatalf("error %v after %d events; want the bad count before any", err, read)
	}
	if rs, err := konvoy.Sweep(context.Background(), stream, nil); rs != nil || err != nil || read != 0 {
		t.Fatalf("no configurations: %v, %v after %d events; want nothing, unread", rs, err, read)
	}
}

// A sweep reads at most sweepAhead events past the event a run fails at,
// so that a caller keeping the last sweepAhead events' positions can say
// where it is.
func TestSweepReadsLittlePastAFailure(t *testing.T) {
	t.Parallel()
	events := manyEvents(100000)
	for range 8 {
		read := 0
		stream := func(yield func(konvoy.Event, error) bool) {
			for _, e := range events {
				read++
				if !yield(e, nil) {
					return
				}
			}
		}
		configs := []konvoy.Config{{Layout: konvoy.Convoy, Consumers: 2, Options: []konvoy.Option{konvoy.WithSchedule(100)}}}
		for range 6 { // slow workers, so that the reader runs ahead
			configs = append(configs, konvoy.Config{Layout: konvoy.LineConvoy, Consumers: 3, Options: []konvoy.Option{konvoy.WithPolicy(konvoy.LaneAware)}})
		}
		if _, err := konvoy.Sweep(context.Background(), stream, configs); !errors.Is(err, konvoy.ErrScheduleFull) || read > 100+sweepAhead {
			t.Fatalf("error %v after %d events; want the schedule limit at event 100 within %d events", err, read, sweepAhead)
		}
	}
}

// counted returns a stream of *events that counts in *reads the times it
// is ranged over: the passes that read it.
func counted(events *[]konvoy.Event, reads *int) iter.Seq2[konvoy.Event, error] {
	return func(yield func(konvoy.Event, error) bool) {
		*reads++
		for _, e := range *events {
			if !yield(e, nil) {
				return
			}
		}
	}
}

// onePerPass is a memory budget that fits one small run a pass beside the
// sweep's own 1.8 MiB of batches, spool and key table.
const onePerPass = 1_995_000

// A sweep whose runs do not fit in its memory at once runs them in
// passes, with the results of one pass. The passes after the first replay
// it from a spool, memory up to 64 KiB and a temporary file beyond, and
// read the stream only once; the file is gone when the sweep returns.
// Where no file can be made, or the spool's keys and lanes leave no room
// for a pass's first run, the passes read the stream again.
func TestSweepReplaysItsFirstPass(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	// Some 10 bytes an event spooled: 200 KB, past the spool's 64 KiB in
	// memory, so in a file, read back in several of its reader's fills
	// (3 MB with -konvoy.long).
	events := steadyEvents(sized(20_000, 300_000))
	reads := 0
	stream := counted(&events, &reads)
	var configs []konvoy.Config
	for _, l := range []konvoy.Layout{konvoy.Free, konvoy.Convoy, konvoy.LineConvoy, konvoy.Resequencer} {
		for _, p := range konvoy.Policies() {
			configs = append(configs, konvoy.Config{Layout: l, Consumers: 3, Options: []konvoy.Option{konvoy.WithPolicy(p)}})
		}
	}
	want := make([]konvoy.Result, len(configs))
	for i, c := range configs {
		r, err := konvoy.Simulate(events, c.Layout, c.Consumers, c.Options...)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = r
	}
	for _, c := range []struct {
		name   string
		tmp    string
		budget int
		reads  int
	}{
		{"a spool in a file", t.TempDir(), 2_500_000, 1},
		{"no file", "/nonexistent/konvoy", 2_500_000, 2},
	} {
		t.Setenv("TMPDIR", c.tmp)
		reads = 0
		got, err := konvoy.Sweep(context.Background(), stream, configs, konvoy.WithMaxMemory(c.budget))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if d := gocmp.Diff(want, got); d != "" {
			t.Fatalf("%s: the sweep differs from the runs one by one (-one by one +sweep):\n%s", c.name, d)
		}
		if reads != c.reads {
			t.Errorf("%s: the sweep read the stream %d times; want %d", c.name, reads, c.reads)
		}
		if left, _ := filepath.Glob(filepath.Join(c.tmp, "*")); len(left) > 0 {
			t.Errorf("%s: the sweep left %v", c.name, left)
		}
	}
	// A short stream's spool stays in memory, so that it needs no file,
	// and a sweep of two configurations has one.
	t.Setenv("TMPDIR", "/nonexistent/konvoy")
	events = events[:2000]
	configs = []konvoy.Config{{Layout: konvoy.Convoy, Consumers: 3}, {Layout: konvoy.LineConvoy, Consumers: 3}}
	reads = 0
	if _, err := konvoy.Sweep(context.Background(), stream, configs, konvoy.WithMaxMemory(onePerPass)); err != nil || reads != 1 {
		t.Errorf("a short stream in two passes: read %d times, error %v; want once, no error", reads, err)
	}
}

// A sweep whose runs do not fit in its memory at once runs them in passes,
// with the results of one pass; without a spool, as where no temporary
// file can be made (see TestSweepReplaysItsFirstPass), each pass reads the
// stream again.
func TestSweepPassesWithinItsMemory(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	t.Setenv("TMPDIR", "/nonexistent/konvoy")
	events := steadyEvents(20000)
	passes := 0
	stream := counted(&events, &passes)
	var configs []konvoy.Config
	for _, l := range []konvoy.Layout{konvoy.Free, konvoy.Convoy, konvoy.LineConvoy} {
		configs = append(configs, konvoy.Config{Layout: l, Consumers: 3, Options: []konvoy.Option{konvoy.WithPolicy(konvoy.Static)}})
	}
	want, err := konvoy.Sweep(context.Background(), stream, configs)
	if err != nil || passes != 1 {
		t.Fatalf("%d passes, error %v; want 1 pass, no error", passes, err)
	}
	passes = 0
	got, err := konvoy.Sweep(context.Background(), stream, configs, konvoy.WithMaxMemory(onePerPass))
	if err != nil || passes != len(configs) {
		t.Fatalf("%d passes, error %v; want %d passes, no error", passes, err, len(configs))
	}
	if d := gocmp.Diff(want, got); d != "" {
		t.Fatalf("results in passes (-one pass +passes):\n%s", d)
	}
	_, err = konvoy.Sweep(context.Background(), stream, configs, konvoy.WithMaxMemory(100<<10))
	var ev *konvoy.EventError
	if !errors.As(err, &ev) || ev.Index != 4095 || !strings.Contains(err.Error(), "more than the sweep's 102400 (WithMaxMemory)") {
		t.Fatalf("error %v; want the first run's, too big alone, at the first batch's last event", err)
	}
}

// A sweep stops reading once its context is done, and says why.
func TestSweepStopsWhenTheContextIsDone(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	read := 0
	stream := func(yield func(konvoy.Event, error) bool) {
		for _, e := range manyEvents(100000) {
			read++
			if read == 10000 {
				cancel()
			}
			if !yield(e, nil) {
				return
			}
		}
	}
	_, err := konvoy.Sweep(ctx, stream, []konvoy.Config{{Layout: konvoy.Convoy, Consumers: 2}})
	if !errors.Is(err, context.Canceled) || read > 10000+sweepAhead {
		t.Fatalf("error %v after %d events; want context.Canceled within %d events of the cancel", err, read, sweepAhead)
	}
}

// CompareSelective is its runs: the whole trace under free consumption, the
// selective convoy and the convoy, and the ordered steps alone under free
// consumption, the convoy and the layouts given, each as Simulate gives it.
func TestCompareSelectiveIsItsRuns(t *testing.T) {
	events := lesson.EventsWithHistory()
	ordered := slices.DeleteFunc(slices.Clone(events), func(e konvoy.Event) bool { return e.Step == 0 })
	opts := []konvoy.Option{konvoy.WithPolicy(konvoy.LaneAware)}
	got, err := konvoy.CompareSelective(context.Background(), konvoy.Values(events), 3, []konvoy.Layout{konvoy.LineConvoy}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	run := func(events []konvoy.Event, l konvoy.Layout) konvoy.Result {
		r, err := konvoy.Simulate(events, l, 3, opts...)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	want := konvoy.SelectiveComparison{
		Free: run(events, konvoy.Free), Selective: run(events, konvoy.SelectiveConvoy), Convoy: run(events, konvoy.Convoy),
		OrderedFree: run(ordered, konvoy.Free), OrderedConvoy: run(ordered, konvoy.Convoy),
		Ordered: []konvoy.Result{run(ordered, konvoy.LineConvoy)},
		Share:   20.0 / 35,
	}
	want.Simulated = konvoy.Cost(want.Selective, want.Free)
	want.Formula = konvoy.SelectiveMultiplier(want.Share, konvoy.Cost(want.OrderedConvoy, want.OrderedFree))
	if d := gocmp.Diff(want, got); d != "" {
		t.Fatalf("CompareSelective (-runs one by one +got):\n%s", d)
	}
}

// An event that fails a run of the ordered steps alone is named by its index
// in the whole trace, not among the steps that run took: here only the line
// convoy of the ordered steps needs a line, and its first event, the
// trace's second, has none.
func TestCompareSelectiveNamesEventsByTheirTraceIndex(t *testing.T) {
	events := []konvoy.Event{{Key: "A", Duration: 1}, {Key: "A", Step: 1, Duration: 1}, {Key: "A", Step: 2, Duration: 1}}
	_, err := konvoy.CompareSelective(context.Background(), konvoy.Values(events), 1, []konvoy.Layout{konvoy.LineConvoy})
	var ev *konvoy.EventError
	if !errors.As(err, &ev) || ev.Index != 1 || ev.Field != "Line" {
		t.Fatalf("error %v; want event 1's missing line", err)
	}
}

// Empty comparisons are zeros, not NaNs.
func TestCompareSelectiveOfNothing(t *testing.T) {
	c, err := konvoy.CompareSelective(context.Background(), konvoy.Values(nil), 1, nil)
	if err != nil || c.Share != 0 || c.Simulated != 0 || c.Formula != 0 || c.Free.Events != 0 || len(c.Ordered) != 0 {
		t.Fatalf("%+v, %v", c, err)
	}
}

// A trace with no ordered step has no convoy cost to put in the formula:
// its Formula is 0, not the free share alone, while the selective convoy,
// which then runs free, is simulated at cost 1.
func TestCompareSelectiveWithoutOrderedSteps(t *testing.T) {
	events := []konvoy.Event{{Key: "A", Duration: 2}, {Key: "A", Duration: 1}, {Key: "B", Duration: 1}}
	c, err := konvoy.CompareSelective(context.Background(), konvoy.Values(events), 2, nil)
	if err != nil || c.Share != 0 || c.Formula != 0 || c.Simulated != 1 || c.Free.Events != 3 || c.OrderedFree.Events != 0 {
		t.Fatalf("%+v, %v", c, err)
	}
}

// A sweep checks the stream's own faults once for all its runs, and its
// runs check their own; either way the error is the one Simulate gives the
// first of the runs that fail at the earliest event. Each run is also swept
// alone: a free run checks nothing of its own, so there the sweep's check
// of the stream alone must find the fault.
func TestSweepChecksEventsAsSimulateDoes(t *testing.T) {
	t.Parallel()
	free := konvoy.Config{Layout: konvoy.Free, Consumers: 2}
	lines := konvoy.Config{Layout: konvoy.LineConvoy, Consumers: 2}
	scheduled := konvoy.Config{Layout: konvoy.Convoy, Consumers: 1, Options: []konvoy.Option{konvoy.WithSchedule(1)}}
	for _, bad := range []konvoy.Event{
		{Key: "", Line: "L", Step: 1, Duration: 1, Arrival: 9},
		{Key: "X", Line: "L", Step: -1, Duration: 1, Arrival: 9},
		{Key: "X", Line: "L", Step: 1, Duration: -1, Arrival: 9},
		{Key: "X", Line: "L", Step: 1, Duration: 1, Arrival: -1},
		{Key: "X", Line: "L", Step: 1, Duration: 1, Arrival: 3},
		{Key: "X", Line: "L", Step: 1, Duration: math.MaxInt - 5, Arrival: 9},
		{Key: "X", Line: "L", Step: 1, Duration: math.MaxInt - 2, Arrival: 9},
		{Key: "X", Line: "L", Step: 1, Duration: 1, Arrival: math.MaxInt - 5},
		{Key: "X", Line: "", Step: 1, Duration: 1, Arrival: 9},
	} {
		events := []konvoy.Event{{Key: "A", Line: "L", Step: 1, Duration: 2, Arrival: 4}, bad, {Key: "A", Line: "L", Step: 2, Duration: 1, Arrival: 9}}
		for _, configs := range [][]konvoy.Config{{free, lines, scheduled}, {free}, {lines}, {scheduled}} {
			var want error
			at := len(events)
			for _, c := range configs {
				var ev *konvoy.EventError
				if _, err := konvoy.Simulate(events, c.Layout, c.Consumers, c.Options...); errors.As(err, &ev) && ev.Index < at {
					want, at = err, ev.Index
				}
			}
			if want == nil && len(configs) > 1 {
				t.Fatalf("%+v: Simulate takes it under every run; want it refused", bad)
			}
			if _, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs); fmt.Sprint(err) != fmt.Sprint(want) {
				t.Errorf("%+v, %d runs from %v: sweep's error %v; want %v", bad, len(configs), configs[0].Layout, err, want)
			}
		}
	}
}

// TestSweepEqualsRunsOneByOne claims to hold however many passes its
// memory budgets split the runs into; its budgets must split them. Where
// no spool file can be made, each pass reads the stream again, so the
// reads count the passes: the default budget takes twelve lane-aware runs
// in one; 2,500,000 bytes splits them; 2,365,000 bytes splits twelve
// head-of-line runs; and 2,010,000 bytes takes lane-aware runs one a pass.
func TestSweepBudgetsForceSeveralPasses(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	t.Setenv("TMPDIR", "/nonexistent/konvoy")
	events := manyEvents(12000) // a spool past its buffer: a file, which cannot be made
	reads := 0
	stream := counted(&events, &reads)
	runs := func(n int, p konvoy.Policy) []konvoy.Config {
		var configs []konvoy.Config
		for i := range n {
			configs = append(configs, konvoy.Config{Layout: allLayouts[i%len(allLayouts)], Consumers: 3, Options: []konvoy.Option{konvoy.WithPolicy(p)}})
		}
		return configs
	}
	for _, tt := range []struct {
		budget  int
		configs []konvoy.Config
		passes  func(int) bool
		want    string
	}{
		{sweepBudgets[0], runs(12, konvoy.LaneAware), func(n int) bool { return n == 1 }, "one"},
		{sweepBudgets[1], runs(12, konvoy.LaneAware), func(n int) bool { return n > 1 && n < 12 }, "several, fewer than the runs"},
		{sweepBudgets[2], runs(12, konvoy.HeadOfLine), func(n int) bool { return n > 1 && n < 12 }, "several, fewer than the runs"},
		{sweepBudgets[3], runs(3, konvoy.LaneAware), func(n int) bool { return n == 3 }, "one a run"},
	} {
		reads = 0
		if _, err := konvoy.Sweep(context.Background(), stream, tt.configs, konvoy.WithMaxMemory(tt.budget)); err != nil {
			t.Fatal(err)
		}
		if !tt.passes(reads) {
			t.Errorf("budget %d, %d runs: %d passes; want %s", tt.budget, len(tt.configs), reads, tt.want)
		}
	}
}

// A sweep's spool leaves nothing behind, however the sweep ends: where the
// system lets an open file be removed, it has no name from the start, so
// that even a process killed mid-sweep leaves no file; and a sweep
// cancelled mid-way removes it before it returns.
func TestASweepsSpoolLeavesNothingBehind(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	// Three quarters in, the first pass has spooled some 10 bytes an event
	// of all but the batch it reads: 200 KB, past the spool's 64 KiB in
	// memory, so a file (2 MB with -konvoy.long).
	events := steadyEvents(sized(40_000, 300_000))
	configs := []konvoy.Config{{Layout: konvoy.Convoy, Consumers: 3}, {Layout: konvoy.LineConvoy, Consumers: 3}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var during []string
	stream := func(yield func(konvoy.Event, error) bool) {
		for i, e := range events {
			if i == len(events)*3/4 {
				during, _ = filepath.Glob(filepath.Join(tmp, "*"))
				cancel()
			}
			if !yield(e, nil) {
				return
			}
		}
	}
	_, err := konvoy.Sweep(ctx, stream, configs, konvoy.WithMaxMemory(onePerPass))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v; want context.Canceled", err)
	}
	if runtime.GOOS != "windows" && len(during) > 0 {
		t.Errorf("mid-sweep the temporary directory holds %v; want nothing: a spool without a name", during)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) > 0 {
		t.Errorf("the cancelled sweep left %v", left)
	}
}

// A run that fails alone in a pass fails where a sweep of it alone would,
// whatever runs it was swept with: the lane tables a sweep's spool keeps
// for every run, or keeps filling as it records, are not the run's, and a
// pass that cannot fit them beside it reads the stream without them. Here
// keys move among 400 lines, so line-convoy's table holds a load for each
// key in each line it met: the free run, which fits alone at every budget
// below, failed beside it, named as the run that did not fit (found by a
// review once those loads were counted).
func TestARunSweptWithOthersFailsWhereItFailsAlone(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 7))
	steps := map[int]int{}
	var events []konvoy.Event
	for i := range 60_000 {
		k := rng.IntN(3000)
		steps[k]++
		events = append(events, konvoy.Event{Key: fmt.Sprint("K", k), Line: fmt.Sprint("L", rng.IntN(400)), Step: steps[k], Duration: 1, Arrival: i})
	}
	free, convoy := konvoy.Config{Layout: konvoy.Free, Consumers: 1}, konvoy.Config{Layout: konvoy.LineConvoy, Consumers: 1}
	sweep := func(budget int, configs ...konvoy.Config) ([]konvoy.Result, error) {
		return konvoy.Sweep(context.Background(), konvoy.Values(events), configs, konvoy.WithMaxMemory(budget))
	}
	for _, budget := range []int{3 << 20, 4 << 20 / 4 * 3, 5 << 20 / 4 * 3, 8 << 20 / 4 * 3, 64 << 20} {
		rf, errFree := sweep(budget, free)
		rc, errConvoy := sweep(budget, convoy)
		got, err := sweep(budget, free, convoy)
		want := errors.Join(errFree, errConvoy) // the free run's event comes first when both fail, at the same index or later
		switch {
		case errFree != nil:
			t.Fatalf("budget %d: the free run alone failed (%v); want a budget it fits", budget, errFree)
		case (err == nil) != (want == nil) || err != nil && err.Error() != errConvoy.Error():
			t.Errorf("budget %d: swept together, error %v; alone, %v", budget, err, want)
		case err == nil && !reflect.DeepEqual(got, append(rf, rc...)):
			t.Errorf("budget %d: swept together, results differ from those alone", budget)
		}
	}
}

// A run that fails alone where its own inputs are all the pass holds is
// not run again in a pass of its own: the error is the run's memory error
// at its event, after the passes a sweep makes without such a retry (two
// here: the run that gave way is run up to the error's event too), as
// internal/runs needs of standard input with no copy kept.
func TestARunThatFailsWithItsOwnInputsIsNotRunAgain(t *testing.T) {
	t.Parallel()
	var events []konvoy.Event
	for i := range 20_000 {
		events = append(events, konvoy.Event{Key: fmt.Sprint("K", i), Step: 1, Duration: 1, Arrival: i})
	}
	reads := 0
	stream := func(yield func(konvoy.Event, error) bool) {
		if reads++; reads > 2 {
			yield(konvoy.Event{}, errors.New("read a third time"))
			return
		}
		for _, e := range events {
			if !yield(e, nil) {
				return
			}
		}
	}
	configs := []konvoy.Config{{Layout: konvoy.Convoy, Consumers: 1}, {Layout: konvoy.Convoy, Consumers: 2}}
	_, err := konvoy.Sweep(context.Background(), stream, configs, konvoy.WithMaxMemory(3<<20))
	if !errors.Is(err, konvoy.ErrMemory) || reads > 2 {
		t.Errorf("error %v after %d readings; want the memory error after two at most", err, reads)
	}
}

// A stream that yields its events once, read again by a later pass (here
// no spool file can be made, and the budget takes a run a pass), is an
// error that says so, not the results of the events it yielded the
// second time, none.
func TestAStreamThatEndsSoonerWhenReadAgainIsAnError(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	t.Setenv("TMPDIR", "/nonexistent/konvoy")
	events := steadyEvents(20000) // a spool past its buffer: a file, which cannot be made
	reads := 0
	once := func(yield func(konvoy.Event, error) bool) {
		if reads++; reads > 1 {
			return
		}
		for _, e := range events {
			if !yield(e, nil) {
				return
			}
		}
	}
	configs := []konvoy.Config{{Layout: konvoy.Free, Consumers: 3}, {Layout: konvoy.Convoy, Consumers: 3}}
	_, err := konvoy.Sweep(context.Background(), once, configs, konvoy.WithMaxMemory(onePerPass))
	if err == nil || !strings.Contains(err.Error(), "the stream ended at 0 events when read again, where a pass before read 20000") {
		t.Errorf("a stream read %d times: error %v; want the stream's end read again", reads, err)
	}
}

// A stream that fails in its first batch, after events whose durations
// span many powers of two, is read once, and its error returned: the
// workers' room is the plan's before any batch goes out (it was none, and
// 40 runs took 40 passes, one a pass).
func TestAStreamThatFailsInItsFirstBatchIsReadOnce(t *testing.T) {
	events := make([]konvoy.Event, 300)
	for i := range events {
		events[i] = konvoy.Event{Key: "K", Step: i + 1, Duration: 1 << (i % (bits.UintSize - 14))}
	}
	boom := errors.New("boom")
	reads := 0
	stream := func(yield func(konvoy.Event, error) bool) {
		reads++
		for _, e := range events {
			if !yield(e, nil) {
				return
			}
		}
		yield(konvoy.Event{}, boom)
	}
	configs := make([]konvoy.Config, 40)
	for i := range configs {
		configs[i] = konvoy.Config{Layout: konvoy.Free, Consumers: 1 + i%4}
	}
	if _, err := konvoy.Sweep(context.Background(), stream, configs); !errors.Is(err, boom) || reads != 1 {
		t.Errorf("read %d times, error %v; want once, and the stream's", reads, err)
	}
}

// A configuration no simulator can be made of fails the sweep before any
// event, and its error names its index in configs, so that a caller of
// many configurations knows which: after "konvoy: Sweep: configs[i]: ",
// NewSimulator's own message, which errors.Is and errors.As still see.
// (It was NewSimulator's alone, "konvoy: consumers is 0; ...", naming no
// configuration; found by a review.)
func TestSweepNamesTheConfigurationItCannotRun(t *testing.T) {
	events := konvoy.Values([]konvoy.Event{{Key: "A", Step: 1, Duration: 1}})
	bad := konvoy.Config{Layout: konvoy.Convoy, Consumers: 0}
	_, want := konvoy.NewSimulator(bad.Layout, bad.Consumers)
	configs := []konvoy.Config{{Layout: konvoy.Free, Consumers: 2}, {Layout: konvoy.Convoy, Consumers: 1}, bad, {Layout: konvoy.Free, Consumers: -1}}
	_, err := konvoy.Sweep(context.Background(), events, configs)
	if err == nil || want == nil {
		t.Fatalf("Sweep: %v, NewSimulator: %v; want errors", err, want)
	}
	if got, msg := err.Error(), "konvoy: Sweep: configs[2]: "+strings.TrimPrefix(want.Error(), "konvoy: "); got != msg {
		t.Errorf("Sweep's error %q; want %q", got, msg)
	}
	if inner := errors.Unwrap(err); inner == nil || inner.Error() != want.Error() {
		t.Errorf("Sweep's error wraps %v; want NewSimulator's, %v", inner, want)
	}
	if _, err := konvoy.Sweep(context.Background(), konvoy.Values(nil), configs); err == nil || !strings.HasPrefix(err.Error(), "konvoy: Sweep: configs[2]: ") {
		t.Errorf("no events: Sweep's error %v; want the same, before any event", err)
	}
}

// CompareSelective's runs are its own making: consumers or opts that no
// simulator takes are NewSimulator's error, as the caller gave them, not
// Sweep's naming a configuration the caller never passed. (It said
// "konvoy: Sweep: configs[0]: consumers is 0"; found by a review.)
func TestCompareSelectiveNamesNoConfigurationOfItsOwn(t *testing.T) {
	events := konvoy.Values([]konvoy.Event{{Key: "A", Step: 1, Duration: 1}})
	_, want := konvoy.NewSimulator(konvoy.Free, 0)
	_, err := konvoy.CompareSelective(context.Background(), events, 0, []konvoy.Layout{konvoy.LineConvoy})
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Errorf("CompareSelective with 0 consumers: %v; want NewSimulator's error, %v", err, want)
	}
}
