//go:build unix

package main

import (
	"os"
	"strings"
	"testing"
	"time"
)

// -layout recorded alone reads a named pipe's trace once, keeping a copy
// for its second pass, as it keeps one of standard input: opening the pipe
// again waited for a writer for ever (found by a review). The pipe's one
// writer writes the trace once; the replay must take recorded:6 from it.
func TestReplayRecordedAloneReadsANamedPipeOnce(t *testing.T) {
	fifo := namedPipe(t)
	writePipeOnce(fifo, []byte("key,line,step,duration,partition\nA,l,1,1,0\nB,l,1,2,5\nC,l,1,1,2\n"))
	type answer struct {
		out, stderr string
		status      int
	}
	done := make(chan answer, 1)
	go func() {
		out, errOut, status := runCommand("replay", "-events", fifo, "-layout", "recorded", "-unit", "10us")
		done <- answer{out, errOut, status}
	}()
	select {
	case got := <-done:
		if got.status != 0 || !strings.Contains(got.out, "3 events, layout recorded:6") {
			t.Errorf("status %d, stdout %q, stderr %q; want 0 and a replay of recorded:6", got.status, got.out, got.stderr)
		}
	case <-time.After(30 * time.Second): // a bound on a hang, not a timing: the replay takes milliseconds
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil { // let a second open go on
			f.Close()
		}
		got := <-done
		t.Fatalf("no answer after 30 s (then: status %d, stderr %q); want the replay", got.status, got.stderr)
	}
}
