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

// The other end: -peak × -round-time past a float64 (1e300 events/s with
// rounds of 2562047h) is a usage error naming -peak, where it was a plan
// whose budget read 0 rounds, and with -slo a run-time error about +Inf
// events a round (found by a review).
func TestAPeakTooLargeForTheBudgetIsAUsageError(t *testing.T) {
	for _, args := range [][]string{
		{"-peak", "1e300", "-round-time", "2562047h", "-format", "json"},
		{"-peak", "1e300", "-round-time", "2562047h", "-slo", "p99=1s", "-arrivals", "poisson"},
	} {
		out, errOut, status := runCommand(append([]string{"plan"}, args...)...)
		if status != 2 || out != "" || !strings.Contains(errOut, "-peak is 1e+300 events/s") || !strings.Contains(errOut, "+Inf events a round of 2562047h0m0s: want a number of events a round, at most 1.7976931348623157e+308") {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want a usage error naming -peak (status 2)", args, status, firstLines(out, 3), errOut)
		}
	}
}
