//go:build unix

package serve

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The served trace is read afresh for every view. When its path becomes a
// named pipe after the server started (the command refuses one at
// start), a view fails at once, naming it, and frees its turn: it opened
// the pipe, which has no writer, and waited for one for ever, holding
// one of the MaxRunning turns every later view waits for (found by a
// review). Once the file is back, views answer again.
func TestAServedTraceTurnedIntoAPipeFailsTheView(t *testing.T) {
	name := filepath.Join(t.TempDir(), "served.csv")
	const trace = "key,line,step,duration\nA,L,1,1\nB,L,1,2\n"
	if err := os.WriteFile(name, []byte(trace), 0o600); err != nil {
		t.Fatal(err)
	}
	s := New(Config{Runs: testRuns, Events: name})
	if rec := get(t, s, "/api/report"); rec.Code != 200 {
		t.Fatalf("the file: status %d, %s; want 200", rec.Code, rec.Body)
	}
	if err := os.Remove(name); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(name, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for i := range MaxRunning + 1 { // more views than turns: none keeps one
		done := make(chan int, 1)
		go func() { done <- get(t, s, "/api/report").Code }()
		select {
		case code := <-done:
			if code < 400 {
				t.Errorf("view %d of the pipe: status %d; want an error", i, code)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("view %d of the pipe: no answer in 10 s", i)
		}
	}
	rec := get(t, s, "/api/report?consumers=2")
	if want := name + " is no longer a regular file but a named pipe"; rec.Code != 422 || !strings.Contains(rec.Body.String(), want) {
		t.Errorf("the pipe: %d %s; want 422 saying %s", rec.Code, rec.Body, want)
	}
	os.Remove(name)
	if err := os.WriteFile(name, []byte(trace), 0o600); err != nil {
		t.Fatal(err)
	}
	if rec := get(t, s, "/api/report?consumers=3"); rec.Code != 200 {
		t.Errorf("the file back: status %d, %s; want 200", rec.Code, rec.Body)
	}
}
