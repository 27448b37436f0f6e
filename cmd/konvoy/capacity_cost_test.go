package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUndefinedCostIsWrittenAsADash: konvoy.Cost returns 0 where a
// layout's cost relative to free is undefined (a run whose every event
// takes no time). The trace report, as konvoy plan does, writes such a
// cost "-" and says "a multiplier is undefined": in "rounds relative to
// free", in "whole stream in lanes" and in the capacity table, whose
// formula s·cost + (1 − s) would otherwise give a number nothing measured
// (convoy x0.500 at an ordered share of a half, a convoy needing half the
// consumers of free consumption).
func TestUndefinedCostIsWrittenAsADash(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "zero.csv")
	if err := os.WriteFile(trace, []byte("key,step,duration\nA,1,0\nA,0,0\nB,1,0\nB,0,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runCommand("-events", trace, "-layouts", "free,convoy", "-capacity")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var found []string
	for _, bad := range []string{"convoy 0.000", "convoy x0.000", "0.500\n"} {
		if strings.Contains(out, bad) {
			found = append(found, bad)
		}
	}
	if len(found) > 0 {
		t.Errorf("an undefined cost is printed as a number, %q:\n%s", found, out)
	}
	for _, want := range []string{"rounds relative to free: convoy -\n", "whole stream in lanes: convoy x-\n", "a multiplier is undefined"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in the report:\n%s", want, out)
		}
	}
}
