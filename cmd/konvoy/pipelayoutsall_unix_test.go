//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLayoutsAllReadsATraceInAPipeOnce: a trace in a named pipe, as the
// shell's <(…) or /dev/stdin gives, can be read once, and konvoy -events
// reads it in the one pass its runs need (TestATraceInAPipeIsReadOnce).
// -layouts all must keep to that: it makes a pass of its own first, to
// find whether the trace records partitions (runs.recordedLayouts), which
// empties the pipe, so that the runs' pass finds nothing and the command
// says "FILE:1: want a header row …; the trace is empty" of a good trace
// (cat trace.csv | konvoy -events /dev/stdin -layouts all does the same).
// A pipe must be read as standard input is (-events - leaves recorded
// out of all, and says so), or refused with a usage error; never blamed
// for being empty.
func TestLayoutsAllReadsATraceInAPipeOnce(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "trace.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	data, err := os.ReadFile("testdata/arrivals.csv")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	writerDone := make(chan struct{})
	go func() { // the pipe: the trace once, then, as a drained pipe, nothing
		defer close(writerDone)
		for first := true; ; first = false {
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for a reader
			if err != nil {
				return
			}
			if first {
				w.Write(data)
			}
			w.Close()
			select {
			case <-done:
				return
			default:
			}
		}
	}()
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
	close(done)
	if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil { // lets a waiting writer go
		<-writerDone
		r.Close()
	}
	want, _, _ := runCommand("-events", "testdata/arrivals.csv", "-layouts", "all")
	want = strings.ReplaceAll(want, "testdata/arrivals.csv", fifo)
	if !(got.status == 0 && got.out == want) && got.status != 2 {
		t.Errorf("status %d, stderr %q; want the file's report (status 0), or a usage error (status 2)", got.status, got.errOut)
	}
}
