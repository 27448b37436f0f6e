package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlotNamesTheRecordedLayoutAsTheReportDoes: -layouts recorded is
// reported (text and JSON) as recorded:N, N the partitions the trace
// recorded, and -plot names its files, titles and legends the same way
// (schedule-recorded-2.svg, "under recorded:2"), never after the parser's
// placeholder, recorded:2147483647.
func TestPlotNamesTheRecordedLayoutAsTheReportDoes(t *testing.T) {
	trace := "key,line,status,duration,partition\nA,L,s,2,0\nB,L,s,1,1\nA,L,t,1,0\nC,L,s,3,1\n"
	name := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(name, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-events", name, "-steps", "s,t", "-partition", "partition", "-layouts", "recorded,convoy"}
	out, _, _ := runCommand(append(args, "-format", "json")...)
	if !strings.Contains(out, `"layout":"recorded:2"`) {
		t.Fatalf("the report does not name the layout recorded:2:\n%s", out)
	}
	dir, files := plotted(t, "", append(args, "-plot-format", "svg")...)
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(f, "2147483647") || strings.Contains(string(b), "recorded:2147483647") {
			t.Errorf("%s names the layout recorded:2147483647 (files %v); the report calls it recorded:2", f, files)
		}
	}
}
