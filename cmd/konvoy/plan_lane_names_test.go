package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanQuotesTheLaneThatSetsACeiling: the reports print a key or lane
// that holds a separator, a newline or bytes that are not UTF-8 quoted
// (report.keyName), so that it reads as one name and a table keeps its
// rows. konvoy plan's table names the lane of key "a\nb" that sets the
// convoy's ceiling as lane "a\nb", on its one row, and the assumption under
// it, which the library writes (konvoy.Plan.Assumptions), quotes it by the
// same rule: lane "a\nb" must run its events one after another, never
// lane a b, a key the trace does not have.
func TestPlanQuotesTheLaneThatSetsACeiling(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "newline.csv")
	if err := os.WriteFile(trace, []byte("key,step,duration\n\"a\nb\",1,5\n\"a\nb\",2,5\nc,1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runCommand("plan", "-events", trace, "-layouts", "convoy,free")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		if line == "b" {
			t.Errorf("the plan's table breaks key \"a\\nb\" over two lines:\n%.500s", out)
		}
	}
	if flat := strings.Join(strings.Fields(out), " "); strings.Contains(flat, "lane a b ") {
		t.Errorf("an assumption names the lane of key \"a\\nb\" as lane a b, unquoted:\n%s", out)
	}
}
