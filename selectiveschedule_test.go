package konvoy_test

import (
	"context"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// The runs of the ordered events alone in a SelectiveComparison must name
// their events by their index in the whole trace, in their Schedule as in
// their errors: CompareSelective's doc says "an event's index is its index
// in the whole trace", and Sweep already rewrites an ordered run's
// EventError.Index so ("not the index among the events it took"). A Slot
// whose Index counts only the ordered events names another event of the
// trace, so a caller who joins the schedule to the trace by Index (to
// picture the run, or read a slot's Step) reads the wrong events.
func TestCompareSelectiveOrderedScheduleIndexesTheWholeTrace(t *testing.T) {
	events := []konvoy.Event{
		{Key: "a", Step: 0, Duration: 1}, // history only: not in the ordered runs
		{Key: "a", Step: 1, Duration: 1},
		{Key: "b", Step: 0, Duration: 1},
		{Key: "b", Step: 1, Duration: 2},
	}
	c, err := konvoy.CompareSelective(context.Background(), konvoy.Values(events), 2, []konvoy.Layout{konvoy.Convoy}, konvoy.WithSchedule(10))
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range []struct {
		name string
		r    konvoy.Result
	}{{"OrderedFree", c.OrderedFree}, {"OrderedConvoy", c.OrderedConvoy}, {"Ordered[0]", c.Ordered[0]}} {
		name, r := run.name, run.r
		for _, s := range r.Schedule {
			if s.Index < 0 || s.Index >= len(events) || events[s.Index].Step == 0 || events[s.Index].Key != s.Key {
				t.Errorf("%s: slot %+v names event %d of the trace, %+v; want the index of an ordered event of key %q in the whole trace (1 or 3)", name, s, s.Index, events[min(max(s.Index, 0), len(events)-1)], s.Key)
			}
		}
	}
}
