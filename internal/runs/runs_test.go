package runs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/report"
	"github.com/sirali-konvoy/konvoy/internal/runs"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// options are runs of every layout and policy at three counts.
func options(name string) runs.Options {
	return runs.Options{Name: name, Layouts: konvoy.AllLayouts(4), Policies: konvoy.Policies(), Consumers: []int{4, 1, 8},
		Reader: eventlog.Reader{Name: name}}
}

// source reads data afresh for each pass, counting the passes of the
// runs, 1 and on, not pass 0, which counts the lines or finds the
// partitions.
func source(data []byte, passes *int) runs.Source {
	return func(pass int) (io.Reader, func(), error) {
		if pass > 0 {
			*passes++
		}
		return bytes.NewReader(data), func() {}, nil
	}
}

// The lesson's events as a slice and as a trace written out give the same
// records: Events and Trace make the same runs, whatever the events come
// in.
func TestEventsAndTraceMakeTheSameRuns(t *testing.T) {
	var csv bytes.Buffer
	if err := eventlog.WriteAll(&csv, eventlog.CSV, konvoy.Values(lesson.Events())); err != nil {
		t.Fatal(err)
	}
	fromSlice, err := runs.Events(context.Background(), lesson.Events(), options("lesson"))
	if err != nil {
		t.Fatal(err)
	}
	passes := 0
	fromTrace, err := runs.Trace(context.Background(), source(csv.Bytes(), &passes), options("lesson.csv"))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := report.TraceJSON(fromSlice)
	b, _ := report.TraceJSON(fromTrace)
	if a != b || passes != 1 || fromTrace.Stats.Events() != 20 {
		t.Errorf("the lesson as a slice and as a trace differ (%d passes, %d events):\n%s\n%s", passes, fromTrace.Stats.Events(), a, b)
	}
}

// A bad event stops the runs with an error naming the trace's file and
// line, and what Check refuses stops them too.
func TestABadEventIsNamedByFileAndLine(t *testing.T) {
	trace := []byte("key,line,step,duration\nA,L,1,1\nB,L,1,-2\n")
	passes := 0
	_, err := runs.Trace(context.Background(), source(trace, &passes), options("t.csv"))
	if err == nil || !strings.HasPrefix(err.Error(), "t.csv:3: ") {
		t.Errorf("a negative duration: %v; want an error at t.csv:3", err)
	}
	stop := errors.New("stop")
	o := options("t.csv")
	o.Check = func(_ konvoy.Event, n int) error {
		if n == 1 {
			return stop
		}
		return nil
	}
	if _, err := runs.Trace(context.Background(), source([]byte("key,line,step,duration\nA,L,1,1\nB,L,1,2\n"), &passes), o); !errors.Is(err, stop) {
		t.Errorf("Check's error: %v; want it", err)
	}
	if _, err := runs.Trace(context.Background(), source([]byte("key,line,step,duration\n"), &passes), o); err == nil ||
		err.Error() != "t.csv: the trace holds no events; want at least one" {
		t.Errorf("no events: %v", err)
	}
}

// A run that fails in a pass after the first is named by the line of the
// event it fails at, though that pass replays the first from its spool and
// the trace was last read to its end: Trace reads it again up to the event.
// Lane-aware dispatch of the convoy, which does not fit beside the other
// runs, holds a hot key's burst past its share of the backlog in a later
// pass, at event 20,497, line 20,499: some 30,000 events before the end.
func TestAFailureInALaterPassIsNamedByItsLine(t *testing.T) {
	var csv strings.Builder
	csv.WriteString("key,line,step,duration,at\n")
	for i := range 50_000 {
		key := fmt.Sprint("K", i%5000)
		if i >= 20_000 && i < 21_000 {
			key = "HOT"
		}
		fmt.Fprintf(&csv, "%s,L1,%d,1,%d\n", key, i/5000+1, i/100)
	}
	passes := 0
	o := runs.Options{Name: "t.csv", Layouts: []konvoy.Layout{konvoy.Free, konvoy.Convoy}, Policies: []konvoy.Policy{konvoy.HeadOfLine, konvoy.LaneAware},
		Consumers: []int{4}, Reader: eventlog.Reader{Name: "t.csv"}, MaxBacklog: 2000, MaxMemory: 3952 << 10}
	_, err := runs.Trace(context.Background(), source([]byte(csv.String()), &passes), o)
	if err == nil || passes < 2 || !errors.Is(err, konvoy.ErrBacklog) || !strings.HasPrefix(err.Error(), "t.csv:20499: event 20497 ") {
		t.Errorf("%d passes, error %v; want the backlog's at t.csv:20499, event 20497", passes, err)
	}
}

// Trace leaves the process's garbage collector limit as it is: the
// program sets it once (LimitMemory), and a server's requests, each a
// Trace, would otherwise set it under one another.
func TestTraceLeavesTheMemoryLimitAlone(t *testing.T) {
	const before int64 = 3 << 40
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(before))
	var csv bytes.Buffer
	if err := eventlog.WriteAll(&csv, eventlog.CSV, konvoy.Values(lesson.Events())); err != nil {
		t.Fatal(err)
	}
	o := options("lesson.csv")
	o.MaxMemory = 100 << 20
	during := before
	o.Add = func(konvoy.Event) { during = min(during, debug.SetMemoryLimit(-1)) }
	passes := 0
	if _, err := runs.Trace(context.Background(), source(csv.Bytes(), &passes), o); err != nil {
		t.Fatal(err)
	}
	if got := debug.SetMemoryLimit(-1); got != before || during != before {
		t.Errorf("during Trace the memory limit is %d, after it %d; want %d, as before", during, got, before)
	}
	restore := runs.LimitMemory(o.MaxMemory)
	if got := debug.SetMemoryLimit(-1); got != int64(o.MaxMemory) {
		t.Errorf("LimitMemory(%d) set the limit to %d", o.MaxMemory, got)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("after LimitMemory's restore the limit is %d; want %d", got, before)
	}
}
