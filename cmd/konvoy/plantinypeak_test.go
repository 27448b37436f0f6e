package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// Keeping up means running the trace's events in at most events / (peak ×
// round) rounds: a -peak so small that this budget passes a float64
// (1e-310 events/s with 10ms rounds) is a usage error naming -peak, never
// a plan that prints +Inf rounds or a JSON encoder's error.
func TestAPeakTooSmallForTheBudgetIsAUsageError(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		out, errOut, status := runCommand("plan", "-peak", "1e-310", "-format", format)
		switch {
		case status == 2 && strings.Contains(errOut, "-peak"):
			continue
		case status != 0:
			t.Errorf("-format %s: status %d, stderr %q; want a usage error naming -peak (status 2), or a whole plan", format, status, errOut)
		case strings.Contains(out, "Inf"):
			t.Errorf("-format %s: the plan prints an infinite budget:\n%s", format, firstLines(out, 3))
		case format == "json" && !json.Valid([]byte(out)):
			t.Errorf("-format json: not valid JSON:\n%s", firstLines(out, 3))
		}
	}
}
