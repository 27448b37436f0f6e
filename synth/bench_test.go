package synth_test

import (
	"runtime"
	"testing"

	"github.com/sirali-konvoy/konvoy/synth"
)

// After its setup, the generator allocates only to make names, once per
// 4,096 (a block, or a buffer when names are not kept): never per event, and
// with keys that come back, not at all once all have a name, whatever the
// number of events.
func TestSteadyStateDoesNotAllocate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		keys  int
		lines int
	}{
		{"keys that come back", 1000, 10},
		{"100,000 keys", 100_000, 10},
		{"names not kept", synth.MaxCount, synth.MaxCount},
	} {
		for _, c := range []synth.Config{small(300_000), busy(300_000)} {
			c.Keys, c.Lines = tc.keys, tc.lines
			if c.KeySkew > 0 { // skewed counts have lower limits
				c.Keys, c.Lines = min(c.Keys, 1<<22), min(c.Lines, synth.MaxSkewedLines)
			}
			var before, after runtime.MemStats
			i := 0
			for range synth.Events(c) {
				if i++; i == 1 {
					runtime.ReadMemStats(&before)
				}
			}
			runtime.ReadMemStats(&after)
			// A few allocations may come from the runtime or the test
			// framework; the rest make names, at most two per lifecycle
			// (its key's and its line's) and 4,096 to an allocation.
			most := uint64(50)
			if tc.keys > 1000 {
				lifecycles := (c.Events + c.StepsPerKey - 1) / c.StepsPerKey
				most += uint64(2 * lifecycles / 4096)
			}
			if n := after.Mallocs - before.Mallocs; n > most {
				t.Errorf("%s, KeySkew %v: %d allocations over %d events after the first; want at most %d", tc.name, c.KeySkew, n, c.Events-1, most)
			}
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

// BenchmarkSetupAtLimits measures the setup, up to the first event, of the
// largest counts Check accepts: skewed keys and lines at their limits, whose
// shares are worked out rank by rank, and unskewed keys, lines and lifecycles
// in flight at MaxCount, which cost only what the stream uses.
func BenchmarkSetupAtLimits(b *testing.B) {
	for _, bc := range []struct {
		name   string
		change func(*synth.Config)
	}{
		{"skewed-keys", func(c *synth.Config) { c.Keys, c.KeySkew = synth.MaxSkewedKeys, 1 }},
		{"skewed-lines", func(c *synth.Config) { c.Lines, c.LineSkew = synth.MaxSkewedLines, 1 }},
		{"counts", func(c *synth.Config) { c.Keys, c.Lines, c.InFlight = synth.MaxCount, synth.MaxCount, synth.MaxCount }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			c := synth.Default()
			c.Events = 10
			bc.change(&c)
			b.ReportAllocs()
			for b.Loop() {
				for range synth.Events(c) {
					break
				}
			}
		})
	}
}
