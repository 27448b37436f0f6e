package chart

// GanttText takes memory for the consumers that ran an event, not for
// every consumer, as its doc says: a row as wide as the run for each
// consumer up to the highest that ran an event would make two events, on
// consumers 1 and 1,048,576 of 1,048,576, take some 245 MB and a million
// blank lines. konvoy -gantt meets such runs: under static dispatch
// partitions go to the consumers of their number, so -layouts
// partitioned:1000000 -consumers 1000000 -policy static on the 60 events
// of cmd/konvoy/testdata/arrivals.csv uses 60 consumers spread across a
// million. A run of consumers with nothing to do between two that ran
// something is one line, labelled with the run.

import (
	"runtime"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

func TestGanttTextTakesMemoryForTheConsumersThatRan(t *testing.T) {
	const consumers = 1 << 20
	r := konvoy.Result{Rounds: 10, Schedule: []konvoy.Slot{
		{Index: 0, Key: "a", Consumer: 0, Start: 0, Finish: 10},
		{Index: 1, Key: "b", Consumer: consumers - 1, Start: 0, Finish: 10},
	}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, err := GanttText("two events far apart", r, consumers, konvoy.Static)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	const most = 4 << 20
	if took := after.TotalAlloc - before.TotalAlloc; took > most {
		t.Errorf("GanttText of 2 events on 2 of %d consumers allocated %d bytes, writing %d lines; want at most %d bytes: memory for the consumers that ran an event",
			consumers, took, strings.Count(out, "\n"), most)
	}
	if run := "\nconsumers 2 to 1048575\n"; !strings.Contains(out, run) || strings.Count(out, "\n") > 12 {
		t.Errorf("GanttText of 2 events on consumers 1 and %d wrote %d lines, without the line %q:\n%s", consumers, strings.Count(out, "\n"), run, out)
	}
}
