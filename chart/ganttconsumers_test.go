package chart

// GanttText's doc: "It takes memory for the consumers that ran an event,
// not for every consumer", and consumers after the last one that ran
// anything are left out, as "many consumers and few events make no
// picture". But ganttRows makes a row, as wide as the run, for every
// consumer up to the highest that ran an event, and GanttText prints them
// all: two events, on consumers 1 and 1,048,576 of 1,048,576, allocate
// some 245 MB and write a million lines of blank rows, 16 MB. konvoy -gantt meets it: under
// static dispatch partitions go to the consumers of their number, so
// -layouts partitioned:1000000 -consumers 1000000 -policy static on the
// 60 events of cmd/konvoy/testdata/arrivals.csv prints 901,138 rows, 14
// MB, in 180 MB of memory (15 MB without -gantt).

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
}
