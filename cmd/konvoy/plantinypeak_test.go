package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAPeakTooSmallForTheBudgetIsAUsageError: konvoy plan takes -peak as
// any positive rate, and keeping up means running the trace's events in at
// most events / (peak × round) rounds. A peak so small that this budget
// overflows a float64 (-peak 1e-310 with 10ms rounds) leaves the plan
// with an infinite budget: the text plan says "in at most +Inf rounds" and
// -format json fails with encoding/json's "unsupported value: +Inf",
// which names neither the flag nor what it wants. Such a peak must be a
// usage error naming -peak (status 2), or a plan whose figures are all
// finite; never a Go encoding error, and never +Inf printed as a budget.
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
