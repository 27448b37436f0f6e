//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A trace in a named pipe, as the shell's <(…) gives, can be read once: the
// command reads it in the one pass its runs need, counting its lines first
// only for a file, and reports what it reports for the file.
func TestATraceInAPipeIsReadOnce(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "trace.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	data, err := os.ReadFile("testdata/arrivals.csv")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for the command to open it
		if err != nil {
			return
		}
		w.Write(data)
		w.Close()
	}()
	got, errOut, status := runCommand("-events", fifo, "-consumers", "1,4,8")
	want, _, _ := runCommand("-events", "testdata/arrivals.csv", "-consumers", "1,4,8")
	want = strings.ReplaceAll(want, "testdata/arrivals.csv", fifo)
	if status != 0 || errOut != "" || got != want {
		t.Errorf("status %d, stderr %q, the file's report: %v", status, errOut, got == want)
	}
}
