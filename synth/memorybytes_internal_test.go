package synth

import (
	"runtime"
	"testing"
)

// Memory is about what a run holds: the heap a generator takes once it
// is set up, before its first event, measured, is within a factor of 1.5
// of it either way, for a config whose setup each of its terms dominates
// (keys under skew, lines under skew, lifecycles in flight).
func TestMemoryIsAboutWhatARunHolds(t *testing.T) {
	base := Default()
	base.Events, base.Keys, base.Lines, base.InFlight, base.KeySkew, base.LineSkew = 1<<22, 1000, 100, 100, 0, 0
	skewedKeys, skewedLines, inFlight := base, base, base
	skewedKeys.Keys, skewedKeys.KeySkew = 1<<20, 1
	skewedLines.Lines, skewedLines.LineSkew = 1<<20, 1
	inFlight.InFlight = 1 << 20
	for name, c := range map[string]Config{"keys": skewedKeys, "lines": skewedLines, "in flight": inFlight} {
		if err := c.Check(); err != nil {
			t.Fatal(name, err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		g := newGenerator(c)
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(g)
		held, want := int64(after.HeapAlloc)-int64(before.HeapAlloc), c.Memory()
		if 3*held < 2*want || 2*held > 3*want {
			t.Errorf("%s: a generator holds %d bytes; Memory says %d, more than 1.5 times away", name, held, want)
		}
	}
}
