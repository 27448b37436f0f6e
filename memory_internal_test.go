package konvoy

import (
	"context"
	"flag"
	"fmt"
	"testing"

	"github.com/sirali-konvoy/konvoy/internal/memtest"
)

// What a sweep plans for a key is what it allocates for one, within a
// tenth, under every layout and policy: the stream's share, once, and each
// run's. Runs that plan for less than they take would let a sweep outgrow
// its budget; runs that plan for far more would take passes they need not.
func TestSweepPlansWhatItsKeysTake(t *testing.T) {
	const keys, lines = 100_000, 100
	events := make([]Event, keys)
	for i := range events {
		events[i] = Event{Key: fmt.Sprintf("K%07d", i), Line: fmt.Sprintf("L%d", i%lines), Step: 1, Duration: 1, Arrival: i}
	}
	perKey := func(l Layout, p Policy, runs int) float64 {
		configs := make([]Config, runs)
		for i := range configs {
			configs[i] = Config{Layout: l, Consumers: 4, Options: []Option{WithPolicy(p)}}
		}
		return float64(memtest.Allocated(func() {
			if _, err := Sweep(context.Background(), Values(events), configs); err != nil {
				t.Fatal(err)
			}
		})) / keys
	}
	// The default run checks each layout under one policy, in turn, so
	// that every layout and every policy is checked; -konvoy.long checks
	// every pair.
	long := flag.Lookup("konvoy.long") != nil && flag.Lookup("konvoy.long").Value.String() == "true"
	for li, l := range AllLayouts(64) {
		lanes := map[laneKind]int{keyLanes: keys, lineLanes: lines, partitionLanes: 64}[l.lanes]
		in, _ := newInputs([]Layout{l})
		shared := batchBytes + keysBytes + keys*keyBytes
		if len(in.tables) > 0 {
			shared += in.tables[0].bytes(keys, lanes)
		}
		for pi, p := range Policies() {
			if !long && pi != li%len(Policies()) {
				continue
			}
			r := &sweepRun{sim: &Simulator{layout: l, opts: options{policy: p}, consumers: consumerQueue{n: 4}}}
			run := float64(r.bytes(keys, lanes, 4)) / keys
			plan := float64(shared)/keys + run
			one, more := perKey(l, p, 1), perKey(l, p, 3)
			more = (more - one) / 2
			if one > 1.1*plan || one < 0.9*plan || more > 1.1*run || more < 0.9*run {
				t.Errorf("%s, %s: %.1f bytes a key for one run, %.1f for each more; planned %.1f and %.1f", l, p, one, more, plan, run)
			}
		}
	}
}
