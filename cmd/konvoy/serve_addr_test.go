package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestServeRefusesAnEmptyAddr: konvoy serve -addr "" is a usage error
// (status 2) naming -addr, before anything listens. An empty -addr most
// likely comes from an unset shell variable (konvoy serve -addr $ADDR);
// the net package reads it as every interface at a port the system picks,
// which would serve the trace to the whole network, where -addr's default
// is this machine only. The command refuses it, as it refuses -events "",
// rather than take it as the default: the user who wrote -addr meant some
// address, and is told that none came.
//
// The command runs in a process of its own (as the interrupt tests run
// theirs), killed after 10 s should it listen instead.
func TestServeRefusesAnEmptyAddr(t *testing.T) {
	cmd := exec.Command(os.Args[0], "serve", "-addr", "")
	cmd.Env = append(os.Environ(), "KONVOY_RUN_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done // stdout and stderr are written no more
		t.Fatalf("-addr \"\": still running after 10s, %q; want a usage error", strings.TrimSpace(stdout.String()))
	}
	var exit *exec.ExitError
	want := "konvoy serve: -addr is empty; want HOST:PORT"
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("-addr \"\": %v, stdout %q, stderr %q; want status 2, a usage error beginning %q", err, stdout.String(), stderr.String(), want)
	}
}
