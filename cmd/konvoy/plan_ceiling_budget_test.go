package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A layout whose ceiling lasts exactly the budget of rounds keeps up, in
// the report's words as in the plan: 3 events at -peak 3 and rounds of
// 100ms give a budget of 10 rounds, which float64 writes
// 9.999999999999998, and the convoy's ceiling is 10 rounds (lane B). With
// -max-consumers 1 no count fits, for want of consumers, and the report
// said the ceiling was below the peak; with 2 it plans (found by a review).
func TestPlanCeilingOfExactlyTheBudgetKeepsUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(path, []byte("key,line,step,duration\nA,L,1,5\nB,L,1,10\nA,L,2,5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"plan", "-events", path, "-layouts", "convoy", "-peak", "3", "-round-time", "100ms", "-max-consumers"}
	out, errOut, status := runCommand(append(args, "1")...)
	if status != 0 || strings.Contains(out, "below the peak") || !strings.Contains(out, "does not keep up with up to 1 consumer (-max-consumers)") {
		t.Errorf("-max-consumers 1: status %d, %s\n%s\nwant the report to blame -max-consumers, not the ceiling", status, errOut, out)
	}
	out, errOut, status = runCommand(append(args, "2")...)
	if status != 0 || !strings.Contains(out, "2 consumers") {
		t.Errorf("-max-consumers 2: status %d, %s\n%s\nwant a plan of 2 consumers", status, errOut, out)
	}
}
