//go:build unix

package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// konvoy serve listens where -addr says, 127.0.0.1 by default, serves the
// page, and on SIGINT or SIGTERM stops listening, lets requests under way
// finish, says so and exits 0.
func TestServeShutsDownGracefully(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			p := startMain(t, true, "serve", "-addr", "127.0.0.1:0")
			cmd, stderr, out := p.cmd, p.kept, p.stream
			line, err := out.ReadString('\n')
			url, ok := strings.CutPrefix(strings.TrimSuffix(line, " (Ctrl-C stops it)\n"), "konvoy serve: ")
			if err != nil || !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
				t.Fatalf("first line %q, %v; want konvoy serve: http://127.0.0.1:PORT/", line, err)
			}
			resp, err := http.Get(url)
			if err != nil {
				t.Fatal(err)
			}
			page, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(page), "Every layout at 4 consumers") {
				t.Fatalf("GET %s: status %d; want the lesson's page", url, resp.StatusCode)
			}
			cmd.Process.Signal(sig)
			err = cmd.Wait()
			if err != nil || stderr.String() != "konvoy serve: stopped\n" {
				t.Errorf("after %v: %v, stderr %q; want exit 0 and konvoy serve: stopped", sig, err, stderr.String())
			}
			if _, err := http.Get(url); err == nil {
				t.Errorf("the server still answers after %v", sig)
			}
		})
	}
}

// The README (or a guide in docs/ it links to) says how konvoy serve
// stops, as TestServeShutsDownGracefully finds it does: exit status 0
// after a graceful shutdown on SIGINT or SIGTERM, where every other
// command exits 130 or 143.
func TestReadmeSaysServeExitsZero(t *testing.T) {
	const says = "`konvoy serve`, whose normal end they are, shuts down gracefully instead: it stops listening, " +
		"lets requests under way finish (for at most 10 seconds), prints `konvoy serve: stopped` on standard error and exits with status 0"
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append([]string{"../../README.md"}, docs...) {
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.Join(strings.Fields(string(text)), " "), says) {
			return
		}
	}
	t.Errorf("neither README.md nor docs/*.md says %q", says)
}
