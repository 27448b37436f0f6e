package main

import (
	"strings"
	"testing"
)

// A round's seconds read as given: time.Duration.Seconds wrote a
// -round-time of 1.955081771s as 1.9550817710000001 in the plan's JSON
// and its assumptions (found by a review of replay's JSON, whose seconds
// had the same fault).
func TestPlanWritesARoundsSecondsAsGiven(t *testing.T) {
	out, errOut, status := runCommand("plan", "-round-time", "1.955081771s", "-format", "json")
	if status != 0 || !strings.Contains(out, `"round_seconds": 1.955081771,`) || !strings.Contains(out, "one round lasts 1.955081771s") || strings.Contains(out, "0000001") {
		t.Errorf("status %d, stderr %q; want round_seconds 1.955081771 and the assumption in those digits:\n%s", status, errOut, out)
	}
}
