package main

import (
	"strings"
	"testing"
)

// -steps and -history map a status column to steps, used when there is no
// step column: given for a trace whose every event has a step, as
// testdata/arrivals.csv's have, they are noted as unused, as every other
// reading note is (in the text report, on standard error beside JSON),
// never ignored without a word.
func TestStatusListsBesideAStepColumnAreNotIgnored(t *testing.T) {
	for _, args := range [][]string{
		{"-events", "testdata/arrivals.csv", "-steps", "created,paid", "-history", "viewed"},
		{"-events", "testdata/arrivals.csv", "-steps", "created,paid", "-format", "json"},
		{"plan", "-events", "testdata/arrivals.csv", "-history", "viewed"},
		// -status names the column the lists map; beside a step column
		// it went unused without a word (found by a review).
		{"-events", "testdata/arrivals.csv", "-status", "key"},
		{"plan", "-events", "testdata/arrivals.csv", "-status", "key", "-format", "json"},
	} {
		out, errOut, status := runCommand(args...)
		if status != 0 || !strings.Contains(out+errOut, "-status, -steps and -history unused: every event's step came from the trace's step column") {
			t.Errorf("%q: status %d, stderr %q: want the status lists noted as unused", args, status, errOut)
		}
	}
}
