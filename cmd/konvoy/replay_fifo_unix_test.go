//go:build unix

package main

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"
)

// konvoy replay of a trace in a named pipe, whose error at the run's end
// names an event read long before, ends with that error after the pipe's
// name and the event's line, which the replay's own copy of the trace
// keeps: a first version read the trace again to find the line, and
// opened the pipe again and waited for a writer for ever (found by a
// review).
func TestReplayOfANamedPipeEndsAtAnErrorAtTheRunsEnd(t *testing.T) {
	var b strings.Builder
	fmt.Fprintf(&b, "key,line,step,duration\nA,L,1,1\nA,L,%d,1\nB,L,1,1\nB,L,%d,1\n", math.MaxInt, math.MaxInt)
	for i := range 20_000 {
		fmt.Fprintf(&b, "k%d,L,1,1\n", i)
	}
	fifo := namedPipe(t)
	writePipeOnce(fifo, []byte(b.String()))
	type answer struct {
		stderr string
		status int
	}
	done := make(chan answer, 1)
	go func() {
		_, errOut, status := runCommand("replay", "-events", fifo, "-layout", "resequencer", "-reseq-timeout", "1", "-unit", "1us")
		done <- answer{errOut, status}
	}()
	select {
	case got := <-done:
		if want := fifo + ":5: event 3 (key \"B\"): "; got.status != 1 || !strings.HasPrefix(got.stderr, want) {
			t.Errorf("status %d, stderr %q; want 1 and a message that starts %q", got.status, firstLines(got.stderr, 1), want)
		}
	case <-time.After(30 * time.Second):
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil { // let a reader that waits for a writer go
			f.Close()
		}
		<-done
		t.Fatal("no answer after 30s; want the error at the run's end")
	}
}
