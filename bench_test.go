package konvoy_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// benchTrace is the scale issue's benchmark set: 10M events of about 1.43M
// keys, 7 events per key of which 4 are ordered steps and 3 history-only
// records, 4096 keys in flight at once, durations 1 to 4 rounds.
var benchTrace = sync.OnceValue(func() []konvoy.Event {
	const events, perKey, inFlight = 10_000_000, 7, 4096
	rng := rand.New(rand.NewPCG(1, 2))
	lines := make([]string, 64)
	for i := range lines {
		lines[i] = fmt.Sprintf("L%02d", i)
	}
	type active struct {
		key  string
		line string
		next int
	}
	window := make([]active, 0, inFlight)
	nextKey := 0
	out := make([]konvoy.Event, 0, events)
	for len(out) < events {
		for len(window) < inFlight {
			window = append(window, active{fmt.Sprintf("K%07d", nextKey), lines[rng.IntN(len(lines))], 0})
			nextKey++
		}
		i := rng.IntN(len(window))
		a := &window[i]
		step := 0
		if a.next%2 == 0 { // events 0, 2, 4, 6 are steps 1..4
			step = a.next/2 + 1
		}
		out = append(out, konvoy.Event{Key: a.key, Line: a.line, Step: step, Duration: 1 + rng.IntN(4)})
		a.next++
		if a.next == perKey {
			window[i] = window[len(window)-1]
			window = window[:len(window)-1]
		}
	}
	return out
})

// benchmarkLayout feeds b.N events of benchTrace, wrapping around, to one
// Simulator with 64 consumers, and reports ns/event and events/s.
func benchmarkLayout(b *testing.B, l konvoy.Layout) {
	events := benchTrace()
	b.ReportAllocs()
	b.ResetTimer()
	s, err := konvoy.NewSimulator(l, 64)
	if err != nil {
		b.Fatal(err)
	}
	for i := range b.N {
		if err := s.Add(events[i%len(events)]); err != nil {
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
