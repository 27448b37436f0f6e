package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestServeRefusesADirectoryAsItsTrace: konvoy serve -events FILE reads the
// file afresh for each request, so one it cannot read now is an error
// before it serves, naming the file, "not a 422 on every view"
// (TestServeRefusesATraceItCannotOpen, serve.go). The check only opens the
// file, and a directory opens: the server then starts, and every view
// answers 422 "DIR:1: reading: read DIR: is a directory". konvoy -events
// DIR fails at once with status 1; konvoy serve -events DIR should too.
func TestServeRefusesADirectoryAsItsTrace(t *testing.T) {
	dir := t.TempDir()
	p := startMain(t, true, "serve", "-addr", "127.0.0.1:0", "-events", dir)
	cmd, stderr, out := p.cmd, p.kept, p.stream
	first := make(chan string, 1)
	go func() {
		line, _ := out.ReadString('\n')
		first <- line
	}()
	select {
	case line := <-first:
		if line != "" {
			t.Fatalf("konvoy serve -events %s (a directory): it serves (%q); want status 1 before serving, naming the directory", dir, line)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("konvoy serve -events %s (a directory): no answer in 10 s", dir)
	}
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), dir) {
		t.Errorf("konvoy serve -events %s (a directory): %v, stderr %q; want status 1 and the directory named", dir, err, stderr.String())
	}
}
