package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestMain runs the command itself, main and all, when the test binary is
// started again with KONVOY_RUN_MAIN set: the way the interrupt tests get a
// process of their own to signal.
func TestMain(m *testing.M) {
	if os.Getenv("KONVOY_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// mainProcess is the command started as a process of its own (see
// TestMain), killed when its test ends: one of its outputs read as it
// comes (stream), the other gathered (kept, whole once cmd.Wait returns).
type mainProcess struct {
	cmd    *exec.Cmd
	stream *bufio.Reader
	kept   *bytes.Buffer
}

// startMain starts the command with args, with standard error as the
// stream and standard output kept, or, when stdoutStream, the other way
// round, failing t when it cannot.
func startMain(t *testing.T, stdoutStream bool, args ...string) *mainProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "KONVOY_RUN_MAIN=1")
	p := &mainProcess{cmd: cmd, kept: &bytes.Buffer{}}
	var stream io.ReadCloser
	var err error
	if stdoutStream {
		cmd.Stderr = p.kept
		stream, err = cmd.StdoutPipe()
	} else {
		cmd.Stdout = p.kept
		stream, err = cmd.StderrPipe()
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	p.stream = bufio.NewReader(stream)
	return p
}

// runUsage runs the command with args in a process of its own (see
// TestMain), for a command that, were its flags taken, would run until
// stopped: it kills it after 10 s, failing t. It returns the process's
// exit status and what it wrote.
func runUsage(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "KONVOY_RUN_MAIN=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
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
		t.Fatalf("%q: still running after 10s; want a usage error:\n%s%s", args, out.String(), errOut.String())
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), out.String(), errOut.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errOut.String()
}

// A picture is written to a temporary file beside its place and renamed
// into it: nothing else is left in the directory.
func TestPicturesAreWrittenWhole(t *testing.T) {
	dir := t.TempDir()
	if err := writePictures(dir, []picture{{name: "a.svg", data: []byte("<svg/>")}}); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "a.svg" {
		t.Fatalf("the directory holds %v; want a.svg alone", entries)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "a.svg")); err != nil || string(got) != "<svg/>" {
		t.Fatalf("a.svg holds %q, %v", got, err)
	}
	if len(temps.paths) != 0 {
		t.Fatalf("temporary files still recorded: %v", temps.paths)
	}
}
