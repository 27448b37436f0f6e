//go:build unix

package main

import (
	"os"
	"strings"
	"testing"
	"time"
)

// A trace that streams (a named pipe, /dev/stdin) is read once, as
// standard input is: -layouts all then leaves recorded out with the note
// standard input gets, rather than read the pipe in a pass of its own and
// find it drained, empty, when the runs read it.
func TestLayoutsAllReadsATraceInAPipeOnce(t *testing.T) {
	fifo := namedPipe(t)
	data, err := os.ReadFile("testdata/arrivals.csv")
	if err != nil {
		t.Fatal(err)
	}
	feedDrainedPipe(t, fifo, data) // the trace once, then, as a drained pipe, nothing
	type result struct {
		out, errOut string
		status      int
	}
	ran := make(chan result, 1)
	go func() {
		out, errOut, status := runCommand("-events", fifo, "-layouts", "all")
		ran <- result{out, errOut, status}
	}()
	var got result
	select {
	case got = <-ran:
	case <-time.After(30 * time.Second):
		t.Fatal("konvoy -events PIPE -layouts all did not end within 30s")
	}
	want, _, _ := runCommand("-events", "testdata/arrivals.csv", "-layouts", "all")
	want = strings.ReplaceAll(want, "testdata/arrivals.csv", fifo)
	if !(got.status == 0 && got.out == want) && got.status != 2 {
		t.Errorf("status %d, stderr %q; want the file's report (status 0), or a usage error (status 2)", got.status, got.errOut)
	}
}
