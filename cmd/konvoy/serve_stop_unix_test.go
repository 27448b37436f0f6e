//go:build unix

package main

// konvoy serve, stopped while a request is still under way after the 10
// seconds of grace, stops all the same as docs/limits.md says: "lets
// requests under way finish (for at most 10 seconds), prints `konvoy
// serve: stopped` on standard error and exits with status 0". Here an
// upload whose client has sent a part of its body and waits is under way
// at SIGTERM; the server gives up on it after its grace and stops as
// asked, not with "konvoy serve: context deadline exceeded" and status 1,
// an error that names no cause a user can act on.

import (
	"fmt"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestServeStopsWithinItsGraceWithARequestUnderWay(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the server's 10 seconds of grace")
	}
	p := startMain(t, true, "serve", "-addr", "127.0.0.1:0")
	cmd, stderr, out := p.cmd, p.kept, p.stream
	line, err := out.ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSuffix(line, " (Ctrl-C stops it)\n"), "konvoy serve: ")
	if err != nil || !ok {
		t.Fatalf("first line %q, %v", line, err)
	}
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	conn, err := net.DialTimeout("tcp", host, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// An upload of 1000 bytes, of which the client sends the first part
	// and then waits, as a slow link does.
	const boundary = "b0undary"
	part := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"events\"; filename=\"t.csv\"\r\n\r\nkey,line,step,duration\n"
	fmt.Fprintf(conn, "POST /upload HTTP/1.1\r\nHost: %s\r\nContent-Type: multipart/form-data; boundary=%s\r\nContent-Length: 1000\r\n\r\n%s", host, boundary, part)
	time.Sleep(200 * time.Millisecond) // the server reads the header and starts on the body
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("konvoy serve still runs 30 s after SIGTERM")
	}
	if err != nil || stderr.String() != "konvoy serve: stopped\n" {
		t.Errorf("SIGTERM with an upload under way past the grace: %v, stderr %q; want exit 0 and konvoy serve: stopped", err, stderr.String())
	}
}
