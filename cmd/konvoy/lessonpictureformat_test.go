package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// -format says how the report is printed; -plot draws the report's
// pictures, for the lesson the ones main.go's doc names (rounds against 1
// to 8 consumers, and the convoy's schedule), whatever -format prints: the
// lesson at its defaults draws the same files, byte for byte, with the
// text report as with -format json.
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

// The lesson's report as JSON or CSV runs the layouts -layouts names, and
// its pictures draw the same ones, each with its schedule: drawing the
// lesson's three instead ignored the flag without a word.
func TestTheLessonsPicturesDrawTheLayoutsNamed(t *testing.T) {
	dir := t.TempDir()
	if _, errOut, status := runCommand("-format", "json", "-layouts", "convoy,partitioned:4", "-plot", dir, "-plot-format", "svg"); status != 0 {
		t.Fatalf("konvoy -format json -layouts convoy,partitioned:4 -plot: status %d, stderr %q", status, errOut)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"latency.svg", "rounds.svg", "schedule-convoy.svg", "schedule-partitioned-4.svg"}; !slices.Equal(names, want) {
		t.Errorf("pictures %q; want %q", names, want)
	}
	for _, name := range []string{"rounds.svg", "latency.svg"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if s := string(b); !strings.Contains(s, "partitioned:4") || strings.Contains(s, "line-convoy") {
			t.Errorf("%s: want partitioned:4 in its legend and no line-convoy", name)
		}
	}
}
