package synth_test

import (
	"runtime"
	"testing"

	"github.com/sirali-konvoy/konvoy/synth"
)

// After its setup, the generator allocates nothing, whatever the number of
// events: its memory does not grow with the stream.
func TestSteadyStateDoesNotAllocate(t *testing.T) {
	for _, c := range []synth.Config{small(300_000), busy(300_000)} {
		c.Keys = 100_000
		var before, after runtime.MemStats
		i := 0
		for range synth.Events(c) {
			if i++; i == 1 {
				runtime.ReadMemStats(&before)
			}
		}
		runtime.ReadMemStats(&after)
		// A few allocations may come from the runtime or the test framework.
		if n := after.Mallocs - before.Mallocs; n > 50 {
			t.Errorf("%d allocations over %d events after the first", n, c.Events-1)
		}
	}
}

// BenchmarkEvents measures the steady state of b.N events, the setup before
// the first excluded: ns/op is nanoseconds per event.
func BenchmarkEvents(b *testing.B) {
	skew := synth.Default()
	skew.KeySkew, skew.LineSkew = 1, 1
	arrivals := synth.Default()
	arrivals.Rate, arrivals.BurstEvery, arrivals.BurstLen, arrivals.BurstFactor = 1000, 60, 5, 4
	arrivals.Duration = synth.Exponential(2)
	wild := synth.Default()
	wild.OutOfOrder, wild.Duration = 0.1, synth.LogNormal(0.5, 0.7)
	for _, bc := range []struct {
		name string
		c    synth.Config
	}{
		{"default", synth.Default()},
		{"skew", skew},
		{"arrivals", arrivals},
		{"lognormal-disorder", wild},
	} {
		b.Run(bc.name, func(b *testing.B) {
			c := bc.c
			c.Events = b.N
			b.ReportAllocs()
			i, sink := 0, 0
			for e := range synth.Events(c) {
				if i == 0 {
					b.ResetTimer()
				}
				i++
				sink += e.Step + e.Duration + e.Arrival
			}
			b.StopTimer()
			if i != b.N || sink < 0 {
				b.Fatalf("%d events; want %d", i, b.N)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkSetup measures the setup of the default config up to its first
// event: names for its 1,428,572 keys, the in-flight index and the window.
func BenchmarkSetup(b *testing.B) {
	c := synth.Default()
	b.ReportAllocs()
	for b.Loop() {
		for range synth.Events(c) {
			break
		}
	}
}
