package konvoy_test

import (
	"context"
	"runtime"
	"strconv"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/seqtest"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/synth"
)

// The scale issue's benchmark set is synth.Default() run with -benchtime
// 10000000x: 10M events of 1,428,572 keys on 100 lines, 7 events per key of
// which 4 are ordered steps and 3 history-only records, 1000 keys in flight
// at once, durations of 1 to 3 rounds, fed to one Simulator with 64
// consumers.
//
//	go test -run '^$' -bench . -benchtime 10000000x -count 5 .
//
// BenchmarkSimulator times the simulator alone on the set generated
// beforehand, as the issue asks; BenchmarkStream times the whole pipeline
// of a real run, the generator streaming into the simulator, so that its
// figures include the generator's own cost (BenchmarkGenerator).

// benchmarkLayouts are the layouts and policies the benchmarks run.
var benchmarkLayouts = []struct {
	name   string
	layout konvoy.Layout
	policy konvoy.Policy
}{
	{"free", konvoy.Free, konvoy.HeadOfLine},
	{"convoy", konvoy.Convoy, konvoy.HeadOfLine},
	{"line-convoy", konvoy.LineConvoy, konvoy.HeadOfLine},
	{"version-stamp", konvoy.VersionStamp, konvoy.HeadOfLine},
	{"selective-convoy", konvoy.SelectiveConvoy, konvoy.HeadOfLine},
	{"partitioned:64", konvoy.Partitioned(64), konvoy.HeadOfLine},
	{"resequencer", konvoy.Resequencer, konvoy.HeadOfLine},
	{"convoy-lane-aware", konvoy.Convoy, konvoy.LaneAware},
	{"convoy-static", konvoy.Convoy, konvoy.Static},
}

// generated holds the sets generated so far by length, so that the
// layouts share them.
var generated = map[int][]konvoy.Event{}

// benchmarkSet returns synth.Default() cut to n events, generating it the
// first time it is asked for.
func benchmarkSet(n int) []konvoy.Event {
	if _, ok := generated[n]; !ok {
		cfg := synth.Default()
		cfg.Events = n
		generated[n] = seqtest.Drain(synth.Events(cfg))
	}
	return generated[n]
}

// BenchmarkSimulator feeds the benchmark set, generated beforehand, to one
// Simulator per layout. The garbage of earlier runs is collected before the
// clock starts, so that no run pays for another's.
func BenchmarkSimulator(b *testing.B) {
	for _, l := range benchmarkLayouts {
		b.Run(l.name, func(b *testing.B) {
			events := benchmarkSet(b.N)
			runtime.GC()
			b.ReportAllocs()
			b.ResetTimer()
			s, err := konvoy.NewSimulator(l.layout, 64, konvoy.WithPolicy(l.policy))
			if err != nil {
				b.Fatal(err)
			}
			for _, e := range events {
				if err := s.Add(e); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := s.Result(); err != nil {
				b.Fatal(err)
			}
			reportPerEvent(b)
		})
	}
}

// BenchmarkStream streams the benchmark set from the generator into one
// Simulator per layout, as `konvoy gen | konvoy -events -` does without the
// text in between; no event is held after the simulator has taken it.
// Its body repeats BenchmarkSimulator's on purpose: that one ranges over a
// slice, so that no iterator call sits in the loop it times.
func BenchmarkStream(b *testing.B) {
	for _, l := range benchmarkLayouts {
		b.Run(l.name, func(b *testing.B) {
			cfg := synth.Default()
			cfg.Events = b.N
			clear(generated)
			runtime.GC()
			b.ReportAllocs()
			b.ResetTimer()
			s, err := konvoy.NewSimulator(l.layout, 64, konvoy.WithPolicy(l.policy))
			if err != nil {
				b.Fatal(err)
			}
			for e := range synth.Events(cfg) {
				if err := s.Add(e); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := s.Result(); err != nil {
				b.Fatal(err)
			}
			reportPerEvent(b)
		})
	}
}

// BenchmarkGenerator streams the same events into nothing: the part of
// BenchmarkStream that is the generator's.
func BenchmarkGenerator(b *testing.B) {
	cfg := synth.Default()
	cfg.Events = b.N
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for e := range synth.Events(cfg) {
		n += e.Duration
	}
	if n == 0 {
		b.Fatal("no work generated")
	}
	reportPerEvent(b)
}

// reportPerEvent reports ns/event and events/s for b.N events.
func reportPerEvent(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/event")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// The sweep issue's set is `konvoy gen -events N -keys 250000 -seed 3`:
// synth.Default() with 250,000 keys, seed 3. Its benchmarks time one
// convoy run of 64 consumers through Simulate, the same run through Sweep,
// and the 147 runs of every layout, policy and consumer count 1 to 64
// (`-layouts all -policy all -consumers 1,2,4,8,16,32,64`) in one Sweep:
//
//	go test -run '^$' -bench 'Sweep' -benchtime 1000000x -count 5 .
//
// ns/event is the wall time per event of the stream, run-ns/event the time
// per event and run on one core (what a run costs the machine).
func BenchmarkSweep(b *testing.B) {
	one := []konvoy.Config{{Layout: konvoy.Convoy, Consumers: 64}}
	var all []konvoy.Config
	for _, l := range konvoy.AllLayouts(64) {
		for _, p := range konvoy.Policies() {
			for _, c := range []int{1, 2, 4, 8, 16, 32, 64} {
				all = append(all, konvoy.Config{Layout: l, Consumers: c, Options: []konvoy.Option{konvoy.WithPolicy(p)}})
			}
		}
	}
	for _, bc := range []struct {
		name    string
		configs []konvoy.Config
	}{{"simulate-convoy", nil}, {"convoy", one}, {"all-147", all}} {
		b.Run(bc.name, func(b *testing.B) {
			events := sweepSet(b.N)
			runtime.GC()
			b.ReportAllocs()
			b.ResetTimer()
			runs := max(1, len(bc.configs))
			if bc.configs == nil {
				if _, err := konvoy.Simulate(events, konvoy.Convoy, 64); err != nil {
					b.Fatal(err)
				}
			} else if _, err := konvoy.Sweep(context.Background(), konvoy.Values(events), bc.configs); err != nil {
				b.Fatal(err)
			}
			reportPerEvent(b)
			cores := float64(min(runtime.GOMAXPROCS(0), runs))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())*cores/float64(b.N*runs), "run-ns/event")
		})
	}
}

// sweepSets holds the sweep issue's sets generated so far by length.
var sweepSets = map[int][]konvoy.Event{}

// sweepSet returns the sweep issue's set of n events, generating it the
// first time it is asked for.
func sweepSet(n int) []konvoy.Event {
	if _, ok := sweepSets[n]; !ok {
		clear(generated)
		cfg := synth.Default()
		cfg.Events, cfg.Keys, cfg.Seed = n, 250000, 3
		sweepSets[n] = seqtest.Drain(synth.Events(cfg))
	}
	return sweepSets[n]
}

// BenchmarkPlanLatency plans the latency issue's speed goal: b.N events
// (1,000,000 with -benchtime 1000000x) of the sweep issue's set arriving at
// 20 a round, streamed from the generator for every pass as a trace would
// be read from its file, five layouts under head-of-line dispatch, p99 of
// the response within 50 rounds.
//
//	go test -run '^$' -bench PlanLatency -benchtime 1000000x -count 5 .
func BenchmarkPlanLatency(b *testing.B) {
	cfg := synth.Default()
	cfg.Events, cfg.Keys, cfg.Seed, cfg.Rate = b.N, 250000, 3, 20
	layouts := []konvoy.Layout{konvoy.Free, konvoy.Convoy, konvoy.LineConvoy, konvoy.SelectiveConvoy, konvoy.Partitioned(64)}
	b.ReportAllocs()
	b.ResetTimer()
	plans, err := konvoy.PlanLatency(synth.Events(cfg), layouts, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 99, Rounds: 50}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(b.Elapsed().Seconds(), "s/plan")
	runs := 0
	for _, p := range plans {
		runs += len(p.Curve)
		b.Logf("%s: meets %v at %d consumers, p99 %d rounds, floor %d; %d runs", p.Layout, p.Meets, p.Consumers, p.Achieved, p.Floor, len(p.Curve))
	}
	b.ReportMetric(float64(runs), "runs")
}

// BenchmarkPlanLatencyOneByOne times PlanLatency's search one count after
// another (under Static, where latency need not fall as consumers are
// added) over b.N counts: two events of 6 rounds whose keys land on
// adjacent partitions of Partitioned(MaxPartitions), which range deals to
// one consumer at every count tried, against a target of 10 rounds, so
// that no count meets and every count up to MaxConsumers b.N is tried. It
// reports the time a count takes, which stays flat as b.N grows: a search
// that looked over every count tried after each took time quadratic in
// the counts (4m42s for 32,000, where it now takes about 2 s).
//
//	go test -run '^$' -bench PlanLatencyOneByOne -benchtime 32000x .
func BenchmarkPlanLatencyOneByOne(b *testing.B) {
	events := []konvoy.Event{{Key: "k27619", Step: 1, Duration: 6}, {Key: "k16598", Step: 1, Duration: 6}}
	layouts := []konvoy.Layout{konvoy.Partitioned(konvoy.MaxPartitions)}
	b.ReportAllocs()
	plans, err := konvoy.PlanLatency(konvoy.Values(events), layouts, konvoy.LatencyConfig{SLO: konvoy.SLO{Percentile: 100, Rounds: 10}, MaxConsumers: b.N},
		konvoy.WithPolicy(konvoy.Static))
	if err != nil {
		b.Fatal(err)
	}
	if plans[0].Meets || len(plans[0].Curve) < b.N/2 {
		b.Fatalf("meets %v after %d counts; want every count tried, none meeting", plans[0].Meets, len(plans[0].Curve))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(len(plans[0].Curve)), "ns/count")
}

// BenchmarkPartitionsFor times PartitionsFor's search over 200,000 keys up
// to 256 partitions, konvoy plan's default, no count found (a share of
// 0 is never met with this many keys), and reports the time a key takes at
// one count, were every count to spread every key: keys of 1 to 7 rounds
// (even), where two heavy keys in one partition end a count, and one key
// of 10^9 rounds among keys of 1 (one-hot), where only a key landing in
// the hot key's partition does:
//
//	go test -run '^$' -bench PartitionsFor -count 5 .
func BenchmarkPartitionsFor(b *testing.B) {
	const keys, limit = 200_000, 256
	for _, c := range []struct {
		name string
		load func(i int) int
	}{
		{"even", func(i int) int { return 1 + i%7 }},
		{"one-hot", func(i int) int { return max(1, 1e9*(1-min(i, 1))) }},
	} {
		events := make([]konvoy.Event, keys)
		for i := range events {
			events[i] = konvoy.Event{Key: "key-" + strconv.Itoa(i), Duration: c.load(i)}
		}
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				if _, found, err := konvoy.PartitionsFor(konvoy.Values(events), 0, limit); err != nil || found {
					b.Fatal(found, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/keys/limit, "ns/key-count")
		})
	}
}
