package main

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// Under ulimit -v 4000000, the limit the project tries hostile input
// with, which leaves a Go process about 2.2 GiB of address space, a
// -max-memory of 3GiB is refused before anything runs: its runs could
// end the process in the Go runtime's fatal out-of-memory error (as
// 2,000,000 keys under every layout did). The default, 1GiB, runs.
func TestAMaxMemoryPastTheAddressSpaceLeftIsRefused(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("-max-memory takes at most 1GiB where int has 32 bits: the address space is not what refuses 3GiB")
	}
	run := func(maxMemory ...string) (string, string, int) {
		args := append([]string{"-events", "testdata/shipments.csv", "-steps", "accepted,transfer,out-for-delivery,delivered",
			"-history", "scanned,weighed", "-layouts", "free"}, maxMemory...)
		cmd := exec.Command("/bin/sh", append([]string{"-c", `ulimit -v 4000000 && exec "$0" "$@"`, os.Args[0]}, args...)...)
		cmd.Env = append(os.Environ(), "KONVOY_RUN_MAIN=1")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		status := 0
		if e, ok := err.(*exec.ExitError); ok {
			status = e.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), status
	}
	out, stderr, status := run("-max-memory", "3GiB")
	if status != 2 || out != "" || !strings.HasPrefix(stderr, "konvoy: -max-memory 3GiB: ulimit -v leaves this process ") {
		t.Errorf("-max-memory 3GiB: status %d, output %q, stderr %q; want 2, nothing, and the address space left", status, out, stderr)
	}
	for _, given := range [][]string{nil, {"-max-memory", "1GiB"}} {
		if out, stderr, status := run(given...); status != 0 || !strings.Contains(out, "The trace") {
			t.Errorf("%v: status %d, stderr %q; want the report", given, status, stderr)
		}
	}
}
