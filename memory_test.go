package konvoy_test

import (
	"context"
	"errors"
	"iter"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/memtest"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// run feeds events to a new simulator and returns its result.
func run(tb testing.TB, events iter.Seq[konvoy.Event], l konvoy.Layout, c int, opts ...konvoy.Option) konvoy.Result {
	tb.Helper()
	s, err := konvoy.NewSimulator(l, c, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	for e := range events {
		if err := s.Add(e); err != nil {
			tb.Fatal(err)
		}
	}
	r, err := s.Result()
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// hotKey yields n events of one key, steps 1 to n, each taking duration
// rounds, arriving every gap rounds (0: all at once).
func hotKey(n, duration, gap int) iter.Seq[konvoy.Event] {
	return func(yield func(konvoy.Event) bool) {
		for i := range n {
			if !yield(konvoy.Event{Key: "HOT", Line: "L1", Step: i + 1, Duration: duration, Arrival: i * gap}) {
				return
			}
		}
	}
}

// Consumers and partitions cost memory only once events use them: the
// lesson's twenty events on the most consumers and the most partitions
// there can be take what they take on four.
func TestHugeCountsCostWhatTheEventsNeed(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	const budget = 1 << 20
	for _, p := range konvoy.Policies() {
		for _, l := range konvoy.AllLayouts(konvoy.MaxPartitions) {
			if got := memtest.Allocated(func() {
				run(t, seq(lesson.Events()), l, konvoy.MaxConsumers, konvoy.WithPolicy(p))
			}); got > budget {
				t.Errorf("%s, %s, %d consumers: %d bytes; want at most %d", l, p, konvoy.MaxConsumers, got, budget)
			}
		}
	}
	if got := memtest.Allocated(func() {
		_, err := konvoy.PlanConsumers(konvoy.Values(lesson.Events()), konvoy.Partitioned(konvoy.MaxPartitions),
			konvoy.PlanConfig{Peak: lesson.PeakRate, RoundSeconds: 0.01, MaxConsumers: konvoy.MaxConsumers}, konvoy.WithPolicy(konvoy.Static))
		if err != nil {
			t.Fatal(err)
		}
	}); got > budget {
		t.Errorf("planning with up to %d consumers: %d bytes; want at most %d", konvoy.MaxConsumers, got, budget)
	}
}

// A consumer that takes an event costs at most the 208 bytes NewSimulator's
// doc (and Sweep's plan) gives it: measured as the live heap a simulator
// holds for 2^17+1 consumers, each taking one event and still running it,
// over that for 2^16+1, when every table has just doubled. The doc said 144
// and left out the lists of consumers due to finish (found by a review).
// Each event runs 2^13 rounds, so that the 2^17+1 events' work fits an int
// of 32 bits (2^30 rounds each overflowed it under GOARCH=386).
func TestAConsumerCostsAtMostItsBytes(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	held := func(p konvoy.Policy, n int) float64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		before := ms.HeapAlloc
		s, err := konvoy.NewSimulator(konvoy.Free, konvoy.MaxConsumers, konvoy.WithPolicy(p))
		if err != nil {
			t.Fatal(err)
		}
		for range n {
			if err := s.Add(konvoy.Event{Key: "k", Step: 1, Duration: 1 << 13}); err != nil {
				t.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&ms)
		runtime.KeepAlive(s)
		return float64(ms.HeapAlloc) - float64(before)
	}
	for _, p := range konvoy.Policies() {
		if per := (held(p, 1<<17+1) - held(p, 1<<16+1)) / (1 << 16); per > 208 {
			t.Errorf("%s: %.1f bytes a consumer; want at most 208", p, per)
		}
	}
}

// seq is a slice's events as a stream.
func seq(events []konvoy.Event) iter.Seq[konvoy.Event] {
	return func(yield func(konvoy.Event) bool) {
		for _, e := range events {
			if !yield(e) {
				return
			}
		}
	}
}

// A hot key, whose events wait longer and longer behind each other, costs
// no more memory than a cold one: 100,000 events of one key at 4,096 rounds
// each wait up to 409 million rounds (which took 6.2 GB of latency
// histogram before it was bounded). Under every layout with head-of-line or
// static dispatch they run in a few hundred kilobytes; lane-aware dispatch
// holds what the broker would, the events no consumer can take yet, so it
// is bounded when the key keeps pace.
func TestAHotKeyRunsInBoundedMemory(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	const n, duration, budget = 100_000, 4096, 2 << 20
	for _, p := range konvoy.Policies() {
		gap := 0
		if p == konvoy.LaneAware {
			gap = duration
		}
		for _, l := range konvoy.AllLayouts(4) {
			if p == konvoy.Static && l.String() == konvoy.LineConvoy.String() {
				continue // holds its backlog: see the next test
			}
			var r konvoy.Result
			if got := memtest.Allocated(func() { r = run(t, hotKey(n, duration, gap), l, 4, konvoy.WithPolicy(p)) }); got > budget {
				t.Errorf("%s, %s: %d bytes; want at most %d", l, p, got, budget)
			}
			if r.Events != n || r.Response.Max < duration {
				t.Fatalf("%s, %s: %d events, longest response %d", l, p, r.Events, r.Response.Max)
			}
		}
	}
}

// What a backlog costs is what it holds: lane-aware dispatch of a hot key's
// batch holds every event no consumer can take yet (56 bytes each where
// int has 64 bits), and static dispatch of a hot line, whose events keys
// need not share, every event taken but not yet applied (32 bytes each).
// A backlog grows a page at a time and never copies what it holds, so a
// run allocates little more than that: at most 72 and 48 bytes an event.
// Grown as a slice, a quarter at a time, the lane-aware backlog allocated
// five times what it held, 325 bytes an event, and each growth's new block
// came before the sweep could count it: under a tight ulimit -v, konvoy
// ended in Go's fatal out-of-memory error rather than at -max-memory.
func TestABacklogCostsWhatItHolds(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	const n, duration = 100_000, 4096
	for _, c := range []struct {
		layout konvoy.Layout
		policy konvoy.Policy
		most   uint64
	}{{konvoy.Convoy, konvoy.LaneAware, 72}, {konvoy.LineConvoy, konvoy.Static, 48}} {
		got := memtest.Allocated(func() { run(t, hotKey(n, duration, 0), c.layout, 4, konvoy.WithPolicy(c.policy)) })
		if got > c.most*n {
			t.Errorf("%s, %s: %d bytes for a backlog of %d events; want at most %d an event", c.layout, c.policy, got, n, c.most)
		}
	}
}

// A steady backlog costs what it holds too, on many consumers: under
// static dispatch of 256 recorded partitions, one event a round each, 255
// consumers run 9 rounds behind the first from the start, so that each of
// their queues always holds some 10 events not yet applied, and never
// empties. Their queues grew to a page each (128 KiB) as events went
// through them, 33 MB allocated in 2,000 rounds, where the backlog was
// never more than 3,072 events (WithMaxBacklog says so).
func TestASteadyBacklogOnManyConsumersCostsWhatItHolds(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	const c, rounds, budget = 256, 2000, 4 << 20
	keys := make([]string, c)
	for i := range keys {
		keys[i] = "k" + strconv.Itoa(i)
	}
	events := func(yield func(konvoy.Event) bool) {
		for i := range c * rounds {
			d := 1
			if i%c > 0 && i < c {
				d = 10
			}
			if !yield(konvoy.Event{Key: keys[i%c], Step: i/c + 1, Duration: d, Arrival: i / c, Partition: i % c}) {
				return
			}
		}
	}
	got := memtest.Allocated(func() {
		run(t, events, konvoy.Recorded(c), c, konvoy.WithPolicy(konvoy.Static), konvoy.WithMaxBacklog(12*c))
	})
	if got > budget {
		t.Errorf("%d bytes for a backlog of at most %d events on %d consumers; want at most %d", got, 12*c, c, budget)
	}
}

// BenchmarkHotKey reports the bytes a run of one hot key allocates per
// event, under each policy; a figure that grows with b.N grows with the
// events.
func BenchmarkHotKey(b *testing.B) {
	for _, p := range konvoy.Policies() {
		b.Run(p.String(), func(b *testing.B) {
			b.ReportAllocs()
			got := memtest.Allocated(func() { run(b, hotKey(b.N, 4096, 0), konvoy.Convoy, 4, konvoy.WithPolicy(p)) })
			b.ReportMetric(float64(got)/float64(b.N), "bytes/event")
		})
	}
}

// A run holds at most the backlog WithMaxBacklog allows: one event for each
// consumer that has taken one, and what it holds while consumers fall
// behind. A hot key's batch under lane-aware dispatch on 4 consumers takes
// one consumer and holds every event behind the one running: after its
// i-th event, 1 + i. Static dispatch of a hot line holds every event taken
// and not applied, the running one too: 1 + i+1. The resequencer, fed a
// key's steps backwards, holds every one until step 1 releases them, or to
// the end of the run without it, on 4 consumers: 4 + 999 at most. A run
// that needs one more than the limit fails where it does, with an error
// that wraps ErrBacklog and says what it holds.
func TestABacklogBeyondItsLimitIsAnError(t *testing.T) {
	const n = 1000
	for _, c := range []struct {
		layout konvoy.Layout
		policy konvoy.Policy
		events iter.Seq[konvoy.Event]
		most   int // the backlog of the whole run
		want   string
	}{
		{konvoy.Convoy, konvoy.LaneAware, hotKey(n, 7, 0), n,
			`konvoy: event 999 (key "HOT"): backlog over its limit: lane-aware dispatch of convoy at 4 consumers holds 1000 events, more than the 999 it may (WithMaxBacklog): 1 for the consumers that have taken one, 999 no consumer could take yet`},
		{konvoy.LineConvoy, konvoy.Static, hotKey(n, 7, 0), n + 1,
			`konvoy: event 999 (key "HOT"): backlog over its limit: static dispatch of line-convoy at 4 consumers holds 1001 events, more than the 1000 it may (WithMaxBacklog): 1 for the consumers that have taken one, 1000 taken but not yet applied`},
		{konvoy.Resequencer, konvoy.HeadOfLine, backwards(n, 1), n + 3,
			`konvoy: event 999 (key "HOT"): backlog over its limit: head-of-line dispatch of resequencer at 4 consumers holds 1003 events, more than the 1002 it may (WithMaxBacklog): 4 for the consumers that have taken one, 999 held until their gaps fill, at the most`},
		// Without step 1 nothing is released, and applying the events
		// still waiting at the end holds the last of them too.
		{konvoy.Resequencer, konvoy.HeadOfLine, backwards(n, 2), n + 3,
			`konvoy: at the end of the run: backlog over its limit: head-of-line dispatch of resequencer at 4 consumers holds 1003 events, more than the 1002 it may (WithMaxBacklog): 4 for the consumers that have taken one, 999 held until their gaps fill, at the most`},
	} {
		if !c.layout.HoldsBacklog(c.policy) {
			t.Errorf("%s under %s holds no backlog, it says", c.layout, c.policy)
		}
		run(t, c.events, c.layout, 4, konvoy.WithPolicy(c.policy), konvoy.WithMaxBacklog(c.most))
		s, err := konvoy.NewSimulator(c.layout, 4, konvoy.WithPolicy(c.policy), konvoy.WithMaxBacklog(c.most-1))
		if err != nil {
			t.Fatal(err)
		}
		for e := range c.events {
			if err = s.Add(e); err != nil {
				break
			}
		}
		_, rerr := s.Result()
		if err == nil {
			err = rerr
		}
		if err == nil || err.Error() != c.want || !errors.Is(err, konvoy.ErrBacklog) || rerr != err {
			t.Errorf("%s, %s: %v (Result: %v)\nwant %s", c.layout, c.policy, err, rerr, c.want)
		}
	}
}

// backwards yields events of one key whose steps count down from n to
// last: the resequencer holds each until step 1 arrives.
func backwards(n, last int) iter.Seq[konvoy.Event] {
	return func(yield func(konvoy.Event) bool) {
		for step := n; step >= last; step-- {
			if !yield(konvoy.Event{Key: "HOT", Step: step, Duration: 1}) {
				return
			}
		}
	}
}

// Which runs can hold a backlog, layout by layout: lane-aware dispatch of
// every layout with lanes, static dispatch of lanes that do not pin keys,
// and the resequencer under every policy.
func TestHoldsBacklog(t *testing.T) {
	byCustomer := konvoy.NewLayout("by-customer", func(e konvoy.Event) (string, bool) { return e.Line, true })
	for _, c := range []struct {
		layout                          konvoy.Layout
		headOfLine, laneAware, isStatic bool
	}{
		{konvoy.Free, false, false, false},
		{konvoy.Convoy, false, true, false},
		{konvoy.LineConvoy, false, true, true},
		{konvoy.VersionStamp, false, false, false},
		{konvoy.SelectiveConvoy, false, true, false},
		{konvoy.Partitioned(3), false, true, false},
		{konvoy.Resequencer, true, true, true},
		{byCustomer, false, true, true},
		{konvoy.NewLayout("none", nil), false, false, false},
	} {
		got := []bool{c.layout.HoldsBacklog(konvoy.HeadOfLine), c.layout.HoldsBacklog(konvoy.LaneAware), c.layout.HoldsBacklog(konvoy.Static)}
		if want := []bool{c.headOfLine, c.laneAware, c.isStatic}; !slices.Equal(got, want) {
			t.Errorf("%s: head-of-line, lane-aware, static hold a backlog: %v; want %v", c.layout, got, want)
		}
	}
}

// midLifecycle yields the trace of issue 17: the keys names, whose
// lifecycles began before the trace did, perKey steps each from step 2 on,
// every event one round on line L1, events in all.
func midLifecycle(names []string, perKey, events int) iter.Seq[konvoy.Event] {
	return func(yield func(konvoy.Event) bool) {
		for i := range events {
			if !yield(konvoy.Event{Key: names[i/perKey], Line: "L1", Step: 2 + i%perKey, Duration: 1}) {
				return
			}
		}
	}
}

// Issue 17's trace: a million events of 333,334 keys that all start at step
// 2 (a fifth of it by default, the whole with -konvoy.long). Under
// first-seen, no key is wrong and nothing is held at the end, and what the
// run allocates grows with the keys, not the events: twice the steps a key
// take no more. Under zero, every key holds all its events to the end, as
// the issue found (shown here on the first 3,000 events).
func TestFirstSeenRunsTheMidLifecycleTrace(t *testing.T) {
	if !memtest.Alone(t) {
		return
	}
	n := sized(200_001, 1_000_000)
	keys := (n + 2) / 3
	names := make([]string, keys) // made here, so that only the run's allocations count
	for i := range names {
		names[i] = "K" + strconv.Itoa(i)
	}
	first := konvoy.WithResequencer(konvoy.ResequencerConfig{Start: konvoy.StartFirstSeen})
	var r konvoy.Result
	got := memtest.Allocated(func() { r = run(t, midLifecycle(names, 3, n), konvoy.Resequencer, 8, first) })
	if r.Events != n || r.Keys != keys || r.WrongFinal != 0 || r.NeverApplied != 0 || r.GapsSkipped != 0 {
		t.Fatalf("first-seen: %d events, %d keys, WrongFinal %d, NeverApplied %d, GapsSkipped %d; want %d, %d, 0, 0, 0",
			r.Events, r.Keys, r.WrongFinal, r.NeverApplied, r.GapsSkipped, n, keys)
	}
	// The same keys with six steps each: twice the events, no more memory
	// beyond a tenth.
	twice := memtest.Allocated(func() { r = run(t, midLifecycle(names, 6, 2*n), konvoy.Resequencer, 8, first) })
	if r.WrongFinal != 0 || r.NeverApplied != 0 || float64(twice) > 1.1*float64(got) {
		t.Fatalf("twice the steps: WrongFinal %d, NeverApplied %d, %d bytes against %d; want 0, 0, at most 10%% more",
			r.WrongFinal, r.NeverApplied, twice, got)
	}
	t.Logf("first-seen, %d events: %d bytes allocated (%d with twice the events)", n, got, twice)
	z := run(t, midLifecycle(names, 3, 3000), konvoy.Resequencer, 8)
	if z.WrongFinal != 1000 || z.NeverApplied != 3000 {
		t.Fatalf("zero: WrongFinal %d, NeverApplied %d; want 1000, 3000", z.WrongFinal, z.NeverApplied)
	}
}

// A sweep too small for even its own memory says what it takes itself,
// beside the run's keys, lanes and backlog: a sweep of one event in 1 MiB
// was said to need some 1.9 MB for the run's keys (found by an audit of
// the package's claims).
func TestASweepTooSmallSaysWhatItTakesItself(t *testing.T) {
	_, err := konvoy.Sweep(context.Background(), konvoy.Values([]konvoy.Event{{Key: "A", Step: 1, Duration: 1}}),
		[]konvoy.Config{{Layout: konvoy.Free, Consumers: 1}}, konvoy.WithMaxMemory(1<<20))
	var ee *konvoy.EventError
	if !errors.Is(err, konvoy.ErrMemory) || !errors.As(err, &ee) || ee.Index != 0 || !strings.Contains(err.Error(), "(the sweep's own 1900544 among them)") {
		t.Errorf("a sweep of 1 MiB: %v; want event 0 refused, naming what the sweep takes itself", err)
	}
}
