//go:build unix

package main

import (
	"os"
	"strings"
	"testing"
)

// A trace in a named pipe, as the shell's <(…) gives, can be read once: the
// command reads it in the one pass its runs need, counting its lines first
// only for a file, and reports what it reports for the file.
func TestATraceInAPipeIsReadOnce(t *testing.T) {
	fifo := namedPipe(t)
	data, err := os.ReadFile("testdata/arrivals.csv")
	if err != nil {
		t.Fatal(err)
	}
	writePipeOnce(fifo, data)
	got, errOut, status := runCommand("-events", fifo, "-consumers", "1,4,8")
	want, _, _ := runCommand("-events", "testdata/arrivals.csv", "-consumers", "1,4,8")
	want = strings.ReplaceAll(want, "testdata/arrivals.csv", fifo)
	if status != 0 || errOut != "" || got != want {
		t.Errorf("status %d, stderr %q, the file's report: %v", status, errOut, got == want)
	}
}
