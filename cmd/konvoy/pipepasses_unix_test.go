//go:build unix

package main

import (
	"strings"
	"testing"
	"time"
)

// Runs that need more than one pass over a trace that streams (a named
// pipe) read it once and replay its copy, as they do standard input's:
// they never open the drained pipe again, to find it empty or wait on it
// for ever.
func TestRunsThatNeedMorePassesReadATraceInAPipeOnce(t *testing.T) {
	data, errOut, status := runCommand("gen", "-events", "200000", "-keys", "20000")
	if status != 0 {
		t.Fatalf("konvoy gen: status %d, %s", status, errOut)
	}
	args := []string{"-layouts", "free,convoy", "-consumers", "1,2", "-max-memory", "6MiB", "-format", "csv"}
	wantOut, wantErr, wantStatus := runWithInput(data, append([]string{"-events", "-"}, args...)...)

	fifo := namedPipe(t)
	feedDrainedPipe(t, fifo, []byte(data)) // the trace once, then, drained, nothing
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
	wantErr = strings.ReplaceAll(wantErr, "<stdin>", fifo)
	if got.status != wantStatus || got.out != wantOut || got.errOut != wantErr {
		t.Errorf("from a pipe: status %d, stderr %q; want what standard input gets: status %d, stderr %q",
			got.status, got.errOut, wantStatus, wantErr)
	}
}
