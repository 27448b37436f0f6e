package chart_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// SimulateRounds and SimulateLatency give what runs of konvoy.Simulate do.
func TestSimulatedSeries(t *testing.T) {
	events := lesson.Events()
	layouts := []konvoy.Layout{konvoy.Free, konvoy.Convoy}
	counts := []int{1, 2, 4}
	work, series, err := chart.SimulateRounds(events, layouts, counts)
	if err != nil {
		t.Fatal(err)
	}
	wantWork, want := chart.RoundsOf(layouts, counts, func(li, ci int) konvoy.Result {
		r, err := konvoy.Simulate(events, layouts[li], counts[ci])
		if err != nil {
			t.Fatal(err)
		}
		return r
	})
	if work != wantWork || !cmp.Equal(series, want) {
		t.Errorf("SimulateRounds = %d, %+v; want %d, %+v", work, series, wantWork, want)
	}
	latency, err := chart.SimulateLatency(events, layouts, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range layouts {
		r, _ := konvoy.Simulate(events, l, 4, konvoy.WithSchedule(len(events)))
		if latency[i].Layout != l.String() || !cmp.Equal(latency[i].Slots, r.Schedule) {
			t.Errorf("SimulateLatency: %s differs from its run", l)
		}
	}
}
