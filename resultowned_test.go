package konvoy_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sirali-konvoy/konvoy"
)

// Each Result is the caller's own: Result may be called more than once,
// and a caller that changes one Result's slices (its Schedule, WorstLanes
// or WrongKeys) changes neither the next Result nor the simulator.
func TestEachResultOwnsItsSlices(t *testing.T) {
	s, err := konvoy.NewSimulator(konvoy.Free, 2, konvoy.WithSchedule(10))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []konvoy.Event{{Key: "A", Step: 1, Duration: 3}, {Key: "A", Step: 2, Duration: 1}, {Key: "B", Step: 1, Duration: 1}} {
		if err := s.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	first, err := s.Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Schedule) != 3 || len(first.WrongKeys) == 0 {
		t.Fatalf("Result: schedule %v, wrong keys %v; want 3 slots and key A wrong", first.Schedule, first.WrongKeys)
	}
	want, err := s.Result()
	if err != nil {
		t.Fatal(err)
	}
	// want's own copies, whatever Result shares
	want.Schedule, want.WrongKeys, want.WorstLanes = slices.Clone(want.Schedule), slices.Clone(want.WrongKeys), slices.Clone(want.WorstLanes)
	first.Schedule[0] = konvoy.Slot{Key: "changed"}
	first.WrongKeys[0] = "changed"
	for i := range first.WorstLanes {
		first.WorstLanes[i] = konvoy.LaneWait{}
	}
	again, err := s.Result()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, again); d != "" {
		t.Errorf("a Result after the caller changed an earlier one's slices (-want +got):\n%s", d)
	}
}
