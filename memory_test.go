package konvoy_test

import (
	"iter"
	"runtime"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// allocated returns the bytes f allocates, collected or not: an upper bound
// on what it holds at its peak.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

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
	const budget = 1 << 20
	for _, p := range konvoy.Policies() {
		for _, l := range konvoy.AllLayouts(konvoy.MaxPartitions) {
			if got := allocated(func() {
				run(t, seq(konvoy.LessonEvents()), l, konvoy.MaxConsumers, konvoy.WithPolicy(p))
			}); got > budget {
				t.Errorf("%s, %s, %d consumers: %d bytes; want at most %d", l, p, konvoy.MaxConsumers, got, budget)
			}
		}
	}
	if got := allocated(func() {
		_, err := konvoy.PlanConsumers(seq(konvoy.LessonEvents()), konvoy.Partitioned(konvoy.MaxPartitions), konvoy.Static,
			konvoy.PlanConfig{Peak: konvoy.LessonPeakRate, RoundSeconds: 0.01, MaxConsumers: konvoy.MaxConsumers})
		if err != nil {
			t.Fatal(err)
		}
	}); got > budget {
		t.Errorf("planning with up to %d consumers: %d bytes; want at most %d", konvoy.MaxConsumers, got, budget)
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
			if got := allocated(func() { r = run(t, hotKey(n, duration, gap), l, 4, konvoy.WithPolicy(p)) }); got > budget {
				t.Errorf("%s, %s: %d bytes; want at most %d", l, p, got, budget)
			}
			if r.Events != n || r.Response.Max < duration {
				t.Fatalf("%s, %s: %d events, longest response %d", l, p, r.Events, r.Response.Max)
			}
		}
	}
}

// What a backlog costs is what it holds: lane-aware dispatch of a hot key's
// batch holds every event no consumer can take yet (56 bytes each), and
// static dispatch of a hot line, whose events keys need not share, every
// event taken but not yet applied (32 bytes each); with the garbage of
// their queues' growth, a few hundred bytes an event in all.
func TestABacklogCostsWhatItHolds(t *testing.T) {
	const n, duration = 100_000, 4096
	for _, c := range []struct {
		layout konvoy.Layout
		policy konvoy.Policy
	}{{konvoy.Convoy, konvoy.LaneAware}, {konvoy.LineConvoy, konvoy.Static}} {
		got := allocated(func() { run(t, hotKey(n, duration, 0), c.layout, 4, konvoy.WithPolicy(c.policy)) })
		if got > 400*n {
			t.Errorf("%s, %s: %d bytes for a backlog of %d events; want at most 400 an event", c.layout, c.policy, got, n)
		}
	}
}

// BenchmarkHotKey reports the bytes a run of one hot key allocates per
// event, under each policy; a figure that grows with b.N grows with the
// events.
func BenchmarkHotKey(b *testing.B) {
	for _, p := range konvoy.Policies() {
		b.Run(p.String(), func(b *testing.B) {
			b.ReportAllocs()
			got := allocated(func() { run(b, hotKey(b.N, 4096, 0), konvoy.Convoy, 4, konvoy.WithPolicy(p)) })
			b.ReportMetric(float64(got)/float64(b.N), "bytes/event")
		})
	}
}
