package konvoy_test

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
)

// TestSweepCountsLaneNamesAsItReads: the names a LaneFunc gives lanes are
// kept as keys are, and count in the plan of a Sweep's memory as keys
// do, as they are read: a batch of events closes at sweepBatchBytes of
// new names as of new keys, so that a run whose lane names outgrow
// WithMaxMemory fails with ErrMemory about where they pass it. A review
// found the names counted only once a batch of 4,096 events was full: a
// sweep of 1,000 events whose lanes had names of 1 MiB held 1.3 GiB under
// WithMaxMemory(64 MiB), and failed at the stream's end; 4,096 of them
// ended the process in the runtime's fatal out-of-memory error.
func TestSweepCountsLaneNamesAsItReads(t *testing.T) {
	const name, budget, n = 64 << 10, 4 << 20, 1000
	long := konvoy.NewLayout("long", func(e konvoy.Event) (string, bool) {
		return e.Key + strings.Repeat("-", name-len(e.Key)), true
	})
	events := make([]konvoy.Event, n)
	for i := range events {
		events[i] = konvoy.Event{Key: strconv.Itoa(i), Step: 1, Duration: 1}
	}
	_, err := konvoy.Sweep(context.Background(), konvoy.Values(events), []konvoy.Config{{Layout: long, Consumers: 1}}, konvoy.WithMaxMemory(budget))
	var ee *konvoy.EventError
	if !errors.Is(err, konvoy.ErrMemory) || !errors.As(err, &ee) {
		t.Fatalf("Sweep: %v; want an EventError wrapping ErrMemory", err)
	}
	// The names pass the budget at event 64; a batch closes at 1 MiB of
	// them, 16 events, and the plan knows of them one batch later at most.
	if ee.Index < budget/name/2 || ee.Index > 2*budget/name {
		t.Errorf("Sweep fails at event %d; want it about where the lane names pass %d bytes, event %d", ee.Index, budget, budget/name)
	}
}

// TestSweepCountsALayoutsLaneNamesForItsRunsAlone: a layout's lane names
// are its own, kept in its lane table: a run of another layout keeps none
// of them, and a sweep whose runs do not fit together runs them in passes,
// each with its own names, with the results of each run alone. A review
// found two layouts, each with 8 MiB of lane names (128 of 64 KiB), fit a
// 16 MiB sweep alone and together failed with ErrMemory at event 119, as
// one total of names counted against both.
func TestSweepCountsALayoutsLaneNamesForItsRunsAlone(t *testing.T) {
	const budget, size, lanes, n = 16 << 20, 64 << 10, 128, 400
	layout := func(j int) konvoy.Layout {
		return konvoy.NewLayout("named"+strconv.Itoa(j), func(e konvoy.Event) (string, bool) {
			k, _ := strconv.Atoi(e.Key[1:])
			p := strconv.Itoa(j) + "-" + strconv.Itoa(k%lanes) + "-"
			return p + strings.Repeat("-", size-len(p)), true
		})
	}
	events := make([]konvoy.Event, n)
	for i := range events {
		events[i] = konvoy.Event{Key: "k" + strconv.Itoa(i), Step: 1, Duration: 1, Arrival: i}
	}
	configs := []konvoy.Config{{Layout: layout(0), Consumers: 1}, {Layout: layout(1), Consumers: 1}}
	got, err := konvoy.Sweep(context.Background(), konvoy.Values(events), configs, konvoy.WithMaxMemory(budget))
	if err != nil {
		t.Fatalf("Sweep of two configs, each of which fits alone: %v", err)
	}
	for i, c := range configs {
		want, err := konvoy.Simulate(events, c.Layout, c.Consumers)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("config %d: Sweep's result differs from Simulate's", i)
		}
	}
}
