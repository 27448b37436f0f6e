package main

import (
	"strings"
	"testing"
)

// TestPlanNotesTheSearchedPartitionsOnly wants the plan's note "the fewest
// partitions that keep collisions within 5%" on the layout whose count the
// partition search gave (the bare partitioned: 5 for the lesson), not on
// one whose count the user named (partitioned:7) or the trace recorded
// (recorded:6), which the partitions section below contradicts (found by
// a review).
func TestPlanNotesTheSearchedPartitionsOnly(t *testing.T) {
	for _, tt := range []struct {
		args     []string
		searched string // the layout the note is on, "" for none
		named    string // a layout it is not on
	}{
		{[]string{"plan", "-layouts", "partitioned:7,convoy"}, "", "partitioned:7:"},
		{[]string{"plan", "-layouts", "partitioned,partitioned:7"}, "partitioned:5:", "partitioned:7:"},
		{[]string{"plan", "-events", "../../testdata/export.jsonl", "-key", "key", "-status", "payload.status", "-steps", "new,paid,shipped,delivered",
			"-at", "ts", "-at-format", "unix-ms", "-unit", "1ms", "-reorder", "1s", "-duration-model", "lognormal:5,0.5", "-layouts", "recorded,convoy"}, "", "recorded:6:"},
	} {
		out, errOut, status := runCommand(tt.args...)
		if status != 0 {
			t.Fatalf("%v: status %d: %s", tt.args, status, errOut)
		}
		var on []string
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, ": the fewest partitions that keep collisions") {
				on = append(on, line)
			}
		}
		if strings.Contains(strings.Join(on, "\n"), tt.named) || tt.searched == "" && len(on) > 0 ||
			tt.searched != "" && (len(on) != 1 || !strings.HasPrefix(on[0], tt.searched)) {
			t.Errorf("%v: the note on %q; want it on %q alone", tt.args, on, tt.searched)
		}
	}
}
