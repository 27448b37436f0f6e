package main

import (
	"strings"
	"testing"
)

// TestPlanSLOTargetBelowANanosecondIsRefused: a duration flag's part below
// a nanosecond is an error, never dropped without a word (internal/duration,
// which -unit, -round-time and -reorder read through: "1.5ns" is an error,
// not 1ns). -slo's target is read by time.ParseDuration instead, which
// drops it: konvoy plan -slo p99=1.5ns plans for "p99 of the response
// (arrival to finish) within 1ns", an objective other than the one asked.
func TestPlanSLOTargetBelowANanosecondIsRefused(t *testing.T) {
	out, errOut, status := runCommand("plan", "-slo", "p99=1.5ns", "-arrivals", "poisson")
	if status != 2 || out != "" || !strings.Contains(errOut, "-slo") {
		t.Errorf("status %d, stderr %q, stdout starting %q; want 2 and a usage error naming -slo", status, errOut, firstLines(out, 1))
	}
}
