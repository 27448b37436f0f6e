package main

import (
	"strings"
	"testing"
)

// TestReplayRecordedNeedsAPartitionColumn: under the layout recorded each
// event runs in the lane of the partition it was recorded in, so konvoy
// replay -layout recorded:N refuses a trace with no partition column, as
// konvoy -events and konvoy plan do, rather than run every event in
// partition 0, one lane.
func TestReplayRecordedNeedsAPartitionColumn(t *testing.T) {
	want := `want a column "partition" (in JSON Lines, a field), the partition each event was recorded in, for layout recorded`
	_, errOut, status := runCommand("-events", "testdata/arrivals.csv", "-layouts", "recorded:3")
	if status != 1 || !strings.Contains(errOut, want) {
		t.Fatalf("konvoy -events: status %d, stderr %q; want 1 and %q (the test's premise)", status, errOut, want)
	}
	args := []string{"replay", "-events", "testdata/arrivals.csv", "-layout", "recorded:3", "-unit", "10us"}
	out, errOut, status := runCommand(args...)
	if status != 1 || out != "" || !strings.Contains(errOut, want) {
		t.Errorf("%q: status %d, stdout %q, stderr %q; want 1, no report, and %q", args, status, out, errOut, want)
	}
}
