package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorded:2147483647 names a count, as recorded:2147483646 does: konvoy,
// konvoy plan and konvoy replay run that count and name it, never the
// trace's highest partition plus one that recorded alone takes, and
// standard input, read once for it, serves (found by a review: the
// stand-in for recorded alone was the layout recorded:2147483647).
func TestRecordedOfTheLargestCountIsNotRecordedAlone(t *testing.T) {
	trace := "key,step,duration,partition\nA,1,1,0\nA,2,1,1\nB,1,2,2\n"
	path := filepath.Join(t.TempDir(), "partitions.csv")
	if err := os.WriteFile(path, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		stdin string
		args  []string
		want  []string
	}{
		{"", []string{"-events", path, "-layouts", "recorded:2147483647", "-format", "json"}, []string{`"layout":"recorded:2147483647"`}},
		{trace, []string{"-events", "-", "-layouts", "recorded:2147483647", "-format", "json"}, []string{`"layout":"recorded:2147483647"`}},
		{"", []string{"-events", path, "-layouts", "recorded,recorded:2147483647", "-format", "json"}, []string{`"layout":"recorded:3"`, `"layout":"recorded:2147483647"`}},
		{"", []string{"plan", "-events", path, "-layouts", "recorded:2147483647", "-format", "json"}, []string{`"layout": "recorded:2147483647"`}},
		{"", []string{"replay", "-events", path, "-layout", "recorded:2147483647", "-unit", "10us"}, []string{"layout recorded:2147483647,"}},
	} {
		out, errOut, status := runWithInput(tt.stdin, tt.args...)
		for _, w := range tt.want {
			if status != 0 || !strings.Contains(out, w) {
				t.Errorf("%q: status %d, stderr %q; want %s in:\n%.400s", tt.args, status, errOut, w, out)
			}
		}
		if strings.Contains(out, "recorded:3") && len(tt.want) == 1 {
			t.Errorf("%q: the report names recorded:3, the count recorded alone takes from this trace:\n%.400s", tt.args, out)
		}
	}
}
