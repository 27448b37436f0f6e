//go:build unix

package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// konvoy gen sets up the whole window of lifecycles in flight before the
// first event, at 80 to 100 bytes each, so -in-flight is at most
// synth.MaxInFlight (about 100 MB of window): 10^8 of them, some 10 GB,
// under the address-space limit the project tries hostile input with
// (ulimit -v 4000000), end in a clear error naming -in-flight, never in
// the Go runtime's "fatal error: out of memory".
func TestGenHugeInFlightIsNoFatalError(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process that may allocate up to 4 GB of address space")
	}
	cmd := exec.Command("/bin/sh", "-c", `ulimit -v 4000000 && exec "$0" gen -in-flight 100000000 -steps 1 -ordered 1 -events 100000000`, os.Args[0])
	cmd.Env = append(os.Environ(), "KONVOY_RUN_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Read the header and one event, if any come, then stop the command.
	sc := bufio.NewScanner(stdout)
	lines := 0
	for lines < 2 && sc.Scan() {
		lines++
	}
	stdout.Close()
	cmd.Process.Kill()
	cmd.Wait()
	msg := stderr.String()
	if strings.Contains(msg, "fatal error") || strings.Contains(msg, "panic:") {
		first, _, _ := strings.Cut(msg, "\ngoroutine")
		t.Fatalf("konvoy gen -in-flight 100000000 under ulimit -v 4000000 died in the Go runtime:\n%s", first)
	}
	if lines < 2 && !strings.Contains(msg, "-in-flight") {
		t.Fatalf("konvoy gen -in-flight 100000000 wrote %d lines and no error naming -in-flight; stderr:\n%s", lines, msg)
	}
}
