package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
)

// TestFanOutMatchesSimulate feeds several batches to simulators spread over
// a few workers and wants the results konvoy.Simulate gives.
func TestFanOutMatchesSimulate(t *testing.T) {
	var events []konvoy.Event
	for i := range 3*batchSize + 17 {
		events = append(events, konvoy.Event{Key: fmt.Sprintf("K%d", i%301), Line: fmt.Sprintf("L%d", i%7), Step: i % 5, Duration: i % 4})
	}
	for _, workers := range []int{1, 2, 3, 64} {
		var sims []*konvoy.Simulator
		var want []konvoy.Result
		for _, l := range konvoy.Layouts() {
			for _, c := range []int{1, 3, 8} {
				s, _ := konvoy.NewSimulator(l, c)
				sims = append(sims, s)
				r, err := konvoy.Simulate(events, l, c)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, r)
			}
		}
		f := newFanOut(sims, workers)
		b := f.batch()
		for i, e := range events {
			b.events = append(b.events, e)
			b.lines = append(b.lines, i+2)
			if len(b.events) == batchSize {
				f.send(b)
				b = f.batch()
			}
		}
		f.send(b)
		if err := f.wait(); err != nil {
			t.Fatal(err.err)
		}
		for i, s := range sims {
			got, err := s.Result()
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want[i], got); d != "" {
				t.Errorf("%d workers, simulator %d (-want +got):\n%s", workers, i, d)
			}
		}
	}
}

// TestSimulatorErrorDeepInTrace wants the line of the first event a
// simulator rejects, however many batches come before and after it.
func TestSimulatorErrorDeepInTrace(t *testing.T) {
	var b strings.Builder
	b.WriteString("key,line,step,duration,at\n")
	for i := range 3 * batchSize {
		at := 10
		if i == batchSize+5 {
			at = 3
		}
		fmt.Fprintf(&b, "K%d,H1,1,1,%d\n", i, at)
	}
	b.WriteString("K,H1,x,1,10\n") // a bad row after the simulators' error
	path := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%s:%d: event %d (key \"K%d\"): Arrival is 3; want 10 or later: the previous event arrived then, and events come in arrival order\n", path, batchSize+7, batchSize+5, batchSize+5)
	for range 3 {
		out, errOut, status := runCommand("-events", path)
		if status != 1 || out != "" || errOut != want {
			t.Fatalf("status %d, stdout %q, stderr %q; want 1, nothing, %q", status, out, errOut, want)
		}
	}
}

// When simulators fail at the same event, the error is the first
// simulator's, however they are spread over workers: with two workers,
// simulators 1 and 2 belong to different ones, and the worker of the
// lower index holds simulator 2.
func TestFanOutReportsTheFirstSimulatorAmongEquals(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		var sims []*konvoy.Simulator
		for _, l := range []konvoy.Layout{konvoy.Free, konvoy.Convoy, konvoy.LineConvoy} {
			s, err := konvoy.NewSimulator(l, 4, konvoy.WithPolicy(konvoy.LaneAware), konvoy.WithMaxBacklog(10))
			if err != nil {
				t.Fatal(err)
			}
			sims = append(sims, s)
		}
		f := newFanOut(sims, workers)
		b := f.batch()
		for i := range 100 {
			b.add(konvoy.Event{Key: "HOT", Line: "L", Step: i + 1, Duration: 9}, i+2)
		}
		f.send(b)
		err := f.wait()
		if err == nil || err.sim != 1 || err.index != 10 {
			t.Fatalf("%d workers: %+v; want simulator 1 at event 10", workers, err)
		}
	}
}
