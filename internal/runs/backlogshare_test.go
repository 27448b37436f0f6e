package runs_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/runs"
)

// Options.MaxBacklog is the most events all runs may hold at once, shared
// equally: a run holds at least the event its consumer has taken, so a
// bound below one event a run cannot be kept, and is refused before
// anything runs, with an error naming the bound and the runs, rather than
// rounded up to one a run and exceeded.
func TestMaxBacklogBelowTheRunsIsNotExceededSilently(t *testing.T) {
	trace := []byte("key,line,step,duration,at\nA,L1,1,5,0\nB,L1,1,5,0\nC,L1,1,5,0\n")
	o := runs.Options{Name: "b.csv", Layouts: []konvoy.Layout{konvoy.Free, konvoy.Convoy}, Policies: konvoy.Policies()[:1],
		Consumers: []int{1}, Reader: eventlog.Reader{Name: "b.csv"}, MaxBacklog: 1}
	passes := 0
	_, err := runs.Trace(context.Background(), source(trace, &passes), o)
	if want := "-max-backlog 1 is shared by 2 runs: want 0 (no limit) or at least 2, one event a run"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("MaxBacklog 1 shared by 2 runs: %v; want an error %q", err, want)
	}
	if passes != 0 {
		t.Fatalf("the trace was read %d times before the error; want none", passes)
	}
}
