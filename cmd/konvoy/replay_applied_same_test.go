package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -applied never rewrites the trace it replays: naming the file -events
// reads, by the same name or another (a link), is a usage error (status 2),
// and the trace is left as it was.
func TestReplayRefusesAppliedOverItsTrace(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.csv")
	const text = "key,step,duration\na,1,1\n"
	if err := os.WriteFile(trace, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.csv")
	if err := os.Link(trace, link); err != nil {
		t.Skip("no hard links here:", err)
	}
	for _, applied := range []string{trace, link} {
		_, errOut, status := runWithInput("", "replay", "-events", trace, "-applied", applied, "-unit", "1ms")
		if status != 2 || !strings.Contains(errOut, "-applied names") {
			t.Errorf("-applied %s: status %d: %s; want a usage error naming -applied", applied, status, errOut)
		}
		if b, err := os.ReadFile(trace); err != nil || string(b) != text {
			t.Fatalf("-applied %s: the trace reads %q, %v; want it as written", applied, b, err)
		}
	}
}
