package main

import (
	"strings"
	"testing"
)

// TestStatusListsBesideAStepColumnAreNotIgnored: -steps and -history map a
// status column to steps, "used when there is no step column" (-status's
// usage; eventlog's doc: when a step column exists, a status column is not
// read). Given for a trace that has a step column, as
// testdata/arrivals.csv has, they mean nothing, and the report comes out
// byte for byte as without them: a user who meant his statuses to order
// the events is never told that they did not. A flag given where it means
// nothing is refused (status 2) or noted on standard error, never
// silently ignored; -status naming a column the trace lacks is already
// refused there.
func TestStatusListsBesideAStepColumnAreNotIgnored(t *testing.T) {
	for _, args := range [][]string{
		{"-events", "testdata/arrivals.csv", "-steps", "created,paid", "-history", "viewed"},
		{"-events", "testdata/arrivals.csv", "-steps", "created,paid", "-format", "json"},
		{"plan", "-events", "testdata/arrivals.csv", "-history", "viewed"},
	} {
		_, errOut, status := runCommand(args...)
		if status == 0 && !strings.Contains(errOut, "-steps") && !strings.Contains(errOut, "-history") {
			t.Errorf("%q: status 0, stderr %q: the status lists were ignored without a word, the trace having a step column; want a usage error or a note naming them", args, errOut)
		}
	}
}
