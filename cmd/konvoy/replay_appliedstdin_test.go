package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -events - reading a file redirected to standard input (konvoy replay
// -events - -applied t.csv < t.csv) names the same file as -applied: it
// must be refused as -events t.csv -applied t.csv is, and the trace left as
// it was, not rewritten with the -applied lines.
func TestReplayRefusesAppliedOverItsTraceOnStdin(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.csv")
	const text = "key,step,duration\na,1,1\n"
	if err := os.WriteFile(trace, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	stdin, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var out, errOut bytes.Buffer
	status := run([]string{"replay", "-events", "-", "-applied", trace, "-unit", "1ms"}, stdin, &out, &errOut)
	if status != 2 || !strings.Contains(errOut.String(), "-applied names") {
		t.Errorf("status %d: %s; want a usage error naming -applied", status, errOut.String())
	}
	if b, err := os.ReadFile(trace); err != nil || string(b) != text {
		t.Fatalf("the trace reads %q, %v; want it as written", b, err)
	}
}

// A device, such as a terminal, read for the trace and written with the
// -applied lines is not rewritten: konvoy replay -events - -applied
// /dev/tty at a terminal, or -events /dev/tty -applied /dev/tty, is no
// usage error. Here the device is /dev/null, whose trace holds no event:
// the replay fails for that, not for -applied.
func TestReplayTakesADeviceForTheTraceAndApplied(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	for _, events := range []string{"-", os.DevNull} {
		var out, errOut bytes.Buffer
		status := run([]string{"replay", "-events", events, "-applied", os.DevNull, "-unit", "1ms"}, null, &out, &errOut)
		if status == 2 || strings.Contains(errOut.String(), "-applied names") {
			t.Errorf("-events %s -applied %s: status %d: %s; want no usage error", events, os.DevNull, status, errOut.String())
		}
	}
}
