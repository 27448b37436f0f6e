package konvoy_test

import (
	"context"
	"errors"
	"math"
	"strings"
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

// An error that names an event names it by its index in the whole trace,
// or not at all: the resequencer's ordered run here skips steps that add
// up past the largest int from key B's second ordered event, the trace's
// event 5, its own 3rd; its error names the key, not an index that counts
// only the ordered events.
func TestCompareSelectiveOrderedOverflowNamesNoIndexOfItsOwn(t *testing.T) {
	events := []konvoy.Event{
		{Key: "a", Step: 0}, {Key: "A", Step: 1}, {Key: "A", Step: math.MaxInt, Arrival: 1},
		{Key: "b", Step: 0, Arrival: 1}, {Key: "B", Step: 1, Arrival: 2}, {Key: "B", Step: math.MaxInt, Arrival: 3},
	}
	_, err := konvoy.CompareSelective(context.Background(), konvoy.Values(events), 1, []konvoy.Layout{konvoy.Resequencer},
		konvoy.WithResequencer(konvoy.ResequencerConfig{Timeout: 1}))
	var ev *konvoy.EventError
	if errors.As(err, &ev) && ev.Index != 5 || err == nil || !strings.Contains(err.Error(), `(GapsSkipped) add up past`) || !strings.Contains(err.Error(), `"B"`) {
		t.Errorf("error %v; want the steps skipped past the largest int, from key B's event, indexed in the whole trace or not at all", err)
	}
}
