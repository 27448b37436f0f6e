//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// namedPipe makes a named pipe, trace.csv in t's temporary directory, and
// returns its path; t is skipped where the system makes none.
func namedPipe(t *testing.T) string {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "trace.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	return fifo
}

// writePipeOnce writes data to the pipe fifo for its first reader, in a
// goroutine, as a producer piping a trace once does: a reader that opens
// the pipe again then waits for a writer for ever.
func writePipeOnce(fifo string, data []byte) {
	go func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil { // waits for a reader
			w.Write(data)
			w.Close()
		}
	}()
}

// feedDrainedPipe writes data to the pipe fifo for its first reader, and
// nothing to every later one, as a drained pipe gives, until the test
// ends: its cleanup lets a writer waiting for a reader go, and waits for
// it.
func feedDrainedPipe(t *testing.T, fifo string, data []byte) {
	done, writerDone := make(chan struct{}), make(chan struct{})
	go func() {
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
	t.Cleanup(func() {
		close(done)
		if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil { // lets a waiting writer go
			<-writerDone
			r.Close()
		}
	})
}
