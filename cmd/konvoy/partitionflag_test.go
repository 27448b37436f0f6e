package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// -partition names the column the layout recorded reads: beside layouts
// that read no partitions it would mean nothing, and is a usage error
// naming it, for konvoy and konvoy plan alike; with recorded, or all, the
// column is read, and must be there.
func TestPartitionNeedsTheLayoutRecorded(t *testing.T) {
	applied := filepath.Join(t.TempDir(), "applied.jsonl") // never written: the command line is refused
	for _, args := range [][]string{
		{"-events", "testdata/arrivals.csv", "-layouts", "free,convoy", "-partition", "partition"},
		{"plan", "-events", "testdata/arrivals.csv", "-layouts", "convoy", "-partition", "partition"},
		// replay's -layout, and no -applied to write the partitions: it
		// was read for nothing (found by a review).
		{"replay", "-events", "testdata/arrivals.csv", "-layout", "convoy", "-partition", "partition"},
		{"replay", "-brokers", "127.0.0.1:1", "-topic", "t", "-group", "g", "-duration-model", "fixed:1", "-layout", "convoy", "-partition", "partition", "-applied", applied},
	} {
		status, _, errOut := runUsage(t, args...)
		if status != 2 || !strings.Contains(errOut, "-partition names the column the layout recorded reads") {
			t.Errorf("%q: status %d, stderr %q; want a usage error naming -partition", args, status, errOut)
		}
	}
	// With all, the column is read: arrivals.csv has none by that name.
	if _, errOut, status := runCommand("-events", "testdata/arrivals.csv", "-layouts", "all", "-partition", "part"); status != 1 || !strings.Contains(errOut, `want a column "part", as -partition names it`) {
		t.Errorf("-layouts all -partition part: status %d, stderr %q; want the missing column named", status, errOut)
	}
}
