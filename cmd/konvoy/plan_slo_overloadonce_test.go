package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A lane that carries more work than its events' span meets the
// objective at no count under any policy, and the plan says so once, as
// it says a floor that misses once: it said it for each policy, word for
// word (found by a review).
func TestAnOverloadedLaneIsSaidOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("key,step,duration,at\n")
	for i := range 10 { // hot: 50 rounds of work over 10 rounds
		fmt.Fprintf(&b, "hot,%d,5,%d\nk%d,1,1,%d\n", i+1, i, i, i)
	}
	path := filepath.Join(t.TempDir(), "overloaded.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runCommand("plan", "-events", path, "-slo", "p99=10s", "-policy", "all", "-layouts", "convoy")
	const said = "convoy meets it at no count in a steady state, under any policy: hot carries 50 rounds of work"
	if n := strings.Count(strings.Join(strings.Fields(out), " "), said); status != 0 || n != 1 {
		t.Errorf("status %d, stderr %q; the plan says %q %d times; want once:\n%s", status, errOut, said, n, out)
	}
}
