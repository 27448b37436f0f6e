package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestTheLessonsPicturesDoNotDependOnTheReportFormat: -format says how the
// report is printed on standard output; -plot draws "the report's
// pictures", and for the lesson main.go's doc names them: rounds.*
// against 1 to 8 consumers, and schedule-LAYOUT.* "the convoy's for the
// lesson, every layout's for a trace" (docs/pictures.md shows the
// lesson's three lines, free, convoy and line-convoy). So konvoy -plot
// DIR and konvoy -format json -plot DIR, both the lesson at its defaults,
// draw the same files, byte for byte. They do not: with -format json
// (or csv) the lesson's events go the trace's way, and the pictures are
// a trace's: rounds against 1 to 16 consumers with version-stamp added, a
// schedule for every layout, and titles beginning "the lesson" where the
// text report's begin "The lesson".
func TestTheLessonsPicturesDoNotDependOnTheReportFormat(t *testing.T) {
	text, json := filepath.Join(t.TempDir(), "text"), filepath.Join(t.TempDir(), "json")
	if _, errOut, status := runCommand("-plot", text, "-plot-format", "svg"); status != 0 {
		t.Fatalf("konvoy -plot: status %d, stderr %q", status, errOut)
	}
	if _, errOut, status := runCommand("-format", "json", "-plot", json, "-plot-format", "svg"); status != 0 {
		t.Fatalf("konvoy -format json -plot: status %d, stderr %q", status, errOut)
	}
	names := func(dir string) []string {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return out
	}
	if a, b := names(text), names(json); !slices.Equal(a, b) {
		t.Errorf("the lesson's pictures: %q with the text report, %q with -format json; want the same", a, b)
	}
	for _, name := range names(text) {
		a, errA := os.ReadFile(filepath.Join(text, name))
		b, errB := os.ReadFile(filepath.Join(json, name))
		if errA != nil || errB != nil || string(a) != string(b) {
			t.Errorf("%s differs between konvoy -plot and konvoy -format json -plot (%v, %v)", name, errA, errB)
		}
	}
}
