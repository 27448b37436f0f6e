package main

import (
	"strings"
	"testing"
)

// lateTrace is a trace whose last event, D, arrives at round 1, after C at
// round 70 was read: later than a -reorder window of 10 rounds, so that
// -late drop drops it.
const lateTrace = "key,step,duration,at\nA,0,1,5\nB,0,1,2\nC,0,1,70\nD,0,1,1\n"

// TestReplaySaysWhatLateDropDropped: -late drop is "dropped and counted"
// (the flag's help): konvoy replay says how many events it dropped, as
// konvoy -events does ("1 event dropped …", "late_dropped": 1), in text
// and in JSON, beside the 3 events it replayed.
func TestReplaySaysWhatLateDropDropped(t *testing.T) {
	args := []string{"replay", "-events", "-", "-unit", "10us", "-reorder", "100us", "-late", "drop"}
	out, errOut, status := runWithInput(lateTrace, args...)
	if status != 0 {
		t.Fatalf("%q: status %d: %s", args, status, errOut)
	}
	if !strings.Contains(out, "1 event dropped, not replayed") {
		t.Errorf("%q: stdout %q, stderr %q; want the event dropped by -late drop counted", args, out, errOut)
	}
	out, errOut, status = runWithInput(lateTrace, append(args, "-format", "json")...)
	if status != 0 {
		t.Fatalf("%q -format json: status %d: %s", args, status, errOut)
	}
	if !strings.Contains(out, `"late_dropped": 1`) || !strings.Contains(out, `"trace_events": 3`) {
		t.Errorf("%q -format json: stdout %s; want the event dropped by -late drop counted (as konvoy -format json's \"late_dropped\")", args, out)
	}
}
