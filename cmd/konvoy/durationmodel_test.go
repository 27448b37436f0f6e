package main

import (
	"strings"
	"testing"
)

// TestADurationModelOfAMillionRoundsRuns: -duration-model fixed:N and
// uniform:LO,HI take whole rounds up to synth.MaxDuration (1073741824),
// a million among them: eventlog checks the distribution by parsing
// synth.Dist.String, which writes whole numbers whole (1000000, not
// 1e+06, which ParseDist refuses for fixed and uniform).
func TestADurationModelOfAMillionRoundsRuns(t *testing.T) {
	for _, model := range []string{"fixed:1000000", "uniform:1,2000000"} {
		out, stderr, status := runCommand("-events", "testdata/shipments.csv", "-steps", "accepted,transfer,out-for-delivery,delivered",
			"-history", "scanned,weighed", "-layouts", "free", "-duration-model", model)
		if status != 0 || !strings.Contains(out, "durations modelled") {
			t.Errorf("-duration-model %s: status %d; want 0 and the report:\n%s", model, status, stderr)
		}
	}
}
