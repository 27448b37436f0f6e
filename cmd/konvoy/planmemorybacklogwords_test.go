package main

import (
	"strings"
	"testing"
)

// TestAPlanBacklogBoundedByMaxMemoryNamesMaxMemoryAlone: without
// -max-backlog, konvoy plan bounds each run's backlog by what -max-memory
// leaves room for, and a run that outgrows it is told so ("-max-memory 1
// byte leaves each of 10 runs room for 1 event held: raise it"). The same
// message must not also call that bound "its share of -max-backlog", a
// flag the user did not give and which is 0, no limit: the command's
// wording of the library's "(WithMaxBacklog)" holds only when -max-backlog
// set the bound.
func TestAPlanBacklogBoundedByMaxMemoryNamesMaxMemoryAlone(t *testing.T) {
	_, errOut, status := runCommand("plan", "-events", "testdata/arrivals.csv", "-max-memory", "1")
	if status != 1 || !strings.Contains(errOut, "-max-memory") {
		t.Fatalf("status %d, stderr %q; want 1, an error naming -max-memory", status, errOut)
	}
	if strings.Contains(errOut, "-max-backlog") {
		t.Errorf("stderr %q names -max-backlog, which was not given; the bound is -max-memory's", errOut)
	}
}
