package main

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/runs"
)

// konvoy plan's passes over a trace read again give its long keys and
// lines as the first reading kept them, so that the passes that run at
// once hold one copy of every long name, not one each.
func TestPlanPassesShareTheFirstReadingsLongNames(t *testing.T) {
	long, line := strings.Repeat("k", 100), strings.Repeat("l", 100)
	names := runs.LongNames{}
	names.Keep(long)
	names.Keep(line)
	again := konvoy.Values([]konvoy.Event{{Key: strings.Clone(long), Line: strings.Clone(line), Step: 1, Duration: 1}})
	for e, err := range reread(again, names) {
		if err != nil || unsafe.StringData(e.Key) != unsafe.StringData(long) || unsafe.StringData(e.Line) != unsafe.StringData(line) {
			t.Errorf("reread gave %v, err %v, its own copies of the long key and line; want the first reading's", e, err)
		}
	}
}
