//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// holdReport is the environment variable that makes the command, started
// by a test (see TestMain), write holdMarker on standard error as it
// begins its report, and wait for its standard input to end.
const (
	holdReport = "KONVOY_TEST_HOLD_REPORT"
	holdMarker = "konvoy-test: the report is next"
)

func init() {
	if os.Getenv(holdReport) == "1" {
		beforeReport = func() {
			fmt.Fprintln(os.Stderr, holdMarker)
			_, _ = io.Copy(io.Discard, os.Stdin)
		}
	}
}

// TestReplayReportsARunASignalFollows: a SIGINT that comes once every
// event has run, while konvoy replay makes its predictions, before it
// prints the report, is noted on standard error, and the report of the
// whole run is printed all the same, with status 130: a replay reports
// what ran (docs/replay.md). Here the command waits, as it begins the
// report, until the test has seen the note; before, the signal ended the
// process with no report.
func TestReplayReportsARunASignalFollows(t *testing.T) {
	cmd := exec.Command(os.Args[0], "replay", "-events", "testdata/arrivals.csv", "-unit", "10us")
	cmd.Env = append(os.Environ(), "KONVOY_RUN_MAIN=1", holdReport+"=1")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	stderr := bufio.NewReader(pipe)
	var seen strings.Builder
	readUntil := func(want string) {
		t.Helper()
		for {
			line, err := stderr.ReadString('\n')
			seen.WriteString(line)
			if strings.Contains(line, want) {
				return
			}
			if err != nil {
				t.Fatalf("standard error ended (%v) before %q:\n%s", err, want, seen.String())
			}
		}
	}
	readUntil(holdMarker)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	readUntil("interrupt: the run has ended; writing its report")
	stdin.Close()
	rest, _ := io.ReadAll(stderr)
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Errorf("exit %v; want status 130; stderr:\n%s%s", err, seen.String(), rest)
	}
	if !strings.Contains(stdout.String(), "replay of testdata/arrivals.csv") || strings.Contains(stdout.String(), "stopped early") {
		t.Errorf("stdout:\n%s\nwant the report of the whole run", stdout.String())
	}
}
