package synth_test

import (
	"runtime"
	"testing"

	"github.com/sirali-konvoy/konvoy/synth"
)

// allocated returns the bytes allocated while setting up c's stream and
// ranging over all of it.
func allocated(t *testing.T, c synth.Config) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	for range synth.Events(c) {
		n++
	}
	runtime.ReadMemStats(&after)
	if n != c.Events {
		t.Fatalf("%d events; want %d", n, c.Events)
	}
	return after.TotalAlloc - before.TotalAlloc
}

// The generator's memory grows with the keys and lines a stream uses and the
// lifecycles in flight, not with the counts declared: a short stream costs
// little however many keys, lines and lifecycles in flight it declares, on
// both sides of the counts up to which names are kept. It took tens of
// gigabytes, or failed, before names were made as they were needed.
func TestMemoryDoesNotGrowWithDeclaredCounts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*synth.Config)
		table  uint64 // bytes of tables documented to grow with a count
	}{
		{"default", func(c *synth.Config) {}, 0},
		{"most keys", func(c *synth.Config) { c.Keys = synth.MaxCount }, 0},
		{"most lines", func(c *synth.Config) { c.Lines = synth.MaxCount }, 0},
		{"most in flight", func(c *synth.Config) { c.InFlight = synth.MaxInFlight }, 0},
		{"most of all", func(c *synth.Config) { c.Keys, c.Lines, c.InFlight = synth.MaxCount, synth.MaxCount, synth.MaxInFlight }, 0},
		{"kept key names", func(c *synth.Config) { c.Keys = 1 << 21 }, 0},
		{"key names not kept", func(c *synth.Config) { c.Keys = 1<<21 + 1 }, 0},
		{"kept line names", func(c *synth.Config) { c.Lines = 1 << 16 }, 0},
		{"line names not kept", func(c *synth.Config) { c.Lines = 1<<16 + 1 }, 0},
		{"skewed keys", func(c *synth.Config) { c.Keys, c.KeySkew = 1<<21, 1.1 }, 0},
		{"skewed keys, most lines", func(c *synth.Config) { c.Keys, c.KeySkew, c.Lines = 1<<21, 0.5, synth.MaxCount }, 0},
		{"most skewed lines", func(c *synth.Config) { c.Lines, c.LineSkew = synth.MaxSkewedLines, 1 }, 8 * synth.MaxSkewedLines},
		{"most steps", func(c *synth.Config) { c.StepsPerKey, c.OrderedSteps = synth.MaxSteps, 5 }, 4 * synth.MaxSteps},
	} {
		for _, events := range []int{10, 10_000} {
			c := synth.Default()
			c.Events = events
			tc.change(&c)
			// About 0.25 MiB at most is measured, most of it 1,429
			// lifecycles in flight with InFlight MaxInFlight and a block of
			// names; 1 MiB leaves room for other platforms and versions.
			if got, most := allocated(t, c), tc.table+1<<20; got > most {
				t.Errorf("%s, %d events: allocated %d bytes; want at most %d", tc.name, events, got, most)
			}
		}
	}
}
