package main

import (
	"strings"
	"testing"
)

// -slo's target, as every duration flag, is refused when it has a part
// below a nanosecond: p99=1.5ns is an error naming -slo, not an objective
// of 1ns.
func TestPlanSLOTargetBelowANanosecondIsRefused(t *testing.T) {
	out, errOut, status := runCommand("plan", "-slo", "p99=1.5ns", "-arrivals", "poisson")
	if status != 2 || out != "" || !strings.Contains(errOut, "-slo") {
		t.Errorf("status %d, stderr %q, stdout starting %q; want 2 and a usage error naming -slo", status, errOut, firstLines(out, 1))
	}
}
