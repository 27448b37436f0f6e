package main

import (
	"strings"
	"testing"
)

// Without -max-backlog, konvoy plan bounds each run's backlog by what
// -max-memory leaves room for, and a run that outgrows it is told so,
// naming -max-memory alone: not -max-backlog, a flag not given, whose 0
// sets no limit.
func TestAPlanBacklogBoundedByMaxMemoryNamesMaxMemoryAlone(t *testing.T) {
	_, errOut, status := runCommand("plan", "-events", "testdata/arrivals.csv", "-max-memory", "1")
	if status != 1 || !strings.Contains(errOut, "-max-memory") {
		t.Fatalf("status %d, stderr %q; want 1, an error naming -max-memory", status, errOut)
	}
	if strings.Contains(errOut, "-max-backlog") {
		t.Errorf("stderr %q names -max-backlog, which was not given; the bound is -max-memory's", errOut)
	}
}
