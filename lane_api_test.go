package konvoy_test

// Layout.Lane and Layout.Owner, the simulator's lanes and static
// assignment as package live reads them.

import (
	"errors"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"pgregory.net/rapid"
)

// Layout.Lane names the lane every event runs in as the simulator's own
// schedule does, and Layout.Owner the consumer the Static policy runs it on:
// both are what package live reads to run a layout for real, so they must
// be the simulator's dispatch, not another reading of the layouts. Lanes
// are numbered for Owner in the order the schedule first shows them.
func TestLaneAndOwnerAreTheSchedules(t *testing.T) {
	byName := konvoy.NewLayout("by-name", func(e konvoy.Event) (string, bool) { return e.Line + "/" + e.Key[:2], e.Step != 3 })
	layouts := append(append([]konvoy.Layout{}, allLayouts...), byName, konvoy.Recorded(4), konvoy.Partitioned(5))
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		events := eventsOf(anyShape).Draw(t, "events")
		for i := range events {
			events[i].Partition = rapid.IntRange(0, 3).Draw(t, "partition")
		}
		l := rapid.SampledFrom(layouts).Draw(t, "layout")
		c := rapid.IntRange(1, 6).Draw(t, "consumers")
		a := rapid.SampledFrom([]konvoy.Assignor{0, konvoy.FirstSeenAssignor, konvoy.RangeAssignor, konvoy.RoundRobinAssignor}).Draw(t, "assignor")
		opts := []konvoy.Option{konvoy.WithSchedule(len(events) + 1), konvoy.WithPolicy(konvoy.Static)}
		if a != 0 {
			opts = append(opts, konvoy.WithAssignor(a))
		}
		r, err := konvoy.Simulate(events, l, c, opts...)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, s := range r.Schedule {
			lane, ok, err := l.Lane(events[s.Index])
			if err != nil || ok != (s.Lane != "") || lane != s.Lane {
				t.Fatalf("event %d under %s: Lane = %q, %v, %v; the schedule has %q", s.Index, l, lane, ok, err, s.Lane)
			}
			if !ok {
				continue
			}
			if _, ok := seen[lane]; !ok {
				seen[lane] = len(seen)
			}
			if got := l.Owner(a, lane, seen[lane], c); got != s.Consumer {
				t.Fatalf("lane %q of %s under %v on %d consumers: Owner = %d; the schedule ran it on %d", lane, l, a, c, got, s.Consumer)
			}
		}
	})
}

// Layout.Lane refuses, as Simulate does, an event the layout cannot place.
func TestLaneRefusesWhatSimulateRefuses(t *testing.T) {
	for _, c := range []struct {
		l     konvoy.Layout
		e     konvoy.Event
		field string
	}{
		{konvoy.LineConvoy, konvoy.Event{Key: "a", Step: 1}, "Line"},
		{konvoy.Recorded(3), konvoy.Event{Key: "a", Partition: 3}, "Partition"},
		{konvoy.Recorded(3), konvoy.Event{Key: "a", Partition: -1}, "Partition"},
	} {
		_, ok, err := c.l.Lane(c.e)
		var ee *konvoy.EventError
		if ok || !errors.As(err, &ee) || ee.Field != c.field {
			t.Errorf("%s.Lane(%+v) = %v, %v; want an EventError on %s", c.l, c.e, ok, err, c.field)
		}
		if _, err := konvoy.Simulate([]konvoy.Event{c.e}, c.l, 1); !errors.As(err, &ee) || ee.Field != c.field {
			t.Errorf("Simulate refuses %+v under %s with %v; want the same field, %s", c.e, c.l, err, c.field)
		}
	}
	if lane, ok, err := konvoy.Recorded(3).Lane(konvoy.Event{Key: "a", Partition: 2}); lane != "2" || !ok || err != nil {
		t.Errorf("Recorded(3) partition 2: %q, %v, %v", lane, ok, err)
	}
	if _, ok, err := konvoy.Convoy.Lane(konvoy.Event{}); ok || err != nil {
		t.Errorf("an empty key takes a lane under Convoy: %v, %v", ok, err)
	}
}

// Layout.Owner panics, as its doc says, on what only a programmer can get
// wrong.
func TestOwnerMisuse(t *testing.T) {
	for name, f := range map[string]func(){
		"no consumers":  func() { konvoy.Convoy.Owner(0, "a", 0, 0) },
		"negative seen": func() { konvoy.Convoy.Owner(0, "a", -1, 2) },
		"assignor":      func() { konvoy.Convoy.Owner(9, "a", 0, 2) },
		"not a number":  func() { konvoy.Partitioned(3).Owner(0, "x", 0, 2) },
		"out of range":  func() { konvoy.Partitioned(3).Owner(0, "3", 0, 2) },
		"leading zero":  func() { konvoy.Partitioned(3).Owner(0, "01", 0, 2) },
		"sign":          func() { konvoy.Partitioned(3).Owner(0, "+1", 0, 2) },
	} {
		func() {
			defer func() {
				if p, _ := recover().(string); !strings.HasPrefix(p, "konvoy: Owner") {
					t.Errorf("%s: recovered %q; want a konvoy: panic", name, p)
				}
			}()
			f()
		}()
	}
}

// Layout.Lane's error on a Partition outside a Recorded layout's range
// says the range that is wanted, 0 to n−1, so the user sees which values
// are right.
func TestLaneSaysThePartitionsWanted(t *testing.T) {
	_, _, err := konvoy.Recorded(3).Lane(konvoy.Event{Key: "a", Partition: 3})
	var ee *konvoy.EventError
	if !errors.As(err, &ee) || !strings.HasPrefix(ee.Want, "0 to 2:") || !strings.Contains(ee.Want, "has 3 partitions") {
		t.Errorf("Recorded(3) refuses partition 3 with %v; want it to say 0 to 2 and 3 partitions", err)
	}
}
