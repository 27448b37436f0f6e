package main

import (
	"os"
	"path/filepath"
	"testing"
)

// konvoy replay names an event the simulator refuses as konvoy -events
// does, FILE:LINE then the event's message, where it wrote the
// simulator's "konvoy: " between the two (found by a review).
func TestReplayNamesARefusedEventAsKonvoyDoes(t *testing.T) {
	name := filepath.Join(t.TempDir(), "p.csv")
	if err := os.WriteFile(name, []byte("key,step,duration,partition\nA,1,1,0\nB,1,1,1\nC,1,1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := name + `:4: event 2 (key "C"): Partition is 2; want 0 to 1: layout recorded:2 has 2 partitions` + "\n"
	if _, errOut, status := runCommand("-events", name, "-layouts", "recorded:2"); status != 1 || errOut != want {
		t.Fatalf("konvoy: status %d, stderr %q; want 1, %q", status, errOut, want)
	}
	if _, errOut, status := runCommand("replay", "-events", name, "-layout", "recorded:2", "-unit", "1us"); status != 1 || errOut != want {
		t.Errorf("konvoy replay: status %d, stderr %q; want 1, %q", status, errOut, want)
	}
}
