package main

import (
	"path/filepath"
	"testing"
)

// A trace that will not open is named, with the command that could not
// open it, the same way by every command that reads one: status 1 and
// "konvoy replay: open FILE: ...", as konvoy and konvoy plan say theirs.
func TestEveryCommandNamesItselfWhenItsTraceWillNotOpen(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.csv")
	for _, cmd := range [][]string{{}, {"plan"}, {"replay"}} {
		args := append(cmd, "-events", missing)
		name := "konvoy"
		if len(cmd) > 0 {
			name += " " + cmd[0]
		}
		_, errOut, status := runCommand(args...)
		if want := name + ": open " + missing + ": no such file or directory\n"; status != 1 || errOut != want {
			t.Errorf("%q: status %d, stderr %q; want 1 and %q", args, status, errOut, want)
		}
	}
}
