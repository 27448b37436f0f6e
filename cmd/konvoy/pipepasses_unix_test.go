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

// TestRunsThatNeedMorePassesReadATraceInAPipeOnce: a trace in a named
// pipe (the shell's <(…), /dev/stdin) can be read once. When the runs do
// not fit in -max-memory at once, the sweep gives the runs that do not fit
// a later pass over the trace; standard input (-events -) is copied as it
// is read for that, but a pipe named by its path is opened again, and
// found drained: the command says "FILE:1: want a header row …; the
// trace is empty" of a good trace, or, on a named pipe whose writer has
// gone, waits to open it for ever. The same trace given on standard
// input ends in the report or error it gets from a file; so must the
// same trace in a pipe.
func TestRunsThatNeedMorePassesReadATraceInAPipeOnce(t *testing.T) {
	data, errOut, status := runCommand("gen", "-events", "200000", "-keys", "20000")
	if status != 0 {
		t.Fatalf("konvoy gen: status %d, %s", status, errOut)
	}
	args := []string{"-layouts", "free,convoy", "-consumers", "1,2", "-max-memory", "6MiB", "-format", "csv"}
	wantOut, wantErr, wantStatus := runWithInput(data, append([]string{"-events", "-"}, args...)...)

	fifo := filepath.Join(t.TempDir(), "trace.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done, writerDone := make(chan struct{}), make(chan struct{})
	go func() { // the pipe: the trace once, then, drained, nothing
		defer close(writerDone)
		for first := true; ; first = false {
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for a reader
			if err != nil {
				return
			}
			if first {
				w.Write([]byte(data))
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
		out, errOut, status := runCommand(append([]string{"-events", fifo}, args...)...)
		ran <- result{out, errOut, status}
	}()
	var got result
	select {
	case got = <-ran:
	case <-time.After(60 * time.Second):
		t.Fatal("konvoy -events PIPE did not end within 60s")
	}
	close(done)
	if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil { // lets a waiting writer go
		<-writerDone
		r.Close()
	}
	wantErr = strings.ReplaceAll(wantErr, "<stdin>", fifo)
	if got.status != wantStatus || got.out != wantOut || got.errOut != wantErr {
		t.Errorf("from a pipe: status %d, stderr %q; want what standard input gets: status %d, stderr %q",
			got.status, got.errOut, wantStatus, wantErr)
	}
}
