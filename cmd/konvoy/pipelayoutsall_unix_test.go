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

// A trace that streams (a named pipe, /dev/stdin) is read once, as
// standard input is: -layouts all then leaves recorded out with the note
// standard input gets, rather than read the pipe in a pass of its own and
// find it drained, empty, when the runs read it.
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
