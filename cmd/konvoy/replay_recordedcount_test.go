package main

import (
	"os"
	"strings"
	"testing"
)

// TestReplayRecordedAloneTakesItsCountFromTheTrace: -layout recorded,
// without a count, is the layout recorded of as many partitions as the
// trace's highest plus one, as konvoy -layouts recorded takes it, from a
// file and from standard input alike (read twice: the count first), and
// the report names the count. A trace without partitions is refused as
// under recorded:N, and a topic's replay, whose records come as they are
// consumed, needs the count. (Before, replay refused recorded alone.)
func TestReplayRecordedAloneTakesItsCountFromTheTrace(t *testing.T) {
	trace := "key,line,step,duration,partition\nA,l,1,1,0\nB,l,1,2,5\nC,l,1,1,2\n"
	path := t.TempDir() + "/p.csv"
	if err := os.WriteFile(path, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	_, main, status := runCommand("-events", path, "-layouts", "recorded")
	if status != 0 {
		t.Fatalf("konvoy -layouts recorded: status %d, stderr %q", status, main)
	}
	for _, tt := range []struct {
		name, stdin, events string
	}{{"file", "", path}, {"stdin", trace, "-"}} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, status := runWithInput(tt.stdin, "replay", "-events", tt.events, "-layout", "recorded", "-policy", "static", "-unit", "10us")
			if status != 0 || !strings.Contains(out, "3 events, layout recorded:6, policy static") {
				t.Errorf("status %d, stdout %q, stderr %q; want 0 and a replay of layout recorded:6, partition 5 being the highest", status, out, errOut)
			}
		})
	}
	want := `want a column "partition" (in JSON Lines, a field), the partition each event was recorded in, for layout recorded`
	out, errOut, status := runCommand("replay", "-events", "testdata/arrivals.csv", "-layout", "recorded", "-unit", "10us")
	if status != 1 || out != "" || !strings.Contains(errOut, "testdata/arrivals.csv:1: "+want) {
		t.Errorf("a trace without partitions: status %d, stdout %q, stderr %q; want 1, no report, and %q at the header's line", status, out, errOut, want)
	}
	_, errOut, status = runCommand("replay", "-brokers", "127.0.0.1:1", "-topic", "t", "-group", "g", "-layout", "recorded", "-duration-model", "fixed:1")
	if status != 2 || !strings.Contains(errOut, `-layout: layout "recorded" of a topic needs its partition count: want recorded:N`) {
		t.Errorf("a topic: status %d, stderr %q; want 2 and that a topic needs recorded:N", status, errOut)
	}
}
