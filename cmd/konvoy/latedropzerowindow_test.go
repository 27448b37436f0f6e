package main

import (
	"strings"
	"testing"
)

// zeroWindowTrace arrives out of order: b before a.
const zeroWindowTrace = "key,step,duration,at\na,1,1ms,5ms\nb,1,1ms,3ms\nc,1,1ms,6ms\n"

// TestLateDropWithAZeroWindowIsAUsageError: -late is "what an event later
// than the -reorder window is", and "-late needs -reorder" is a usage error
// (status 2, naming the flags; main.go: "2 on a usage error"). -reorder 0
// is given, so the flags' rule passes, yet a window of 0 is no window
// ("-reorder is ...; want a window of 0 (arrivals in order) or more"), and
// the trace then fails with eventlog's "eventlog: DropLate needs a Reorder
// window": status 1, as bad input, in the library's field names, which no
// user of the command sets, after the trace was opened (konvoy serve
// starts, and every view fails with it).
func TestLateDropWithAZeroWindowIsAUsageError(t *testing.T) {
	for _, args := range [][]string{
		{"-events", "-", "-unit", "1ms", "-reorder", "0", "-late", "drop", "-layouts", "free"},
		{"plan", "-events", "-", "-unit", "1ms", "-reorder", "0", "-late", "drop", "-layouts", "free"},
		{"replay", "-events", "-", "-unit", "1ms", "-reorder", "0", "-late", "drop"},
	} {
		_, errOut, status := runWithInput(zeroWindowTrace, args...)
		if status != 2 || strings.Contains(errOut, "DropLate") || !strings.Contains(errOut, "-late") {
			t.Errorf("%q: status %d, stderr %q; want 2, a usage error naming -late and -reorder", args, status, errOut)
		}
	}
}
