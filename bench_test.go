package konvoy_test

import (
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/synth"
)

// benchmarkLayout streams b.N events of the scale issue's benchmark set
// from the generator into one Simulator with 64 consumers, and reports
// ns/event and events/s. With -benchtime 10000000x the set is
// synth.Default(): 10M events of 1,428,572 keys on 100 lines, 7 events per
// key of which 4 are ordered steps and 3 history-only records, 1000 keys in
// flight at once, durations of 1 to 3 rounds. The figures include the
// generator's own cost (BenchmarkEvents in package synth, about 19 ns per
// event); streaming, rather than holding the trace, keeps the garbage
// collector from scanning gigabytes of events that no real run holds.
func benchmarkLayout(b *testing.B, l konvoy.Layout, opts ...konvoy.Option) {
	cfg := synth.Default()
	cfg.Events = b.N
	b.ReportAllocs()
	b.ResetTimer()
	s, err := konvoy.NewSimulator(l, 64, opts...)
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
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/event")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

func BenchmarkFree(b *testing.B)            { benchmarkLayout(b, konvoy.Free) }
func BenchmarkConvoy(b *testing.B)          { benchmarkLayout(b, konvoy.Convoy) }
func BenchmarkLineConvoy(b *testing.B)      { benchmarkLayout(b, konvoy.LineConvoy) }
func BenchmarkVersionStamp(b *testing.B)    { benchmarkLayout(b, konvoy.VersionStamp) }
func BenchmarkSelectiveConvoy(b *testing.B) { benchmarkLayout(b, konvoy.SelectiveConvoy) }
func BenchmarkPartitioned(b *testing.B)     { benchmarkLayout(b, konvoy.Partitioned(64)) }
func BenchmarkResequencer(b *testing.B)     { benchmarkLayout(b, konvoy.Resequencer) }
func BenchmarkConvoyLaneAware(b *testing.B) {
	benchmarkLayout(b, konvoy.Convoy, konvoy.WithPolicy(konvoy.LaneAware))
}
func BenchmarkConvoyStatic(b *testing.B) {
	benchmarkLayout(b, konvoy.Convoy, konvoy.WithPolicy(konvoy.Static))
}

// BenchmarkGenerator streams the same events into nothing: the part of the
// figures above that is the generator's.
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
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/event")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
