package main

import (
	"strings"
	"testing"
)

// TestReplayNotesStatusListsBesideAStepColumn: konvoy replay takes "trace
// flags as for konvoy -events" (its -h), and konvoy -events and konvoy
// plan note -steps and -history beside a step column as unused, "never
// ignored without a word" (TestStatusListsBesideAStepColumnAreNotIgnored).
// konvoy replay reads every step from the step column and says nothing of
// the lists it was given: its reading notes are the modelled durations and
// the rounded values only.
func TestReplayNotesStatusListsBesideAStepColumn(t *testing.T) {
	args := []string{"replay", "-events", "testdata/arrivals.csv", "-unit", "10us", "-steps", "created,paid", "-history", "viewed"}
	out, errOut, status := runCommand(args...)
	if status != 0 {
		t.Fatalf("%q: status %d: %s", args, status, errOut)
	}
	if !strings.Contains(out+errOut, "-status, -steps and -history unused: every event's step came from the trace's step column") {
		t.Errorf("%q: stderr %q: want the status lists noted as unused, as konvoy -events and konvoy plan note them", args, errOut)
	}
}
