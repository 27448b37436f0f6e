//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestServeRefusesATraceThatStreams checks that konvoy serve, which reads
// its trace afresh for every request, refuses standard input and a named
// pipe at once, without opening them: a pipe's second reading would find
// it drained, or wait for a writer for ever (and opening it to check it
// could be read waited for one before the server started).
func TestServeRefusesATraceThatStreams(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "trace.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipe here: %v", err)
	}
	for _, tt := range []struct{ events, want string }{
		{"-", "konvoy serve: -events -: the server reads its trace again for every request; name a file"},
		{fifo, "konvoy serve: -events " + fifo + ": the server reads its trace again for every request; name a regular file, not a pipe or a device"},
		{"/dev/null", "konvoy serve: -events /dev/null: the server reads its trace again for every request; name a regular file"},
	} {
		out, errOut, status := runCommand("serve", "-addr", "127.0.0.1:0", "-events", tt.events)
		if status != 2 || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("-events %s: status %d, stdout %q, stderr %q; want 2, nothing, and %q", tt.events, status, out, errOut, tt.want)
		}
	}
}
