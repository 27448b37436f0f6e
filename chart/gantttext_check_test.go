package chart_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
)

// TestGanttTextRefusesAnInconsistentResult checks that GanttText, given a
// Result whose Schedule does not fit its Rounds or its consumers, returns
// an error that says which slot is wrong and how, and no text, as every
// function of the package treats bad input, rather than index its rows
// with the slots' Consumer, Taken, Start and Finish and panic.
func TestGanttTextRefusesAnInconsistentResult(t *testing.T) {
	slot := func(edit func(s *konvoy.Slot)) []konvoy.Slot {
		s := konvoy.Slot{Key: "a", Consumer: 0, Taken: 0, Start: 0, Finish: 2}
		edit(&s)
		return []konvoy.Slot{s}
	}
	for _, c := range []struct {
		name      string
		r         konvoy.Result
		consumers int
		want      string
	}{
		{"finish after the run's rounds", konvoy.Result{Rounds: 3, Schedule: slot(func(s *konvoy.Slot) { s.Finish = 5 })}, 2,
			"chart: GanttText: slot 0: Finish 5 after the run's Rounds 3"},
		{"negative consumer", konvoy.Result{Rounds: 3, Schedule: slot(func(s *konvoy.Slot) { s.Consumer = -1 })}, 2,
			"chart: GanttText: slot 0: Consumer -1: want 0 to 1"},
		{"consumer beyond the run's", konvoy.Result{Rounds: 3, Schedule: slot(func(s *konvoy.Slot) { s.Consumer = 2 })}, 2,
			"chart: GanttText: slot 0: Consumer 2: want 0 to 1"},
		{"negative taken", konvoy.Result{Rounds: 3, Schedule: slot(func(s *konvoy.Slot) { s.Taken = -2 })}, 2,
			"chart: GanttText: slot 0: Taken -2: want a time from Arrival 0 to Start 0"},
		{"finish before start", konvoy.Result{Rounds: 3, Schedule: slot(func(s *konvoy.Slot) { s.Start, s.Taken, s.Finish = 2, 2, 1 })}, 2,
			"chart: GanttText: slot 0: Finish 1 before Start 2"},
		{"overlap", konvoy.Result{Rounds: 3, Schedule: append(slot(func(*konvoy.Slot) {}), konvoy.Slot{Index: 1, Key: "b", Start: 1, Taken: 1, Finish: 3})}, 2,
			"chart: GanttText: slots 0 and 1 overlap on consumer 0: held [0, 2) and [1, 3), from Taken to Finish"},
		// A consumer holds an event from Taken: it cannot take b while it
		// runs a (drawn, b's hold would paint over a's box).
		{"a hold over another slot", konvoy.Result{Rounds: 3, Schedule: append(slot(func(*konvoy.Slot) {}), konvoy.Slot{Index: 1, Key: "b", Taken: 0, Start: 2, Finish: 3})}, 2,
			"chart: GanttText: slots 0 and 1 overlap on consumer 0: held [0, 2) and [0, 3), from Taken to Finish"},
		{"negative rounds", konvoy.Result{Rounds: -1}, 2, "chart: GanttText: Rounds -1: want 0 or more"},
		{"no consumers", konvoy.Result{Rounds: 3, Schedule: slot(func(*konvoy.Slot) {})}, 0, "chart: GanttText: 0 consumers: want 1 or more"},
		{"slot of a run too long to draw", konvoy.Result{Rounds: 3000, Schedule: slot(func(s *konvoy.Slot) { s.Finish = 3001 })}, 2,
			"chart: GanttText: slot 0: Finish 3001 after the run's Rounds 3000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := chart.GanttText("title", c.r, c.consumers, konvoy.HeadOfLine)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v; want one containing %q", err, c.want)
			}
			if got != "" {
				t.Errorf("an error, but text too:\n%s", got)
			}
		})
	}
}

// GanttText refuses more consumers than a run can have, whose
// consumer-rounds, consumers × Rounds, would pass an int64: past
// math.MaxInt/2 consumers a drawing of 4 rounds said -4 (found by a
// review). An int of 32 bits holds no count above konvoy.MaxConsumers.
func TestGanttTextRefusesMoreConsumersThanARunHas(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("an int of 32 bits holds no count above konvoy.MaxConsumers")
	}
	most := int64(konvoy.MaxConsumers) // a variable: the constant + 1 overflows a 32-bit int
	over := int(most + 1)
	r := konvoy.Result{Rounds: 4, Schedule: []konvoy.Slot{{Key: "a", Finish: 4}}}
	for _, consumers := range []int{over, math.MaxInt / 2} {
		got, err := chart.GanttText("title", r, consumers, konvoy.HeadOfLine)
		if want := fmt.Sprintf("chart: GanttText: %d consumers: want 1 to 2147483647", consumers); err == nil || err.Error() != want || got != "" {
			t.Errorf("%d consumers: text %q, error %v; want no text and %q", consumers, got, err, want)
		}
	}
}

// GanttText refuses a run made without konvoy.WithSchedule, whose Events
// it would draw as consumers with nothing to do, and a policy that is none
// of konvoy's, whose blocking it cannot name (found by a review).
func TestGanttTextRefusesARunWithoutItsScheduleOrPolicy(t *testing.T) {
	events := []konvoy.Event{{Key: "a", Step: 1, Duration: 2}, {Key: "a", Step: 2, Duration: 1}, {Key: "b", Step: 1, Duration: 3}}
	r, err := konvoy.Simulate(events, konvoy.Convoy, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := "chart: GanttText: 0 slots for 3 events: want a slot for each event, from a run made with konvoy.WithSchedule"
	if got, err := chart.GanttText("t", r, 2, konvoy.HeadOfLine); got != "" || err == nil || err.Error() != want {
		t.Errorf("a run without its schedule: %q, %v; want no text and %q", got, err, want)
	}
	r, err = konvoy.Simulate(events, konvoy.Convoy, 2, konvoy.WithSchedule(3))
	if err != nil {
		t.Fatal(err)
	}
	want = "chart: GanttText: Policy(9): want one of konvoy.Policies"
	if got, err := chart.GanttText("t", r, 2, konvoy.Policy(9)); got != "" || err == nil || err.Error() != want {
		t.Errorf("policy 9: %q, %v; want no text and %q", got, err, want)
	}
}

// SimulateLatency of no events gives series of no slots, as Simulate gives
// a Result of none, where it panicked in WithSchedule(0); SimulateRounds
// refuses counts that do not rise, which Rounds would refuse later (found
// by a review).
func TestSimulateOfNoEventsAndOfFallingCounts(t *testing.T) {
	series, err := chart.SimulateLatency(nil, []konvoy.Layout{konvoy.Free, konvoy.Convoy}, 1)
	if err != nil || len(series) != 2 || len(series[0].Slots) != 0 || series[1].Layout != "convoy" {
		t.Errorf("SimulateLatency(no events): %+v, %v; want two series of no slots", series, err)
	}
	events := []konvoy.Event{{Key: "a", Step: 1, Duration: 1}}
	want := "chart: SimulateRounds: counts 2 then 2: want counts that rise"
	if _, _, err := chart.SimulateRounds(events, []konvoy.Layout{konvoy.Free}, []int{1, 2, 2}); err == nil || err.Error() != want {
		t.Errorf("counts 1,2,2: %v; want %q", err, want)
	}
}
