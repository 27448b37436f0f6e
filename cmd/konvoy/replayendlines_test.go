package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An error the replay's prediction meets only at the run's end names the
// line of the event it names, as konvoy -events and plan do, after the
// trace's name and without the simulator's "konvoy: ": here B's gap
// skipped, added to A's, passes the largest int, found once every event is
// read. It named the trace alone, with "konvoy: " inside (found by a
// review). The line comes from the replay's own copy of the trace, which
// keeps each event's line, however long before the end it was read.
func TestReplayNamesTheLineOfAnErrorAtTheRunsEnd(t *testing.T) {
	gaps := fmt.Sprintf("B,L,1,1\nB,L,%d,1\n", math.MaxInt)
	head := fmt.Sprintf("key,line,step,duration\nA,L,1,1\nA,L,%d,1\n", math.MaxInt) + gaps
	trace := head
	args := []string{"-layout", "resequencer", "-reseq-timeout", "1", "-unit", "1us"}
	_, errOut, status := runWithInput(trace, append([]string{"replay", "-events", "-"}, args...)...)
	if want := "<stdin>:5: event 3 (key \"B\"): "; status != 1 || !strings.HasPrefix(errOut, want) || strings.Contains(errOut, "konvoy: event") {
		t.Errorf("stdin: status %d, stderr %q; want status 1 and a message that starts %q", status, errOut, want)
	}
	// The two events of B first, then 20,000 more than the lines kept.
	var b strings.Builder
	b.WriteString(head)
	for i := range 20_000 {
		fmt.Fprintf(&b, "k%d,L,1,1\n", i)
	}
	file := filepath.Join(t.TempDir(), "gaps.csv")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, status = runCommand(append([]string{"replay", "-events", file}, args...)...)
	if want := file + ":5: event 3 (key \"B\"): "; status != 1 || !strings.HasPrefix(errOut, want) {
		t.Errorf("a file of 20,004 events: status %d, stderr %q; want status 1 and a message that starts %q", status, firstLines(errOut, 2), want)
	}
}

// An empty -events wants what the command takes: konvoy replay a file or
// standard input, with no lesson to point to, as without -events it is a
// usage error; konvoy serve a file or the lesson, as it refuses standard
// input, which it could not read again for every request (found by two
// reviews).
func TestAnEmptyEventsWantsWhatTheCommandTakes(t *testing.T) {
	for _, c := range []struct{ command, want string }{
		{"replay", "konvoy replay: -events is empty; want a trace FILE, or - for standard input\n"},
		{"serve", "konvoy serve: -events is empty; want a trace FILE (leave -events out for the lesson)\n"},
		{"plan", "konvoy plan: -events is empty; want a trace FILE, or - for standard input (leave -events out for the lesson)\n"},
	} {
		if _, errOut, status := runCommand(c.command, "-events", ""); status != 2 || errOut != c.want {
			t.Errorf("%s: status %d, stderr %q; want 2 and %q", c.command, status, errOut, c.want)
		}
	}
}
