package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlotTakesTheConsumersTheReportTakes: the report takes -consumers
// 4,1,2 (its "rounds by consumers" lists 1, 2 and 4), and -plot draws
// rounds against the same counts, in rising order, rather than fail the
// whole command with chart's "want rising consumer counts".
func TestPlotTakesTheConsumersTheReportTakes(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "t.csv")
	if err := os.WriteFile(name, []byte("key,step,duration\na,1,2\nb,1,1\na,2,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-events", name, "-layouts", "free,convoy", "-consumers", "4,1,2"}
	if _, stderr, status := runCommand(args...); status != 0 {
		t.Fatalf("the report fails on -consumers 4,1,2 (%d): %s", status, stderr)
	}
	out := filepath.Join(dir, "pics")
	_, stderr, status := runCommand(append(args, "-plot", out, "-plot-format", "svg")...)
	if status != 0 {
		t.Fatalf("-plot fails where the report does not (status %d): %s", status, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "rounds.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "free from 4 rounds at 1 consumer to 2 at 4") {
		t.Errorf("rounds.svg does not draw free from 1 to 4 consumers:\n%s", b)
	}
}
