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

// konvoy gen under ulimit -v 2000000, of 16,777,216 keys under
// -key-skew, which hold about 668 MiB, either refuses the
// trace, where that is more than the address space left lets it take
// (TestGenRefusesASetupPastTheMemoryLeft), or writes it: it never ends in
// the Go runtime's fatal out-of-memory error, as it did (a review found
// it).
func TestGenUnderUlimitNeverEndsInAFatalError(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("16,777,216 keys' setup is what a 64-bit process holds")
	}
	args := []string{"gen", "-events", "100000000", "-keys", "16777216", "-key-skew", "1"}
	cmd := exec.Command("/bin/sh", append([]string{"-c", `ulimit -v 2000000 && exec "$0" "$@" | head -c 100 > /dev/null`, os.Args[0]}, args...)...)
	cmd.Env = append(os.Environ(), "KONVOY_RUN_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
	}
	if got := stderr.String(); got != "" && !strings.HasPrefix(got, "konvoy gen: the trace holds about 668 MiB as it is written") {
		t.Errorf("gen of 16777216 skewed keys under ulimit -v 2000000: stderr %q; want the trace, or the setup's size refused", got)
	}
}
