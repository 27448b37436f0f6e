package main

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy/eventlog"
)

// A -reorder window without a bound of its own takes half of the share it
// is given, split among the readings that hold one at once, and no more
// than the reader's default, so that more memory never makes the window
// larger than without a bound; it leaves the other half. A bound of its
// own, or no window, takes none of it.
func TestReorderShareHalvesTheShare(t *testing.T) {
	const most = eventlog.DefaultMaxReorderBytes
	for _, c := range []struct {
		reorder             time.Duration
		bound, share, plays int
		window, left        int
	}{
		{time.Second, 0, 1000, 1, 500, 500},
		{time.Second, 0, 1000, 2, 250, 500},
		{time.Second, 0, 1001, 4, 125, 501},
		{time.Second, 0, 1, 8, 1, 1},
		{time.Second, 0, 4 * most, 1, most, 2 * most},
		{time.Second, 0, 4*most + 2, 2, most, 2*most + 1},
		{time.Second, 77, 1000, 2, 77, 1000},
		{0, 0, 1000, 2, 0, 1000},
	} {
		r := eventlog.Reader{Reorder: c.reorder, MaxReorderBytes: c.bound}
		left, given := reorderShare(&r, c.share, c.plays)
		if left != c.left || r.MaxReorderBytes != c.window || given != (c.reorder > 0 && c.bound == 0) {
			t.Errorf("%+v: window %d, left %d, given %t; want %d and %d", c, r.MaxReorderBytes, left, given, c.window, c.left)
		}
	}
}

// konvoy plan bounds a -reorder window by -max-memory, as konvoy does: it
// held up to 256 MiB, the reader's default, whatever -max-memory said, and
// ended in Go's fatal out-of-memory error under ulimit -v 2000000 on
// 3,000,000 events at round 0. Here 20,000 events at round 0, held by the
// window until the trace ends, take more than the window's share of
// -max-memory 4MiB.
func TestPlanBoundsTheReorderWindowByMaxMemory(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // two passes at once: each window 3/4 × 4MiB / 2 / 2
	var b strings.Builder
	b.WriteString("key,step,duration,at\n")
	for i := range 20_000 {
		fmt.Fprintf(&b, "K%d,1,1ms,0\n", i)
	}
	args := []string{"plan", "-events", "-", "-unit", "1ms", "-reorder", "1s", "-layouts", "convoy"}
	_, errOut, status := runWithInput(b.String(), append(args, "-max-memory", "4MiB")...)
	if want := fmt.Sprintf("to take at most %d bytes;", 4<<20/4*3/2/2); status != 1 || !strings.Contains(errOut, "-reorder window") || !strings.Contains(errOut, want) ||
		!strings.Contains(errOut, "narrow -reorder, or raise -max-memory: the window may take half of") {
		t.Errorf("-max-memory 4MiB: status %d, stderr %q; want the window's error, %q", status, errOut, want)
	}
	if _, errOut, status := runWithInput(b.String(), append(args, "-max-memory", "64MiB")...); status != 0 {
		t.Errorf("-max-memory 64MiB: status %d, stderr %q; want a plan", status, errOut)
	}
}
